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

import dataclasses
from functools import partial

import numpy as np
import pandas as pd

from oddsmith.report import charts
from oddsmith.report.charts import pct
from oddsmith.report.document import Chart, Distribution, Notes, Page, Table, build_pages
from oddsmith.rules import shadows as R
from oddsmith.shadows import campaign, tables
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as posse_mod

RANK_LABEL = {R.Rank.NOVICE: "Novice (D6)", R.Rank.VETERAN: "Veteran (D8)", R.Rank.HERO: "Hero (D10)"}
SECTION = "Shadows of the West reference sheets"


def load_posse(spec: str | None):
    """A posse file, or the name of a shipped sample posse (a Faction name or ``unaligned``)."""
    if spec is None:
        return None
    return posse_mod.resolve_posse(spec)


def describe(posse) -> list[str]:
    lines = ["Shadows of the West: reference sheets for tests, shooting, saves, fights, Recovery, "
             "Bottle Checks and Advance rolls; every figure exact (dynamic programming over the dice)."]
    if posse is not None:
        lines.append(f"Posse {posse.name!r} ({posse.source}): one page per model.")
    return lines


def n_steps(posse) -> int:
    return 7 + (len(posse.models) if posse is not None else 0)


def step_labels(posse) -> list[str]:
    """The progress steps of :func:`shadows_pages` (one per page; their labels only weigh them)."""
    return ["Shadows sheet"] * n_steps(posse)


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
        # the book's table lists 1-6 only: a D10 roll of 7-10 leaves the model unhurt
        "No Injury, 7-10 (%)": [pct(p) for p in inj["p_no_injury_7_10"]],
    })
    return Page(
        title="Advance rolls and Injuries",
        subtitle="Campaign rolls (never modified) · exact",
        blocks=[
            Chart(partial(charts.heatmap_grid,
                          panels=[("P(Advance) after a game: Grit die + EXP scores 6 / 8 / 10 (%)", matrix)],
                          xlabel="EXP before the roll", colorbar_label="P(Advance) (%)", subject="the model"),
                  title="P(Advance) by current EXP", data=matrix.map(pct).reset_index(names="Rank"), height=1.5),
            Table(table, title="Advance roll: what the model learns (Grit die + EXP, then a D6 on the Advance table)"),
            Table(inj_table, title="Injury roll after the game (D10: 1 Dead, 2-5 Lasting Injury, 6 Laid-Up, "
                                   "7-10 no Injury)",
                  distributions=(Distribution(tuple(c for c in inj_table.columns if c.endswith("(%)"))),)),
        ],
        section=SECTION)


def _die_label(die: str) -> str:
    return {f"D{r.die}": RANK_LABEL[r] for r in R.Rank}.get(die, die)


def tests_page() -> Page:
    """P(at least k Successes) for 1-6 dice of each Grit die, and the exact distribution."""
    tab = tables.success_table(range(1, 7))
    dist_cols = [c for c in tab.columns if c.isdigit()]
    panels = []
    for die, grp in tab.groupby("die", sort=False):
        grp = grp.set_index("dice")
        exact = grp[dist_cols].to_numpy(dtype=float)
        at_least = np.flip(np.cumsum(np.flip(exact, axis=1), axis=1), axis=1)[:, 1:]
        m = pd.DataFrame(at_least, index=[f"{n} {'die' if n == 1 else 'dice'}" for n in grp.index],
                         columns=[f"{k}+" for k in range(1, at_least.shape[1] + 1)])
        m = m.where(np.arange(1, m.shape[1] + 1)[None, :] <= np.asarray(grp.index)[:, None])
        panels.append((_die_label(die), m))
    table = pd.DataFrame({
        "Grit die": [_die_label(d) for d in tab["die"]], "Dice": tab["dice"],
        **{f"{k} Succ. (%)": [pct(p) if int(k) <= n else "" for p, n in zip(tab[k], tab["dice"])] for k in dist_cols},
        "Mean": [f"{m:.2f}" for m in tab["mean"]],
    })
    reading = tab["reading"].iloc[0].upper()
    return Page(
        title="Tests: P(at least k Successes)",
        subtitle=f"Success on 5+ · a die showing its maximum grants a re-roll (reading {reading}: failing dice "
                 "re-rolled, maxima on re-rolls count) · exact",
        blocks=[
            Chart(partial(charts.heatmap_grid, panels=panels, xlabel="Successes (at least)", ylabel="dice rolled",
                          colorbar_label="P(at least k) (%)", subject="the roller"),
                  title="P(at least k Successes) by Grit die", height=2.6,
                  data=pd.concat([m.map(pct).reset_index(names="dice").assign(die=d) for d, m in panels])),
            Table(table, title="Exact distribution of Successes (a Shaken model rolls one Grit die lower, "
                               "minimum D6)",
                  distributions=(Distribution(tuple(f"{k} Succ. (%)" for k in dist_cols)),)),
        ],
        section=SECTION)


