"""Grit, Tests and Dice Modifiers ("Grit", "Dice", "Shaken", "Tests", "Shoot", "Fight", Skills, Gear, Injuries).

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import lookup

# ---------------------------------------------------------------------------
# Grit ("Grit", "Dice", "Shaken")
# ---------------------------------------------------------------------------


class Rank(enum.IntEnum):
    """The three Ranks of Grit ("Grit"); the value is the Grit Die's number of faces.

    Novice D6, Veteran D8, Hero D10. Ranks compare in book order
    (Novice < Veteran < Hero).
    """

    NOVICE = 6
    VETERAN = 8
    HERO = 10

    def __str__(self) -> str:
        return self.label

    @property
    def die(self) -> int:
        """Faces of the Grit Die (6, 8 or 10)."""
        return int(self.value)

    @property
    def label(self) -> str:
        return self.name.title()

    @property
    def die_name(self) -> str:
        return f"D{self.value}"

    def lower(self) -> "Rank":
        """One Rank lower, to a minimum of Novice ("Shaken")."""
        return {Rank.HERO: Rank.VETERAN, Rank.VETERAN: Rank.NOVICE, Rank.NOVICE: Rank.NOVICE}[self]

    def higher(self) -> "Rank | None":
        """The next Rank up ("Rank-Up": Novice > Veteran > Hero); None for a Hero."""
        return {Rank.NOVICE: Rank.VETERAN, Rank.VETERAN: Rank.HERO, Rank.HERO: None}[self]

    def effective(self, shaken: bool = False, lead_belly: bool = False) -> "Rank":
        """Rank whose die a model rolls for Tests and Saves.

        "While Shaken, a model treats its Grit Die as one Rank lower, to a
        minimum of D6" unless it has Lead-Belly ("Gumption Skills Table").
        """
        return self.lower() if shaken and not lead_belly else self

    @property
    def infamy(self) -> int:
        """Personal worth in Infamy ("Infamy Phase"): Novice 1, Veteran 2, Hero 3."""
        return {Rank.NOVICE: 1, Rank.VETERAN: 2, Rank.HERO: 3}[self]

    @property
    def victory_points(self) -> int:
        """VP for causing it to become a Casualty ("Victory Points (VP)")."""
        return {Rank.NOVICE: 1, Rank.VETERAN: 2, Rank.HERO: 3}[self]

    @property
    def advance_target(self) -> int:
        """Total needed on an Advance roll: 6 Novice, 8 Veteran, 10 Hero ("Advance Rolls")."""
        return self.die


RANKS: dict[str, Rank] = {"Novice": Rank.NOVICE, "Veteran": Rank.VETERAN, "Hero": Rank.HERO}
_RANK_ALIASES = {"D6": "Novice", "D8": "Veteran", "D10": "Hero", "6": "Novice", "8": "Veteran", "10": "Hero"}


def rank(name: str | int | Rank) -> Rank:
    """A Rank from 'Novice'/'Veteran'/'Hero', 'D6'/'D8'/'D10' or 6/8/10."""
    if isinstance(name, Rank):
        return name
    try:
        return lookup("rank", str(name), RANKS, _RANK_ALIASES)
    except OddsmithError as exc:
        raise OddsmithError(f"{exc} (or their Grit Dice D6, D8, D10)") from None


def grit_die(model_rank: Rank | str, shaken: bool = False, lead_belly: bool = False) -> int:
    """Faces of the Grit Die a model rolls (Shaken: one Rank lower, minimum D6)."""
    return rank(model_rank).effective(shaken, lead_belly).die


GRIT_DICE = (6, 8, 10)

HALVED_DICE: dict[int, int] = {3: 6, 4: 8, 5: 10}
"""D3, D4, D5: roll a D6, D8, D10 and halve, rounding up ("Dice")."""


def halved_die_distribution(sides: int) -> dict[int, Fraction]:
    """Exact distribution of a D3/D4/D5 read as the book says (halve a D6/D8/D10, round up)."""
    if sides not in HALVED_DICE:
        raise OddsmithError(f"there is no D{sides} in the rules: halved dice are D3, D4 and D5")
    faces = HALVED_DICE[sides]
    dist: dict[int, Fraction] = {}
    for face in range(1, faces + 1):
        value = -(-face // 2)
        dist[value] = dist.get(value, Fraction(0)) + Fraction(1, faces)
    return dist


def die_name(faces: int) -> str:
    return f"D{faces}"


def parse_die(text: str | int) -> int:
    """Faces of a Grit Die given as 'D6'/'d8'/10 or a Rank name."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text in GRIT_DICE:
            return text
        raise OddsmithError(f"unknown Grit Die D{text}; Grit Dice are D6, D8 and D10")
    return rank(str(text)).die


