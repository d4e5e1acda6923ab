"""Shadows of the West battle pages: the sample posses against each other, and what each dollar buys.

Figures come from :mod:`oddsmith.shadows.battle` and :mod:`oddsmith.shadows.value`
(Monte Carlo on the report's seed, every figure with its standard error); this
module only arranges their DataFrames.
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

import numpy as np

from oddsmith import lazy
from oddsmith.report import charts
from oddsmith.report.charts import pct
from oddsmith.report.document import Chart, Notes, Page, Sampling, Table, build_pages
from oddsmith.sampling import SamplingPlan
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from oddsmith.shadows import value as V

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

# Loaded when a chart is drawn, not when its page is built (docs/speed.md, 'Reports').
layout = lazy.module("oddsmith.report.layout")
style = lazy.module("oddsmith.report.style")

SECTION = "Shadows of the West battles"
BASE_SAMPLE = "unaligned"
VALUE_PAIRS = (("unaligned", "twilight-order"), ("twilight-order", "unaligned"))
#: Battles per matchup on the matchup page: the fewest that keep every who-wins figure within the 1 pp a who-wins bar
#: can be read to, a standard error of at most sqrt(0.25 / 2500) = 1.0 pp (at p = 1/2; 0.65-0.96 pp for the sample
#: posses). Chosen by the error the chart needs, as every capped page is (docs/reports.md); 5,000 (0.71 pp) until
#: 2026-12-07, twice what the bar needs, for about 0.45 s more of a report's CPU (docs/speed.md, 'Reports').
MATCHUP_TRIALS = 2_500
VALUE_TRIALS = 1_000
"""Battles per purchase on the value pages (about a hundred purchases per posse): paired standard errors of ΔP(win)
up to about 1.3 pp (sqrt(5) times those of 5,000 battles), stated on the page; budgeted for table battles up to 10x
dearer than today's fixed-range firefight (docs/speed.md, 'Reports')."""
TOP = 14
OPTIONS = B.battle_options()
"""The battle both pages play: the book's 3' table, Showdown deployment, open terrain, both posses on the balanced
plan, 8 Game Turns, most dangerous target first, auto Solo/Dual Activations (docs/shadows-battles.md)."""
SETTING = (f"on the 3' table (Showdown), {B.terrain_label(OPTIONS.terrain)} terrain, {OPTIONS.plan_a} plans, "
           f"{OPTIONS.turns} Game Turns")
NOT_MODELLED_NOTE = ("Not modelled (docs/shadows-battles.md, 'What is not modelled'): terrain pieces and Line of Sight "
                     "(Cover is a density drawn per shot), a Lasso thrown at a model on "
                     "foot, the other scenarios and Bystanders.")


def n_steps() -> int:
    return 1 + len(VALUE_PAIRS)


def step_labels() -> list[str]:
    """The progress steps of :func:`battle_pages`, in order."""
    return ["Shadows: battles"] + [f"Shadows: value {a}" for a, _ in VALUE_PAIRS]


def _sample(name: str) -> P.Posse:
    return P.sample_posse(None if name == P.DEFAULT_SAMPLE else name)


#: What the matchup page shows of each battle, every figure with its standard error.
MATCHUP_FIGURES = ("p_a_wins", "p_draw", "p_b_wins", "p_a_bottles", "p_b_bottles", "turns_mean", "casualties_a",
                   "casualties_b")


def matchup_plan(plan: SamplingPlan) -> SamplingPlan:
    """The games of each matchup battle, as :func:`B.battle` plays them for :func:`matchup_figures`."""
    return SamplingPlan(seed=plan.seed, trials=min(plan.trials, MATCHUP_TRIALS))


def matchup_figures(name: str, plan: SamplingPlan, workers: int = 1, counts: np.ndarray | None = None) -> dict:
    """The figures the matchup page shows of the unaligned sample posse (A) against the sample posse ``name`` (B),
    on the table (:data:`OPTIONS`): a small dict, for another process to make too. ``counts``: the battle's kernel
    counts, played already (:mod:`oddsmith.report.head_start`)."""
    a, b = _sample(BASE_SAMPLE), _sample(name)
    games = matchup_plan(plan)
    if counts is None:
        r = B.battle(a, b, OPTIONS, trials=games.trials, seed=games.seed, workers=workers)
    else:
        r = B.result_of_counts(B.prepare(a, b, OPTIONS), counts, games.trials, games.seed)
    out = {"B": b.name, **{f: r[f] for f in MATCHUP_FIGURES}}
    out.update({f"{f}_stderr": r.stderr(f) for f in MATCHUP_FIGURES})
    return out


