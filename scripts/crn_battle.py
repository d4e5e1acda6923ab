#!/usr/bin/env python
"""How much the common random numbers of ``oddsmith shadows value`` buy: paired standard errors of a few purchases
against the independent bound sqrt(se_base² + se_changed²) of the two runs' own errors.

The unaligned sample posse against the Twilight Order sample at 10", default policies; each purchase is the first
model of the posse that could buy it. Usage: python scripts/crn_battle.py [--trials 20000] [--seed 5]
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oddsmith.shadows import battle as B  # noqa: E402
from oddsmith.shadows import posse as P  # noqa: E402
from oddsmith.shadows import value as V  # noqa: E402

ITEMS = ("Trigger-Happy", "Deadeye", "Tough", "Boilerplate")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    a, b = P.sample_posse(None), P.sample_posse("twilight-order")
    first: dict[str, V.Candidate] = {}
    for c in V.candidates(a)[0]:
        first.setdefault(c.item, c)
    base = B.prepare(a, b)
    setups = [B.prepare(first[it].posse, b, base.options, check=False) for it in ITEMS]
    runs = B.run_paired(base, setups, args.trials, args.seed)
    s0 = B.summarise(base, runs.base, args.trials)[0].set_index("figure")
    print(f"{a.name} against {b.name} at 10\", {args.trials:,} battles, seed {args.seed}")
    print(f"{'purchase':40s} {'figure':13s} {'change':>8s} {'paired se':>10s} {'indep. bound':>12s} {'ratio':>6s}")
    for j, it in enumerate(ITEMS):
        s1 = B.summarise(setups[j], runs.counts[j], args.trials)[0].set_index("figure")
        who = f"{it} ({a.models[first[it].model_index].name})"
        for fig, col in (("a_wins", "p_a_wins"), ("casualties_b", "casualties_b")):
            d, se = runs.difference(j, fig)
            bound = math.hypot(s0.loc[col, "stderr"], s1.loc[col, "stderr"])
            print(f"{who:40s} {fig:13s} {d:+8.4f} {se:10.4f} {bound:12.4f} {se / bound:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
