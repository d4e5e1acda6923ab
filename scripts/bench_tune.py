"""Benchmark of `oddsmith deck tune` and `oddsmith sweep` (docs/speed.md, 'Deckbuilding').

Measured in one run:

1. the default tune question (a starter deck against another, stud 0, draw 0, the box's
   cards, sequences of up to 2 swaps by beam search): candidate decks evaluated per CPU
   second, and the whole tune's CPU time, in this process;
2. the same tune with a simulated shootout figure (stud 1, draw 1, 20,000 paired hands per
   deck): decks per CPU second;
3. `sweep` of the sample decks on a simulated grid with 1 worker process and with 2
   (ProcessExecutor): wall-clock seconds and the speed-up; the two tables are checked to
   be the same bytes.

    python scripts/bench_tune.py [--trials 200000] [--repeat 2]
    python scripts/bench_tune.py --search    # the beam search against exhaustive search
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from oddsmith import sweep as W  # noqa: E402
from oddsmith.doomtown import tune as T  # noqa: E402
from oddsmith.doomtown.deck import load_deck, sample_names  # noqa: E402
from oddsmith.executor import ProcessExecutor  # noqa: E402


def tune_rate(question: T.TuneQuestion, label: str) -> None:
    deck, opp = load_deck("law-dogs"), load_deck("outlaws")
    cpu, wall = time.process_time(), time.perf_counter()
    res = T.tune(deck, opp, question=question, seed=1)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"tune law-dogs --vs outlaws, {label}: {res.evaluated:,} candidate decks in {cpu:.2f} CPU s "
          f"({wall:.2f} s wall): {res.evaluated / cpu:,.0f} decks per CPU second; "
          f"{len(res.swaps):,} single swaps, {len(res.frontier)} on the frontier")


def _workers_cpu(ex: ProcessExecutor) -> float:
    """CPU seconds the executor's worker processes have used (Linux /proc; their parent is the
    forkserver, so this process's RUSAGE_CHILDREN never sees them)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in list(ex._pool._processes or {}):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def sweep_time(workers: int, decks, opponent, grid) -> tuple[float, float, bytes]:
    """Wall seconds of the sweep, CPU seconds its worker processes used, and the table's bytes."""
    with ProcessExecutor(workers) as ex:
        ex.map(len, [((),)] * (4 * workers))  # start the worker processes before the clock
        cpu = _workers_cpu(ex)
        t = time.perf_counter()
        df = W.sweep(decks, opponent, grid, seed=1, executor=ex)
        t = time.perf_counter() - t
        cpu = _workers_cpu(ex) - cpu
    return t, cpu, df.to_csv(index=False, float_format="%.17g").encode()


SEARCH_CASES = (
    ("law-dogs", "outlaws", "Pearl-Handled Revolver; Flame-Thrower; Tusk"),
    ("law-dogs", "outlaws", "Cattle Market; Pony Express; 2nd Bank of Gomorra"),
    ("outlaws", "law-dogs", "Soul Blast; Corporeal Twist; Tusk; Sun in Yer Eyes"),
)


def search_gap(swaps: int = 3) -> None:
    """Greedy, beam 2, beam 4 against exhaustive search on small pools: the best score found at
    each length and the decks evaluated."""
    print(f"search against exhaustive, sequences of up to {swaps} swaps, score 0.5 x d_p_lowball_win + "
          f"0.5 x d_p_shootout (pp):")
    for deck, opp, pool in SEARCH_CASES:
        found = {}
        for label, search in (("greedy", T.TuneSearch(pool=pool, swaps=swaps, beam=1)),
                              ("beam 2", T.TuneSearch(pool=pool, swaps=swaps, beam=2)),
                              ("beam 4", T.TuneSearch(pool=pool, swaps=swaps, beam=4)),
                              ("exhaustive", T.TuneSearch(pool=pool, swaps=swaps, exhaustive=True))):
            res = T.tune(deck, opp, search=search, seed=1)
            best = res.sequences.groupby("length")["score"].max()
            found[label] = (best, res.evaluated)
        ex = found["exhaustive"][0]
        print(f"  {deck} --vs {opp} --pool '{pool}':")
        for label, (best, evaluated) in found.items():
            gaps = ", ".join(f"{k}: {100 * best[k]:+.4f}" + ("" if label == "exhaustive" else
                                                              f" (gap {100 * (ex[k] - best[k]):.4f})")
                             for k in best.index)
            print(f"    {label:<10} {evaluated:>6,} decks evaluated; best score by length {gaps}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200_000, help="simulated hands per sweep cell")
    ap.add_argument("--repeat", type=int, default=2, help="sweep timings per worker count (best kept)")
    ap.add_argument("--search", action="store_true", help="measure the search against exhaustive search instead")
    args = ap.parse_args()
    if args.search:
        search_gap()
        return
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    tune_rate(T.TuneQuestion(), "default question (stud 0, draw 0: exact)")
    tune_rate(T.TuneQuestion(stud=1, draw=1), "stud 1, draw 1 (20,000 paired hands per deck)")
    decks = [W.sweep_deck(load_deck(n), source=n) for n in sample_names()[:8]]
    opponent = W.sweep_deck(load_deck("outlaws"))
    grid = W.SweepGrid(studs=(0, 1, 2), draws=(1, 2), trials=args.trials)
    times: dict[int, float] = {}
    cpus: dict[int, float] = {}
    tables = {}
    for _ in range(args.repeat):
        for workers in (1, 2):
            t, cpu, table = sweep_time(workers, decks, opponent, grid)
            if t < times.get(workers, float("inf")):
                times[workers], cpus[workers] = t, cpu
            tables[workers] = table
    assert tables[1] == tables[2], "the sweep's bytes depend on the number of workers"
    cells = len(decks) * len(grid.studs) * len(grid.draws)
    print(f"sweep of {len(decks)} decks x {len(grid.studs) * len(grid.draws)} simulated cells x {args.trials:,} "
          f"hands ({cells * args.trials / 1e6:.1f} M hands): 1 process {times[1]:.2f} s, 2 processes "
          f"{times[2]:.2f} s: speed-up {times[1] / times[2]:.2f}x (best of {args.repeat}); same bytes")
    print(f"  CPU seconds of the worker processes: {cpus[1]:.2f} with 1, {cpus[2]:.2f} with 2: the work does not "
          f"grow with the workers ({cpus[2] / cpus[1]:.2f}x), so on an idle machine 2 processes take half the time")
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
