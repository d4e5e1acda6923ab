#!/usr/bin/env python
"""Benchmark the Shadows of the West dice engine against plain Python, measured in the same run.

1. The full shooting table (both readings x D6/D8/D10 shooter x 1-6 dice x
   D6/D8/D10 target x target Shaken or not x Save Modifier -2..+2 x
   Boilerplate or not = 2,160 rows), exact. Target: under 50 ms on one core.
   Baseline: a plain-Python dynamic programme over the same dice (floats,
   test distributions cached per die/dice/reading), row by row.
2. The full standard table set (oddsmith shadows table NAME for every NAME),
   exact, beside the plain-Python DP building its Test-based tables
   (success, shooting-full, fight matrix, recovery, bottle).
3. Monte Carlo 3-dice Tests per second on one core (D6, D8, D10, reading B).
   Target: at least 50 million. Baseline: a plain-Python loop with ``random``.

Usage: python scripts/bench_shadows.py [--quick]
"""
from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

import numpy as np

from oddsmith.rules import shadows as R
from oddsmith.shadows import engine as E
from oddsmith.shadows import tables as T
from oddsmith._ext import shadows_mc

SUCCESS_ON = R.SUCCESS_ON


# ---------------------------------------------------------------------------
# The plain-Python baseline: the same exact dice maths, no kernels
# ---------------------------------------------------------------------------


def py_test(D: int, n: int, chained: bool) -> dict[tuple[int, int, int], float]:
    """{(successes, highest die, a die showing 1): p} of an n-dice Test, dice one by one, then the re-rolls."""
    states: dict[tuple, float] = {(0, 0, 0, 0, 0): 1.0}   # successes, tokens, failing dice, highest, a 1
    for _ in range(n):
        nxt: dict[tuple, float] = {}
        for (s, t, f, h, o), p in states.items():
            for x in range(1, D + 1):
                key = (s + (x >= SUCCESS_ON), t + (x == D), f + (x < SUCCESS_ON), max(h, x), o or x == 1)
                nxt[key] = nxt.get(key, 0.0) + p / D
        states = nxt
    out: dict[tuple[int, int, int], float] = {}
    while states:
        nxt = {}
        for (s, t, f, h, o), p in states.items():
            if t == 0 or f == 0:
                key = (s, h, int(o))
                out[key] = out.get(key, 0.0) + p
                continue
            for x in range(1, D + 1):
                t2 = t - 1 + (1 if (chained and x == D) else 0)
                key = (s + (x >= SUCCESS_ON), t2, f - 1, max(h, x), o)
                nxt[key] = nxt.get(key, 0.0) + p / D
        states = nxt
    return out


def py_save(die: int, target: int, mod: int, shaken: bool) -> list[float]:
    out = [0.0] * 4
    codes = {R.Damage.SHAKEN: 1, R.Damage.DOWNED: 2, R.Damage.CASUALTY: 3}
    for x in range(1, die + 1):
        d = R.save_result(x, target, mod)
        c = 0 if d is None else codes[d]
        if shaken and c == 1:
            c = 2
        out[c] += 1 / die
    return out


def py_full_shooting_table() -> list[list[float]]:
    cache: dict[tuple, dict] = {}
    rows = []
    jam = R.weapon("Pistol").jam_die
    jam_fail = float(R.jam_chance(jam))
    for chained, sd, n, td, sh, sm, plate in itertools.product((False, True), R.GRIT_DICE, range(1, 7), R.GRIT_DICE,
                                                               (False, True), range(-2, 3), (False, True)):
        key = (sd, n, chained)
        if key not in cache:
            cache[key] = py_test(sd, n, chained)
        joint = cache[key]
        per = [0.0] * (n + 1)
        miss_one = 0.0
        for (s, _h, o), p in joint.items():
            per[s] += p
            if s == 0 and o:
                miss_one += p
        die = R.grit_die(R.Rank(td), sh)
        row = [per[0], miss_one, miss_one * jam_fail, 0.0, 0.0, 0.0, 0.0, 0.0]
        cancel = 1 if plate else 0
        for s in range(1, n + 1):
            e = s - cancel
            if e <= 0:
                row[3] += per[s]
                continue
            for c, q in enumerate(py_save(die, R.save_target(e), sm, sh)):
                row[4 + c] += per[s] * q
        rows.append(row)
    return rows


def py_fight(ad, an, dd, dn) -> dict[str, float]:
    A = py_test(ad, an, True)
    B = py_test(dd, dn, True)
    out = {"draw": 0.0, "a": 0.0, "d": 0.0}
    for (sa, ha, _), pa in A.items():
        for (sb, hb, _), pb in B.items():
            if (sa, ha) > (sb, hb):
                out["a"] += pa * pb
            elif (sb, hb) > (sa, ha):
                out["d"] += pa * pb
            else:
                out["draw"] += pa * pb
    return out


