"""`oddsmith report`: printable reports (PDF, PNG, SVG, Markdown, HTML).

* ``oddsmith report`` (and ``oddsmith`` alone): the sample report from the
  decks and posses shipped in the package: a cover, the deck report for the
  starter decks against each other, and the Shadows reference sheets.
* ``oddsmith report deck DECK [DECK ...] [--vs DECK]``: the deck report.
* ``oddsmith report shadows [POSSE]``: the Shadows of the West reference
  sheets, with a page per model of a posse file.

The options can be given before or after the sub-command.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

import typer

from oddsmith.errors import OddsmithError

DEFAULT_OUTPUT = {"full": "oddsmith-report", "deck": "oddsmith-deck-report", "shadows": "oddsmith-shadows-sheets"}

report_app = typer.Typer(
    name="report",
    help="Printable charts and reference sheets: the sample report, deck reports, Shadows sheets.",
    invoke_without_command=True,
    rich_markup_mode=None,
)


@dataclass
class ReportOptions:
    output: Optional[str] = None
    format: Optional[str] = None
    paper: Optional[str] = None
    dpi: Optional[int] = None
    seed: Optional[int] = None
    trials: Optional[int] = None
    workers: Optional[int] = None
    no_cache: Optional[bool] = None

    def merged(self, parent: "ReportOptions | None") -> "ReportOptions":
        """Options given after the sub-command win over those given before it."""
        if parent is None:
            return self
        return ReportOptions(**{k: (v if v is not None else getattr(parent, k)) for k, v in vars(self).items()})


_OUTPUT = typer.Option(None, "--output", "-o", help="File to write (default oddsmith-report.pdf etc. in the current folder).")
_FORMAT = typer.Option(None, "--format", "-f", metavar="[pdf|png|svg|md|html]", help="pdf, png, svg, md or html (default: from the output file's suffix, else pdf).")
_PAPER = typer.Option(None, "--paper", metavar="[a4|letter]", help="Page size: a4 (default) or letter.")
_DPI = typer.Option(None, "--dpi", help="Resolution of PNG pages and charts (default 150).")
_SEED = typer.Option(None, "--seed", help="Seed of every simulated figure (default: fresh, printed on each page).")
_TRIALS = typer.Option(None, "--trials", "-t", help="Trials per simulated figure (default 50,000: standard error at most 0.22 pp).")
_WORKERS = typer.Option(None, "--workers", "-w", help="Worker threads for the simulations (results do not depend on it).")
_NO_CACHE = typer.Option(None, "--no-cache", help="Neither use nor keep the result cache (~/.cache/oddsmith): make every figure afresh.", show_default=False)


def _run(kind: str, opts: ReportOptions, **what) -> int:
    # Heavy imports only when a report is made, so the rest of the CLI starts fast.
    from oddsmith.report import build

    started = time.perf_counter()
    fmt = opts.format
    output = opts.output
    if output is None:
        from oddsmith.report.document import FORMATS

        suffix = (fmt or "pdf").lower()
        if suffix not in FORMATS:
            raise OddsmithError(f"unknown report format {fmt!r}: choose one of {', '.join(FORMATS)}")
        output = f"{DEFAULT_OUTPUT[kind]}.{suffix}"
    settings = build.ReportSettings.from_options(
        output=output, fmt=fmt, paper=opts.paper, dpi=opts.dpi, seed=opts.seed, trials=opts.trials,
        workers=opts.workers, cache=not opts.no_cache)
    written, pages = build.make_report(kind, settings, **what)
    elapsed = time.perf_counter() - started
    extra = f" and {len(written) - 1} more file{'s' if len(written) > 2 else ''} beside it" if len(written) > 1 else ""
    typer.echo(f"wrote {written[0]} ({pages} page{'s' if pages != 1 else ''}){extra} in {elapsed:.1f} s")
    return 0


@report_app.callback(invoke_without_command=True)
def report(
    ctx: typer.Context,
    output: Optional[str] = _OUTPUT,
    format: Optional[str] = _FORMAT,
    paper: Optional[str] = _PAPER,
    dpi: Optional[int] = _DPI,
    seed: Optional[int] = _SEED,
    trials: Optional[int] = _TRIALS,
    workers: Optional[int] = _WORKERS,
    no_cache: Optional[bool] = _NO_CACHE,
) -> None:
    """With no sub-command: the sample report (starter decks against each other, Shadows reference sheets)."""
    opts = ReportOptions(output, format, paper, dpi, seed, trials, workers, no_cache)
    if ctx.invoked_subcommand is None:
        _run("full", opts)
    else:
        ctx.obj = opts


@report_app.command("deck")
def report_deck(
    ctx: typer.Context,
    decks: list[str] = typer.Argument(..., metavar="DECK", help="Deck files or names of shipped sample decks."),
    vs: Optional[str] = typer.Option(None, "--vs", help="Opponent deck for the head-to-head pages (default: the decks against each other)."),
    with_gang: bool = typer.Option(False, "--with-gang", help="Keep each starting gang in its draw deck (the full deck lists). Default: the decks as set-up leaves them, the starting gangs in play."),
    output: Optional[str] = _OUTPUT,
    format: Optional[str] = _FORMAT,
    paper: Optional[str] = _PAPER,
    dpi: Optional[int] = _DPI,
    seed: Optional[int] = _SEED,
    trials: Optional[int] = _TRIALS,
    workers: Optional[int] = _WORKERS,
    no_cache: Optional[bool] = _NO_CACHE,
) -> None:
    """Deck report: cards by value and suit, shootout and lowball odds, matchups, the trade-off chart."""
    opts = ReportOptions(output, format, paper, dpi, seed, trials, workers, no_cache).merged(ctx.obj)
    _run("deck", opts, decks=list(decks), vs=vs, with_gang=with_gang)


@report_app.command("shadows")
def report_shadows(
    ctx: typer.Context,
    posse: Optional[str] = typer.Argument(None, metavar="[POSSE]", help="A posse file (TOML) or a shipped sample posse: adds a page per model."),
    output: Optional[str] = _OUTPUT,
    format: Optional[str] = _FORMAT,
    paper: Optional[str] = _PAPER,
    dpi: Optional[int] = _DPI,
    seed: Optional[int] = _SEED,
    trials: Optional[int] = _TRIALS,
    workers: Optional[int] = _WORKERS,
    no_cache: Optional[bool] = _NO_CACHE,
) -> None:
    """Shadows of the West reference sheets (all exact), plus a page per model of POSSE."""
    opts = ReportOptions(output, format, paper, dpi, seed, trials, workers, no_cache).merged(ctx.obj)
    _run("shadows", opts, posse=posse)


def default_report() -> None:
    """What `oddsmith` with no command does: exactly `oddsmith report` with no arguments."""
    _run("full", ReportOptions())


def register(app: typer.Typer) -> None:
    app.add_typer(report_app, name="report")
