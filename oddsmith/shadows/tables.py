"""Shadows of the West odds as tidy DataFrames: one row per configuration, one column per outcome.

Every table is exact (the exact engine). With ``fractions=True`` each
probability column ``x`` gets a twin ``x_exact`` holding the exact
:class:`fractions.Fraction`. Tables say which re-roll reading they use in a
``reading`` column (B by default: see :mod:`oddsmith.shadows.engine`).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Iterable, Sequence

import numpy as np

from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import engine as E

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

RANK_ORDER = (R.Rank.NOVICE, R.Rank.VETERAN, R.Rank.HERO)
STANDARD_TABLES = ("success", "shooting", "shooting-full", "fight", "recovery", "bottle", "cast", "dynamite", "blast")
"""Names of the standard printable tables (``oddsmith shadows table NAME``)."""


def _with_fractions(df: pd.DataFrame, fr_rows: Sequence[dict[str, Fraction]] | None, names: Sequence[str]) -> pd.DataFrame:
    if fr_rows is None:
        return df
    for k in names:
        df[f"{k}_exact"] = [r[k] if r is not None else None for r in fr_rows]
    return df


def _reading(reading) -> str:
    return R.reroll_reading(reading).value


# ---------------------------------------------------------------------------
# Success distributions ("Tests")
# ---------------------------------------------------------------------------


def success_table(dice: Iterable[int] = range(1, 7), dies: Iterable[int | str] = R.GRIT_DICE, *,
                  reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, blessing: R.Blessing | str | None = None,
                  fractions: bool = False) -> pd.DataFrame:
    """Success distribution of n dice of each Grit Die ("Tests").

    Columns: die, dice, reading, blessing, "0".."N" (P of exactly k
    Successes; N the largest dice count), at_least_1..at_least_3, mean.
    """
    dice = list(dice)
    if not dice:
        raise OddsmithError("give at least one dice count")
    top = max(dice)
    rows, frs = [], []
    for die in dies:
        for n in dice:
            o = E.test_distribution(R.parse_die(die), n, reading=reading, blessing=blessing, fractions=fractions)
            src = o.fractions if fractions else o.outcomes
            fr = {str(k): src.get(str(k), 0) for k in range(top + 1)}
            row: dict[str, Any] = {"die": f"D{R.parse_die(die)}", "dice": n, "reading": _reading(reading),
                                   "blessing": R.blessing(blessing).value}
            row.update({k: float(v) for k, v in fr.items()})
            for k in (1, 2, 3):
                row[f"at_least_{k}"] = float(sum(v for j, v in fr.items() if int(j) >= k))
            row["mean"] = float(sum(int(j) * v for j, v in fr.items()))
            rows.append(row)
            frs.append(fr)
    df = pd.DataFrame(rows)
    return _with_fractions(df, frs if fractions else None, [str(k) for k in range(top + 1)])


# ---------------------------------------------------------------------------
# Shooting ("Shoot")
# ---------------------------------------------------------------------------

SHOT_COLUMNS = list(E.SHOT_OUTCOMES) + ["hit", "hurt"]
"""Outcome columns of a shooting table: the engine's SHOT_OUTCOMES, hit (1 - miss), hurt (shaken + downed + casualty)."""


