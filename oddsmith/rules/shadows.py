"""Dracula's America: Shadows of the West, the rules model.

Every number and table of the rulebook as data, named as the book names it.
Section names in the docstrings are the book's headings ("Tests", "Shoot",
"Damage", ...). Kernels and analyses take what they need from here; no other
module holds a rule.

How the book is read where it leaves room (docs/rules-shadows.md, 'Dice in a game'):

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
    shown = {f: repr(k) for f, k in folded.items()}
    for alias, target in (aliases or {}).items():
        folded.setdefault(normalize_name(alias), target)
        shown.setdefault(normalize_name(alias), f"{alias!r} ({target})")
    key = normalize_name(name)
    if key in folded:
        return table[folded[key]]
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.5)
    hint = f" (did you mean {shown[close[0]]}?)" if close else ""
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
    HIRED_GUN = "Hired Gun's own Weapon"


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
    fight_save: int = 0
    only_for: str | None = None

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

HIRED_GUN_WEAPONS: dict[str, Weapon] = {
    "Woodsman's Axe": Weapon("Woodsman's Axe", WeaponTable.HIRED_GUN, None, None, None, None, None, None,
                             "Huge two-handed axe: in a Fight, enemies struck by it suffer a -1 Save Modifier; never sold "
                             "or used by any other model", in_weapons_table=False, fight_save=-1, only_for="Carpathian Guard"),
}
"""Weapons that come only with a Hired Gun ("Supernatural Hired Guns": the Carpathian Guard's axe)."""

WEAPONS: dict[str, Weapon] = {**BASIC_WEAPONS, **SPECIAL_WEAPONS, **HIRED_GUN_WEAPONS}
_WEAPON_ALIASES = {"Axe": "Woodsman's Axe", "LeMat": "LeMat Pistol", "Repeater": "Repeater Rifle", "Sawn-Off": "Sawn-Off Shotgun",
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


# ---------------------------------------------------------------------------
# Skills ("Shooting Skills Table", "Fighting Skills Table", "Gumption Skills Table")
# ---------------------------------------------------------------------------


class SkillList(enum.Enum):
    """The three Skill lists ("Random Skill")."""

    SHOOTING = "Shooting"
    FIGHTING = "Fighting"
    GUMPTION = "Gumption"


@dataclass(frozen=True)
class Skill:
    """One Skill with its dice effects as parameters.

    ``shoot_dice``/``fight_dice``: extra Dice Modifier on Shooting/Fight Tests;
    ``save_modifier``: always-on Save Modifier; ``rerolls``: what the Skill
    lets the model re-roll; the flags name the other effects.
    """

    name: str
    skill_list: SkillList
    d6: int
    notes: str
    shoot_dice: int = 0
    fight_dice: int = 0
    save_modifier: int = 0
    rerolls: str | None = None
    extra_shot_same_weapon: bool = False
    fires_two_pistols: bool = False
    ignores_outnumbered: bool = False
    charge_win_save_modifier: int = 0
    ignores_shaken_penalty: bool = False
    auto_recovers: bool = False
    fearsome: bool = False
    close_work: bool = False
    trick_shooter: bool = False
    grit_die_for_extra_action: bool = False
    grit_die_to_keep_lookout: bool = False
    not_in_reaction: bool = False


SHOOTING_SKILLS: dict[str, Skill] = {s.name: s for s in (
    Skill("Trigger-Happy", SkillList.SHOOTING, 1,
          "This model may Shoot the same Weapon twice in a single Activation, following all usual rules. This Skill cannot be "
          "used as part of a Reaction, and cannot be combined with the Gunslinger Skill.",
          extra_shot_same_weapon=True, not_in_reaction=True),
    Skill("Gunslinger", SkillList.SHOOTING, 2,
          "If armed with two Pistol-Class Weapons, this model may fire both as a single Shoot Action, against different Targets "
          "if you wish. Resolve each Attack separately. Not as a Reaction. Sixguns may not fire twice, and LeMat Pistols cannot "
          "use their once-per-game ability when using this Skill.",
          fires_two_pistols=True, not_in_reaction=True),
    Skill("Hawkeye", SkillList.SHOOTING, 3,
          "This model may re-roll a Failed Spotting Test, and ignores the usual rules for Shooting into a Fight.",
          rerolls="a Failed Spotting Test"),
    Skill("Gunsmith", SkillList.SHOOTING, 4, "This model may re-roll any Failed Jamming Check.",
          rerolls="a Failed Jamming Check"),
    Skill("Trick Shooter", SkillList.SHOOTING, 5,
          "When it Shoots with a Rifle-Class Weapon, this model ignores either the Long Range or the Cover Die Modifier.",
          trick_shooter=True),
    Skill("Deadeye", SkillList.SHOOTING, 6, "This model gains an extra +1 Die Modifier on its Shooting Tests.", shoot_dice=+1),
)}
FIGHTING_SKILLS: dict[str, Skill] = {s.name: s for s in (
    Skill("Close Work", SkillList.FIGHTING, 1,
          "This model may use an unjammed Pistol-Class Weapon during a Fight to gain a +1 Die Modifier. Using two Pistols grants "
          "a +2 Modifier, but cannot be combined with the bonus from a Derringer in this case.", close_work=True),
    Skill("Fearsome", SkillList.FIGHTING, 2,
          "Enemy models wishing to Fight this model (even if it is Down) must pass a 1 Die Nerve Test or suffer a -1 Die "
          "Modifier on its Fight Tests this Activation. Other Fearsome models ignore this Skill.", fearsome=True),
    Skill("Bull-Rush", SkillList.FIGHTING, 3,
          "If this model Charges and wins the ensuing Fight, the Defender suffers a -1 Save Modifier.", charge_win_save_modifier=-1),
    Skill("'Ornery", SkillList.FIGHTING, 4,
          "This model ignores the penalty for being in Contact with multiple enemies in a Fight.", ignores_outnumbered=True),
    Skill("Tough", SkillList.FIGHTING, 5, "This model always has a +1 Save Modifier.", save_modifier=+1),
    Skill("Mean", SkillList.FIGHTING, 6, "This model gains an extra +1 Die Modifier on its Fight Tests.", fight_dice=+1),
)}
GUMPTION_SKILLS: dict[str, Skill] = {s.name: s for s in (
    Skill("Bushwhacker", SkillList.GUMPTION, 1,
          "When this model is on Lookout and Reacts, after resolving their Reaction, roll one Grit Die: on a Success it retains "
          "its Lookout marker and is not classed as Done.", grit_die_to_keep_lookout=True),
    Skill("Nerves of Steel", SkillList.GUMPTION, 2,
          "This model may re-roll any one Die result on all its Nerve Tests, including Bottle Checks when applicable.",
          rerolls="any one Die of a Nerve Test or Bottle Check"),
    Skill("Hard to Kill", SkillList.GUMPTION, 3,
          "If this model is Downed at the start of the Recovery Phase, it automatically stands up Shaken.", auto_recovers=True),
    Skill("Quickdraw", SkillList.GUMPTION, 4, "This model may re-roll a Reaction Test.", rerolls="a Reaction Test"),
    Skill("Lead-Belly", SkillList.GUMPTION, 5, "This model ignores the Grit Penalty whilst Shaken.", ignores_shaken_penalty=True),
    Skill("Slick", SkillList.GUMPTION, 6,
          "When Activated, this model may roll one Grit Die. On a Success, it can make an additional Action this Activation.",
          grit_die_for_extra_action=True),
)}
SKILL_LISTS: dict[SkillList, dict[str, Skill]] = {
    SkillList.SHOOTING: SHOOTING_SKILLS, SkillList.FIGHTING: FIGHTING_SKILLS, SkillList.GUMPTION: GUMPTION_SKILLS,
}
SKILLS: dict[str, Skill] = {**SHOOTING_SKILLS, **FIGHTING_SKILLS, **GUMPTION_SKILLS}
_SKILL_ALIASES = {"Trick-Shooter": "Trick Shooter", "Ornery": "'Ornery", "Leadbelly": "Lead-Belly", "Triggerhappy": "Trigger-Happy"}


def skill(name: str | Skill) -> Skill:
    """A Skill by its book name ('deadeye', 'Trick-Shooter', 'ornery', ...)."""
    if isinstance(name, Skill):
        return name
    return lookup("skill", str(name), SKILLS, _SKILL_ALIASES)


def skill_list(name: str | SkillList) -> SkillList:
    if isinstance(name, SkillList):
        return name
    return lookup("skill list", str(name), {s.value: s for s in SkillList})


def random_skill(list_name: SkillList | str, d6: int) -> Skill:
    """The Skill a D6 roll gives on a Skill list ("Random Skill")."""
    table = SKILL_LISTS[skill_list(list_name)]
    for s in table.values():
        if s.d6 == d6:
            return s
    raise OddsmithError(f"a D6 roll is 1-6, got {d6}")


GUNSLINGER_EXCLUDES_TRIGGER_HAPPY = True


# ---------------------------------------------------------------------------
# Gear ("Horses and Gear Summary", "Supernatural Gear Summary", "Item Price List")
# ---------------------------------------------------------------------------


class GearKind(enum.Enum):
    HORSE = "Horse"
    GEAR = "Gear"
    SUPERNATURAL = "Supernatural Gear"


@dataclass(frozen=True)
class Gear:
    """An item of Gear (or a horse) with its effects as parameters.

    ``cost`` is ``None`` where this rulebook text's Item Price List gives no
    price (it lists Appaloosa Horse, Horse, Boilerplate, Dynamite, Lasso and
    Marked Cards only). ``takes_slot`` is False for the Grimoire, which is
    destroyed when it makes an Arcanist.
    """

    name: str
    kind: GearKind
    cost: int | None
    uncommon: bool
    notes: str
    takes_slot: bool = True
    single_use: bool = False
    once_per_game: bool = False
    one_per_model: bool = False
    one_per_posse: bool = False
    cancels_successes: int = 0
    move_penalty: int = 0
    move: int | None = None
    fight_dice: int = 0
    shoot_dice: int = 0
    casting_dice: int = 0
    save_modifier_vs_supernatural: int = 0
    requires_weapon_class: WeaponClass | None = None
    long_range_bonus: int = 0
    recover_on_d6: int | None = None
    explodes_like_dynamite: bool = False
    supernatural_only_blast: bool = False
    non_supernatural_only: bool = False
    no_horse: bool = False
    rerolls: str | None = None


HORSES_AND_GEAR: dict[str, Gear] = {g.name: g for g in (
    Gear("Appaloosa Horse", GearKind.HORSE, 15, True, "See Mounted Models; an Appaloosa has a Move rate of 8\".",
         move=APPALOOSA_MOVE_INCHES),
    Gear("Horse", GearKind.HORSE, 10, False, "See Mounted Models (Move 6\").", move=MOUNTED_MOVE_INCHES),
    Gear("Boilerplate", GearKind.GEAR, 20, True,
         "The wearer cancels one Success rolled by the Shooter each time it suffers a Shooting Attack, but its Move rate is "
         "reduced by 1\" (even if Mounted).", cancels_successes=BOILERPLATE_CANCELS, move_penalty=1),
    Gear("Derringer", GearKind.GEAR, None, False,
         "Only once per game, in a Fight: +1 Die Modifier for one Fight Test; one Derringer per Fight Test.",
         once_per_game=True, fight_dice=+1),
    Gear("Dynamite", GearKind.GEAR, 15, True,
         "One stick of Dynamite (see Dynamite); any number in a Campaign Posse, one per Posse with the Basic method.",
         single_use=True, explodes_like_dynamite=True),
    Gear("Lasso", GearKind.GEAR, 3, False,
         "Shoot Action up to 6\", not modified for Range; a Target failing its Save suffers no Damage but is dragged 1\" "
         "towards the thrower per Success (at most 1\" if on a larger base)."),
    Gear("Marked Cards", GearKind.GEAR, 9, True,
         "Only one per Posse. When rolling for Income, a nominated model re-rolls any single Die; if the new roll is a 1, "
         "that model is caught cheating and rolls for Injury.", one_per_posse=True, rerolls="any single Income Die"),
    # Uncommon although the cut-off price list does not show it: "Searching for Uncommon Items" has a
    # Veteran Boss buy "a stick of Dynamite and a Bottle of Snake Oil" as his two Uncommon Items.
    Gear("Snake Oil", GearKind.GEAR, None, True,
         "Single-use, a full Move Action on a Shaken or Down friend in Contact: on a D6 roll of 4+ it removes Shaken "
         "(or stands up as if it was Down).", single_use=True, recover_on_d6=4),
    Gear("Telescopic Sight", GearKind.GEAR, None, False,
         "Attached to a specified Rifle-Class Weapon: its Long Range increases by 6\"; one Sight per Weapon.",
         requires_weapon_class=WeaponClass.RIFLE, long_range_bonus=TELESCOPIC_SIGHT_LONG_RANGE_BONUS),
    Gear("Vial of Nitro", GearKind.GEAR, None, False,
         "One per model, one use, works like a stick of Dynamite; the bearer cannot ride any Horse; if the bearer fails a "
         "Save with a score of 1 or 2, it explodes centred over them.",
         single_use=True, one_per_model=True, explodes_like_dynamite=True, no_horse=True),
    Gear("Whiskey", GearKind.GEAR, None, False,
         "Single-use, drunk in a Move Action for 1\" of movement: automatically passes all Nerve Tests this Turn (Bottle "
         "Checks included) but suffers -1 Die on all Shoot Tests.", single_use=True, shoot_dice=-1),
)}
"""Horses and Gear Summary; costs from the Item Price List where it gives one. Uncommon Items: those the
price list marks with * (Appaloosa Horse, Boilerplate, Dynamite, Marked Cards) and Snake Oil, which the
"Searching for Uncommon Items" example buys as one."""

UNCOMMON_ITEMS: tuple[str, ...] = tuple(n for n, g in HORSES_AND_GEAR.items() if g.uncommon)
"""The Uncommon Items the rulebook names ("Searching for Uncommon Items", Item Price List)."""

SUPERNATURAL_GEAR: dict[str, Gear] = {g.name: g for g in (
    Gear("Blessed Water", GearKind.SUPERNATURAL, None, False,
         "Non-Supernatural models only. Follows all the rules for Dynamite but only affects Supernatural models.",
         single_use=True, explodes_like_dynamite=True, supernatural_only_blast=True, non_supernatural_only=True),
    Gear("Grimoire", GearKind.SUPERNATURAL, None, False,
         "Makes a non-Hired Gun model an Arcanist (if the Posse has none) and is destroyed; an existing Arcanist keeps it for "
         "+1 Die when Casting; further Grimoires have no effect.", takes_slot=False, casting_dice=+1),
    Gear("Holy Symbol", GearKind.SUPERNATURAL, None, False,
         "Non-Supernatural models only. Once per game may Cast Warding Circle or Banish following the normal rules; cannot "
         "cause a Miscast.", non_supernatural_only=True),
    Gear("Lucky Jackalope's Foot", GearKind.SUPERNATURAL, None, False,
         "One use per game: re-roll a single Die on behalf of the user.", once_per_game=True, rerolls="a single Die, once per game"),
    Gear("Silver Bullets", GearKind.SUPERNATURAL, None, False,
         "Loads one Weapon for a game (until it Jams): Supernatural models Hit suffer an additional -1 Save Modifier.",
         save_modifier_vs_supernatural=-1),
)}
"""Supernatural Gear Summary (prices are not in this rulebook text)."""

GEAR: dict[str, Gear] = {**HORSES_AND_GEAR, **SUPERNATURAL_GEAR}
_GEAR_ALIASES = {"Appaloosa": "Appaloosa Horse", "Nitro": "Vial of Nitro", "Jackalope's Foot": "Lucky Jackalope's Foot",
                 "Lucky Foot": "Lucky Jackalope's Foot", "Telescope": "Telescopic Sight", "Scope": "Telescopic Sight",
                 "TNT": "Dynamite"}


def gear(name: str | Gear) -> Gear:
    """An item of Gear or a horse by its book name ('whiskey', 'Vial of Nitro', 'appaloosa', ...)."""
    if isinstance(name, Gear):
        return name
    return lookup("gear", str(name), GEAR, _GEAR_ALIASES)


def horse(name: str | Gear) -> Gear:
    g = gear(name)
    if g.kind is not GearKind.HORSE:
        raise OddsmithError(f"{g.name} is not a horse; horses are: Horse, Appaloosa Horse")
    return g


SNAKE_OIL_CHANCE = Fraction(1, 2)
"""Snake Oil works on a D6 roll of 4+."""

HORSE_DIES_ON_D6 = 1
"""In a Campaign, a horse that became a Casualty is dead on a D6 roll of 1 ("Horses in Combat")."""

VIAL_OF_NITRO_EXPLODES_ON = (1, 2)
"""The Nitro explodes if its bearer fails a Save with a score of 1 or 2."""


# ---------------------------------------------------------------------------
# Dynamite ("Dynamite", "Ka-Boom!", "Explosive Terrain")
# ---------------------------------------------------------------------------

DYNAMITE_THROW_INCHES = 8
DYNAMITE_BLAST_RADIUS = 3
DYNAMITE_BLAST_SAVE = 7
"""Ka-Boom!: models whose centre of base is within 3" make a 7+ Save; models partly within 3" pass a 1 Die
Reaction Test or make the 7+ Save; a mounted model makes two Saves (horse and rider)."""
DYNAMITE_SCATTER_DIE = 6
"""The Dynamite moves D6" towards or away from the thrower on those failed results."""


class DynamiteOutcome(enum.Enum):
    """Where a thrown stick of Dynamite explodes ("Dynamite")."""

    ON_TARGET = "explodes on the target point"
    ON_THROWER = "explodes centred over the thrower"
    TOWARDS_THROWER = "moves D6\" towards the thrower, then explodes"
    AWAY_FROM_THROWER = "moves D6\" away from the thrower, then explodes"
    DUD = "dud: no effect, still used"


DYNAMITE_FAILED_THROW: dict[int, DynamiteOutcome] = {
    1: DynamiteOutcome.ON_THROWER,
    2: DynamiteOutcome.TOWARDS_THROWER,
    3: DynamiteOutcome.AWAY_FROM_THROWER,
    4: DynamiteOutcome.DUD,
}
"""Score of a failed 1 Die throw -> outcome, the book's four results in order (a Failure scores 1-4)."""


def dynamite_throw(score: int) -> DynamiteOutcome:
    """Outcome of the unmodified 1 Die Shooting Test of a Dynamite throw."""
    if score >= SUCCESS_ON:
        return DynamiteOutcome.ON_TARGET
    if score in DYNAMITE_FAILED_THROW:
        return DYNAMITE_FAILED_THROW[score]
    raise OddsmithError(f"a die score is at least 1, got {score}")


GOOD_SHOT_DICE = ShootModifier.SMALL_TARGET.dice
SET_DYNAMITE_INCHES = 1
EXPLOSIVE_TERRAIN_SAVE_DIE = 8
EXPLOSIVE_TERRAIN_BLAST_RADIUS = 2
"""Explosive Terrain: hit, then the player to your left Saves on a D8 for it; failed, it explodes like Dynamite
with a 2" blast ("Explosive Terrain")."""


# ---------------------------------------------------------------------------
# Fire corridors ("Fire Corridors")
# ---------------------------------------------------------------------------

FIRE_CORRIDOR_HALF_WIDTH = 1
FIRE_CORRIDOR_SAVE = 5
FIRE_CORRIDOR_BLOCKING_HEIGHT = 2
"""Fire corridor: models under the line are Hit automatically; for each other visible model within 1" of it
the Shooter rolls one Grit Die (closest first), a Success Hits; every model Hit makes a 5+ Save; solid terrain
2" or higher blocks the line."""


# ---------------------------------------------------------------------------
# Other numbers of the game
# ---------------------------------------------------------------------------

CACTUS_PATCH_SAVE = 5
ORNERY_CRITTER_SAVE = 5
ARMED_CIVILIANS_DICE = 2
ARMED_CIVILIANS_DIE = 6
ARMED_CIVILIANS_RANGE = 6
DUST_STORM_VISIBILITY = 12
HORSE_RIDER_SAVE = 5
"""A rider whose horse becomes a Casualty makes a 5+ Save ("Horses in Combat"); a horse counts as a Novice."""
LASSO_RANGE = 6
GAME_TURNS = 8
MAX_LOOT_PER_MODEL = 2


# ---------------------------------------------------------------------------
# Game Turns, cards and Activations ("Anatomy of a Game", "Activations", "Running Out of Cards", "Lone Gun")
# ---------------------------------------------------------------------------

DECK_CARDS = 54
DECK_JOKERS = 2
"""Each player has their own Deck: a single deck of ordinary playing cards ("What You Will Need to Play"), 52 cards
and two Jokers. Read here: one Joker is black, the other red (the book gives Jokers a value but no colour)."""

CARD_SUITS: dict[str, str] = {"S": "black", "C": "black", "H": "red", "D": "red"}
"""Black cards (Spades and Clubs) always resolve before red cards (Hearts and Diamonds) ("Activations", step 2)."""
COLOUR_ORDER = ("black", "red")
ACE_VALUE = 14
JOKER_VALUE = 0
"""Aces are the highest value card, then Kings, Queens, Jacks, 10 down to 2 and finally Jokers ("Activations")."""
CARD_VALUE_LABELS: dict[int, str] = {14: "A", 13: "K", 12: "Q", 11: "J", 0: "Joker", **{v: str(v) for v in range(2, 11)}}


@dataclass(frozen=True)
class PlayingCard:
    """A card played to order Activations: ``value`` 2..14 (Ace 14, Joker 0), ``suit`` S/C/H/D (None for a Joker)."""

    value: int
    suit: str | None
    joker_colour: str | None = None

    @property
    def colour(self) -> str:
        return CARD_SUITS[self.suit] if self.suit is not None else str(self.joker_colour)

    @property
    def activation_key(self) -> tuple[int, int]:
        """Sort key, smallest Activates first: black before red, then higher value first ("Activations", step 2)."""
        return (COLOUR_ORDER.index(self.colour), -self.value)

    @property
    def label(self) -> str:
        if self.suit is None:
            return f"{self.colour} Joker"
        return f"{CARD_VALUE_LABELS[self.value]}{self.suit}"


def playing_card(text: str) -> PlayingCard:
    """'10S', 'JH', 'AC', 'black joker' ... as a PlayingCard."""
    t = normalize_name(text).replace(" ", "")
    if t.endswith("joker"):
        colour = t[: -len("joker")] or "black"
        if colour not in COLOUR_ORDER:
            raise OddsmithError(f"a Joker is black or red, got {text!r}")
        return PlayingCard(JOKER_VALUE, None, colour)
    suit, value = t[-1:].upper(), t[:-1].upper()
    values = {v: k for k, v in CARD_VALUE_LABELS.items() if k != JOKER_VALUE}
    if suit not in CARD_SUITS or value not in values:
        raise OddsmithError(f"not a playing card: {text!r} (e.g. 10S, JH, AC, black joker)")
    return PlayingCard(values[value], suit)


def deck_cards() -> list[PlayingCard]:
    """The 54 cards of one player's Deck."""
    cards = [PlayingCard(v, s) for s in CARD_SUITS for v in range(2, ACE_VALUE + 1)]
    return cards + [PlayingCard(JOKER_VALUE, None, c) for c in COLOUR_ORDER[:DECK_JOKERS]]


def hand_size(models_on_table: int, boss_on_table: bool) -> int:
    """Cards drawn in the Draw Phase: half the models on the table rounded up, +1 if the Boss is amongst them
    ("Anatomy of a Game: 1: Draw Phase"). The book's example: six models with their Boss draw four."""
    if models_on_table < 0:
        raise OddsmithError(f"models on the table must not be negative, got {models_on_table}")
    return -(-models_on_table // 2) + (1 if boss_on_table and models_on_table > 0 else 0)


def activation_order(cards: Iterable[PlayingCard], roll_offs: Iterable[int] = ()) -> tuple[list[int], bool]:
    """Who Activates in what order this round, and whether an Event occurs ("Activations", step 2).

    ``cards``: the card each player revealed (index = player). Black before
    red, then higher value first; players who revealed equal values Roll-Off
    and go in descending order of score: ``roll_offs`` are their D10 scores
    in player order, one per tied player (ties between the scores are the
    caller's to re-roll). The exact same card revealed by two or more players
    raises an Event.
    """
    cards = list(cards)
    scores = list(roll_offs)
    keys = [c.activation_key for c in cards]
    tied = sorted(i for i in range(len(cards)) if keys.count(keys[i]) > 1)
    if len(scores) < len(tied):
        raise OddsmithError(f"{len(tied)} players tied on card value need a Roll-Off score each, got {len(scores)}")
    roll = dict(zip(tied, scores))
    order = sorted(range(len(cards)), key=lambda i: (keys[i], -roll.get(i, 0)))
    event = len(set(cards)) < len(cards)
    return order, event


ROLL_OFF_DIE = 10
"""Each player involved in a Roll-Off rolls a D10, the highest scorer winning; ties re-roll ("Roll-Offs")."""
EVENTS_PER_GAME_TURN = 1
"""A maximum of one Event may occur per Game Turn ("Unexpected Events")."""
LONE_GUN_HAND = 1
"""A Hand of only one card at the start of a Turn may be played whenever its owner wishes ("Lone Gun")."""
SOLO_ACTIONS = 2
DUAL_MODELS = 2
"""Solo Activation: one model makes two Actions (each Weapon fired once per Activation; Trigger-Happy may fire the
same Weapon twice); Dual Activation: two models make one Action each ("Activations", step 3)."""
CLEAR_JAM_ACTION = "Move"
"""A model spends an entire Move Action to clear one Jammed Weapon ("Clearing a Jammed Weapon")."""


# ---------------------------------------------------------------------------
# Arcane Powers ("Arcane Powers", "Casting Powers", "Arcane Power Summary")
# ---------------------------------------------------------------------------

CASTING_DICE = 3
ARCANIST_STARTING_POWERS = 3
ARCANIST_MAX_POWERS = 6
ARCANISTS_PER_POSSE = 1
ARCANIST_INFAMY = 1


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


SUMMONED_ENTITIES: dict[str, Entity] = {e.name: e for e in (
    Entity("Lesser Entity", 25, 4, 6, "Entity. Fearsome", ("Fearsome",), "Lesser"),
    Entity("Minor Entity", 25, 4, 8, "Entity. Fearsome", ("Fearsome",), "Minor"),
    Entity("Major Entity", 40, 4, 10, "Entity. Fearsome", ("Fearsome",), "Major"),
)}
SUMMON_DIFFICULTY: dict[int, str] = {1: "Lesser Entity", 2: "Minor Entity", 3: "Major Entity"}

UNIQUE_SUMMONINGS: dict[str, Entity] = {e.name: e for e in (
    Entity("Behemoth", 40, 4, 10, "Major Entity. Flying, Fearsome. Breath attack: a 4\" Fire Corridor. Crossroads Cult only.",
           ("Fearsome",), "Major"),
    Entity("Hellhound", 25, 6, 6, "Lesser Entity. Fearsome. Crossroads Cult only.", ("Fearsome",), "Lesser"),
    Entity("Seraphim", 25, 6, 10, "Major Entity. Flying. Gunslinger. Fearsome. Two Blessed Pistols (Silver Bullets, never Jam). "
           "Twilight Order only.", ("Gunslinger", "Fearsome"), "Major"),
    Entity("Swamp Baka", 40, 4, 8, "Major Entity. Fearsome. Hard to Kill. Lead-Belly. Tough. Ignores rough ground. Tendrils as a "
           "Lasso. Congregation only.", ("Fearsome", "Hard to Kill", "Lead-Belly", "Tough"), "Major"),
)}
UNIQUE_SUMMONING_DICE = CastingModifier.UNIQUE_SUMMONING.dice


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
                supernatural=True, skills=("Hard to Kill",), powers=("Transfix",), move=6),
    FactionRole("Skinwalker (Wolf)", Faction.SKINWALKER_TRIBES, None, 2,
                "Skinwalker with Wolf Beast Form: Supernatural; in Beast Form Fearsome, 40mm base, Moves 6\", +2 Dice in a Fight "
                "when on the Attack, no Weapons or Gear.", supernatural=True, move=6),
    FactionRole("Skinwalker (Bear)", Faction.SKINWALKER_TRIBES, None, 2,
                "Skinwalker with Bear Beast Form: Supernatural; in Beast Form Fearsome, 40mm base; winning a Fight gives the "
                "loser -1 Save; winning by 2+ against a smaller base makes failed-Save Damage one worse.", supernatural=True),
    FactionRole("Magister", Faction.CROSSROADS_CULT, 1, 1,
                "The Boss becomes an Arcanist for free; one of its three Powers must be Summon.",
                boss_only=True, arcanist=True, required_power="Summon"),
    FactionRole("Harbinger of the Abyss", Faction.CROSSROADS_CULT, 1, 1,
                "Flying, Supernatural, knows Summon (not an Arcanist); within 6\" the Magister gets +1 Die to Cast; never the Boss.",
                not_boss=True, supernatural=True, flying=True, powers=("Summon",)),
    FactionRole("Vessel", Faction.CONGREGATION, None, 1,
                "Chosen before each game: Flying, Supernatural, Tough, Fearsome, Arcane Blast (not an Arcanist); loses its "
                "Weapons, Gear and Horse for the game.", not_supernatural=True, supernatural=True, flying=True,
                skills=("Tough", "Fearsome"), powers=("Arcane Blast",), loses_weapons_and_gear=True),
    FactionRole("Zombi", Faction.CONGREGATION, None, 2,
                "Zombi Warrior: Supernatural, gains Lead-Belly and Tough, keeps Rank, Skills, Injuries, Powers, Weapons and Gear; "
                "no more EXP or Advances. Up to two in a one-off game.", not_supernatural=True, supernatural=True,
                skills=("Lead-Belly", "Tough"), may_not_advance=True),
    FactionRole("Master Necromancer", Faction.DARK_CONFEDERACY, 1, 1,
                "The Boss becomes an Arcanist; Faith Healing must be one of its Powers.",
                boss_only=True, arcanist=True, required_power="Faith Healing"),
)}
"""Faction model roles; Skinwalker Tribes need exactly two Skinwalkers (Wolf and/or Bear) in total."""

