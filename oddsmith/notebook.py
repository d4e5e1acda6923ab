"""oddsmith in a notebook: short reprs, HTML views, charts and progress bars for the result objects.

Every frozen result object of the Python API (docs/api.md) is decorated with
:func:`notebook_view`, which gives it

* a short text ``repr`` (the class, what was asked, the main figures with their
  standard errors), instead of the dataclass's many-thousand-character one;
* ``_repr_html_``, which Jupyter shows for a result left as a cell's value: the
  main figures with their standard errors (or "exact"), the facts needed to
  reproduce them (deck, trials, seed) and the tables;
* ``plot()`` where the report has a chart for it, returning a
  :class:`matplotlib.figure.Figure` drawn by the report's own chart code
  (:mod:`oddsmith.report.charts`) in the report's style.

The views are kept here, keyed by class, so that each analysis module carries
one decorator line; nothing here imports an analysis module at import time.
Importing oddsmith never selects a matplotlib backend: the charts are plain
``Figure`` objects, which Jupyter displays inline and ``fig.savefig`` writes.

:func:`in_notebook_kernel` tells a Jupyter kernel apart, so that
:class:`oddsmith.output.Progress` draws its bar there too (a kernel's stderr is
no terminal, but the notebook rewrites a ``\\r`` line in place as a terminal does).
"""
from __future__ import annotations

import html
import math
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

#: Rows of a table shown in the HTML view (more are cut, with a line saying how many).
MAX_HTML_ROWS = 30
#: Figures named in the short text repr (the first ones of the view).
MAX_REPR_FIGURES = 4


# ---------------------------------------------------------------------------
# Jupyter detection (progress bars)
# ---------------------------------------------------------------------------


def in_notebook_kernel() -> bool:
    """True when running inside a Jupyter (IPython) kernel.

    Only looks: IPython is never imported here. A kernel's shell has a ``kernel``
    attribute (ZMQInteractiveShell); terminal IPython and plain Python have none
    (their stderr is a terminal anyway).
    """
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    if get is None:
        return False
    try:
        shell = get()
    except Exception:  # an IPython half set up: behave as plain Python
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


# ---------------------------------------------------------------------------
# The view of a result
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure_:
    """One headline figure: ``value`` with its standard error, or exact."""

    label: str
    value: float
    stderr: float | None = None
    exact: bool = False

    def text(self, digits: int = 4) -> str:
        from oddsmith.output import plus_minus

        value = float(self.value)
        if self.exact:
            shown = f"{value:.{digits}f}"
            if value != 0 and float(shown) == 0:  # a small exact figure must not print as 0.0000
                shown = f"{value:.2g}"
            return f"{shown} (exact)"
        return plus_minus(value, self.stderr, digits)


