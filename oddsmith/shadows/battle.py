"""Posse against posse: a turn-by-turn Shadows of the West firefight on open ground.

Two posse files face each other across open ground at one distance (inches,
or a range band every Weapon shoots at), each side with or without Cover. No
movement, terrain, Fights, Reactions or Arcane Powers: every Action is a
Shoot Action (or clearing a Jam). The game follows "Anatomy of a Game":

* Draw Phase: each side draws half its models on the table rounded up, +1 if
  its Boss is among them, from its own 54-card Deck (two Jokers, read as one
  black and one red), refreshing from the Discard Pile ("Running Out of Cards").
* Action Phase: both sides reveal a card per round, best card first (the
  policy); black before red, higher value first, Jokers last, equal values
  Roll-Off, the exact same card raises the Turn's one Event; Lone Gun by
  policy. An Activation is Solo or Dual by ``activation``: ``auto`` (Dual when
  the side has more models able to act than cards left, so every model gets
  to shoot; Solo otherwise, one model making two Shoot Actions), ``dual`` or
  ``solo``. Models act most dangerous first; each shoots its best ready Weapon
  (Sixgun and Repeater Rifle twice, Trigger-Happy the same Weapon again in a
  Solo Activation, Gunslinger both Pistols), at a Target chosen by
  ``targets``; Dynamite once per stick when within 8". Jamming, Boilerplate,
  Tough, Lead-Belly, Shaken and Downed as the book says.
* Recovery Phase: Recovery Tests (Hard to Kill stands up Shaken), then Bottle
  Checks at half the starting models or fewer (Boss on 3 dice, else the next
  highest Rank on 1 die; Nerves of Steel and a standing Preacher re-roll).

Eight Game Turns or until a posse Bottles Out or is wiped out; after the last
Turn the side with more Victory Points wins. The battle is Monte Carlo in the
``shadows_battle`` kernel (seeded, chunked: the same figures for any
``workers``); the activation-order odds of Turn 1 are exact by card counting.
"""
from __future__ import annotations

import concurrent.futures as cf
import functools
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import pandas as pd

from oddsmith import _ext
from oddsmith.errors import OddsmithError
from oddsmith.output import Progress
from oddsmith.rules import shadows as R
from oddsmith.sampling import (BIT_GENERATOR, CHUNK_TRIALS, SamplingPlan, check_trials, check_workers, resolve_seed,
                               run_chunks)
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from oddsmith.notebook import notebook_view

_K = _ext.load("shadows_battle")

TARGET_POLICIES = ("most-dangerous", "weakest", "boss")
ACTIVATION_POLICIES = ("auto", "dual", "solo")
LONE_GUN_POLICIES = ("at-once", "hold")
DEFAULT_RANGE = "10"
DEFAULT_TRIALS = 20_000

EVENT_EFFECTS: dict[str, str] = {
    "'Ornery Critter!": "applied: a random model not Downed makes a 5+ Save (no one is ever engaged here)",
    "Armed Civilians": "not modelled: it needs an empty piece of terrain, and open ground has none",
    "Dust Storm": "applied: nothing farther than 12\" can be shot until the end of the Turn",
    "Bad Omen": "applied: a random model not Downed suffers -1 Save until the end of the Turn",
    "Hero of the Hour": "applied: a random model not Downed immediately makes one Shoot Action, even if Done",
    "Lucky Find": "not modelled: the rulebook text gives no effect",
}
"""What the battle does with each Unexpected Event (the events table is R.UNEXPECTED_EVENTS)."""
_EVENT_CODE = {"'Ornery Critter!": 1, "Dust Storm": 2, "Bad Omen": 3, "Hero of the Hour": 4}
_DYNAMITE_CODE = {R.DynamiteOutcome.ON_THROWER: 1, R.DynamiteOutcome.TOWARDS_THROWER: 2,
                  R.DynamiteOutcome.AWAY_FROM_THROWER: 3, R.DynamiteOutcome.DUD: 4}