SKINWALKERS_PER_POSSE = 2
WOLF_FORM_ATTACK_DICE = FightModifier.WOLF_FORM.dice
BEAR_FORM_WIN_SAVE_MODIFIER = SaveModifier.BEAR_FORM.modifier
NATIVE_AMERICAN_ONLY_FACTIONS = (Faction.SKINWALKER_TRIBES,)
NOT_NATIVE_AMERICAN_FACTIONS = (Faction.CROSSROADS_CULT,)


def faction_role(name: str | FactionRole) -> FactionRole:
    if isinstance(name, FactionRole):
        return name
    return lookup("faction role", str(name), FACTION_ROLES, {
        "Broodsire": "Broodkin", "Crusader of the Order": "Crusader", "Wolf": "Skinwalker (Wolf)",
        "Bear": "Skinwalker (Bear)", "Harbinger": "Harbinger of the Abyss", "Necromancer": "Master Necromancer",
        "Zombi Warrior": "Zombi"})


REVENANTS = "D3+1"
REVENANT = Entity("Revenant", 25, 4, 6, "Fearsome. Hard to Kill. Armed with a Pistol.", ("Fearsome", "Hard to Kill"))
"""The Dark Confederacy's Revenants: D3+1 join the Posse each game (Faction Benefit: Revenants)."""


