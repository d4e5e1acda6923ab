"""Shadows of the West odds: thin, validating wrappers around the exact and Monte Carlo kernels.

Every function here turns rules-model objects (Ranks, Weapons, Skills, Gear,
range bands; :mod:`oddsmith.rules.shadows`) into the plain numbers the
kernels take, checks them (bad input raises :class:`OddsmithError`), calls
the kernel and returns an :class:`Odds`: named outcome probabilities, their
exact fractions, the numbers that went in and the modifiers applied.

How the book is read (docs/rules-shadows.md, 'Dice in a game'; ``oddsmith.rules.shadows``): the
maximum-face re-roll defaults to reading B (failing dice only, lowest first;
a maximum on a re-roll grants another re-roll); reading A lets only the
first roll's maxima grant re-rolls. Bless and Curse act after those re-rolls
on the dice not re-rolled yet. Extra re-rolls (Nerves of Steel, a Preacher,
Lucky Jackalope's Foot) are spent like maximum-face re-rolls.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from oddsmith import _ext
from oddsmith.errors import OddsmithError
from oddsmith.notebook import notebook_view
from oddsmith.rules import shadows as R
from oddsmith.sampling import (BIT_GENERATOR, CHUNK_TRIALS, SamplingPlan, binomial_stderr, check_trials, check_workers,
                               resolve_seed, run_chunks, stream_key)

_X = _ext.load("shadows_exact")
_M = _ext.load("shadows_mc")

# ---------------------------------------------------------------------------
# Numbers the kernels take, all from the rules model
# ---------------------------------------------------------------------------

SUCCESS_ON = R.SUCCESS_ON
JAM_FACE = next(x for x in range(1, R.SUCCESS_ON) if R.is_miscast([x]))
"""The face a missed shot's Jamming Check and a Miscast look for ("at least one Die ... scored a 1")."""

MAX_DICE = int(_X.MAX_DICE_PER_TEST)
MAX_SHOTS = int(_X.MAX_SEQUENCE_SHOTS)
MAX_REROLLS = 4
SAVE_MOD_RANGE = (-6, 6)
"""Save Modifiers accepted: the book's add up to a few points either way; past +-6 is a typing error."""

_TABLE_LEN = 32
_DAMAGE_CODE = {R.Damage.SHAKEN: 1, R.Damage.DOWNED: 2, R.Damage.CASUALTY: 3}
SAVE_TABLE_ARRAY = np.array([R.save_target(max(k, 1)) for k in range(_TABLE_LEN)], dtype=np.int32)
DAMAGE_ARRAY = np.array([0] + [_DAMAGE_CODE[R.damage_for(m)] for m in range(1, _TABLE_LEN)], dtype=np.int32)
_READING = {R.RerollReading.A: 0, R.RerollReading.B: 1}
_MODE = {R.Blessing.NONE: 0, R.Blessing.BLESS: 1, R.Blessing.CURSE: 2}

