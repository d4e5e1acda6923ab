"""Range, Weapons, Saves and Damage ("Shoot", "Weapons Summary", "Weapon Classes", "Item Price List", "Damage").

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Mapping

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import lookup
from oddsmith.rules.shadows.dice import SUCCESS_ON, ShootModifier, success_chance

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
    house_stats: bool = False

    @property
    def takes_house_stats(self) -> bool:
        """True for a Weapon shot by a Shooting Test whose ranges and Jam Die the book leaves out
        (the Rifle, the Buffalo Gun): a posse file may give them (:func:`house_weapon`)."""
        return (not self.house_stats and not self.stats_known and not self.fire_corridor
                and self.weapon_class is not None)

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


HOUSE_WEAPON_MAX_RANGE = 48
"""Longest Long Range a house Weapon may have: the largest table the book names is four foot by four foot
("What You Need"; the standard table is three foot by three foot)."""
HOUSE_WEAPON_MAX_MODIFIER = 3
"""Largest extra Dice or Save Modifier (either sign) a house Weapon may give in a range band; the book's own
Weapons give at most 2 (the Bow's +2 Save at Long Range)."""
HOUSE_WEAPON_SHOTS = (1, 2)
"""Shots as one Action: 1, or 2 as the Sixgun and Repeater Rifle ("May Shoot twice as one Action")."""
JAM_DICE = (6, 8, 10)
"""The Jam Dice of the Weapons tables: D6, D8, D10 ("Jamming Checks")."""


def house_weapon(base: Weapon | str, *, short: int, medium: int, long: int, jam_die: int, shots: int = 1,
                 band_dice: Mapping[RangeBand, int] | None = None,
                 band_save: Mapping[RangeBand, int] | None = None) -> Weapon:
    """``base`` with house Shooting stats, for a Weapon the book prices or names but gives no table row
    (the Rifle, the Buffalo Gun): range band edges in inches, the Jam Die's faces, shots per Action, and
    the extra Dice Modifier to hit and the Target's Save Modifier in each band (as ``Weapon.band_dice`` and
    ``Weapon.band_save``). Its Class, price and notes stay the book's. Raises :class:`OddsmithError` naming
    the first value out of range."""
    w = weapon(base)
    if not w.takes_house_stats:
        if w.fire_corridor:
            why = "fires a fire corridor (Fire Corridors), not a Shooting Test"
        elif w.stats_known:
            why = "the Weapons tables give its stats"
        else:
            why = "it is not a shooting Weapon"
        raise OddsmithError(f"no house stats for the {w.name}: {why}; house stats are for "
                            f"{', '.join(n for n, x in WEAPONS.items() if x.takes_house_stats)}")
    for what, v in (("short", short), ("medium", medium), ("long", long), ("jam_die", jam_die), ("shots", shots)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise OddsmithError(f"house {w.name}: {what} must be a whole number, got {v!r}")
    if not 1 <= short < medium < long <= HOUSE_WEAPON_MAX_RANGE:
        raise OddsmithError(f"house {w.name}: range bands must grow, 1 <= short < medium < long <= "
                            f"{HOUSE_WEAPON_MAX_RANGE} inches, got short {short}, medium {medium}, long {long}")
    if jam_die not in JAM_DICE:
        raise OddsmithError(f"house {w.name}: jam_die must be D6, D8 or D10, got D{jam_die}")
    if shots not in HOUSE_WEAPON_SHOTS:
        raise OddsmithError(f"house {w.name}: shots must be 1 or 2 (shots as one Action), got {shots}")
    mods: dict[str, dict[RangeBand, int]] = {}
    for what, given in (("dice", band_dice), ("save", band_save)):
        clean: dict[RangeBand, int] = {}
        for band, v in (given or {}).items():
            if isinstance(v, bool) or not isinstance(v, int) or abs(v) > HOUSE_WEAPON_MAX_MODIFIER:
                raise OddsmithError(f"house {w.name}: the {range_band(band).value} {what} modifier must be a whole "
                                    f"number from -{HOUSE_WEAPON_MAX_MODIFIER} to +{HOUSE_WEAPON_MAX_MODIFIER}, "
                                    f"got {v!r}")
            if v:
                clean[range_band(band)] = v
        mods[what] = clean
    return replace(w, short=short, medium=medium, long=long, jam_die=jam_die, shots_per_action=shots,
                   band_dice=mods["dice"], band_save=mods["save"], house_stats=True,
                   notes=f"{w.notes}. House stats from the posse file: {short}\"/{medium}\"/{long}\", Jam D{jam_die}"
                         + (f", {shots} shots as one Action" if shots > 1 else ""))


def house_fire_corridor(base: Weapon | str, *, range_: int) -> Weapon:
    """``base``, a fire-corridor Weapon the book names but gives no Range (the Sawn-Off Shotgun), with a house
    Range in inches: "a straight line extending directly forwards the full Range of the Weapon" ("Fire Corridors").
    It is kept in ``long``; the corridor rolls no Shooting Test, so it has no bands and no Jam Die."""
    w = weapon(base)
    if not w.fire_corridor:
        raise OddsmithError(f"house {w.name}: range is for a fire-corridor Weapon (the Sawn-Off Shotgun); give "
                            f"short, medium, long and jam_die instead")
    if isinstance(range_, bool) or not isinstance(range_, int) or not 1 <= range_ <= HOUSE_WEAPON_MAX_RANGE:
        raise OddsmithError(f"house {w.name}: range must be a whole number of inches from 1 to "
                            f"{HOUSE_WEAPON_MAX_RANGE}, got {range_!r}")
    return replace(w, long=range_, house_stats=True,
                   notes=f"{w.notes}. House Range from the posse file: a {range_}\" fire corridor")


def corridor_range(w: Weapon) -> int | None:
    """The Range of a fire-corridor Weapon whose Range is known (a house Range, :func:`house_fire_corridor`; a
    breath, :func:`breath_weapon`), else None."""
    return w.long if w.fire_corridor and w.long is not None else None


def breath_weapon(creature: str, inches: int) -> Weapon:
    """A creature's breath as the Weapon it fires: the Behemoth "Has a breath attack which uses a 4" Fire Corridor"
    ("Unique Summonings"). It is nobody's purchase (not in :data:`WEAPONS`)."""
    return Weapon(f"{creature}'s breath", WeaponTable.SPECIAL, None, None, None, inches, None, None,
                  f"A breath attack: a {inches}\" Fire Corridor", fire_corridor=True, in_weapons_table=False,
                  only_for=creature)


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