def revenants_distribution() -> dict[int, Fraction]:
    """Number of Revenants before a game: D3+1 (2, 3 or 4, each 1/3)."""
    return {k + 1: p for k, p in halved_die_distribution(3).items()}


# ---------------------------------------------------------------------------
# Events tables ("Unexpected Events", "Supernatural Events", "Unwelcome Guests")
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableEntry:
    """One row of a rolled table: the roll(s) it covers, its name and the book's effect text.

    ``name``/``effect`` are ``None`` where this rulebook text lists the roll
    but not its entry (a truncated row) or lists nothing for it.
    """

    low: int
    high: int
    name: str | None
    effect: str | None = None

    def covers(self, roll: int) -> bool:
        return self.low <= roll <= self.high


@dataclass(frozen=True)
class RollTable:
    """A table rolled on a die: ``die`` faces, entries in book order."""

    name: str
    die: int
    entries: tuple[TableEntry, ...]
    section: str

    def entry(self, roll: int) -> TableEntry:
        for e in self.entries:
            if e.covers(roll):
                return e
        raise OddsmithError(f"{self.name}: no entry for a roll of {roll} (the table is rolled on a D{self.die})")

    def listed(self, roll: int) -> bool:
        return any(e.covers(roll) and e.name is not None for e in self.entries)