SHOT_PANEL_COLUMNS = {"hit": "Hit", "saved": "Saved", "shaken": "Shaken", "downed": "Downed",
                      "casualty": "Casualty", "jammed": "Jams"}
#: For the shooter, a Saved hit and a jammed weapon are bad news: those columns' colours run the other way.
SHOOTER_GOOD = {"Saved": charts.LOW, "Jams": charts.LOW}
#: For the model saving, only Saved is good news.
SAVER_GOOD = {"Shaken": charts.LOW, "Downed": charts.LOW, "Casualty": charts.LOW}


def _shooting_panels(target_shaken: bool) -> tuple[list[tuple[str, pd.DataFrame]], pd.DataFrame]:
    targets = [E.Target.of(r, shaken=target_shaken) for r in tables.RANK_ORDER]
    tab = tables.shooting_table(targets=targets, dice_mods=range(-2, 4))
    tab["row"] = [f"{s} {m:+d} ({n}d)" for s, m, n in zip(tab["shooter"], tab["dice_mod"], tab["dice"])]
    panels = []
    for target in dict.fromkeys(tab["target"]):
        grp = tab[tab["target"] == target].set_index("row")
        m = grp[list(SHOT_PANEL_COLUMNS)].rename(columns=SHOT_PANEL_COLUMNS)
        label = RANK_LABEL[R.rank(target)] + (" target, Shaken" if target_shaken else " target")
        panels.append((label, m))
    return panels, tab


def shooting_page(target_shaken: bool = False) -> Page:
    """P(hit) and the Shaken / Downed / Casualty split, every shooter rank x target rank x Dice Modifier."""
    panels, tab = _shooting_panels(target_shaken)
    weapon = tab["weapon"].iloc[0]
    data = tab[["shooter", "target", "dice_mod", "dice", *SHOT_PANEL_COLUMNS]].copy()
    for c in SHOT_PANEL_COLUMNS:
        data[c] = data[c].map(pct)
    state = "a Shaken target (Shaken again means Downed; it saves one Grit die lower)" if target_shaken \
        else "a target that is not Shaken"
    return Page(
        title="Shooting: hit and damage" + (" against a Shaken target" if target_shaken else ""),
        subtitle=f"{weapon} at Medium Range, 3 dice + Dice Modifier (Cover -1, Long Range -1, Short Range +1, "
                 f"Elevated +1, Back-Shooter +1) at {state} · exact",
        blocks=[
            Chart(partial(charts.heatmap_grid, panels=panels, xlabel="", ylabel="shooter, Dice Modifier (dice)",
                          colorbar_label="probability (%)", good=SHOOTER_GOOD, subject="the shooter"),
                  title="Shooting outcomes by shooter, target and Dice Modifier", data=data, height=6.4),
            Notes(["Each row: shooter Rank, Dice Modifier and the dice rolled. Hit = at least one Success; "
                   "Saved + Shaken + Downed + Casualty = Hit. Jams = missed with a 1 and failed the "
                   f"{weapon}'s Jamming Check.",
                   "Save needed: 5+ for 1 Success, 6+ for 2, ... 10+ for 6; failing by 1-2 Shaken, 3-4 Downed, "
                   "5+ Casualty.",
                   "Colours: each column is shaded on its own range, bright in the rows best for the shooter "
                   "(the most Hit, Shaken, Downed and Casualty, the fewest Saved and Jams) and dark in the worst; "
                   "the numbers give the levels."]),
        ],
        section=SECTION)


