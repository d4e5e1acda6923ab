"""The report page "What is +1 worth?": one deck's starting gang against another's in whole
shootouts, and how A's P(win the shootout) and A's dudes lost change with one change at a
time (:func:`oddsmith.doomtown.full_shootout.what_if`, common random numbers).

The figures come from :mod:`oddsmith.doomtown.full_shootout`; this module only arranges
and draws them.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from oddsmith import lazy
from oddsmith.doomtown import full_shootout as F
from oddsmith.doomtown.posse import posse_from_cards
from oddsmith.report import charts
from oddsmith.report.document import Chart, Notes, Page, Sampling
from oddsmith.sampling import SamplingPlan

# Loaded when a chart is drawn, not when its page is built (docs/speed.md, 'Reports').
layout = lazy.module("oddsmith.report.layout")
style = lazy.module("oddsmith.report.style")

WHAT_IF_REPORT_TRIALS = 10_000
"""Whole shootouts per change on the report page (at most; fewer when the report asks fewer)."""


def what_if_bars(fig, data: pd.DataFrame, *, title: str = "") -> None:
    """Two panels of horizontal bars, one row per change: the change in A's P(win) (pp) and in
    A's expected dudes lost, whiskers ± :data:`charts.WHISKER_SE` standard errors; changes to A and to B told apart by
    colour and hatch."""
    rows = data[data["change"] != "none"].reset_index(drop=True)
    y = np.arange(len(rows))
    axes = fig.subplots(1, 2, sharey=True, subplot_kw={"axes_class": layout.BarAxes})
    cols, hts = style.colors(2), style.hatches(2)
    whose_style = {"A": (cols[0], hts[0]), "B": (cols[1], hts[1])}
    panels = ((axes[0], "delta_p_a_wins", 100.0, "change in A's P(win the shootout) (pp)"),
              (axes[1], "delta_dudes_lost_a", 1.0, "change in A's dudes aced or discarded"))
    for ax, col, scale, xlabel in panels:
        for whose, (color, hatch) in whose_style.items():
            sel = rows["whose"] == whose
            if not sel.any():
                continue
            ax.barh(y[sel], scale * rows.loc[sel, col], xerr=charts.WHISKER_SE * scale * rows.loc[sel, col + "_stderr"],
                    color=color, hatch=hatch, height=0.7,
                    label="a change to A's posse" if whose == "A" else "the same taken from B's posse",
                    error_kw={"elinewidth": 0.6, "ecolor": "black"})
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_xlabel(xlabel)
        ax.grid(axis="y", visible=False)
    layout.edge_labels(axes[0], "y", list(rows["change"]), size=6.5)  # shared: no ticks on either panel
    axes[0].invert_yaxis()
    if title:
        fig.suptitle(title, fontweight="bold", fontsize=9)
    fig.legend(*axes[0].get_legend_handles_labels(), ncols=2, loc="outside lower center")


def negative_bullet_note(data: pd.DataFrame) -> str | None:
    """Why a "+1 bullet" bar can fall below zero, for the rows of ``data`` (a :func:`F.what_if` table)
    where it does; None when none does.

    A bullet more never makes a dude's own hand worse, but each side picks its shooter to win the
    round, not the whole shootout (the `best` shooter policy), and the paired difference still
    carries chance: a bar whose whiskers reach zero is no measurable change."""
    rows = data[data["change"].str.startswith("+1 bullet") & (data["delta_p_a_wins"] < 0)]
    if rows.empty:
        return None
    reach = charts.WHISKER_SE * rows["delta_p_a_wins_stderr"]
    within = rows[-rows["delta_p_a_wins"] <= reach]
    beyond = rows[-rows["delta_p_a_wins"] > reach]

    def names(part: pd.DataFrame) -> str:
        return ", ".join(f"{c.split(': ', 1)[-1]} ({100 * v:+.1f} pp)" for c, v in
                         zip(part["change"], part["delta_p_a_wins"]))

    lines = []
    if len(within):
        lines.append(f"+1 bullet below zero within its whiskers of zero: {names(within)}: the bullet seldom "
                     "changes who shoots or what is kept, so the bar is chance, no measurable change.")
    if len(beyond):
        lines.append(f"+1 bullet below zero beyond its whiskers: {names(beyond)}: a bullet more never worsens "
                     "that dude's own hand, but it changes whom each round's shooter choice picks, and that "
                     "choice maximises P(win the round), not P(win the shootout).")
    return " ".join(lines)


def gang_posse(deck):
    """The deck's starting gang as a posse, or None when the deck lists none."""
    gang = deck.starting_gang() if hasattr(deck, "starting_gang") else None
    if gang is None or gang.empty or not (gang["type"] == "dude").any():
        return None
    return posse_from_cards(gang)


def what_if_page(deck_a, deck_b, label_a: str, label_b: str, plan: SamplingPlan, *, workers: int = 1) -> Page | None:
    """The page for ``deck_a``'s starting gang (side A, the leader) against ``deck_b``'s, both
    sides choosing their best shooter each round, keep-posse casualties, never fleeing; None
    when a deck lists no starting gang."""
    pa, pb = gang_posse(deck_a), gang_posse(deck_b)
    if pa is None or pb is None:
        return None
    trials = min(plan.trials, WHAT_IF_REPORT_TRIALS)
    a, b = F.FullSide(deck_a, pa, name=label_a), F.FullSide(deck_b, pb, name=label_b)
    df = F.what_if(a, b, trials=trials, seed=plan.seed, workers=workers)
    base = df.iloc[0]
    lines = [
        f"A (the leader): the {label_a} starting gang ({', '.join(d.name for d in pa.dudes)}); "
        f"B: the {label_b} starting gang ({', '.join(d.name for d in pb.dudes)}). Their cards are in play, "
        "out of the decks.",
        f"Base case: A wins the whole shootout {100 * base['p_a_wins']:.1f} % of the time and loses "
        f"{base['dudes_lost_a']:.2f} dudes (aced or discarded) on average. Both sides pick the shooter that "
        "maximises P(win the round) each round, cover casualties keep-posse, never flee.",
        "Each bar: one change, every other thing equal, on the same random cards (common random numbers); "
        f"{charts.WHISKERS[0].upper() + charts.WHISKERS[1:]}, of the paired difference. Harrowed: covers up to "
        "3 casualties.",
    ]
    surprise = negative_bullet_note(df)
    if surprise:
        lines.append(surprise)
    notes = Notes(lines, title="How to read this page")
    height = 1.2 + 0.16 * len(df)
    return Page(
        title=f"Whole shootouts: what is +1 worth? {label_a} against {label_b}",
        subtitle=f"{trials:,} whole shootouts per change, seed {plan.seed}",
        section=f"Deck: {label_a}",
        blocks=[
            notes,
            Chart(partial(what_if_bars, data=df,
                          title=f"One change at a time (A: the {label_a} starting gang, B: the {label_b} starting gang)"),
                  title="What is +1 worth?", data=df, height=height,
                  sampling=Sampling(trials, float(df["delta_p_a_wins_stderr"].max()))),
        ],
    )