NOT_MODELLED = (
    "movement, terrain, Line of Sight and Spotting Tests: every enemy not Downed is an equally near, visible Target",
    "Fights, Charges and Lookout/Reactions (so Mean, Fearsome, 'Ornery, Bull-Rush, Close Work, Bushwhacker, "
    "Quickdraw and the Derringer change nothing)",
    "Horses, Lasso, Snake Oil, Whiskey, Marked Cards, Vial of Nitro, Blessed Water and Arcane Powers",
    "Slick (an extra Action) and Hawkeye (Spotting Tests)",
    "fire-corridor Weapons (Sawn-Off Shotgun, the LeMat's once-per-game shot) and Weapons the rulebook text gives "
    "no ranges for (Rifle, Buffalo Gun)",
    "Silver Bullets bought as Gear load the model's best Weapon for the whole game (\"until it Jams\" is not tracked)",
    "the +1 Die of a friend in Contact on Recovery Tests (no model is in Contact on open ground)",
)

SUMMARY_FIGURES = ("p_a_wins", "p_b_wins", "p_draw", "p_a_bottles", "p_b_bottles", "p_a_wiped_out", "p_b_wiped_out",
                   "p_by_victory_points", "turns_mean", "casualties_a", "casualties_b", "victory_points_a",
                   "victory_points_b", "p_event_per_turn", "p_a_first_turn_1", "p_event_turn_1")


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Distance:
    """How far apart the posses stand: ``inches``, or every Weapon at one range ``band``."""

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
    events: bool = True

    def checked(self) -> "BattleOptions":
        if not 1 <= int(self.turns) <= 64:
            raise OddsmithError(f"--turns must be between 1 and 64, got {self.turns}")
        for value, allowed, what in ((self.targets, TARGET_POLICIES, "--targets"),
                                     (self.activation, ACTIVATION_POLICIES, "--activation"),
                                     (self.lone_gun, LONE_GUN_POLICIES, "lone_gun")):
            if value not in allowed:
                raise OddsmithError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")
        return replace(self, reading=R.reroll_reading(self.reading))


def battle_options(range_: str | float | Distance = DEFAULT_RANGE, *, cover: bool = False, vs_cover: bool = False,
                   turns: int = R.GAME_TURNS, targets: str = "most-dangerous", activation: str = "auto",
                   lone_gun: str = "at-once", reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                   events: bool = True) -> BattleOptions:
    """Options from plain values (``cover``: posse A has Cover; ``vs_cover``: posse B has)."""
    d = range_ if isinstance(range_, Distance) else Distance.parse(range_)
    return BattleOptions(d, cover, vs_cover, turns, targets, activation, lone_gun, R.reroll_reading(reading),
                         events).checked()


# ---------------------------------------------------------------------------
# A posse as the kernel's numbers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponPlan:
    """One Weapon of a model at this distance: the kernel's numbers and why it cannot shoot, if so."""

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

    @property
    def usable(self) -> bool:
        return self.why_not is None


@dataclass(frozen=True)
class ModelPlan:
    model: P.PosseModel
    boss: bool
    weapons: tuple[WeaponPlan, ...]
    dynamite: int
    danger: float

    @property
    def can_shoot(self) -> bool:
        return any(w.usable for w in self.weapons) or self.dynamite > 0


@dataclass(frozen=True)
class SidePlan:
    posse: P.Posse
    models: tuple[ModelPlan, ...]
    cover: bool

    @property
    def can_shoot(self) -> bool:
        return any(m.can_shoot for m in self.models)


def _telescopic(model: P.PosseModel) -> R.Weapon | None:
    """The Rifle-Class Weapon a Telescopic Sight is fitted to: the model's first one."""
    if not any(g.long_range_bonus for g in model.gear):
        return None
    return next((w for w in model.weapons if w.weapon_class is R.WeaponClass.RIFLE and w.stats_known), None)


def _band(w: R.Weapon, distance: Distance, scope: bool) -> tuple[R.RangeBand | None, float | None]:
    if distance.band is not None:
        rng = w.range_of(distance.band, scope)
        return distance.band, (float(rng[1]) if rng else None)
    return w.band_at(distance.inches, scope), distance.inches


def _weapon_value(model: P.PosseModel, w: R.Weapon, band: R.RangeBand, enemy_cover: bool, shots: int) -> float:
    """Policy score of a Weapon: expected Damage steps (Shaken 1, Downed 2, Casualty 3) per Shoot Action against a
    plain Veteran, exact from the dice engine; the kernel fires the highest-scoring ready Weapon."""
    return _shot_value(P.shooter_of(model), w.name, band, enemy_cover) * shots