def saves_page() -> Page:
    """Save and damage by Successes scored, for each target Grit die, Shaken or not."""
    panels = []
    rows = []
    for shaken in (False, True):
        for rank in tables.RANK_ORDER:
            die = R.grit_die(rank, shaken=shaken)
            m = {}
            for k in range(1, 7):
                target = R.save_target(k)
                out = E.save_odds(die, target, shaken=shaken)
                m[f"{k} ({target}+)"] = {st.title(): float(p) for st, p in out.items()}
                rows.append({"target": rank.label, "target Shaken": "yes" if shaken else "no",
                             "Successes": k, "save on": f"{target}+ on D{die}",
                             **{st.title() + " (%)": pct(float(p)) for st, p in out.items()}})
            frame = pd.DataFrame(m).T
            panels.append((f"{rank.label}, Shaken (D{die})" if shaken else RANK_LABEL[rank], frame))
    return Page(
        title="Saves and damage by Successes",
        subtitle="One Grit die against 5+ / 6+ / ... / 10+ for 1 / 2 / ... / 6 Successes, no Save Modifier · "
                 "a Shaken model Shaken again is Downed · exact",
        blocks=[Chart(partial(charts.heatmap_grid, panels=panels, ncols=3, xlabel="",
                              ylabel="Successes (save needed)", colorbar_label="probability (%)",
                              good=SAVER_GOOD, subject="the model saving"),
                      title="Save and damage by Successes", data=pd.DataFrame(rows), height=5.0,
                      distributions=(Distribution(("Saved (%)", "Shaken (%)", "Downed (%)", "Casualty (%)")),)),
                Notes(["Save Modifiers add to the die's score: Tough +1, Boilerplate cancels one Success "
                       "before the save, Silver Bullets -1 against Supernatural models.",
                       "Colours: each column is shaded on its own range, bright in the rows best for the model "
                       "saving (the most Saved, the fewest Shaken, Downed and Casualty) and dark in the worst."])],
        section=SECTION)


def fight_page() -> Page:
    """The fight matrix: every attacker x defender, charging or not, with the loser's damage."""
    tab = tables.fight_table()
    panels = []
    for charging in (False, True):
        sel = tab[tab["charging"] == charging]
        m = sel.pivot(index="attacker", columns="defender", values="attacker_wins").reindex(
            index=[r.label for r in tables.RANK_ORDER], columns=[r.label for r in tables.RANK_ORDER])
        panels.append(("Attacker wins" + (", charging" if charging else ""), m))
    for charging in (False, True):  # bad for the attacker: colours reversed (the draws are in the table)
        sel = tab[tab["charging"] == charging]
        m = sel.pivot(index="attacker", columns="defender", values="defender_wins").reindex(
            index=[r.label for r in tables.RANK_ORDER], columns=[r.label for r in tables.RANK_ORDER])
        panels.append(("Defender wins" + (", charging" if charging else ""), m, charts.LOW))
    table = pd.DataFrame({
        "Attacker": tab["attacker"], "Defender": tab["defender"],
        "Charging": ["yes" if c else "no" for c in tab["charging"]],
        "Dice": [f"{a} v {d}" for a, d in zip(tab["attacker_dice"], tab["defender_dice"])],
        "Att. wins (%)": [pct(p) for p in tab["attacker_wins"]],
        "Draw (%)": [pct(p) for p in tab["draw"]],
        "Def. wins (%)": [pct(p) for p in tab["defender_wins"]],
        "Def. Downed+ (%)": [pct(a + b) for a, b in zip(tab["defender_downed"], tab["defender_casualty"])],
        "Def. Casualty (%)": [pct(p) for p in tab["defender_casualty"]],
        "Att. Downed+ (%)": [pct(a + b) for a, b in zip(tab["attacker_downed"], tab["attacker_casualty"])],
        "Att. Casualty (%)": [pct(p) for p in tab["attacker_casualty"]],
    })
    fight_sums = (Distribution(("Att. wins (%)", "Draw (%)", "Def. wins (%)")),)
    return Page(
        title="Fights",
        subtitle="Both roll 3 Grit dice (+1 die Charging); more Successes wins, equal: the single highest die "
                 "wins by 1, else a draw; the loser saves against the difference · exact",
        blocks=[Chart(partial(charts.heatmap_grid, panels=panels, ncols=4, xlabel="defender", ylabel="attacker",
                              colorbar_label="probability (%)", subject="the attacker"),
                      title="Fight matrix", data=table, height=2.4, distributions=fight_sums),
                Table(table, title="Fight results and the loser's damage (Downed+ = Downed or Casualty)",
                      distributions=fight_sums)],
        section=SECTION)