@dataclass(frozen=True)
class View:
    """What a result shows: a title, facts (what was asked, how it was computed), figures, tables, notes."""

    title: str
    figures: tuple[Figure_, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()
    tables: tuple[tuple[str, "pd.DataFrame"], ...] = ()
    notes: tuple[str, ...] = ()
    chart: bool = False
    trials: int = 0
    """Trials behind the simulated figures (for the "± n/a" note); 0 when all are exact."""


def short_repr(obj: Any, view: View) -> str:
    """``<ClassName title: figure value ± se, ...>``: one line, a few hundred characters at most."""
    figs = ", ".join(f"{f.label} {f.text()}" for f in view.figures[:MAX_REPR_FIGURES])
    more = len(view.figures) - MAX_REPR_FIGURES
    if more > 0:
        figs += f", and {more} more"
    tables = "; ".join(f"{name}: {len(df)} rows" for name, df in view.tables)
    parts = [p for p in (figs, tables) if p]
    return f"<{type(obj).__name__} {view.title}" + (": " + "; ".join(parts) if parts else "") + ">"


def _frame_html(df: "pd.DataFrame") -> str:
    shown = df.head(MAX_HTML_ROWS)
    body = shown.to_html(index=False, float_format=lambda v: f"{v:.4f}", na_rep="", border=0, escape=True)
    if len(df) > len(shown):
        body += f"<p><em>{len(df) - len(shown):,} more rows (the whole table is the attribute or method named " \
                f"above)</em></p>"
    return body


def html_view(view: View) -> str:
    """The HTML a notebook shows: title, facts, figures with their standard errors, tables, notes."""
    from oddsmith.output import NO_STDERR, stderr_note

    e = html.escape
    out = ['<div class="oddsmith-result">', f"<h4>{e(view.title)}</h4>"]
    if view.facts:
        out.append('<table class="oddsmith-facts">')
        out += [f"<tr><th style='text-align:left'>{e(k)}</th><td style='text-align:left'>{e(v)}</td></tr>"
                for k, v in view.facts]
        out.append("</table>")
    if view.figures:
        out.append('<table class="oddsmith-figures"><thead><tr><th style="text-align:left">figure</th>'
                   '<th style="text-align:left">value ± standard error</th></tr></thead><tbody>')
        out += [f"<tr><td style='text-align:left'>{e(f.label)}</td><td style='text-align:left'>{e(f.text())}</td></tr>"
                for f in view.figures]
        out.append("</tbody></table>")
    notes = list(view.notes)
    shown = " ".join(f.text() for f in view.figures)
    if f"± {NO_STDERR}" in shown:
        notes.append(stderr_note(shown, view.trials).strip())
    for name, df in view.tables:
        out.append(f'<details open><summary><code>{e(name)}</code> ({len(df):,} rows)</summary>')
        out.append(_frame_html(df))
        out.append("</details>")
    out += [f"<p>{e(' '.join(n.split()))}</p>" for n in notes]  # the CLI's notes come wrapped for a terminal
    if view.chart:
        out.append("<p><code>.plot()</code> draws its chart.</p>")
    out.append("</div>")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Helpers the views share
# ---------------------------------------------------------------------------


def _how(exact: bool, trials: int, seed: int | None) -> tuple[str, str]:
    if exact:
        return ("computed", "exact")
    return ("computed", f"simulated: {trials:,} trials, seed {seed}")


def _summary_figures(summary: "pd.DataFrame", names: tuple[str, ...] | None = None) -> tuple[Figure_, ...]:
    """Figures from a (figure, value, stderr) summary frame."""
    rows = summary if names is None else summary[summary["figure"].isin(names)]
    return tuple(Figure_(str(r.figure), float(r.value), float(r.stderr)) for r in rows.itertuples())


def _p_se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / n) if n > 0 else float("nan")


# ---------------------------------------------------------------------------
# Views, one per result class
# ---------------------------------------------------------------------------


def _lowball_odds(r: Any) -> View:
    facts = [("deck", f"{r.deck} ({r.cards} cards)")]
    if r.deck_state:
        facts.append(("deck used", r.deck_state))
    facts.append(_how(r.exact, r.trials, r.seed))
    return View(f"lowball hand of {r.deck}",
                (Figure_("p_cheatin", r.p_cheatin, r.p_cheatin_stderr, r.exact),
                 Figure_("mean_rank", r.mean_rank, r.mean_rank_stderr, r.exact)),
                tuple(facts), (("ranks", r.ranks),), chart=True, trials=0 if r.exact else r.trials)


def _gamblin_odds(r: Any) -> View:
    a, b = r.players
    x = r.exact
    return View(f"Gamblin': {a.deck} (A) against {b.deck} (B)",
                (Figure_("p_win", r.p_win, r.p_win_stderr, x), Figure_("p_lose", r.p_lose, r.p_lose_stderr, x),
                 Figure_("p_tie", r.p_tie, r.p_tie_stderr, x),
                 Figure_("p_cheatin A", a.p_cheatin, a.p_cheatin_stderr, a.exact),
                 Figure_("p_cheatin B", b.p_cheatin, b.p_cheatin_stderr, b.exact)),
                (("A", a.deck), ("B", b.deck), _how(x, r.trials, r.seed)),
                (("summary()", r.summary()), ("ranks()", r.ranks())),
                ("p_win, p_lose: identical hands redrawn; p_tie: identical hands on one deal.",),
                chart=True, trials=0 if x else r.trials)


def _lowball_tradeoff(r: Any) -> View:
    return View("lowball figures of the trade-off table",
                tuple(Figure_(k, getattr(r, k), exact=True) for k in ("p_win", "p_lose", "p_tie", "p_cheatin",
                                                                       "mean_rank")),
                (("computed", "exact"),))