# ---------------------------------------------------------------------------
# Tests ("Tests")
# ---------------------------------------------------------------------------

SUCCESS_ON = 5
"""Each Die showing a score of 5 or better is a Success ("Tests")."""

MINIMUM_DICE = 1
"""You can never be reduced to 0 Dice for any Test ("Tests", Apply Dice Modifiers)."""


def is_success(score: int) -> bool:
    return score >= SUCCESS_ON


def success_chance(faces: int) -> Fraction:
    """Chance that one Grit Die scores a Success (5+): D6 1/3, D8 1/2, D10 3/5."""
    return Fraction(max(0, faces - SUCCESS_ON + 1), faces)


def dice_to_roll(base_dice: int, *modifiers: int) -> int:
    """Final number of Dice of a Test: base plus Dice Modifiers, never below one.

    A base below one is not something the rules ever ask for, so it is bad input.
    """
    if isinstance(base_dice, bool) or not isinstance(base_dice, int):
        raise OddsmithError(f"base number of dice must be a whole number, got {base_dice!r}")
    if base_dice < MINIMUM_DICE:
        raise OddsmithError(f"base number of dice must be at least 1, got {base_dice}")
    return max(MINIMUM_DICE, base_dice + sum(modifiers))


class RerollReading(enum.Enum):
    """How the maximum-face re-roll of the Test procedure is read ("Tests", Roll the Dice).

    "If a Die shows the maximum possible score, then you may re-roll one of
    the other Dice if you wish", "You can normally only re-roll any single Die
    once", and the second result must be accepted ("Dice").

    * ``A`` (first roll only): each maximum on the first roll lets the player
      re-roll one other failing die; a maximum scored on a re-roll grants
      nothing.
    * ``B`` (chained, the default): as A, and a maximum scored on a re-roll
      also grants a re-roll of another die not yet re-rolled.

    In both readings the player re-rolls failing dice only (re-rolling a
    Success can never help the roller) and no die is re-rolled twice.
    """

    A = "a"
    B = "b"

    @property
    def chained(self) -> bool:
        return self is RerollReading.B


DEFAULT_REROLL_READING = RerollReading.B


def reroll_reading(name: str | RerollReading) -> RerollReading:
    if isinstance(name, RerollReading):
        return name
    return lookup("re-roll reading", str(name), {"a": RerollReading.A, "b": RerollReading.B})


class Blessing(enum.Enum):
    """Bless and Curse tokens on the model making a Test or Save ("Arcane Power Summary").

    * Bless: "re-roll all Failures it scores once in the very next Test or Save".
    * Curse: "must re-roll all Successes it scores once in the very next Test or Save".

    Read as acting after the Test's own maximum-face re-rolls, on every die
    not re-rolled yet (no die is re-rolled twice); these re-rolls stand and
    grant no further re-roll. A model has at most one of the two tokens:
    Blessing a Cursed model removes the Curse and vice versa.
    """

    NONE = "none"
    BLESS = "bless"
    CURSE = "curse"


def blessing(name: str | Blessing | None) -> Blessing:
    if name is None:
        return Blessing.NONE
    if isinstance(name, Blessing):
        return name
    return lookup("Bless/Curse state", str(name), {"none": Blessing.NONE, "bless": Blessing.BLESS, "curse": Blessing.CURSE})