def recovery_bottle_page() -> Page:
    """Recovery Tests (stacked outcomes) and Bottle Checks (P(fights on))."""
    rec = tables.recovery_table()
    rec["bar"] = [f"{r}{', Shaken' if s else ''}{', friend in Contact' if f else ''} ({d}d)"
                  for r, s, f, d in zip(rec["rank"], rec["shaken"], rec["friend_in_contact"], rec["dice"])]
    long = rec.melt(id_vars=["bar"], value_vars=["casualty", "remains_downed", "stands_shaken"],
                    var_name="part", value_name="p")
    long["part"] = long["part"].map({"casualty": "Casualty (0 Succ.)", "remains_downed": "stays Downed (1-2)",
                                     "stands_shaken": "stands up Shaken (3+)"})
    bot = tables.bottle_table()
    bot["row"] = [f"{ro}: {rk}{', Shaken' if sh else ''} ({d}d)"
                  for ro, rk, sh, d in zip(bot["roller"], bot["rank"], bot["shaken"], bot["dice"])]
    bot["col"] = [("Nerves of Steel" if n else "no re-roll") if not p else ("NoS + Preacher" if n else "Preacher")
                  for n, p in zip(bot["nerves_of_steel"], bot["preacher"])]
    cols = ["no re-roll", "Nerves of Steel", "Preacher", "NoS + Preacher"]
    m = bot.pivot(index="row", columns="col", values="fights_on").reindex(
        index=list(dict.fromkeys(bot["row"])), columns=cols)
    return Page(
        title="Recovery Tests and Bottle Checks",
        subtitle="Recovery: 3 dice (+1 with a friend in Contact); 0 Successes Casualty, 1-2 stays Downed, "
                 "3+ stands up Shaken · Bottle Check: Boss 3 dice, stand-in 1 die, 1 Success fights on · exact",
        blocks=[Chart(partial(charts.stacked_bars, data=long, bar="bar", part="part", p="p",
                              parts_order=list(dict.fromkeys(long["part"])),
                              title="Recovery Test of a Downed model"),
                      title="Recovery Test", data=long.pivot(index="bar", columns="part", values="p")
                      .reindex(list(dict.fromkeys(long["bar"]))).map(pct).reset_index(names="model"), height=3.6,
                      distributions=(Distribution(tuple(dict.fromkeys(long["part"]))),)),
                Chart(partial(charts.heatmap_grid, panels=[("P(the posse fights on) (%)", m)],
                              xlabel="re-roll of one die", colorbar_label="P(fights on) (%)", subject="the posse"),
                      title="Bottle Check", data=m.map(pct).reset_index(names="roller"), height=3.6)],
        section=SECTION)


def shadows_pages(posse=None, *, steps=None) -> list[Page]:
    """Every Shadows reference sheet, in order, then a page per model of ``posse``."""
    builders = [("Shadows: tests", tests_page), ("Shadows: shooting", shooting_page),
                ("Shadows: shooting a Shaken target", partial(shooting_page, target_shaken=True)),
                ("Shadows: saves", saves_page), ("Shadows: fights", fight_page),
                ("Shadows: recovery and bottle", recovery_bottle_page), ("Shadows: advance", advance_page)]
    if posse is not None:
        builders += [(f"posse: {model.name}", partial(model_page, posse, model)) for model in posse.models]
    return build_pages(builders, steps)


# ---------------------------------------------------------------------------- posse models

BANDS = ("short", "medium", "long")


def _skill_names(model) -> list[str]:
    return [s.name for s in model.all_skills]


def _alone(posse, model):
    """The posse with only ``model``: the posse tables then hold that model's rows only."""
    return dataclasses.replace(posse, models=(model,))


def model_shooting(posse, model) -> pd.DataFrame:
    """Every shootable weapon of the model x range band x target Rank (exact), as `oddsmith shadows posse` gives it."""
    return posse_mod.shooting_table(_alone(posse, model), range_bands=BANDS)


