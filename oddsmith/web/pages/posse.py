"""Shadows of the West posse and battle: a pasted posse (TOML) or a sample, checked against the
posse-building rules, its roster, costs and shooting odds (exact), a battle against another
posse and what each $ buys (simulated; rulebook "Posse Creation", "Shooting"; ``oddsmith shadows
posse``, ``battle`` and ``value``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from oddsmith.web import render as H
from oddsmith.web.forms import BadInput, Query
from oddsmith.web.pages import common as C

PATH = "/shadows/posse"
TITLE = "Shadows of the West: posse and battle"
SIMULATED = True
SUMMARY = ("paste a posse (TOML) or pick a sample: its rules check, roster, costs and shooting odds, a "
           "battle against another posse, and what each $ buys")
MAX_TRIALS = 200_000
DEFAULT_TRIALS = 10_000
MAX_VALUE_TRIALS = 10_000
DEFAULT_VALUE_TRIALS = 1_000
TARGETS = ("most-dangerous", "weakest", "boss", "closest")
MOVEMENTS = ("table", "none")
"""As battle.MOVEMENT_MODES: the book's table (Moves, Charges, Fights) or the fixed-range firefight."""
PLANS = ("balanced", "gunline", "brawl")
"""As battle.PLANS, the default first."""
TERRAIN_HINT = "open, light, dense, or the chance of Cover from 0 to 1"
ACTIVATIONS = ("auto", "dual", "solo")
EVENTS = ("unexpected", "supernatural", "none")
"""As battle.EVENT_TABLES: the Unexpected Events, the Supernatural Events (Dracula's America), or none."""
TOP = 14


@dataclass(frozen=True)
class Question:
    sample: str
    paste: str | None
    vs: str
    vs_paste: str | None
    movement: str
    terrain: str
    plan: str
    vs_plan: str
    range_: str
    cover: bool
    vs_cover: bool
    turns: int
    targets: str
    activation: str
    trials: int
    value_trials: int
    events: str
    seed: int | None
    posse: object = field(compare=False, repr=False, default=None)
    vs_posse: object = field(compare=False, repr=False, default=None)
    options: object = field(compare=False, repr=False, default=None)


def _samples() -> list[str]:
    from oddsmith.shadows import posse as P

    return P.sample_posse_names()


def _load(q: Query, name: str, paste_name: str, default: str, what: str):
    """(posse, pasted text, sample name): a pasted TOML posse, else a sample; every broken rule in the message."""
    from oddsmith.errors import OddsmithError
    from oddsmith.shadows import posse as P

    pasted = q.paste(paste_name)
    try:
        if pasted:
            from oddsmith.textinput import decode_text

            text = decode_text(pasted.encode("utf-8", "replace"), f"pasted {what}", "posse file")
            posse = P.posse_from_dict(P.parse_toml(text, f"pasted {what}"), f"pasted {what}")
            problems = P.validate(posse)
            if problems:
                raise BadInput("\n".join(str(v) for v in problems), paste_name)
            return posse, pasted, ""
        sample = q.choice(name, _samples(), default)
        return P.sample_posse(sample), None, sample
    except BadInput:
        raise
    except OddsmithError as exc:
        raise BadInput(str(exc), paste_name) from None