def _table(name: str, die: int, section: str, rows: Iterable[tuple]) -> RollTable:
    entries = []
    for row in rows:
        roll, title, *rest = row
        low, high = (roll, roll) if isinstance(roll, int) else roll
        entries.append(TableEntry(low, high, title, rest[0] if rest else None))
    return RollTable(name, die, tuple(entries), section)


UNEXPECTED_EVENTS = _table("Unexpected Events", 6, "Unexpected Events", [
    (1, "'Ornery Critter!", "A random model not Downed or engaged makes an immediate 5+ Save."),
    (2, "Armed Civilians", "An unmodified 2 Dice Shooting Test with Grit D6 against all visible models within 6\" of a random "
        "empty terrain piece; no Reactions."),
    (3, "Dust Storm", "Visibility drops to a maximum of 12\" until the end of the Turn."),
    (4, "Bad Omen", "A random model not Downed suffers an additional -1 Save Modifier until the end of this Turn."),
    (5, "Hero of the Hour", "A random model not Downed may immediately Activate for any one Action, even if Done."),
    (6, "Lucky Find", None),
])
"""Rolled on a D6 when identical cards are revealed; at most one Event per Game Turn. The book text stops at
"Lucky Find" without its effect."""

SUPERNATURAL_EVENTS = _table("Supernatural Events", 6, "Supernatural Events", [
    (1, "Armed Civilians", "An unmodified 2 Dice Shooting Test with Grit D6 against all visible models within 6\" of a random "
        "empty terrain piece; no Reactions."),
    (2, "Unnatural Gloom", "Visibility 12\" for all non-Supernatural models until the end of this Game Turn."),
    (3, "Haunted!", "Non-Supernatural models not Downed in a random occupied terrain piece pass a 1 Die Nerve Test or leave it."),
    (4, "Let There Be Light", "All Supernatural models suffer -1 Die on all Tests until the end of this Game Turn."),
    (5, "Arcane Storm", "+1 Die to Cast until the end of this Game Turn; a Miscast makes the Caster a Casualty."),
    (6, None, None),
])
"""Used instead of Unexpected Events; the D6 result 6 is not in this rulebook text (the Bestiary is rolled on an
"Unwelcome Guest" result)."""