def _p(figures: dict, f: str) -> str:
    return f"{pct(figures[f])} ± {pct(figures[f + '_stderr'], 2)}"


def _mean(figures: dict, f: str) -> str:
    return f"{figures[f]:.2f} ± {figures[f + '_stderr']:.2f}"


def matchup_page(plan: SamplingPlan, workers: int = 1, figures: Sequence[dict] | None = None) -> Page:
    """The unaligned sample posse against every Faction's sample posse, on the table (:data:`OPTIONS`).
    ``figures``: :func:`matchup_figures` of each of :func:`P.sample_posse_names`, in order, if made already."""
    a = _sample(BASE_SAMPLE)
    if figures is None:
        figures = [matchup_figures(name, plan, workers) for name in P.sample_posse_names()]
    rows, long = [], []
    ses, table_ses = [], []  # of the who-wins bars; of every percentage in the table
    trials = min(plan.trials, MATCHUP_TRIALS)
    for r in figures:
        label = f"vs {r['B']}"
        for part, fig in (("A wins", "p_a_wins"), ("draw", "p_draw"), ("B wins", "p_b_wins")):
            long.append({"bar": label, "part": part, "p": r[fig]})
        ses += [r[f"{f}_stderr"] for f in ("p_a_wins", "p_draw", "p_b_wins")]
        table_ses += [r[f"{f}_stderr"] for f in ("p_a_wins", "p_b_wins", "p_a_bottles", "p_b_bottles")]
        rows.append({"B": r["B"], "P(A wins) (%)": _p(r, "p_a_wins"), "P(B wins) (%)": _p(r, "p_b_wins"),
                     "A Bottles Out (%)": _p(r, "p_a_bottles"), "B Bottles Out (%)": _p(r, "p_b_bottles"),
                     "turns": _mean(r, "turns_mean"), "A Casualties": _mean(r, "casualties_a"),
                     "B Casualties": _mean(r, "casualties_b")})
    data = pd.DataFrame(long)
    sampling = Sampling(trials, max(ses))
    most = max(ses + table_ses)
    return Page(
        title=f"Battles: {a.name} (A) against each sample posse",
        subtitle=f"{SETTING}, most dangerous target first, auto Solo/Dual Activations · Monte Carlo, "
                 f"{trials:,} battles each: ±{100 * most:.1f} pp at most",
        blocks=[Chart(partial(charts.stacked_bars, data=data, bar="bar", part="part", p="p",
                              parts_order=["A wins", "draw", "B wins"], title=f"{a.name} (A): who wins"),
                      title="Who wins (%)", data=data.pivot(index="bar", columns="part", values="p").map(pct)
                      .reset_index(names="battle"), height=3.4, sampling=sampling),
                Table(pd.DataFrame(rows), title="Outcome (± one standard error)",
                      sampling=Sampling(trials, max(table_ses)), font_size=6.5),
                Notes([NOT_MODELLED_NOTE,
                       "A draw: both posses out in one Turn, or equal Victory Points after Turn 8."])],
        section=SECTION)


