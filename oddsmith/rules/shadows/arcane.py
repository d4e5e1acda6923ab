"""Arcane Powers ("Arcane Powers", "Casting Powers", "Arcane Power Summary") and summoned Entities.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from oddsmith.rules.shadows._lookup import lookup
from oddsmith.rules.shadows.dice import CastingModifier, Rank, is_success

# ---------------------------------------------------------------------------
# Arcane Powers ("Arcane Powers", "Casting Powers", "Arcane Power Summary")
# ---------------------------------------------------------------------------

CASTING_DICE = 3
ARCANIST_STARTING_POWERS = 3
ARCANIST_MAX_POWERS = 6
ARCANISTS_PER_POSSE = 1
ARCANIST_INFAMY = 1
CONCENTRATE_DICE = CastingModifier.CONCENTRATE.dice
"""Concentrate: "A Caster may declare a special Concentrate Action as the first Action of their Activation. If their
second Action is to Cast, they gain a +1 Die Modifier to their Casting Test" (that Activation only)."""


@dataclass(frozen=True)
class ArcanePower:
    """An Arcane Power: Difficulty is the Successes a 3 Dice Casting Test needs.

    ``difficulties`` lists every Difficulty the caster may choose (Summon: 1-3).
    """

    name: str
    difficulties: tuple[int, ...]
    range_inches: int | None
    effect: str
    dice: int | None = None

    @property
    def difficulty(self) -> int:
        return self.difficulties[0]


ARCANE_POWERS: dict[str, ArcanePower] = {p.name: p for p in (
    ArcanePower("Arcane Blast", (2,), 9, "Make an unmodified 3 Dice Shooting Test against one visible Target within 9\"; "
                "four Dice if the Target is an Entity.", dice=3),
    ArcanePower("Banish", (1,), 6, "Caster and a visible enemy Entity within 6\" each roll one Grit Die; if the Caster rolls "
                "higher, the Entity is removed from play."),
    ArcanePower("Bless", (1,), 12, "Bless token on a visible friend within 12\": it re-rolls all Failures once in its very next "
                "Test or Save."),
    ArcanePower("Curse", (1,), 12, "Curse token on a visible enemy within 12\": it must re-roll all Successes once in its very "
                "next Test or Save."),
    ArcanePower("Dispel", (2,), 12, "Remove any one Bless, Curse or Warding Circle token/marker within 12\"; no LOS needed."),
    ArcanePower("Faith Healing", (3,), 0, "A friendly Down/Shaken model in Contact recovers: stands up if Down, or removes Shaken."),
    ArcanePower("Immolate", (3,), 3, "All other models with centre of base within 3\" make a 5+ Save; those partly within pass a "
                "1 Die Reaction Test or Save too."),
    ArcanePower("Scry", (1,), None, "Look at one opposing player's Hand of cards."),
    ArcanePower("Summon", (1, 2, 3), 3, "Difficulty 1: a Lesser Entity, 2: a Minor Entity, 3: a Major Entity, placed within LOS "
                "and 3\" of the Caster, no closer than 1\" to an enemy; Faction-specific Entities take -1 Die."),
    ArcanePower("Transfix", (2,), 6, "A visible non-Entity enemy within 6\" not yet Activated must Succeed a 1 Die Nerve Test or "
                "receive a Done Token."),
    ArcanePower("Warding Circle", (2,), 0, "A 50mm marker centred under the Caster that no enemy Supernatural model may Move "
                "into; lasts until the Caster makes another Action/Reaction or is Downed."),
)}

IMMOLATE_SAVE = 5
IMMOLATE_REACTION_DICE = 1
"""Immolate: a model within the 3" radius whose centre is not "may make a 1 Die Reaction Test. If Failed, they must
make the Save as well"."""
MISCAST = "no Successes and at least one Die scoring 1: the Caster becomes Shaken (Downed if already Shaken)"
"""Miscast ("Casting Powers"); during an Arcane Storm a Miscast makes the Caster a Casualty."""


def is_miscast(scores: Iterable[int]) -> bool:
    """A Casting Test Miscasts when it scores no Successes and at least one Die is a 1."""
    scores = list(scores)
    return not any(is_success(s) for s in scores) and any(s == 1 for s in scores)


def arcane_power(name: str | ArcanePower) -> ArcanePower:
    if isinstance(name, ArcanePower):
        return name
    return lookup("Arcane Power", str(name), ARCANE_POWERS)


@dataclass(frozen=True)
class Entity:
    """A Summoned Entity or Supernatural Creature profile (Common Summoned Models, Unique Summonings, Bestiary)."""

    name: str
    base_mm: int | None
    move: int | None
    grit: int | None
    special: str
    skills: tuple[str, ...] = ()
    entity_class: str | None = None
    summoned_by: str | None = None
    """Unique Summonings: the Faction (its name, ``Faction.value``) whose Arcanists alone may Summon it."""
    weapons: tuple[str, ...] = ()
    silver_bullets: bool = False
    never_jams: bool = False
    """The Seraphim's "two Blessed Pistols (Pistols with Silver Bullets that never Jam)"."""
    flying: bool = False
    breath_inches: int | None = None
    """The Behemoth's "breath attack which uses a 4" Fire Corridor" (:func:`breath_weapon`), None: no breath."""
    lasso: bool = False
    """The Swamp Baka "May unleash writhing tendrils, using the rules for a Lasso" (:data:`LASSO_RANGE`)."""
    not_played: str | None = None
    """What of its profile the table battle does not play (docs/shadows-battles.md section 12), None: all of it."""

    @property
    def difficulty(self) -> int | None:
        """The Summon Difficulty of its type: "Difficulty 1 Summons a Lesser Entity, 2 Summons a Minor Entity, and 3
        Summons a Major Entity"; unique Summonings "count as either Lesser, Minor or Major Entities"."""
        return {"Lesser": 1, "Minor": 2, "Major": 3}.get(self.entity_class or "")

    @property
    def rank(self) -> Rank | None:
        """Reading (KERNEL-NOTES Q31-Q32): an Entity plays as the Rank whose Grit Die it has (D6 Novice, D8 Veteran,
        D10 Hero): its Shaken die, and the Victory Points it is worth "to the model that caused it to become a
        Casualty, as normal"."""
        return next((r for r in Rank if r.die == self.grit), None)