@functools.lru_cache(maxsize=4096)
def _shot_value(shooter: E.Shooter, weapon_name: str, band: R.RangeBand, enemy_cover: bool) -> float:
    odds = E.shoot(shooter, "Veteran", weapon_name, range_band=band, cover=enemy_cover, fractions=False)
    return odds["shaken"] + 2 * odds["downed"] + 3 * odds["casualty"]


def plan_model(model: P.PosseModel, boss: bool, distance: Distance, enemy_cover: bool) -> ModelPlan:
    scope_on = _telescopic(model)
    silver = R.gear("Silver Bullets").save_modifier_vs_supernatural if model.silver_bullets else 0
    silver_all = bool(model.role and model.role.silver_bullets)
    plans: list[WeaponPlan] = []
    for w in model.weapons:
        why = P.shootable(w)
        band = inches = None
        if why is None:
            band, inches = _band(w, distance, w is scope_on)
            if band is None:
                why = f"out of range at {distance.label} (Long Range ends at {w.long}\")"
        if why is not None:
            plans.append(WeaponPlan(w.name, None, None, 0, 2, 0, 0, 0, False, False, 0.0, why))
            continue
        dice = R.shooting_dice(w, band, cover=enemy_cover, skills=model.all_skills, injuries=model.injuries)
        shots = w.shots_per_action
        far = inches is not None and inches > R.DUST_STORM_VISIBILITY
        plans.append(WeaponPlan(w.name, band, inches, dice, int(w.jam_die), shots, w.save_modifier(band), 0,
                                w.weapon_class is R.WeaponClass.PISTOL, far,
                                _weapon_value(model, w, band, enemy_cover, shots)))
    # best first; Silver Bullets bought as Gear load the best Weapon, a Crusader's load them all
    order = sorted(range(len(plans)), key=lambda i: (not plans[i].usable, -plans[i].value, i))
    plans = [plans[i] for i in order]
    if silver:
        plans = [replace(p, silver=silver) if p.usable and (silver_all or k == 0) else p for k, p in enumerate(plans)]
    dynamite = sum(1 for g in model.gear if g.name == "Dynamite")
    if model.hired_gun is not None and model.hired_gun.name == "Moonshiner":
        dynamite += 1  # a burning bottle of 'shine, once per game, "following the rules for a stick of Dynamite"
    danger = max((p.value for p in plans if p.usable), default=0.0)
    return ModelPlan(model, boss, tuple(plans), dynamite, danger)


def plan_side(posse: P.Posse, distance: Distance, cover: bool, enemy_cover: bool) -> SidePlan:
    if len(posse.models) > _K.MAX_MODELS:
        raise OddsmithError(f"{posse.source}: a posse has at most {_K.MAX_MODELS} models, got {len(posse.models)}")
    boss = posse.boss
    return SidePlan(posse, tuple(plan_model(m, m is boss, distance, enemy_cover) for m in posse.models), cover)


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


def _side_arrays(side: SidePlan, models: np.ndarray, weapons: np.ndarray, order: np.ndarray, s: int) -> None:
    col = {c: i for i, c in enumerate(_K.MODEL_COLUMNS)}
    wcol = {c: i for i, c in enumerate(_K.WEAPON_COLUMNS)}
    for i, mp in enumerate(side.models):
        m = mp.model
        row = models[s, i]
        row[col["present"]] = 1
        row[col["die"]] = m.rank.die
        row[col["die_shaken"]] = R.grit_die(m.rank, True, m.lead_belly)
        row[col["rank"]] = (R.Rank.NOVICE, R.Rank.VETERAN, R.Rank.HERO).index(m.rank)
        row[col["boss"]] = int(mp.boss)
        row[col["save_mod"]] = m.save_modifier
        row[col["cancel"]] = R.BOILERPLATE_CANCELS if m.boilerplate else 0
        row[col["supernatural"]] = int(m.supernatural)
        row[col["hard_to_kill"]] = int(any(s_.auto_recovers for s_ in m.all_skills))
        row[col["nerve_rerolls"]] = int(any(s_.name == R.NERVE_REROLL_SKILL for s_ in m.all_skills))
        row[col["preacher"]] = int(m.hired_gun is not None and m.hired_gun.name == "Preacher")
        gunslinger = any(s_.fires_two_pistols for s_ in m.all_skills)
        row[col["trigger_happy"]] = int(any(s_.extra_shot_same_weapon for s_ in m.all_skills) and not gunslinger)
        row[col["gunslinger"]] = int(gunslinger)
        row[col["danger"]] = int(round(mp.danger * 1e6))
        row[col["vp"]] = m.rank.victory_points
        row[col["dynamite"]] = mp.dynamite
        row[col["jam_rerolls"]] = int(any(s_.rerolls and "Jamming" in s_.rerolls for s_ in m.all_skills))
        for j, wp in enumerate(mp.weapons[: _K.MAX_WEAPONS]):
            w = weapons[s, i, j]
            w[wcol["usable"]] = int(wp.usable)
            w[wcol["dice"]] = wp.dice
            w[wcol["jam_die"]] = wp.jam_die
            w[wcol["shots"]] = wp.shots
            w[wcol["save_mod"]] = wp.save_mod
            w[wcol["silver"]] = wp.silver
            w[wcol["pistol"]] = int(wp.pistol)
            w[wcol["far"]] = int(wp.far)
    ranked = danger_order(side)
    order[s, : len(ranked)] = ranked