def shooting_table(shooters: Iterable[E.Shooter | R.Rank | str] = RANK_ORDER,
                   targets: Iterable[E.Target | R.Rank | str] = RANK_ORDER, *,
                   weapon: R.Weapon | str = "Pistol", range_bands: Iterable[R.RangeBand | str] = ("medium",),
                   dice_mods: Iterable[int] = (0,), cover: bool = False, elevated: bool = False,
                   back_shooter: bool = False, small_target: bool = False, silver_bullets: bool = False,
                   trick_shot: str | None = None, second_weapon: R.Weapon | str | None = None,
                   reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, fractions: bool = False,
                   action: bool = True) -> pd.DataFrame:
    """Hit and damage odds of one weapon for every shooter x target x range band x extra Dice Modifier.

    Shooters and targets are :class:`~oddsmith.shadows.engine.Shooter` /
    :class:`~oddsmith.shadows.engine.Target` or Rank names. Columns:
    shooter, target, weapon, range_band, dice_mod, dice (rolled),
    shooter_die, target_die, save_modifier, reading, then SHOT_COLUMNS for
    one Shooting Attack; when the weapon's Action fires several shots
    (``action``), ``action_unhurt``, ``action_shaken``, ``action_downed``,
    ``action_casualty``, ``action_jammed``, ``action_shots_fired`` for the
    whole Action (target's final state).
    """
    shooters = [E.Shooter.of(s) for s in shooters]
    targets = [E.Target.of(t) for t in targets]
    bands = [R.range_band(b) for b in range_bands]
    dice_mods = list(dice_mods)
    keys, plans, seqs = [], [], []
    for sh, tg, band, dm in itertools.product(shooters, targets, bands, dice_mods):
        shm = E.Shooter.of(sh, dice_mod=sh.dice_mod + dm)
        sit = E.Situation(band, cover, elevated, back_shooter, small_target, silver_bullets, trick_shot)
        weapons = E.action_weapons(shm, weapon, second_weapon)
        seq = [(E.plan_shot(shm, tg, w, sit, reading=reading), wid) for w, wid in weapons]
        keys.append((sh, tg, band, dm))
        plans.append(seq[0][0])
        seqs.append(seq)
    prob, fr = E.shot_plans_odds(plans, fractions)
    rows = []
    for (sh, tg, band, dm), p, pr in zip(keys, plans, prob):
        row = {"shooter": sh.rank.label, "target": tg.rank.label, "weapon": p.weapon, "range_band": band.value,
               "dice_mod": dm, "dice": p.dice, "shooter_die": f"D{p.shooter_die}", "target_die": f"D{p.target_die}",
               "save_modifier": p.save_mod, "reading": _reading(reading)}
        row.update({k: float(v) for k, v in zip(E.SHOT_OUTCOMES, pr)})
        row["hit"] = 1.0 - row["miss"]
        row["hurt"] = row["shaken"] + row["downed"] + row["casualty"]
        rows.append(row)
    df = pd.DataFrame(rows)
    if fr is not None:
        for r in fr:
            r["hit"] = 1 - r["miss"]
            r["hurt"] = r["shaken"] + r["downed"] + r["casualty"]
        df = _with_fractions(df, fr, SHOT_COLUMNS)
    if action and any(len(s) > 1 for s in seqs):
        sprob, sfr = E.sequence_odds(seqs, fractions)
        for j, k in enumerate(E.SEQUENCE_OUTCOMES):
            df[f"action_{k}"] = sprob[:, j]
        if sfr is not None:
            _with_fractions(df, [None if r is None else {f"action_{k}": v for k, v in r.items()} for r in sfr],
                            [f"action_{k}" for k in E.SEQUENCE_OUTCOMES])
    return df


FULL_SHOOTING_KEYS = ("reading", "shooter_die", "dice", "target_die", "target_shaken", "save_mod", "boilerplate")


def full_shooting_table(*, dice: Iterable[int] = range(1, 7), save_mods: Iterable[int] = range(-2, 3),
                        jam_die: int | None = None, fractions: bool = False) -> pd.DataFrame:
    """The full shooting table: both readings x D6/D8/D10 shooter x dice x D6/D8/D10 target x target
    Shaken or not x Save Modifier x Boilerplate or not (2,160 rows with the defaults), exact.

    ``dice`` is the number rolled (after modifiers); the Jam die is the
    Pistol's unless given. Columns: FULL_SHOOTING_KEYS (dice as D6/D8/D10
    names), then the engine's SHOT_OUTCOMES.
    """
    jam = int(jam_die) if jam_die is not None else int(R.weapon("Pistol").jam_die)
    dice = [E._count_dice(int(n)) for n in dice]
    save_mods = [E._save_mod(int(m)) for m in save_mods]
    cancel = R.gear("Boilerplate").cancels_successes
    grid = np.array(list(itertools.product((0, 1), R.GRIT_DICE, dice, R.GRIT_DICE, (0, 1), save_mods, (0, 1))),
                    dtype=np.int64)
    reading, sdie, n, tdie, shaken, smod, plate = grid.T
    # a Shaken target saves on one Rank lower (minimum D6)
    lower = {d: R.Rank(d).lower().die for d in R.GRIT_DICE}
    tsave = np.where(shaken == 1, np.vectorize(lower.get)(tdie), tdie)
    zeros = np.zeros_like(reading)
    rows = np.ascontiguousarray(np.stack([sdie, n, reading, zeros, zeros, plate * cancel, tsave, shaken, smod, zeros,
                                          np.full_like(reading, jam), zeros], axis=1))
    prob, hi, lo, shi, slo = E._X.shot_table(rows, E.SAVE_TABLE_ARRAY, E.DAMAGE_ARRAY, E.SUCCESS_ON, E.JAM_FACE,
                                             fractions)
    names = np.array(["a", "b"])
    df = pd.DataFrame({"reading": names[reading], "shooter_die": [f"D{d}" for d in sdie], "dice": n,
                       "target_die": [f"D{d}" for d in tdie], "target_shaken": shaken.astype(bool),
                       "save_mod": smod, "boilerplate": plate.astype(bool)})
    for j, k in enumerate(E.SHOT_OUTCOMES):
        df[k] = prob[:, j]
    if fractions:
        frs = [E._shot_fractions(hi, lo, shi, slo, i) for i in range(len(df))]
        df = _with_fractions(df, frs, E.SHOT_OUTCOMES)
    return df


