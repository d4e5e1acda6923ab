"""`oddsmith sweep DECK [DECK ...] --vs OPPONENT`: many decks on one grid of questions, one tidy
table, on local processes or a Dask cluster (docs/deckbuilding.md).

The analysis is :func:`oddsmith.sweep.sweep`; this module parses options and writes. Nothing
heavy is imported at module level (the CLI starts fast).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer

from oddsmith.errors import OddsmithError

FORMATS = ("table", "csv", "json", "md", "parquet")
BY_SUFFIX = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".json": "json", ".md": "md"}
PARQUET_HINT = 'Parquet output needs pyarrow: pip install "oddsmith[parquet]" (or write .csv)'


def _format(fmt: Optional[str], output: Optional[Path]) -> str:
    if fmt is None:
        return BY_SUFFIX.get(output.suffix.lower(), "table") if output is not None else "table"
    value = str(fmt).strip().casefold()
    if value not in FORMATS:
        raise OddsmithError(f"--format {fmt!r}: use {', '.join(FORMATS)}")
    if value == "parquet" and (output is None or str(output) == "-"):
        raise OddsmithError("--format parquet writes a file: give -o FILE.parquet")
    return value


def render(df, fmt: str) -> str:
    from oddsmith.output import Format, dumps_json, format_frame

    if fmt == "json":
        return dumps_json({"rows": df.to_dict("records")})
    if fmt == "csv":
        return df.to_csv(index=False, lineterminator="\n", float_format="%.17g")
    from oddsmith.output import plus_minus

    shown = df[["deck", "question", "stud", "draw", "measure"]].copy()
    for col in ("p", "p_cheatin", "mean_rank"):
        shown[col + " ± se"] = [("" if v != v else f"{v:.4f}") if ex else plus_minus(v, e, 4)
                                for v, e, ex in zip(df[col], df[col + "_stderr"], df["exact"])]
    shown["exact"] = ["yes" if e else f"{t:,} hands" for e, t in zip(df["exact"], df["trials"])]
    return format_frame(shown, Format(fmt))


def register(app: typer.Typer) -> None:
    """Add `oddsmith sweep`."""

    @app.command("sweep")
    def sweep_cmd(
        decks: List[str] = typer.Argument(..., metavar="DECK...", help="Deck files, folders of deck files, '-' or sample names."),
        vs: str = typer.Option(..., "--vs", help="The opponent's deck for Gamblin' (a file, '-' or a sample name)."),
        studs: str = typer.Option("0-2", "--studs", help="Stud bonuses of the grid: a range (0-2), a list (0,2,4) or one value."),
        draws: str = typer.Option("0-1", "--draws", help="Draw bonuses of the grid (as --studs)."),
        at_least: int = typer.Option(7, "--at-least", help="Shootout figure: P(kept hand of this rank or better), 2..11 (default 7, Full House)."),
        policy: str = typer.Option("legal", "--policy", help="Hand-keeping policy: legal, greedy or margin:K."),
        discard: str = typer.Option("heuristic", "--discard", help="Discard policy: heuristic or automaton."),
        tune_candidates: bool = typer.Option(False, "--tune-candidates", help="Sweep the candidates of a default `deck tune` of each DECK against --vs (its frontier swaps and best sequences) instead of DECK itself."),
        pool: str = typer.Option("box", "--pool", help="With --tune-candidates: the tune pool (box, all, or titles)."),
        trials: Optional[int] = typer.Option(None, "--trials", "-t", help="Simulated hands per simulated cell (default 100,000)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the simulations (default: fresh, and recorded in every row)."),
        workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Local worker processes (default: all cores); results do not depend on it."),
        scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Run on Dask: 'local' (a LocalCluster of --workers processes) or tcp://HOST:PORT."),
        restart: bool = typer.Option(False, "--restart", help="Ignore the journal of an interrupted run and start over."),
        partial: bool = typer.Option(False, "--partial", help="Accept decks of fewer than 52 valued cards."),
        fmt: Optional[str] = typer.Option(None, "--format", "-f", help="table, csv, json, md or parquet (default: from the -o suffix, else table)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write here (.parquet, .csv, .json, .md); a journal FILE.journal makes an interrupted run resumable."),
    ) -> None:
        """Evaluate many decks on one grid of questions: one tidy table (Parquet, CSV ...).

        One row per deck and question (Gamblin' against --vs; the shootout hand at each stud and
        draw of the grid), with the version, seed and trials; the same bytes whatever runs it."""
        from oddsmith import sweep as W
        from oddsmith.commands._common import check_one_stdin, check_output, load
        from oddsmith.commands.odds import parse_bonus_list
        from oddsmith.executor import make_executor
        from oddsmith.output import Progress, emit, note
        from oddsmith.sampling import check_workers, resolve_seed

        check_output(output)
        kind = _format(fmt, output)
        if kind == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise OddsmithError(PARQUET_HINT) from None
        n_workers = check_workers(workers if workers is not None else (os.cpu_count() or 1))
        grid = W.SweepGrid(studs=tuple(parse_bonus_list(studs, "--studs")),
                           draws=tuple(parse_bonus_list(draws, "--draws")), at_least=at_least, policy=policy,
                           discard=discard, trials=W.DEFAULT_TRIALS if trials is None else trials).checked()
        seed = resolve_seed(seed)
        specs = W.deck_files(decks)
        check_one_stdin([*specs, vs])
        opponent_loaded = load(vs, partial)
        opponent = W.sweep_deck(opponent_loaded, source=vs)
        loaded = [(load(s, partial), s) for s in specs]  # every deck is read before any work
        journal = None
        if output is not None and str(output) != "-" and (not output.exists() or output.is_file()):
            journal = W.journal_path(output)
            if restart and journal.exists():
                journal.unlink()
        with make_executor(n_workers, scheduler) as ex:
            if tune_candidates:
                items = []
                for d, _ in loaded:
                    items += W.tune_candidates(d, opponent_loaded, seed=seed, executor=ex, pool=pool)
            else:
                items = [W.sweep_deck(d, source=s) for d, s in loaded]
            with Progress(len(items), "sweep") as progress:
                df = W.sweep(items, opponent, grid, seed=seed, executor=ex, journal=journal, progress=progress)
        if kind in ("parquet", "csv") and output is not None and str(output) != "-":
            W.write_table(df, output, kind)
        else:
            emit(render(df, kind), output)
        if journal is not None and journal.exists():
            journal.unlink()  # the table is complete: nothing to resume
        if kind in ("table", "md") and output is None:
            emit(note(f"{len(items)} decks, {len(df)} rows, seed {seed}, on {ex.describe()}"))
