"""The Factions ("The Factions") and their model rules.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from fractions import Fraction

from oddsmith.rules.shadows._lookup import lookup
from oddsmith.rules.shadows.arcane import Entity
from oddsmith.rules.shadows.dice import CastingModifier, FightModifier, halved_die_distribution
from oddsmith.rules.shadows.moving import MOVE_INCHES
from oddsmith.rules.shadows.shooting import BEAR_HUG_MARGIN, SaveModifier

# ---------------------------------------------------------------------------
# Factions ("The Factions") and their model rules that change dice
# ---------------------------------------------------------------------------


class Faction(enum.Enum):
    """The six Factions of Dracula's America, and no Faction."""

    NONE = "None"
    TWILIGHT_ORDER = "The Twilight Order"
    RED_HAND_COVEN = "The Red Hand Coven"
    SKINWALKER_TRIBES = "The Skinwalker Tribes"
    CROSSROADS_CULT = "The Crossroads Cult"
    CONGREGATION = "The Congregation"
    DARK_CONFEDERACY = "The Dark Confederacy"

    @property
    def label(self) -> str:
        return self.value

    @property
    def slug(self) -> str:
        """File-name form: 'twilight-order', ...; 'unaligned' for no Faction."""
        if self is Faction.NONE:
            return "unaligned"
        return re.sub(r"[^a-z]+", "-", self.value.removeprefix("The ").lower()).strip("-")


FACTIONS: dict[str, Faction] = {f.value: f for f in Faction}
_FACTION_ALIASES = {"Twilight Order": "The Twilight Order", "Red Hand Coven": "The Red Hand Coven",
                    "Red Hand": "The Red Hand Coven", "Skinwalker Tribes": "The Skinwalker Tribes",
                    "Skinwalkers": "The Skinwalker Tribes", "Crossroads Cult": "The Crossroads Cult",
                    "Crossroads": "The Crossroads Cult", "Congregation": "The Congregation",
                    "Dark Confederacy": "The Dark Confederacy", "Unaligned": "None", "No Faction": "None",
                    "Twilight": "The Twilight Order", "Order": "The Twilight Order", "Coven": "The Red Hand Coven",
                    "Skinwalker": "The Skinwalker Tribes", "Cult": "The Crossroads Cult",
                    "Confederacy": "The Dark Confederacy"}


def faction(name: str | Faction | None) -> Faction:
    if name is None:
        return Faction.NONE
    if isinstance(name, Faction):
        return name
    return lookup("faction", str(name), FACTIONS, _FACTION_ALIASES)


@dataclass(frozen=True)
class FactionRole:
    """A Faction's unique model type and what it changes ("The Factions").

    ``exactly``/``at_most`` count models of the role in a Posse; the
    eligibility flags say who may take it; ``skills``, ``gear`` and
    ``powers`` are granted for free.
    """

    name: str
    faction: Faction
    exactly: int | None
    at_most: int
    notes: str
    boss_only: bool = False
    not_boss: bool = False
    not_hired_gun: bool = True
    not_supernatural: bool = False
    supernatural: bool = False
    flying: bool = False
    arcanist: bool = False
    required_power: str | None = None
    skills: tuple[str, ...] = ()
    gear: tuple[str, ...] = ()
    powers: tuple[str, ...] = ()
    move: int | None = None
    """Its Move rate ("Move 6""); with ``beast_form``, in its Beast Form only."""
    beast_form: str | None = None
    """A Skinwalker's Beast Form (a key of :data:`BEAST_FORMS`): it "may assume its Beast Form ... by using an entire
    Move Action" and "must begin each game in Human Form" (:func:`beast_form_of`)."""
    feeds: bool = False
    """A Broodkin: "if a Shaken Broodkin spends an Action while in Contact with a Downed Bystander or Downed
    non-Supernatural model, they will Feed" (:data:`FEED`)."""
    silver_bullets: bool = False
    loses_weapons_and_gear: bool = False
    may_not_advance: bool = False


