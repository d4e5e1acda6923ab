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
* ``shootout_section`` — exact stud 2 (seven cards) without a draw bonus (issue
  target: under 200 ms) beside a plain Python evaluation of every 7-card hand
  (rate measured on sampled hands and scaled to C(54, 7)); Monte Carlo shootout
  hands per second for stud 2 draw 0, stud 2 draw 2 (target: 5 million per core)
  and stud 4 draw 3, beside a plain Python shuffle-and-evaluate of the same
  shape (evaluate, discard up to the draw bonus, draw, evaluate), whose
  evaluator is first checked against the kernel.
* ``shootout_round_section`` — head-to-head rounds per second (target: 2 million
  per core) and the wall time of 1,000,000 rounds on 2 workers (target: under
  a second on an idle machine).
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


# ---------------------------------------------------------------------------
# Shootout (owner: shootout)
# ---------------------------------------------------------------------------

_DMH_CODES = frozenset({0, 3, 28, 31, 42})  # A♠ A♣ 8♠ 8♣ J♦


def _pack(rank: int, fields: list[int]) -> int:
    key = rank
    for f in (fields + [0] * 5)[:5]:
        key = key * 16 + f
    return key


def plain_max_key(cards: list[int], legal: bool) -> int:
    """Plain Python best shootout key of a hand (any legality, or of its de-duplicated cards
    when ``legal``; 0 when no legal five exists): categories from Dead Man's Hand down, as
    the rules model lists them, jokers taking the best value."""
    j = cards.count(JOKER)
    valued = [c for c in cards if c != JOKER]
    if legal:
        valued = sorted(set(valued))
        if len(valued) + j < 5:
            return 0
    count = [0] * 14
    suit_vals: list[list[int]] = [[], [], [], []]
    for c in valued:
        v = c // 4 + 1
        count[v] += 1
        suit_vals[c % 4].append(v)
    present = [v for v in range(13, 0, -1) if count[v]]

    def top_straight(values: set[int], jokers: int) -> int:
        for top in range(13, 4, -1):
            if sum(1 for x in range(top - 4, top + 1) if x not in values) <= jokers:
                return top
        return 0

    if len(_DMH_CODES & set(valued)) + j >= 5:
        return _pack(11, [8, 8, 1, 1, 11])
    for v in range(13, 0, -1):
        if count[v] + j >= 5:
            return _pack(10, [v] * 5)
    best_sf = 0
    for vals in suit_vals:
        if len(vals) + j >= 5:
            best_sf = max(best_sf, top_straight(set(vals), j))
    if best_sf:
        return _pack(9, list(range(best_sf, best_sf - 5, -1)))
    for v in range(13, 0, -1):
        if count[v] + j >= 4:
            rest = [u for u in present if u != v]
            return _pack(8, [v] * 4 + [rest[0] if rest else 13])
    best_fh = None
    for jt in range(j + 1):
        trips = [v for v in range(13, 0, -1) if count[v] + jt >= 3]
        if not trips:
            continue
        t = trips[0]
        pairs = [v for v in range(13, 0, -1) if v != t and count[v] + (j - jt) >= 2]
        if pairs and (best_fh is None or (t, pairs[0]) > best_fh):
            best_fh = (t, pairs[0])
    if best_fh:
        return _pack(7, [best_fh[0]] * 3 + [best_fh[1]] * 2)
    flushes = [sorted(vals, reverse=True) for vals in suit_vals if len(vals) + j >= 5]
    if flushes:
        return _pack(6, max([13] * j + f[:5 - j] for f in flushes))
    top = top_straight(set(present), j)
    if top:
        return _pack(5, list(range(top, top - 5, -1)))
    for v in range(13, 0, -1):
        if count[v] + j >= 3:
            return _pack(4, [v] * 3 + [u for u in present if u != v][:2])
    pairs = [v for v in present if count[v] >= 2]
    if len(pairs) >= 2:
        return _pack(3, [pairs[0]] * 2 + [pairs[1]] * 2 + [u for u in present if u not in pairs[:2]][:1])
    for v in range(13, 0, -1):
        if count[v] + j >= 2:
            return _pack(2, [v] * 2 + [u for u in present if u != v][:3])
    return _pack(1, present[:5])


def plain_kept_key(cards: list[int]) -> tuple[int, bool]:
    """The ``legal`` policy: the best legal hand when one exists, else cheat."""
    legal = plain_max_key(cards, True)
    return (legal, False) if legal else (plain_max_key(cards, False), True)


