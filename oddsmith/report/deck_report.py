"""The Doomtown deck report: pages built from the deck-odds analyses.

Per deck: its cards by value and suit with the validation warnings, the exact
lowball hand and P(cheatin'), Gamblin' head-to-head against the opponents,
the shootout hand for a grid of stud and draw bonuses (P(rank >= r), sampled)
and one shootout round against the opponents with the casualties each side
suffers. For several decks: the head-to-head matrices and the trade-off chart
(lowball win rate against shootout strength, one point per deck and bonus).

The figures come from :mod:`oddsmith.doomtown.lowball` and
:mod:`oddsmith.doomtown.shootout`; this module only arranges them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from oddsmith.doomtown import deck as decks_mod
from oddsmith.doomtown import lowball
from oddsmith.report import charts
from oddsmith.report.charts import pct
from oddsmith.report.document import Chart, Notes, Page, Row, Sampling, Table
from oddsmith.rules.doomtown import HAND_RANK_NAMES, HandRank
from oddsmith.sampling import SamplingPlan

#: The six starter decks of the rulebook's Decklists section (shipped samples).
STARTER_DECKS = ("anarchists", "entrepreneurs", "fearmongers", "first-peoples", "law-dogs", "outlaws")

SHORT_RANK = {1: "High", 2: "Pair", 3: "2 Pair", 4: "3 Kind", 5: "Straight", 6: "Flush", 7: "Full H.",
              8: "4 Kind", 9: "Str. Fl.", 10: "5 Kind", 11: "DMH"}


@dataclass
class DeckInputs:
    """The decks of a report, loaded and validated before any simulation."""

    decks: list[decks_mod.Deck]
    vs: decks_mod.Deck | None = None
    starters: bool = False
    labels: dict[int, str] = field(default_factory=dict)

    def label(self, deck: decks_mod.Deck) -> str:
        return self.labels.get(id(deck), deck.name)

    def opponents(self, deck: decks_mod.Deck) -> list[decks_mod.Deck]:
        """Whom a deck meets: --vs, else every other deck of the report, else itself (mirror match)."""
        if self.vs is not None:
            return [self.vs]
        others = [d for d in self.decks if d is not deck]
        return others or [deck]


def _short_label(deck: decks_mod.Deck) -> str:
    name = deck.name
    for suffix in (" starter deck", " deck"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def load_decks(names: list[str] | None, vs: str | None) -> DeckInputs:
    """Load the decks named on the command line (files or sample names); None: the starter decks."""
    starters = names is None
    loaded = [decks_mod.load_deck(n) for n in (names or STARTER_DECKS)]
    opponent = decks_mod.load_deck(vs) if vs is not None else None
    inputs = DeckInputs(decks=loaded, vs=opponent, starters=starters)
    seen: dict[str, int] = {}
    for d in loaded + ([opponent] if opponent is not None else []):
        label = _short_label(d)
        seen[label] = seen.get(label, 0) + 1
        inputs.labels[id(d)] = label if seen[label] == 1 else f"{label} ({seen[label]})"
    return inputs


def describe(inputs: DeckInputs) -> list[str]:
    names = ", ".join(inputs.label(d) for d in inputs.decks)
    if inputs.starters:
        lines = [f"Doomtown: the six starter decks of the rulebook's Decklists ({names}) against each other."]
    else:
        lines = [f"Doomtown deck report: {names}" + (f" against {inputs.label(inputs.vs)}." if inputs.vs else ".")]
    lines.append("Lowball figures are exact (every five-card hand enumerated); shootout hands and rounds are "
                 "simulated with the seed below and carry their standard errors.")
    return lines


def n_steps(inputs: DeckInputs) -> int:
    return 2 * len(inputs.decks) + 1


# ---------------------------------------------------------------------------- pages

def _deck_facts(inputs: DeckInputs, deck: decks_mod.Deck) -> Notes:
    summary = deck.summary()
    lines = [
        f"Source: {deck.source or 'sample'}" + (f" ({deck.format.value} list)" if deck.format else ""),
        f"Outfit: {deck.outfit}" if deck.outfit else "Outfit: not given",
        f"{deck.valued_cards} valued cards and {deck.jokers} joker{'s' if deck.jokers != 1 else ''}"
        + (" (partial deck)" if deck.partial else ""),
        f"Most copies of one suit and value: {summary['max_copies']}",
        "Per suit: " + ", ".join(f"{s} {n}" for s, n in summary["per_suit"].items()),
    ]
    if summary["starting_gang"]:
        lines.append("Starting gang: " + ", ".join(str(x) for x in summary["starting_gang"]))
    if deck.removed:
        lines.append("Removed: " + ", ".join(deck.removed))
    warnings = list(deck.warnings)
    lines += [f"Warning: {w}" for w in warnings] or ["No warnings: the deck follows the deck-building rules."]
    return Notes(lines, title="The deck")


def _counts_long(deck: decks_mod.Deck) -> pd.DataFrame:
    counts = decks_mod.counts_frame(deck).iloc[:13]
    suits = ["spades", "hearts", "diamonds", "clubs"]
    long = counts.melt(id_vars=["card", "value"], value_vars=suits, var_name="suit", value_name="count")
    long["value"] = long["value"].astype(int)
    return long


def _lowball_frame(odds: lowball.LowballOdds) -> pd.DataFrame:
    r = odds.ranks
    return pd.DataFrame({"rank": [SHORT_RANK[int(x)] for x in r["rank"]], "p": r["probability"],
                         "cheatin": r["cheatin"]})


def _lowball_table(odds: lowball.LowballOdds) -> pd.DataFrame:
    r = odds.ranks
    keep = r["probability"] > 0
    return pd.DataFrame({
        "Lowball hand": r["hand"][keep],
        "P (%)": [pct(p, 2) for p in r["probability"][keep]],
        "P(this low or lower) (%)": [pct(p, 2) for p in r["at_most"][keep]],
        "P(and cheatin') (%)": [pct(p, 2) for p in r["cheatin"][keep]],
    })


def _gamblin_frame(inputs: DeckInputs, deck, results: list[tuple[decks_mod.Deck, lowball.GamblinOdds]]) -> pd.DataFrame:
    rows = []
    for opp, g in results:
        name = f"vs {inputs.label(opp)}" + (" (mirror)" if opp is deck else "")
        rows += [{"bar": name, "part": "wins", "p": g.p_win},
                 {"bar": name, "part": "loses", "p": g.p_lose}]
    return pd.DataFrame(rows)


def _gamblin_table(inputs: DeckInputs, deck, results) -> pd.DataFrame:
    return pd.DataFrame({
        "Opponent": [inputs.label(o) for o, _ in results],
        "P(win) (%)": [pct(g.p_win, 2) for _, g in results],
        "P(lose) (%)": [pct(g.p_lose, 2) for _, g in results],
        "P(identical deal) (%)": [pct(g.p_tie, 3) for _, g in results],
        "opponent P(cheatin') (%)": [pct(g.players[1].p_cheatin, 2) for _, g in results],
    })


def lowball_page(inputs: DeckInputs, deck: decks_mod.Deck, odds: lowball.LowballOdds,
                 gamblin: list[tuple[decks_mod.Deck, lowball.GamblinOdds]]) -> Page:
    """Page 1 of a deck: its cards, the exact lowball hand, Gamblin' against the opponents."""
    label = inputs.label(deck)
    counts = _counts_long(deck)
    lb = _lowball_frame(odds)
    gf = _gamblin_frame(inputs, deck, gamblin)
    blocks = [
        Row([
            Chart(partial(charts.value_suit_histogram, counts=counts, jokers=deck.jokers,
                          title=f"{label}: cards by value and suit"),
                  title=f"{label}: cards by value and suit",
                  data=decks_mod.counts_frame(deck).drop(columns=["value"]).fillna(""), height=2.6),
            _deck_facts(inputs, deck),
        ], widths=[1.45, 1.0], height=2.6),
        Chart(partial(charts.distribution_bars, data=lb, x="rank", p="p",
                      title=f"Lowball hand of {label} (exact): P(cheatin') {pct(odds.p_cheatin)} %, "
                            f"mean rank {odds.mean_rank:.2f}",
                      xlabel="hand rank (lower wins Gamblin')"),
              title=f"Lowball hand of {label} (exact)", data=_lowball_table(odds), height=2.3),
        Chart(partial(charts.stacked_bars, data=gf, bar="bar", part="part", p="p", parts_order=["wins", "loses"],
                      title=f"Gamblin' head-to-head, {label} against each opponent (exact, identical hands redrawn)"),
              title=f"Gamblin' head-to-head of {label} (exact)", data=_gamblin_table(inputs, deck, gamblin),
              height=0.75 + 0.26 * len(gamblin)),
    ]
    return Page(title=f"Deck: {label}: cards and lowball",
                subtitle=f"{deck.name} · {deck.valued_cards} valued cards + {deck.jokers} jokers · "
                         f"lowball exact (all {odds.hands:,} five-card hands)",
                blocks=blocks, section=f"Deck: {label}")