def danger_order(side: SidePlan) -> list[int]:
    """Models most dangerous first (ties: posse file order): the order they Activate and are shot at."""
    return sorted(range(len(side.models)), key=lambda i: (-int(round(side.models[i].danger * 1e6)), i))


def prepare(posse_a: P.Posse, posse_b: P.Posse, options: BattleOptions | None = None, *,
            check: bool = True) -> BattleSetup:
    """Check both posses (the posse-building rules; ``check=False``: the caller did) and turn them into the
    kernel's numbers."""
    opts = (options or BattleOptions()).checked()
    if check:
        P.check_posse(posse_a)
        P.check_posse(posse_b)
    a = plan_side(posse_a, opts.distance, opts.cover_a, opts.cover_b)
    b = plan_side(posse_b, opts.distance, opts.cover_b, opts.cover_a)
    if not a.can_shoot and not b.can_shoot:
        raise OddsmithError(f"no model of either posse can shoot at {opts.distance.label}: nothing would happen "
                            f"(try a shorter --range)")
    notes = []
    for tag, side in (("A", a), ("B", b)):
        if not side.can_shoot:
            notes.append(f"posse {tag} ({side.posse.name}) has no model able to shoot at {opts.distance.label}: "
                         f"it can only take fire")
        for mp in side.models:
            for wp in mp.weapons:
                if wp.why_not is not None:
                    notes.append(f"{tag}: {mp.model.name}'s {wp.name} does not shoot: {wp.why_not}")
            if mp.dynamite and (opts.distance.inches is None or opts.distance.inches > R.DYNAMITE_THROW_INCHES):
                notes.append(f"{tag}: {mp.model.name}'s Dynamite is not thrown: the enemy is not within "
                             f"{R.DYNAMITE_THROW_INCHES}\"" + (" (a range band gives no distance)" if
                                                              opts.distance.inches is None else ""))
    mx, mw = _K.MAX_MODELS, _K.MAX_WEAPONS
    models = np.zeros((2, mx, len(_K.MODEL_COLUMNS)), dtype=np.int32)
    weapons = np.zeros((2, mx, mw, len(_K.WEAPON_COLUMNS)), dtype=np.int32)
    order = np.zeros((2, mx), dtype=np.int32)
    for s, side in enumerate((a, b)):
        _side_arrays(side, models, weapons, order, s)
    n_models = np.array([len(a.models), len(b.models)], dtype=np.int32)
    d = opts.distance
    reading = {R.RerollReading.A: 0, R.RerollReading.B: 1}[opts.reading]
    o = {
        "turns": opts.turns, "targets": TARGET_POLICIES.index(opts.targets),
        "activation": ACTIVATION_POLICIES.index(opts.activation), "lone_gun": LONE_GUN_POLICIES.index(opts.lone_gun),
        "reading": reading, "distance": -1 if d.inches is None else int(round(d.inches * 1000)),
        "dynamite_range": R.DYNAMITE_THROW_INCHES, "blast_radius": R.DYNAMITE_BLAST_RADIUS,
        "blast_save": R.DYNAMITE_BLAST_SAVE, "critter_save": R.ORNERY_CRITTER_SAVE, "events": int(opts.events),
        "success_on": R.SUCCESS_ON, "one_face": E.JAM_FACE, "recovery_dice": R.TESTS[R.TestKind.RECOVERY].base_dice,
        "recovery_stand": next(lo for lo, _hi, res in R.RECOVERY_TABLE if res is R.RecoveryResult.STANDS_SHAKEN),
        "boss_dice": R.BOTTLE_CHECK_BOSS_DICE, "stand_in_dice": R.BOTTLE_CHECK_STAND_IN_DICE,
        "scatter_die": R.DYNAMITE_SCATTER_DIE, "roll_off_die": R.ROLL_OFF_DIE, "event_die": R.UNEXPECTED_EVENTS.die,
    }
    opt_arr = np.array([o[c] for c in _K.OPTION_COLUMNS], dtype=np.int32)
    return BattleSetup(a, b, opts, models, weapons, n_models, order, opt_arr, tuple(notes))