FACTION_ROLES: dict[str, FactionRole] = {r.name: r for r in (
    FactionRole("Crusader", Faction.TWILIGHT_ORDER, 2, 2,
                "Crusaders of the Order: Nerves of Steel, armour counting as Boilerplate, all Weapons loaded with Silver Bullets.",
                skills=("Nerves of Steel",), gear=("Boilerplate",), silver_bullets=True),
    FactionRole("Broodkin", Faction.RED_HAND_COVEN, 2, 2,
                "Broodkin (Broodsire if the Boss): Supernatural, Move 6\", Hard to Kill, the Transfix Power (not Arcanists); "
                "a Shaken Broodkin Feeds on a Downed non-Supernatural model in Contact to remove its Shaken marker.",
                supernatural=True, skills=("Hard to Kill",), powers=("Transfix",), move=6, feeds=True),
    FactionRole("Skinwalker (Wolf)", Faction.SKINWALKER_TRIBES, None, 2,
                "Skinwalker with Wolf Beast Form: Supernatural; in Beast Form Fearsome, 40mm base, Moves 6\", +2 Dice in a Fight "
                "when on the Attack, no Weapons or Gear.", supernatural=True, move=6, beast_form="Wolf Form"),
    FactionRole("Skinwalker (Bear)", Faction.SKINWALKER_TRIBES, None, 2,
                "Skinwalker with Bear Beast Form: Supernatural; in Beast Form Fearsome, 40mm base; winning a Fight gives the "
                "loser -1 Save; winning by 2+ against a smaller base makes failed-Save Damage one worse.", supernatural=True,
                beast_form="Bear Form"),
    FactionRole("Magister", Faction.CROSSROADS_CULT, 1, 1,
                "The Boss becomes an Arcanist for free; one of its three Powers must be Summon.",
                boss_only=True, arcanist=True, required_power="Summon"),
    FactionRole("Harbinger of the Abyss", Faction.CROSSROADS_CULT, 1, 1,
                "Flying, Supernatural, knows Summon (not an Arcanist); within 6\" the Magister gets +1 Die to Cast; never the Boss.",
                not_boss=True, supernatural=True, flying=True, powers=("Summon",)),
    FactionRole("Vessel", Faction.CONGREGATION, 1, 1,
                "Chosen before each game: Flying, Supernatural, Tough, Fearsome, Arcane Blast (not an Arcanist); loses its "
                "Weapons, Gear and Horse for the game (its own again after the game).", not_supernatural=True, supernatural=True, flying=True,
                skills=("Tough", "Fearsome"), powers=("Arcane Blast",), loses_weapons_and_gear=True),
    FactionRole("Zombi", Faction.CONGREGATION, None, 2,
                "Zombi Warrior: Supernatural, gains Lead-Belly and Tough, keeps Rank, Skills, Injuries, Powers, Weapons and Gear; "
                "no more EXP or Advances. Up to two in a one-off game.", not_supernatural=True, supernatural=True,
                skills=("Lead-Belly", "Tough"), may_not_advance=True),
    FactionRole("Master Necromancer", Faction.DARK_CONFEDERACY, 1, 1,
                "The Boss becomes an Arcanist; Faith Healing must be one of its Powers.",
                boss_only=True, arcanist=True, required_power="Faith Healing"),
)}
"""Faction model roles; Skinwalker Tribes need exactly two Skinwalkers (Wolf and/or Bear) in total.

A Congregation posse has exactly one Vessel: "Before each game, one non-Supernatural, non-Hired Gun model
of your choice in your Posse must be the Vessel" (a posse file describes the posse for a game, so the
model chosen this game carries ``role = "Vessel"``)."""

SKINWALKERS_PER_POSSE = 2
WOLF_FORM_ATTACK_DICE = FightModifier.WOLF_FORM.dice
BEAR_FORM_WIN_SAVE_MODIFIER = SaveModifier.BEAR_FORM.modifier


BEAST_FORM_BASE_MM = 40
"""A Beast Form: "the model is replaced with a suitable monstrous model on a 40mm base"."""


@dataclass(frozen=True)
class BeastForm:
    """A Skinwalker's Beast Form ("The Skinwalker Tribes": Wolf Form, Bear Form).

    In it the model "gains Fearsome, plus the appropriate abilities listed below, but cannot use any Weapons or
    Gear, Cast Arcane Powers or ride a horse"; it stands on a 40mm base. ``move``: its Move rate (None: the
    model's own, "Move": 4"); ``attack_dice``: the Dice Modifier "in a Fight when on the Attack";
    ``win_save_modifier``: the Save Modifier its opponent suffers when it wins a Fight; ``bear_hug_margin``: a win
    by at least this much against a smaller base makes a failed Save's Damage one worse (None: no bear-hug)."""

    name: str
    move: int | None = None
    attack_dice: int = 0
    win_save_modifier: int = 0
    bear_hug_margin: int | None = None
    base_mm: int = BEAST_FORM_BASE_MM
    fearsome: bool = True
    uses_weapons_and_gear: bool = False
    casts: bool = False

    @property
    def move_inches(self) -> int:
        """Its Move in it: its own, or the book's 4" (no Boilerplate slows it: no Gear in a Beast Form)."""
        return self.move if self.move is not None else MOVE_INCHES


