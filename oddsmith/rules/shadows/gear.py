"""Gear, Dynamite and fire corridors ("Horses and Gear Summary", "Supernatural Gear Summary", "Dynamite", "Fire Corridors").

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import lookup
from oddsmith.rules.shadows.dice import SUCCESS_ON, ShootModifier, TestKind
from oddsmith.rules.shadows.moving import APPALOOSA_MOVE_INCHES, MOUNTED_MOVE_INCHES
from oddsmith.rules.shadows.shooting import BOILERPLATE_CANCELS, TELESCOPIC_SIGHT_LONG_RANGE_BONUS, WeaponClass

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
    move_cost: int = 0
    passes: tuple[TestKind, ...] = ()
    income_only: bool = False
    """Used "When rolling for Income", never in a game (Marked Cards)."""


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
         "that model is caught cheating and rolls for Injury.", one_per_posse=True, rerolls="any single Income Die",
         income_only=True),
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
         "Checks included) but suffers -1 Die on all Shoot Tests.", single_use=True, shoot_dice=ShootModifier.WHISKEY.dice,
         move_cost=1, passes=(TestKind.NERVE, TestKind.BOTTLE_CHECK)),
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


SNAKE_OIL_DIE = 6
SNAKE_OIL_SUCCESS_ON = HORSES_AND_GEAR["Snake Oil"].recover_on_d6
"""Snake Oil: "Roll a D6. The model immediately removes its Shaken marker (or stands up as if it was Down) on a roll
of 4+. Regardless of Success, the item is used up and discarded" ("Horses and Gear Summary")."""
SNAKE_OIL_CHANCE = Fraction(SNAKE_OIL_DIE - SNAKE_OIL_SUCCESS_ON + 1, SNAKE_OIL_DIE)
"""Snake Oil works on a D6 roll of 4+: one time in two."""


def snake_oil_works(score: int) -> bool:
    """Does Snake Oil work on this D6 score (4+)?"""
    if not 1 <= score <= SNAKE_OIL_DIE:
        raise OddsmithError(f"Snake Oil rolls a D{SNAKE_OIL_DIE}, got {score}")
    return score >= SNAKE_OIL_SUCCESS_ON


WHISKEY_MOVE_COST_INCHES = HORSES_AND_GEAR["Whiskey"].move_cost
"""Whiskey is drunk "as part of any Move Action at the cost of 1\" of movement" ("Horses and Gear Summary")."""
WHISKEY_SHOOT_DICE = HORSES_AND_GEAR["Whiskey"].shoot_dice
"""The drinker "suffers a -1 Die Modifier on all Shoot Tests" for the rest of the Turn."""
WHISKEY_PASSES: tuple[TestKind, ...] = HORSES_AND_GEAR["Whiskey"].passes
"""The drinker "automatically passes all Nerve Tests it would have to make for the rest of this Turn (including Bottle
Checks, if applicable)"; "The effects of Whiskey end at the start of the following Game Turn"."""


def whiskey_passes(test: TestKind) -> bool:
    """Does a model that drank Whiskey this Turn pass a Test of this kind automatically (Nerve Tests, Bottle Checks)?"""
    return test in WHISKEY_PASSES

HORSE_DIES_ON_D6 = 1
"""In a Campaign, a horse that became a Casualty is dead on a D6 roll of 1 ("Horses in Combat")."""

MARKED_CARDS_CAUGHT_ON = 1
"""Marked Cards: "When rolling for Income, you may nominate a model to use the Cards and re-roll any single Die result.
If the new roll is a 1, the nominated model is caught cheating and must roll for Injury immediately"."""

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
GOOD_SHOT_DICE = -1
""""Good Shot!": "A model on Lookout may make a special Reaction (following the usual rules), and try to Shoot the
Dynamite in the thrower's hand. This is worked out as a normal Shooting Attack, with no Spotting Test required. However,
there is a -1 Die Modifier for firing at such a small object. If successful, the Dynamite explodes centred on the
thrower"."""
GOOD_SHOT_SPOTTING_TEST = False


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