def _event_codes() -> np.ndarray:
    codes = np.zeros(16, dtype=np.int32)
    for e in R.UNEXPECTED_EVENTS.entries:
        for face in range(e.low, e.high + 1):
            codes[face] = _EVENT_CODE.get(e.name or "", 0)
    return codes


def _dynamite_codes() -> np.ndarray:
    codes = np.zeros(8, dtype=np.int32)
    for score in range(1, R.SUCCESS_ON):
        codes[score] = _DYNAMITE_CODE[R.dynamite_throw(score)]
    return codes


def _check_card_keys() -> None:
    """The kernel numbers cards 0-51 by suit (Spades, Clubs, Hearts, Diamonds) then 52 black, 53 red Joker."""
    cards = [R.PlayingCard(v, s) for s in "SCHD" for v in range(2, R.ACE_VALUE + 1)]
    cards += [R.PlayingCard(R.JOKER_VALUE, None, "black"), R.PlayingCard(R.JOKER_VALUE, None, "red")]
    keys = _K.card_keys()
    for c1, k1 in zip(cards, keys):
        for c2, k2 in zip(cards, keys):
            if (c1.activation_key < c2.activation_key) != (k1 < k2):
                raise AssertionError("the battle kernel's card order differs from the rules model's")


_check_card_keys()


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class BattleResult:
    """Figures of one battle: ``summary`` (figure, value, stderr), ``models`` (per model), ``activation`` (exact)."""

    setup: BattleSetup
    summary: pd.DataFrame
    models: pd.DataFrame
    activation: pd.DataFrame
    trials: int
    seed: int
    counts: np.ndarray

    def __getitem__(self, figure: str) -> float:
        return float(self.summary.set_index("figure").loc[figure, "value"])

    def stderr(self, figure: str) -> float:
        return float(self.summary.set_index("figure").loc[figure, "stderr"])

    @property
    def notes(self) -> tuple[str, ...]:
        return self.setup.notes

    def to_json(self) -> dict[str, Any]:
        """The contract of ``oddsmith shadows battle --format json``."""
        o = self.setup.options
        s = self.summary.set_index("figure")
        out: dict[str, Any] = {
            "command": "battle", "posse_a": self.setup.a.posse.name, "posse_b": self.setup.b.posse.name,
            "range": o.distance.label, "range_inches": o.distance.inches,
            "range_band": o.distance.band.value if o.distance.band else None,
            "cover_a": o.cover_a, "cover_b": o.cover_b, "turns": o.turns, "targets": o.targets,
            "activation": o.activation, "lone_gun": o.lone_gun, "reroll_reading": o.reading.name,
        }
        for f in SUMMARY_FIGURES:
            out[f] = float(s.loc[f, "value"])
        out["stderr"] = {f: float(s.loc[f, "stderr"]) for f in SUMMARY_FIGURES}
        out["models"] = [
            {"side": r.side, "posse": r.posse, "model": r.model, "rank": r.rank, "boss": bool(r.boss),
             "p_casualty": float(r.p_casualty), "p_downed_at_end": float(r.p_downed_at_end),
             "stderr": {"p_casualty": float(r.p_casualty_stderr), "p_downed_at_end": float(r.p_downed_at_end_stderr)}}
            for r in self.models.itertuples()]
        out["activation_exact"] = [
            {k: (v if not isinstance(v, (np.floating, np.integer)) else v.item()) for k, v in row.items()}
            for row in self.activation.to_dict("records")]
        out["events"] = dict(EVENT_EFFECTS)
        out["not_modelled"] = list(NOT_MODELLED)
        out["notes"] = list(self.notes)
        out["trials"] = self.trials
        out["seed"] = self.seed
        out["bit_generator"] = BIT_GENERATOR
        out["chunk_trials"] = CHUNK_TRIALS
        return out