def _table_odds(r: Any) -> View:
    return View(f"Gamblin' at a table of {len(r.hands)}",
                (Figure_("p_lowest seat 1", float(r.players["p_lowest"].iloc[0]),
                         float(r.players["p_lowest_stderr"].iloc[0])),
                 Figure_("p_identical", r.p_identical, r.p_identical_stderr)),
                (("seats", ", ".join(h.deck for h in r.hands)), _how(False, r.trials, r.seed)),
                (("players", r.players),), trials=r.trials)


def _shootout_odds(r: Any) -> View:
    from oddsmith.doomtown.shootout import FULL_HOUSE_OR_BETTER

    facts = [("deck", f"{r.deck} ({r.cards} cards)")]
    if r.deck_state:
        facts.append(("deck used", r.deck_state))
    facts += [("bonus", f"stud {r.stud}, draw {r.draw}"), ("policy", f"{r.policy}, discard {r.discard}"),
              _how(r.exact, r.trials, r.seed)]
    return View(f"kept shootout hand of {r.deck}, stud {r.stud} draw {r.draw}",
                (Figure_("p_full_house_or_better", r.p_full_house_or_better,
                         r.p_at_least_stderr(FULL_HOUSE_OR_BETTER), r.exact),
                 Figure_("p_cheatin", r.p_cheatin, r.p_cheatin_stderr, r.exact),
                 Figure_("mean_rank", r.mean_rank, r.mean_rank_stderr, r.exact)),
                tuple(facts), (("ranks", r.ranks),), chart=True, trials=0 if r.exact else r.trials)


def _round_odds(r: Any) -> View:
    x = r.exact
    return View(f"one shootout round: {r.a.deck} (A) against {r.b.deck} (B)",
                (Figure_("p_win", r.p_win, r.p_win_stderr, x), Figure_("p_lose", r.p_lose, r.p_lose_stderr, x),
                 Figure_("p_tie", r.p_tie, r.p_tie_stderr, x),
                 Figure_("p_equal_ranks", r.p_equal_ranks, r.p_equal_ranks_stderr, x),
                 Figure_("expected casualties A", r.expected_casualties[0], r.expected_casualties_stderr[0], x),
                 Figure_("expected casualties B", r.expected_casualties[1], r.expected_casualties_stderr[1], x)),
                (("A", f"{r.a.deck}: stud {r.a.stud}, draw {r.a.draw}" + (f", shooter {r.shooters[0]}"
                                                                         if r.shooters[0] else "")),
                 ("B", f"{r.b.deck}: stud {r.b.stud}, draw {r.b.draw}" + (f", shooter {r.shooters[1]}"
                                                                         if r.shooters[1] else "")),
                 _how(x, r.trials, r.seed)),
                (("summary()", r.summary()), ("ranks()", r.ranks()), ("casualties", r.casualties)),
                chart=True, trials=0 if x else r.trials)


def _shooter_choice(r: Any) -> View:
    return View(f"shooter {r.name}: stud {r.bonus.stud}, draw {r.bonus.draw}", (),
                (("chosen", f"{r.name} (dude {r.index})"), ("criterion", r.criterion)), (("options", r.options),))


def _discard_gap(r: Any) -> View:
    return View(f"discard heuristic against the search reference: {r.deck}, stud {r.stud} draw {r.draw}",
                (Figure_("gap", r.gap, r.gap_stderr), Figure_("p_optimal", r.p_optimal, _p_se(r.p_optimal, r.hands))),
                (("policy", r.policy), ("computed", f"exact per hand, over {r.hands:,} dealt hands, seed {r.seed}")),
                notes=("gap: mean expected kept rank lost to the heuristic's discards (>= 0); p_optimal: share of "
                       "hands where its choice is as good as the best.",), trials=r.hands)


def _full_shootout(r: Any) -> View:
    return View(f"whole shootouts: {r.a.name} (A) against {r.b.name} (B)",
                _summary_figures(r.summary),
                (("A", f"{r.a.name}: {r.a.policy_text}"), ("B", f"{r.b.name}: {r.b.policy_text}"),
                 _how(False, r.trials, r.seed)),
                (("summary", r.summary), ("rounds", r.rounds[r.rounds["p"] > 0]), ("dudes", r.dudes)),
                chart=True, trials=r.trials)


def _battle_facts(o: Any) -> tuple[tuple[str, str], ...]:
    """The battle played: the fixed range (movement none), or the table's terrain and the two plans."""
    if getattr(o, "movement", "none") == "none":
        return (("movement", "none"), ("range", str(o.distance.label)))
    return (("movement", str(o.movement)), ("terrain", f"{float(o.terrain):g}"),
            ("plans", f"A {o.plan_a}, B {o.plan_b}"))