SUMMONED_ENTITIES: dict[str, Entity] = {e.name: e for e in (
    Entity("Lesser Entity", 25, 4, 6, "Entity. Fearsome", ("Fearsome",), "Lesser"),
    Entity("Minor Entity", 25, 4, 8, "Entity. Fearsome", ("Fearsome",), "Minor"),
    Entity("Major Entity", 40, 4, 10, "Entity. Fearsome", ("Fearsome",), "Major"),
)}
SUMMON_DIFFICULTY: dict[int, str] = {1: "Lesser Entity", 2: "Minor Entity", 3: "Major Entity"}

UNIQUE_SUMMONINGS: dict[str, Entity] = {e.name: e for e in (
    Entity("Behemoth", 40, 4, 10, "Major Entity. Flying, Fearsome. Breath attack: a 4\" Fire Corridor. Crossroads Cult only.",
           ("Fearsome",), "Major", "The Crossroads Cult", flying=True, breath_inches=4),
    Entity("Hellhound", 25, 6, 6, "Lesser Entity. Fearsome. Crossroads Cult only.", ("Fearsome",), "Lesser",
           "The Crossroads Cult"),
    Entity("Seraphim", 25, 6, 10, "Major Entity. Flying. Gunslinger. Fearsome. Two Blessed Pistols (Silver Bullets, never Jam). "
           "Twilight Order only.", ("Gunslinger", "Fearsome"), "Major", "The Twilight Order", ("Pistol", "Pistol"),
           silver_bullets=True, never_jams=True, flying=True),
    Entity("Swamp Baka", 40, 4, 8, "Major Entity. Fearsome. Hard to Kill. Lead-Belly. Tough. Ignores rough ground. Tendrils as a "
           "Lasso. Congregation only.", ("Fearsome", "Hard to Kill", "Lead-Belly", "Tough"), "Major", "The Congregation",
           lasso=True,
           not_played="rough ground: the table has none"),
)}
UNIQUE_SUMMONING_DICE = CastingModifier.UNIQUE_SUMMONING.dice
"""Unique Summonings: "if they do so, the Casting Test suffers a -1 Die Modifier"."""
GRIMOIRE_CASTING_DICE = CastingModifier.GRIMOIRE.dice
"""Grimoire ("Supernatural Gear Summary"): an existing Arcanist given a Grimoire "benefits from a +1 Die Modifier when
attempting to Cast a Power" (:func:`grimoire_dice`)."""
ARCANE_BLAST_ENTITY_DICE = 4
"""Arcane Blast: "Roll four Dice if the Target is an Entity"."""
SUMMONED_PER_SUMMONER = 1
"""Summoned Models: "only one Summoned model in play per Summoner at any time, and may only have one of each type of
Entity at a time"; "If the same Summoner brings a new model into play that would not otherwise be allowed, an existing
Summoned model (of your choice) is immediately removed from the table"."""
BANISH_GRIT_DICE = 1
"""Banish: "Roll one Grit Die on behalf of the Caster — a visible Target enemy Entity model within 6" does the same. If
the Caster rolls higher, the Target is immediately removed from play" (ties: no effect)."""


def banish_removes(caster_roll: int, entity_roll: int) -> bool:
    """Banish: the Target is removed only if the Caster rolls higher."""
    return caster_roll > entity_roll


def unique_summoning(name: str) -> Entity:
    """A unique Summoning by name (Behemoth, Hellhound, Seraphim, Swamp Baka)."""
    return lookup("unique Summoning", str(name), UNIQUE_SUMMONINGS)


def grimoire_dice(grimoires: int, arcanist: bool, made_by_grimoire: bool) -> int:
    """Grimoire ("Supernatural Gear Summary"): "If an existing Arcanist is given a Grimoire, it benefits from a +1 Die
    Modifier when attempting to Cast a Power ... Further Grimoires have no effect"; the Grimoire that made a model an
    Arcanist is destroyed, and a model that is not a "true" Arcanist gains nothing. ``grimoires``: those the model
    is given; ``made_by_grimoire``: its first one made it an Arcanist (not a Magister's or a Necromancer's role)."""
    if not arcanist:
        return 0
    return GRIMOIRE_CASTING_DICE if grimoires - int(made_by_grimoire) >= 1 else 0


def can_cast(dice: int, difficulty: int) -> bool:
    """A Casting Test of ``dice`` Dice can reach ``difficulty`` Successes at all: each die scores at most one Success
    ("Successes equal to or over the Power's listed Difficulty"), so a unique Major Entity (Difficulty 3 at -1 Die)
    is Summoned only after a Concentrate."""
    return dice >= difficulty
