"""Dracula's America: Shadows of the West, the rules model.

Every number and table of the rulebook as data, named as the book names it.
Section names in the docstrings are the book's headings ("Tests", "Shoot",
"Damage", ...). Kernels and analyses take what they need from here; no other
module holds a rule.

How the book is read where it leaves room (DESIGN.md section 4):

* The maximum-face re-roll of a Test (:class:`RerollReading`): reading B
  (default) re-rolls failing dice only and lets a maximum scored on a re-roll
  grant a further re-roll; reading A lets only maxima of the first roll grant
  re-rolls. In both, no die is re-rolled more than once and a re-roll stands.
* Bless and Curse (:class:`Blessing`) act after the Test's own re-rolls, on
  the dice not re-rolled yet; their re-rolls stand and grant nothing.
* Where the rulebook text we work from leaves a table entry or a price out,
  the model says so (``None`` and a note) instead of inventing a number.

Lookups (:func:`rank`, :func:`weapon`, :func:`skill`, :func:`gear`, ...) take
what a user types on the command line: case, spaces, hyphens, underscores and
apostrophes do not matter, and an unknown name raises
:class:`~oddsmith.errors.OddsmithError` suggesting the closest known name.
"""
from __future__ import annotations

import difflib
import enum
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping, TypeVar

from oddsmith.errors import OddsmithError

T = TypeVar("T")

# ---------------------------------------------------------------------------
# Name lookups
# ---------------------------------------------------------------------------


def normalize_name(text: str) -> str:
    """Fold a typed name: lower case, no spaces, hyphens, underscores, apostrophes or dots."""
    text = str(text).strip().lower().replace("\u2019", "'")
    return re.sub(r"[\s\-_'.\"]+", "", text)


def lookup(kind: str, name: str, table: Mapping[str, T], aliases: Mapping[str, str] | None = None) -> T:
    """Find ``name`` among ``table``'s keys (book names), case- and punctuation-blind.

    Raises :class:`OddsmithError` naming the unknown ``kind`` and the closest
    book name (difflib) when nothing matches.
    """
    folded = {normalize_name(k): k for k in table}
    for alias, target in (aliases or {}).items():
        folded.setdefault(normalize_name(alias), target)
    key = normalize_name(name)
    if key in folded:
        return table[folded[key]]
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.5)
    hint = f" (did you mean {folded[close[0]]!r}?)" if close else ""
    known = ", ".join(table)
    raise OddsmithError(f"unknown {kind} {str(name)!r}{hint}; known: {known}")


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
    return lookup("rank", str(name), RANKS, _RANK_ALIASES)


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


# ---------------------------------------------------------------------------
# Range ("Shoot: 2: Check Range")
# ---------------------------------------------------------------------------


class RangeBand(enum.Enum):
    """Range bands of every Weapon: Short, Medium, Long ("Shoot: 2: Check Range").

    Short Range gives +1 Die, Long Range -1 Die (Shoot Modifiers); a Target
    exactly between two bands uses the higher one.
    """

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"

    @property
    def dice_modifier(self) -> int:
        return {RangeBand.SHORT: ShootModifier.SHORT_RANGE.dice, RangeBand.MEDIUM: 0,
                RangeBand.LONG: ShootModifier.LONG_RANGE.dice}[self]

    @property
    def label(self) -> str:
        return self.value.title()


RANGE_BANDS: dict[str, RangeBand] = {"Short": RangeBand.SHORT, "Medium": RangeBand.MEDIUM, "Long": RangeBand.LONG}


def range_band(name: str | RangeBand) -> RangeBand:
    if isinstance(name, RangeBand):
        return name
    return lookup("range band", str(name), RANGE_BANDS, {"S": "Short", "M": "Medium", "L": "Long"})


# ---------------------------------------------------------------------------
# Weapons ("Weapons Summary", "Weapon Classes", "Item Price List")
# ---------------------------------------------------------------------------