def lowball_matrix_page(inputs: DeckInputs, matrix: pd.DataFrame) -> Page:
    """Gamblin' P(row deck wins) for every pair of decks (exact)."""
    return Page(
        title="Gamblin': every deck against every other",
        subtitle="P(row deck wins the lowball hand) · exact · identical hands redrawn",
        blocks=[Chart(partial(charts.heatmap_grid, panels=[("P(row deck wins Gamblin') (%)", matrix)],
                              xlabel="opponent", ylabel="deck", colorbar_label="P(win) (%)"),
                      title="Gamblin' matrix", data=matrix.map(lambda p: pct(p, 2)).reset_index(names="deck"),
                      height=0.9 + 0.32 * len(matrix))],
        section="Decks against each other")


# ---------------------------------------------------------------------------- driver

def deck_pages(inputs: DeckInputs, plan: SamplingPlan, *, workers: int = 1, steps=None) -> list[Page]:
    """Every page of the deck report, in order."""
    pages: list[Page] = []
    lowball_odds = {id(d): lowball.lowball_odds(d, name=inputs.label(d))
                    for d in inputs.decks + ([inputs.vs] if inputs.vs is not None else [])}
    matrix_pairs: dict[tuple[int, int], float] = {}
    for deck in inputs.decks:
        if steps:
            steps.step(f"deck {inputs.label(deck)}: lowball")
        results = []
        for opp in inputs.opponents(deck):
            g = lowball.gamblin_odds(deck, opp, names=(inputs.label(deck), inputs.label(opp)))
            results.append((opp, g))
            matrix_pairs[(id(deck), id(opp))] = g.p_win
        pages.append(lowball_page(inputs, deck, lowball_odds[id(deck)], results))
        if steps:
            steps.done_step()
        if steps:
            steps.done_step()
    if len(inputs.decks) > 1 and inputs.vs is None:
        labels = [inputs.label(d) for d in inputs.decks]
        m = pd.DataFrame(np.nan, index=labels, columns=labels)
        for a in inputs.decks:
            for b in inputs.decks:
                if (id(a), id(b)) in matrix_pairs:
                    m.loc[inputs.label(a), inputs.label(b)] = matrix_pairs[(id(a), id(b))]
        pages.append(lowball_matrix_page(inputs, m))
    if steps:
        steps.done_step()
    return pages
