"""Shadows of the West dice: one Shooting Attack, a Fight, a Recovery Test, a Bottle Check and
the campaign's Advancement roll, every figure exact (``oddsmith shadows shoot|fight|recover|
bottle`` and :mod:`oddsmith.shadows.campaign`; rulebook "Shooting", "Fighting", "The Recovery
Phase", "Advancement")."""
from __future__ import annotations

from dataclasses import dataclass

from oddsmith.web import render as H
from oddsmith.web.forms import BadInput, Query

PATH = "/shadows/dice"
TITLE = "Shadows of the West: dice odds"
SIMULATED = False
SUMMARY = ("exact odds of a Shooting Attack, a Fight, a Recovery Test, a Bottle Check, the Advancement "
           "and Injury rolls")

TOOLS = ("shoot", "fight", "recover", "bottle", "advance", "injury")
TOOL_NAMES = {"shoot": "Shooting Attack", "fight": "Fight", "recover": "Recovery Test", "bottle": "Bottle Check",
              "advance": "Advancement roll", "injury": "Injury roll"}
CAUSES = ("casualty", "downed")
RANKS = ("Novice", "Veteran", "Hero")
RANGES = ("short", "medium", "long")


def _weapons() -> tuple[str, ...]:
    from oddsmith.rules import shadows as R

    return tuple(w.name for w in R.WEAPONS.values() if w.name != "Woodsman's Axe")


@dataclass(frozen=True)
class Question:
    tool: str
    shooter: str
    target: str
    weapon: str
    range_band: str
    cover: bool
    skills: tuple[str, ...]
    target_skills: tuple[str, ...]
    shaken: bool
    charging: bool
    friend: bool
    preacher: bool
    exp: int
    cause: str = "casualty"


def _skills(text: str | None) -> tuple[str, ...]:
    return tuple(s.strip() for s in (text or "").replace(";", ",").split(",") if s.strip())


def question(q: Query) -> Question:
    return Question(
        tool=q.choice("tool", TOOLS, "shoot"),
        shooter=q.choice("shooter", RANKS, "Veteran"), target=q.choice("target", RANKS, "Novice"),
        weapon=q.choice("weapon", _weapons(), "Carbine"), range_band=q.choice("range", RANGES, "medium"),
        cover=q.flag("cover"), skills=_skills(q.text("skills")), target_skills=_skills(q.text("target_skills")),
        shaken=q.flag("shaken"), charging=q.flag("charging"), friend=q.flag("friend"), preacher=q.flag("preacher"),
        exp=q.integer("exp", 2, 0, 30), cause=q.choice("cause", CAUSES, "casualty"))


def params(x: Question) -> dict[str, str]:
    out = {"tool": x.tool, "shooter": x.shooter, "target": x.target, "weapon": x.weapon, "range": x.range_band,
           "skills": ", ".join(x.skills), "target_skills": ", ".join(x.target_skills), "exp": str(x.exp),
           "cause": x.cause}
    out.update({k: "1" for k in ("cover", "shaken", "charging", "friend", "preacher") if getattr(x, k)})
    return out


@dataclass(frozen=True)
class Answer:
    question: Question
    heading: str
    figures: tuple[tuple[str, str, float, None], ...]
    table: list  # one dict per outcome: outcome, probability, exact fraction
    modifiers: tuple


def _odds_table(odds) -> list[dict]:
    """Every outcome with its probability and exact fraction (rows as dicts: the report's Table takes a frame)."""
    return [{"outcome": k, "probability": f"{v:.6f}", "exact": str(odds.fractions[k]) if odds.fractions else ""}
            for k, v in odds.outcomes.items()]


def _engine_error(exc: Exception) -> BadInput:
    return BadInput(str(exc), "skills")