class WeaponClass(enum.Enum):
    """Weapon Classes: Pistol, Shotgun, Rifle; Bows have none ("Weapon Classes")."""

    PISTOL = "Pistol"
    SHOTGUN = "Shotgun"
    RIFLE = "Rifle"


class WeaponTable(enum.Enum):
    BASIC = "Basic Weapons"
    SPECIAL = "Special Weapons"


@dataclass(frozen=True)
class Weapon:
    """One Weapon with its special rules as parameters.

    ``short``/``medium``/``long`` are the upper edges of the range bands in
    inches; ``jam_die`` the faces of the Jam Die. ``None`` marks a number the
    rulebook text leaves out (the Rifle is priced but has no table row; the
    Sawn-Off Shotgun and Buffalo Gun are only named; the Special Weapons'
    prices are missing from the Item Price List).

    ``band_dice`` and ``band_save`` hold the extra Dice Modifier to hit and
    the Save Modifier given to the Target in each range band (Shotgun: +1 Die
    up to 4", -1 Die at 9-12"; Bow: Targets +1 Save at 7-12", +2 at 13-18";
    Heavy Pistol: Targets -1 Save up to 4"). ``shots_per_action`` is 2 for
    the Weapons that "May Shoot twice as one Action".
    """

    name: str
    table: WeaponTable
    weapon_class: WeaponClass | None
    short: int | None
    medium: int | None
    long: int | None
    jam_die: int | None
    cost: int | None
    notes: str
    band_dice: Mapping[RangeBand, int] = field(default_factory=dict, hash=False)
    band_save: Mapping[RangeBand, int] = field(default_factory=dict, hash=False)
    shots_per_action: int = 1
    fire_corridor: bool = False
    once_per_game_sawn_off: bool = False
    native_americans_only: bool = False
    uncommon: bool = False
    in_weapons_table: bool = True

    @property
    def stats_known(self) -> bool:
        """True when the book gives this Weapon's ranges and Jam Die."""
        return None not in (self.short, self.medium, self.long, self.jam_die)

    def range_of(self, band: RangeBand, telescopic_sight: bool = False) -> tuple[float, float] | None:
        """(from, to] inches of a range band (Pistol Short is up to 4"); a Telescopic Sight adds 6" to Long Range."""
        if not self.stats_known:
            return None
        long_edge = self.long + (TELESCOPIC_SIGHT_LONG_RANGE_BONUS if telescopic_sight else 0)
        edges = {RangeBand.SHORT: (0, self.short), RangeBand.MEDIUM: (self.short, self.medium),
                 RangeBand.LONG: (self.medium, long_edge)}
        return edges[band]

    def band_at(self, inches: float, telescopic_sight: bool = False) -> RangeBand | None:
        """Range band of a Target ``inches`` away; None beyond Long Range."""
        if not self.stats_known:
            raise OddsmithError(f"the rulebook text gives no ranges for the {self.name}")
        if inches < 0:
            raise OddsmithError(f"distance must not be negative, got {inches}")
        long_edge = self.long + (TELESCOPIC_SIGHT_LONG_RANGE_BONUS if telescopic_sight else 0)
        # Bands are whole inches (Pistol: up to 4", 5-8", 9-12"); a Target partway
        # between two bands (4.5") uses the higher one.
        if inches <= self.short:
            return RangeBand.SHORT
        if inches <= self.medium:
            return RangeBand.MEDIUM
        if inches <= long_edge:
            return RangeBand.LONG
        return None

    def dice_modifier(self, band: RangeBand) -> int:
        """Range Dice Modifier plus this Weapon's own extra modifier in that band."""
        return band.dice_modifier + self.band_dice.get(band, 0)

    def save_modifier(self, band: RangeBand) -> int:
        """Save Modifier this Weapon gives its Target in that band (positive helps the Target)."""
        return self.band_save.get(band, 0)


