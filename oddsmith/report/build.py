"""Putting a report together: settings checked up front, pages built, document written.

Everything a user can get wrong (format, paper size, output folder, trials,
workers, seed, deck or posse names) is checked before any long work starts,
so bad input costs nothing and leaves no file behind.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from oddsmith.output import Progress
from oddsmith.report import document, glossary
from oddsmith.sampling import SamplingPlan, check_trials, check_workers, resolve_seed

#: Trials per simulated figure in reports: the standard error of a proportion is at
#: most sqrt(0.25 / 50000) = 0.22 percentage points, under the half point a printed
#: chart can show, and the sample report stays well under a minute on one core.
REPORT_TRIALS = 50_000
DEFAULT_PAPER = "a4"
DEFAULT_DPI = 150

TITLES = {
    "full": "oddsmith sample report",
    "deck": "oddsmith deck report",
    "shadows": "Shadows of the West reference sheets",
}


@dataclass(frozen=True)
class ReportSettings:
    """The checked options of one report."""

    output: Path
    fmt: str
    paper: str
    dpi: int
    seed: int
    trials: int
    workers: int

    @classmethod
    def from_options(cls, *, output: str | os.PathLike[str], fmt: str | None = None, paper: str | None = None,
                     dpi: int | None = None, seed: int | None = None, trials: int | None = None,
                     workers: int | None = None) -> "ReportSettings":
        fmt = document.format_for(output, fmt)
        paper = document.check_paper(paper or DEFAULT_PAPER)
        dpi = document.check_dpi(DEFAULT_DPI if dpi is None else dpi)
        target = document.check_output(output, several_files=fmt != "pdf")
        return cls(output=target, fmt=fmt, paper=paper, dpi=dpi, seed=resolve_seed(seed),
                   trials=check_trials(REPORT_TRIALS if trials is None else trials),
                   workers=check_workers(1 if workers is None else workers))

    def plan(self) -> SamplingPlan:
        return SamplingPlan(seed=self.seed, trials=self.trials)


class Steps(Progress):
    """Progress over the sections of a report, naming the one being built (stderr only)."""

    def step(self, label: str) -> None:
        self.label = f"{label[:38]:<38}"
        self.advance(0)

    def done_step(self) -> None:
        self.advance(1)


def make_report(kind: str, settings: ReportSettings, *, decks: list[str] | None = None, vs: str | None = None,
                posse: str | None = None, with_gang: bool = False) -> tuple[list[Path], int]:
    """Build and write a report; returns the files written and the page count."""
    from oddsmith.report import battle_page, deck_report, shadows_sheets

    plan = settings.plan()
    # Load every input first: a missing deck or posse fails before any simulation.
    deck_inputs = None
    if kind in ("full", "deck"):
        deck_inputs = deck_report.load_decks(decks if kind == "deck" else None, vs, with_gang=with_gang)
    posse_input = shadows_sheets.load_posse(posse) if kind == "shadows" and posse else None

    sections = 0
    if deck_inputs is not None:
        sections += deck_report.n_steps(deck_inputs)
    if kind in ("full", "shadows"):
        sections += shadows_sheets.n_steps(posse_input) + battle_page.n_steps()
    pages: list[document.Page] = []
    with Steps(sections, "report", delay=0.5) as steps:
        if deck_inputs is not None:
            pages += document.in_part(deck_report.deck_pages(deck_inputs, plan, workers=settings.workers,
                                                             steps=steps), glossary.DOOMTOWN)
        if kind in ("full", "shadows"):
            pages += document.in_part(shadows_sheets.shadows_pages(posse_input, steps=steps)
                                      + battle_page.battle_pages(plan, workers=settings.workers, steps=steps),
                                      glossary.SHADOWS)
        doc = document.Document(
            title=TITLES[kind], pages=pages, seed=plan.seed, bit_generator=plan.bit_generator,
            chunk_trials=plan.chunk_trials, description=_description(kind, deck_inputs, posse_input))
        steps.step("writing " + settings.output.name)
        written = document.write_document(doc, settings.output, fmt=settings.fmt, paper=settings.paper,
                                          dpi=settings.dpi)
    return written, len(doc.all_pages(paged=settings.fmt not in ("md", "html")))


def _description(kind, deck_inputs, posse_input) -> list[str]:
    from oddsmith.report import deck_report, shadows_sheets

    lines: list[str] = []
    if deck_inputs is not None:
        lines += deck_report.describe(deck_inputs)
    if kind in ("full", "shadows"):
        lines += shadows_sheets.describe(posse_input)
    return lines