SHOT_OUTCOMES = tuple(_X.SHOT_OUTCOMES)
"""miss, jam_check, jammed, cancelled, saved, shaken, downed, casualty; miss includes jam_check, which includes jammed."""
FINAL_SHOT_OUTCOMES = ("miss", "cancelled", "saved", "shaken", "downed", "casualty")
"""The outcomes of one Shooting Attack that partition all rolls (they sum to 1)."""
SEQUENCE_OUTCOMES = tuple(_X.SEQ_OUTCOMES)
FIGHT_OUTCOMES = tuple(_X.FIGHT_OUTCOMES)
STATES = ("saved", "shaken", "downed", "casualty")


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class Odds:
    """Probabilities of named outcomes.

    ``outcomes``: name -> probability (float). ``fractions``: the same as exact
    fractions (exact engine, when asked) else None. ``stderr``: standard
    errors (Monte Carlo) else None. ``setup``: the numbers that went into the
    kernel (dice, dies, modifiers); ``modifiers``: (rule, value) pairs applied.
    ``extra``: further named results (margins, per-shot odds, ...).
    """

    what: str
    outcomes: dict[str, float]
    fractions: dict[str, Fraction] | None = None
    stderr: dict[str, float] | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    modifiers: tuple[tuple[str, int], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    exact: bool = True
    trials: int | None = None
    seed: int | None = None

    def __getitem__(self, key: str) -> float:
        return self.outcomes[key]

    def as_dict(self, fractions: bool = False) -> dict[str, Any]:
        """JSON-ready dict: outcomes, exact flag, setup, modifiers; fractions as 'n/d' strings when asked."""
        out: dict[str, Any] = {"what": self.what, "exact": self.exact, "setup": dict(self.setup),
                               "modifiers": [{"rule": n, "dice": v} for n, v in self.modifiers],
                               "outcomes": dict(self.outcomes)}
        if fractions:
            if self.fractions is None:
                raise OddsmithError("exact fractions are only available from the exact engine")
            out["fractions"] = {k: f"{v.numerator}/{v.denominator}" for k, v in self.fractions.items()}
        if self.stderr is not None:
            out["stderr"] = dict(self.stderr)
            out["trials"] = self.trials
            out["seed"] = self.seed
            out["bit_generator"] = BIT_GENERATOR
            out["chunk_trials"] = CHUNK_TRIALS
        for k, v in self.extra.items():
            out[k] = v
        return out


def _ints(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    return hi.astype(object) * (1 << 64) + lo.astype(object)


# ---------------------------------------------------------------------------
# Validation of plain inputs
# ---------------------------------------------------------------------------


def parse_rank(value: R.Rank | str | int) -> R.Rank:
    """A Rank from 'Novice'/'Veteran'/'Hero' or 'D6'/'D8'/'D10' (any case)."""
    return R.rank(value)


def _die(value: R.Rank | str | int) -> int:
    return R.parse_die(value) if not isinstance(value, R.Rank) else value.die


def _count_dice(base: int, *mods: int) -> int:
    n = R.dice_to_roll(base, *mods)
    if n > MAX_DICE:
        raise OddsmithError(f"{n} dice after modifiers is more than the engine takes ({MAX_DICE})")
    return n


def _rerolls(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= MAX_REROLLS:
        raise OddsmithError(f"extra re-rolls must be 0..{MAX_REROLLS}, got {n!r}")
    return int(n)


def _save_mod(m: int) -> int:
    lo, hi = SAVE_MOD_RANGE
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not lo <= m <= hi:
        raise OddsmithError(f"save modifier must be {lo:+d}..{hi:+d}, got {m!r}")
    return int(m)


def _blessing(b: R.Blessing | str | None) -> R.Blessing:
    return R.blessing(b)


def _skills(names: Iterable[R.Skill | str] | None) -> frozenset[str]:
    return frozenset(R.skill(s).name for s in (names or ()))


def _model_of(cls: type, value: Any, kw: dict[str, Any]) -> Any:
    """``value`` as a ``cls`` (Shooter, Target, Fighter): an existing one with ``kw``
    replaced, or a Rank with ``kw`` (Skills and the Bless/Curse token read by name)."""
    if isinstance(value, cls):
        return replace(value, **kw) if kw else value
    kw = dict(kw)
    kw["skills"] = _skills(kw.get("skills"))
    kw["blessing"] = _blessing(kw.get("blessing"))
    return cls(R.rank(value), **kw)


# ---------------------------------------------------------------------------
# Tests ("Tests")
# ---------------------------------------------------------------------------


def test_joint(die: int | str | R.Rank, dice: int, *, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
               blessing: R.Blessing | str | None = None, rerolls: int = 0, fractions: bool = True
               ) -> dict[tuple[int, int, int], Fraction | float]:
    """Exact joint distribution of one Test: {(successes, highest die, any die showing 1): probability}.

    ``dice`` is the final number of dice (at least 1). Values are exact
    Fractions, or floats with ``fractions=False`` (faster).
    """
    D = _die(die)
    n = _count_dice(dice)
    hi, lo, scale = _X.test_joint(D, SUCCESS_ON, JAM_FACE, n, _READING[R.reroll_reading(reading)],
                                  _MODE[_blessing(blessing)], _rerolls(rerolls), True, True)
    nz = list(zip(*np.nonzero(hi | lo)))
    if not fractions:
        probs = (hi.astype(np.float64) * 18446744073709551616.0 + lo.astype(np.float64)) / float(scale)
        return {tuple(int(i) for i in idx): float(probs[idx]) for idx in nz}
    counts = _ints(hi, lo)
    return {tuple(int(i) for i in idx): Fraction(int(counts[idx]), scale) for idx in nz}


def _test_setup(rank_or_die, dice, dice_mod, shaken, lead_belly, reading, blessing, rerolls) -> dict[str, Any]:
    if isinstance(rank_or_die, (R.Rank, str)) and not str(rank_or_die).lower().startswith("d"):
        D = R.grit_die(R.rank(rank_or_die), shaken, lead_belly)
    else:
        D = _die(rank_or_die)
        if shaken and not lead_belly:
            D = R.Rank(D).lower().die
    return {"die": f"D{D}", "faces": D, "dice": _count_dice(dice, dice_mod), "reading": R.reroll_reading(reading).value,
            "blessing": _blessing(blessing).value, "rerolls": _rerolls(rerolls)}


def test_distribution(rank_or_die: R.Rank | str | int, dice: int = 3, *, dice_mod: int = 0, shaken: bool = False,
                      lead_belly: bool = False, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                      blessing: R.Blessing | str | None = None, rerolls: int = 0, fractions: bool = True) -> Odds:
    """Exact distribution of the number of Successes of a Test ("Tests").

    ``dice`` is the base number of dice (at least 1) and ``dice_mod`` the sum
    of Dice Modifiers (the Test never rolls fewer than one die). A Shaken
    model rolls one Rank lower (minimum D6) unless Lead-Belly. Outcomes are
    keyed "0", "1", ... (Successes); ``extra['at_least']`` holds P(>= k).
    ``fractions=False`` skips the exact fractions (faster; ``Odds.fractions`` is None).
    """
    s = _test_setup(rank_or_die, dice, dice_mod, shaken, lead_belly, reading, blessing, rerolls)
    joint = test_joint(s["faces"], s["dice"], reading=reading, blessing=blessing, rerolls=rerolls, fractions=fractions)
    dist = {str(k): Fraction(0) if fractions else 0.0 for k in range(s["dice"] + 1)}
    for (k, _h, _o), p in joint.items():
        dist[str(k)] += p
    return _odds_from_fractions("test", dist, s, extra_fn=_at_least)


def _at_least(fr: Mapping[str, Fraction | float]) -> dict[str, Any]:
    ks = sorted(int(k) for k in fr)
    tail = 0
    at_least: dict[str, float] = {}
    for k in reversed(ks):
        tail += fr[str(k)]
        at_least[str(k)] = float(tail)
    mean = sum(int(k) * p for k, p in fr.items())
    return {"at_least": dict(sorted(at_least.items(), key=lambda kv: int(kv[0]))), "mean": float(mean)}


def _odds_from_fractions(what: str, fr: Mapping[str, Fraction], setup: dict[str, Any],
                         modifiers: Sequence[tuple[str, int]] = (), extra_fn=None, extra=None) -> Odds:
    ex = dict(extra or {})
    if extra_fn is not None:
        ex.update(extra_fn(fr))
    exact = all(isinstance(v, Fraction) for v in fr.values())
    return Odds(what, {k: float(v) for k, v in fr.items()}, dict(fr) if exact else None, None, setup,
                tuple(modifiers), ex)


# ---------------------------------------------------------------------------
# Shooting ("Shoot", "Jamming Checks", "Damage")
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Shooter:
    """The model making a Shooting Attack.

    ``skills``: Skill names (Deadeye, Gunsmith, Trick Shooter, Trigger-Happy,
    Gunslinger, Lead-Belly...); ``whiskey``: it drank Whiskey this Turn (-1
    Die); ``one_eyed``: the Lasting Injury (-1 Die); ``rerolls``: extra
    re-rolls such as Lucky Jackalope's Foot; ``dice_mod``: any further Dice
    Modifier.
    """

    rank: R.Rank
    skills: frozenset[str] = frozenset()
    shaken: bool = False
    whiskey: bool = False
    one_eyed: bool = False
    blessing: R.Blessing = R.Blessing.NONE
    rerolls: int = 0
    dice_mod: int = 0

    @staticmethod
    def of(value: "Shooter | R.Rank | str", **kw: Any) -> "Shooter":
        return _model_of(Shooter, value, kw)


@dataclass(frozen=True)
class Target:
    """The model shot at: Rank, Skills (Tough, Lead-Belly), state and protection.

    ``supernatural``: Silver Bullets give it -1 Save; ``boilerplate``: cancels
    one Success; ``blessing``: a Bless/Curse token spent on its Save;
    ``save_mod``: any further Save Modifier (Bad Omen -1, ...).
    """

    rank: R.Rank
    skills: frozenset[str] = frozenset()
    shaken: bool = False
    boilerplate: bool = False
    supernatural: bool = False
    blessing: R.Blessing = R.Blessing.NONE
    save_mod: int = 0

    @staticmethod
    def of(value: "Target | R.Rank | str", **kw: Any) -> "Target":
        return _model_of(Target, value, kw)


@dataclass(frozen=True)
class Situation:
    """Where the shot is taken: range band and the Shoot Modifiers table's conditions.

    ``trick_shot``: what a Trick Shooter ignores with a Rifle-Class Weapon:
    'long', 'cover' or None (automatic: Long Range if it applies, else Cover).
    ``small_target``: shooting Dynamite in hand or a TNT marker (-1 Die).
    """

    range_band: R.RangeBand = R.RangeBand.MEDIUM
    cover: bool = False
    elevated: bool = False
    back_shooter: bool = False
    small_target: bool = False
    silver_bullets: bool = False
    trick_shot: str | None = None


@dataclass(frozen=True)
class ShotPlan:
    """The kernel's numbers for one shot, and the modifiers that made them."""

    weapon: str
    shooter_die: int
    dice: int
    reading: int
    shooter_mode: int
    rerolls: int
    cancel: int
    target_die: int
    target_die_shaken: int
    target_shaken: int
    save_mod: int
    save_mode: int
    jam_die: int
    jam_rerolls: int
    modifiers: tuple[tuple[str, int], ...]
    save_modifiers: tuple[tuple[str, int], ...]

    def row(self) -> list[int]:
        return [self.shooter_die, self.dice, self.reading, self.shooter_mode, self.rerolls, self.cancel,
                self.target_die, self.target_shaken, self.save_mod, self.save_mode, self.jam_die, self.jam_rerolls]

    def seq_row(self, weapon_id: int) -> list[int]:
        return [self.shooter_die, self.dice, self.reading, self.shooter_mode, self.rerolls, self.cancel,
                self.save_mod, self.jam_die, self.jam_rerolls, weapon_id]


def plan_shot(shooter: Shooter, target: Target, weapon: R.Weapon | str = "Pistol",
              situation: Situation | None = None, *, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING
              ) -> ShotPlan:
    """Turn a Shooting Attack into kernel numbers ("Shoot: 3: Roll to Hit", "4: Target Makes Save if Hit")."""
    w = R.weapon(weapon)
    sit = situation or Situation()
    if w.fire_corridor:
        raise OddsmithError(f"the {w.name} fires a fire corridor (Fire Corridors), not a Shooting Test")
    if not w.stats_known:
        raise OddsmithError(f"the rulebook text gives no ranges or Jam Die for the {w.name}; it cannot be shot here")
    band = R.range_band(sit.range_band)
    skills = shooter.skills
    mods: list[tuple[str, int]] = []
    long_ignored = cover_ignored = False
    if "Trick Shooter" in skills and w.weapon_class is R.WeaponClass.RIFLE:
        choice = (sit.trick_shot or "").lower() or None
        if choice not in (None, "long", "cover"):
            raise OddsmithError(f"Trick Shooter ignores 'long' or 'cover', got {sit.trick_shot!r}")
        if choice == "long" or (choice is None and band is R.RangeBand.LONG):
            long_ignored = band is R.RangeBand.LONG
        elif choice == "cover" or (choice is None and sit.cover):
            cover_ignored = sit.cover
    if band is R.RangeBand.SHORT:
        mods.append((R.ShootModifier.SHORT_RANGE.value.name, band.dice_modifier))
    elif band is R.RangeBand.LONG and not long_ignored:
        mods.append((R.ShootModifier.LONG_RANGE.value.name, band.dice_modifier))
    if w.band_dice.get(band):
        mods.append((f"{w.name} at {band.label} Range", w.band_dice[band]))
    for flag, m in ((sit.cover and not cover_ignored, R.ShootModifier.COVER), (sit.back_shooter, R.ShootModifier.BACK_SHOOTER),
                    (sit.elevated, R.ShootModifier.ELEVATED), (sit.small_target, R.ShootModifier.SMALL_TARGET),
                    (shooter.whiskey, R.ShootModifier.WHISKEY), (shooter.one_eyed, R.ShootModifier.ONE_EYED)):
        if flag:
            mods.append((m.value.name, m.dice))
    for name in sorted(skills):
        if R.skill(name).shoot_dice:
            mods.append((name, R.skill(name).shoot_dice))
    if shooter.dice_mod:
        mods.append(("other Dice Modifiers", shooter.dice_mod))
    lead_belly = any(R.skill(s).ignores_shaken_penalty for s in skills)
    sdie = R.grit_die(shooter.rank, shooter.shaken, lead_belly)
    dice = _count_dice(R.TESTS[R.TestKind.SHOOTING].base_dice, *(v for _, v in mods))

    tskills = target.skills
    t_lead = any(R.skill(s).ignores_shaken_penalty for s in tskills)
    smods: list[tuple[str, int]] = []
    if w.save_modifier(band):
        smods.append((f"{w.name} at {band.label} Range", w.save_modifier(band)))
    for name in sorted(tskills):
        if R.skill(name).save_modifier:
            smods.append((name, R.skill(name).save_modifier))
    if sit.silver_bullets and target.supernatural:
        smods.append(("Silver Bullets", R.gear("Silver Bullets").save_modifier_vs_supernatural))
    if target.save_mod:
        smods.append(("other Save Modifiers", target.save_mod))
    save_mod = _save_mod(sum(v for _, v in smods))
    jam_rr = 1 if any(R.skill(s).rerolls and "Jamming" in R.skill(s).rerolls for s in skills) else 0
    return ShotPlan(
        weapon=w.name, shooter_die=sdie, dice=dice, reading=_READING[R.reroll_reading(reading)],
        shooter_mode=_MODE[shooter.blessing], rerolls=_rerolls(shooter.rerolls),
        cancel=R.gear("Boilerplate").cancels_successes if target.boilerplate else 0,
        target_die=R.grit_die(target.rank, target.shaken, t_lead),
        target_die_shaken=R.grit_die(target.rank, True, t_lead), target_shaken=int(target.shaken),
        save_mod=save_mod, save_mode=_MODE[target.blessing], jam_die=int(w.jam_die), jam_rerolls=jam_rr,
        modifiers=tuple(mods), save_modifiers=tuple(smods))


def shoot_actions(shooter: Shooter) -> int:
    """Shoot Actions the shooter takes with one Weapon in its Activation: two with Trigger-Happy
    ("may Shoot the same Weapon twice in a single Activation", Shooting Skills Table), else one."""
    return 2 if "Trigger-Happy" in shooter.skills else 1


def action_weapons(shooter: Shooter, weapon: R.Weapon | str, second_weapon: R.Weapon | str | None = None
                   ) -> list[tuple[R.Weapon, int]]:
    """The shots fired at one target as (Weapon, weapon number), in order: those of one Shoot
    Action, or of both Actions of a Trigger-Happy Activation (:func:`shoot_actions`).

    A Sixgun or Repeater Rifle "may Shoot twice as one Action"; Trigger-Happy
    shoots the same Weapon again (a second Shoot Action in the same
    Activation); Gunslinger fires two Pistol-Class Weapons as one Action (a
    Sixgun then fires once each).
    """
    w = R.weapon(weapon)
    skills = shooter.skills
    if "Gunslinger" in skills and "Trigger-Happy" in skills and R.GUNSLINGER_EXCLUDES_TRIGGER_HAPPY:
        raise OddsmithError("Trigger-Happy cannot be combined with the Gunslinger Skill")
    if second_weapon is not None:
        w2 = R.weapon(second_weapon)
        if "Gunslinger" not in skills:
            raise OddsmithError("only a Gunslinger fires two Weapons as one Shoot Action")
        for x in (w, w2):
            if x.weapon_class is not R.WeaponClass.PISTOL:
                raise OddsmithError(f"Gunslinger fires two Pistol-Class Weapons; the {x.name} is not one")
        return [(w, 0), (w2, 1)]
    return [(w, 0)] * (w.shots_per_action * shoot_actions(shooter))


def shooting_range(weapon: R.Weapon | str, value: R.RangeBand | str | float) -> tuple[R.RangeBand, float | None]:
    """A range as a user gives it: a band name (short, medium, long: inches None), or inches, mapped to
    ``weapon``'s band by the Weapons tables ("Shoot: 2: Check Range"; 4.5" on a Pistol is Medium: a Target
    between two bands uses the higher one). Out of Long Range is an error naming the Weapon's Long Range."""
    w = R.weapon(weapon)
    if isinstance(value, R.RangeBand):
        return value, None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        inches = float(value)
    else:
        text = str(value).strip().lower()
        bare = text.rstrip('"').removesuffix("in").removesuffix("inches").strip()
        try:
            inches = float(bare)
        except ValueError:
            try:
                return R.range_band(text), None
            except OddsmithError:
                raise OddsmithError(f"--range: give a range band (short, medium, long) or inches (e.g. 10), "
                                    f"got {str(value)!r}") from None
    if not math.isfinite(inches):
        raise OddsmithError(f"--range: give a finite number of inches, got {str(value)!r}")
    if inches < 0:
        raise OddsmithError(f"--range: inches must be 0 or more, got {str(value)!r}")
    inches += 0.0  # -0 is 0
    if not w.stats_known:
        raise OddsmithError(f"--range: the rulebook text gives no ranges for the {w.name}")
    band = w.band_at(inches)
    if band is None:
        raise OddsmithError(f"--range: {inches:g}\" is beyond the {w.name}'s Long Range (up to {w.long}\"): "
                            f"it cannot shoot")
    return band, inches


def range_note(weapon: R.Weapon | str, band: R.RangeBand, inches: float) -> str:
    """'10" is Long Range for the Pistol (over 8", up to 12")': which band a distance in inches chose."""
    w = R.weapon(weapon)
    low, high = w.range_of(band)
    span = f"up to {high:g}\"" if band is R.RangeBand.SHORT else f"over {low:g}\", up to {high:g}\""
    return f"{inches:g}\" is {band.label} Range for the {w.name} ({span})"


def _action_scope(shooter: Shooter) -> dict[str, Any]:
    """What ``extra['action']`` covers: one Shoot Action, or a Trigger-Happy Activation of two."""
    n = shoot_actions(shooter)
    return {"shoot_actions": n, "action_scope": "activation" if n > 1 else "action"}


def _shot_fractions(hi, lo, shi, slo, row: int) -> dict[str, Fraction]:
    scale = (int(shi[row]) << 64) | int(slo[row])
    return {k: Fraction((int(hi[row, j]) << 64) | int(lo[row, j]), scale) for j, k in enumerate(SHOT_OUTCOMES)}


def shot_plans_odds(plans: Sequence[ShotPlan], fractions: bool = False) -> tuple[np.ndarray, list[dict[str, Fraction]] | None]:
    """Exact outcome probabilities (rows x SHOT_OUTCOMES) of many single shots in one kernel call."""
    rows = np.array([p.row() for p in plans], dtype=np.int64).reshape(len(plans), len(_X.SHOT_COLUMNS))
    prob, hi, lo, shi, slo = _X.shot_table(rows, SAVE_TABLE_ARRAY, DAMAGE_ARRAY, SUCCESS_ON, JAM_FACE, fractions)
    if not fractions:
        return prob, None
    return prob, [_shot_fractions(hi, lo, shi, slo, i) for i in range(len(plans))]


def sequence_odds(plan_lists: Sequence[Sequence[tuple[ShotPlan, int]]], fractions: bool = False
                  ) -> tuple[np.ndarray, list[dict[str, Fraction] | None] | None]:
    """Exact final-state probabilities (rows x SEQUENCE_OUTCOMES) of shot sequences at one target."""
    n = len(plan_lists)
    targets = np.zeros((n, len(_X.SEQ_TARGET_COLUMNS)), dtype=np.int64)
    shots = np.zeros((n, MAX_SHOTS, len(_X.SEQ_SHOT_COLUMNS)), dtype=np.int64)
    for i, seq in enumerate(plan_lists):
        if not 1 <= len(seq) <= MAX_SHOTS:
            raise OddsmithError(f"a shot sequence has 1..{MAX_SHOTS} shots, got {len(seq)}")
        p0 = seq[0][0]
        targets[i] = [len(seq), p0.target_die, p0.target_die_shaken, p0.target_shaken]
        for j, (p, wid) in enumerate(seq):
            shots[i, j] = p.seq_row(wid)
    prob, hi, lo, shi, slo, ok = _X.shot_sequence_table(targets, shots, SAVE_TABLE_ARRAY, DAMAGE_ARRAY, SUCCESS_ON,
                                                        JAM_FACE, fractions)
    if not fractions:
        return prob, None
    out: list[dict[str, Fraction] | None] = []
    for i in range(n):
        if not ok[i]:
            out.append(None)
            continue
        scale = (int(shi[i]) << 64) | int(slo[i])
        out.append({k: Fraction((int(hi[i, j]) << 64) | int(lo[i, j]), scale) for j, k in enumerate(SEQUENCE_OUTCOMES)})
    return prob, out


def shoot(shooter: Shooter | R.Rank | str, target: Target | R.Rank | str, weapon: R.Weapon | str = "Pistol", *,
          range_band: R.RangeBand | str = "medium", cover: bool = False, elevated: bool = False,
          back_shooter: bool = False, small_target: bool = False, silver_bullets: bool = False,
          trick_shot: str | None = None, second_weapon: R.Weapon | str | None = None,
          reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, fractions: bool = True) -> Odds:
    """Exact odds of one Shooting Attack, and of the whole Shoot Action when it fires more than once.

    ``outcomes`` (SHOT_OUTCOMES) are the first shot's final result: miss (no
    Successes; includes jam_check: missed with a 1, which includes jammed:
    the Jamming Check failed), cancelled (hit, but Boilerplate cancelled the
    only Success), saved, shaken (newly Shaken), downed, casualty. miss,
    cancelled, saved, shaken, downed and casualty sum to 1. A Shaken target
    Shaken again is Downed. When the Action fires several shots (Sixgun,
    Repeater Rifle, Trigger-Happy, Gunslinger with ``second_weapon``),
    ``extra['action']`` holds the target's final state over all of them
    (SEQUENCE_OUTCOMES; Downed targets are not shot again, a Jammed weapon
    stops firing); with Trigger-Happy those are the two Shoot Actions of one
    Activation, as ``extra['shoot_actions']`` (2) and ``extra['action_scope']``
    ("activation") say.
    """
    sh = Shooter.of(shooter)
    tg = Target.of(target)
    sit = Situation(R.range_band(range_band), cover, elevated, back_shooter, small_target, silver_bullets, trick_shot)
    weapons = action_weapons(sh, weapon, second_weapon)
    plans = [plan_shot(sh, tg, w, sit, reading=reading) for w, _ in weapons]
    prob, fr = shot_plans_odds(plans[:1], fractions)
    p0 = plans[0]
    setup = {"shooter": sh.rank.label, "shooter_die": f"D{p0.shooter_die}", "dice": p0.dice,
             "target": tg.rank.label, "target_die": f"D{p0.target_die}", "target_shaken": tg.shaken,
             "weapon": p0.weapon, "range_band": sit.range_band.value, "save_modifier": p0.save_mod,
             "boilerplate": tg.boilerplate, "jam_die": f"D{p0.jam_die}", "gunsmith": bool(p0.jam_rerolls),
             "reading": R.reroll_reading(reading).value, "shooter_blessing": sh.blessing.value,
             "target_blessing": tg.blessing.value, "shots": len(plans)}
    extra: dict[str, Any] = {"save_modifiers": [{"rule": n, "save": v} for n, v in p0.save_modifiers]}
    if len(plans) > 1:
        sprob, sfr = sequence_odds([[(p, wid) for p, (_, wid) in zip(plans, weapons)]], fractions)
        action = {k: float(sprob[0, j]) for j, k in enumerate(SEQUENCE_OUTCOMES)}
        extra["action"] = action
        if fractions and sfr and sfr[0] is not None:
            extra["action_fractions"] = {k: f"{v.numerator}/{v.denominator}" for k, v in sfr[0].items()}
        extra["action_weapons"] = [w.name for w, _ in weapons]
        extra.update(_action_scope(sh))
    return Odds("shoot", {k: float(prob[0, j]) for j, k in enumerate(SHOT_OUTCOMES)},
                fr[0] if fr else None, None, setup, p0.modifiers, extra)


# ---------------------------------------------------------------------------
# Saves ("Shoot: 4", "Damage") — one die, enumerated
# ---------------------------------------------------------------------------


def save_odds(die: int, target: int, modifier: int = 0, *, shaken: bool = False, one_worse: bool = False,
              blessing: R.Blessing | str | None = None) -> dict[str, Fraction]:
    """Exact result of one Save needing ``target``+ on a D``die`` ("saved", "shaken", "downed", "casualty")."""
    b = _blessing(blessing)
    start = R.ModelState.SHAKEN if shaken else R.ModelState.STANDING
    out = {k: Fraction(0) for k in STATES}

    def result(score: int) -> str:
        d = R.save_result(score, target, modifier)
        if d is None:
            return "saved"
        if one_worse:
            d = d.worse()
        return R.apply_damage(start, d).value.lower()

    for x in range(1, die + 1):
        first = result(x)
        if (b is R.Blessing.BLESS and first != "saved") or (b is R.Blessing.CURSE and first == "saved"):
            for y in range(1, die + 1):
                out[result(y)] += Fraction(1, die * die)
        else:
            out[first] += Fraction(1, die)
    return out


# ---------------------------------------------------------------------------
# Fights ("Fight", "Outnumbered", "Fortified", Skills, Beast Forms)
# ---------------------------------------------------------------------------

BEAST_FORMS = ("wolf", "bear")
DEFAULT_BASE_MM = R.BASE_MM
BEAST_FORM_BASE_MM = R.BEAST_FORM_BASE_MM


@dataclass(frozen=True)
class Fighter:
    """One model in a Fight.

    ``outnumbered``: unengaged enemies in Contact after the first (-1 Die each
    unless 'Ornery); ``form``: a Skinwalker's Beast Form, 'wolf' or 'bear'
    (Fearsome, 40mm base, no Weapons or Gear); ``close_work_pistols``: unjammed
    Pistol-Class Weapons used with Close Work (+1 each, at most 2);
    ``derringer``: its once-per-game +1; ``weakened``: the Lasting Injury;
    ``whiskey``: passes Nerve Tests (Fearsome); ``axe``: wields the Woodsman's
    Axe; ``supernatural``/``fearsome`` for Fearsome; ``base_mm`` for the
    bear-hug.
    """

    rank: R.Rank
    skills: frozenset[str] = frozenset()
    shaken: bool = False
    form: str | None = None
    outnumbered: int = 0
    close_work_pistols: int = 0
    derringer: bool = False
    weakened: bool = False
    whiskey: bool = False
    axe: bool = False
    blessing: R.Blessing = R.Blessing.NONE
    dice_mod: int = 0
    save_mod: int = 0
    base_mm: int | None = None

    @staticmethod
    def of(value: "Fighter | R.Rank | str", **kw: Any) -> "Fighter":
        if not isinstance(value, Fighter) and kw.get("form") is not None:
            kw = {**kw, "form": str(kw["form"]).lower()}
        return _model_of(Fighter, value, kw)

    @property
    def fearsome(self) -> bool:
        return self.form is not None or any(R.skill(s).fearsome for s in self.skills)

    @property
    def base(self) -> int:
        if self.base_mm is not None:
            return self.base_mm
        return BEAST_FORM_BASE_MM if self.form else DEFAULT_BASE_MM


@dataclass(frozen=True)
class FightPlan:
    attacker: list[int]
    defender: list[int]
    reading: int
    attacker_mods: tuple[tuple[str, int], ...]
    defender_mods: tuple[tuple[str, int], ...]
    attacker_save_mods: tuple[tuple[str, int], ...]
    defender_save_mods: tuple[tuple[str, int], ...]
    mc_attacker: list[int]
    mc_defender: list[int]


def _fight_dice_mods(f: Fighter, attacking: bool, charging: bool, fortified: bool) -> list[tuple[str, int]]:
    if f.form is not None and f.form not in BEAST_FORMS:
        raise OddsmithError(f"unknown Beast Form {f.form!r}; Skinwalker Beast Forms are Wolf and Bear")
    if f.outnumbered < 0:
        raise OddsmithError(f"outnumbered counts enemies after the first, got {f.outnumbered}")
    mods: list[tuple[str, int]] = []
    if attacking and charging:
        mods.append((R.FightModifier.CHARGING.value.name, R.FightModifier.CHARGING.dice))
    if attacking and fortified:
        mods.append((R.FightModifier.FORTIFIED.value.name, R.FightModifier.FORTIFIED.dice))
    ornery = any(R.skill(s).ignores_outnumbered for s in f.skills)
    if f.outnumbered and not ornery:
        mods.append((R.FightModifier.OUTNUMBERED.value.name, R.FightModifier.OUTNUMBERED.dice * f.outnumbered))
    for name in sorted(f.skills):
        if R.skill(name).fight_dice:
            mods.append((name, R.skill(name).fight_dice))
    if f.form is not None and (f.close_work_pistols or f.derringer or f.axe):
        raise OddsmithError("a Skinwalker in Beast Form cannot use Weapons or Gear")
    if f.close_work_pistols:
        if not any(R.skill(s).close_work for s in f.skills):
            raise OddsmithError("only a model with Close Work uses Pistols in a Fight")
        if not 0 < f.close_work_pistols <= R.CLOSE_WORK_MAX_PISTOLS:
            raise OddsmithError(f"Close Work uses 1 or {R.CLOSE_WORK_MAX_PISTOLS} Pistols, got {f.close_work_pistols}")
        if f.close_work_pistols == R.CLOSE_WORK_MAX_PISTOLS and f.derringer:
            raise OddsmithError("two Pistols with Close Work cannot be combined with a Derringer")
        mods.append((R.FightModifier.CLOSE_WORK.value.name, R.FightModifier.CLOSE_WORK.dice * f.close_work_pistols))
    if f.derringer:
        mods.append((R.FightModifier.DERRINGER.value.name, R.gear("Derringer").fight_dice))
    if f.weakened:
        mods.append((R.FightModifier.WEAKENED.value.name, R.FightModifier.WEAKENED.dice))
    if f.form == "wolf" and attacking:
        mods.append((R.FightModifier.WOLF_FORM.value.name, R.WOLF_FORM_ATTACK_DICE))
    if f.dice_mod:
        mods.append(("other Dice Modifiers", f.dice_mod))
    return mods


def _loser_save_mods(loser: Fighter, winner: Fighter, winner_charged: bool) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    for name in sorted(loser.skills):
        if R.skill(name).save_modifier:
            mods.append((name, R.skill(name).save_modifier))
    if winner_charged:
        for name in sorted(winner.skills):
            if R.skill(name).charge_win_save_modifier:
                mods.append((name, R.skill(name).charge_win_save_modifier))
    if winner.form == "bear":
        mods.append((R.SaveModifier.BEAR_FORM.value[0], R.BEAR_FORM_WIN_SAVE_MODIFIER))
    if winner.axe:
        mods.append(("Woodsman's Axe", R.weapon("Woodsman's Axe").fight_save))
    if loser.save_mod:
        mods.append(("other Save Modifiers", loser.save_mod))
    return mods


def plan_fight(attacker: Fighter, defender: Fighter, *, charging: bool = False, fortified: bool = False,
               reading: R.RerollReading | str = R.DEFAULT_REROLL_READING) -> FightPlan:
    """Turn a Fight into kernel numbers ("Fight: 2" and "3: Loser Makes a Save")."""
    rd = _READING[R.reroll_reading(reading)]
    sides = []
    for me, other, attacking in ((attacker, defender, True), (defender, attacker, False)):
        mods = _fight_dice_mods(me, attacking, charging, fortified)
        lead = any(R.skill(s).ignores_shaken_penalty for s in me.skills)
        die = R.grit_die(me.rank, me.shaken, lead)
        base = R.TESTS[R.TestKind.FIGHT].base_dice
        dice = _count_dice(base, *(v for _, v in mods))
        # Fearsome: "Enemy models wishing to Fight this model" - the Attacker - "must pass a 1 Die Nerve Test or
        # suffer a -1 Die Modifier"; other Fearsome models ignore it; Whiskey passes every Nerve Test.
        nerve = attacking and other.fearsome and not me.fearsome
        nerve_rr = 1 if any(R.skill(s).rerolls and "Nerve" in R.skill(s).rerolls for s in me.skills) else 0
        if nerve and not me.whiskey:
            fear_mod = R.FightModifier.FEARSOME.dice
            dice_failed = _count_dice(base, *(v for _, v in mods), fear_mod)
            nj = test_joint(die, R.FEARSOME_NERVE_DICE, reading=reading, rerolls=nerve_rr)
            p_pass = sum((p for (s, _h, _o), p in nj.items() if s >= R.TESTS[R.TestKind.NERVE].successes_needed),
                         Fraction(0))
            scale = die ** (2 * R.FEARSOME_NERVE_DICE)
            wpass = int(p_pass * scale)
            nerve_cols = [dice_failed, wpass, scale - wpass, scale]
            mc_nerve = [dice_failed, die, nerve_rr, 0]
        else:
            nerve_cols = [dice, 1, 0, 1]
            mc_nerve = [dice, 0, 0, 1]
        winner_charged = charging and not attacking  # the other side is the attacker: it charged
        smods = _loser_save_mods(me, other, winner_charged)
        save_mod = _save_mod(sum(v for _, v in smods))
        worse = R.BEAR_HUG_MARGIN if (other.form == "bear" and me.base < other.base) else 0
        tail = [_MODE[me.blessing], die, save_mod, int(me.shaken), worse]
        sides.append(([die, dice] + nerve_cols + tail, [die, dice] + mc_nerve + tail, mods, smods))
    (a, ma, am, asm), (d, md, dm, dsm) = sides
    return FightPlan(a, d, rd, tuple(am), tuple(dm), tuple(asm), tuple(dsm), ma, md)


def fight_plans_odds(plans: Sequence[FightPlan], fractions: bool = False
                     ) -> tuple[np.ndarray, np.ndarray, list[dict[str, Fraction] | None] | None]:
    """Exact Fight outcome probabilities (rows x FIGHT_OUTCOMES) and winning margins (rows x 2 x MAX_DICE+1)."""
    att = np.array([p.attacker for p in plans], dtype=np.int64).reshape(len(plans), -1)
    dfn = np.array([p.defender for p in plans], dtype=np.int64).reshape(len(plans), -1)
    rd = np.array([p.reading for p in plans], dtype=np.int64)
    prob, margins, hi, lo, shi, slo, ok = _X.fight_table(att, dfn, rd, SAVE_TABLE_ARRAY, DAMAGE_ARRAY, SUCCESS_ON,
                                                         fractions)
    if not fractions:
        return prob, margins, None
    out: list[dict[str, Fraction] | None] = []
    names = list(FIGHT_OUTCOMES) + [f"attacker_by_{k}" for k in range(MAX_DICE + 1)] + \
        [f"defender_by_{k}" for k in range(MAX_DICE + 1)]
    for i in range(len(plans)):
        if not ok[i]:
            out.append(None)
            continue
        scale = (int(shi[i]) << 64) | int(slo[i])
        out.append({k: Fraction((int(hi[i, j]) << 64) | int(lo[i, j]), scale) for j, k in enumerate(names)})
    return prob, margins, out


def fight(attacker: Fighter | R.Rank | str, defender: Fighter | R.Rank | str, *, charging: bool = False,
          fortified: bool = False, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
          fractions: bool = True) -> Odds:
    """Exact odds of a Fight: both 3 Dice Fight Tests, the highest-die tie-break, the loser's Save.

    Outcomes (FIGHT_OUTCOMES): draw, attacker_wins, defender_wins, and the
    loser's result (defender_saved/shaken/downed/casualty when the attacker
    wins, attacker_... when the defender wins); the eight loser results and
    draw sum to 1. ``extra['margins']`` gives P(win by k) for each side
    (a Shove pushes the loser 1" per Success lost by).
    """
    a = Fighter.of(attacker)
    d = Fighter.of(defender)
    plan = plan_fight(a, d, charging=charging, fortified=fortified, reading=reading)
    prob, margins, fr = fight_plans_odds([plan], fractions)
    outcomes = {k: float(prob[0, j]) for j, k in enumerate(FIGHT_OUTCOMES)}
    fr0 = fr[0] if fr else None
    extra = {
        "margins": {side: {str(k): float(margins[0, i, k]) for k in range(1, MAX_DICE + 1) if margins[0, i, k] > 0}
                    for i, side in enumerate(("attacker", "defender"))},
        "attacker_save_modifiers": [{"rule": n, "save": v} for n, v in plan.attacker_save_mods],
        "defender_save_modifiers": [{"rule": n, "save": v} for n, v in plan.defender_save_mods],
        "defender_modifiers": [{"rule": n, "dice": v} for n, v in plan.defender_mods],
    }
    setup = {"attacker": a.rank.label, "attacker_die": f"D{plan.attacker[0]}", "attacker_dice": plan.attacker[1],
             "defender": d.rank.label, "defender_die": f"D{plan.defender[0]}", "defender_dice": plan.defender[1],
             "attacker_fearsome_test": plan.attacker[4] > 0, "charging": charging, "fortified": fortified,
             "attacker_form": a.form, "defender_form": d.form, "reading": R.reroll_reading(reading).value}
    return Odds("fight", outcomes, {k: fr0[k] for k in FIGHT_OUTCOMES} if fr0 else None, None, setup,
                plan.attacker_mods, extra)


# ---------------------------------------------------------------------------
# Recovery, Bottle Checks, Casting, Dynamite: Tests mapped through the book's tables
# ---------------------------------------------------------------------------


def _map_joint(joint: Mapping[tuple[int, int, int], Any], names: Sequence[str], fn) -> dict[str, Any]:
    exact = all(isinstance(v, Fraction) for v in joint.values())
    out = {k: Fraction(0) if exact else 0.0 for k in names}
    for key, p in joint.items():
        out[fn(*key)] += p
    return out


RECOVERY_OUTCOMES = ("casualty", "remains_downed", "stands_shaken")
_RECOVERY_KEY = {R.RecoveryResult.CASUALTY: "casualty", R.RecoveryResult.REMAINS_DOWNED: "remains_downed",
                 R.RecoveryResult.STANDS_SHAKEN: "stands_shaken"}


def _recovery_setup(rank, shaken, friend_in_contact, skills, dice_mod, reading, blessing):
    sk = _skills(skills)
    lead = any(R.skill(s).ignores_shaken_penalty for s in sk)
    mods = []
    if friend_in_contact:
        mods.append(("friendly model in Contact", R.RECOVERY_FRIEND_IN_CONTACT))
    if dice_mod:
        mods.append(("other Dice Modifiers", dice_mod))
    die = R.grit_die(R.rank(rank), shaken, lead)
    dice = _count_dice(R.TESTS[R.TestKind.RECOVERY].base_dice, *(v for _, v in mods))
    auto = any(R.skill(s).auto_recovers for s in sk)
    setup = {"rank": R.rank(rank).label, "die": f"D{die}", "dice": dice, "shaken": shaken,
             "hard_to_kill": auto, "reading": R.reroll_reading(reading).value, "blessing": _blessing(blessing).value}
    return die, dice, auto, mods, setup


def recovery(rank: R.Rank | str, *, shaken: bool = False, friend_in_contact: bool = False,
             skills: Iterable[str] = (), dice_mod: int = 0, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
             blessing: R.Blessing | str | None = None, fractions: bool = True) -> Odds:
    """Exact odds of a Downed model's 3 Dice Recovery Test ("The Recovery Phase: 2").

    0 Successes: casualty; 1-2: remains_downed; 3+: stands_shaken (the
    book's RECOVERY_TABLE). A friend in Contact gives +1 Die; a Shaken model
    rolls one Rank lower; Hard to Kill stands up Shaken automatically.
    """
    die, dice, auto, mods, setup = _recovery_setup(rank, shaken, friend_in_contact, skills, dice_mod, reading, blessing)
    if auto:
        fr = {k: Fraction(int(k == "stands_shaken")) for k in RECOVERY_OUTCOMES}
    else:
        joint = test_joint(die, dice, reading=reading, blessing=blessing, fractions=fractions)
        fr = _map_joint(joint, RECOVERY_OUTCOMES, lambda s, h, o: _RECOVERY_KEY[R.recovery_result(s)])
    return _odds_from_fractions("recover", fr, setup, mods)


BOTTLE_OUTCOMES = ("fights_on", "bottles_out")


def _bottle_setup(rank, boss, shaken, skills, preacher, whiskey, reading, blessing):
    sk = _skills(skills)
    lead = any(R.skill(s).ignores_shaken_penalty for s in sk)
    die = R.grit_die(R.rank(rank), shaken, lead)
    dice = R.BOTTLE_CHECK_BOSS_DICE if boss else R.BOTTLE_CHECK_STAND_IN_DICE
    rr = (1 if any(R.skill(s).rerolls and "Nerve" in R.skill(s).rerolls for s in sk) else 0) + (1 if preacher else 0)
    setup = {"rank": R.rank(rank).label, "die": f"D{die}", "dice": dice, "boss": boss, "shaken": shaken,
             "rerolls": rr, "whiskey": whiskey, "reading": R.reroll_reading(reading).value,
             "blessing": _blessing(blessing).value}
    return die, dice, rr, setup


def bottle_check(rank: R.Rank | str, *, boss: bool = True, shaken: bool = False, skills: Iterable[str] = (),
                 preacher: bool = False, whiskey: bool = False,
                 reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                 blessing: R.Blessing | str | None = None, fractions: bool = True) -> Odds:
    """Exact odds of a Bottle Check ("The Recovery Phase: 3: Bottle Checks").

    The Boss rolls an unmodified 3 Dice Nerve Test (``boss=False``: the next
    highest Rank rolls 1 Die); at least one Success and the Posse fights on.
    Nerves of Steel and a Preacher each re-roll one (different) die; Whiskey
    passes it automatically.
    """
    die, dice, rr, setup = _bottle_setup(rank, boss, shaken, skills, preacher, whiskey, reading, blessing)
    need = R.TESTS[R.TestKind.BOTTLE_CHECK].successes_needed
    if whiskey:
        fr = {"fights_on": Fraction(1), "bottles_out": Fraction(0)}
    else:
        joint = test_joint(die, dice, reading=reading, blessing=blessing, rerolls=rr, fractions=fractions)
        fr = _map_joint(joint, BOTTLE_OUTCOMES, lambda s, h, o: "fights_on" if s >= need else "bottles_out")
    return _odds_from_fractions("bottle", fr, setup)


CAST_OUTCOMES = ("cast", "failed", "miscast")


def _cast_setup(rank, power, difficulty, shaken, skills, concentrate, grimoire, harbinger, arcane_storm,
                unique_summoning, holy_symbol, dice_mod, reading, blessing):
    p = R.arcane_power(power) if power is not None else None
    if difficulty is None:
        if p is None:
            raise OddsmithError("give an Arcane Power or a Difficulty")
        difficulty = p.difficulty
    elif p is not None and difficulty not in p.difficulties:
        raise OddsmithError(f"{p.name} has Difficulty {', '.join(map(str, p.difficulties))}, not {difficulty}")
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty < 1:
        raise OddsmithError(f"a Power's Difficulty is at least 1, got {difficulty!r}")
    sk = _skills(skills)
    lead = any(R.skill(s).ignores_shaken_penalty for s in sk)
    mods = []
    for flag, m in ((concentrate, R.CastingModifier.CONCENTRATE), (grimoire, R.CastingModifier.GRIMOIRE),
                    (harbinger, R.CastingModifier.HARBINGER), (arcane_storm, R.CastingModifier.ARCANE_STORM),
                    (unique_summoning, R.CastingModifier.UNIQUE_SUMMONING)):
        if flag:
            mods.append((m.value.name, m.dice))
    if dice_mod:
        mods.append(("other Dice Modifiers", dice_mod))
    die = R.grit_die(R.rank(rank), shaken, lead)
    dice = _count_dice(R.CASTING_DICE, *(v for _, v in mods))
    setup = {"rank": R.rank(rank).label, "die": f"D{die}", "dice": dice, "power": p.name if p else None,
             "difficulty": difficulty, "shaken": shaken, "arcane_storm": arcane_storm, "holy_symbol": holy_symbol,
             "reading": R.reroll_reading(reading).value, "blessing": _blessing(blessing).value}
    return die, dice, difficulty, mods, setup


def cast(rank: R.Rank | str, power: R.ArcanePower | str | None = None, *, difficulty: int | None = None,
         shaken: bool = False, skills: Iterable[str] = (), concentrate: bool = False, grimoire: bool = False,
         harbinger: bool = False, arcane_storm: bool = False, unique_summoning: bool = False,
         holy_symbol: bool = False, dice_mod: int = 0, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
         blessing: R.Blessing | str | None = None, fractions: bool = True) -> Odds:
    """Exact odds of a 3 Dice Casting Test ("Casting Powers", "Arcane Power Summary").

    cast: Successes >= Difficulty; miscast: no Successes and a die showing 1
    (the Caster becomes Shaken, Downed if already Shaken, a Casualty in an
    Arcane Storm: ``extra['caster']``); failed: anything else. A Holy Symbol
    cannot Miscast.
    """
    die, dice, diff, mods, setup = _cast_setup(rank, power, difficulty, shaken, skills, concentrate, grimoire,
                                               harbinger, arcane_storm, unique_summoning, holy_symbol, dice_mod,
                                               reading, blessing)
    joint = test_joint(die, dice, reading=reading, blessing=blessing, fractions=fractions)

    def key(s, h, o):
        if s >= diff:
            return "cast"
        if not holy_symbol and s == 0 and o:
            return "miscast"
        return "failed"

    fr = _map_joint(joint, CAST_OUTCOMES, key)
    return _odds_from_fractions("cast", fr, setup, mods, extra={"caster": _miscast_result(shaken, arcane_storm)})


def _miscast_result(shaken: bool, arcane_storm: bool) -> str:
    if arcane_storm:
        return "casualty"
    return R.apply_damage(R.ModelState.SHAKEN if shaken else R.ModelState.STANDING, R.Damage.SHAKEN).value.lower()


DYNAMITE_OUTCOMES = tuple(o.name.lower() for o in R.DynamiteOutcome)


def dynamite(rank: R.Rank | str, *, shaken: bool = False, skills: Iterable[str] = (),
             reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, blessing: R.Blessing | str | None = None,
             rerolls: int = 0, fractions: bool = True) -> Odds:
    """Exact odds of a Dynamite throw: an unmodified 1 Die Shooting Test ("Dynamite").

    A Success explodes on the target point; a Failure's score picks the
    book's result (DynamiteOutcome). ``extra['scatter']`` gives the D6"
    scatter distance; ``extra['blast']`` the 7+ Save of a model caught in the
    blast, for each Rank (fresh or Shaken), fully or partly within 3".
    """
    sk = _skills(skills)
    lead = any(R.skill(s).ignores_shaken_penalty for s in sk)
    die = R.grit_die(R.rank(rank), shaken, lead)
    dice = R.TESTS[R.TestKind.DYNAMITE_THROW].base_dice
    joint = test_joint(die, dice, reading=reading, blessing=blessing, rerolls=rerolls, fractions=fractions)
    fr = _map_joint(joint, DYNAMITE_OUTCOMES, lambda s, h, o: R.dynamite_throw(h).name.lower())
    setup = {"rank": R.rank(rank).label, "die": f"D{die}", "dice": dice, "shaken": shaken,
             "blessing": _blessing(blessing).value}
    scatter = {str(k): float(Fraction(1, R.DYNAMITE_SCATTER_DIE)) for k in range(1, R.DYNAMITE_SCATTER_DIE + 1)}
    return _odds_from_fractions("dynamite", fr, setup, extra={"scatter_inches": scatter, "blast": blast_table_records()})


def blast_odds(rank: R.Rank | str, *, shaken: bool = False, partly: bool = False, skills: Iterable[str] = (),
               reading: R.RerollReading | str = R.DEFAULT_REROLL_READING) -> dict[str, Fraction]:
    """A model caught in a Dynamite blast ("Ka-Boom!"): a 7+ Save; partly within 3": a 1 Die Reaction
    Test first, a Success avoids the Save. Keys: STATES (saved includes avoided)."""
    sk = _skills(skills)
    lead = any(R.skill(s).ignores_shaken_penalty for s in sk)
    die = R.grit_die(R.rank(rank), shaken, lead)
    mod = sum(R.skill(s).save_modifier for s in sk)
    sv = save_odds(die, R.DYNAMITE_BLAST_SAVE, _save_mod(mod), shaken=shaken)
    if not partly:
        return sv
    j = test_joint(die, R.TESTS[R.TestKind.REACTION].base_dice if R.TESTS[R.TestKind.REACTION].base_dice else 1,
                   reading=reading)
    avoid = sum((p for (s, _h, _o), p in j.items() if s >= 1), Fraction(0))
    out = {k: (1 - avoid) * v for k, v in sv.items()}
    out["saved"] += avoid
    return out


@functools.lru_cache(maxsize=1)
def _blast_records() -> tuple[dict[str, Any], ...]:
    return tuple(_blast_rows())


def blast_table_records() -> list[dict[str, Any]]:
    """The blast Saves of every Rank, Shaken or not, fully or partly within 3" (as :func:`~oddsmith.shadows.tables.blast_table`)."""
    return [dict(r) for r in _blast_records()]


def _blast_rows() -> list[dict[str, Any]]:
    """The blast Saves of every Rank, Shaken or not, fully or partly within 3" (as :func:`~oddsmith.shadows.tables.blast_table`)."""
    rows = []
    for rk in R.Rank:
        for sh in (False, True):
            for partly in (False, True):
                b = blast_odds(rk, shaken=sh, partly=partly)
                rows.append({"rank": rk.label, "shaken": sh, "within": "partly" if partly else "fully",
                             **{("shaken_result" if k == "shaken" else k): float(v) for k, v in b.items()}})
    return rows


# ---------------------------------------------------------------------------
# Monte Carlo: the same quantities, sampled (seeded, chunked, worker-count independent)
# ---------------------------------------------------------------------------


def _mc(kernel_call, size: int, trials: int, seed: int | None, workers: int, label: str,
        stream: str | None = None) -> tuple[np.ndarray, int]:
    """Counts summed over the chunks; ``stream`` names the stage of a several-stage figure (its own spawn keys)."""
    trials = check_trials(int(trials))
    workers = check_workers(int(workers))
    sd = resolve_seed(seed)
    plan = SamplingPlan(seed=sd, trials=trials, stream=() if stream is None else stream_key(stream))

    def work(gen, n):
        out = np.zeros(size, dtype=np.int64)
        kernel_call(gen, n, out)
        return out

    parts = run_chunks(work, plan, workers=workers, label=label)
    return np.sum(np.stack(parts), axis=0), sd


def _mc_odds(what: str, counts: Mapping[str, int], trials: int, seed: int, setup: dict[str, Any],
             modifiers=(), extra=None) -> Odds:
    probs = {k: c / trials for k, c in counts.items()}
    se = {k: float(binomial_stderr(p, trials)) for k, p in probs.items()}
    return Odds(what, probs, None, se, setup, tuple(modifiers), dict(extra or {}), exact=False, trials=trials, seed=seed)


def simulate_test_joint(die: int, dice: int, *, reading=R.DEFAULT_REROLL_READING, blessing=None, rerolls: int = 0,
                        trials: int = 1_000_000, seed: int | None = None, workers: int = 1
                        ) -> tuple[np.ndarray, int, int]:
    """Monte Carlo counts of (successes, highest die, any die showing 1): array (dice+1, die+1, 2), trials, seed."""
    D = _die(die)
    n = _count_dice(dice)
    rd, md, rr = _READING[R.reroll_reading(reading)], _MODE[_blessing(blessing)], _rerolls(rerolls)
    size = (n + 1) * (D + 1) * 2
    counts, sd = _mc(lambda g, k, out: _M.mc_test(g, D, SUCCESS_ON, JAM_FACE, n, rd, md, rr, k, out),
                     size, trials, seed, workers, "rolling tests")
    return counts.reshape(n + 1, D + 1, 2), int(trials), sd


def simulate_successes(die: int, dice: int, *, reading=R.DEFAULT_REROLL_READING, trials: int = 1_000_000,
                       seed: int | None = None, workers: int = 1) -> Odds:
    """Monte Carlo success distribution of a plain Test (the fast kernel): outcomes "0".."n" with stderr."""
    D = _die(die)
    n = _count_dice(dice)
    rd = _READING[R.reroll_reading(reading)]
    counts, sd = _mc(lambda g, k, out: _M.mc_successes(g, D, SUCCESS_ON, n, rd, k, out), n + 1, trials, seed,
                     workers, "rolling tests")
    return _mc_odds("test", {str(k): int(counts[k]) for k in range(n + 1)}, int(trials), sd,
                    {"die": f"D{D}", "dice": n, "reading": R.reroll_reading(reading).value})


def simulate_test(rank_or_die, dice: int = 3, *, dice_mod: int = 0, shaken: bool = False, lead_belly: bool = False,
                  reading=R.DEFAULT_REROLL_READING, blessing=None, rerolls: int = 0, trials: int = 1_000_000,
                  seed: int | None = None, workers: int = 1) -> Odds:
    """Monte Carlo twin of :func:`test_distribution` (outcomes "0".."n", with standard errors)."""
    s = _test_setup(rank_or_die, dice, dice_mod, shaken, lead_belly, reading, blessing, rerolls)
    c, n, sd = simulate_test_joint(s["faces"], s["dice"], reading=reading, blessing=blessing, rerolls=rerolls,
                                   trials=trials, seed=seed, workers=workers)
    per = c.sum(axis=(1, 2))
    return _mc_odds("test", {str(k): int(per[k]) for k in range(len(per))}, n, sd, s)


def simulate_shot(plan: ShotPlan, *, trials: int = 1_000_000, seed: int | None = None, workers: int = 1,
                  stream: str | None = None) -> Odds:
    """Monte Carlo outcomes of one Shooting Attack (SHOT_OUTCOMES) for a :func:`plan_shot` plan
    (``stream``: the named stage of a larger figure, :func:`oddsmith.sampling.stream_key`)."""
    row = np.array(plan.row(), dtype=np.int64)
    counts, sd = _mc(lambda g, k, out: _M.mc_shot(g, row, SAVE_TABLE_ARRAY, DAMAGE_ARRAY, SUCCESS_ON, JAM_FACE, k, out),
                     8, trials, seed, workers, "shooting", stream)
    return _mc_odds("shoot", {k: int(counts[j]) for j, k in enumerate(SHOT_OUTCOMES)}, int(trials), sd,
                    {"dice": plan.dice, "shooter_die": f"D{plan.shooter_die}", "target_die": f"D{plan.target_die}"},
                    plan.modifiers)


def simulate_sequence(shots: Sequence[tuple[ShotPlan, int]], *, trials: int = 1_000_000, seed: int | None = None,
                      workers: int = 1, stream: str | None = None) -> Odds:
    """Monte Carlo final state of a target after a sequence of shots (SEQUENCE_OUTCOMES; shots_fired is a mean)."""
    if not 1 <= len(shots) <= MAX_SHOTS:
        raise OddsmithError(f"a shot sequence has 1..{MAX_SHOTS} shots, got {len(shots)}")
    p0 = shots[0][0]
    target = np.array([len(shots), p0.target_die, p0.target_die_shaken, p0.target_shaken], dtype=np.int64)
    rows = np.array([p.seq_row(w) for p, w in shots], dtype=np.int64)
    counts, sd = _mc(lambda g, k, out: _M.mc_shot_sequence(g, target, rows, SAVE_TABLE_ARRAY, DAMAGE_ARRAY,
                                                            SUCCESS_ON, JAM_FACE, k, out),
                     6, trials, seed, workers, "shooting", stream)
    odds = _mc_odds("shoot", {k: int(counts[j]) for j, k in enumerate(SEQUENCE_OUTCOMES[:5])}, int(trials), sd, {})
    # shots fired is a mean, not a proportion: its standard error needs the per-trial spread,
    # bounded here by the largest possible spread (shots in 0..K)
    mean = counts[5] / trials
    odds.outcomes["shots_fired"] = float(mean)
    odds.stderr["shots_fired"] = float(len(shots) / 2 / np.sqrt(trials))
    return odds


def simulate_fight(attacker: "FightPlan | Fighter | R.Rank | str", defender: "Fighter | R.Rank | str | None" = None, *,
                   charging: bool = False, fortified: bool = False,
                   reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, trials: int = 1_000_000,
                   seed: int | None = None, workers: int = 1) -> Odds:
    """Monte Carlo twin of :func:`fight` (FIGHT_OUTCOMES, extra['margins']); takes a plan or two Fighters."""
    if isinstance(attacker, FightPlan):
        plan = attacker
    else:
        if defender is None:
            raise OddsmithError("simulate_fight needs a defender")
        plan = plan_fight(Fighter.of(attacker), Fighter.of(defender), charging=charging, fortified=fortified,
                          reading=reading)
    a = np.array(plan.mc_attacker, dtype=np.int64)
    d = np.array(plan.mc_defender, dtype=np.int64)
    size = 11 + 2 * (MAX_DICE + 1)
    counts, sd = _mc(lambda g, k, out: _M.mc_fight(g, a, d, plan.reading, SAVE_TABLE_ARRAY, DAMAGE_ARRAY, SUCCESS_ON,
                                                   k, out), size, trials, seed, workers, "fighting")
    setup = {"attacker_die": f"D{plan.attacker[0]}", "attacker_dice": plan.attacker[1],
             "defender_die": f"D{plan.defender[0]}", "defender_dice": plan.defender[1],
             "attacker_fearsome_test": plan.attacker[4] > 0, "charging": charging, "fortified": fortified}
    odds = _mc_odds("fight", {k: int(counts[j]) for j, k in enumerate(FIGHT_OUTCOMES)}, int(trials), sd, setup,
                    plan.attacker_mods)
    margins = {}
    for i, side in enumerate(("attacker", "defender")):
        base = 11 + i * (MAX_DICE + 1)
        margins[side] = {str(k): float(counts[base + k] / trials) for k in range(1, MAX_DICE + 1) if counts[base + k]}
    odds.extra["margins"] = margins
    return odds


SHOOT_STREAMS = ("shot", "action")
"""The named stages of :func:`simulate_shoot`: the first Shooting Attack, then the whole Action."""


def simulate_shoot(shooter: Shooter | R.Rank | str, target: Target | R.Rank | str, weapon: R.Weapon | str = "Pistol", *,
                   range_band: R.RangeBand | str = "medium", cover: bool = False, elevated: bool = False,
                   back_shooter: bool = False, small_target: bool = False, silver_bullets: bool = False,
                   trick_shot: str | None = None, second_weapon: R.Weapon | str | None = None,
                   reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, trials: int = 1_000_000,
                   seed: int | None = None, workers: int = 1) -> Odds:
    """Monte Carlo twin of :func:`shoot`: the first shot's SHOT_OUTCOMES, and extra['action'] (with
    extra['action_stderr']) when the Action fires several shots."""
    sh = Shooter.of(shooter)
    tg = Target.of(target)
    sit = Situation(R.range_band(range_band), cover, elevated, back_shooter, small_target, silver_bullets, trick_shot)
    weapons = action_weapons(sh, weapon, second_weapon)
    plans = [plan_shot(sh, tg, w, sit, reading=reading) for w, _ in weapons]
    # each stage draws from its own named stream of the one seed (never seed + 1: that is another seed's)
    odds = simulate_shot(plans[0], trials=trials, seed=seed, workers=workers, stream=SHOOT_STREAMS[0])
    p0 = plans[0]
    odds.setup.update({"shooter": sh.rank.label, "target": tg.rank.label, "weapon": p0.weapon,
                       "range_band": sit.range_band.value, "save_modifier": p0.save_mod, "jam_die": f"D{p0.jam_die}",
                       "reading": R.reroll_reading(reading).value, "shots": len(plans)})
    if len(plans) > 1:
        seq = simulate_sequence([(p, wid) for p, (_, wid) in zip(plans, weapons)], trials=trials,
                                seed=odds.seed, workers=workers, stream=SHOOT_STREAMS[1])
        odds.extra["action_seed"] = seq.seed
        odds.extra["streams"] = list(SHOOT_STREAMS)
        odds.extra["action"] = dict(seq.outcomes)
        odds.extra["action_stderr"] = dict(seq.stderr)
        odds.extra["action_weapons"] = [w.name for w, _ in weapons]
        odds.extra.update(_action_scope(sh))
    return odds


def simulate_mapped(what: str, die: int, dice: int, names: Sequence[str], fn, *, reading=R.DEFAULT_REROLL_READING,
                    blessing=None, rerolls: int = 0, trials: int = 1_000_000, seed: int | None = None,
                    workers: int = 1, setup=None, modifiers=()) -> Odds:
    """Monte Carlo of a Test mapped to outcomes by ``fn(successes, highest, one)`` (recovery, bottle, cast, ...)."""
    c, n, sd = simulate_test_joint(die, dice, reading=reading, blessing=blessing, rerolls=rerolls, trials=trials,
                                   seed=seed, workers=workers)
    counts = {k: 0 for k in names}
    for idx in zip(*np.nonzero(c)):
        counts[fn(*(int(i) for i in idx))] += int(c[idx])
    return _mc_odds(what, counts, n, sd, dict(setup or {}), modifiers)


def simulate_recovery(rank, *, shaken=False, friend_in_contact=False, skills=(), dice_mod=0,
                      reading=R.DEFAULT_REROLL_READING, blessing=None, trials=1_000_000, seed=None, workers=1) -> Odds:
    """Monte Carlo twin of :func:`recovery`."""
    die, dice, auto, mods, setup = _recovery_setup(rank, shaken, friend_in_contact, skills, dice_mod, reading, blessing)
    fn = (lambda s, h, o: "stands_shaken") if auto else (lambda s, h, o: _RECOVERY_KEY[R.recovery_result(s)])
    return simulate_mapped("recover", die, dice, RECOVERY_OUTCOMES, fn, reading=reading, blessing=blessing,
                           trials=trials, seed=seed, workers=workers, setup=setup, modifiers=mods)


def simulate_bottle_check(rank, *, boss=True, shaken=False, skills=(), preacher=False, whiskey=False,
                          reading=R.DEFAULT_REROLL_READING, blessing=None, trials=1_000_000, seed=None,
                          workers=1) -> Odds:
    """Monte Carlo twin of :func:`bottle_check`."""
    die, dice, rr, setup = _bottle_setup(rank, boss, shaken, skills, preacher, whiskey, reading, blessing)
    need = R.TESTS[R.TestKind.BOTTLE_CHECK].successes_needed
    fn = (lambda s, h, o: "fights_on") if whiskey else (lambda s, h, o: "fights_on" if s >= need else "bottles_out")
    return simulate_mapped("bottle", die, dice, BOTTLE_OUTCOMES, fn, reading=reading, blessing=blessing, rerolls=rr,
                           trials=trials, seed=seed, workers=workers, setup=setup)


def simulate_cast(rank, power=None, *, difficulty=None, shaken=False, skills=(), concentrate=False, grimoire=False,
                  harbinger=False, arcane_storm=False, unique_summoning=False, holy_symbol=False, dice_mod=0,
                  reading=R.DEFAULT_REROLL_READING, blessing=None, trials=1_000_000, seed=None, workers=1) -> Odds:
    """Monte Carlo twin of :func:`cast`."""
    die, dice, diff, mods, setup = _cast_setup(rank, power, difficulty, shaken, skills, concentrate, grimoire,
                                               harbinger, arcane_storm, unique_summoning, holy_symbol, dice_mod,
                                               reading, blessing)

    def fn(s, h, o):
        if s >= diff:
            return "cast"
        return "miscast" if (not holy_symbol and s == 0 and o) else "failed"

    return simulate_mapped("cast", die, dice, CAST_OUTCOMES, fn, reading=reading, blessing=blessing, trials=trials,
                           seed=seed, workers=workers, setup=setup, modifiers=mods)


def simulate_dynamite(rank, *, shaken=False, skills=(), reading=R.DEFAULT_REROLL_READING, blessing=None, rerolls=0,
                      trials=1_000_000, seed=None, workers=1) -> Odds:
    """Monte Carlo twin of :func:`dynamite` (the throw's outcome)."""
    sk = _skills(skills)
    lead = any(R.skill(s).ignores_shaken_penalty for s in sk)
    die = R.grit_die(R.rank(rank), shaken, lead)
    return simulate_mapped("dynamite", die, R.TESTS[R.TestKind.DYNAMITE_THROW].base_dice, DYNAMITE_OUTCOMES,
                           lambda s, h, o: R.dynamite_throw(h).name.lower(), reading=reading, blessing=blessing,
                           rerolls=rerolls, trials=trials, seed=seed, workers=workers)
