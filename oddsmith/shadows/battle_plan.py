"""The battle's options and each posse as the kernel's numbers (part of :mod:`oddsmith.shadows.battle`).

Options (:class:`BattleOptions`: ``movement`` table or none, ``terrain``, the plans), each model's plan
(:class:`ModelPlan`: its Weapons best first with their dice per range band, its style and D*, docs/shadows-battles.md
'Plans'), and :func:`prepare`, which checks both posses and fills the kernel's arrays (MODEL_COLUMNS,
WEAPON_COLUMNS, OPTION_COLUMNS of ``oddsmith._ext.shadows_battle``). Every name is importable from
:mod:`oddsmith.shadows.battle`.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import numpy as np

from oddsmith import _ext
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P

_K = _ext.load("shadows_battle")

TARGET_POLICIES = ("most-dangerous", "weakest", "boss", "closest")
ACTIVATION_POLICIES = ("auto", "dual", "solo")
LONE_GUN_POLICIES = ("at-once", "hold")
MOVEMENT_MODES = ("table", "none")
EVENT_TABLES = ("unexpected", "supernatural", "none")
"""``--events``: the Unexpected Events table, the Supernatural Events table, or no Events at all."""
EVENT_TABLE_WORDS = {"unexpected": "", "supernatural": "the Supernatural Events table", "none": "no Events"}
"""How the outputs name the Events table a battle rolls (nothing for the book's default)."""
PLANS = ("gunline", "brawl", "balanced")
TERRAINS: dict[str, float] = {"open": 0.0, "light": 0.25, "dense": 0.5}
"""Cover densities by name: the chance a Line of Fire is in Cover, drawn per shot (docs/shadows-battles.md)."""
STYLES = ("gun", "brawl")
DEFAULT_RANGE = "10"
BRAWL_FIGHT_BONUS = 2
"""Policy: under the balanced plan a model whose Fight bonus is at least 2 Dice goes in to Fight."""
GUN_PACE = True
"""Policy (docs/shadows-battles.md 'Plans', gun rule (6)): a posse's gun models advance together, at the Move of the
slowest standing one (the kernel's option ``gun_pace``; 0 only where a test measures what it brings)."""
HUMAN_RETURN = True
"""Policy (docs/shadows-battles.md section 9): a gun-style Skinwalker in its Beast Form returns to Human Form when
nothing is within its Charge and its Weapons have a Target (the kernel's option ``human_return``; 0 only where a
test measures what it brings)."""
GOOD_SHOT = True
"""Policy (docs/shadows-battles.md section 13, "Good Shot!"): a gun-style Lookout model waits to see whether a model
that may throw Dynamite throws, and then Shoots the stick (the kernel's option ``good_shot``; 0 only where a test
measures what it brings: the Lookout model then Shoots the thrower at once)."""
LASSO_PLAN = 1
"""Policy (docs/shadows-battles.md section 11c; the kernel's option ``lasso_plan``): 1, a brawl-style model with a
Lasso (a Swamp Baka's tendrils too) throws it at the closest rider within 6" on an Action another follows, before its
Charge (gun-style models shoot; a gun model throwing instead of its shot measured worse); 0, nobody throws one."""
LOOKOUT_ENEMY_MOVE = False
"""Policy (docs/shadows-battles.md section 13): gun rule (6) and brawl rule (4) reckon one Move of the closest enemy at
the book's 4" (the kernel's option ``lookout_move`` 0). At the enemy's own Move (option 1, in the Form it is in or on
horseback) Bushwhacker on the sample Regulators' Billy Crane was worth 3.5 pp less against the Twilight Order (its
Crusaders Move 3"): measured worse, not kept; a test keeps the option working."""
SPOTTING_MIN_CHANCE = 0.5
"""Policy: a model takes a Spotting Test for its preferred Target only when it passes at least half the time."""
FIXED_POINT = 1000
"""The kernel's lengths are whole thousandths of an inch."""
TERRAIN_SCALE = 1_000_000
"""The kernel's Cover density is in millionths."""

_BANDS = (R.RangeBand.SHORT, R.RangeBand.MEDIUM, R.RangeBand.LONG)


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Distance:
    """How far apart the posses stand in ``--movement none``: ``inches``, or every Weapon at one range ``band``."""

    inches: float | None = None
    band: R.RangeBand | None = None

    @staticmethod
    def parse(text: str | float | int | R.RangeBand) -> "Distance":
        if isinstance(text, R.RangeBand):
            return Distance(band=text)
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            value = float(text)
        else:
            t = str(text).strip().lower().rstrip('"').removesuffix("in").strip()
            try:
                value = float(t)
            except ValueError:
                try:
                    return Distance(band=R.range_band(str(text)))
                except OddsmithError:
                    raise OddsmithError(f"--range: give inches (e.g. 10) or a range band (short, medium, long), "
                                        f"got {text!r}") from None
        if not math.isfinite(value) or value < 0 or value > 100:
            raise OddsmithError(f"--range: inches between 0 and 100, got {text!r}")
        return Distance(inches=value)

    @property
    def label(self) -> str:
        if self.band is not None:
            return f"{self.band.label} Range for every Weapon"
        return f"{self.inches:g}\""


def parse_terrain(text: str | float | int) -> float:
    """Cover density from ``--terrain``: open, light, dense, or a number between 0 and 1."""
    if isinstance(text, bool):
        text = str(text)
    if isinstance(text, (int, float)):
        value = float(text)
    else:
        t = str(text).strip().lower()
        if t in TERRAINS:
            return TERRAINS[t]
        try:
            value = float(t)
        except ValueError:
            raise OddsmithError(f"--terrain must be one of {', '.join(TERRAINS)} or a number between 0 and 1, "
                                f"got {text!r}") from None
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise OddsmithError(f"--terrain must be one of {', '.join(TERRAINS)} or a number between 0 and 1, got {text!r}")
    return value


def terrain_label(c: float) -> str:
    """The name of a Cover density if it has one, else the number."""
    return next((k for k, v in TERRAINS.items() if v == c), f"{c:g}")


@dataclass(frozen=True)
class BattleOptions:
    distance: Distance = field(default_factory=lambda: Distance.parse(DEFAULT_RANGE))
    cover_a: bool = False
    cover_b: bool = False
    turns: int = R.GAME_TURNS
    targets: str = "most-dangerous"
    activation: str = "auto"
    lone_gun: str = "at-once"
    reading: R.RerollReading = R.DEFAULT_REROLL_READING
    events: str = "unexpected"
    """The Events table rolled when identical cards are revealed (:data:`EVENT_TABLES`): "unexpected" (the book's
    Unexpected Events), "supernatural" ("Instead of using the Unexpected Events table, you may roll on the following
    table instead": Supernatural Events) or "none"."""
    movement: str = "table"
    terrain: float = 0.0
    plan_a: str = "balanced"
    plan_b: str = "balanced"

    @property
    def table(self) -> bool:
        return self.movement == "table"

    def checked(self) -> "BattleOptions":
        if isinstance(self.events, bool):   # the older on/off switch
            return replace(self, events="unexpected" if self.events else "none").checked()
        if not 1 <= int(self.turns) <= 64:
            raise OddsmithError(f"--turns must be between 1 and 64, got {self.turns}")
        for value, allowed, what in ((self.targets, TARGET_POLICIES, "--targets"),
                                     (self.activation, ACTIVATION_POLICIES, "--activation"),
                                     (self.lone_gun, LONE_GUN_POLICIES, "lone_gun"),
                                     (self.movement, MOVEMENT_MODES, "--movement"),
                                     (self.events, EVENT_TABLES, "--events"),
                                     (self.plan_a, PLANS, "--plan"), (self.plan_b, PLANS, "--vs-plan")):
            if value not in allowed:
                raise OddsmithError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")
        if self.movement == "table" and (self.cover_a or self.cover_b):
            raise OddsmithError("--cover/--vs-cover apply to --movement none; on the table use --terrain")
        return replace(self, reading=R.reroll_reading(self.reading), terrain=parse_terrain(self.terrain))


def battle_options(range_: str | float | Distance = DEFAULT_RANGE, *, cover: bool = False, vs_cover: bool = False,
                   turns: int = R.GAME_TURNS, targets: str = "most-dangerous", activation: str = "auto",
                   lone_gun: str = "at-once", reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                   events: bool | str = True, movement: str = "table", terrain: str | float = "open",
                   plan: str = "balanced", vs_plan: str = "balanced") -> BattleOptions:
    """Options from plain values (``cover``: posse A has Cover; ``vs_cover``: posse B has; both and ``range_`` are
    for ``movement="none"``; on the table ``terrain`` decides Cover; ``plan``/``vs_plan``: A's and B's plans;
    ``events``: an Events table of :data:`EVENT_TABLES`, True for the Unexpected Events, False for none)."""
    d = range_ if isinstance(range_, Distance) else Distance.parse(range_)
    return BattleOptions(d, cover, vs_cover, turns, targets, activation, lone_gun, R.reroll_reading(reading),
                         events, movement, parse_terrain(terrain), plan, vs_plan).checked()


# ---------------------------------------------------------------------------
# A posse as the kernel's numbers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BandShot:
    """One range band of a Weapon on the table: its upper edge (inches, the Telescopic Sight included), the Shooting
    dice without and with the Target in Cover, and the Target's Save modifier (docs/shadows-battles.md 'Shooting')."""

    band: R.RangeBand
    edge_inches: float
    dice: int
    dice_cover: int
    save_mod: int


@dataclass(frozen=True)
class WeaponPlan:
    """One Weapon of a model: the kernel's numbers and why it cannot shoot, if so.

    ``band``/``inches``/``dice``/``save_mod`` are the fixed-range game's (``--movement none``); on the table they are
    the Medium band's and ``bands`` gives each band."""

    name: str
    band: R.RangeBand | None
    inches: float | None
    dice: int
    jam_die: int
    shots: int
    save_mod: int
    silver: int
    pistol: bool
    far: bool
    value: float
    why_not: str | None = None
    bands: tuple[BandShot, ...] = ()
    corridor: float = 0.0
    """A fire-corridor Weapon's Range in inches (the Sawn-Off Shotgun with a house Range; docs/shadows-battles.md
    section 4a), on the table only; 0.0 for a Weapon that rolls a Shooting Test."""
    once_corridor: float = 0.0
    """A LeMat's once-per-game Sawn-Off shot: the Sawn-Off Shotgun's house Range in inches (0.0: none given, or not
    a LeMat), on the table only."""

    @property
    def usable(self) -> bool:
        return self.why_not is None


@dataclass(frozen=True)
class ModelPlan:
    """A model as the battle plays it: Weapons best first, Dynamite, danger (the order it Activates and is shot at),
    and on the table its ``style`` (gun or brawl), ``fight_bonus`` and D* (``desired_inches``)."""

    model: P.PosseModel
    boss: bool
    weapons: tuple[WeaponPlan, ...]
    dynamite: int
    danger: float
    style: str = "gun"
    fight_bonus: int = 0
    desired_inches: float = 0.0
    revenant: bool = False
    arcane_blast: bool = False
    whiskey: int = 0
    snake_oil: int = 0
    """Bottles of Whiskey and Snake Oil the model carries (single-use each), played on the table only
    (docs/shadows-battles.md section 11); 0 with ``--movement none``."""
    casts: tuple[str, ...] = ()
    """Arcane Powers the policy may cast (a positive value, docs/shadows-battles.md section 12), best first;
    ``cast_values``: every Power it knows with its value (None: not modelled)."""
    cast_values: tuple[tuple[str, float | None], ...] = ()
    casts_over_shot: tuple[tuple[str, ...], ...] = ((), (), ())
    """For Short, Medium and Long Range: the Powers of ``casts`` whose value beats the model's best shot at that band
    (cast even when the model could shoot, the closest candidate at that band of its best Weapon)."""
    lookout: bool = False
    """Policy (docs/shadows-battles.md section 13, 'Lookout and Reactions'): a model with a Reaction Skill (Quickdraw,
    Bushwhacker), gun-style with a Weapon that shoots (it Reacts with a shot) or brawl-style (it Reacts with a Charge),
    goes on Lookout where the plan says so."""
    summon: tuple[tuple[int, tuple[bool, bool, bool]], ...] = ()
    """Summon (docs/shadows-battles.md section 12): the Difficulties the policy may choose (positive value), best
    first, each with whether its value beats the model's best shot at Short, Medium and Long Range."""
    banish: tuple[tuple[bool, bool, bool, bool], ...] = ()
    """Banish against an enemy Lesser, Minor and Major Entity: (value positive, beats the best shot at Short, Medium,
    Long Range); () if the model does not know Banish."""
    summoned: str | None = None
    """The Summoned Entity this plan plays (its name: "Lesser Entity", ..., "Seraphim"), None for a posse model."""
    beast_form: R.BeastForm | None = None
    """The Beast Form a Skinwalker's plan plays (docs/shadows-battles.md section 9), None: it stays in Human Form
    (gunline, or not a Skinwalker). In it the model plays brawl style, whatever ``style`` says of its Human Form."""
    beast_at_once: bool = False
    """Policy: it assumes its Beast Form with its first Action out of Contact (the brawl plan, or a brawl-style model
    under balanced); else (a gun-style model under balanced) only on an Action another follows, when the closest
    standing enemy is within its Beast Form's Charge reach: the change, then the Charge."""
    concentrate: tuple[frozenset[tuple[str, int]], ...] = (frozenset(), frozenset(), frozenset())
    """Concentrate (docs/shadows-battles.md section 12): for Short, Medium and Long Range, the casts for which
    Concentrating and then Casting beats Casting and then the best shot at that band: (Power, 0) for a Power of
    ``casts``, ("Summon", Difficulty), ("Banish", the enemy Entity's Difficulty)."""

    nitro: int = 0
    """1: it carries a Vial of Nitro, thrown like a stick of Dynamite and set off by its bearer's failed Save with a
    score of 1 or 2; ``blessed_water``: its flasks, thrown like Dynamite at a Supernatural Target only. Played on the
    table only (docs/shadows-battles.md section 11b); 0 with ``--movement none``."""
    blessed_water: int = 0
    lasso: tuple[int, int] = (0, 0)
    """The dice of its Lasso's Shooting Test in the open and in Cover (``R.lasso_dice``; a Swamp Baka's tendrils too),
    (0, 0): none. Played on the table only (docs/shadows-battles.md section 11c)."""

    @property
    def throws_lasso(self) -> bool:
        """It carries a Lasso and the policy has it thrown (:data:`LASSO_PLAN`: brawl-style models)."""
        return bool(LASSO_PLAN and self.lasso[0] and self.style == "brawl")

    @property
    def can_shoot(self) -> bool:
        return any(w.usable for w in self.weapons) or self.dynamite > 0 or self.nitro > 0


@dataclass(frozen=True)
class SidePlan:
    posse: P.Posse
    models: tuple[ModelPlan, ...]
    cover: bool
    plan: str = "balanced"
    revenant: ModelPlan | None = None
    """The Revenant template of a Dark Confederacy posse: the kernel rolls D3+1 of them per game."""
    entities: tuple[ModelPlan, ...] = ()
    """The Lesser, Minor and Major Entity a Summoner of this side may bring onto the table (empty: no Summoner)."""

    @property
    def can_shoot(self) -> bool:
        return any(m.can_shoot or m.arcane_blast for m in self.models)


def _telescopic(model: P.PosseModel, weapons: tuple[R.Weapon, ...]) -> R.Weapon | None:
    """The Rifle-Class Weapon a Telescopic Sight is fitted to: the model's first one."""
    if not any(g.long_range_bonus for g in model.battle_gear()):
        return None
    return next((w for w in weapons if w.weapon_class is R.WeaponClass.RIFLE and w.stats_known), None)


def _band(w: R.Weapon, distance: Distance, scope: bool) -> tuple[R.RangeBand | None, float | None]:
    if distance.band is not None:
        rng = w.range_of(distance.band, scope)
        return distance.band, (float(rng[1]) if rng else None)
    return w.band_at(distance.inches, scope), distance.inches


@functools.lru_cache(maxsize=4096)
def _shot_value(shooter: E.Shooter, weapon: R.Weapon, band: R.RangeBand, enemy_cover: bool) -> float:
    """Policy score of one shot: expected Damage steps (Shaken 1, Downed 2, Casualty 3) against a plain Veteran,
    exact from the dice engine; the kernel fires the highest-scoring ready Weapon."""
    odds = E.shoot(shooter, "Veteran", weapon, range_band=band, cover=enemy_cover, fractions=False)
    return odds["shaken"] + 2 * odds["downed"] + 3 * odds["casualty"]


def _corridor_value() -> float:
    """Policy score of a fire corridor (as :func:`_shot_value`'s): its Target "lies under the line" and is Hit
    automatically, then makes the 5+ Save; expected Damage steps against a plain Veteran (D8). Victims beside the
    line are a bonus the score leaves out."""
    steps = {R.Damage.SHAKEN: 1, R.Damage.DOWNED: 2, R.Damage.CASUALTY: 3}
    die = R.Rank.VETERAN.die
    return sum(steps[R.damage_for(R.FIRE_CORRIDOR_SAVE - score)] for score in range(1, R.FIRE_CORRIDOR_SAVE)) / die


def _carried(model: P.PosseModel) -> list[tuple[R.Weapon, str | None]]:
    """Every Weapon the model carries, as used in a game (house stats applied), each copy (two Pistols are two),
    with why it does not shoot (None: it shoots; a fire corridor with a house Range fires on the table)."""
    used = {w.name: w for w in model.battle_weapons()}
    unused = {w.name: why for w, why in model.unused_weapons()}
    out = []
    for w in model.weapons:
        if w.name in used:
            u = used[w.name]
            out.append((u, None if R.corridor_range(u) else P.shootable(u)))
        else:
            out.append((w, unused.get(w.name, P.shootable(w))))
    return out


def fight_bonus(model: P.PosseModel) -> int:
    """Dice a model's Fighting Skills and Pistols add to its Fights (the balanced plan's measure, 'Plans'): Mean +1,
    Close Work +1 per Pistol-Class Weapon up to 2, Bull-Rush +1, 'Ornery +1, Fearsome +1."""
    skills = model.all_skills
    bonus = sum(max(s.fight_dice, 0) for s in skills)
    if any(s.close_work for s in skills):
        bonus += min(R.CLOSE_WORK_MAX_PISTOLS,
                     sum(1 for w in model.battle_weapons() if w.weapon_class is R.WeaponClass.PISTOL))
    bonus += sum(1 for s in skills if s.charge_win_save_modifier or s.ignores_outnumbered or s.fearsome)
    return bonus


def beast_fight_bonus(model: P.PosseModel, form: R.BeastForm) -> int:
    """:func:`fight_bonus` in a Beast Form: its Skills (Mean, Bull-Rush, 'Ornery), Fearsome +1 (gained), the Form's
    attack Dice (Wolf +2) and +1 for its winning Save Modifier (Bear, as Bull-Rush counts); no Weapon, so no Close
    Work. Wolf Form comes to at least 3, Bear Form to at least 2."""
    skills = model.all_skills
    bonus = sum(max(s.fight_dice, 0) for s in skills)
    bonus += sum(1 for s in skills if s.charge_win_save_modifier or s.ignores_outnumbered)
    return bonus + int(form.fearsome) + max(form.attack_dice, 0) + int(form.win_save_modifier < 0)


def plays_beast_form(model: P.PosseModel, plan: str) -> R.BeastForm | None:
    """Policy (docs/shadows-battles.md section 9): the Beast Form a Skinwalker plays on the table: under brawl (at
    once), and under balanced when its Beast Form's Fight bonus is at least BRAWL_FIGHT_BONUS (always: Wolf 3+,
    Bear 2+; when it changes: ModelPlan.beast_at_once); never under gunline (it keeps its guns)."""
    form = R.beast_form_of(model.role)
    if form is None or plan == "gunline":
        return None
    if plan == "balanced" and beast_fight_bonus(model, form) < BRAWL_FIGHT_BONUS:
        return None
    return form


def plan_model(model: P.PosseModel, boss: bool, distance: Distance, enemy_cover: bool, *, table: bool = False,
               plan: str = "balanced") -> ModelPlan:
    """One model's plan: its Weapons' shots, Fight dice and what it does on the table (sections 3-6)."""
    return _plan_model(model, boss, distance, enemy_cover, table, plan)


@functools.lru_cache(maxsize=1024)
def _plan_model(model: P.PosseModel, boss: bool, distance: Distance, enemy_cover: bool, table: bool,
                plan: str) -> ModelPlan:
    # Cached: `shadows value` and the report prepare one battle per purchase, and every purchase changes one
    # model of the 6-16 planned (docs/speed.md, 'Reports'); the inputs are frozen, the plan a pure function.
    carried = _carried(model)
    scope_on = _telescopic(model, tuple(w for w, _ in carried))
    silver = R.gear("Silver Bullets").save_modifier_vs_supernatural if model.silver_bullets else 0
    # a Crusader's Silver Bullets load every Weapon, and so do a Seraphim's "Blessed Pistols"
    blessed = isinstance(model, SummonedEntity) and model.profile is not None and model.profile.never_jams
    silver_all = bool(model.role and model.role.silver_bullets) or blessed
    shooter = P.shooter_of(model)
    plans: list[WeaponPlan] = []
    for w, why in carried:
        band = inches = None
        bands: tuple[BandShot, ...] = ()
        reach = R.corridor_range(w)
        if reach and why is None:
            if not table:
                plans.append(WeaponPlan(w.name, None, None, 0, 2, 0, 0, 0, False, False, 0.0,
                                        "a fire corridor: played on the table only (the fixed range places nobody)"))
                continue
            # one band as far as its Range: a Target "using the normal rules" within it; no Shooting Test, no Jam
            bands = tuple(BandShot(b, float(reach), 1, 1, 0) for b in _BANDS)
            plans.append(WeaponPlan(w.name, None, None, 1, 0, 1, 0, 0, False, False, _corridor_value(), None, bands,
                                    corridor=float(reach)))
            continue
        if why is None and not table:
            band, inches = _band(w, distance, w is scope_on)
            if band is None:
                why = f"out of range at {distance.label} (Long Range ends at {w.long}\")"
        if why is not None:
            plans.append(WeaponPlan(w.name, None, None, 0, 2, 0, 0, 0, False, False, 0.0, why))
            continue
        shots = w.shots_per_action
        scoped = w is scope_on
        bands = tuple(BandShot(b, float(w.range_of(b, scoped)[1]),
                               R.shooting_dice(w, b, cover=False, skills=model.all_skills, injuries=model.injuries),
                               R.shooting_dice(w, b, cover=True, skills=model.all_skills, injuries=model.injuries),
                               w.save_modifier(b)) for b in _BANDS)
        if table:
            band = R.RangeBand.MEDIUM  # the value and the fixed fields at Medium Range, the Target in the open
            dice, save = bands[1].dice, bands[1].save_mod
            far = False
            value = _shot_value(shooter, w, band, False) * shots
            band, inches = None, None
        else:
            dice = R.shooting_dice(w, band, cover=enemy_cover, skills=model.all_skills, injuries=model.injuries)
            save = w.save_modifier(band)
            far = inches is not None and inches > R.DUST_STORM_VISIBILITY
            value = _shot_value(shooter, w, band, enemy_cover) * shots
        # a LeMat "may Shoot as a Sawn-Off Shotgun" once per game: as far as the posse file's house Range for it
        once = next((float(R.corridor_range(h)) for h in model.house_weapons if R.corridor_range(h)), 0.0) \
            if table and w.once_per_game_sawn_off else 0.0
        # jam die 0: the Weapon never Jams (a Seraphim's Blessed Pistols)
        plans.append(WeaponPlan(w.name, band, inches, dice, 0 if blessed else int(w.jam_die), shots, save, 0,
                                w.weapon_class is R.WeaponClass.PISTOL, far, value, None, bands, once_corridor=once))
    # best first; Silver Bullets bought as Gear load the best Weapon, a Crusader's load them all
    order = sorted(range(len(plans)), key=lambda i: (not plans[i].usable, -plans[i].value, i))
    plans = [plans[i] for i in order]
    if silver:
        plans = [replace(p, silver=silver) if p.usable and (silver_all or k == 0) else p for k, p in enumerate(plans)]
    dynamite = sum(1 for g in model.battle_gear() if g.name == "Dynamite")
    if model.hired_gun is not None and model.hired_gun.name == "Moonshiner":
        dynamite += 1  # a burning bottle of 'shine, once per game, "following the rules for a stick of Dynamite"
    gear = [g.name for g in model.battle_gear()] if table else []
    nitro = int("Vial of Nitro" in gear)
    water = gear.count("Blessed Water")
    tendrils = isinstance(model, SummonedEntity) and model.profile is not None and model.profile.lasso
    lasso = tuple(R.lasso_dice(cover=c, skills=model.all_skills, injuries=model.injuries) for c in (False, True)) \
        if table and ("Lasso" in gear or tendrils) else (0, 0)
    throws = dynamite + nitro   # what a model without a Weapon that shoots may throw at anyone (not the Water)
    danger = max((p.value for p in plans if p.usable), default=0.0)
    blast = model.is_vessel and "Arcane Blast" in (model.role.powers if model.role else ())
    bonus = fight_bonus(model)
    usable = [p for p in plans if p.usable]
    beast = plays_beast_form(model, plan) if table else None
    if blast or plan == "brawl":
        style = "brawl"
    elif plan == "gunline":
        style = "gun"
    else:
        style = "brawl" if (not usable and not throws) or bonus >= BRAWL_FIGHT_BONUS else "gun"
    if usable:
        desired = usable[0].bands[1].edge_inches if usable[0].bands else 0.0
    else:
        desired = float(R.DYNAMITE_THROW_INCHES) if throws else 0.0
    values = () if not table or model.is_vessel else power_values(model)
    ranked = sorted((nv for nv in values if nv[0] in CAST_POWERS and nv[1] is not None and nv[1] > 0),
                    key=lambda nv: (-nv[1], CAST_POWERS.index(nv[0])))
    casts = tuple(n for n, _ in ranked)[:CAST_SLOTS]
    known = known_powers(model) if table and not model.is_vessel else ()
    summons = summon_values(model) if "Summon" in known else ()
    # a Summon only a Concentrate makes possible (a unique Major Entity) is valued, and always made, after one
    needs = {d for d, _ in summons if needs_concentrate(model, d)}
    if needs:
        focused = dict(summon_values(model, concentrate=True))
        summons = tuple((d, focused[d] if d in needs else v) for d, v in summons)
    banishes = banish_values(model) if "Banish" in known else ()
    # the best shot: of its best Weapon at each band for a gun model; 0 for a brawl model (it Charges, not shoots)
    best = [max((_shot_value(shooter, w, b, False) * w.shots_per_action for w, why in carried if why is None),
                default=0.0) for b in _BANDS] if (casts or summons or banishes) and style == "gun" else [0.0] * 3
    over = tuple(tuple(n for n, v in ranked if v > best[i]) for i in range(3))
    # best first; a unique Summoning the posse file names comes first (the player's choice: the yardstick alone ranks
    # a Veteran's Minor Entity, 3.21, above its Seraphim, 1.84 after a Concentrate)
    named = {e.difficulty for e in model.unique_summonings}
    summon = tuple((d, tuple(v > best[i] for i in range(3)))
                   for d, v in sorted(((d, v) for d, v in summons if v > 0),
                                      key=lambda dv: (dv[0] not in named, -dv[1], dv[0])))
    banish = tuple((v > 0, *(v > best[i] for i in range(3))) for v in banishes)
    # a gun model Reacts with a shot, a brawl model with a Charge (a Move Reaction into Contact)
    lookout = (style == "brawl" or bool(usable)) and any(reaction_skill(s_) for s_ in model.all_skills)
    gains = concentrate_gains(model, casts, summon, bool(banishes)) if style == "gun" else {}
    forced = frozenset(("Summon", d) for d, _ in summon if d in needs)
    concentrate = tuple(frozenset(key for key, gain in gains.items() if gain > best[i] > 0) | forced for i in range(3))
    return ModelPlan(model, boss, tuple(plans), dynamite, danger, style, bonus, desired, False, blast,
                     gear.count("Whiskey"), gear.count("Snake Oil"), casts, values, over, lookout, summon, banish,
                     beast_form=beast, beast_at_once=beast is not None and style == "brawl", concentrate=concentrate,
                     nitro=nitro, blessed_water=water, lasso=lasso)


def _concentrate_label(key: tuple[str, int]) -> str:
    name, d = key
    return name if name not in ("Summon", "Banish") else (
        f"Summon at Difficulty {d}" if name == "Summon" else f"Banish of a {R.SUMMON_DIFFICULTY[d]}")


def concentrate_gains(model: P.PosseModel, casts: tuple[str, ...], summon: tuple, banish: bool) -> dict:
    """Policy ("Concentrate"): what a Concentrate Action adds to each cast the model may make, in Damage steps: the
    cast's value with the +1 Die less its value without (the Miscast's change included). Keys as
    :attr:`ModelPlan.concentrate`. A gun-style caster Concentrates where this beats the shot its other Action would
    make (with no shot now, a Move toward one, taken to be worth a shot at Long Range); a brawl-style one does not
    (its other Action closes and Charges, which the shot yardstick counts 0). A Summon only a Concentrate makes
    possible is always Concentrated for (:func:`needs_concentrate`)."""
    gains = {}
    plain = dict(power_values(model))
    focused = dict(power_values(model, concentrate=True))
    for name in casts:
        gains[(name, 0)] = focused[name] - plain[name]
    plain_s, focused_s = dict(summon_values(model)), dict(summon_values(model, concentrate=True))
    for d, _over in summon:
        gains[("Summon", d)] = focused_s[d] - plain_s[d]
    if banish:
        for k, (v, vc) in enumerate(zip(banish_values(model), banish_values(model, concentrate=True))):
            gains[("Banish", k + 1)] = vc - v
    return gains


def reaction_skill(skill: R.Skill) -> bool:
    """A Skill that only acts on Lookout or in a Reaction: Bushwhacker (a Grit Die to keep Lookout), Quickdraw
    (re-rolls a Reaction Test)."""
    return skill.grit_die_to_keep_lookout or skill.name == R.REACTION_REROLL_SKILL


# ---------------------------------------------------------------------------
# Arcane Powers of casting models (docs/shadows-battles.md section 12)
# ---------------------------------------------------------------------------

CAST_POWERS = ("Arcane Blast", "Transfix", "Immolate", "Faith Healing", "Bless", "Curse", "Dispel")
"""The Arcane Powers a casting model may cast on the table (kernel codes 1 to 7 in this order)."""
CAST_SLOTS = 4
"""The kernel's ``casts`` column holds a model's four best Powers (7 bits each)."""
NOT_CAST: dict[str, str] = {
    "Scry": "not modelled: it looks at a Hand, and the battle's card play is not a choice, so it changes nothing",
    "Warding Circle": "not cast: every policy tried for it (cast when a Supernatural brawler could Charge, then stand in "
                      "it) lost battles (docs/shadows-battles.md section 12)",
}
"""Why a Power a model knows is never cast on the table."""
VALUE_TARGET = R.Rank.VETERAN
"""Policy: Power values, like shot values, are reckoned against a plain Veteran (D8, no Save modifier)."""


@functools.lru_cache(maxsize=64)
def cast_chance(rank: R.Rank, power: str, concentrate: bool = False, grimoire: bool = False) -> tuple[float, float]:
    """(P(Cast), P(Miscast)) of the Power's 3 Dice Casting Test by a model of ``rank`` (after a Concentrate, and
    with a Grimoire given to an Arcanist: +1 Die each), exact (engine.cast). Policy: the Harbinger's +1 Die, which
    depends on where it stands, is not counted in the values."""
    odds = E.cast(rank, power, concentrate=concentrate, grimoire=grimoire, fractions=False)
    return odds["cast"], odds["miscast"]


@functools.lru_cache(maxsize=64)
def _save_steps(needed: int, die: int = VALUE_TARGET.die, modifier: int = 0) -> float:
    """Expected Damage steps (Shaken 1, Downed 2, Casualty 3) of one Save needing ``needed``+ on a D``die``."""
    odds = E.save_odds(die, needed, modifier)
    return float(odds["shaken"] + 2 * odds["downed"] + 3 * odds["casualty"])


@functools.lru_cache(maxsize=64)
def blast_steps(die: int) -> float:
    """Expected Damage steps of Arcane Blast's unmodified 3 Dice Shooting Test (Save modifier 0) at a Veteran."""
    dist = E.test_distribution(f"D{die}", R.arcane_power("Arcane Blast").dice, fractions=False)
    return sum(p * _save_steps(R.save_target(int(k))) for k, p in dist.outcomes.items() if int(k) > 0)


@functools.lru_cache(maxsize=1)
def token_effects() -> tuple[float, float]:
    """Policy: the effect in Damage steps of a Bless and of a Curse token: the gain (Bless) and the loss (Curse) of
    one shot of a Veteran's Pistol at Medium Range at a Veteran when the shooter carries the token (its very next
    Test is taken to be that shot)."""
    pistol, band = R.weapon("Pistol"), R.RangeBand.MEDIUM
    plain = _shot_value(E.Shooter.of("Veteran"), pistol, band, False)
    bless = _shot_value(E.Shooter.of("Veteran", blessing=R.Blessing.BLESS), pistol, band, False)
    curse = _shot_value(E.Shooter.of("Veteran", blessing=R.Blessing.CURSE), pistol, band, False)
    return bless - plain, plain - curse


@functools.lru_cache(maxsize=1)
def activation_value() -> float:
    """Policy: an enemy Activation is worth two shots of a Veteran's Pistol at Medium Range at a Veteran."""
    return 2 * _shot_value(E.Shooter.of("Veteran"), R.weapon("Pistol"), R.RangeBand.MEDIUM, False)


def known_powers(model: P.PosseModel) -> tuple[str, ...]:
    """The Powers a model may cast: an Arcanist's, and those its Faction role gives (Broodkin: Transfix); the Vessel's
    Arcane Blast is played as section 9 says, not here."""
    if model.is_vessel:
        return ()
    names = [p.name for p in model.powers] if model.is_arcanist else []
    names += list(model.role.powers if model.role else ())
    return tuple(dict.fromkeys(names))


def power_values(model: P.PosseModel, concentrate: bool = False) -> tuple[tuple[str, float | None], ...]:
    """Each known Power's expected effect in Damage steps, the unit of a shot's value (None: not modelled). Policy:
    P(Cast) x the effect - P(Miscast) x 1 (the Caster Shaken); the effect of Arcane Blast is its 3 Dice shot's steps
    at a Veteran, of Transfix P(a Veteran fails a 1 Die Nerve Test) x an Activation (:func:`activation_value`), of
    Immolate one Veteran's 5+ Save, of Faith Healing 2 (a Downed friend stands), of Bless and Curse their token's
    change of one shot (:func:`token_effects`), of Dispel the smaller of the two (it removes either token); Summon
    at its best Difficulty (:func:`summon_values`), Banish at its best Entity type (:func:`banish_values`).
    ``concentrate``: Cast after a Concentrate (+1 Die)."""
    out = []
    for name in known_powers(model):
        if name == "Summon":
            out.append((name, max(v for _d, v in summon_values(model, concentrate))))
            continue
        if name == "Banish":
            out.append((name, max(banish_values(model, concentrate))))
            continue
        if name not in CAST_POWERS:
            out.append((name, None))
            continue
        pc, pm = cast_chance(model.rank, name, concentrate, model.grimoire_dice > 0)
        if name == "Arcane Blast":
            effect = blast_steps(model.rank.die)
        elif name == "Transfix":
            effect = E.test_distribution(VALUE_TARGET, R.TRANSFIX_NERVE_DICE, fractions=False).outcomes["0"] \
                * activation_value()
        elif name == "Immolate":
            effect = _save_steps(R.IMMOLATE_SAVE)
        elif name == "Faith Healing":
            effect = 2.0
        elif name == "Bless":
            effect = token_effects()[0]
        elif name == "Curse":
            effect = token_effects()[1]
        else:
            effect = min(token_effects())
        out.append((name, pc * effect - pm))
    return tuple(out)


CASUALTY_STEPS = 3.0
"""Damage steps of a Casualty (Shaken 1, Downed 2, Casualty 3), the unit of the Powers' values."""


@dataclass(frozen=True)
class SummonedEntity(P.PosseModel):
    """A Summoned Entity as a posse model ("Common Summoned Models Table", "Unique Summonings"): a Supernatural
    Creature ("Where an effect pertains to a Supernatural model, it also applies to an Entity": Silver Bullets), its
    profile's Move, Skills and Weapons (the common Entities have none: they Fight)."""

    profile: R.Entity | None = None

    @property
    def supernatural(self) -> bool:
        return True

    @property
    def move_inches(self) -> float:
        return float(self.profile.move) if self.profile is not None else float(R.MOVE_INCHES)

    @property
    def silver_bullets(self) -> bool:
        return self.profile is not None and self.profile.silver_bullets

    @property
    def flying(self) -> bool:
        return self.profile is not None and self.profile.flying


def entity_profile(difficulty: int, unique: R.Entity | None = None) -> R.Entity:
    """The Entity a Summon at ``difficulty`` brings (1 Lesser, 2 Minor, 3 Major), or the unique Summoning of that
    type named instead."""
    if unique is not None:
        assert unique.difficulty == difficulty
        return unique
    return R.SUMMONED_ENTITIES[R.SUMMON_DIFFICULTY[difficulty]]


@functools.lru_cache(maxsize=64)
def entity_model(difficulty: int, unique: R.Entity | None = None) -> SummonedEntity:
    """The Entity a Summon at ``difficulty`` brings as a model: its Grit Die's Rank, Move, Skills (Fearsome...) and
    Weapons (a Seraphim's two Pistols). Made once (a frozen model): every Summoner's plan values each Entity."""
    e = entity_profile(difficulty, unique)
    breath = (R.breath_weapon(e.name, e.breath_inches),) if e.breath_inches else ()   # the Behemoth's 4" corridor
    return SummonedEntity(e.name, e.rank, weapons=tuple(R.weapon(w) for w in e.weapons) + breath,
                          skills=tuple(R.skill(s_) for s_ in e.skills), profile=e)


def entity_worth(difficulty: int, unique: R.Entity | None = None) -> float:
    """Policy: an Entity on the table is worth its Victory Points in Casualties (3 Damage steps each: Lesser 3, Minor 6,
    Major 9; a Swamp Baka, D8, 6), what the enemy would have to take from the table to be rid of it."""
    return CASUALTY_STEPS * entity_model(difficulty, unique).rank.victory_points


def needs_concentrate(model: P.PosseModel, difficulty: int) -> bool:
    """Summon at ``difficulty`` cannot succeed on the model's Casting Dice without a Concentrate (rules ``can_cast``):
    a unique Summoning's -1 Die at Difficulty 3."""
    dice = R.CASTING_DICE + model.grimoire_dice + (R.UNIQUE_SUMMONING_DICE if unique_of(model, difficulty) else 0)
    return not R.can_cast(dice, difficulty) and R.can_cast(dice + R.CONCENTRATE_DICE, difficulty)


def unique_of(model: P.PosseModel, difficulty: int) -> R.Entity | None:
    """The unique Summoning ``model`` Summons in place of the common Entity of ``difficulty``'s type, if any."""
    return next((e for e in model.unique_summonings if e.difficulty == difficulty), None)


@functools.lru_cache(maxsize=64)
def cast_chance_at(rank: R.Rank, power: str, difficulty: int, concentrate: bool = False,
                   unique: bool = False, grimoire: bool = False) -> tuple[float, float]:
    """(P(Cast), P(Miscast)) of the Power's 3 Dice Casting Test at ``difficulty`` (Summon: 1-3; after a Concentrate
    +1 Die; a unique Summoning -1 Die; a Grimoire given to an Arcanist +1 Die), exact."""
    odds = E.cast(rank, power, difficulty=difficulty, concentrate=concentrate, unique_summoning=unique,
                  grimoire=grimoire, fractions=False)
    return odds["cast"], odds["miscast"]


def summon_values(model: P.PosseModel, concentrate: bool = False) -> tuple[tuple[int, float], ...]:
    """(Difficulty, value) of Summon at each Difficulty: P(Cast) x :func:`entity_worth` - P(Miscast) x 1
    (``concentrate``: after a Concentrate; the model's unique Summoning of a type at -1 Die)."""
    out = []
    for d in R.arcane_power("Summon").difficulties:
        unique = unique_of(model, d)
        pc, pm = cast_chance_at(model.rank, "Summon", d, concentrate, unique is not None, model.grimoire_dice > 0)
        out.append((d, pc * entity_worth(d, unique) - pm))
    return tuple(out)


def p_higher(die: int, other: int) -> float:
    """P(Banish's roll-off removes the Target: the Caster's D``die`` against the Entity's D``other``,
    rules ``banish_removes``), exact."""
    return sum(1 for a in range(1, die + 1) for b in range(1, other + 1) if R.banish_removes(a, b)) / (die * other)


def banish_values(model: P.PosseModel, concentrate: bool = False) -> tuple[float, ...]:
    """Banish's value against an enemy Lesser, Minor and Major Entity: P(Cast) x P(the Caster's Grit Die rolls higher
    than the Entity's) x :func:`entity_worth` - P(Miscast) x 1 (``concentrate``: after a Concentrate)."""
    pc, pm = cast_chance_at(model.rank, "Banish", R.arcane_power("Banish").difficulty, concentrate, False,
                            model.grimoire_dice > 0)
    return tuple(pc * p_higher(model.rank.die, entity_model(d).rank.die) * entity_worth(d) - pm
                 for d in R.arcane_power("Summon").difficulties)


def entity_plans(distance: Distance, enemy_cover: bool, table: bool, uniques: dict[int, R.Entity] | None = None,
                 plan: str = "brawl") -> tuple[ModelPlan, ...]:
    """The side's Lesser, Minor and Major Entity (``uniques``: a unique Summoning in place of a type) as the battle
    plays them: an unarmed one the brawl plan (close and Charge; the Behemoth breathes where brawl rule (3) shoots),
    an armed one (a Seraphim) its side's ``plan``."""
    out = []
    for d in R.arcane_power("Summon").difficulties:
        e = entity_model(d, (uniques or {}).get(d))
        armed = any(not w.fire_corridor for w in e.weapons)
        mp = plan_model(e, False, distance, enemy_cover, table=table, plan=plan if armed else "brawl")
        out.append(replace(mp, summoned=e.name, lookout=False))
    return tuple(out)


def _without_types(mp: ModelPlan, types: set[int]) -> ModelPlan:
    """A Summoner's plan without the Entity types its side plays as another Summoner's unique Summonings ("Can be
    Summoned by ... Arcanists only")."""
    if not types or not mp.summon:
        return mp
    keep = tuple((d, over) for d, over in mp.summon if d not in types)
    conc = tuple(frozenset(k for k in keys if not (k[0] == "Summon" and k[1] in types)) for keys in mp.concentrate)
    return replace(mp, summon=keep, concentrate=conc)


def revenant_model() -> P.PosseModel:
    """A Dark Confederacy Revenant as a posse model: Novice (D6), a Pistol, Fearsome, Hard to Kill (Revenants)."""
    assert R.REVENANT.grit == R.Rank.NOVICE.die
    return P.PosseModel("Revenant", R.Rank.NOVICE, weapons=(R.weapon("Pistol"),),
                        skills=tuple(R.skill(s) for s in R.REVENANT.skills))


def has_revenants(posse: P.Posse) -> bool:
    """Revenants join a Dark Confederacy posse with a Boss to follow (Faction Benefit: Revenants)."""
    return posse.faction is R.Faction.DARK_CONFEDERACY and posse.boss is not None


REVENANT_SLOTS = 4
"""At most D3+1 = 4 Revenants join."""


def plan_side(posse: P.Posse, distance: Distance, cover: bool, enemy_cover: bool, *, table: bool = False,
              plan: str = "balanced") -> SidePlan:
    if len(posse.models) > R.MAX_POSSE_MODELS:
        raise OddsmithError(f"{posse.source}: a posse has at most {R.MAX_POSSE_MODELS} models, got {len(posse.models)}")
    boss = posse.boss
    rev = None
    if has_revenants(posse):
        # Revenants "can never go on Lookout" ("The Dark Confederacy")
        rev = replace(plan_model(revenant_model(), False, distance, enemy_cover, table=table, plan=plan),
                      revenant=True, lookout=False)
    models = tuple(plan_model(m, m is boss, distance, enemy_cover, table=table, plan=plan) for m in posse.models)
    # a type played as a unique Summoning is Summoned by its Arcanist alone ("Unique Summonings")
    uniques = {e.difficulty: e for m in posse.models for e in m.unique_summonings}
    models = tuple(_without_types(mp, set(uniques) - {e.difficulty for e in mp.model.unique_summonings})
                   for mp in models)
    ents = entity_plans(distance, enemy_cover, table, uniques, plan) if any(mp.summon for mp in models) else ()
    return SidePlan(posse, models, cover, plan, rev, ents)


@dataclass(frozen=True)
class BattleSetup:
    """Both sides as the kernel's arrays, with the options and the notes for the reader."""

    a: SidePlan
    b: SidePlan
    options: BattleOptions
    models: np.ndarray
    weapons: np.ndarray
    n_models: np.ndarray
    order: np.ndarray
    opts: np.ndarray
    notes: tuple[str, ...]


def _inches(x: float) -> int:
    return int(round(x * FIXED_POINT))


def _model_row(mp: ModelPlan, row: np.ndarray, w_rows: np.ndarray) -> None:
    col = {c: i for i, c in enumerate(_K.MODEL_COLUMNS)}
    wcol = {c: i for i, c in enumerate(_K.WEAPON_COLUMNS)}
    m = mp.model
    skills = m.all_skills
    row[col["present"]] = 1
    row[col["die"]] = m.rank.die
    row[col["die_shaken"]] = R.grit_die(m.rank, True, m.lead_belly)
    row[col["rank"]] = (R.Rank.NOVICE, R.Rank.VETERAN, R.Rank.HERO).index(m.rank)
    row[col["boss"]] = int(mp.boss)
    row[col["save_mod"]] = m.save_modifier
    row[col["cancel"]] = R.BOILERPLATE_CANCELS if m.boilerplate else 0
    row[col["supernatural"]] = int(m.supernatural)
    row[col["hard_to_kill"]] = int(any(s_.auto_recovers for s_ in skills))
    row[col["nerve_rerolls"]] = int(any(s_.name == R.NERVE_REROLL_SKILL for s_ in skills))
    row[col["preacher"]] = int(m.hired_gun is not None and m.hired_gun.name == "Preacher")
    gunslinger = any(s_.fires_two_pistols for s_ in skills)
    row[col["trigger_happy"]] = int(any(s_.extra_shot_same_weapon for s_ in skills) and not gunslinger)
    row[col["gunslinger"]] = int(gunslinger)
    row[col["danger"]] = int(round(mp.danger * 1e6))
    row[col["vp"]] = 0 if mp.revenant else m.rank.victory_points   # an Entity's: its Rank's (rules Entity.rank)
    row[col["dynamite"]] = mp.dynamite
    row[col["jam_rerolls"]] = int(any(s_.rerolls and "Jamming" in s_.rerolls for s_ in skills))
    row[col["style"]] = STYLES.index(mp.style)
    row[col["desired"]] = _inches(mp.desired_inches)
    row[col["fight_dice"]] = m.fight_dice
    row[col["close_work"]] = int(any(s_.close_work for s_ in skills))
    row[col["derringer"]] = int(any(g.name == "Derringer" for g in m.battle_gear()))
    row[col["bull_rush"]] = int(any(s_.charge_win_save_modifier for s_ in skills))
    row[col["ornery"]] = int(any(s_.ignores_outnumbered for s_ in skills))
    row[col["fearsome"]] = int(any(s_.fearsome for s_ in skills))
    row[col["fight_save"]] = min((w.fight_save for w in m.battle_weapons()), default=0)
    row[col["hawkeye"]] = int(any(s_.name == R.SPOTTING_REROLL_SKILL for s_ in skills))
    row[col["revenant"]] = int(mp.revenant)
    row[col["arcane_blast"]] = int(mp.arcane_blast)
    row[col["slick"]] = int(any(s_.grit_die_for_extra_action for s_ in skills))
    row[col["whiskey"]] = mp.whiskey
    row[col["snake_oil"]] = mp.snake_oil
    row[col["casts"]] = sum((CAST_POWERS.index(n) + 1 + sum(16 << b for b in range(3) if n in mp.casts_over_shot[b]))
                            << (7 * k) for k, n in enumerate(mp.casts))
    row[col["quickdraw"]] = int(any(s_.name == R.REACTION_REROLL_SKILL for s_ in skills))
    row[col["bushwhacker"]] = int(any(s_.grit_die_to_keep_lookout for s_ in skills))
    row[col["lookout"]] = int(mp.lookout)
    row[col["move"]] = _inches(m.move_inches)
    row[col["limp"]] = int(R.Injury.LIMP in m.injuries)   # "If on foot": the kernel asks whether it rides
    row[col["old_wound"]] = int(R.Injury.OLD_WOUND in m.injuries)
    row[col["summon"]] = sum((d + sum(4 << b for b in range(3) if over[b])) << (5 * k)
                             for k, (d, over) in enumerate(mp.summon))
    row[col["banish"]] = sum(sum(1 << j for j in range(4) if bits[j]) << (4 * k) for k, bits in enumerate(mp.banish))
    row[col["concentrate"]] = concentrate_column(mp)
    row[col["unique_summoning"]] = int(isinstance(m, SummonedEntity) and m.profile is not None
                                       and m.profile.summoned_by is not None)
    row[col["grimoire_dice"]] = m.grimoire_dice
    row[col["magister"]] = int(m.role is not None and m.role.name == R.MAGISTER)
    row[col["harbinger"]] = int(m.role is not None and m.role.name == R.HARBINGER)
    profile = m.profile if isinstance(m, SummonedEntity) else None
    row[col["base_mm"]] = profile.base_mm if profile is not None and profile.base_mm else R.BASE_MM
    form = mp.beast_form
    if form is not None:
        row[col["beast_form"]] = 1 if mp.beast_at_once else 2   # battle_table.table_action: when it changes
        row[col["beast_move"]] = _inches(form.move_inches)
        row[col["beast_attack_dice"]] = form.attack_dice
        row[col["beast_win_save"]] = form.win_save_modifier
        row[col["beast_hug_margin"]] = form.bear_hug_margin or 0
        row[col["beast_base_mm"]] = form.base_mm
    row[col["feeds"]] = int(m.role is not None and m.role.feeds)
    row[col["flying"]] = int(m.flying)
    mounted = None if mp.revenant else m.mounted_move_inches
    row[col["mount_move"]] = _inches(mounted) if mounted else 0   # section 11: Horses
    row[col["nitro"]] = mp.nitro   # section 11b
    row[col["blessed_water"]] = mp.blessed_water
    row[col["lasso"]], row[col["lasso_cover"]] = mp.lasso   # section 11c
    for j, wp in enumerate(mp.weapons[: _K.MAX_WEAPONS]):
        w = w_rows[j]
        w[wcol["usable"]] = int(wp.usable)
        w[wcol["dice"]] = wp.dice
        w[wcol["jam_die"]] = wp.jam_die
        w[wcol["shots"]] = wp.shots
        w[wcol["save_mod"]] = wp.save_mod
        w[wcol["silver"]] = wp.silver
        w[wcol["pistol"]] = int(wp.pistol)
        w[wcol["far"]] = int(wp.far)
        w[wcol["corridor"]] = int(wp.corridor > 0)   # section 4a: the long edge is its Range
        w[wcol["once_corridor"]] = _inches(wp.once_corridor)
        for bs in wp.bands:
            b = bs.band.value
            w[wcol[f"{b}_edge"]] = _inches(bs.edge_inches)
            w[wcol[f"{b}_dice"]] = bs.dice
            w[wcol[f"{b}_dice_cover"]] = bs.dice_cover
            w[wcol[f"{b}_save"]] = bs.save_mod


CONCENTRATE_SUMMON_BIT, CONCENTRATE_BANISH_BIT = 12, 21
"""Where the ``concentrate`` column's Summon and Banish bits start (battle_arcane.pxd: CONC_SUMMON, CONC_BANISH)."""


def concentrate_column(mp: ModelPlan) -> int:
    """The kernel's ``concentrate`` column: 3 band bits per Power of ``casts``, per ranked Summon Difficulty and per
    enemy Entity type for Banish (battle_arcane.pxd)."""
    keys = [(3 * k, (name, 0)) for k, name in enumerate(mp.casts)]
    keys += [(CONCENTRATE_SUMMON_BIT + 3 * k, ("Summon", d)) for k, (d, _over) in enumerate(mp.summon)]
    keys += [(CONCENTRATE_BANISH_BIT + 3 * k, ("Banish", k + 1)) for k in range(len(mp.banish))]
    return sum(1 << (at + b) for at, key in keys for b in range(3) if key in mp.concentrate[b])


@functools.lru_cache(maxsize=1024)
def _rows_of(mp: ModelPlan) -> tuple[np.ndarray, np.ndarray]:
    """A model's kernel row and Weapon rows, made once per plan (read-only: copied into each battle's arrays)."""
    row = np.zeros(len(_K.MODEL_COLUMNS), dtype=np.int32)
    w_rows = np.zeros((_K.MAX_WEAPONS, len(_K.WEAPON_COLUMNS)), dtype=np.int32)
    _model_row(mp, row, w_rows)
    row.flags.writeable = w_rows.flags.writeable = False
    return row, w_rows


def _side_arrays(side: SidePlan, models: np.ndarray, weapons: np.ndarray, order: np.ndarray, s: int) -> None:
    for i, mp in enumerate(side.models):
        models[s, i], weapons[s, i] = _rows_of(mp)
    n = len(side.models)
    ranked = danger_order(side)
    order[s, : len(ranked)] = ranked
    if side.revenant is not None:  # the Revenant slots after the posse, in the Activation order after it too
        for k in range(REVENANT_SLOTS):
            models[s, n + k], weapons[s, n + k] = _rows_of(side.revenant)
            order[s, n + k] = n + k
    for k, ent in enumerate(side.entities):  # the Summoned Entity slots (battle_summon.pxd), off the table at first
        e = _K.ENTITY_SLOT + k
        models[s, e], weapons[s, e] = _rows_of(ent)
        order[s, e] = e


def danger_order(side: SidePlan) -> list[int]:
    """Models most dangerous first (ties: posse file order): the order they Activate and are shot at."""
    return sorted(range(len(side.models)), key=lambda i: (-int(round(side.models[i].danger * 1e6)), i))


def _notes(opts: BattleOptions, a: SidePlan, b: SidePlan) -> list[str]:
    notes = []
    for tag, side in (("A", a), ("B", b)):
        if not opts.table and not side.can_shoot:
            notes.append(f"posse {tag} ({side.posse.name}) has no model able to shoot at {opts.distance.label}: "
                         f"it can only take fire")
        for mp in side.models:
            for wp in mp.weapons:
                if wp.why_not is not None and not (opts.table and wp.why_not == P.FIGHT_WEAPON):
                    notes.append(f"{tag}: {mp.model.name}'s {wp.name} does not shoot: {wp.why_not}")
            if not opts.table and mp.dynamite and (opts.distance.inches is None
                                                   or opts.distance.inches > R.DYNAMITE_THROW_INCHES):
                notes.append(f"{tag}: {mp.model.name}'s Dynamite is not thrown: the enemy is not within "
                             f"{R.DYNAMITE_THROW_INCHES}\"" + (" (a range band gives no distance)" if
                                                              opts.distance.inches is None else ""))
            if mp.arcane_blast:
                notes.append(f"{tag}: {mp.model.name} is the Vessel: no Weapons or Gear, Tough, Fearsome, Arcane Blast "
                             f"within {R.arcane_power('Arcane Blast').range_inches}\"")
            if mp.cast_values:
                vals = ", ".join(f"{n} {v:.3f}" for n, v in mp.cast_values if v is not None)
                if mp.style == "brawl":
                    when, shot = " whenever one has a Target", "a brawl model's shot counts 0"
                else:
                    when = " when it cannot shoot" + "".join(f"; {', '.join(o)} over a shot at {b.value} Range"
                                                             for b, o in zip(_BANDS, mp.casts_over_shot) if o)
                    shot = f"its best shot at Medium Range {mp.danger:.3f}"
                none = "no other Power" if mp.summon or mp.banish else "nothing"
                notes.append(f"{tag}: {mp.model.name} casts " + (", ".join(mp.casts) + when if mp.casts else none)
                             + f" (Power values in Damage steps {vals or 'none'}; {shot})")
                if mp.summon:
                    uniques = "".join(f"; Difficulty {e.difficulty}: the {e.name}, at {R.UNIQUE_SUMMONING_DICE} Die"
                                      for e in mp.model.unique_summonings)
                    notes.append(f"{tag}: {mp.model.name} Summons first, with no Summoned model of its own in play, at "
                                 f"Difficulty " + ", ".join(str(d) for d, _ in mp.summon) + " (best first, the first "
                                 f"whose Entity type is not in play{uniques})")
                if mp.banish:
                    notes.append(f"{tag}: {mp.model.name} Banishes an enemy Entity within "
                                 f"{R.arcane_power('Banish').range_inches}\" (value vs Lesser, Minor, Major: "
                                 + ", ".join(f"{v:.3f}" for v in banish_values(mp.model)) + ")")
                if any(mp.concentrate):
                    notes.append(f"{tag}: {mp.model.name} Concentrates as its Activation's first Action, and Casts on "
                                 f"the second with +{R.CONCENTRATE_DICE} Die, for "
                                 + "; ".join(f"{_concentrate_label(k)} (at " + ", ".join(
                                     b.value.title() for b, keys in zip(_BANDS, mp.concentrate) if k in keys)
                                     + " Range)" for k in sorted(set().union(*mp.concentrate)))
                                 + "; with no shot now, as at Long Range")
                for n, v in mp.cast_values:
                    if v is None:
                        notes.append(f"{tag}: {mp.model.name}'s {n} is {NOT_CAST[n]}")
        if side.entities:
            ents = ", ".join(f"{'an' if ep.summoned[0] in 'AEIOU' else 'a'} {ep.summoned} (D{ep.model.rank.die}, "
                             f"{ep.model.rank.victory_points} VP, {ep.style} plan)" for ep in side.entities)
            notes.append(f"{tag}: a Summoner brings {ents} onto the table (Fearsome, Supernatural); Summoned models do "
                         f"not count for cards, the Bottle Check or the Casualty figures")
            for ep in side.entities:
                if ep.model.profile.not_played:
                    notes.append(f"{tag}: not played for the {ep.summoned}: {ep.model.profile.not_played}")
        if side.revenant is not None:
            notes.append(f"{tag}: {R.REVENANTS} Revenants join (Novice, Pistol, Fearsome, Hard to Kill, no VP); they "
                         f"Activate with their Boss and leave if the Boss falls")
        if opts.table:
            styles = ", ".join(f"{mp.model.name} {mp.style}" + (
                f" (D* {mp.desired_inches:g}\"" + (f"; {mp.beast_form.name} to Charge" if mp.beast_form else "") + ")"
                if mp.style == "gun" else (f" in {mp.beast_form.name}" if mp.beast_form else ""))
                for mp in side.models)
            notes.append(f"{tag} plan {side.plan}: {styles}")
            riders = [f"{mp.model.name} ({mp.model.battle_horse.name}, {mp.model.mounted_move_inches:g}\")"
                      for mp in side.models if not mp.revenant and mp.model.mounted_move_inches]
            if riders:
                notes.append(f"{tag} rides: {', '.join(riders)}: mounted from the start until Downed; an enemy on the "
                             f"ground Attacking a rider is Fortified against (-1 Die); caught in a blast, the horse falls "
                             f"and the rider makes a {R.HORSE_RIDER_SAVE}+ Save too")
            nitro = [mp.model.name for mp in side.models if mp.nitro]
            if nitro:
                notes.append(f"{tag} carries a Vial of Nitro: {', '.join(nitro)}: thrown like a stick of Dynamite, "
                             f"before any stick; it goes off over its bearer when the bearer fails a Save with a score of "
                             f"{max(R.VIAL_OF_NITRO_EXPLODES_ON)} or less")
            water = [f"{mp.model.name} ({mp.blessed_water})" for mp in side.models if mp.blessed_water]
            if water:
                notes.append(f"{tag} carries Blessed Water: {', '.join(water)}: thrown like Dynamite at a Supernatural "
                             f"Target only (first of all it carries); its blast hurts Supernatural models only")
            thrown = [mp.model.name for mp in side.models if mp.throws_lasso]
            if thrown:
                notes.append(f"{tag} throws a Lasso: {', '.join(thrown)}: at the closest rider within "
                             f"{R.LASSO_RANGE}\" on an Action another follows, before a Charge; a failed Save "
                             f"drags the rider off its horse ({R.LASSO_LARGER_BASE_MAX_DRAG_INCHES}\" towards the "
                             f"thrower) and it falls: a {R.LASSO_HORSE_FALL_SAVE}+ Save")
            unused = [mp.model.name for mp in side.models if mp.lasso[0] and not mp.throws_lasso]
            if unused:
                notes.append(f"{tag} carries a Lasso it does not throw: {', '.join(unused)} (gun style: it shoots; "
                             f"only brawl-style models throw one)")
            for style, how in (("gun", "React with a shot at the triggering model (at a Dynamite thrower's stick: "
                                        "Good Shot!), and go on Lookout instead of "
                                        "an Activation's last Move when the closest enemy is within their Weapon's "
                                        "Long Range plus 4\""),
                               ("brawl", "React with a Charge at the triggering model within their Move, and go on "
                                         "Lookout instead of an Activation's last Move when the closest enemy plays "
                                         "brawl and is within their Move plus 4\"")):
                names = [mp.model.name for mp in side.models if mp.lookout and mp.style == style]
                if names:
                    notes.append(f"{tag}: on Lookout (a Reaction Skill), {', '.join(names)} {how}")
            for mp in side.models:
                if mp.beast_form is not None:
                    f = mp.beast_form
                    when = ("with its first Action out of Contact (a Move Action), and again after it Recovers"
                            if mp.beast_at_once else
                            f"(a Move Action) only when it can Charge at once in it: an Action to follow, the closest "
                            f"standing enemy within {f.move_inches}\", none in "
                            f"Contact; and back to Human Form (a Move Action) to shoot, with an Action to follow, "
                            f"no enemy within {f.move_inches}\" and a Target in range")
                    notes.append(f"{tag}: {mp.model.name} assumes its {f.name} {when}; in it, it plays brawl: "
                                 f"Fearsome, Move "
                                 f"{f.move_inches}\""
                                 + (f", +{f.attack_dice} Dice when on the Attack" if f.attack_dice else "")
                                 + (f", {f.win_save_modifier} Save to the loser of its Fights, a bear-hug winning by "
                                    f"{f.bear_hug_margin}+" if f.win_save_modifier else "")
                                 + "; no Weapons, Gear or Powers in it")
                elif R.beast_form_of(mp.model.role) is not None:
                    notes.append(f"{tag}: {mp.model.name} stays in Human Form (plan {side.plan})")
                if mp.model.role is not None and mp.model.role.feeds:
                    notes.append(f"{tag}: {mp.model.name} Feeds when Shaken and in Contact with a Downed "
                                 f"non-Supernatural enemy (the victim removed, no VP; its Shaken marker removed)")
    return notes


def prepare(posse_a: P.Posse, posse_b: P.Posse, options: BattleOptions | None = None, *,
            check: bool = True) -> BattleSetup:
    """Check both posses (the posse-building rules; ``check=False``: the caller did) and turn them into the
    kernel's numbers."""
    opts = (options or BattleOptions()).checked()
    if check:
        P.check_posse(posse_a)
        P.check_posse(posse_b)
    table = opts.table
    a = plan_side(posse_a, opts.distance, opts.cover_a, opts.cover_b, table=table, plan=opts.plan_a)
    b = plan_side(posse_b, opts.distance, opts.cover_b, opts.cover_a, table=table, plan=opts.plan_b)
    if not table and not a.can_shoot and not b.can_shoot:
        raise OddsmithError(f"no model of either posse can shoot at {opts.distance.label}: nothing would happen "
                            f"(try a shorter --range)")
    notes = _notes(opts, a, b)
    mx, mw = _K.MAX_MODELS, _K.MAX_WEAPONS
    models = np.zeros((2, mx, len(_K.MODEL_COLUMNS)), dtype=np.int32)
    weapons = np.zeros((2, mx, mw, len(_K.WEAPON_COLUMNS)), dtype=np.int32)
    order = np.zeros((2, mx), dtype=np.int32)
    for s, side in enumerate((a, b)):
        _side_arrays(side, models, weapons, order, s)
    n_models = np.array([len(a.models), len(b.models)], dtype=np.int32)
    d = opts.distance
    reading = {R.RerollReading.A: 0, R.RerollReading.B: 1}[opts.reading]
    blast = R.arcane_power("Arcane Blast")
    o = {
        "turns": opts.turns, "targets": TARGET_POLICIES.index(opts.targets),
        "activation": ACTIVATION_POLICIES.index(opts.activation), "lone_gun": LONE_GUN_POLICIES.index(opts.lone_gun),
        "reading": reading, "distance": -1 if d.inches is None else int(round(d.inches * 1000)),
        "dynamite_range": R.DYNAMITE_THROW_INCHES, "blast_radius": R.DYNAMITE_BLAST_RADIUS,
        "blast_save": R.DYNAMITE_BLAST_SAVE, "critter_save": R.ORNERY_CRITTER_SAVE,
        "events": int(opts.events != "none"),
        "success_on": R.SUCCESS_ON, "one_face": E.JAM_FACE, "recovery_dice": R.TESTS[R.TestKind.RECOVERY].base_dice,
        "recovery_stand": next(lo for lo, _hi, res in R.RECOVERY_TABLE if res is R.RecoveryResult.STANDS_SHAKEN),
        "boss_dice": R.BOTTLE_CHECK_BOSS_DICE, "stand_in_dice": R.BOTTLE_CHECK_STAND_IN_DICE,
        "scatter_die": R.DYNAMITE_SCATTER_DIE, "roll_off_die": R.ROLL_OFF_DIE, "event_die": R.UNEXPECTED_EVENTS.die,
        "movement": MOVEMENT_MODES.index(opts.movement), "terrain": int(round(opts.terrain * TERRAIN_SCALE)),
        "table_size": _inches(R.TABLE_INCHES), "zone": _inches(R.DEPLOYMENT_ZONE_INCHES), "base": _inches(R.BASE_INCHES),
        "move": _inches(R.MOVE_INCHES), "clearance": _inches(R.ENEMY_CLEARANCE_INCHES),
        "charge_reach": _inches(R.CHARGE_REACH_INCHES), "dust_range": _inches(R.DUST_STORM_VISIBILITY),
        "disengage_dice": R.TESTS[R.TestKind.DISENGAGE].base_dice, "disengage_save": R.DISENGAGE_FAIL_SAVE,
        "spotting_dice": R.SPOTTING_TEST_DICE, "fight_dice": R.TESTS[R.TestKind.FIGHT].base_dice,
        "charge_dice": R.FightModifier.CHARGING.dice, "outnumbered_dice": R.FightModifier.OUTNUMBERED.dice,
        "fearsome_dice": R.FightModifier.FEARSOME.dice, "nerve_dice": R.FEARSOME_NERVE_DICE,
        "derringer_dice": R.FightModifier.DERRINGER.dice, "close_work_max": R.CLOSE_WORK_MAX_PISTOLS,
        "bull_rush_save": R.BULL_RUSH_SAVE_MODIFIER, "friend_recovery": R.RECOVERY_FRIEND_IN_CONTACT,
        "arcane_range": _inches(blast.range_inches), "arcane_dice": blast.dice, "arcane_difficulty": blast.difficulty,
        "casting_dice": R.CASTING_DICE, "revenant_die": R.REVENANT_DIE, "revenant_plus": R.REVENANT_BONUS,
        "revenants_a": int(a.revenant is not None), "revenants_b": int(b.revenant is not None),
        "spot_min": int(round(SPOTTING_MIN_CHANCE * TERRAIN_SCALE)),
        "whiskey_dice": R.WHISKEY_SHOOT_DICE, "whiskey_move": _inches(R.WHISKEY_MOVE_COST_INCHES),
        "snake_oil_die": R.SNAKE_OIL_DIE, "snake_oil_on": R.SNAKE_OIL_SUCCESS_ON,
        "transfix_range": _inches(R.arcane_power("Transfix").range_inches),
        "transfix_difficulty": R.arcane_power("Transfix").difficulty, "transfix_dice": R.TRANSFIX_NERVE_DICE,
        "immolate_range": _inches(R.arcane_power("Immolate").range_inches),
        "immolate_difficulty": R.arcane_power("Immolate").difficulty, "immolate_save": R.IMMOLATE_SAVE,
        "reaction_dice": R.IMMOLATE_REACTION_DICE, "healing_difficulty": R.arcane_power("Faith Healing").difficulty,
        "token_range": _inches(R.arcane_power("Bless").range_inches),
        "bless_difficulty": R.arcane_power("Bless").difficulty, "curse_difficulty": R.arcane_power("Curse").difficulty,
        "dispel_difficulty": R.arcane_power("Dispel").difficulty,
        "summon_range": _inches(R.arcane_power("Summon").range_inches),
        "banish_range": _inches(R.arcane_power("Banish").range_inches),
        "banish_difficulty": R.arcane_power("Banish").difficulty, "entity_blast_dice": R.ARCANE_BLAST_ENTITY_DICE,
        "concentrate_dice": R.CONCENTRATE_DICE, "unique_summoning_dice": R.UNIQUE_SUMMONING_DICE,
        "harbinger_range": _inches(R.HARBINGER_RANGE_INCHES), "harbinger_dice": R.HARBINGER_CASTING_DICE,
        "gun_pace": int(GUN_PACE), "human_return": int(HUMAN_RETURN), "good_shot_dice": R.GOOD_SHOT_DICE,
        "good_shot": int(GOOD_SHOT),
        "fortified_dice": R.FightModifier.FORTIFIED.dice, "horse_die": R.HORSE_GRIT_DIE,
        "horse_rider_save": R.HORSE_RIDER_SAVE, "mounted_base_mm": R.MOUNTED_BASE_MM,
        "nitro_fuse": max(R.VIAL_OF_NITRO_EXPLODES_ON), "lookout_move": int(LOOKOUT_ENEMY_MOVE),
        "storm_dice": R.CastingModifier.ARCANE_STORM.dice, "light_dice": R.LET_THERE_BE_LIGHT,
        "corridor_half_width": _inches(R.FIRE_CORRIDOR_HALF_WIDTH), "corridor_save": R.FIRE_CORRIDOR_SAVE,
        "big_target_mm": R.ALWAYS_TARGETED_BASE_MM,
        "lasso_range": _inches(R.LASSO_RANGE), "lasso_drag": _inches(R.LASSO_DRAG_INCHES_PER_SUCCESS),
        "lasso_big_drag": _inches(R.LASSO_LARGER_BASE_MAX_DRAG_INCHES), "fall_save": R.LASSO_HORSE_FALL_SAVE,
        "lasso_plan": LASSO_PLAN, "base_mm": R.BASE_MM,
    }
    opt_arr = np.array([o[c] for c in _K.OPTION_COLUMNS], dtype=np.int32)
    return BattleSetup(a, b, opts, models, weapons, n_models, order, opt_arr, tuple(notes))