class TestKind(enum.Enum):
    """Every Test the book names, with its base number of Dice and whether Dice Modifiers apply."""

    SHOOTING = "Shooting Test"
    FIGHT = "Fight Test"
    RECOVERY = "Recovery Test"
    BOTTLE_CHECK = "Bottle Check"
    NERVE = "Nerve Test"
    DISENGAGE = "Disengage Test"
    SPOTTING = "Spotting Test"
    REACTION = "Reaction Test"
    CASTING = "Casting Test"
    DYNAMITE_THROW = "Dynamite Shooting Test"


@dataclass(frozen=True)
class TestRule:
    """A Test as the book states it: base Dice, whether modified, and what a pass is."""

    kind: TestKind
    base_dice: int
    modified: bool
    successes_needed: int
    section: str
    outcome: str


TESTS: dict[TestKind, TestRule] = {
    TestKind.SHOOTING: TestRule(TestKind.SHOOTING, 3, True, 1, "Shoot: 3: Roll to Hit",
                                "0 Successes: miss (Jamming Check if any Die scored 1); otherwise a hit with that many Successes"),
    TestKind.FIGHT: TestRule(TestKind.FIGHT, 3, True, 0, "Fight: 2: Roll to Strike and Determine Outcome",
                             "more Successes wins; equal: the single highest Die wins by 1, else a Draw"),
    TestKind.RECOVERY: TestRule(TestKind.RECOVERY, 3, True, 1, "The Recovery Phase: 2: Make Recovery Tests",
                                "0: Casualty; 1-2: remains Downed; 3+: stands up Shaken"),
    TestKind.BOTTLE_CHECK: TestRule(TestKind.BOTTLE_CHECK, 3, False, 1, "The Recovery Phase: 3: Bottle Checks",
                                    "an unmodified 3 Dice Nerve Test by the Boss (1 Die by the next highest Rank if the Boss is Downed or gone); 0 Successes: the Posse Bottles Out"),
    TestKind.NERVE: TestRule(TestKind.NERVE, 1, True, 1, "Fearsome, Transfix, Haunted!",
                             "1 Die Nerve Test: pass on 1 Success"),
    TestKind.DISENGAGE: TestRule(TestKind.DISENGAGE, 1, True, 1, "Disengaging From Contact",
                                 "Failed: a 5+ Save for each enemy in Contact before Disengaging"),
    TestKind.SPOTTING: TestRule(TestKind.SPOTTING, 1, True, 1, "Shoot: 1: Declare Weapon and Target",
                                "Success: any visible enemy may be the Target; Failure: the Action is wasted"),
    TestKind.REACTION: TestRule(TestKind.REACTION, 1, True, 0, "Resolving a Reaction",
                                "Reactions resolve in descending order of score; ties: higher Rank, then roll again"),
    TestKind.CASTING: TestRule(TestKind.CASTING, 3, True, 1, "Casting Powers",
                               "Successes >= the Power's Difficulty: Cast; 0 Successes with a 1: Miscast"),
    TestKind.DYNAMITE_THROW: TestRule(TestKind.DYNAMITE_THROW, 1, False, 1, "Dynamite",
                                      "unmodified 1 Die Shooting Test: Success explodes on the target point; else the Die's score decides"),
}


# ---------------------------------------------------------------------------
# Dice Modifiers ("Shoot", "Fight", Skills, Gear, Injuries)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceModifier:
    """A Dice Modifier: changes the number of Dice rolled, not the scores ("Tests")."""

    name: str
    dice: int
    test: TestKind
    section: str
    note: str = ""


class ShootModifier(enum.Enum):
    """Shoot Modifiers table ("Shoot: 3: Roll to Hit") and the other Shooting Test modifiers of the book."""

    COVER = DiceModifier("Target has Cover", -1, TestKind.SHOOTING, "Shoot Modifiers")
    LONG_RANGE = DiceModifier("Target at Long Range", -1, TestKind.SHOOTING, "Shoot Modifiers")
    BACK_SHOOTER = DiceModifier("Back-Shooter", +1, TestKind.SHOOTING, "Shoot Modifiers")
    SHORT_RANGE = DiceModifier("Target at Short Range", +1, TestKind.SHOOTING, "Shoot Modifiers")
    ELEVATED = DiceModifier("Shooter Elevated", +1, TestKind.SHOOTING, "Shoot Modifiers")
    SMALL_TARGET = DiceModifier("Small target (Dynamite in hand or TNT marker)", -1, TestKind.SHOOTING,
                                "Dynamite: Good Shot! / Setting Dynamite")
    DEADEYE = DiceModifier("Deadeye", +1, TestKind.SHOOTING, "Shooting Skills Table")
    ONE_EYED = DiceModifier("One-Eyed", -1, TestKind.SHOOTING, "Injury table (Lasting Injury)")
    WHISKEY = DiceModifier("Whiskey", -1, TestKind.SHOOTING, "Horses and Gear Summary")

    @property
    def dice(self) -> int:
        return self.value.dice