TELESCOPIC_SIGHT_LONG_RANGE_BONUS = 6
"""A Telescopic Sight increases a Rifle-Class Weapon's Long Range by 6" ("Horses and Gear Summary")."""

_S, _M, _L = RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG

BASIC_WEAPONS: dict[str, Weapon] = {
    "Pistol": Weapon("Pistol", WeaponTable.BASIC, WeaponClass.PISTOL, 4, 8, 12, 10, 2, "Pistol"),
    "Carbine": Weapon("Carbine", WeaponTable.BASIC, WeaponClass.RIFLE, 6, 12, 18, 10, 3, "Rifle"),
    "Shotgun": Weapon("Shotgun", WeaponTable.BASIC, WeaponClass.SHOTGUN, 4, 8, 12, 10, 5,
                      "Shotgun. Extra +1 Die Shooting at up to 4\", and extra -1 Die at 9-12\"",
                      band_dice={_S: +1, _L: -1}),
    "Bow": Weapon("Bow", WeaponTable.BASIC, None, 6, 12, 18, 10, 2,
                  "Native Americans only. Targets gain a +1 Save Modifier at 7-12\", and +2 at 13-18\"",
                  band_save={_M: +1, _L: +2}, native_americans_only=True),
    "Rifle": Weapon("Rifle", WeaponTable.BASIC, WeaponClass.RIFLE, None, None, None, None, 5,
                    "Rifle. Priced $5 in the Item Price List; the Basic Weapons Table of this rulebook text has no Rifle row, "
                    "so its ranges and Jam Die are not given", in_weapons_table=False),
}
"""Basic Weapons Table ("Weapons Summary") with costs from the Item Price List."""

SPECIAL_WEAPONS: dict[str, Weapon] = {
    "Heavy Pistol": Weapon("Heavy Pistol", WeaponTable.SPECIAL, WeaponClass.PISTOL, 4, 8, 12, 8, None,
                           "Pistol. Targets suffer -1 Save Modifier at up to 4\"", band_save={_S: -1}),
    "Sixgun": Weapon("Sixgun", WeaponTable.SPECIAL, WeaponClass.PISTOL, 4, 8, 12, 6, None,
                     "Pistol. May Shoot twice as one Action", shots_per_action=2),
    "LeMat Pistol": Weapon("LeMat Pistol", WeaponTable.SPECIAL, WeaponClass.PISTOL, 4, 8, 12, 8, None,
                           "Pistol. Once per game, may Shoot as a Sawn-Off Shotgun", once_per_game_sawn_off=True),
    "Repeater Rifle": Weapon("Repeater Rifle", WeaponTable.SPECIAL, WeaponClass.RIFLE, 6, 12, 18, 6, None,
                             "Rifle. May Shoot twice as one Action", shots_per_action=2),
    "Sawn-Off Shotgun": Weapon("Sawn-Off Shotgun", WeaponTable.SPECIAL, WeaponClass.SHOTGUN, None, None, None, None, None,
                               "Shotgun. Fires a fire corridor (Fire Corridors); its row and price are not in this rulebook text",
                               fire_corridor=True, in_weapons_table=False),
    "Buffalo Gun": Weapon("Buffalo Gun", WeaponTable.SPECIAL, WeaponClass.RIFLE, None, None, None, None, None,
                          "Rifle. Named under Weapon Classes and Building a Campaign Posse; its row and price are not in this rulebook text",
                          in_weapons_table=False),
}
"""Special Weapons Table ("Weapons Summary"); the price list of this text gives no Special Weapon prices."""

WEAPONS: dict[str, Weapon] = {**BASIC_WEAPONS, **SPECIAL_WEAPONS}
_WEAPON_ALIASES = {"LeMat": "LeMat Pistol", "Repeater": "Repeater Rifle", "Sawn-Off": "Sawn-Off Shotgun",
                   "Sawnoff": "Sawn-Off Shotgun", "Six-Gun": "Sixgun"}