def model_fights(posse, model) -> pd.DataFrame:
    """The model attacking each Rank, charging or not, in its own form (as `oddsmith shadows posse` gives it)."""
    fights = posse_mod.fight_table(_alone(posse, model))
    return fights[fights["form"] == ""].reset_index(drop=True)


def model_page(posse, model) -> Page:
    """One posse model: its weapons' odds by range band against each target Rank, and its fights."""
    shoot = model_shooting(posse, model)
    blocks: list = []
    unshootable = [f"{w.name} ({posse_mod.shootable(w)})" for w in model.weapons if posse_mod.shootable(w)]
    if len(shoot):
        shoot["row"] = [f"{w}, {b}" for w, b in zip(shoot["weapon"], shoot["range_band"])]
        rows = list(dict.fromkeys(shoot["row"]))
        down = "downed_or_worse"
        shoot[down] = shoot["downed"] + shoot["casualty"]
        action = "action_downed" in shoot.columns
        panels = []
        for col, title in (("hit", "Hit"), ("hurt", "Shaken or worse"), (down, "Downed or Casualty")):
            m = shoot.pivot(index="row", columns="target", values=col).reindex(
                index=rows, columns=[r.label for r in tables.RANK_ORDER])
            panels.append((f"{title} (one shot)", m))
        data = pd.DataFrame({
            "Weapon": shoot["weapon"], "Range": shoot["range_band"], "Target": shoot["target"],
            "Dice": shoot["dice"], "Save mod.": shoot["save_modifier"],
            "Hit (%)": shoot["hit"].map(pct), "Shaken (%)": shoot["shaken"].map(pct),
            "Downed (%)": shoot["downed"].map(pct), "Casualty (%)": shoot["casualty"].map(pct),
            "Jams (%)": shoot["jammed"].map(pct),
        })
        if action:
            both = shoot["action_downed"].fillna(0) + shoot["action_casualty"].fillna(0)
            data["Action: Downed+ (%)"] = [pct(v) if a == a else "" for v, a in zip(both, shoot["action_downed"])]
        blocks.append(Chart(partial(charts.heatmap_grid, panels=panels, xlabel="target", ylabel="weapon, range band",
                                    colorbar_label="probability (%)", subject=model.name),
                            title=f"{model.name}: shooting", data=data, height=0.9 + 0.22 * len(rows)))
        blocks.append(Table(data, title="Shooting in detail (target not Shaken, no cover; one Shooting Attack"
                                        + ("; Action: every shot of the Shoot Action" if action else "") + ")"))
    fights = model_fights(posse, model)
    ft = pd.DataFrame({
        "Defender": fights["defender"], "Charging": ["yes" if c else "no" for c in fights["charging"]],
        "Dice": [f"{a} v {d}" for a, d in zip(fights["attacker_dice"], fights["defender_dice"])],
        "Wins (%)": fights["attacker_wins"].map(pct), "Draw (%)": fights["draw"].map(pct),
        "Loses (%)": fights["defender_wins"].map(pct),
        "Puts it Downed+ (%)": (fights["defender_downed"] + fights["defender_casualty"]).map(pct),
        "Is Downed+ (%)": (fights["attacker_downed"] + fights["attacker_casualty"]).map(pct),
    })
    blocks.append(Table(ft, title=f"{model.name} attacking in a Fight, against each Rank",
                        distributions=(Distribution(("Wins (%)", "Draw (%)", "Loses (%)")),)))
    notes = [f"{model.rank.label} ({RANK_LABEL[model.rank].split()[-1].strip('()')}); weapons: "
             + (", ".join(w.name for w in model.weapons) or "none")
             + "; skills: " + (", ".join(_skill_names(model)) or "none")
             + (f"; gear: {', '.join(g.name for g in model.gear)}" if model.gear else "")]
    if unshootable:
        notes.append("Not tabled: " + "; ".join(unshootable))
    blocks.insert(0, Notes(notes))
    return Page(title=f"Posse {posse.name}: {model.name}",
                subtitle=f"{model.rank.label}" + (" · Boss" if model.boss else "")
                         + " · shooting at Short / Medium / Long range, no cover, target not Shaken · exact",
                blocks=blocks, section=f"Posse {posse.name}")