# ---------------------------------------------------------------------------
# Fights ("Fight")
# ---------------------------------------------------------------------------


def fight_table(attackers: Iterable[E.Fighter | R.Rank | str] = RANK_ORDER,
                defenders: Iterable[E.Fighter | R.Rank | str] = RANK_ORDER, *,
                charging: Iterable[bool] = (False, True), fortified: bool = False,
                reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, fractions: bool = False) -> pd.DataFrame:
    """The fight matrix: every attacker x defender (x charging or not).

    Columns: attacker, defender, charging, fortified, attacker_dice,
    defender_dice, reading, the engine's FIGHT_OUTCOMES, then
    attacker_by_1..3 / defender_by_1..3 (winning margins; a Shove pushes 1"
    per Success).
    """
    attackers = [E.Fighter.of(a) for a in attackers]
    defenders = [E.Fighter.of(d) for d in defenders]
    keys, plans = [], []
    for a, d, ch in itertools.product(attackers, defenders, list(charging)):
        keys.append((a, d, ch))
        plans.append(E.plan_fight(a, d, charging=ch, fortified=fortified, reading=reading))
    prob, margins, fr = E.fight_plans_odds(plans, fractions)
    rows = []
    for (a, d, ch), p, pr, mg in zip(keys, plans, prob, margins):
        row = {"attacker": a.rank.label + (f" ({a.form.title()} Form)" if a.form else ""),
               "defender": d.rank.label + (f" ({d.form.title()} Form)" if d.form else ""),
               "charging": ch, "fortified": fortified, "attacker_dice": p.attacker[1], "defender_dice": p.defender[1],
               "reading": _reading(reading)}
        row.update({k: float(v) for k, v in zip(E.FIGHT_OUTCOMES, pr)})
        for i, side in enumerate(("attacker", "defender")):
            for k in (1, 2, 3):
                row[f"{side}_by_{k}"] = float(mg[i, k])
        rows.append(row)
    df = pd.DataFrame(rows)
    names = list(E.FIGHT_OUTCOMES) + [f"{s}_by_{k}" for s in ("attacker", "defender") for k in (1, 2, 3)]
    return _with_fractions(df, fr, names)


# ---------------------------------------------------------------------------
# Recovery, Bottle Checks, Casting, Dynamite
# ---------------------------------------------------------------------------


def _rows(items, fractions: bool, names: Sequence[str]) -> pd.DataFrame:
    rows = []
    frs = []
    for key, odds in items:
        row = dict(key)
        row.update(odds.outcomes)
        rows.append(row)
        frs.append(odds.fractions)
    return _with_fractions(pd.DataFrame(rows), frs if fractions else None, names)


def recovery_table(ranks: Iterable[R.Rank | str] = RANK_ORDER, *,
                   reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, fractions: bool = False) -> pd.DataFrame:
    """Recovery Test odds for every Rank x Shaken or not x friend in Contact or not.

    Columns: rank, shaken, friend_in_contact, dice, reading, casualty, remains_downed, stands_shaken.
    """
    items = []
    for rk, sh, fr in itertools.product([R.rank(r) for r in ranks], (False, True), (False, True)):
        o = E.recovery(rk, shaken=sh, friend_in_contact=fr, reading=reading, fractions=fractions)
        items.append(({"rank": rk.label, "shaken": sh, "friend_in_contact": fr, "dice": o.setup["dice"],
                       "reading": _reading(reading)}, o))
    return _rows(items, fractions, E.RECOVERY_OUTCOMES)


def bottle_table(ranks: Iterable[R.Rank | str] = RANK_ORDER, *,
                 reading: R.RerollReading | str = R.DEFAULT_REROLL_READING, fractions: bool = False) -> pd.DataFrame:
    """Bottle Check odds: Boss (3 dice) or stand-in (1 die) x Rank x Shaken x Nerves of Steel x Preacher.

    Columns: roller, rank, shaken, nerves_of_steel, preacher, dice, reading, fights_on, bottles_out.
    """
    items = []
    for boss, rk, sh, nos, pr in itertools.product((True, False), [R.rank(r) for r in ranks], (False, True),
                                                   (False, True), (False, True)):
        o = E.bottle_check(rk, boss=boss, shaken=sh, skills=["Nerves of Steel"] if nos else [], preacher=pr,
                           reading=reading, fractions=fractions)
        items.append(({"roller": "Boss" if boss else "stand-in", "rank": rk.label, "shaken": sh,
                       "nerves_of_steel": nos, "preacher": pr, "dice": o.setup["dice"], "reading": _reading(reading)},
                      o))
    return _rows(items, fractions, E.BOTTLE_OUTCOMES)


