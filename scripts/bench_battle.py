#!/usr/bin/env python
"""Benchmark the Shadows of the West battle kernel against the plain-Python reference battle, in the same run.

Two 6-model posses (the first six models of the shipped unaligned and Twilight
Order samples) fight on the table (``--movement table``: Showdown deployment,
Moves, Charges, Fights; open terrain, the default plans and policies).
Kernel: whole battles per second of CPU time (``time.process_time``) on one
core, the best of ``--runs`` runs of ``--trials`` battles. Baseline: the
plain-Python reference battle of the test suite (tests/reference_battle.py,
tests/reference_table.py) on the same setup, ``--baseline`` battles. Targets
(issue 13): at least 50,000 battles/s on one core, and at least 300x the
reference. A second line gives the same figures for the fixed-range firefight
(``--movement none`` at 10"; issue 9's targets: 20,000/s and 100x).

Usage: python scripts/bench_battle.py [--runs 3] [--trials 200000] [--baseline 500]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from oddsmith.shadows import battle as B  # noqa: E402
from oddsmith.shadows import posse as P  # noqa: E402
import reference_battle as RB  # noqa: E402

TARGET_RATE = 50_000
TARGET_RATIO = 300
FIXED_TARGET_RATE = 20_000
FIXED_TARGET_RATIO = 100


def six_model_posses() -> tuple[P.Posse, P.Posse]:
    a, b = P.sample_posse(None), P.sample_posse("twilight-order")
    a, b = replace(a, models=a.models[:6]), replace(b, models=b.models[:6])
    P.check_posse(a)
    P.check_posse(b)
    return a, b


def measure(setup: B.BattleSetup, runs: int, trials: int, baseline: int) -> tuple[float, float]:
    """(kernel battles/s, reference battles/s) of CPU time on one setup."""
    B.run_counts(setup, 1_000, seed=1)  # warm up (tables, imports)
    best = float("inf")
    for i in range(runs):
        t0 = time.process_time()
        B.run_counts(setup, trials, seed=100 + i)
        best = min(best, time.process_time() - t0)
    rng = random.Random(7)
    t0 = time.process_time()
    for _ in range(baseline):
        RB.play(setup, rng)
    return trials / best, baseline / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--trials", type=int, default=200_000)
    ap.add_argument("--baseline", type=int, default=300)
    args = ap.parse_args(argv)
    a, b = six_model_posses()
    table = B.prepare(a, b, B.battle_options(movement="table"))
    fixed = B.prepare(a, b, B.battle_options("10", movement="none"))
    print(f"battle: {a.name} ({len(a.models)} models) vs {b.name} ({len(b.models)} models), default plans and policies")
    ok = True
    for label, setup, t_rate, t_ratio in (("table", table, TARGET_RATE, TARGET_RATIO),
                                          ("fixed 10\"", fixed, FIXED_TARGET_RATE, FIXED_TARGET_RATIO)):
        rate, ref_rate = measure(setup, args.runs, args.trials, args.baseline)
        ratio = rate / ref_rate
        met = rate >= t_rate and ratio >= t_ratio
        ok = ok and met
        print(f"{label:10} kernel {rate:10,.0f} battles/s of CPU (best of {args.runs} x {args.trials:,}; "
              f"target >= {t_rate:,}) | reference {ref_rate:8,.1f}/s ({args.baseline:,} battles) | "
              f"ratio {ratio:6,.0f}x (target >= {t_ratio}x) | {'met' if met else 'MISSED'}")
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