UNWELCOME_GUESTS = _table("Unwelcome Guests", 10, "Unwelcome Guests: A Bestiary", [
    (1, "Jackalope"), (2, "Chupacabra"), (3, "Vampire Fledgling"), (4, "Hellhound"), (5, "Sasquatch"),
    (6, "Zombie"), (7, "Lost Soul"), (8, "Manitou"), (9, "Pale Rider"), (10, "Vampire Ancient"),
])

BESTIARY: dict[str, Entity] = {e.name: e for e in (
    Entity("Jackalope", 20, 6, 6, "Bull-Rush.", ("Bull-Rush",)),
    Entity("Chupacabra", 20, 6, 6, "Always moves towards the closest visible Downed enemy; a Downed model it Contacts becomes "
           "a Casualty."),
    Entity("Vampire Fledgling", 25, 6, 6, "Mean.", ("Mean",)),
    Entity("Hellhound", 25, 6, 6, "Entity. Fearsome.", ("Fearsome",)),
)}
"""Creature profiles this rulebook text gives (its Bestiary stops at the Sasquatch)."""

ZOMBIE_OUTBREAK = "D5+3"
INNOCENT_BYSTANDERS = "D3+2"

SCENARIOS = _table("Scenarios", 8, "Choose a Scenario and Set Up the Table", [
    (1, "Stake a Claim", "The Posses vie for important territory."),
    (2, "A Fistful of Loot", "The Posses compete for valuable Loot."),
    (3, "Shootout!", "A meeting between rival Bosses in neutral territory becomes a fight to the death!"),
    (4, "The Getaway", "Can your Posse escape with their Loot?"),
    (5, "Showdown", "A standard face-off between rival Posses."),
    (6, "Bonanza!", "The Posses race to find a vital item hidden somewhere in the local area."),
    (7, "Escalation", "A chance meeting between rival Posses soon erupts into a pitched gunfight!"),
    (8, None, None),
])

AGENDAS = _table("Agendas", 6, "Agendas", [
    (1, "Vendetta", "If your Boss causes their chosen Rival Boss to become a Casualty, +2 VP."),
    (2, "Divided Loyalties", "If the chosen enemy Boss is still in play at the end, +2 VP."),
    (3, "The VIP", "If your VIP is on the table and held by your model at the end, +2 VP."),
    (4, "Blaze of Glory", "If your secretly chosen model is Downed or a Casualty by the end, +1 VP."),
    (5, "The Message", "The Posse carrying the message at the end earns +1 VP."),
    (6, None, None),
])


# ---------------------------------------------------------------------------
# Campaign: Injury ("Injury Phase")
# ---------------------------------------------------------------------------


class Injury(enum.Enum):
    """Injury table results ("Injury Phase"); ``NOT_LISTED`` is a D10 roll of 7-10, which the table does not list."""

    DEAD = "Dead!"
    OLD_WOUND = "Lasting Injury — Old Wound"
    ONE_EYED = "Lasting Injury — One-Eyed"
    LIMP = "Lasting Injury — Limp"
    WEAKENED = "Lasting Injury — Weakened"
    LAID_UP = "Laid-Up"
    NOT_LISTED = "no result listed (7-10)"

    @property
    def lasting(self) -> bool:
        return self in (Injury.OLD_WOUND, Injury.ONE_EYED, Injury.LIMP, Injury.WEAKENED)

    @property
    def short_name(self) -> str:
        return {Injury.DEAD: "Dead", Injury.OLD_WOUND: "Old Wound", Injury.ONE_EYED: "One-Eyed", Injury.LIMP: "Limp",
                Injury.WEAKENED: "Weakened", Injury.LAID_UP: "Laid-Up", Injury.NOT_LISTED: "No Injury"}[self]


INJURY_DIE = 10
INJURY_TABLE: dict[int, Injury] = {1: Injury.DEAD, 2: Injury.OLD_WOUND, 3: Injury.ONE_EYED, 4: Injury.LIMP,
                                   5: Injury.WEAKENED, 6: Injury.LAID_UP}
"""D10 Roll -> Injury. The book's table lists 1-6 only; a roll of 7-10 has no entry, read as no Injury."""

INJURY_NOTES: dict[Injury, str] = {
    Injury.DEAD: "The model has died of their wounds and is removed from the Roster with all its Weapons and Gear.",
    Injury.OLD_WOUND: "Roll one Grit Die before Deployment each game; Failed: the model begins that game Shaken.",
    Injury.ONE_EYED: "-1 Die Modifier on all Shooting Tests from now on.",
    Injury.LIMP: "If on foot, only one Move Action per Activation from now on.",
    Injury.WEAKENED: "-1 Die Modifier on all Fight Tests from now on.",
    Injury.LAID_UP: "Takes no part in the rest of this Campaign Phase (no EXP, no Encounters), available next one.",
    Injury.NOT_LISTED: "The Injury table of this rulebook text lists no result for 7-10: the model suffers no Injury.",
}
DUPLICATE_LASTING_INJURY_IS_DEAD = True
"""A second identical Lasting Injury means the model is Dead ("Injury Phase")."""


def injury(roll: int) -> Injury:
    if not 1 <= roll <= INJURY_DIE:
        raise OddsmithError(f"an Injury roll is a D10 (1-10), got {roll}")
    return INJURY_TABLE.get(roll, Injury.NOT_LISTED)


def lasting_injury(name: str | Injury) -> Injury:
    if isinstance(name, Injury):
        found = name
    else:
        found = lookup("Lasting Injury", str(name), {i.short_name: i for i in Injury if i.lasting})
    if not found.lasting:
        raise OddsmithError(f"{found.value} is not a Lasting Injury")
    return found


INJURY_DICE_MODIFIERS: dict[Injury, DiceModifier] = {
    Injury.ONE_EYED: ShootModifier.ONE_EYED.value,
    Injury.WEAKENED: FightModifier.WEAKENED.value,
}