def _mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0)
    return mean, math.sqrt(var / n) if n > 1 else 0.0


def _prop(count: float, n: int) -> tuple[float, float]:
    p = count / n
    return p, math.sqrt(max(p * (1 - p), 0.0) / n)


def run_counts(setup: BattleSetup, trials: int, seed: int, workers: int = 1, label: str = "battles") -> np.ndarray:
    """Raw kernel counts (HEAD_COLUMNS then per-model counts) of ``trials`` games."""
    plan = SamplingPlan(seed=seed, trials=trials)
    ev, dy = _event_codes(), _dynamite_codes()

    def work(gen, n):
        out = np.zeros(_K.N_OUT, dtype=np.int64)
        _K.mc_battle(gen, setup.models, setup.weapons, setup.n_models, setup.order, setup.opts,
                     E.SAVE_TABLE_ARRAY, E.DAMAGE_ARRAY, ev, dy, n, out)
        return out

    return np.sum(np.stack(run_chunks(work, plan, workers=workers, label=label)), axis=0)


def _chunk_bit_generator(seed: int, chunk: int) -> np.random.PCG64:
    """A fresh copy of chunk ``chunk``'s bit generator of ``SamplingPlan(seed, ...)`` (its SeedSequence child)."""
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,)))


@dataclass(frozen=True)
class PairedRuns:
    """A base battle and changed ones played on the same games (common random numbers).

    ``base``: the base run's kernel counts (the same as ``run_counts`` on the seed); ``counts[j]``: changed run j's;
    ``pairs[j]``: for each of PAIRED_FIGURES the sums PAIR_SUMS over the games of x (the base's value in a game)
    and y (changed run j's in the same game)."""

    base: np.ndarray
    counts: list[np.ndarray]
    pairs: list[np.ndarray]
    trials: int

    def difference(self, j: int, figure: str) -> tuple[float, float]:
        """Mean of y - x over the games and its standard error from the spread of the per-game differences."""
        k = _K.PAIRED_FIGURES.index(figure)
        x, y, xy, xx, yy = (int(v) for v in self.pairs[j][5 * k: 5 * k + 5])
        return _mean_se(y - x, yy - 2 * xy + xx, self.trials)


def run_paired(base: BattleSetup, changed: Sequence[BattleSetup], trials: int, seed: int, workers: int = 1,
               label: str = "battles") -> PairedRuns:
    """Play ``base`` and every ``changed`` setup on the same games, chunk by chunk.

    Game t of chunk i draws from streams keyed by chunk i's bit generator (the kernel's per-game streams), so a
    changed posse plays game t on the base's dice and cards up to the first roll the change alters. The base run
    records each game's outcome for one chunk at a time (memory: one chunk), and each changed run adds the sums of
    the paired products; the sums are integers, so the figures are the same for any ``workers``."""
    plan = SamplingPlan(seed=seed, trials=trials)
    ev, dy = _event_codes(), _dynamite_codes()
    base_counts = np.zeros(_K.N_OUT, dtype=np.int64)
    counts = [np.zeros(_K.N_OUT, dtype=np.int64) for _ in changed]
    pairs = [np.zeros(len(_K.PAIRED_FIGURES) * len(_K.PAIR_SUMS), dtype=np.int64) for _ in changed]

    def play(setup: BattleSetup, chunk: int, n: int, out: np.ndarray, **kw) -> None:
        _K.mc_battle(_chunk_bit_generator(seed, chunk), setup.models, setup.weapons, setup.n_models, setup.order,
                     setup.opts, E.SAVE_TABLE_ARRAY, E.DAMAGE_ARRAY, ev, dy, n, out, **kw)

    with Progress(trials * (1 + len(changed)), label) as progress, \
            cf.ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:  # the kernel releases the GIL
        for i, n in enumerate(plan.chunk_sizes()):
            record = np.zeros((n, len(_K.RECORD_COLUMNS)), dtype=np.int8)
            play(base, i, n, base_counts, record=record)
            progress.advance(n)

            def work(j: int, i: int = i, n: int = n, record: np.ndarray = record) -> None:
                play(changed[j], i, n, counts[j], paired=record, pair_out=pairs[j])

            if workers <= 1:
                for j in range(len(changed)):
                    work(j)
                    progress.advance(n)
            else:
                for _ in pool.map(work, range(len(changed))):
                    progress.advance(n)
    return PairedRuns(base_counts, counts, pairs, trials)