def weapon(name: str | Weapon) -> Weapon:
    """A Weapon by its book name ('pistol', 'Repeater Rifle', 'lemat', ...)."""
    if isinstance(name, Weapon):
        return name
    return lookup("weapon", str(name), WEAPONS, _WEAPON_ALIASES)


JAM_CHECK_SUCCESS_ON = SUCCESS_ON
"""Jamming Check: roll the Weapon's Jam Die; a Success (5+) means nothing happens, a Failure Jams it ("Jamming Checks")."""


def jam_chance(jam_die: int) -> Fraction:
    """Chance a Jamming Check Jams the Weapon (a Failure on the Jam Die): D10 2/5, D8 1/2, D6 2/3."""
    return 1 - success_chance(jam_die)


# ---------------------------------------------------------------------------
# Saves and Damage ("Shoot: 4: Target Makes Save if Hit", "Damage")
# ---------------------------------------------------------------------------

SAVE_TABLE: dict[int, int] = {1: 5, 2: 6, 3: 7, 4: 8, 5: 9, 6: 10}
"""Number of Successes -> Save On (1: 5+ ... 6+: 10+); also Fights by the difference in Successes."""


def save_target(successes: int) -> int:
    """Score a Save needs against ``successes`` (>= 1): 5+ for 1 up to 10+ for 6 or more."""
    if successes < 1:
        raise OddsmithError(f"a Save is made against at least 1 Success, got {successes}")
    return SAVE_TABLE[min(successes, 6)]


class Damage(enum.Enum):
    """Damage results ("Damage"), in increasing severity."""

    SHAKEN = "Shaken"
    DOWNED = "Downed"
    CASUALTY = "Casualty"

    def worse(self) -> "Damage":
        """One result worse (Bear Form's bear-hug; Shaken again becomes Downed)."""
        return {Damage.SHAKEN: Damage.DOWNED, Damage.DOWNED: Damage.CASUALTY, Damage.CASUALTY: Damage.CASUALTY}[self]


DAMAGE_TABLE: tuple[tuple[int, int | None, Damage], ...] = (
    (1, 2, Damage.SHAKEN),
    (3, 4, Damage.DOWNED),
    (5, None, Damage.CASUALTY),
)
"""Amount Failed By -> Damage Result: 1-2 Shaken, 3-4 Downed, 5+ Removed as a Casualty ("Damage")."""


def damage_for(failed_by: int) -> Damage:
    """Damage for a Save Failed by ``failed_by`` (>= 1)."""
    if failed_by < 1:
        raise OddsmithError(f"a Failed Save fails by at least 1, got {failed_by}")
    for low, high, result in DAMAGE_TABLE:
        if failed_by >= low and (high is None or failed_by <= high):
            return result
    raise AssertionError("unreachable")


class ModelState(enum.Enum):
    """A model's state during a game: Standing, Shaken, Downed, Casualty."""

    STANDING = "Standing"
    SHAKEN = "Shaken"
    DOWNED = "Downed"
    CASUALTY = "Casualty"


def apply_damage(state: ModelState, damage: Damage) -> ModelState:
    """State after Damage: "Further Damage results of Shaken cause the model to be immediately Downed"."""
    if state is ModelState.CASUALTY or damage is Damage.CASUALTY:
        return ModelState.CASUALTY
    if damage is Damage.DOWNED:
        return ModelState.DOWNED
    if state in (ModelState.SHAKEN, ModelState.DOWNED):
        # Shaken again is Downed; a Downed model stays Downed (it can only be Shot if the rules allow it at all)
        return ModelState.DOWNED
    return ModelState.SHAKEN


def save_result(score: int, target: int, save_modifier: int = 0) -> Damage | None:
    """Outcome of one Save roll: None if passed, else the Damage ("a -1 Save Modifier means a 5 counts as a 4")."""
    total = score + save_modifier
    if total >= target:
        return None
    return damage_for(target - total)


