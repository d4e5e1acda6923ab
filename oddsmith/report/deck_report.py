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
from oddsmith.doomtown import lowball, shootout
from oddsmith.report import charts, full_shootout_page, tune_page
from oddsmith.report.charts import pct
from oddsmith.report.document import Chart, Distribution, Notes, Page, Row, Sampling, Table
from oddsmith.sampling import SamplingPlan

#: The six starter decks of the rulebook's Decklists section (shipped samples).
STARTER_DECKS = ("anarchists", "entrepreneurs", "fearmongers", "first-peoples", "law-dogs", "outlaws")

#: The stud x draw grid of the shootout pages and the trade-off chart.
STUDS = tuple(range(0, 5))
DRAWS = tuple(range(0, 4))
#: The bonuses shown on the trade-off chart (one point per deck and bonus).
TRADEOFF_BONUSES = ((0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (3, 2), (4, 3))
#: Both sides' bonuses in the one-round head-to-head pages: a typical early posse.
ROUND_STUD, ROUND_DRAW = 2, 1
POLICY = "legal"
DISCARD = "heuristic"

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
    name = deck.name.split(" (")[0] if " (" in deck.name else deck.name
    for suffix in (" starter deck", " deck"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def load_decks(names: list[str] | None, vs: str | None, *, with_gang: bool = False) -> DeckInputs:
    """Load the decks named on the command line (files or sample names); None: the starter decks.
    Each deck as set-up leaves it (its starting gang in play), the full deck with ``with_gang``."""
    starters = names is None
    loaded = [decks_mod.load_deck(n, with_gang=with_gang) for n in (names or STARTER_DECKS)]
    opponent = decks_mod.load_deck(vs, with_gang=with_gang) if vs is not None else None
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
    states = {d.state for d in inputs.decks + ([inputs.vs] if inputs.vs is not None else [])
              if not d.starting_gang().empty}
    if states == {decks_mod.DeckState.after_set_up}:
        lines.append("Every deck is drawn from as set-up leaves it: its starting gang in play, not in the draw deck.")
    elif states == {decks_mod.DeckState.full}:
        lines.append("Every deck is drawn from in full (--with-gang): its starting gang kept in the draw deck.")
    lines.append("Lowball figures are exact (every five-card hand enumerated); shootout hands and rounds are "
                 "simulated with the seed below and carry their standard errors.")
    return lines


def _step(label: str, kind: str) -> str:
    """A deck's progress step, "deck <label>: <kind>" (the report's progress bar weighs it by its kind)."""
    return f"deck {label}: {kind}"


def step_labels(inputs: DeckInputs) -> list[str]:
    """The progress steps of :func:`deck_pages`, in order (it takes the what-if steps, :func:`what_if_labels`, only
    where it makes those pages itself)."""
    labels = []
    for deck in inputs.decks:
        label = inputs.label(deck)
        labels += [_step(label, "lowball"), _step(label, "shootouts"), _step(label, "what if")]
        if _tuned(inputs, deck):
            labels.append(_step(label, "swaps"))
    return labels + ["decks against each other"]


def what_if_labels(inputs: DeckInputs) -> list[str]:
    """The steps of the what-if pages among :func:`step_labels` (a process that leaves those pages to another takes
    none of them)."""
    return [_step(inputs.label(deck), "what if") for deck in inputs.decks]


def _tuned(inputs: DeckInputs, deck: decks_mod.Deck) -> bool:
    """Whether the deck gets a frontier page of its best swaps: the sample report's first deck."""
    return inputs.starters and deck is inputs.decks[0]


# ---------------------------------------------------------------------------- pages

def _deck_facts(inputs: DeckInputs, deck: decks_mod.Deck) -> Notes:
    summary = deck.summary()
    lines = [
        f"Source: {deck.source or 'sample'}" + (f" ({deck.format.value} list)" if deck.format else ""),
        f"Outfit: {deck.outfit}" if deck.outfit else "Outfit: not given",
        f"Deck used: {deck.deck_state}, {len(deck)} cards",
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
              title=f"Lowball hand of {label} (exact)", data=_lowball_table(odds), height=2.3,
              distributions=(Distribution(("P (%)",), down=True),)),
    ]
    if gamblin:
        blocks.append(Chart(
            partial(charts.stacked_bars, data=gf, bar="bar", part="part", p="p", parts_order=["wins", "loses"],
                    title=f"Gamblin' head-to-head, {label} against each opponent (exact, identical hands redrawn)"),
            title=f"Gamblin' head-to-head of {label} (exact)", data=_gamblin_table(inputs, deck, gamblin),
            height=1.2 + 0.26 * len(gamblin), distributions=(Distribution(("P(win) (%)", "P(lose) (%)")),)))
    return Page(title=f"Deck: {label}: cards and lowball",
                subtitle=f"{deck.name} · {deck.valued_cards} valued cards + {deck.jokers} jokers"
                         f"{' after set-up' if deck.state is decks_mod.DeckState.after_set_up else ''} · "
                         f"lowball exact (all {odds.hands:,} five-card hands)",
                blocks=blocks, section=f"Deck: {label}")


def matrix_page(inputs: DeckInputs, gamblin: pd.DataFrame, rounds: pd.DataFrame, casualties: pd.DataFrame,
                sampling: Sampling | None, plan: SamplingPlan, casualties_stderr: float) -> Page:
    """Every deck against every other: Gamblin' (exact) and one shootout round (simulated)."""
    n = len(gamblin)
    height = 1.5 + 0.36 * n
    fmt = lambda p: pct(p, 2)  # noqa: E731
    return Page(
        title="Every deck against every other",
        subtitle=f"Gamblin': exact, identical hands redrawn · one shootout round: both sides stud {ROUND_STUD}, "
                 f"draw {ROUND_DRAW}, policy {POLICY}, {DISCARD} discard, {plan.trials:,} trials, seed {plan.seed}",
        blocks=[
            Chart(partial(charts.heatmap_grid, panels=[("P(row deck wins Gamblin') (%)", gamblin)],
                          xlabel="opponent", ylabel="deck", colorbar_label="P(win) (%)", subject="the row deck"),
                  title="Gamblin' matrix", data=gamblin.map(fmt).reset_index(names="deck"), height=height),
            Chart(partial(charts.heatmap_grid,
                          panels=[(f"P(row deck wins a shootout round) (%), stud {ROUND_STUD} draw {ROUND_DRAW}",
                                   rounds)],
                          xlabel="opponent", ylabel="deck", colorbar_label="P(win) (%)", subject="the row deck"),
                  title="Shootout round matrix", data=rounds.map(fmt).reset_index(names="deck"), height=height,
                  sampling=sampling),
            Chart(partial(charts.heatmap_grid,
                          panels=[("Mean casualties the row deck suffers in one round "
                                   f"(standard error at most {casualties_stderr:.3f})", casualties)],
                          xlabel="opponent", ylabel="deck", colorbar_label="casualties", percent=False, digits=2,
                          vmin=0.0, vmax=float(np.nanmax(casualties.to_numpy())) or 1.0,
                          good=charts.LOW, subject="the row deck"),
                  title="Casualty matrix", data=casualties.map(lambda v: f"{v:.3f}").reset_index(names="deck"),
                  height=height, sampling=sampling),
        ],
        section="Decks against each other")


# ---------------------------------------------------------------------------- shootouts

def _sampling(odds: list) -> Sampling | None:
    """Trials and largest standard error over simulated shootout figures (None: all exact)."""
    ses, trials = [], []
    for o in odds:
        if isinstance(o, shootout.ShootoutOdds):
            if not o.exact:
                ses.append(float(o.ranks[["stderr", "at_least_stderr", "cheatin_stderr"]].to_numpy().max()))
                ses.append(o.p_cheatin_stderr)
                trials.append(o.trials)
        elif isinstance(o, shootout.RoundOdds):
            ses += [o.p_win_stderr, o.p_lose_stderr, o.p_tie_stderr,
                    float(o.casualties[["p_A_stderr", "p_B_stderr"]].to_numpy().max())]
            trials.append(o.trials)
    if not trials:
        return None
    return Sampling(trials=min(trials), max_stderr=max(ses))


def _grid_matrix(grid: dict[tuple[int, int], shootout.ShootoutOdds]) -> pd.DataFrame:
    ranks = list(range(2, 11))
    rows = {}
    for (s, d), o in grid.items():
        label = f"stud {s}, draw {d}" + (" (exact)" if o.exact else "")
        rows[label] = [o.p_at_least(r) for r in ranks]
    return pd.DataFrame.from_dict(rows, orient="index", columns=[SHORT_RANK[r] + "+" for r in ranks])


def _grid_table(grid: dict[tuple[int, int], shootout.ShootoutOdds]) -> pd.DataFrame:
    return pd.DataFrame([{
        "stud": s, "draw": d,
        "exact": "yes" if o.exact else f"{o.trials:,} trials",
        "mean rank": f"{o.mean_rank:.3f}" + ("" if o.exact else f" ± {o.mean_rank_stderr:.3f}"),
        **{f"P({SHORT_RANK[r]}+) (%)": pct(o.p_at_least(r), 2) for r in range(2, 11)},
        "P(cheatin') (%)": pct(o.p_cheatin, 2),
    } for (s, d), o in grid.items()])


def _round_frames(inputs: DeckInputs, deck, rounds: list[tuple[decks_mod.Deck, shootout.RoundOdds]]):
    label = inputs.label(deck)
    bars, table = [], []
    cas_a, cas_b = {}, {}
    top = 5
    for opp, r in rounds:
        name = f"vs {inputs.label(opp)}" + (" (mirror)" if opp is deck else "")
        bars += [{"bar": name, "part": f"{label} wins", "p": r.p_win},
                 {"bar": name, "part": "identical hands", "p": r.p_tie},
                 {"bar": name, "part": "opponent wins", "p": r.p_lose}]
        c = r.casualties
        a = list(c["p_A"][:top]) + [float(c["p_A"][top:].sum())]
        b = list(c["p_B"][:top]) + [float(c["p_B"][top:].sum())]
        cas_a[name], cas_b[name] = a, b
        table.append({
            "Opponent": inputs.label(opp),
            "P(win) (%)": f"{pct(r.p_win, 2)} ± {pct(r.p_win_stderr, 2)}",
            "P(identical) (%)": pct(r.p_tie, 2),
            "P(lose) (%)": f"{pct(r.p_lose, 2)} ± {pct(r.p_lose_stderr, 2)}",
            "P(equal ranks) (%)": pct(r.p_equal_ranks, 2),
            f"{label} casualties (mean)": f"{r.expected_casualties[0]:.3f}",
            "opponent casualties (mean)": f"{r.expected_casualties[1]:.3f}",
        })
    cols = [str(n) for n in range(top)] + [f"{top}+"]
    return (pd.DataFrame(bars), pd.DataFrame(table),
            pd.DataFrame.from_dict(cas_a, orient="index", columns=cols),
            pd.DataFrame.from_dict(cas_b, orient="index", columns=cols))


def shootout_page(inputs: DeckInputs, deck, grid: dict[tuple[int, int], shootout.ShootoutOdds],
                  rounds: list[tuple[decks_mod.Deck, shootout.RoundOdds]], plan: SamplingPlan) -> Page:
    """Page 2 of a deck: the kept shootout hand for the stud x draw grid, one round against the opponents."""
    label = inputs.label(deck)
    matrix = _grid_matrix(grid)
    sampled = _sampling(list(grid.values()))
    bars, table, cas_a, cas_b = _round_frames(inputs, deck, rounds)
    rsampled = _sampling([r for _, r in rounds])
    n = len(rounds)
    params = f"policy {POLICY}, {DISCARD} discard"
    return Page(
        title=f"Deck: {label}: shootouts",
        subtitle=f"{deck.name} · kept hand of 5 + stud cards, draw bonus cards discarded and redrawn once · "
                 f"{params} · {plan.trials:,} trials per simulated cell, seed {plan.seed}",
        blocks=[
            Chart(partial(charts.heatmap_grid,
                          panels=[(f"{label}: P(kept shootout hand of this rank or better) (%)", matrix)],
                          xlabel="hand rank or better", ylabel="", colorbar_label="P(rank or better) (%)",
                          subject=label),
                  title=f"{label}: shootout hand by stud and draw bonus", data=_grid_table(grid),
                  height=0.9 + 0.165 * len(matrix), sampling=sampled),
            Chart(partial(charts.stacked_bars, data=bars, bar="bar", part="part", p="p",
                          parts_order=list(dict.fromkeys(bars["part"])),
                          title=f"One shootout round, both sides stud {ROUND_STUD}, draw {ROUND_DRAW}: who wins"),
                  title=f"{label}: one shootout round against each opponent", data=table,
                  height=1.35 + 0.24 * n, sampling=rsampled,
                  distributions=(Distribution(("P(win) (%)", "P(identical) (%)", "P(lose) (%)")),)),
            Chart(partial(charts.heatmap_grid,
                          panels=[(f"Casualties {label} suffers (%)", cas_a), ("Casualties the opponent suffers (%)", cas_b)],
                          xlabel="casualties in the round", colorbar_label="probability (%)",
                          good=charts.NEUTRAL),
                  title=f"{label}: casualty distributions of one round",
                  data=pd.concat([cas_a.map(pct).reset_index(names="opponent").assign(side=label),
                                  cas_b.map(pct).reset_index(names="opponent").assign(side="opponent")]),
                  height=1.15 + 0.2 * n, sampling=rsampled,
                  distributions=(Distribution(tuple(cas_a.columns)),)),
        ],
        section=f"Deck: {label}")


def _tradeoff_frame(inputs: DeckInputs, grids, low_x: dict[int, float],
                    low_odds: dict[int, lowball.LowballOdds]) -> pd.DataFrame:
    """The trade-off rows (columns as :func:`oddsmith.doomtown.shootout.tradeoff`, from the report's own
    grid so the chart and the shootout pages show the same figures)."""
    rows = []
    for deck in inputs.decks:
        for (s, d) in TRADEOFF_BONUSES:
            o = grids[id(deck)].get((s, d))
            if o is None:
                continue
            rows.append({"deck": inputs.label(deck), "bonus": f"stud {s}, draw {d}", "stud": s, "draw": d,
                         "lowball_p_win": low_x[id(deck)],
                         "lowball_p_cheatin": low_odds[id(deck)].p_cheatin,
                         "p_full_house_or_better": o.p_full_house_or_better,
                         "p_full_house_or_better_stderr": o.p_at_least_stderr(shootout.FULL_HOUSE_OR_BETTER),
                         "mean_rank": o.mean_rank, "mean_rank_stderr": o.mean_rank_stderr, "exact": o.exact})
    return pd.DataFrame(rows)


def _tradeoff_pivot(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per deck: lowball win and cheatin', then P(Full House or better) for each bonus."""
    rows = []
    for deck, grp in frame.groupby("deck", sort=False):
        row = {"Deck": deck, "Lowball win (%)": pct(grp["lowball_p_win"].iloc[0], 2),
               "Lowball cheatin' (%)": pct(grp["lowball_p_cheatin"].iloc[0], 2)}
        for s, d, p in zip(grp["stud"], grp["draw"], grp["p_full_house_or_better"]):
            row[f"s{s} d{d}"] = pct(p)
        rows.append(row)
    return pd.DataFrame(rows)


def tradeoff_page(inputs: DeckInputs, frame: pd.DataFrame, plan: SamplingPlan, reference: str) -> Page:
    """The trade-off: lowball win rate (exact) against shootout strength (P(full house or better))."""
    sampled = frame[~frame["exact"]]
    sampling = (Sampling(plan.trials, float(sampled["p_full_house_or_better_stderr"].max()))
                if len(sampled) else None)
    table = pd.DataFrame({
        "Deck": frame["deck"], "Bonus": frame["bonus"],
        "Lowball win (%)": frame["lowball_p_win"].map(lambda p: pct(p, 2)),
        "Lowball cheatin' (%)": frame["lowball_p_cheatin"].map(lambda p: pct(p, 2)),
        "P(Full House+) (%)": [pct(p, 2) + ("" if e else f" ± {pct(se, 2)}") for p, se, e in
                               zip(frame["p_full_house_or_better"], frame["p_full_house_or_better_stderr"],
                                   frame["exact"])],
        "Mean rank": [f"{m:.3f}" + ("" if e else f" ± {se:.3f}") for m, se, e in
                      zip(frame["mean_rank"], frame["mean_rank_stderr"], frame["exact"])],
    })
    return Page(
        title="The trade-off: lowball against shootout strength",
        subtitle=f"x: P(win Gamblin') {reference} (exact) · y: P(kept shootout hand is a Full House or better) · "
                 f"policy {POLICY}, {DISCARD} discard · {plan.trials:,} trials per simulated point "
                 f"(stud 0-2 without draw: exact), seed {plan.seed}; {charts.WHISKERS}",
        blocks=[
            Chart(partial(charts.tradeoff_scatter, data=frame, x="lowball_p_win", y="p_full_house_or_better",
                          deck="deck", bonus="bonus", yerr="p_full_house_or_better_stderr",
                          title="Lowball win rate against shootout strength, one point per deck and bonus",
                          xlabel=f"P(win Gamblin') {reference}", ylabel="P(Full House or better)"),
                  title="Trade-off chart", data=table, height=4.6, sampling=sampling),
            Table(_tradeoff_pivot(frame), title="P(Full House or better) (%) by bonus (s = stud, d = draw), "
                                                "with the deck's lowball figures",
                  sampling=sampling),
        ],
        section="Decks against each other")


# ---------------------------------------------------------------------------- driver

def what_if_pages(inputs: DeckInputs, plan: SamplingPlan, *, workers: int = 1) -> list[Page | None]:
    """Each deck's "what is +1 worth?" page against its first opponent (None where it has none), in deck order:
    what :func:`deck_pages` makes, for other processes to make alongside it (:func:`what_if_page_of`)."""
    return [what_if_page_of(inputs, k, plan, workers=workers) for k in range(len(inputs.decks))]


def what_if_page_of(inputs: DeckInputs, k: int, plan: SamplingPlan, *, workers: int = 1) -> Page | None:
    """Deck ``k``'s "what is +1 worth?" page against its first opponent (None where it has none)."""
    deck = inputs.decks[k]
    opp = inputs.opponents(deck)[0]
    return full_shootout_page.what_if_page(deck, opp, inputs.label(deck), inputs.label(opp), plan, workers=workers)


def deck_pages(inputs: DeckInputs, plan: SamplingPlan, *, workers: int = 1, steps=None,
               what_ifs=None) -> list[Page]:
    """Every page of the deck report, in order. ``what_ifs``: a callable giving :func:`what_if_pages`
    (made elsewhere, e.g. by another process), called once every other page is made, so this process
    never waits on the other while it has work of its own; None: made here."""
    pages: list[Page] = []
    every = inputs.decks + ([inputs.vs] if inputs.vs is not None else [])
    lowball_odds = {id(d): lowball.lowball_odds(d, name=inputs.label(d)) for d in every}
    matrix_pairs: dict[tuple[int, int], float] = {}
    round_pairs: dict[tuple[int, int], shootout.RoundOdds] = {}
    grids: dict[int, dict[tuple[int, int], shootout.ShootoutOdds]] = {}
    what_if_slots: list[tuple[int, int]] = []  # (where in pages, which deck): what-ifs made elsewhere go there
    for k, deck in enumerate(inputs.decks):
        label = inputs.label(deck)
        if steps:
            steps.step(_step(label, "lowball"))
        results = []
        for opp in inputs.opponents(deck):
            g = lowball.gamblin_odds(deck, opp, names=(label, inputs.label(opp)))
            results.append((opp, g))
            matrix_pairs[(id(deck), id(opp))] = g.p_win
        pages.append(lowball_page(inputs, deck, lowball_odds[id(deck)], results))
        if steps:
            steps.done_step()
            steps.step(_step(label, "shootouts"))
        grid = {(s, d): shootout.shootout_odds(deck, s, d, policy=POLICY, discard=DISCARD, trials=plan.trials,
                                               seed=plan.seed, workers=workers, name=label)
                for s in STUDS for d in DRAWS}
        grids[id(deck)] = grid
        rounds = [(opp, shootout.shootout_round(
            shootout.Side(deck, ROUND_STUD, ROUND_DRAW, POLICY, DISCARD, name=label),
            shootout.Side(opp, ROUND_STUD, ROUND_DRAW, POLICY, DISCARD, name=inputs.label(opp)),
            trials=plan.trials, seed=plan.seed, workers=workers)) for opp in inputs.opponents(deck)]
        for opp, r in rounds:
            round_pairs[(id(deck), id(opp))] = r
        pages.append(shootout_page(inputs, deck, grid, rounds, plan))
        opp = inputs.opponents(deck)[0]
        if what_ifs is None:
            if steps:
                steps.done_step()
                steps.step(_step(label, "what if"))
            what_if = full_shootout_page.what_if_page(deck, opp, label, inputs.label(opp), plan, workers=workers)
        else:  # made by another process meanwhile: asked for only when every other page here is made
            what_if_slots.append((len(pages), k))
            what_if = None
        if what_if is not None:
            pages.append(what_if)
        if _tuned(inputs, deck):  # the sample report: one frontier page
            if steps:
                steps.done_step()
                steps.step(_step(label, "swaps"))
            tuned = tune_page.tune_page(deck, opp, label, inputs.label(opp), plan)
            if tuned is not None:
                pages.append(tuned)
        if steps:
            steps.done_step()
    if steps:
        steps.step("decks against each other")
    if len(inputs.decks) > 1 and inputs.vs is None:
        labels = [inputs.label(d) for d in inputs.decks]

        def matrix(value) -> pd.DataFrame:
            m = pd.DataFrame(np.nan, index=labels, columns=labels)
            for a in inputs.decks:
                for b in inputs.decks:
                    if (id(a), id(b)) in round_pairs:
                        m.loc[inputs.label(a), inputs.label(b)] = value(a, b)
            return m

        pages.append(matrix_page(
            inputs, matrix(lambda a, b: matrix_pairs[(id(a), id(b))]),
            matrix(lambda a, b: round_pairs[(id(a), id(b))].p_win),
            matrix(lambda a, b: round_pairs[(id(a), id(b))].expected_casualties[0]),
            _sampling(list(round_pairs.values())), plan,
            max(max(r.expected_casualties_stderr) for r in round_pairs.values())))
    if len(inputs.decks) > 1:
        if inputs.vs is not None:
            low_x = {id(d): matrix_pairs[(id(d), id(inputs.vs))] for d in inputs.decks}
            reference = f"against {inputs.label(inputs.vs)}"
        else:
            low_x = {id(d): float(np.mean([matrix_pairs[(id(d), id(o))] for o in inputs.opponents(d)]))
                     for d in inputs.decks}
            reference = "against the other decks (mean)"
        pages.append(tradeoff_page(inputs, _tradeoff_frame(inputs, grids, low_x, lowball_odds), plan, reference))
    if what_if_slots:
        made = what_ifs()
        for at, k in reversed(what_if_slots):  # from the last, so the earlier places do not move
            if made[k] is not None:
                pages.insert(at, made[k])
    if steps:
        steps.done_step()
    return pages