def value_bars(fig, data: pd.DataFrame, *, title: str = "") -> None:
    """Horizontal bars of ΔP(win) per $ (percentage points), whiskers ± :data:`charts.WHISKER_SE` standard
    errors, best at the top."""
    ax = fig.add_subplot(axes_class=layout.BarAxes)
    y = np.arange(len(data))
    vals = 100 * data["d_p_win_per_dollar"].to_numpy(dtype=float)
    err = charts.WHISKER_SE * 100 * (data["d_p_win_stderr"] / data["cost"]).to_numpy(dtype=float)
    kinds = list(dict.fromkeys(["skill", "weapon", "gear"]))
    cols, hatches = style.colors(len(kinds)), style.hatches(len(kinds))
    for k, (kind, col, hatch) in enumerate(zip(kinds, cols, hatches)):
        sel = (data["kind"] == kind).to_numpy()
        if sel.any():
            ax.barh(y[sel], vals[sel], xerr=err[sel], color=col, hatch=hatch, label=kind, height=0.65,
                    error_kw={"elinewidth": 0.6, "ecolor": "black"})
    for yi, v, e, c in zip(y, vals, err, data["cost"]):
        ax.annotate(f"{v:+.2f} (${c})", (max(v, 0) + e, yi), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=6)
    layout.edge_labels(ax, "y", [f"{m}: {i}" for m, i in zip(data["model"], data["item"])])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.6)
    lo = min(0.0, float(np.min(vals - err))) if len(vals) else 0.0
    hi = float(np.max(vals + err)) if len(vals) else 1.0
    ax.set_xlim(lo * 1.1 - 0.02, hi * 1.35 + 0.05)
    ax.set_xlabel("change in P(win) per $ (percentage points)")
    ax.grid(axis="y", visible=False)
    charts.set_title(ax, fig, title)
    ax.legend(loc="lower right")


def value_page(posse_name: str, vs_name: str, plan: SamplingPlan, workers: int = 1) -> Page:
    a, b = _sample(posse_name), _sample(vs_name)
    trials = min(plan.trials, VALUE_TRIALS)
    res = V.value(a, b, OPTIONS, trials=trials, seed=plan.seed, workers=workers)
    top = res.table.head(TOP).reset_index(drop=True)
    sampling = Sampling(trials, float(res.table["d_p_win_stderr"].max()) if len(res.table) else 0.0)
    view = pd.DataFrame({
        "model": top["model"], "buys": top["item"], "$": top["cost"],
        "P(win) change": [f"{100 * v:+.1f} ± {100 * e:.1f} pp" for v, e in zip(top["d_p_win"], top["d_p_win_stderr"])],
        "per $": [f"{100 * v:+.2f} pp" for v in top["d_p_win_per_dollar"]],
        "enemy Casualties change": [f"{v:+.2f} ± {e:.2f}" for v, e in zip(top["d_casualties_b"],
                                                                     top["d_casualties_b_stderr"])],
        "over $ limit": ["yes" if o else "" for o in top["over_limit"]],
    })
    skipped = res.skipped
    n_price = int(skipped["reason"].str.contains("no price").sum())
    n_rule = int(skipped["reason"].str.startswith("not allowed").sum())
    n_effect = len(skipped) - n_price - n_rule  # no effect here, or a Weapon with no Shooting Test
    base = res.base
    return Page(
        title=f"What each $ buys: {a.name} against {b.name}",
        subtitle=f"as it is: P(win) {pct(base['p_a_wins'])} ± {pct(base.stderr('p_a_wins'), 2)} % · every purchase "
                 f"replayed on the same {trials:,} battles (common random numbers): P(win) change ±"
                 f"{100 * sampling.max_stderr:.1f} pp at most · {SETTING} · Monte Carlo",
        blocks=[Chart(partial(value_bars, data=top, title=f"Best {len(top)} purchases by P(win) change per $"),
                      title="P(win) change per $", data=view, height=4.2, sampling=sampling),
                Table(view, title="Best purchases (± one paired standard error, from the per-battle differences)",
                      sampling=sampling, font_size=6.5),
                Notes([f"Chart {charts.WHISKERS}; the table: ± one standard error.",
                       f"{len(res.table)} purchases valued; not valued: {n_price} without a price in the rulebook "
                       f"text (no house price), {n_effect} with no effect in this battle, {n_rule} "
                       f"against the posse-building rules. Skills cost the Rank's price plus the nth-Skill surcharge."])],
        section=SECTION)


def battle_builders(plan: SamplingPlan, workers: int = 1) -> list[tuple[str, Callable[[], Page]]]:
    """What :func:`battle_pages` builds, in order: (progress label, function making the page)."""
    builders = [("Shadows: battles", partial(matchup_page, plan, workers))]
    builders += [(f"Shadows: value {a}", partial(value_page, a, b, plan, workers)) for a, b in VALUE_PAIRS]
    return builders


def battle_pages(plan: SamplingPlan, *, workers: int = 1, steps=None) -> list[Page]:
    """The battle pages of the Shadows sheets: the matchups, then what each $ buys for two sample posses."""
    return build_pages(battle_builders(plan, workers), steps)