def plain_shootout_hand(deck: list[int], stud: int, draw: int, rng: random.Random) -> tuple[int, bool]:
    """A plain Python shootout hand: deal 5 + stud (+ draw replacements), evaluate, discard up
    to ``draw`` cards whose value is not in the kept hand (lowest first), draw, evaluate."""
    n = 5 + stud
    cards = rng.sample(deck, n + draw)
    hand, spare = cards[:n], cards[n:]
    if draw:
        key, _ = plain_kept_key(hand)
        kept_values = {(key >> (4 * i)) & 15 for i in range(5)}
        loose = sorted((c // 4 + 1, i) for i, c in enumerate(hand) if c != JOKER and c // 4 + 1 not in kept_values)
        for k, (_, i) in enumerate(loose[:draw]):
            hand[i] = spare[k]
    return plain_kept_key(hand)


def plain_shootout_rate(deck: list[int], stud: int, draw: int, hands: int, seed: int) -> float:
    """Plain Python shootout hands per CPU second, tallying ranks and cheatin'."""
    rng = random.Random(seed)
    ranks = [0] * 24
    t0 = time.process_time()
    for _ in range(hands):
        key, cheat = plain_shootout_hand(deck, stud, draw, rng)
        ranks[(key >> 20) * 2 + cheat] += 1
    return hands / (time.process_time() - t0)


def _check_plain_evaluator(deck: list[int], hands: int = 2_000) -> int:
    """The plain evaluator must agree with the kernel (else its speed means nothing)."""
    from oddsmith._ext import shootout as sx

    rng = random.Random(99)
    rows = np.array([rng.sample(deck, 7) for _ in range(hands)], dtype=np.uint8)
    keys = np.zeros(hands, dtype=np.int64)
    cheat = np.zeros(hands, dtype=np.uint8)
    sx.kept_keys(rows, 7, 99, keys, cheat)
    for row, key, ch in zip(rows.tolist(), keys.tolist(), cheat.tolist()):
        if plain_kept_key(row) != (key, bool(ch)):
            raise SystemExit(f"plain evaluator disagrees with the kernel on {row}")
    return hands


def shootout_section(args: argparse.Namespace) -> list[Row]:
    """Exact stud 2 without draw; Monte Carlo shootout hands per second."""
    from oddsmith.doomtown import shootout as so

    name = "Shootout hands"
    rows: list[Row] = []
    balanced = load_sample("balanced")
    stacked = load_sample("stack-16-16-16")
    codes = [int(c) for c in balanced.codes()]
    checked = _check_plain_evaluator(codes)
    plain_hands = max(200, args.baseline_hands // 5)

    # exact stud 2 (seven cards), draw 0: baseline = plain evaluation of every 7-card hand
    plain7 = plain_shootout_rate(codes, 2, 0, plain_hands, 1)
    all7 = math.comb(len(codes), 7)
    for deck, label in ((balanced, "balanced 52 + 2 jokers"), (stacked, "stack 16/16/16 + 2 jokers")):
        t = cpu_seconds(lambda: so.shootout_odds(deck, 2, 0), args.runs)
        rows.append(Row(name, f"exact stud 2 draw 0, {label}", t * 1e3, all7 / plain7 * 1e3, "ms", False,
                        "target < 200 ms"))
    t = cpu_seconds(lambda: so.exact_counts(stacked, 2, method="cards"), max(1, args.runs // 2))
    rows.append(Row(name, "exact stud 2, hand by hand, stack 16/16/16", t * 1e3, all7 / plain7 * 1e3, "ms", False,
                    "cross-check path"))

    # Monte Carlo hands per second, heuristic discards, legal policy, one worker
    trials = args.trials
    for stud, draw, note in ((2, 0, ""), (2, 2, "target >= 5,000,000"), (4, 3, "")):
        plain = plain7 if (stud, draw) == (2, 0) else plain_shootout_rate(codes, stud, draw, plain_hands, 2)
        t = cpu_seconds(lambda: so.shootout_odds(balanced, stud, draw, exact=False, trials=trials, seed=1),
                        args.runs)
        rows.append(Row(name, f"Monte Carlo stud {stud} draw {draw}, hands / s", trials / t, plain, "hands/s", True,
                        note))
    rows[0].note += f"; plain evaluator checked against the kernel on {checked:,} hands"
    return rows


def shootout_round_section(args: argparse.Namespace) -> list[Row]:
    """Head-to-head rounds per second; 1,000,000 rounds on 2 workers (wall time)."""
    from oddsmith.doomtown import shootout as so

    name = "Shootout rounds"
    rows: list[Row] = []
    balanced = load_sample("balanced")
    stacked = load_sample("stack-16-16-16")
    codes = [int(c) for c in balanced.codes()]
    plain_hands = max(200, args.baseline_hands // 5)
    plain = plain_shootout_rate(codes, 2, 2, plain_hands, 3) / 2  # two hands per round
    a, b = so.Side(stacked, 2, 2), so.Side(balanced, 2, 2)
    trials = args.trials
    t = cpu_seconds(lambda: so.shootout_round(a, b, trials=trials, seed=1), args.runs)
    rows.append(Row(name, "head-to-head stud 2 draw 2 each, rounds / s", trials / t, plain, "rounds/s", True,
                    "target >= 2,000,000; baseline: two plain hands per round"))
    walls = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        so.shootout_round(a, b, trials=1_000_000, seed=1, workers=2)
        walls.append(time.perf_counter() - t0)
    wall = statistics.median(walls)
    rows.append(Row(name, "1,000,000 rounds on 2 workers, wall time", wall * 1e3, 1_000_000 / plain * 1e3, "ms",
                    False, "target < 1000 ms on an idle machine; baseline: one plain Python process"))
    return rows


# Sections run in this order. Owners add their own section functions to this list.
SECTIONS: list[Callable[[argparse.Namespace], list[Row]]] = [lowball_section, shootout_section,
                                                             shootout_round_section]


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
