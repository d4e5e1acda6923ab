"""The frontier chart of ``oddsmith deck tune`` and its report page: every legal single swap
as a point (change in P(win Gamblin') across, change in the shootout figure up), the Pareto
frontier joined, the current deck marked at (0, 0).

The data is :meth:`oddsmith.doomtown.tune.TuneResult.frontier_frame` (a DataFrame); this
module only draws it.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from oddsmith import lazy
from oddsmith.report.document import Chart, Notes, Page, Sampling

if TYPE_CHECKING:
    from matplotlib.figure import Figure

layout = lazy.module("oddsmith.report.layout")  # loaded when the chart is drawn (docs/speed.md, 'Reports')
style = lazy.module("oddsmith.report.style")

#: Frontier points labelled on the chart (the rest are listed in the command's output).
LABELLED = 6
REPORT_SWAPS = 1
"""Sequences searched on the report page: single swaps only, so the page stays quick."""


def frontier_chart(fig, data: pd.DataFrame, *, measure: str = "shootout figure", title: str = "",
                   simulated: bool = False) -> None:
    """One panel: every swap (grey), the frontier (coloured, joined, labelled), the current deck
    (a black star at the origin); with ``simulated`` the frontier carries ± 2 paired standard
    errors on the shootout axis."""
    ax = fig.subplots(subplot_kw={"axes_class": layout.ReportAxes})
    cols, marks = style.colors(2), ["o", "D"]
    x, y = 100 * data["d_p_lowball_win"], 100 * data["d_p_shootout"]
    ax.scatter(x[~data["frontier"]], y[~data["frontier"]], s=9, color="0.65", marker=".", linewidths=0,
               label="other single swaps", zorder=2)
    front = data[data["frontier"]].sort_values(["d_p_lowball_win", "d_p_shootout"])
    # one point per distinct (gain, gain): titles of the same suit and value score the same
    pts = front.groupby(["d_p_lowball_win", "d_p_shootout"], sort=True).agg(
        label=("label", "first"), n=("label", "size"), se=("d_p_shootout_stderr", "max")).reset_index()
    fx, fy = 100 * pts["d_p_lowball_win"], 100 * pts["d_p_shootout"]
    ax.plot(fx, fy, color=cols[0], linewidth=1.0, zorder=3)
    ax.scatter(fx, fy, s=22, color=cols[0], marker=marks[0], edgecolors="black", linewidths=0.4,
               label="Pareto frontier", zorder=4)
    if simulated:
        ax.errorbar(fx, fy, yerr=200 * pts["se"], fmt="none", ecolor="black", elinewidth=0.6, zorder=3)
    ax.scatter([0], [0], s=90, marker="*", color="black", label="current deck", zorder=5)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.axvline(0, color="black", linewidth=0.5)
    # label the frontier's ends and a few points between
    n = len(pts)
    picks = sorted({round(i * (n - 1) / max(LABELLED - 1, 1)) for i in range(min(n, LABELLED))}) if n else []
    for i in picks:
        r = pts.iloc[i]
        more = f" (+{int(r['n']) - 1} more)" if r["n"] > 1 else ""
        ax.annotate(r["label"] + more, (100 * r["d_p_lowball_win"], 100 * r["d_p_shootout"]), fontsize=5.5,
                    xytext=(4, 3), textcoords="offset points", zorder=6)
    ax.set_xlabel("change in P(win Gamblin') (percentage points)")
    ax.set_ylabel(f"change in {measure} (pp)")
    ax.legend(loc="lower left", fontsize=6.5)
    if title:
        ax.set_title(title, fontsize=8.5, fontweight="bold")


def tune_chart(result, *, height: float = 4.2) -> Chart:
    """The frontier of a :class:`~oddsmith.doomtown.tune.TuneResult` as a report chart."""
    data = result.frontier_frame()
    simulated = not result.exact["d_p_shootout"]
    measure = f"P({result.question.measure.removeprefix('p_').replace('_', ' ')})"
    se = float(data["d_p_shootout_stderr"].max()) if simulated else None
    return Chart(partial(frontier_chart, data=data, measure=measure, simulated=simulated,
                         title=f"{result.deck}: single swaps against {result.opponent}"),
                 title="Which swap helps", data=data, height=height,
                 sampling=Sampling(result.question.trials, se) if simulated else None)


def tune_figure(result) -> Figure:
    """The frontier chart alone, as a Figure (what ``oddsmith deck tune --chart`` writes)."""
    from oddsmith.report.document import chart_figure

    with style.report_style():
        return chart_figure(tune_chart(result))


def write_chart(result, path: str | Path) -> Path:
    """Write the frontier chart to ``path`` (PNG, SVG or PDF by its suffix), atomically."""
    from oddsmith.output import atomic_path

    target = Path(path)
    fmt = target.suffix.lower().lstrip(".")
    with style.report_style():
        fig = tune_figure(result)
        with atomic_path(target) as tmp:
            fig.savefig(tmp, format=fmt, dpi=150)
    return target


def tune_page(deck, opponent, label: str, opponent_label: str, plan) -> Page | None:
    """The report page: which single swaps from the box help ``deck`` against ``opponent``
    (default question: stud 0, draw 0, exact), its frontier and the best swaps; None for a plain
    list of cards (no titles: nothing to look up in the box)."""
    from oddsmith.doomtown.tune import TuneSearch, tune

    cards = getattr(deck, "cards", None)
    if cards is None or not cards["title"].notna().any():
        return None

    result = tune(deck, opponent, search=TuneSearch(swaps=REPORT_SWAPS), seed=plan.seed)
    front = result.swaps[result.swaps["frontier"]]
    best = result.swaps.iloc[0]
    notes = Notes([
        f"Each point: {label} with one card of its draw deck swapped for a card of the box not already in "
        f"it, of the same type, keeping the deck legal (52 valued cards, 4 per suit and value, 4 per title); "
        f"{len(result.swaps)} swaps, {len(front)} on the frontier.",
        f"Across: the change in P(win Gamblin') against {opponent_label} (now "
        f"{100 * result.current['p_lowball_win']:.1f} %); up: the change in P(kept shootout hand Full House or "
        f"better) with no bonus (now {100 * result.current['p_shootout']:.2f} %). Both exact.",
        f"The frontier: swaps no other swap beats on both. Best by the half-and-half score: -{best['out']} "
        f"+{best['in']} ({100 * best['d_p_lowball_win']:+.2f} pp Gamblin', {100 * best['d_p_shootout']:+.2f} pp "
        f"shootout). `oddsmith deck tune` lists them all and searches sequences.",
    ], title="How to read this page")
    return Page(title=f"What to swap: {label} against {opponent_label}",
                subtitle="single swaps from the box's cards, exact figures",
                section=f"Deck: {label}", blocks=[notes, tune_chart(result)])