class InjuryCause(enum.Enum):
    """How a model ended the game ("Injury Phase"): a Casualty rolls the D10 Injury table at once; a Downed
    model first rolls one Grit Die, a Success is a full recovery; Shaken recovers automatically."""

    CASUALTY = "Casualty"
    DOWNED = "Downed"


DOC_CURE_ON_MAXIMUM = True
"""Doc: one Grit Die; the maximum score cancels a Lasting Injury, a 1 kills the patient ("Hired Guns")."""


# ---------------------------------------------------------------------------
# Campaign: Advancement ("Advancement Phase")
# ---------------------------------------------------------------------------


class Advance(enum.Enum):
    """Advance table results ("Advance Rolls")."""

    PREFERRED_SKILL = "Preferred Skill"
    RANDOM_SKILL = "Random Skill"
    RANK_UP = "Rank-Up"


ADVANCE_DIE = 6
ADVANCE_TABLE: dict[int, Advance] = {1: Advance.PREFERRED_SKILL, 2: Advance.RANDOM_SKILL, 3: Advance.RANDOM_SKILL,
                                     4: Advance.RANDOM_SKILL, 5: Advance.RANDOM_SKILL, 6: Advance.RANK_UP}
"""D6 -> Advance: 1 Preferred Skill, 2-5 Random Skill, 6 Rank-Up (a Hero takes Random Skill instead)."""

EXP_FOR_NOT_ADVANCING = 1


def advances(model_rank: Rank | str, roll: int, exp: int) -> bool:
    """Advance roll: Grit Die + EXP reaching 6 (Novice), 8 (Veteran) or 10 (Hero)."""
    r = rank(model_rank)
    return roll + exp >= r.advance_target


def advance_result(model_rank: Rank | str, d6: int) -> Advance:
    """Advance table result for a D6 roll; a Hero's Rank-Up is a Random Skill instead."""
    if d6 not in ADVANCE_TABLE:
        raise OddsmithError(f"an Advance table roll is a D6 (1-6), got {d6}")
    result = ADVANCE_TABLE[d6]
    if result is Advance.RANK_UP and rank(model_rank) is Rank.HERO:
        return Advance.RANDOM_SKILL
    return result


# ---------------------------------------------------------------------------
# Campaign: Income and Encounters ("Income Phase", "Encounters")
# ---------------------------------------------------------------------------

INCOME_DICE_LOST_OR_DRAWN = 4
INCOME_DICE_WON = 5
INCOME_DIE = 6
"""Income: $4D6 after a draw or loss, $5D6 after a win ("Income Phase")."""


def income_dice(won: bool) -> int:
    return INCOME_DICE_WON if won else INCOME_DICE_LOST_OR_DRAWN


ENCOUNTER_SETS = (2, 3, 4)
"""Any two, three or four of a kind among the Income dice is an Encounter; with two or more different
Encounters the player resolves one of their choice. Five of a kind (5D6) is read as four of a kind."""

TWO_OF_A_KIND_ENCOUNTERS = _table("Two of a Kind Encounters Table", 6, "Encounters", [
    (1, "Abandoned Ranch", "Send one model to scavenge for $1D6; on a score of 1 you also find a Lasso."),
    (2, "Refugees", "Escort them for $1D6 and a bottle of Whiskey, or attack: 1 Infamy on a D6 roll of 4+."),
    (3, "Forgotten Cabin", "Loot it on a D6: 1: Nothing; 2-4: $1D6; 5-6: Shotgun."),
    (4, "Mad Preacher", "D6: 1-5 no effect; 6: he joins you as a Preacher Hired Gun with a Shotgun."),
    (5, "Old Moonshine Still", "D3 bottles of Whiskey; natural 6: a Snake Oil instead; natural 1: your models start the next "
        "game Done."),
    (6, None, None),
])
THREE_OF_A_KIND_ENCOUNTERS = _table("Three of a Kind Encounters Table", 6, "Encounters", [
    (1, "Isolated Ranch", "Attack for 1 Infamy on a D6 4+, or help out for $1D8 and a Horse."),
    (2, "Lynch Mob", "Intervene: Injury rolls for D3 random models (re-roll Dead), gain a Veteran with a Pistol."),
    (3, "Travelling Salesman", "Two different Uncommon Items are available to buy in the next Purchase Phase."),
    (4, "Massacre", "D6: 1: Nothing; 2-3: $2D8; 4-5: Two Pistols and a Rifle; 6: Repeater Rifle and Shotgun."),
    (5, "Stampede!", "One Grit Die for D3 random models: Failed means an Injury roll."),
    (6, None, None),
])
FOUR_OF_A_KIND_ENCOUNTERS = _table("Four of a Kind Encounters Table", 6, "Encounters", [
    (1, "Lawman Posse", "Pay $ equal to your Infamy, or fight: Injury rolls (re-roll Dead) for D3 models, 1 EXP for the Boss."),
    (2, "Pilgrims", "D6: 1: a lecture; 2+: one model removes a Lasting Injury."),
    (3, "Escaped Prisoner", "Turn him in for $1D10+5, or he joins as a Novice with a Pistol."),
    (4, "Wagon Train", "Attack: 1 Infamy on a D6 4+ and $1D10; or guard: $D8 and a D6 reward (1 Repeater Rifle, 2 LeMat "
        "Pistol, 3 Boilerplate, 4 Sawn-Off Shotgun, 5 Telescopic Sight, 6 Horse)."),
    (5, "Bushwhacked", None),
    (6, None, None),
])
"""The Encounter tables list results for 1-5; this rulebook text has no row for a set of 6s, and stops at
"Bushwhacked" without its effect."""

SUPERNATURAL_TWO_OF_A_KIND_ENCOUNTERS = _table("Two of a Kind Encounters Table (Supernatural)", 6, "Supernatural Encounters", [
    (1, "Abandoned Ranch", "Scavenge for $1D6; on a score of 6 you also find a Lasso."),
    (2, "Refugees", "Escort for $1D6 and a Whiskey, or attack for 1 Infamy on a D6 4+."),
    (3, "Forsaken Cabin", "D6: 1 the model is never seen again; 2 misses the next game; 3-4 $1D6; 5 Shotgun; 6 Grimoire."),
    (4, "Mad Preacher", "D6: 1-5 no effect; 6: joins as a Preacher Hired Gun with a Shotgun."),
    (5, "Sacred Burial Ground", None),
    (6, None, None),
])
SUPERNATURAL_THREE_OF_A_KIND_ENCOUNTERS = _table("Three of a Kind Encounters Table (Supernatural)", 6, "Supernatural Encounters", [
    (1, "Isolated Ranch", "Attack for 1 Infamy on a D6 4+, or help out for $1D8 and a Horse."),
    (2, "Lynch Mob", "Intervene: Injury rolls for D3 random models (re-roll Dead), gain a Veteran with a Pistol."),
    (3, "Abandoned Church", "Raze for 1 Infamy on a D6 4+ (dark Factions) or pray: each model starts the next game Blessed "
        "on a D6 5+."),
    (4, "Massacre", "D6: 1 Nothing; 2-3 $1D8; 4-5 Two Pistols and a Rifle; 6 Repeater Rifle and Shotgun."),
    (5, "Stampede!", None),
    (6, None, None),
])
SUPERNATURAL_FOUR_OF_A_KIND_ENCOUNTERS = _table("Four of a Kind Encounters Table (Supernatural)", 6, "Supernatural Encounters", [
    (1, "Old Battlefield", "Dark Confederacy: four Revenants next game; Congregation, Skinwalker Tribes, Twilight Order: the "
        "Boss earns 1 EXP on a D6 4+."),
    (2, "Pilgrims", "D6: 1 a lecture; 2 a Holy Symbol; 3 a Blessed Water; 4+ one model removes a Lasting Injury."),
    (3, "The Gallows Tree", "D6: 1 Snake Oil; 2-3 $1D8; 4 Lucky Jackalope's Foot; 5 Marked Cards; 6 Grimoire."),
    (4, "Wagon Train", "Attack: 1 Infamy on a D6 4+ and $1D10; or guard: $1D10 and a D6 reward (1 Repeater Rifle, 2 LeMat "
        "Pistol, 3 Boilerplate, 4 Sawn-Off Shotgun, 5 Telescopic Sight, 6 Horse)."),
    (5, None, None),
    (6, None, None),
])

