"""Benchmark the deck kernels against plain Python baselines measured in the same run.

    python scripts/bench_decks.py [--runs 5] [--baseline-hands 20000] [--trials 2000000]

Every kernel figure is the median of ``--runs`` runs in CPU time
(``time.process_time``) on one core; every baseline is plain Python timed in the
same run, and each line prints the ratio kernel speed / baseline speed.

Sections (each a function returning rows; ``SECTIONS`` lists them in order):

* ``lowball_section`` — exact lowball distribution of a 54-card deck (issue
  target: under 20 ms per deck) beside a plain Python enumerate-and-evaluate of
  every five-card hand (its rate measured on ``--baseline-hands`` uniformly drawn
  hands and scaled to all C(54, 5) = 3,162,510); the exact head-to-head; Monte
  Carlo lowball hands per second beside the same plain Python shuffle-and-evaluate.
* the shootout sections are added by their owner below ``lowball_section``.
"""
from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from oddsmith.doomtown import lowball as lb
from oddsmith.doomtown.deck import load_sample
from oddsmith.rules.doomtown import JOKER_CODE, Card, key_of_five

JOKER = JOKER_CODE


@dataclass
class Row:
    """One benchmark line: what was timed, the kernel figure and the baseline figure."""

    section: str
    case: str
    kernel: float
    baseline: float
    unit: str
    higher_is_better: bool
    note: str = ""

    @property
    def ratio(self) -> float:
        if self.higher_is_better:
            return self.kernel / self.baseline
        return self.baseline / self.kernel


def cpu_seconds(fn: Callable[[], object], runs: int) -> float:
    """Median CPU seconds of ``fn()`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def fmt_value(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value:,.3f} ms"
    if unit == "s":
        return f"{value:,.1f} s"
    return f"{value:,.0f} {unit}"


def print_rows(rows: list[Row]) -> None:
    width = max(len(r.case) for r in rows)
    section = None
    for r in rows:
        if r.section != section:
            section = r.section
            print(f"\n== {section} ==")
            print(f"{'case':<{width}}  {'kernel':>20}  {'plain Python':>20}  {'ratio':>10}")
        print(f"{r.case:<{width}}  {fmt_value(r.kernel, r.unit):>20}  {fmt_value(r.baseline, r.unit):>20}  "
              f"{r.ratio:>9,.0f}x" + (f"  {r.note}" if r.note else ""))


# ---------------------------------------------------------------------------
# Lowball (owner: lowball)
# ---------------------------------------------------------------------------


def plain_lowball_key(five: tuple[int, ...]) -> int:
    """Plain Python lowball key of five codes (the rules model's ``key_of_five``): each joker
    tries all 13 values in a suit other than the first valued card's (so it never completes
    a flush), and the lowest key is kept."""
    valued = [Card.from_code(c) for c in five if c != JOKER]
    jokers = len(five) - len(valued)
    if not jokers:
        return key_of_five(valued)
    suit = (valued[0].suit + 1) % 4
    return min(key_of_five(valued + [Card(v, suit) for v in vs])
               for vs in itertools.product(range(1, 14), repeat=jokers))


def plain_lowball_shuffle(deck: list[int], hands: int, seed: int) -> float:
    """Plain Python shuffle-and-evaluate: CPU seconds for ``hands`` random lowball hands,
    tallying rank and cheatin' as the kernels do."""
    rng = random.Random(seed)
    ranks = [0] * 12
    cheat = 0
    t0 = time.process_time()
    for _ in range(hands):
        five = tuple(rng.sample(deck, 5))
        ranks[plain_lowball_key(five) >> 20] += 1
        valued = [c for c in five if c != JOKER]
        cheat += len(set(valued)) != len(valued)
    return time.process_time() - t0


def lowball_section(args: argparse.Namespace) -> list[Row]:
    """Exact lowball per deck, exact head-to-head, Monte Carlo hands per second."""
    name = "Lowball"
    rows: list[Row] = []
    balanced = load_sample("balanced")
    stacked = load_sample("stack-16-16-16")
    codes = [int(c) for c in balanced.codes()]
    total = math.comb(len(codes), 5)

    # the class table is built once per process; time that first call apart
    lb.class_table.cache_clear()
    t0 = time.process_time()
    lb.class_table()
    build = time.process_time() - t0

    # baseline: plain Python evaluation of uniformly drawn hands (jokers in their true
    # share), its rate scaled to every one of the C(54, 5) hands an enumeration visits
    plain_hands = args.baseline_hands
    t_shuffle = plain_lowball_shuffle(codes, plain_hands, 1)
    baseline_full = t_shuffle / plain_hands * total

    for deck, label in ((balanced, "balanced 52 + 2 jokers"), (stacked, "stack 16/16/16 + 2 jokers")):
        t = cpu_seconds(lambda: lb.lowball_odds(deck), args.runs)
        rows.append(Row(name, f"exact distribution, {label}", t * 1e3, baseline_full * 1e3, "ms", False,
                        "target < 20 ms"))
    t = cpu_seconds(lambda: lb.lowball_odds(balanced, method="cards"), max(1, args.runs // 2))
    rows.append(Row(name, "exact, hand by hand over card multisets", t * 1e3, baseline_full * 1e3, "ms", False,
                    "cross-check path"))
    rows.append(Row(name, "class table, built once per process", build * 1e3, baseline_full * 1e3, "ms", False))
    t = cpu_seconds(lambda: lb.gamblin_odds(stacked, balanced), args.runs)
    rows.append(Row(name, "exact head-to-head (two decks)", t * 1e3, 2 * baseline_full * 1e3, "ms", False,
                    "baseline: both enumerations only"))

    # Monte Carlo: kernel hands per second (one worker) beside plain shuffle-and-evaluate
    trials = args.trials
    t = cpu_seconds(lambda: lb.lowball_odds(balanced, exact=False, trials=trials, seed=1), args.runs)
    rows.append(Row(name, "Monte Carlo lowball hands / s", trials / t, plain_hands / t_shuffle, "hands/s", True))
    t = cpu_seconds(lambda: lb.gamblin_odds(stacked, balanced, exact=False, trials=trials, seed=1), args.runs)
    rows.append(Row(name, "Monte Carlo head-to-head deals / s", trials / t, plain_hands / t_shuffle / 2,
                    "deals/s", True, "baseline: two plain hands per deal"))
    t = cpu_seconds(lambda: lb.table_odds([balanced, stacked, balanced, stacked], trials=trials, seed=1),
                    args.runs)
    rows.append(Row(name, "Monte Carlo 4-player table deals / s", trials / t, plain_hands / t_shuffle / 4,
                    "deals/s", True, "baseline: four plain hands per deal"))
    return rows


# Sections run in this order. Owners add their own section functions to this list.
SECTIONS: list[Callable[[argparse.Namespace], list[Row]]] = [lowball_section]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs per kernel figure (median)")
    ap.add_argument("--baseline-hands", type=int, default=10_000, help="hands the plain Python baseline evaluates")
    ap.add_argument("--trials", type=int, default=2_000_000, help="Monte Carlo trials per kernel run")
    args = ap.parse_args(argv)
    print(f"oddsmith deck benchmarks: CPU time, median of {args.runs} runs, one core; "
          f"numpy {np.__version__}, Python {sys.version.split()[0]}")
    rows: list[Row] = []
    for section in SECTIONS:
        rows.extend(section(args))
    print_rows(rows)


if __name__ == "__main__":
    main()