def question(q: Query) -> Question:
    from oddsmith.errors import OddsmithError
    from oddsmith.shadows import battle as B

    posse, pasted, sample = _load(q, "posse", "paste", "unaligned", "posse")
    vs_posse, vs_pasted, vs_sample = _load(q, "vs", "vs_paste", "twilight-order", "opponent")
    movement = q.choice("movement", MOVEMENTS, "table")
    terrain = q.text("terrain", "open", limit=20)
    plan, vs_plan = q.choice("plan", PLANS, "balanced"), q.choice("vs_plan", PLANS, "balanced")
    range_ = q.text("range", "", limit=20)
    turns = q.integer("turns", 8, 1, 8)
    targets, activation = q.choice("targets", TARGETS, "most-dangerous"), q.choice("activation", ACTIVATIONS, "auto")
    cover, vs_cover = q.flag("cover"), q.flag("vs_cover")
    events = q.choice("events", EVENTS, "unexpected")
    if movement == "table":  # the fixed range and Cover belong to the firefight; on the table moves and terrain decide
        if range_:
            raise BadInput("range: a fixed range applies to movement none only; on the table the range comes from "
                           "the players' moves (leave it empty, or choose movement none)", "range")
        if cover or vs_cover:
            raise BadInput("cover: Cover ticked for a side applies to movement none only; on the table the terrain "
                           "decides Cover, shot by shot (untick it, or choose movement none)", "cover")
    try:
        terrain_value = B.parse_terrain(terrain)
    except OddsmithError as exc:
        raise BadInput(str(exc), "terrain") from None
    try:
        options = B.battle_options(range_ or B.DEFAULT_RANGE, cover=cover, vs_cover=vs_cover, turns=turns,
                                   targets=targets, activation=activation, movement=movement, terrain=terrain_value,
                                   plan=plan, vs_plan=vs_plan, events=events)
    except OddsmithError as exc:
        raise BadInput(str(exc), "range") from None
    return Question(sample, pasted, vs_sample, vs_pasted, movement, terrain, plan, vs_plan, range_, cover, vs_cover,
                    turns, targets, activation,
                    q.integer("trials", DEFAULT_TRIALS, 1, MAX_TRIALS),
                    q.integer("value_trials", DEFAULT_VALUE_TRIALS, 0, MAX_VALUE_TRIALS), events, q.seed(),
                    posse, vs_posse, options)


def params(x: Question) -> dict[str, str]:
    out = {"posse": x.sample, "paste": x.paste or "", "vs": x.vs, "vs_paste": x.vs_paste or "",
           "movement": x.movement, "terrain": x.terrain, "plan": x.plan, "vs_plan": x.vs_plan, "range": x.range_,
           "turns": str(x.turns), "targets": x.targets, "activation": x.activation, "trials": str(x.trials),
           "value_trials": str(x.value_trials), "events": x.events}
    out.update({k: "1" for k in ("cover", "vs_cover") if getattr(x, k)})
    if x.seed is not None:
        out["seed"] = str(x.seed)
    return out


@dataclass(frozen=True)
class Answer:
    question: Question
    roster: object
    costs: object
    total_cost: int
    shooting: object
    battle: object  # oddsmith.shadows.battle.BattleResult
    value: object  # oddsmith.shadows.value.ValueResult, or None


def answer(x: Question) -> Answer:
    from oddsmith.shadows import battle as B
    from oddsmith.shadows import posse as P
    from oddsmith.shadows import value as V

    p = x.posse
    b = B.battle(p, x.vs_posse, x.options, trials=x.trials, seed=x.seed)
    v = V.value(p, x.vs_posse, x.options, trials=x.value_trials, seed=x.seed) if x.value_trials else None
    return Answer(x, P.roster_table(p), P.cost_table(p), P.total_cost(p), P.shooting_table(p), b, v)


FORMAT_HELP = """<details class="format"><summary>The posse file format (TOML)</summary>
<p>A <code>[posse]</code> table (<code>name</code>, <code>method</code> = "advanced" or "basic",
<code>dollar_limit</code>, optionally <code>faction</code>), then one <code>[[model]]</code> table per model:
<code>name</code>, <code>rank</code> (Novice, Veteran, Hero), <code>weapons</code>, and optionally
<code>skills</code>, <code>gear</code>, <code>horse</code>. The first model is the Boss. The posse is checked
against the posse-building rules; every broken rule is listed.</p></details>"""


