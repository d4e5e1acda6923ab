#!/usr/bin/env python
"""Benchmark the Shadows of the West battle kernel against the plain-Python reference battle, in the same run.

Two 6-model posses (the first six models of the shipped unaligned and Twilight
Order samples) fight at 10" with the default policies. Kernel: battles per
second of CPU time (``time.process_time``) on one core, the best of
``--runs`` runs of ``--trials`` battles. Baseline: the plain-Python reference
battle of the test suite (tests/reference_battle.py) on the same setup,
``--baseline`` battles. Targets (issue 9): at least 20,000 battles/s on one
core, and at least 100x the reference.

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

TARGET_RATE = 20_000
TARGET_RATIO = 100


def six_model_posses() -> tuple[P.Posse, P.Posse]:
    a, b = P.sample_posse(None), P.sample_posse("twilight-order")
    a, b = replace(a, models=a.models[:6]), replace(b, models=b.models[:6])
    P.check_posse(a)
    P.check_posse(b)
    return a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--trials", type=int, default=200_000)
    ap.add_argument("--baseline", type=int, default=500)
    args = ap.parse_args(argv)
    a, b = six_model_posses()
    setup = B.prepare(a, b)
    B.run_counts(setup, 1_000, seed=1)  # warm up (tables, imports)
    best = float("inf")
    for i in range(args.runs):
        t0 = time.process_time()
        B.run_counts(setup, args.trials, seed=100 + i)
        best = min(best, time.process_time() - t0)
    rate = args.trials / best
    rng = random.Random(7)
    t0 = time.process_time()
    for _ in range(args.baseline):
        RB.play(setup, rng)
    ref_rate = args.baseline / (time.process_time() - t0)
    ratio = rate / ref_rate
    print(f"battle: {a.name} ({len(a.models)} models) vs {b.name} ({len(b.models)} models) at 10\", default policies")
    print(f"kernel     {rate:12,.0f} battles/s of CPU (best of {args.runs} x {args.trials:,}; target >= {TARGET_RATE:,})")
    print(f"reference  {ref_rate:12,.1f} battles/s of CPU ({args.baseline:,} plain-Python battles)")
    print(f"ratio      {ratio:12,.0f}x (target >= {TARGET_RATIO}x)")
    ok = rate >= TARGET_RATE and ratio >= TARGET_RATIO
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