def _battle_result(r: Any) -> View:
    o = r.setup.options
    return View(f"battle: {r.setup.a.posse.name} (A) against {r.setup.b.posse.name} (B)",
                _summary_figures(r.summary),
                (*_battle_facts(o), ("turns", str(o.turns)), _how(False, r.trials, r.seed)),
                (("summary", r.summary), ("models", r.models), ("activation (exact)", r.activation)),
                tuple(r.notes), chart=True, trials=r.trials)


def _value_result(r: Any) -> View:
    base = r.base
    return View(f"what each $ buys: {base.setup.a.posse.name} against {base.setup.b.posse.name}",
                (Figure_("p_a_wins (as it is)", base["p_a_wins"], base.stderr("p_a_wins")),),
                (("values hold for", r.battle_words), ("purchases valued", f"{len(r.table):,}"),
                 ("not valued", f"{len(r.skipped):,}"),
                 _how(False, r.trials, r.seed)),
                (("table", r.table), ("skipped", r.skipped)),
                ("Each purchase replays the same battles as the posse as it is (common random numbers); its "
                 "standard error is paired.",), chart=True, trials=r.trials)


def _odds(r: Any) -> View:
    import pandas as pd

    figures = tuple(Figure_(k, v, None if r.stderr is None else r.stderr.get(k), r.exact)
                    for k, v in r.outcomes.items())
    facts = [_how(r.exact, r.trials or 0, r.seed)]
    facts += [(name, f"{v:+d}") for name, v in r.modifiers]
    table = {"outcome": list(r.outcomes), "probability": list(r.outcomes.values())}
    if r.stderr is not None:
        table["stderr"] = [r.stderr.get(k, float("nan")) for k in r.outcomes]
    if r.fractions is not None:
        table["exact fraction"] = [str(r.fractions.get(k, "")) for k in r.outcomes]
    return View(f"{r.what}: outcome probabilities", figures, tuple(facts), (("outcomes", pd.DataFrame(table)),),
                chart=True, trials=0 if r.exact else (r.trials or 0))


def _deck(r: Any) -> View:
    from oddsmith.doomtown.deck import counts_frame

    facts = [("cards", f"{r.valued_cards} valued cards and {r.jokers} jokers ({len(r)} in the draw deck)"),
             ("deck used", r.deck_state)]
    facts += [(k, v) for k, v in (("outfit", r.outfit), ("legend", r.legend)) if v]
    if r.removed:
        facts.append(("removed", ", ".join(r.removed)))
    return View(f"deck {r.name}", (), tuple(facts), (("counts_frame(deck)", counts_frame(r)),),
                tuple(r.warnings), chart=True)


def _doomtown_posse(r: Any) -> View:
    return View(f"posse of {len(r)} dude{'s' if len(r) != 1 else ''}: " + "; ".join(d.name for d in r.dudes), (),
                (), (("shooter_options()", r.shooter_options()),))


def _shadows_posse(r: Any) -> View:
    from oddsmith.shadows import posse as P

    problems = P.validate(r)
    facts = (("faction", str(getattr(r.faction, "value", r.faction))),
             ("cost", f"${P.total_cost(r)} of ${r.dollar_limit}"),
             ("posse-building rules", "kept" if not problems else f"{len(problems)} broken"))
    return View(f"posse {r.name} ({len(r.models)} models)", (), facts, (("roster_table(posse)", P.roster_table(r)),),
                tuple(str(v) for v in problems))


_VIEWS: dict[str, Callable[[Any], View]] = {
    "oddsmith.doomtown.lowball.LowballOdds": _lowball_odds,
    "oddsmith.doomtown.lowball.GamblinOdds": _gamblin_odds,
    "oddsmith.doomtown.lowball.LowballTradeoff": _lowball_tradeoff,
    "oddsmith.doomtown.lowball.TableOdds": _table_odds,
    "oddsmith.doomtown.shootout.ShootoutOdds": _shootout_odds,
    "oddsmith.doomtown.shootout.RoundOdds": _round_odds,
    "oddsmith.doomtown.shootout.ShooterChoice": _shooter_choice,
    "oddsmith.doomtown.shootout.DiscardGap": _discard_gap,
    "oddsmith.doomtown.full_shootout.FullShootout": _full_shootout,
    "oddsmith.doomtown.deck.Deck": _deck,
    "oddsmith.doomtown.posse.Posse": _doomtown_posse,
    "oddsmith.shadows.battle.BattleResult": _battle_result,
    "oddsmith.shadows.value.ValueResult": _value_result,
    "oddsmith.shadows.engine.Odds": _odds,
    "oddsmith.shadows.posse.Posse": _shadows_posse,
}


