"""Regenerate the example reports committed in reports/ (run from the repository root).

    python scripts/make_reports.py

Writes reports/oddsmith-report.pdf (the sample report, as `oddsmith report` makes it, with a fixed
seed so the committed figures are reproducible) and a few PNG charts the README shows. Every figure
comes from the engines through the report modules; nothing is drawn by hand here.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from oddsmith.cli import main
from oddsmith.report import battle_page, build, deck_report, document, shadows_sheets, style
from oddsmith.sampling import SamplingPlan

SEED = 20240601
OUT = Path(__file__).resolve().parent.parent / "reports"
README_DPI = 110


def save_chart(chart: document.Chart, name: str, width_share: float = 1.0) -> Path:
    path = OUT / name
    with style.report_style():
        fig = document.chart_figure(chart, "a4", width_share)
        with document.atomic_paths([path]) as (tmp,):
            fig.savefig(tmp, format="png", dpi=README_DPI)
    return path


def main_script() -> int:
    OUT.mkdir(exist_ok=True)
    started = time.perf_counter()
    rc = main(["report", "--seed", str(SEED), "--output", str(OUT / "oddsmith-report.pdf")])
    if rc:
        return rc
    # README charts: the trade-off of the starter decks, one deck's shootout grid, the shooting sheet,
    # one starting gang's what-is-+1-worth chart, the sample battles.
    plan = SamplingPlan(seed=SEED, trials=build.REPORT_TRIALS)
    inputs = deck_report.load_decks(None, None)
    pages = deck_report.deck_pages(inputs, plan)
    by_title = {p.title: p for p in pages}
    tradeoff = by_title["The trade-off: lowball against shootout strength"].charts()[0]
    grid = by_title["Deck: Law Dogs: shootouts"].charts()[0]
    lowball_page = by_title["Deck: Law Dogs: cards and lowball"]
    written = [save_chart(tradeoff, "tradeoff-starter-decks.png"),
               save_chart(grid, "shootout-grid-law-dogs.png"),
               save_chart(lowball_page.charts()[1], "lowball-law-dogs.png"),
               save_chart(shadows_sheets.shooting_page().charts()[0], "shadows-shooting.png"),
               save_chart(by_title["Whole shootouts: what is +1 worth? Law Dogs against Anarchists"].charts()[0],
                          "what-if-law-dogs.png"),
               save_chart(battle_page.matchup_page(plan).charts()[0], "battles-unaligned.png")]
    for p in written:
        print(f"wrote {p.relative_to(OUT.parent)} ({p.stat().st_size // 1024} KB)")
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main_script())
