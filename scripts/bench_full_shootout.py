#!/usr/bin/env python
"""Benchmark whole shootouts (ext/full_shootout.pyx) against the plain-Python reference
(tests/reference_full_shootout.py), measured in the same run, in CPU seconds of one core.

Cases: 3-dude posses with stud and draw bonuses, sample decks (Law Dogs against Outlaws),
every figure the CLI reports accumulated:

1. both sides ``best`` shooters (maximin on the round-win table), keep-posse, never flee,
   discard heuristic;
2. side B the Automaton (its shooter priority, hand rule and casualty reflexes);
3. ``listed`` shooters, save-dudes against automaton casualties, fleeing losses:1 / outnumbered.

Target: at least 300,000 whole shootouts per CPU second on one core and 200x the reference.
The baseline is the fully plain-Python reference (``hands="python"``: the hand steps too, by
tests/reference_shootout_hand.py's port, hands evaluated by brute force over every five);
a second line per case gives the reference with its five-card steps as calls into the
one-round kernel (``hands="kernel"``, what the many-case tests use), for scale. The
round-win table is built once per setup and timed apart (it is not part of the per-shootout
cost).

Usage: python scripts/bench_full_shootout.py [--quick]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import reference_full_shootout as ref  # noqa: E402
from oddsmith.doomtown.deck import load_sample  # noqa: E402
from oddsmith.doomtown.full_shootout import FullSide, _setup, full_shootout, round_win_tables  # noqa: E402
from oddsmith.doomtown.posse import parse_posse  # noqa: E402


def cpu(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer shootouts (a smoke run)")
    args = ap.parse_args()
    n_kernel = 200_000 if args.quick else 2_000_000
    n_ref = 500 if args.quick else 4_000          # reference, five-card steps in the kernel
    n_python = 60 if args.quick else 600          # fully plain-Python reference
    law, outlaws = load_sample("law-dogs"), load_sample("outlaws")
    posse_a = parse_posse("stud:2, draw:1, stud:1")
    posse_b = parse_posse("draw:2, stud:1, draw:1")
    cases = [
        ("best vs best, keep-posse", FullSide(law, posse_a), FullSide(outlaws, posse_b)),
        ("best vs the Automaton", FullSide(law, posse_a), FullSide(outlaws, posse_b, automaton=True)),
        ("listed, save-dudes/losses:1 vs automaton casualties/outnumbered",
         FullSide(law, posse_a, shooter="listed", casualties="save-dudes", flee="losses:1"),
         FullSide(outlaws, posse_b, shooter="listed", casualties="automaton", flee="outnumbered")),
    ]
    print(f"whole shootouts, 3-dude posses ({posse_a.bonus_choices()[0]} ... against {posse_b.bonus_choices()[0]} ...), "
          f"one core, CPU seconds; kernel {n_kernel:,} shootouts, plain-Python reference {n_python:,}, "
          f"kernel-backed reference {n_ref:,}")
    print(f"{'case':<62} {'table s':>8} {'kernel/s':>12} {'reference/s':>12} {'ratio':>7}  P(A wins) kernel / ref")
    for label, a, b in cases:
        sa, sb = _setup(a.checked(), "A"), _setup(b.checked(), "B")
        tables, t_table = cpu(lambda: round_win_tables(sa, sb, 1))
        full_shootout(a, b, trials=20_000, seed=0, tables=tables)  # warm-up
        r, t_kernel = cpu(lambda: full_shootout(a, b, trials=n_kernel, seed=1, tables=tables))
        k_rate = n_kernel / t_kernel
        for what, hands, n in (("plain Python", "python", n_python), ("kernel hand steps", "kernel", n_ref)):
            outs, t_ref = cpu(lambda: ref.reference_shootouts(a, b, n, 1, *tables, hands=hands))
            r_rate = n / t_ref
            p_ref = sum(o.winner == 1 for o in outs) / n
            name = label if hands == "python" else f"  (reference: {what})"
            table = f"{t_table:.3f}" if hands == "python" else ""
            print(f"{name:<62} {table:>8} {k_rate:>12,.0f} {r_rate:>12,.1f} "
                  f"{k_rate / r_rate:>6.0f}x  {r.figure('p_a_wins'):.4f} / {p_ref:.4f} ± {(p_ref * (1 - p_ref) / n) ** 0.5:.4f}")

if __name__ == "__main__":
    main()
