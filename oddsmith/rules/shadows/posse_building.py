"""Posse building ("Building a Posse for One-Off Games", "Building a Campaign Posse").

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import lookup
from oddsmith.rules.shadows.dice import Rank, rank

# ---------------------------------------------------------------------------
# Posse building ("Building a Posse for One-Off Games", "Building a Campaign Posse")
# ---------------------------------------------------------------------------


class PosseMethod(enum.Enum):
    """How a Posse is built: the one-off Basic and Advanced methods, or a new Campaign Posse."""

    BASIC = "basic"
    ADVANCED = "advanced"
    CAMPAIGN = "campaign"


def posse_method(name: str | PosseMethod) -> PosseMethod:
    if isinstance(name, PosseMethod):
        return name
    return lookup("posse-building method", str(name), {m.value: m for m in PosseMethod})


BASIC_POSSE_SIZE = (6, 10)
"""Basic method: agree a maximum Posse size, "between six and ten will give a good-sized game"; one Hero
(the Boss), the rest Novices, two Novices trade for one Veteran; one stick of Dynamite per Posse."""
BASIC_NOVICES_PER_VETERAN = 2
BASIC_DYNAMITE_PER_POSSE = 1

ADVANCED_DOLLAR_LIMIT = 100
ADVANCED_DOLLAR_LIMIT_UPPER = 200
ADVANCED_POSSE_SIZE = (3, 10)
"""Advanced method: $100 recommended (around $200 the uppermost for a quick game); one free Hero (the Boss),
Novices $4, Veterans $10, Hired Guns at their Hire fee; 3 to 10 models; at most a third Hired Guns."""

CAMPAIGN_STARTING_POSSE: dict[Rank, int] = {Rank.VETERAN: 1, Rank.NOVICE: 5}
CAMPAIGN_STARTING_DOLLARS = 22
"""A Campaign Posse starts with one Veteran (the Boss) and five Novices and $22 of Basic Weapons only."""

SKILL_BASE_COST: dict[Rank, int] = {Rank.NOVICE: 2, Rank.VETERAN: 4, Rank.HERO: 6}
"""Each Skill costs $2 for a Novice, $4 for a Veteran and $6 for a Hero ("Add Skills")."""


def skill_cost(model_rank: Rank | str, nth: int) -> int:
    """Price of a model's ``nth`` purchased Skill (1-based): base; the 2nd +$2, the 3rd +$3, and so on.

    The book's example: a Veteran pays $4, then $6, then $7.
    """
    if nth < 1:
        raise OddsmithError(f"skills are counted from 1, got {nth}")
    base = SKILL_BASE_COST[rank(model_rank)]
    return base if nth == 1 else base + nth


def skills_cost(model_rank: Rank | str, count: int) -> int:
    """Total price of ``count`` Skills bought for one model."""
    return sum(skill_cost(model_rank, k) for k in range(1, count + 1))


@dataclass(frozen=True)
class PosseRule:
    """A posse-building rule a validator can name when it is broken."""

    key: str
    text: str
    section: str


POSSE_RULES: dict[str, PosseRule] = {r.key: r for r in (
    PosseRule("dollar-limit", "the total cost of models, Weapons, Gear and Skills may not exceed the Dollar Limit",
              "Advanced Posse Creation"),
    PosseRule("posse-size", "a Posse has between three and ten models (Advanced) or at most the agreed maximum (Basic)",
              "Basic/Advanced Posse Creation"),
    PosseRule("one-hero-boss", "a one-off Posse has exactly one Hero, its Boss (a Campaign Posse starts with one Veteran Boss)",
              "Basic/Advanced Posse Creation, Building a Campaign Posse"),
    PosseRule("basic-trade", "the rest of a Basic Posse are Novices; two Novices trade for one Veteran", "Basic Posse Creation"),
    PosseRule("one-weapon", "each model must have at least one Weapon", "Advanced Posse Creation, Building a Campaign Posse"),
    PosseRule("three-weapons", "each model may have at most three Weapons", "Advanced Posse Creation, Buying and Selling"),
    PosseRule("three-gear", "each model may have at most three items of Gear and horses in total", "Advanced Posse Creation"),
    PosseRule("one-horse", "each model can have a single Horse, which takes a Gear slot", "Buying and Selling"),
    PosseRule("two-per-weapon", "no more than two models may have the same Weapon, except Pistols",
              "Basic/Advanced Posse Creation"),
    PosseRule("one-dynamite", "only one stick of Dynamite is allowed per Basic Posse", "Basic Posse Creation"),
    PosseRule("hired-gun-once", "each Hired Gun can only be included once per Posse", "Advanced Posse Creation, Hired Guns"),
    PosseRule("hired-gun-third", "only a third of your models may be Hired Guns", "Advanced Posse Creation"),
    PosseRule("hired-gun-boss", "a Hired Gun is never a Posse's Boss", "Hired Guns"),
    PosseRule("hired-gun-faction", "a Hired Gun limited to a Faction may only be hired by that Faction", "Supernatural Hired Guns"),
    PosseRule("skill-once", "a model can only know each Skill once", "Random Skill, Preferred Skill"),
    PosseRule("native-american", "Bows are for Native Americans only; Skinwalker Tribes are Native American Posses; "
              "Native American Posses can never join the Crossroads Cult", "Basic Weapons Table, The Factions"),
    PosseRule("basic-weapons-only", "a new Campaign Posse buys Basic Weapons only, no Gear or horses", "Building a Campaign Posse"),
    PosseRule("one-arcanist", "a Posse has only one Arcanist (plus Maverick Arcanists and Faction models with Powers)",
              "Arcane Powers"),
    PosseRule("arcanist-powers", "an Arcanist chooses three different Powers (at most six)", "Arcane Powers"),
    PosseRule("unique-summoning", "a unique Summoning is Summoned by an Arcanist of its Faction who knows Summon, "
              "one per Entity type", "Unique Summonings"),
    PosseRule("faction-roles", "a Faction's unique models follow its Faction Benefit (how many, who may take the role)",
              "The Factions"),
    PosseRule("unique-gear", "Marked Cards: one per Posse; Vial of Nitro: one per model and no Horse; Telescopic Sight: on a "
              "Rifle-Class Weapon; Blessed Water and Holy Symbol: non-Supernatural models only", "Horses and Gear Summary"),
    PosseRule("no-price", "an item the rulebook text gives no price for needs a house price in the posse file's [prices]",
              "Item Price List"),
    PosseRule("dracula-factions", "a Posse aligns with a Faction only when using the rules of the Dracula's America chapter",
              "Basic/Advanced Posse Creation"),
    PosseRule("supernatural-gear", "Supernatural Gear and Hired Guns are only used with the Dracula's America rules (a Faction)",
              "Supernatural Gear, Supernatural Hired Guns"),
)}