def cast_table(ranks: Iterable[R.Rank | str] = RANK_ORDER, *, difficulties: Iterable[int] = (1, 2, 3),
               dice_mods: Iterable[int] = (-1, 0, 1, 2), reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
               fractions: bool = False) -> pd.DataFrame:
    """Casting Test odds for every Rank x Difficulty x Dice Modifier (Concentrate +1, Grimoire +1, ...).

    Columns: rank, difficulty, dice_mod, dice, reading, cast, failed, miscast.
    """
    items = []
    for rk, diff, dm in itertools.product([R.rank(r) for r in ranks], list(difficulties), list(dice_mods)):
        o = E.cast(rk, difficulty=diff, dice_mod=dm, reading=reading, fractions=fractions)
        items.append(({"rank": rk.label, "difficulty": diff, "dice_mod": dm, "dice": o.setup["dice"],
                       "reading": _reading(reading)}, o))
    return _rows(items, fractions, E.CAST_OUTCOMES)


def dynamite_table(ranks: Iterable[R.Rank | str] = RANK_ORDER, *, fractions: bool = False) -> pd.DataFrame:
    """Where a thrown stick of Dynamite explodes, for every thrower Rank, Shaken or not.

    Columns: rank, shaken, die, then the DynamiteOutcome names (on_target, on_thrower, ...).
    """
    items = []
    for rk, sh in itertools.product([R.rank(r) for r in ranks], (False, True)):
        o = E.dynamite(rk, shaken=sh, fractions=fractions)
        items.append(({"rank": rk.label, "shaken": sh, "die": o.setup["die"]}, o))
    return _rows(items, fractions, E.DYNAMITE_OUTCOMES)


def blast_table(ranks: Iterable[R.Rank | str] = RANK_ORDER, *, fractions: bool = False) -> pd.DataFrame:
    """A model caught in a Dynamite blast ("Ka-Boom!", 7+ Save), by Rank, Shaken, Tough, fully or partly within 3".

    Columns: rank, shaken, tough, within, saved, shaken_result, downed, casualty.
    """
    rows, frs = [], []
    for rk, sh, tough, partly in itertools.product([R.rank(r) for r in ranks], (False, True), (False, True),
                                                   (False, True)):
        b = E.blast_odds(rk, shaken=sh, partly=partly, skills=["Tough"] if tough else [])
        row = {"rank": rk.label, "shaken": sh, "tough": tough, "within": "partly" if partly else "fully"}
        row.update({("shaken_result" if k == "shaken" else k): float(v) for k, v in b.items()})
        rows.append(row)
        frs.append({("shaken_result" if k == "shaken" else k): v for k, v in b.items()})
    return _with_fractions(pd.DataFrame(rows), frs if fractions else None,
                           ["saved", "shaken_result", "downed", "casualty"])


def standard_table(name: str, *, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                   fractions: bool = False) -> pd.DataFrame:
    """One of the standard printable tables by name (STANDARD_TABLES).

    success: 1-6 dice of D6/D8/D10; shooting: hit and damage for every
    shooter Rank x target Rank x Dice Modifier -2..+3 (Pistol, Medium
    Range); shooting-full: the 2,160-row table (both readings); fight: the
    fight matrix, charging or not; recovery; bottle; cast; dynamite; blast.
    """
    key = R.normalize_name(name)
    table = {R.normalize_name(n): n for n in STANDARD_TABLES}.get(key)
    if table is None:
        raise OddsmithError(f"unknown table {name!r}; tables: {', '.join(STANDARD_TABLES)}")
    if table == "success":
        return success_table(reading=reading, fractions=fractions)
    if table == "shooting":
        return shooting_table(dice_mods=range(-2, 4), reading=reading, fractions=fractions)
    if table == "shooting-full":
        return full_shooting_table(fractions=fractions)
    if table == "fight":
        return fight_table(reading=reading, fractions=fractions)
    if table == "recovery":
        return recovery_table(reading=reading, fractions=fractions)
    if table == "bottle":
        return bottle_table(reading=reading, fractions=fractions)
    if table == "cast":
        return cast_table(reading=reading, fractions=fractions)
    if table == "dynamite":
        return dynamite_table(fractions=fractions)
    return blast_table(fractions=fractions)


def standard_tables(*, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                    fractions: bool = False) -> dict[str, pd.DataFrame]:
    """Every standard table (the printable reference set), by name."""
    return {n: standard_table(n, reading=reading, fractions=fractions) for n in STANDARD_TABLES}