ENCOUNTER_TABLES: dict[bool, dict[int, RollTable]] = {
    False: {2: TWO_OF_A_KIND_ENCOUNTERS, 3: THREE_OF_A_KIND_ENCOUNTERS, 4: FOUR_OF_A_KIND_ENCOUNTERS},
    True: {2: SUPERNATURAL_TWO_OF_A_KIND_ENCOUNTERS, 3: SUPERNATURAL_THREE_OF_A_KIND_ENCOUNTERS,
           4: SUPERNATURAL_FOUR_OF_A_KIND_ENCOUNTERS},
}
"""Encounter tables by set size; ``True`` picks the Dracula's America (Supernatural) tables."""


def encounter_sets(dice: Iterable[int]) -> list[tuple[int, int]]:
    """(set size, value) of every Encounter a roll of Income dice makes, e.g. 3,3,4,5 -> [(2, 3)].

    A value showing exactly two, three or four times is such a set; five of a
    kind counts as four of a kind.
    """
    counts: dict[int, int] = {}
    for d in dice:
        counts[d] = counts.get(d, 0) + 1
    return sorted((min(c, max(ENCOUNTER_SETS)), v) for v, c in counts.items() if c >= min(ENCOUNTER_SETS))


# ---------------------------------------------------------------------------
# Campaign: Purchase Phase ("Recruitment", "Hired Guns", "Buying and Selling", "Searching for Uncommon Items")
# ---------------------------------------------------------------------------

MAX_POSSE_MODELS = 10
RECRUIT_COST: dict[Rank, int] = {Rank.NOVICE: 4, Rank.VETERAN: 10}
"""You may hire a Novice for $4, or a Veteran for $10 ("Recruitment"; also the Advanced method)."""

RECRUITMENT_WIN_BONUS = 1
RECRUITMENT_TABLE: tuple[tuple[int, int, int], ...] = (
    (1, 0, 0), (2, 1, 0), (3, 2, 0), (4, 3, 0), (5, 4, 0), (6, 4, 1), (7, 4, 2), (8, 4, 3),
)
"""Boss's Grit Die (+1 after a win) -> (Novices, Veterans) available. The table is cumulative: 6 allows
1 Veteran and up to 4 Novices; 8+ allows 3 Veterans and 4 Novices ("Recruitment")."""


def recruits_available(score: int) -> tuple[int, int]:
    """(Novices, Veterans) a Recruitment score allows."""
    if score < 1:
        raise OddsmithError(f"a Recruitment score is at least 1, got {score}")
    row = RECRUITMENT_TABLE[min(score, len(RECRUITMENT_TABLE)) - 1]
    return row[1], row[2]


RECRUITMENT_RESULTS: dict[int, str] = {1: "None", 2: "1 Novice", 3: "2 Novices", 4: "3 Novices", 5: "4 Novices",
                                       6: "1 Veteran", 7: "2 Veterans", 8: "3 Veterans"}


@dataclass(frozen=True)
class HiredGun:
    """A Hired Gun ("Hired Guns", "Supernatural Hired Guns"); ``None`` where the text leaves the row out."""

    name: str
    hire: int | None
    retainer: int | None
    grit: Rank | None
    special: str
    weapons: tuple[str, ...] = ("Pistol",)
    supernatural_campaign_only: bool = False
    faction_only: Faction | None = None
    skills: tuple[str, ...] = ()
    arcanist: bool = False
    powers: tuple[str, ...] = ()
    supernatural: bool = False


HIRED_GUNS: dict[str, HiredGun] = {h.name: h for h in (
    HiredGun("Doc", 8, 2, Rank.NOVICE, "Once per Campaign Turn, try to cure one Lasting Injury: one Grit Die, a maximum score "
             "cancels it, a 1 kills the patient. Armed with a Pistol."),
    HiredGun("Moonshiner", 12, 3, Rank.NOVICE, "Once per game throws a burning bottle of 'shine as a stick of Dynamite. Armed "
             "with a Pistol; adds a Whiskey to the Stash after each game survived on a D6 roll of 6."),
    HiredGun("Preacher", 6, 2, Rank.NOVICE, "May re-roll a single Die of the Posse's Bottle Check if on the table and not Down. "
             "Armed with a Pistol."),
)}
SUPERNATURAL_HIRED_GUNS: dict[str, HiredGun] = {h.name: h for h in (
    HiredGun("Carpathian Guard", 18, 4, Rank.VETERAN, "Nerves of Steel and Tough within LOS and 3\" of the Boss. Pistol and a "
             "Woodsman's Axe (enemies struck in a Fight suffer -1 Save); can use no other Weapons. Red Hand Coven only.",
             weapons=("Pistol", "Woodsman's Axe"), supernatural_campaign_only=True, faction_only=Faction.RED_HAND_COVEN),
    HiredGun("Maverick Arcanist", 16, 4, Rank.NOVICE, "Arcanist alongside the usual one; knows Arcane Blast when Hired. Armed "
             "with a Pistol.", supernatural_campaign_only=True, arcanist=True, powers=("Arcane Blast",)),
    HiredGun("Stitch-Doctor", 12, 3, Rank.NOVICE, "Supernatural. Once per Campaign Turn moves a Lasting Injury to another "
             "non-Hired Gun model; never rolls for Injuries. Armed with a Pistol.", supernatural_campaign_only=True,
             supernatural=True),
    HiredGun("Templar of the Order", None, None, None, "This rulebook text names the Templar of the Order but stops before its row.",
             weapons=(), supernatural_campaign_only=True),
)}
ALL_HIRED_GUNS: dict[str, HiredGun] = {**HIRED_GUNS, **SUPERNATURAL_HIRED_GUNS}
HIRED_GUNS_PER_PURCHASE_PHASE = 1
HIRED_GUN_FRACTION = Fraction(1, 3)
"""Advanced method: only a third of your models may be Hired Guns (one in every three)."""


def hired_gun(name: str | HiredGun) -> HiredGun:
    if isinstance(name, HiredGun):
        return name
    return lookup("Hired Gun", str(name), ALL_HIRED_GUNS, {"Templar": "Templar of the Order", "Carpathian": "Carpathian Guard"})


MAX_WEAPONS_PER_MODEL = 3
MAX_GEAR_PER_MODEL = 3
MAX_HORSES_PER_MODEL = 1
MAX_MODELS_SHARING_A_WEAPON = 2
UNLIMITED_WEAPON = "Pistol"
"""No more than two models may have the same Weapon, except Pistols ("Building a Campaign Posse", Basic and
Advanced Posse Creation); a model carries up to three Weapons and three Gear, a Horse takes a Gear slot."""

SELL_FRACTION = Fraction(1, 2)