SHOOT_MODIFIERS_TABLE = (ShootModifier.COVER, ShootModifier.LONG_RANGE, ShootModifier.BACK_SHOOTER,
                         ShootModifier.SHORT_RANGE, ShootModifier.ELEVATED)
"""The five rows of the book's Shoot Modifiers table, in book order."""


class FightModifier(enum.Enum):
    """Fight Modifiers table ("Fight: 2") and the other Fight Test modifiers of the book."""

    CHARGING = DiceModifier("You are Charging", +1, TestKind.FIGHT, "Fight Modifiers")
    FORTIFIED = DiceModifier("You are Attacking a Fortified Defender", -1, TestKind.FIGHT, "Fight Modifiers")
    OUTNUMBERED = DiceModifier("Each unengaged enemy in Contact with you after the first", -1, TestKind.FIGHT,
                               "Fight Modifiers", "per enemy Outnumbering you; 'Ornery ignores it")
    MEAN = DiceModifier("Mean", +1, TestKind.FIGHT, "Fighting Skills Table")
    CLOSE_WORK = DiceModifier("Close Work", +1, TestKind.FIGHT, "Fighting Skills Table",
                              "+1 per unjammed Pistol-Class Weapon used, at most +2; two Pistols do not combine with a Derringer")
    FEARSOME = DiceModifier("Failed Nerve Test against a Fearsome model", -1, TestKind.FIGHT, "Fighting Skills Table")
    WEAKENED = DiceModifier("Weakened", -1, TestKind.FIGHT, "Injury table (Lasting Injury)")
    DERRINGER = DiceModifier("Derringer", +1, TestKind.FIGHT, "Horses and Gear Summary", "once per game, one Fight Test")
    WOLF_FORM = DiceModifier("Wolf Form (attacking)", +2, TestKind.FIGHT, "The Skinwalker Tribes",
                             "only when on the Attack, not as the Defender")

    @property
    def dice(self) -> int:
        return self.value.dice


FIGHT_MODIFIERS_TABLE = (FightModifier.CHARGING, FightModifier.FORTIFIED, FightModifier.OUTNUMBERED)
"""The three rows of the book's Fight Modifiers table, in book order."""

CLOSE_WORK_MAX_PISTOLS = 2


class CastingModifier(enum.Enum):
    """Casting Test Dice Modifiers ("Casting Powers", Gear, Factions, Events)."""

    CONCENTRATE = DiceModifier("Concentrate", +1, TestKind.CASTING, "Concentrate")
    GRIMOIRE = DiceModifier("Grimoire (existing Arcanist)", +1, TestKind.CASTING, "Supernatural Gear Summary")
    HARBINGER = DiceModifier("Harbinger of the Abyss within 6\" of the Magister", +1, TestKind.CASTING, "The Crossroads Cult")
    ARCANE_STORM = DiceModifier("Arcane Storm", +1, TestKind.CASTING, "Supernatural Events",
                                "on a Miscast the Caster immediately becomes a Casualty")
    UNIQUE_SUMMONING = DiceModifier("Unique Summoning", -1, TestKind.CASTING, "Unique Summonings")

    @property
    def dice(self) -> int:
        return self.value.dice


RECOVERY_FRIEND_IN_CONTACT = +1
"""Recovery Test: a flat +1 Die Modifier if any friendly non-Downed model is in Contact ("Make Recovery Tests")."""

LET_THERE_BE_LIGHT = -1
"""Supernatural models: -1 Die Modifier on all Tests for the Turn ("Supernatural Events", Let There Be Light)."""