def view_of(obj: Any) -> View:
    """The :class:`View` of a decorated result object."""
    cls = type(obj)
    for klass in cls.__mro__:
        fn = _VIEWS.get(f"{klass.__module__}.{klass.__qualname__}")
        if fn is not None:
            return fn(obj)
    raise TypeError(f"{cls.__name__} has no notebook view")


# ---------------------------------------------------------------------------
# Charts
# ---------------------------------------------------------------------------


def _figure(height: float = 3.2, width: float = 7.0) -> "Figure":
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _rank_bars(frame: "pd.DataFrame", *, p: str, stderr: str | None, group: str | None, title: str,
               xlabel: str) -> "Figure":
    from oddsmith.report import charts

    fig = _figure()
    charts.distribution_bars(fig, frame, x="hand", p=p, stderr=stderr, group=group, title=title, xlabel=xlabel,
                             label_rotation=30)
    return fig


def _two_sides(frame: "pd.DataFrame", names: tuple[str, str]) -> "pd.DataFrame":
    import pandas as pd

    parts = []
    for side, name in zip("AB", names):
        part = frame[["hand", f"p_{side}", f"p_{side}_stderr"]].rename(
            columns={f"p_{side}": "p", f"p_{side}_stderr": "stderr"})
        part["side"] = f"{side}: {name}"
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _plot_lowball(r: Any) -> "Figure":
    return _rank_bars(r.ranks, p="probability", stderr="stderr", group=None,
                      title=f"Lowball hand of {r.deck}", xlabel="hand (lower is better in Gamblin')")


def _plot_gamblin(r: Any) -> "Figure":
    a, b = r.players
    return _rank_bars(_two_sides(r.ranks(), (a.deck, b.deck)), p="p", stderr="stderr", group="side",
                      title=f"Lowball hands: {a.deck} against {b.deck}", xlabel="hand")


def _plot_shootout(r: Any) -> "Figure":
    return _rank_bars(r.ranks, p="probability", stderr="stderr", group=None,
                      title=f"Kept shootout hand of {r.deck}, stud {r.stud} draw {r.draw}", xlabel="hand")


def _plot_round(r: Any) -> "Figure":
    return _rank_bars(_two_sides(r.ranks(), (r.a.deck, r.b.deck)), p="p", stderr="stderr", group="side",
                      title=f"Kept hands in one round: {r.a.deck} against {r.b.deck}", xlabel="hand")


def _plot_full_shootout(r: Any) -> "Figure":
    from oddsmith.report import charts

    fig = _figure()
    rounds = r.rounds[r.rounds["p"] > 0].assign(rounds=lambda d: d["rounds"].astype(int))
    charts.distribution_bars(fig, rounds, x="rounds", p="p", stderr="stderr", xlabel="rounds",
                             title=f"Rounds of a whole shootout: {r.a.name} against {r.b.name}")
    return fig


def _plot_battle(r: Any) -> "Figure":
    import pandas as pd

    from oddsmith.report import charts

    fig = _figure(height=1.8)
    data = pd.DataFrame([{"bar": f"{r.setup.a.posse.name} (A)", "part": part, "p": r[f]}
                         for part, f in (("A wins", "p_a_wins"), ("draw", "p_draw"), ("B wins", "p_b_wins"))])
    charts.stacked_bars(fig, data, bar="bar", part="part", p="p", parts_order=["A wins", "draw", "B wins"],
                        title=f"Who wins: {r.setup.a.posse.name} against {r.setup.b.posse.name}")
    return fig


def _plot_value(r: Any, top: int = 14) -> "Figure":
    from oddsmith.report.battle_page import value_bars

    data = r.table.head(top).reset_index(drop=True)
    fig = _figure(height=1.0 + 0.22 * len(data))
    value_bars(fig, data, title=f"Best {len(data)} purchases by ΔP(win) per $ (± one paired standard error)")
    return fig


