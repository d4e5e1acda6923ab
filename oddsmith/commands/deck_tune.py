"""`oddsmith deck tune DECK --vs OPPONENT`: which card swaps would help (docs/deckbuilding.md).

The analysis is :func:`oddsmith.doomtown.tune.tune`; this module parses options and formats.
Nothing heavy is imported at module level (the CLI starts fast).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from oddsmith.errors import OddsmithError

CHART_SUFFIXES = (".png", ".svg", ".pdf")
TOP_HELP = "Rows of the swap table in table/Markdown output (the frontier first; JSON and CSV list every swap)."
POOL_HELP = ("Cards that may come in: box (the default: the box's copies not already in the deck), all (any card "
             "up to the deck-building limits) or titles separated by ';' ('2x Shotgun; Bass Reeves').")


FORMATS = ("table", "csv", "json", "md")


def parse_format(text: str):
    """``--format`` as :class:`oddsmith.output.Format` (a plain option, so the CLI imports nothing heavy)."""
    from oddsmith.output import Format

    value = str(text).strip().casefold()
    if value not in FORMATS:
        raise OddsmithError(f"--format {text!r}: use {', '.join(FORMATS)}")
    return Format(value)


def _check_chart(chart: Optional[Path]) -> None:
    from oddsmith.output import check_output_path

    if chart is None:
        return
    if chart.suffix.lower() not in CHART_SUFFIXES:
        raise OddsmithError(f"--chart {chart}: the file name must end in {', '.join(CHART_SUFFIXES)}")
    check_output_path(chart)


def _pct(x: float) -> str:
    return f"{100 * x:+.2f}"


def _pm(x: float, se: float, exact: bool) -> str:
    return _pct(x) if exact else f"{_pct(x)} ± {100 * se:.2f}"


def _grouped(swaps, names: list[str]):
    """Swaps with the same cards out and in (the same suit and value) score the same: one row,
    the titles joined."""
    import pandas as pd

    rows = []
    for _, g in swaps.groupby(["out_card", "in_card", "out_type", "in_type"], sort=False, dropna=False):
        first = g.iloc[0].to_dict()
        first["out"] = _joined(g["out"])
        first["in"] = _joined(g["in"])
        first["frontier"] = bool(g["frontier"].any())
        rows.append(first)
    return pd.DataFrame(rows)


def _joined(titles) -> str:
    names = list(dict.fromkeys(titles))
    return names[0] + (f" (or {len(names) - 1} more)" if len(names) > 1 else "")


def render(result: Any, fmt: Any, top: int) -> str:
    from oddsmith.output import Format, dumps_json, fact_lines, format_frame, note

    if fmt is Format.json:
        return dumps_json(result.to_json())
    names = result.delta_names
    if fmt is Format.csv:
        df = result.swaps.copy()
        df.insert(0, "deck", result.deck)
        df.insert(1, "opponent", result.opponent)
        df["shootout_measure"] = result.question.measure
        df["seed"] = result.seed
        df["deck_state"] = result.deck_state
        return format_frame(df, fmt)
    exact = result.exact
    grouped = _grouped(result.swaps, names)
    grouped = grouped.sort_values(["frontier", "score"], ascending=[False, False], kind="stable").head(top)
    cols = {"out": grouped["out"], "in": grouped["in"], "cards": grouped["out_card"] + " -> " + grouped["in_card"],
            "frontier": ["yes" if f else "" for f in grouped["frontier"]]}
    labels = {"d_p_lowball_win": "Δ win Gamblin' %", "d_p_shootout": "Δ shootout %", "d_p_cheatin": "Δ cheatin' %",
              "d_p_full_shootout_win": "Δ win shootout %"}
    for k, label in labels.items():
        if k in names:
            cols[label] = [_pm(v, s, exact[k]) for v, s in
                           zip(grouped[k], grouped.get(k + "_stderr", grouped[k] * 0))]
    import pandas as pd

    table = pd.DataFrame(cols)
    seq_rows = []
    for r in result.sequences.to_dict("records"):
        row = {"swaps": "; ".join(f"-{o} +{i}" for o, i in r["swaps"])}
        for k, label in labels.items():
            if k in names:
                row[label] = _pm(r[k], r.get(k + "_stderr", 0.0) or 0.0, exact[k])
        seq_rows.append(row)
    seqs = pd.DataFrame(seq_rows)
    q, s = result.question, result.search
    cur = result.current
    search = ("exhaustive" if s.exhaustive else "greedy" if s.beam == 1 else f"beam search (width {s.beam})")
    facts = [
        ("deck", f"{result.deck}; {result.deck_state}"),
        ("opponent", result.opponent),
        ("current deck", f"P(win Gamblin') {100 * cur['p_lowball_win']:.2f} %, {q.measure} "
                         f"{100 * cur['p_shootout']:.2f} %, P(cheatin' in Gamblin') {100 * cur['p_cheatin']:.2f} %"
         + (f", P(win the whole shootout) {100 * cur['p_full_shootout_win']:.2f} %" if result.posse else "")),
        ("shootout measure", q.measure_text),
        ("pool", f"{s.pool} ({result.pool_size} cards that may come in"
                 + (", any type" if s.any_type else ", same type") + ")"),
        ("swaps", f"{len(result.swaps)} legal single swaps, {len(result.frontier)} on the frontier; "
                  f"{result.evaluated} decks evaluated"),
        ("search", f"{search} for up to {s.swaps} swaps, score {q.lowball_weight:g} × Δ win Gamblin' + "
                   f"{1 - q.lowball_weight:g} × Δ shootout"),
        ("figures", "exact" if all(exact.values()) else
         f"Gamblin' exact; simulated figures ± 1 paired standard error "
         f"({'' if exact['d_p_shootout'] else f'{q.trials:,} hands'}"
         f"{', ' if not exact['d_p_shootout'] and result.posse else ''}"
         f"{f'{q.full_trials:,} whole shootouts' if result.posse else ''} per deck, seed {result.seed})"),
    ]
    if fmt is Format.md:
        return (f"## Tuning {result.deck} against {result.opponent}\n\n"
                + "\n".join(f"- **{k}**: {v}" for k, v in facts) + "\n\n"
                + format_frame(table, fmt, title="Single swaps (percentage points)") + "\n"
                + format_frame(seqs, fmt, title="Best sequences"))
    return (fact_lines(facts) + "\n" + format_frame(table, fmt, title="single swaps (changes in percentage points)")
            + "\n" + format_frame(seqs, fmt, title="best sequences") + note(
                "Swaps of the same suit and value for the same are one row ('or N more' counts the other "
                "titles; JSON and CSV list them all)."))


def register_tune(deck_app: typer.Typer) -> None:
    """Add `oddsmith deck tune`."""
    from oddsmith.commands._common import FORMAT_HELP, OUTPUT_HELP
    from oddsmith.commands.deck import DECK_HELP, PARTIAL_HELP

    @deck_app.command("tune")
    def tune_cmd(
        deck: str = typer.Argument(..., metavar="DECK", help=DECK_HELP),
        vs: str = typer.Option(..., "--vs", help="The opponent's deck (a file, '-' or a sample name)."),
        posse: Optional[str] = typer.Option(None, "--posse", help="Your posse for whole shootouts (with --vs-posse): a file or items such as 'Philip Swinford; Tommy Harden'."),
        vs_posse: Optional[str] = typer.Option(None, "--vs-posse", help="The opponent's posse (as --posse)."),
        stud: int = typer.Option(0, "--stud", "-s", help="Stud bonus of the shootout hand, 0..10 (default 0)."),
        draw: int = typer.Option(0, "--draw", "-d", help="Draw bonus of the shootout hand, 0..10 (default 0)."),
        at_least: int = typer.Option(7, "--at-least", help="Shootout figure: P(kept hand of this rank or better), 2..11 (default 7, Full House)."),
        policy: str = typer.Option("legal", "--policy", help="Hand-keeping policy: legal, greedy or margin:K."),
        discard: str = typer.Option("heuristic", "--discard", help="Discard policy: heuristic or automaton."),
        pool: str = typer.Option("box", "--pool", help=POOL_HELP),
        any_type: bool = typer.Option(False, "--any-type", help="Allow a swap to change the card type (a deed for a dude ...)."),
        any_faction: bool = typer.Option(False, "--any-faction", help="Offer dudes of other factions too (they cost their influence in extra upkeep)."),
        swaps: int = typer.Option(2, "--swaps", help="Longest sequence of swaps searched, 1..6 (default 2)."),
        beam: int = typer.Option(4, "--beam", help="Beam width of the sequence search (1 = greedy; default 4)."),
        exhaustive: bool = typer.Option(False, "--exhaustive", help="Search every sequence (small pools only)."),
        lowball_weight: float = typer.Option(0.5, "--lowball-weight", help="Weight of the Gamblin' gain in the search score, 0..1 (the shootout gain has 1 - weight)."),
        trials: Optional[int] = typer.Option(None, "--trials", "-t", help="Simulated shootout hands per deck when the hand figure is not exact (default 20,000)."),
        full_trials: Optional[int] = typer.Option(None, "--full-trials", help="Whole shootouts per deck with --posse (default 5,000)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the simulations (default: fresh, and printed)."),
        workers: int = typer.Option(1, "--workers", "-w", help="Local worker processes (results do not depend on it)."),
        scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Run on Dask: 'local' (a LocalCluster of --workers processes) or tcp://HOST:PORT."),
        partial: bool = typer.Option(False, "--partial", help=PARTIAL_HELP),
        chart: Optional[Path] = typer.Option(None, "--chart", help="Also draw the frontier chart to this file (.png, .svg or .pdf)."),
        top: int = typer.Option(15, "--top", help=TOP_HELP),
        fmt: str = typer.Option("table", "--format", "-f", help=FORMAT_HELP),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help=OUTPUT_HELP),
    ) -> None:
        """Propose card swaps from the pool: their Pareto frontier and the best sequences.

        Each legal single swap is scored on P(win Gamblin'), the shootout hand and cheatin'
        (and whole shootouts with --posse); then the best sequences of up to --swaps swaps."""
        from oddsmith.commands._common import check_one_stdin, check_output, load
        from oddsmith.doomtown import tune as T
        from oddsmith.executor import make_executor
        from oddsmith.output import emit
        from oddsmith.sampling import check_workers, resolve_seed

        check_output(output)
        fmt = parse_format(fmt)
        _check_chart(chart)
        check_workers(workers)
        if top < 1:
            raise OddsmithError(f"--top {top}: at least 1")
        check_one_stdin([deck, vs, posse, vs_posse], "input")
        q = T.TuneQuestion(stud=stud, draw=draw, policy=policy, discard=discard, at_least=at_least,
                           trials=T.DEFAULT_TRIALS if trials is None else trials,
                           full_trials=T.DEFAULT_FULL_TRIALS if full_trials is None else full_trials,
                           lowball_weight=lowball_weight).checked()
        search = T.TuneSearch(pool=pool, any_type=any_type, any_faction=any_faction, swaps=swaps, beam=beam,
                              exhaustive=exhaustive).checked()
        seed = resolve_seed(seed)
        mine, theirs = load(deck, partial), load(vs, partial)
        pa = pb = None
        if posse is not None or vs_posse is not None:
            from oddsmith.doomtown.posse import load_posse

            if posse is None or vs_posse is None:
                raise OddsmithError("--posse and --vs-posse go together (your posse and the opponent's)")
            pa, pb = load_posse(posse, source="--posse"), load_posse(vs_posse, source="--vs-posse")
        T.start(mine, search)  # a bad pool fails before any executor starts
        with make_executor(workers, scheduler) as ex:
            result = T.tune(mine, theirs, question=q, search=search, posse=pa, vs_posse=pb, seed=seed, executor=ex)
        if chart is not None:
            from oddsmith.report.tune_page import write_chart

            write_chart(result, chart)
        emit(render(result, fmt, top), output)