def summarise(setup: BattleSetup, counts: np.ndarray, trials: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    h = dict(zip(_K.HEAD_COLUMNS, counts[: len(_K.HEAD_COLUMNS)].tolist()))
    n = trials
    rows = []
    for fig, key in (("p_a_wins", "a_wins"), ("p_b_wins", "b_wins"), ("p_draw", "draw"), ("p_a_bottles", "a_bottles"),
                     ("p_b_bottles", "b_bottles"), ("p_a_wiped_out", "a_wiped"), ("p_b_wiped_out", "b_wiped"),
                     ("p_by_victory_points", "by_vp")):
        rows.append((fig, *_prop(h[key], n)))
    rows.append(("turns_mean", *_mean_se(h["turns"], h["turns_sq"], n)))
    rows.append(("casualties_a", *_mean_se(h["casualties_a"], h["casualties_a_sq"], n)))
    rows.append(("casualties_b", *_mean_se(h["casualties_b"], h["casualties_b_sq"], n)))
    rows.append(("victory_points_a", *_mean_se(h["vp_a"], h["vp_a_sq"], n)))
    rows.append(("victory_points_b", *_mean_se(h["vp_b"], h["vp_b_sq"], n)))
    # Events per Game Turn played: a ratio of two per-game sums (delta method)
    ratio = h["events"] / h["turns"]
    var = h["events_sq"] - 2 * ratio * h["events_turns"] + ratio * ratio * h["turns_sq"]
    rows.append(("p_event_per_turn", ratio, math.sqrt(max(var, 0.0)) / h["turns"]))
    rows.append(("p_a_first_turn_1", *_prop(h["a_first"], n)))
    rows.append(("p_event_turn_1", *_prop(h["event_turn_1"], n)))
    summary = pd.DataFrame(rows, columns=["figure", "value", "stderr"])
    summary = summary.set_index("figure").loc[list(SUMMARY_FIGURES)].reset_index()
    mrows = []
    base = len(_K.HEAD_COLUMNS)
    mx = _K.MAX_MODELS
    for s, (tag, side) in enumerate((("a", setup.a), ("b", setup.b))):
        for i, mp in enumerate(side.models):
            cas = counts[base + s * mx + i]
            down = counts[base + 2 * mx + s * mx + i]
            pc, sc = _prop(cas, n)
            pd_, sd = _prop(down, n)
            mrows.append({"side": tag, "posse": side.posse.name, "model": mp.model.name, "rank": mp.model.rank.label,
                          "boss": mp.boss, "p_casualty": pc, "p_casualty_stderr": sc, "p_downed_at_end": pd_,
                          "p_downed_at_end_stderr": sd})
    return summary, pd.DataFrame(mrows)


def battle(posse_a: P.Posse, posse_b: P.Posse, options: BattleOptions | None = None, *, trials: int = DEFAULT_TRIALS,
           seed: int | None = None, workers: int = 1) -> BattleResult:
    """Monte Carlo battle of posse A against posse B (module docstring); figures with standard errors."""
    trials = check_trials(int(trials))
    workers = check_workers(int(workers))
    sd = resolve_seed(seed)
    setup = prepare(posse_a, posse_b, options)
    counts = run_counts(setup, trials, sd, workers)
    summary, models = summarise(setup, counts, trials)
    return BattleResult(setup, summary, models, activation_table(setup), trials, sd, counts)


# ---------------------------------------------------------------------------
# Exact activation-order odds by card counting ("Activations")
# ---------------------------------------------------------------------------


def turn_one_hands(posse: P.Posse) -> int:
    """Cards drawn in Turn 1: every model is on the table, the Boss among them."""
    return R.hand_size(len(posse.models), posse.boss is not None)


def _key_groups(deck: Sequence[R.PlayingCard]) -> list[int]:
    """Sizes of the groups of equal activation key, best key first."""
    keys = sorted(c.activation_key for c in deck)
    sizes: list[int] = []
    last = None
    for k in keys:
        if k != last:
            sizes.append(0)
            last = k
        sizes[-1] += 1
    return sizes


def p_first_activation(hand_a: int, hand_b: int, deck: Sequence[R.PlayingCard] | None = None) -> Fraction:
    """P(side A Activates first in the first round), both drawing from their own full Deck and playing their best
    card: the best key of each Hand by counting, equal keys (the same card included) won half the time by Roll-Off."""
    cards = list(deck) if deck is not None else R.deck_cards()
    n = len(cards)
    if not (0 <= hand_a <= n and 0 <= hand_b <= n):
        raise OddsmithError(f"a Hand holds 0..{n} cards, got {hand_a} and {hand_b}")
    if hand_a == 0:
        return Fraction(0)
    if hand_b == 0:
        return Fraction(1)
    total_a, total_b = math.comb(n, hand_a), math.comb(n, hand_b)
    out = Fraction(0)
    worse = n
    for size in _key_groups(cards):
        worse -= size  # cards with a worse key than this group
        pa = Fraction(math.comb(worse + size, hand_a) - math.comb(worse, hand_a), total_a)
        pb_same = Fraction(math.comb(worse + size, hand_b) - math.comb(worse, hand_b), total_b)
        pb_worse = Fraction(math.comb(worse, hand_b), total_b)
        out += pa * (pb_worse + pb_same / 2)
    return out


def p_event(hand_a: int, hand_b: int, deck: Sequence[R.PlayingCard] | None = None) -> Fraction:
    """P(the exact same card is revealed in some round of a Turn) when both sides play every card, best first
    (equal keys in a fixed suit order), from their own full Decks. Counting over the cards in playing order:
    a card in both Hands at the same position k is revealed by both in round k."""
    cards = sorted(list(deck) if deck is not None else R.deck_cards(),
                   key=lambda c: (c.activation_key, c.suit or "", c.colour))
    n = len(cards)
    if not (0 <= hand_a <= n and 0 <= hand_b <= n):
        raise OddsmithError(f"a Hand holds 0..{n} cards, got {hand_a} and {hand_b}")
    # ways[i][j]: pairs of card sets so far with i cards in A's Hand, j in B's, and no card shared at one position
    ways = [[0] * (hand_b + 1) for _ in range(hand_a + 1)]
    ways[0][0] = 1
    for _ in cards:
        new = [[0] * (hand_b + 1) for _ in range(hand_a + 1)]
        for i in range(hand_a + 1):
            for j in range(hand_b + 1):
                w = ways[i][j]
                if not w:
                    continue
                new[i][j] += w
                if i < hand_a:
                    new[i + 1][j] += w
                if j < hand_b:
                    new[i][j + 1] += w
                if i < hand_a and j < hand_b and i != j:
                    new[i + 1][j + 1] += w
        ways = new
    return 1 - Fraction(ways[hand_a][hand_b], math.comb(n, hand_a) * math.comb(n, hand_b))


def activation_table(setup: BattleSetup) -> pd.DataFrame:
    """Turn 1's exact odds for these posses' Hands: who Activates first, and the chance of an Event."""
    ha, hb = turn_one_hands(setup.a.posse), turn_one_hands(setup.b.posse)
    first, event = p_first_activation(ha, hb), p_event(ha, hb)
    return pd.DataFrame([
        {"figure": "p_a_first", "hand_a": ha, "hand_b": hb, "value": float(first),
         "exact": f"{first.numerator}/{first.denominator}"},
        {"figure": "p_event_if_all_cards_played", "hand_a": ha, "hand_b": hb, "value": float(event),
         "exact": f"{event.numerator}/{event.denominator}"},
    ])


def simulate_first_round(hand_a: int, hand_b: int, *, trials: int = 1_000_000, seed: int | None = None,
                         workers: int = 1) -> tuple[dict[str, float], dict[str, float]]:
    """The kernel's own card code on Turn 1 only: (figures, stderr) for ``p_a_first`` and ``p_event``."""
    trials = check_trials(int(trials))
    sd = resolve_seed(seed)

    def work(gen, n):
        out = np.zeros(2, dtype=np.int64)
        _K.mc_first_round(gen, int(hand_a), int(hand_b), R.ROLL_OFF_DIE, n, out)
        return out

    c = np.sum(np.stack(run_chunks(work, SamplingPlan(seed=sd, trials=trials), workers=check_workers(workers),
                                   label="hands")), axis=0)
    figs = {"p_a_first": c[0] / trials, "p_event": c[1] / trials}
    return figs, {k: math.sqrt(v * (1 - v) / trials) for k, v in figs.items()}
