"""Shadows of the West reference sheets: exact tables drawn as printable pages.

Pages: P(at least k successes) for 1-6 dice of each Grit die; shooting
(P(hit) and the Shaken / Downed / Casualty split for every shooter rank x
target rank x Dice Modifier); saves and damage by successes; the fight
matrix; Recovery Tests, Bottle Checks and Advance rolls; and, with a posse
file, a page per model with its weapons' odds by range band against each
target rank. Every figure is exact (:mod:`oddsmith.shadows`); this module
only arranges the engines' DataFrames.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from oddsmith.errors import OddsmithError
from oddsmith.report import charts
from oddsmith.report.charts import pct
from oddsmith.report.document import Chart, Notes, Page, Row, Table
from oddsmith.rules import shadows as R
from oddsmith.shadows import campaign

RANK_LABEL = {R.Rank.NOVICE: "Novice (D6)", R.Rank.VETERAN: "Veteran (D8)", R.Rank.HERO: "Hero (D10)"}
SECTION = "Shadows of the West reference sheets"


def load_posse(spec: str | None):
    """A posse file, or the name of a shipped sample posse (a Faction name or ``unaligned``)."""
    if spec is None:
        return None
    from oddsmith.shadows import posse as posse_mod

    if Path(spec).exists() or spec.endswith(".toml"):
        return posse_mod.load_posse(spec)
    key = spec.strip().lower().replace(" ", "-")
    if key in posse_mod.sample_posse_names():
        return posse_mod.sample_posse(None if key == posse_mod.DEFAULT_SAMPLE else key)
    raise OddsmithError(f"{spec}: no such posse file or sample posse "
                        f"(samples: {', '.join(posse_mod.sample_posse_names())})")


def describe(posse) -> list[str]:
    lines = ["Shadows of the West: reference sheets for tests, shooting, saves, fights, Recovery, "
             "Bottle Checks and Advance rolls; every figure exact (dynamic programming over the dice)."]
    if posse is not None:
        lines.append(f"Posse {posse.name!r} ({posse.source}): one page per model.")
    return lines


def n_steps(posse) -> int:
    return 6 + (len(posse.models) if posse is not None else 0)


# ---------------------------------------------------------------------------- campaign

def advance_page() -> Page:
    """Advance rolls (Grit die + EXP against 6 / 8 / 10) and what follows them."""
    adv = campaign.advance_table()
    adv["label"] = [RANK_LABEL[R.rank(r)] for r in adv["rank"]]
    exps = sorted(adv["exp"].unique())
    matrix = adv.pivot(index="label", columns="exp", values="p_advance").reindex(
        index=[RANK_LABEL[r] for r in R.Rank], columns=exps)
    matrix.columns = [f"{e}" for e in exps]
    table = pd.DataFrame({
        "Rank": adv["label"], "EXP": adv["exp"],
        "P(Advance) (%)": [pct(p) for p in adv["p_advance"]],
        "Preferred Skill (%)": [pct(p) for p in adv["p_preferred_skill"]],
        "Random Skill (%)": [pct(p) for p in adv["p_random_skill"]],
        "Rank-Up (%)": [pct(p) for p in adv["p_rank_up"]],
        "Games to Advance": [f"{g:.2f}" for g in adv["expected_games_to_advance"]],
    })
    inj = campaign.injury_table()
    inj_table = pd.DataFrame({
        "Rank": [RANK_LABEL[R.rank(r)] for r in inj["rank"]],
        "Cause": inj["cause"],
        "Full Recovery (%)": [pct(p) for p in inj["p_full_recovery"]],
        "Lasting Injury (%)": [pct(p) for p in inj["p_lasting_injury"]],
        "Laid-Up (%)": [pct(p) for p in inj["p_laid_up"]],
        "Dead (%)": [pct(p) for p in inj["p_dead"]],
    })
    return Page(
        title="Advance rolls and Injuries",
        subtitle="Campaign rolls (never modified) · exact",
        blocks=[
            Chart(partial(charts.heatmap_grid,
                          panels=[("P(Advance) after a game: Grit die + EXP scores 6 / 8 / 10 (%)", matrix)],
                          xlabel="EXP before the roll", colorbar_label="P(Advance) (%)"),
                  title="P(Advance) by current EXP", data=matrix.map(pct).reset_index(names="Rank"), height=1.5),
            Table(table, title="Advance roll: what the model learns (Grit die + EXP, then a D6 on the Advance table)"),
            Table(inj_table, title="Injury roll after the game"),
        ],
        section=SECTION)


def shadows_pages(posse=None, *, steps=None) -> list[Page]:
    """Every Shadows reference sheet, in order, then a page per model of ``posse``."""
    pages: list[Page] = []
    for label, build in [("Shadows: Advance", advance_page)]:
        if steps:
            steps.step(label)
        pages.append(build())
        if steps:
            steps.done_step()
    return pages
