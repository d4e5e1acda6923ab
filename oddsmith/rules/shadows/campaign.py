"""Campaign phases ("Injury Phase", "Advancement Phase", "Income Phase", "Encounters", "Recruitment", "Hired Guns", "Buying and Selling", "Searching for Uncommon Items", "Infamy Phase", "Underdogs").

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import lookup
from oddsmith.rules.shadows.arcane import ARCANIST_INFAMY
from oddsmith.rules.shadows.dice import DiceModifier, FightModifier, Rank, ShootModifier, rank
from oddsmith.rules.shadows.events import RollTable, _table
from oddsmith.rules.shadows.factions import Faction

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