BEAST_FORMS: dict[str, BeastForm] = {f.name: f for f in (
    BeastForm("Wolf Form", move=6, attack_dice=WOLF_FORM_ATTACK_DICE),
    BeastForm("Bear Form", win_save_modifier=BEAR_FORM_WIN_SAVE_MODIFIER, bear_hug_margin=BEAR_HUG_MARGIN),
)}
"""The two Beast Forms: "Wolf Form. Moves 6", and has an additional +2 Die Modifier in a Fight when on the Attack";
"Bear Form. If this model wins a Fight, its opponent suffers a -1 Save Modifier. In addition, when Fighting an
opponent on a smaller base, if the Skinwalker wins by two or more ... it treats the Damage result as one worse"."""

BEAST_FORM_CHANGE_ACTION = "Move"
"""It "may assume its Beast Form or return to Human Form by using an entire Move Action to do so"."""
BEAST_FORM_LOST_WHEN_DOWNED = True
""""If Downed, it reverts to Human Form immediately - a Downed Skinwalker cannot assume its Beast Form until it
Recovers." ("Shaken and other game markers carry over between Forms.")"""


def beast_form_of(role: "FactionRole | None") -> BeastForm | None:
    """The Beast Form of a Skinwalker role, None for any other role."""
    return BEAST_FORMS[role.beast_form] if role is not None and role.beast_form else None


@dataclass(frozen=True)
class Feed:
    """The Red Hand Coven's Broodkin Feed: "if a Shaken Broodkin spends an Action while in Contact with a Downed
    Bystander or Downed non-Supernatural model, they will Feed. Their victim is removed from play, and the Broodkin
    removes their Shaken marker." ``victim_supernatural``: whether a Supernatural victim may be fed on."""

    needs_shaken: bool = True
    victim_downed: bool = True
    victim_supernatural: bool = False
    removes_victim: bool = True
    removes_shaken: bool = True


FEED = Feed()
NATIVE_AMERICAN_ONLY_FACTIONS = (Faction.SKINWALKER_TRIBES,)
NOT_NATIVE_AMERICAN_FACTIONS = (Faction.CROSSROADS_CULT,)


MAGISTER = "Magister"
HARBINGER = "Harbinger of the Abyss"
HARBINGER_RANGE_INCHES = 6
HARBINGER_CASTING_DICE = CastingModifier.HARBINGER.dice
"""The Harbinger of the Abyss: "If they are not Downed and are within 6" of their Posse's Magister, then the Magister
gets a +1 Die Modifier on all their Casting Tests"."""


def faction_role(name: str | FactionRole) -> FactionRole:
    if isinstance(name, FactionRole):
        return name
    return lookup("faction role", str(name), FACTION_ROLES, {
        "Broodsire": "Broodkin", "Crusader of the Order": "Crusader", "Wolf": "Skinwalker (Wolf)",
        "Bear": "Skinwalker (Bear)", "Harbinger": "Harbinger of the Abyss", "Necromancer": "Master Necromancer",
        "Zombi Warrior": "Zombi"})


REVENANTS = "D3+1"
REVENANT_DIE = 3
REVENANT_BONUS = 1
"""D3+1 Revenants: a D3 (a D6 halved, rounded up) plus 1."""
REVENANT = Entity("Revenant", 25, 4, 6, "Fearsome. Hard to Kill. Armed with a Pistol.", ("Fearsome", "Hard to Kill"))
"""The Dark Confederacy's Revenants: D3+1 join the Posse each game (Faction Benefit: Revenants)."""


def revenants_distribution() -> dict[int, Fraction]:
    """Number of Revenants before a game: D3+1 (2, 3 or 4, each 1/3)."""
    return {k + 1: p for k, p in halved_die_distribution(3).items()}
