"""Benchmark the Doomtown hand evaluator against the pure-Python reference.

    python scripts/bench_hands.py [--hands 2000000] [--ref-hands 300] [--runs 5]

Every figure is hands per second of CPU time (``time.thread_time``, the calling thread), the
median of ``--runs`` runs, on one core. The reference is the brute-force
evaluator of ``tests/reference_doomtown.py`` (every five-card subset, every
joker identity), timed in the same run on a smaller sample of the same kind of
hands; the ratio is kernel rate / reference rate.

Cases:
* 5-card hands (key + cheatin'), from a 54-card deck with duplicates and 2 jokers
  and from one without jokers;
* best-of-7 drawn inside the kernel from a 54-card deck with duplicates and 2
  jokers, best and best legal hand with keys (the issue's target case);
* best-of-7 and best-of-10 batches (pre-drawn), with and without jokers, best
  and best legal keys; best-of-7 with the five cards kept; lowball 5 and 7.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import reference_doomtown as ref  # noqa: E402
from oddsmith._ext import hand_eval  # noqa: E402

JOKER = 52


def stacked_deck(jokers: int) -> np.ndarray:
    """A shootout-minded deck with many duplicates: all 16 eights and all 16 kings (four copies
    of each suit+value), plus 20 other cards with up to two copies each."""
    rng = np.random.default_rng(7)
    cards = [c for v in (8, 13) for s in range(4) for c in [(v - 1) * 4 + s] * 4]  # 32 cards
    others = [c for c in range(52) if (c // 4 + 1) not in (8, 13)]
    cards += rng.choice(np.repeat(others, 2), 20, replace=False).tolist()  # up to 2 copies each
    return np.array(cards + [JOKER] * jokers, dtype=np.uint8)


def draw_hands(deck: np.ndarray, n_hands: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((n_hands, len(deck)))
    return deck[np.argpartition(keys, size, axis=1)[:, :size]].astype(np.uint8)


def cpu_rate(fn, count: int, runs: int) -> float:
    """Median over runs of count / CPU seconds, after one untimed warm-up run.

    The warm-up keeps first-touch page faults and cold caches out of the first case measured."""
    fn()
    rates = []
    for _ in range(runs):
        t0 = time.thread_time()
        fn()
        rates.append(count / max(time.thread_time() - t0, 1e-9))
    return statistics.median(rates)


def padded(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n, k = hands.shape
    cards = np.full((n, 15), JOKER, dtype=np.uint8)
    cards[:, :k] = hands
    return cards, np.full(n, k, dtype=np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2_000_000, help="kernel hands per run")
    ap.add_argument("--ref-hands", type=int, default=300, help="reference hands per run")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    n, nr, runs = args.hands, args.ref_hands, args.runs
    deck2, deck0 = stacked_deck(2), stacked_deck(0)
    ref._tables()  # build the reference's lookup tables outside the timing

    rows = []

    def report(label: str, rate: float, ref_rate: float | None, target: float | None = None) -> None:
        ratio = f"{rate / ref_rate:10,.0f}x" if ref_rate else " " * 11
        tgt = f"  (target {target / 1e6:.0f} M/s: {'met' if rate >= target else 'NOT met'})" if target else ""
        print(f"{label:<58} {rate / 1e6:8.2f} M/s  ref {ref_rate or 0:10,.0f}/s {ratio}{tgt}", flush=True)
        rows.append((label, rate, ref_rate))

    def ref_rate_for(hands: np.ndarray, lowball: bool = False) -> float:
        sample = [h.tolist() for h in hands[:nr]]

        def run() -> None:
            ref.key_of_identities.cache_clear()  # each run starts cold: no help from earlier runs
            for h in sample:
                ref.best_hand(h, lowball=lowball)

        return cpu_rate(run, len(sample), runs)

    print(f"CPU-time rates, median of {runs} runs; kernel {n:,} hands/run, reference {nr} hands/run\n")

    # 5-card hands
    for deck, name in ((deck2, "54-card deck, 2 jokers"), (deck0, "52-card deck, no jokers")):
        five = draw_hands(deck, n, 5, 1)
        key = np.zeros(n, np.int64)
        cheat = np.zeros(n, np.uint8)
        rate = cpu_rate(lambda: hand_eval.evaluate_five(five, False, key, cheat), n, runs)
        report(f"5-card key + cheatin' ({name})", rate, ref_rate_for(five), 30e6)

    # best-of-7 drawn inside the kernel (the target case)
    best = np.zeros(12, np.int64)
    legal = np.zeros(12, np.int64)
    bitgen = np.random.PCG64(11)
    rate = cpu_rate(lambda: hand_eval.sample_rank_counts(deck2, 7, n, bitgen, best, legal), n, runs)
    report("best-of-7 incl. drawing 7 of 54 (2 jokers), best+legal keys", rate, ref_rate_for(draw_hands(deck2, nr, 7, 2)), 15e6)

    # pre-drawn batches
    for size in (7, 10):
        for deck, name in ((deck2, "2 jokers"), (deck0, "no jokers")):
            hands = draw_hands(deck, n, size, 3)
            cards, lengths = padded(hands)
            key = np.zeros(n, np.int64)
            lkey = np.zeros(n, np.int64)
            rate = cpu_rate(lambda: hand_eval.evaluate_keys(cards, lengths, False, key, lkey), n, runs)
            report(f"best-of-{size} batch, best+legal keys ({name})", rate, ref_rate_for(hands))

    # full results with the five cards kept
    m = n // 4
    hands = draw_hands(deck2, m, 7, 4)
    cards, lengths = padded(hands)
    out = [np.zeros(m, np.int64), np.zeros(m, np.uint8), np.zeros((m, 5), np.uint8), np.zeros((m, 5), np.uint8),
           np.zeros(m, np.uint32), np.zeros(m, np.int64), np.zeros((m, 5), np.uint8), np.zeros((m, 5), np.uint8),
           np.zeros(m, np.uint32)]
    rate = cpu_rate(lambda: hand_eval.evaluate(cards, lengths, False, *out), m, runs)
    report("best-of-7 batch with the five cards kept (2 jokers)", rate, ref_rate_for(hands))

    # lowball
    five = draw_hands(deck2, n, 5, 5)
    key = np.zeros(n, np.int64)
    cheat = np.zeros(n, np.uint8)
    rate = cpu_rate(lambda: hand_eval.evaluate_five(five, True, key, cheat), n, runs)
    report("lowball 5-card key + cheatin' (2 jokers)", rate, ref_rate_for(five, lowball=True))
    m = n // 10
    hands = draw_hands(deck2, m, 7, 6)
    cards, lengths = padded(hands)
    key = np.zeros(m, np.int64)
    lkey = np.zeros(m, np.int64)
    rate = cpu_rate(lambda: hand_eval.evaluate_keys(cards, lengths, True, key, lkey), m, runs)
    report("lowball best-of-7 batch, best+legal keys (2 jokers)", rate, ref_rate_for(hands, lowball=True))


if __name__ == "__main__":
    main()