def sale_price(cost: int) -> int:
    """Selling an item: half the listed price rounded down ("Selling Items")."""
    return max(0, cost // 2)


UNCOMMON_SEARCH: dict[Rank, tuple[int, int]] = {Rank.NOVICE: (3, -1), Rank.VETERAN: (4, -1), Rank.HERO: (5, -1)}
"""Searching for Uncommon Items: a Novice Boss rolls D3-1, a Veteran D4-1, a Hero D5-1; the result is the most
Uncommon Items that may be bought this Campaign Turn."""


@dataclass(frozen=True)
class PriceListEntry:
    name: str
    cost: int | None
    uncommon: bool
    category: str
    note: str = ""


ITEM_PRICE_LIST: dict[str, PriceListEntry] = {e.name: e for e in (
    PriceListEntry("Pistol", 2, False, "Basic Weapons"),
    PriceListEntry("Shotgun", 5, False, "Basic Weapons"),
    PriceListEntry("Carbine", 3, False, "Basic Weapons"),
    PriceListEntry("Rifle", 5, False, "Basic Weapons"),
    PriceListEntry("Bow", 2, False, "Basic Weapons", "Native Americans only"),
    PriceListEntry("Appaloosa Horse", 15, True, "Horses and Gear"),
    PriceListEntry("Horse", 10, False, "Horses and Gear"),
    PriceListEntry("Boilerplate", 20, True, "Horses and Gear"),
    PriceListEntry("Dynamite", 15, True, "Horses and Gear"),
    PriceListEntry("Lasso", 3, False, "Horses and Gear"),
    PriceListEntry("Marked Cards", 9, True, "Horses and Gear"),
)}
"""The Item Price List as this rulebook text gives it (* = Uncommon Item). Its Special Weapons column and the
rest of the Gear rows are cut off, so those items have no price here."""


def price(name: str) -> int | None:
    """Listed price of a Weapon, Gear or horse, None when the price list does not give one."""
    entry = ITEM_PRICE_LIST.get(name)
    return entry.cost if entry else None


# ---------------------------------------------------------------------------
# Campaign: Infamy and Underdogs ("Infamy Phase", "Underdogs")
# ---------------------------------------------------------------------------

INFAMY_PER_SKILL = 1
INFAMY_PER_WIN = 1


def model_infamy(model_rank: Rank | str, skills: int = 0, arcanist: bool = False) -> int:
    """Personal worth: Novice 1, Veteran 2, Hero 3, +1 per Skill, +1 for an Arcanist."""
    return rank(model_rank).infamy + INFAMY_PER_SKILL * skills + (ARCANIST_INFAMY if arcanist else 0)


def posse_infamy(models: Iterable[tuple[Rank | str, int] | tuple[Rank | str, int, bool]], wins: int = 0) -> int:
    """Base Infamy (models + their worth) + 1 per game won ("Infamy Phase")."""
    models = list(models)
    worth = sum(model_infamy(*m) for m in models)
    return len(models) + worth + INFAMY_PER_WIN * wins


UNDERDOG_TABLE: tuple[tuple[int, int | None, int, int], ...] = (
    (1, 1, 0, 0), (2, 3, 3, 1), (4, 5, 5, 2), (6, 8, 7, 2), (9, 11, 9, 3), (12, 15, 12, 3), (16, None, 15, 4),
)
"""Difference in Infamy -> Underdog Bonus ($, EXP): 1 none, 2-3 $3 1 EXP, 4-5 $5 2 EXP, 6-8 $7 2 EXP,
9-11 $9 3 EXP, 12-15 $12 3 EXP, 16+ $15 4 EXP ("Underdogs")."""


def underdog_bonus(difference: int) -> tuple[int, int]:
    """($, EXP) an Underdog receives for an Infamy ``difference`` (0 or less: not the Underdog)."""
    if difference <= 0:
        return (0, 0)
    for low, high, dollars, exp in UNDERDOG_TABLE:
        if difference >= low and (high is None or difference <= high):
            return (dollars, exp)
    raise AssertionError("unreachable")


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
    PosseRule("faction-roles", "a Faction's unique models follow its Faction Benefit (how many, who may take the role)",
              "The Factions"),
    PosseRule("unique-gear", "Marked Cards: one per Posse; Vial of Nitro: one per model and no Horse; Telescopic Sight: on a "
              "Rifle-Class Weapon; Blessed Water and Holy Symbol: non-Supernatural models only", "Horses and Gear Summary"),
    PosseRule("no-price", "an item the rulebook text gives no price for needs a house price in the posse file's [prices]",
              "Item Price List"),
    PosseRule("supernatural-gear", "Supernatural Gear and Hired Guns are only used with the Dracula's America rules (a Faction)",
              "Supernatural Gear, Supernatural Hired Guns"),
)}


# ---------------------------------------------------------------------------
# Putting a Shooting Attack or a Fight Test together
# ---------------------------------------------------------------------------


def shooting_dice(weapon_name: str | Weapon, band: RangeBand | str, *, cover: bool = False, back_shooter: bool = False,
                  elevated: bool = False, small_target: bool = False, skills: Iterable[str | Skill] = (),
                  injuries: Iterable[Injury | str] = (), whiskey: bool = False, extra: int = 0) -> int:
    """Dice of a 3 Dice Shooting Test after every Dice Modifier ("Shoot: 3: Roll to Hit"), never below one.

    Range band (+1 Short, -1 Long) and the Weapon's own band modifier
    (Shotgun), Cover -1, Back-Shooter +1, Elevated +1, a small target -1,
    Deadeye +1, One-Eyed -1, Whiskey -1, and ``extra`` for anything else.
    Trick Shooter with a Rifle-Class Weapon ignores the Long Range or the
    Cover modifier (the one that applies; either if both do).
    """
    w = weapon(weapon_name)
    b = range_band(band)
    mods = [w.dice_modifier(b), extra]
    if cover:
        mods.append(ShootModifier.COVER.dice)
    if back_shooter:
        mods.append(ShootModifier.BACK_SHOOTER.dice)
    if elevated:
        mods.append(ShootModifier.ELEVATED.dice)
    if small_target:
        mods.append(ShootModifier.SMALL_TARGET.dice)
    if whiskey:
        mods.append(ShootModifier.WHISKEY.dice)
    known = [skill(s) for s in skills]
    mods += [s.shoot_dice for s in known]
    if any(s.trick_shooter for s in known) and w.weapon_class is WeaponClass.RIFLE and (cover or b is RangeBand.LONG):
        mods.append(-ShootModifier.COVER.dice)  # one -1 modifier ignored
    for i in injuries:
        inj = lasting_injury(i)
        mod = INJURY_DICE_MODIFIERS.get(inj)
        if mod is not None and mod.test is TestKind.SHOOTING:
            mods.append(mod.dice)
    return dice_to_roll(TESTS[TestKind.SHOOTING].base_dice, *mods)


def shot_save_modifier(weapon_name: str | Weapon, band: RangeBand | str, *, target_skills: Iterable[str | Skill] = (),
                       silver_bullets: bool = False, target_supernatural: bool = False, bad_omen: bool = False,
                       extra: int = 0) -> int:
    """Save Modifier of the Target of a Shooting Attack: Weapon band (Bow +1/+2, Heavy Pistol -1), Tough +1,
    Silver Bullets -1 against a Supernatural Target, Bad Omen -1, plus ``extra``."""
    w = weapon(weapon_name)
    total = w.save_modifier(range_band(band)) + extra
    total += sum(skill(s).save_modifier for s in target_skills)
    if silver_bullets and target_supernatural:
        total += SaveModifier.SILVER_BULLETS.modifier
    if bad_omen:
        total += SaveModifier.BAD_OMEN.modifier
    return total


def fight_dice(*, charging: bool = False, fortified_defender: bool = False, outnumbered_by: int = 0,
               skills: Iterable[str | Skill] = (), injuries: Iterable[Injury | str] = (), derringer: bool = False,
               close_work_pistols: int = 0, fearsome_failed: bool = False, wolf_form_attacking: bool = False,
               extra: int = 0) -> int:
    """Dice of a 3 Dice Fight Test after every Dice Modifier ("Fight: 2"), never below one.

    Charging +1, attacking a Fortified Defender -1, -1 per unengaged enemy
    after the first ('Ornery ignores it), Mean +1, Weakened -1, Derringer +1,
    Close Work +1 per Pistol-Class Weapon (at most 2; two Pistols do not add
    a Derringer), a failed Nerve Test against a Fearsome model -1, Wolf Form
    attacking +2, and ``extra``.
    """
    if outnumbered_by < 0 or close_work_pistols < 0:
        raise OddsmithError("outnumbered_by and close_work_pistols must not be negative")
    known = [skill(s) for s in skills]
    mods = [extra]
    if charging:
        mods.append(FightModifier.CHARGING.dice)
    if fortified_defender:
        mods.append(FightModifier.FORTIFIED.dice)
    if outnumbered_by and not any(s.ignores_outnumbered for s in known):
        mods.append(FightModifier.OUTNUMBERED.dice * outnumbered_by)
    mods += [s.fight_dice for s in known]
    pistols = min(close_work_pistols, CLOSE_WORK_MAX_PISTOLS) if any(s.close_work for s in known) else 0
    mods.append(FightModifier.CLOSE_WORK.dice * pistols)
    if derringer and pistols < CLOSE_WORK_MAX_PISTOLS:
        mods.append(FightModifier.DERRINGER.dice)
    if fearsome_failed:
        mods.append(FightModifier.FEARSOME.dice)
    if wolf_form_attacking:
        mods.append(FightModifier.WOLF_FORM.dice)
    for i in injuries:
        inj = lasting_injury(i)
        mod = INJURY_DICE_MODIFIERS.get(inj)
        if mod is not None and mod.test is TestKind.FIGHT:
            mods.append(mod.dice)
    return dice_to_roll(TESTS[TestKind.FIGHT].base_dice, *mods)