def form(x: Question | None, q: Query) -> str:
    from oddsmith.shadows import posse as P

    _, template = P.sample_posse_text(None)
    sample = x.sample if x else (q.params.get("posse") or ("" if q.params.get("paste") else "unaligned"))
    vs = x.vs if x else (q.params.get("vs") or ("" if q.params.get("vs_paste") else "twilight-order"))
    return f"""<form method="get" action="{PATH}" class="question" id="question">
{C.select("posse", _samples(), sample, "Sample posse", blank="(the pasted posse below)")}
{C.textarea("paste", x.paste if x else q.params.get("paste", "")[:20_000], "Or paste a posse (TOML; wins over the sample)")}
<p><button type="button" data-template-target="paste" data-template-source="posse-template">Start from the template</button></p>
{FORMAT_HELP}
<pre id="posse-template" hidden>{H.esc(template)}</pre>
{C.select("vs", _samples(), vs, "Opposing posse", blank="(the pasted posse below)")}
{C.textarea("vs_paste", x.vs_paste if x else q.params.get("vs_paste", "")[:20_000], "Or paste the opposing posse")}
{C.select("movement", MOVEMENTS, x.movement if x else "table",
          "Movement: table (the book's 3' x 3' table: Moves, Charges, Fights) or none (one fixed range)")}
{C.text("terrain", x.terrain if x else "open", "Terrain on the table: how often a Line of Fire is in Cover",
        TERRAIN_HINT)}
{C.select("plan", PLANS, x.plan if x else "balanced", "The posse's plan (gunline: shoot from range; brawl: Charge)")}
{C.select("vs_plan", PLANS, x.vs_plan if x else "balanced", "The opponent's plan")}
{C.text("range", x.range_ if x else "", "Movement none only: range in inches, or short, medium, long (empty: 10)")}
<div class="checks">{C.check("cover", bool(x and x.cover), "movement none only: the posse in Cover")}
{C.check("vs_cover", bool(x and x.vs_cover), "movement none only: the opponent in Cover")}</div>
{C.number("turns", x.turns if x else 8, "Game Turns (at most 8)", 1, 8)}
{C.select("targets", TARGETS, x.targets if x else "most-dangerous", "Who each shot goes at")}
{C.select("activation", ACTIVATIONS, x.activation if x else "auto", "Solo or Dual Activations")}
{C.select("events", EVENTS, x.events if x else "unexpected",
          "Events table on identical cards (supernatural: the Dracula's America table)")}
{C.number("value_trials", x.value_trials if x else DEFAULT_VALUE_TRIALS,
          f"Battles per purchase for 'what each $ buys' (0: skip; at most {MAX_VALUE_TRIALS:,})", 0, MAX_VALUE_TRIALS)}
{C.sampling_fields(x.trials if x else q.params.get("trials", DEFAULT_TRIALS), x.seed if x else q.params.get("seed"), MAX_TRIALS)}
<button type="submit">Check the posse and fight</button>
<p class="hint">The posse's tables are exact; battles are simulated and carry ± one standard error.</p>
</form>"""


BATTLE_LABELS = {"p_a_wins": "P(the posse wins)", "p_b_wins": "P(the opponent wins)", "p_draw": "P(draw)",
                 "p_a_bottles": "P(the posse Bottles Out)", "turns_mean": "Game Turns (mean)",
                 "casualties_b": "enemy Casualties (mean)"}
TABLE_LABELS = {"fights_mean": "Fights per battle (mean)",
                "p_b_fight_casualties": "enemy Casualties from Fights (mean)",
                "p_a_fight_casualties": "the posse's Casualties from Fights (mean)"}
"""Headline figures of the table battle only (with movement none they are 0)."""


def _battle_words(x: Question) -> str:
    """Which battle was played, for the subtitles: the table with its terrain and plans, or the fixed range."""
    from oddsmith.shadows import battle as B

    o = x.options
    events = f"; {B.EVENT_TABLE_WORDS[o.events]}" if B.EVENT_TABLE_WORDS[o.events] else ""
    if o.movement == "none":
        return f"movement none: {o.distance.label} apart, no Moves or Fights{events}"
    return (f"on the table (36\" x 36\", Showdown), terrain {x.terrain}; plans: the posse {o.plan_a}, "
            f"the opponent {o.plan_b}{events}")


def _summary_view(r):
    import pandas as pd

    return pd.DataFrame({"figure": r.summary["figure"],
                         "value ± se": [H.pm(v, e) for v, e in zip(r.summary["value"].tolist(),
                                                                   r.summary["stderr"].tolist())]})


def _models_view(r):
    import pandas as pd

    m = r.models
    out = pd.DataFrame({"side": m["side"], "model": m["model"], "rank": m["rank"],
                        "P(Casualty) ± se": [H.pm(v, e) for v, e in zip(m["p_casualty"], m["p_casualty_stderr"])],
                        "P(Downed at the end) ± se": [H.pm(v, e) for v, e in zip(m["p_downed_at_end"],
                                                                                 m["p_downed_at_end_stderr"])]})
    if "p_fought" in m.columns:
        out["P(in a Fight) ± se"] = [H.pm(v, e) for v, e in zip(m["p_fought"], m["p_fought_stderr"])]
    return out