def py_table_set() -> int:
    rows = 0
    for die, n in itertools.product(R.GRIT_DICE, range(1, 7)):
        py_test(die, n, True)
        rows += 1
    rows += len(py_full_shooting_table())
    for a, d, ch in itertools.product(R.GRIT_DICE, R.GRIT_DICE, (False, True)):
        py_fight(a, 3 + ch, d, 3)
        rows += 1
    for rk, sh, fr in itertools.product(R.Rank, (False, True), (False, True)):
        py_test(R.grit_die(rk, sh), 3 + fr, True)
        rows += 1
    for rk, sh, dice in itertools.product(R.Rank, (False, True), (3, 1)):
        py_test(R.grit_die(rk, sh), dice, True)
        rows += 1
    return rows


def py_mc_tests(D: int, n: int, trials: int, rng: random.Random) -> list[int]:
    counts = [0] * (n + 1)
    for _ in range(trials):
        s = tokens = 0
        for _ in range(n):
            x = rng.randint(1, D)
            if x >= SUCCESS_ON:
                s += 1
                tokens += x == D
        fails = n - s
        while tokens and fails:
            x = rng.randint(1, D)
            fails -= 1
            tokens -= 1
            if x >= SUCCESS_ON:
                s += 1
                tokens += x == D
        counts[s] += 1
    return counts


# ---------------------------------------------------------------------------


def best_of(fn, repeat: int) -> float:
    """Best CPU time of ``repeat`` runs: the machine is shared, so CPU time is the per-core cost
    (wall time is printed beside it once)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def wall(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats and trials (a smoke run)")
    args = ap.parse_args(argv)
    repeat = 2 if args.quick else 5
    mc_trials = 5_000_000 if args.quick else 40_000_000
    py_trials = 50_000 if args.quick else 300_000

    print("Shadows of the West dice engine benchmark (one core, CPU time; plain-Python baselines measured in this run)")

    # 1. full shooting table
    T.full_shooting_table()   # warm the imports
    t_fast = best_of(T.full_shooting_table, repeat)
    t_py = best_of(py_full_shooting_table, 1 if args.quick else 2)
    df = T.full_shooting_table()
    ref = np.array(py_full_shooting_table())
    err = float(np.max(np.abs(df[list(E.SHOT_OUTCOMES)].to_numpy() - ref)))
    print(f"\nfull shooting table, {len(df)} rows, exact:")
    print(f"  oddsmith      {t_fast * 1e3:9.2f} ms CPU ({wall(T.full_shooting_table) * 1e3:.2f} ms wall)   (target < 50 ms)")
    print(f"  plain Python  {t_py * 1e3:9.2f} ms   ratio x{t_py / t_fast:,.0f}   (max |difference| {err:.1e})")
    t_fr = best_of(lambda: T.full_shooting_table(fractions=True), 1 if args.quick else 3)
    print(f"  oddsmith with exact fractions in every cell: {t_fr * 1e3:.1f} ms")

    # 2. the standard table set
    t_set = best_of(T.standard_tables, 1 if args.quick else 3)
    rows = sum(len(d) for d in T.standard_tables().values())
    t_pyset = best_of(py_table_set, 1)
    print(f"\nstandard table set ({len(T.STANDARD_TABLES)} tables, {rows} rows), exact:")
    print(f"  oddsmith      {t_set * 1e3:9.2f} ms")
    print(f"  plain Python  {t_pyset * 1e3:9.2f} ms   (its Test-based tables only)   ratio x{t_pyset / t_set:,.1f}")

    # 3. Monte Carlo 3-dice Tests
    print("\nMonte Carlo 3-dice Tests per second of CPU time, one core (reading B):")
    for D in R.GRIT_DICE:
        out = np.zeros(4, dtype=np.int64)
        gen = np.random.PCG64(12345)
        shadows_mc.mc_successes(gen, D, SUCCESS_ON, 3, 1, 100_000, out)   # warm
        t = time.process_time()
        shadows_mc.mc_successes(gen, D, SUCCESS_ON, 3, 1, mc_trials, out)
        rate = mc_trials / (time.process_time() - t)
        rng = random.Random(1)
        t = time.process_time()
        py_mc_tests(D, 3, py_trials, rng)
        py_rate = py_trials / (time.process_time() - t)
        print(f"  D{D:<2}  oddsmith {rate / 1e6:7.1f} M/s   plain Python {py_rate / 1e6:6.3f} M/s   "
              f"ratio x{rate / py_rate:,.0f}   (target >= 50 M/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