def answer(x: Question) -> Answer:
    import oddsmith.shadows as S
    from oddsmith.errors import OddsmithError
    from oddsmith.shadows import campaign as C

    try:
        if x.tool == "shoot":
            o = S.shoot(S.Shooter.of(x.shooter.lower(), skills=list(x.skills)),
                        S.Target.of(x.target.lower(), skills=list(x.target_skills), shaken=x.shaken),
                        x.weapon, range_band=x.range_band, cover=x.cover)
            p = o.outcomes
            figs = (("hit", "P(hit)", 1 - p["miss"], None), ("shaken", "P(Shaken)", p["shaken"], None),
                    ("downed", "P(Downed)", p["downed"], None), ("casualty", "P(Casualty)", p["casualty"], None))
            head = (f"{x.shooter} shoots a {x.target}{' (Shaken)' if x.shaken else ''} with a {x.weapon} at "
                    f"{x.range_band} range{', in Cover' if x.cover else ''}")
            return Answer(x, head, figs, _odds_table(o), tuple(o.modifiers))
        if x.tool == "fight":
            o = S.fight(S.Fighter.of(x.shooter.lower(), skills=list(x.skills)),
                        S.Fighter.of(x.target.lower(), skills=list(x.target_skills), shaken=x.shaken),
                        charging=x.charging)
            p = o.outcomes
            figs = (("attacker_wins", "P(attacker wins)", p["attacker_wins"], None),
                    ("draw", "P(draw)", p["draw"], None), ("defender_wins", "P(defender wins)", p["defender_wins"], None),
                    ("defender_casualty", "P(defender a Casualty)", p["defender_casualty"], None))
            head = f"{x.shooter} fights a {x.target}{' (charging)' if x.charging else ''}"
            return Answer(x, head, figs, _odds_table(o), tuple(o.modifiers))
        if x.tool == "recover":
            o = S.recovery(x.shooter.lower(), shaken=x.shaken, friend_in_contact=x.friend, skills=list(x.skills))
            p = o.outcomes
            figs = (("stands_shaken", "P(stands up Shaken)", p["stands_shaken"], None),
                    ("remains_downed", "P(remains Downed)", p["remains_downed"], None),
                    ("casualty", "P(Casualty)", p["casualty"], None))
            return Answer(x, f"A Downed {x.shooter} rolls its Recovery Test", figs, _odds_table(o), tuple(o.modifiers))
        if x.tool == "bottle":
            o = S.bottle_check(x.shooter.lower(), shaken=x.shaken, skills=list(x.skills), preacher=x.preacher)
            p = o.outcomes
            figs = (("fights_on", "P(fights on)", p["fights_on"], None),
                    ("bottles_out", "P(Bottles Out)", p["bottles_out"], None))
            return Answer(x, f"A {x.shooter} Boss rolls the Bottle Check", figs, _odds_table(o), tuple(o.modifiers))
        if x.tool == "injury":
            dist = C.injury_distribution(x.shooter.lower(), x.cause)
            figs = (("full_recovery", "P(full recovery)", float(dist["full_recovery"]), None),
                    ("dead", "P(dead)", float(dist["dead"]), None),
                    ("survives", "P(survives)", float(1 - dist["dead"]), None))
            rows = [{"outcome": k, "probability": f"{float(v):.6f}", "exact": str(v)} for k, v in dist.items()]
            return Answer(x, f"A {x.shooter} that ended the game {'a Casualty' if x.cause == 'casualty' else 'Downed'} "
                             "rolls for Injury", figs, rows, ())
        chance = C.advance_chance(x.shooter.lower(), x.exp)
        table = C.advance_table([x.shooter.lower()], exp=[x.exp])
        games = C.expected_games_to_advance(x.shooter.lower(), x.exp)
        figs = (("p_advance", "P(advance after this game)", float(chance), None),
                ("expected_games", "games to advance (expected)", float(games), None))
        return Answer(x, f"A {x.shooter} with {x.exp} Experience rolls for Advancement", figs,
                      [{"figure": c, "value": str(v)} for c, v in zip(table.columns, table.iloc[0])], ())
    except OddsmithError as exc:
        raise _engine_error(exc) from None


def _select(name: str, options, value: str, label: str) -> str:
    opts = "".join(f'<option{" selected" if o == value else ""}>{H.esc(o)}</option>' for o in options)
    return f'<label>{H.esc(label)} <select name="{name}">{opts}</select></label>'


def _check(name: str, value: bool, label: str) -> str:
    return f'<label class="check"><input type="checkbox" name="{name}" value="1"{" checked" if value else ""}> {H.esc(label)}</label>'


def form(x: Question | None, q: Query) -> str:
    if x is None:
        x = question(Query({"tool": q.params.get("tool", "shoot")})) if q.params.get("tool") in TOOLS else \
            question(Query({}))
    tabs = "".join(f'<label class="tab"><input type="radio" name="tool" value="{t}"{" checked" if t == x.tool else ""}>'
                   f" {H.esc(TOOL_NAMES[t])}</label>" for t in TOOLS)
    return f"""<form method="get" action="{PATH}" class="question" id="question">
<fieldset class="tabs"><legend>What to roll</legend>{tabs}</fieldset>
{_select("shooter", RANKS, x.shooter, "Model (shooter, attacker, the one rolling)")}
{_select("target", RANKS, x.target, "Target or defender")}
{_select("weapon", _weapons(), x.weapon, "Weapon")}
{_select("range", RANGES, x.range_band, "Range band")}
<label>Skills of the model <input name="skills" value="{H.esc(', '.join(x.skills))}" placeholder="Deadeye, Gunslinger"></label>
<label>Skills of the target <input name="target_skills" value="{H.esc(', '.join(x.target_skills))}" placeholder="Tough"></label>
<label>Experience (Advancement) <input name="exp" type="number" min="0" max="30" value="{x.exp}"></label>
{_select("cause", CAUSES, x.cause, "Injury: how the game ended for the model")}
<div class="checks">{_check("cover", x.cover, "target in Cover")}{_check("shaken", x.shaken, "Shaken")}
{_check("charging", x.charging, "charging (Fight)")}{_check("friend", x.friend, "friend in Contact (Recovery)")}
{_check("preacher", x.preacher, "Preacher (Bottle Check)")}</div>
<button type="submit">Roll the odds</button>
<p class="hint">Every figure here is exact (every roll of the dice counted). Shaken applies to the target when
shooting or fighting, to the model rolling otherwise.</p>
</form>"""


def answer_html(a: Answer) -> str:
    mods = ""
    if a.modifiers:
        mods = "<p>Modifiers: " + H.esc(", ".join(f"{n} {v:+d}" for n, v in a.modifiers)) + "</p>"
    return (f"<h2>{H.esc(TOOL_NAMES[a.question.tool])}: {H.esc(a.heading)}</h2>"
            + H.figures(a.figures) + mods + H.table(a.table, "Every outcome (exact)"))


def pages(a: Answer) -> list:
    import pandas as pd

    from oddsmith.report.document import Notes, Page, Table

    lines = [f"{label}: {value:.6f} (exact)" for _, label, value, _ in a.figures]
    lines += [f"Modifier: {n} {v:+d}" for n, v in a.modifiers]
    return [Page(title=f"{TOOL_NAMES[a.question.tool]}: {a.heading}", subtitle="exact odds · oddsmith serve",
                 blocks=[Notes(lines, title="The answer"), Table(pd.DataFrame(a.table), title="Every outcome (exact)")])]