def _plot_odds(r: Any) -> "Figure":
    import pandas as pd

    from oddsmith.report import charts

    fig = _figure()
    data = pd.DataFrame({"outcome": list(r.outcomes), "p": list(r.outcomes.values()),
                         "stderr": [0.0 if r.stderr is None else r.stderr.get(k, 0.0) for k in r.outcomes]})
    data = data[data["outcome"] != "shots_fired"]  # a mean number of shots, not a probability
    charts.distribution_bars(fig, data, x="outcome", p="p", stderr="stderr",
                             title=f"{r.what}: outcome probabilities", xlabel="outcome", label_rotation=30)
    return fig


def _plot_deck_counts(r: Any) -> "Figure":
    from oddsmith.report import charts
    from oddsmith.report.deck_report import _counts_long

    fig = _figure()
    charts.value_suit_histogram(fig, _counts_long(r), jokers=r.jokers, title=f"Cards by value and suit: {r.name}")
    return fig


_PLOTS: dict[str, Callable[..., "Figure"]] = {
    "oddsmith.doomtown.lowball.LowballOdds": _plot_lowball,
    "oddsmith.doomtown.lowball.GamblinOdds": _plot_gamblin,
    "oddsmith.doomtown.shootout.ShootoutOdds": _plot_shootout,
    "oddsmith.doomtown.shootout.RoundOdds": _plot_round,
    "oddsmith.doomtown.full_shootout.FullShootout": _plot_full_shootout,
    "oddsmith.doomtown.deck.Deck": _plot_deck_counts,
    "oddsmith.shadows.battle.BattleResult": _plot_battle,
    "oddsmith.shadows.value.ValueResult": _plot_value,
    "oddsmith.shadows.engine.Odds": _plot_odds,
}


def plot(obj: Any, **kwargs: Any) -> "Figure":
    """The chart of a result object, as a matplotlib Figure in the report's style."""
    from oddsmith.report.style import report_style

    key = f"{type(obj).__module__}.{type(obj).__qualname__}"
    fn = _PLOTS.get(key)
    if fn is None:
        raise TypeError(f"{type(obj).__name__} has no chart")
    with report_style():
        return fn(obj, **kwargs)


# ---------------------------------------------------------------------------
# Charts of tables (documented chart functions)
# ---------------------------------------------------------------------------


def tradeoff_chart(table: "pd.DataFrame", *, title: str = "") -> "Figure":
    """The report's trade-off chart of a :func:`oddsmith.doomtown.shootout.tradeoff` table: P(win Gamblin')
    against P(full house or better), one marker per stud/draw bonus, one colour per deck, ± one standard error."""
    from oddsmith.report import charts
    from oddsmith.report.style import report_style

    data = table.assign(bonus=[f"stud {s} draw {d}" for s, d in zip(table["stud"], table["draw"])])
    with report_style():
        fig = _figure(height=3.6)
        charts.tradeoff_scatter(fig, data, x="lowball_p_win", y="shootout_p_full_house_or_better", deck="deck",
                                bonus="bonus", yerr="shootout_p_full_house_or_better_stderr",
                                title=title or "Shootout strength against lowball",
                                xlabel="P(win Gamblin')", ylabel="P(full house or better)")
    return fig


# ---------------------------------------------------------------------------
# The decorator
# ---------------------------------------------------------------------------


def notebook_view(cls: type) -> type:
    """Give a result class a short ``__repr__``, ``_repr_html_`` and, where it has a chart, ``plot()``.

    Put it above ``@dataclass`` (it must run after the dataclass has written its own ``__repr__``)."""

    def __repr__(self: Any) -> str:
        return short_repr(self, view_of(self))

    def _repr_html_(self: Any) -> str:
        return html_view(view_of(self))

    cls.__repr__ = __repr__  # type: ignore[method-assign]
    cls._repr_html_ = _repr_html_  # type: ignore[attr-defined]
    if f"{cls.__module__}.{cls.__qualname__}" in _PLOTS and "plot" not in vars(cls):
        def plot_(self: Any, **kwargs: Any) -> "Figure":
            """This result's chart (the report's chart code and style) as a matplotlib Figure."""
            return plot(self, **kwargs)

        plot_.__name__ = "plot"
        cls.plot = plot_  # type: ignore[attr-defined]
    return cls