class SaveModifier(enum.Enum):
    """Save Modifiers of the book (added to the Save Die's score; positive helps the saving model)."""

    TOUGH = ("Tough", +1, "Fighting Skills Table: this model always has a +1 Save Modifier")
    BULL_RUSH = ("Bull-Rush", -1, "Fighting Skills Table: Charged and won the Fight")
    BEAR_FORM = ("Bear Form", -1, "The Skinwalker Tribes: the Bear won the Fight")
    HEAVY_PISTOL = ("Heavy Pistol at up to 4\"", -1, "Special Weapons Table")
    BOW_MEDIUM = ("Bow at 7-12\"", +1, "Basic Weapons Table")
    BOW_LONG = ("Bow at 13-18\"", +2, "Basic Weapons Table")
    SILVER_BULLETS = ("Silver Bullets against a Supernatural model", -1, "Supernatural Gear Summary")
    WOODSMANS_AXE = ("Woodsman's Axe", -1, "Supernatural Hired Guns: Carpathian Guard")
    BAD_OMEN = ("Bad Omen", -1, "Unexpected Events")

    @property
    def modifier(self) -> int:
        return self.value[1]


BOILERPLATE_CANCELS = 1
"""Boilerplate cancels one Success rolled by the Shooter each Shooting Attack ("Horses and Gear Summary")."""

BEAR_HUG_MARGIN = 2
"""Bear Form: winning by two or more against a smaller base makes a failed Save's Damage one worse."""


# ---------------------------------------------------------------------------
# Fight ("Fight"), Shove, Downed defenders
# ---------------------------------------------------------------------------


class FightResult(enum.Enum):
    """Outcome of a Fight from the Attacker's side ("Fight: 2")."""

    ATTACKER_WINS = "attacker wins"
    DEFENDER_WINS = "defender wins"
    DRAW = "draw"


TIE_BREAK_MARGIN = 1
"""Equal Successes: "the model with the single highest scoring Die wins by 1" ("Fight: 2")."""


def fight_result(attacker_scores: Iterable[int], defender_scores: Iterable[int]) -> tuple[FightResult, int]:
    """Winner and margin of a Fight from both models' final Dice scores (plain reference rule).

    More Successes wins by the difference; equal Successes: the higher single
    Die wins by 1; equal highest Dice: a Draw (margin 0).
    """
    a = list(attacker_scores)
    d = list(defender_scores)
    sa = sum(1 for s in a if is_success(s))
    sd = sum(1 for s in d if is_success(s))
    if sa > sd:
        return FightResult.ATTACKER_WINS, sa - sd
    if sd > sa:
        return FightResult.DEFENDER_WINS, sd - sa
    ha, hd = max(a), max(d)
    if ha > hd:
        return FightResult.ATTACKER_WINS, TIE_BREAK_MARGIN
    if hd > ha:
        return FightResult.DEFENDER_WINS, TIE_BREAK_MARGIN
    return FightResult.DRAW, 0


SHOVE_INCHES_PER_SUCCESS = 1
"""Shove: the loser is pushed 1" per Success lost by, at most 1" if on a larger base ("Shove")."""


def shove_distance(margin: int, target_on_larger_base: bool = False) -> int:
    """Inches a Shove pushes the loser of a Fight lost by ``margin``."""
    if margin < 1:
        raise OddsmithError(f"a Shove needs a winner, margin must be at least 1, got {margin}")
    return min(margin, 1) if target_on_larger_base else margin * SHOVE_INCHES_PER_SUCCESS


DOWNED_DEFENDER_IS_CASUALTY = True
"""A Downed model that is Fought makes no Fight Test and is removed as a Casualty ("Downed")."""


# ---------------------------------------------------------------------------
# Recovery Phase ("Make Recovery Tests", "Bottle Checks")
# ---------------------------------------------------------------------------