def _value_page(a: Answer):
    from functools import partial

    import pandas as pd

    from oddsmith.report.battle_page import value_bars
    from oddsmith.report.document import Chart, Page, Sampling

    res = a.value
    top = res.table.head(TOP).reset_index(drop=True)
    view = pd.DataFrame({"model": top["model"], "buys": top["item"], "$": top["cost"],
                         "ΔP(win)": [f"{100 * v:+.1f} ± {100 * e:.1f} pp" for v, e in
                                     zip(top["d_p_win"], top["d_p_win_stderr"])],
                         "per $": [f"{100 * v:+.2f} pp" for v in top["d_p_win_per_dollar"]],
                         "over $ limit": ["yes" if o else "" for o in top["over_limit"]]})
    sampling = Sampling(a.question.value_trials, float(res.table["d_p_win_stderr"].max()) if len(res.table) else 0.0)
    return Page(title=f"What each $ buys: {a.question.posse.name} against {a.question.vs_posse.name}",
                subtitle=f"the values hold for {res.battle_words}; every purchase replayed on the same "
                         f"{a.question.value_trials:,} battles (common random numbers), seed {a.question.seed}; "
                         f"± one paired standard error",
                blocks=[Chart(partial(value_bars, data=top, title=f"Best {len(top)} purchases by ΔP(win) per $"),
                              title="ΔP(win) per $", data=view, height=1.0 + 0.22 * max(len(top), 1),
                              sampling=sampling)])


def pages(a: Answer) -> list:
    from oddsmith.report.document import Notes, Page, Sampling, Table

    r = a.battle
    samp = Sampling(r.trials, float(r.summary["stderr"].max()))
    out = [Page(title=f"Posse: {a.question.posse.name}", subtitle=f"${a.total_cost} · exact tables",
                blocks=[Table(a.roster, title="Roster"), Table(a.costs, title="Costs")]),
           Page(title=f"Battle: {a.question.posse.name} (A) against {a.question.vs_posse.name} (B)",
                subtitle=f"{_battle_words(a.question)}; {r.trials:,} battles, seed {r.seed}",
                blocks=[Table(_summary_view(r), title="Outcome (± one standard error)", sampling=samp),
                        Table(_models_view(r), title="Models", sampling=samp),
                        Notes(list(r.notes) or ["No notes."], title="Notes")])]
    if a.value is not None and len(a.value.table):
        out.append(_value_page(a))
    return out


def answer_html(a: Answer) -> str:
    r = a.battle
    x = a.question
    s = r.summary.set_index("figure")
    labels = dict(BATTLE_LABELS, **(TABLE_LABELS if x.options.movement != "none" else {}))
    head = H.figures([(f, label, float(s.loc[f, "value"]), float(s.loc[f, "stderr"])) for f, label in labels.items()
                      if f in s.index])
    shoot = a.shooting.copy()
    shoot = shoot[[c for c in ("model", "weapon", "range_band", "target", "hit", "shaken", "downed", "casualty")
                   if c in shoot.columns]]
    parts = [f"<h2>{H.esc(x.posse.name)}: ${a.total_cost}, {len(x.posse.models)} models</h2>",
             "<p>The posse follows the posse-building rules.</p>",
             H.table(a.roster, "Roster"),
             f"<details><summary>Costs, item by item (total ${a.total_cost})</summary>" + H.table(a.costs) + "</details>",
             "<details><summary>Shooting odds of every model and Weapon (exact)</summary>"
             + H.table(shoot) + "</details>",
             f"<h2>Battle against {H.esc(x.vs_posse.name)}</h2>",
             f'<p class="subtitle">{H.esc(_battle_words(x))}; {r.trials:,} battles, seed {r.seed}</p>',
             head, H.table(_summary_view(r), "Every figure (± one standard error)"),
             H.table(_models_view(r), "Models"), H.table(r.activation, "Turn 1 exactly, by card counting")]
    if r.notes:
        parts.append(H.notes(list(r.notes), "Notes"))
    if a.value is not None:
        if len(a.value.table):
            parts.append(H.page_html(_value_page(a)))
        else:
            parts.append("<p>No purchase could be valued for this posse.</p>")
    return "".join(parts)