class RecoveryResult(enum.Enum):
    """Recovery Test results ("The Recovery Phase: 2")."""

    CASUALTY = "Casualty"
    REMAINS_DOWNED = "remains Downed"
    STANDS_SHAKEN = "stands up Shaken"


RECOVERY_TABLE: tuple[tuple[int, int | None, RecoveryResult], ...] = (
    (0, 0, RecoveryResult.CASUALTY),
    (1, 2, RecoveryResult.REMAINS_DOWNED),
    (3, None, RecoveryResult.STANDS_SHAKEN),
)
"""Recovery Test Successes -> result: 0 Casualty, 1-2 remains Downed, 3+ stands up Shaken."""


def recovery_result(successes: int) -> RecoveryResult:
    for low, high, result in RECOVERY_TABLE:
        if successes >= low and (high is None or successes <= high):
            return result
    raise OddsmithError(f"successes must not be negative, got {successes}")


BOTTLE_CHECK_BOSS_DICE = 3
BOTTLE_CHECK_STAND_IN_DICE = 1
"""Bottle Check: the Boss rolls an unmodified 3 Dice Nerve Test; if the Boss is Downed or gone the next
highest Rank rolls 1 Die; at least 1 Success and the Posse fights on ("Bottle Checks")."""


def bottle_check_required(models_at_start: int, models_standing: int) -> bool:
    """A Posse checks when reduced to half its starting models or fewer (rounded down); Downed models do not count."""
    return models_standing <= models_at_start // 2


BOTTLE_CHECK_REROLLS = {
    "Nerves of Steel": "may re-roll any one Die result on all its Nerve Tests, including Bottle Checks",
    "Preacher": "may re-roll a single Die of the Bottle Check if the Preacher is on the table and not Down",
    "Whiskey": "automatically passes all Nerve Tests this Turn, including Bottle Checks",
}
"""What changes a Bottle Check's dice (Gumption Skills Table, Hired Guns, Horses and Gear Summary)."""


# ---------------------------------------------------------------------------
# Other single-die Tests ("Disengaging From Contact", Spotting, Reactions, Nerve)
# ---------------------------------------------------------------------------

DISENGAGE_FAIL_SAVE = 5
"""A failed Disengage Test: a 5+ Save for each enemy the model was in Contact with ("Disengaging From Contact")."""

SPOTTING_REROLL_SKILL = "Hawkeye"
REACTION_REROLL_SKILL = "Quickdraw"
NERVE_REROLL_SKILL = "Nerves of Steel"

FEARSOME_NERVE_DICE = 1
"""Fearsome: enemies wishing to Fight the model pass a 1 Die Nerve Test or suffer -1 Die on their Fight Tests."""

TRANSFIX_NERVE_DICE = 1


# ---------------------------------------------------------------------------
# Moving ("And Falling", "Move")
# ---------------------------------------------------------------------------

MOVE_INCHES = 4
MOUNTED_MOVE_INCHES = 6
APPALOOSA_MOVE_INCHES = 8
DOWNED_CRAWL_INCHES = 2
LEAP_MAX_INCHES = 4
FALLING_BASE_SAVE = 5
FALLING_INCHES_PER_STEP = 2
FALLING_FREE_DROP_INCHES = 2
"""A drop greater than 2" counts as falling ("Climbing and Leaping")."""


def falling_save_target(inches: float) -> int:
    """Save a falling model makes: 5+, one worse for every additional full 2" fallen ("And Falling").

    The book's example: 4" needs 6+, 5" still 6+.
    """
    if inches < 0:
        raise OddsmithError(f"a fall cannot be negative, got {inches}\"")
    extra = max(0.0, float(inches) - FALLING_FREE_DROP_INCHES)
    return FALLING_BASE_SAVE + int(math.floor(extra / FALLING_INCHES_PER_STEP + 1e-9))


FALLEN_ONTO_SAVE = 5
"""A model landed on by a falling model makes a 5+ Save ("And Falling")."""
