"""Doomtown shootout: two decks and two posses played in whole shootouts, round after round,
with each side's shooter, casualty and flee policies; P(win), rounds, each dude's fate and
"what is +1 worth?" (rulebook "Shootouts"; ``oddsmith shootout --full`` and ``--what-if``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from oddsmith.web import render as H
from oddsmith.web.forms import BadInput, Query
from oddsmith.web.pages import common as C

PATH = "/doomtown/shootout"
TITLE = "Doomtown: whole shootouts"
SIMULATED = True
SUMMARY = ("two decks and two posses in whole shootouts: P(win), rounds, each dude's fate, "
           "and what is +1 worth")
MAX_TRIALS = 500_000
DEFAULT_TRIALS = 20_000
MAX_WHAT_IF_TRIALS = 50_000
DEFAULT_WHAT_IF_TRIALS = 10_000
SHOOTER_POLICIES = ("best", "automaton", "listed")
CASUALTY_POLICIES = ("keep-posse", "save-dudes", "automaton")
DEFAULT_POSSE, DEFAULT_VS_POSSE = "Philip Swinford; Tommy Harden", "Allie Hensman; Ike Clanton"


@dataclass(frozen=True)
class SideQuestion:
    sample: str
    paste: str | None
    posse: str
    shooter: str
    casualties: str
    flee: str
    deck: object = field(compare=False, repr=False, default=None)


@dataclass(frozen=True)
class Question:
    a: SideQuestion
    b: SideQuestion
    automaton: bool
    with_gang: bool
    trials: int
    what_if_trials: int
    seed: int | None
    sides: tuple = field(compare=False, repr=False, default=())


def _side(q: Query, prefix: str, default_deck: str, default_posse: str, what: str) -> SideQuestion:
    from oddsmith.doomtown import full_shootout as F
    from oddsmith.doomtown.posse import parse_posse
    from oddsmith.errors import OddsmithError

    p = prefix
    if not q.params.get(f"{p}deck") and not q.params.get(f"{p}paste"):
        q = Query({**q.params, f"{p}deck": default_deck})
    try:
        deck, pasted, sample = C.load_deck_input(q, f"{p}deck", f"{p}paste", with_gang=q.flag("with_gang"),
                                                 partial=False, what=what)
    except OddsmithError as exc:
        raise C.deck_error(exc, f"{p}paste") from None
    posse_text = q.text(f"{p}posse", default_posse)
    shooter = q.choice(f"{p}shooter", SHOOTER_POLICIES, "best")
    casualties = q.choice(f"{p}casualties", CASUALTY_POLICIES, "keep-posse")
    flee = q.text(f"{p}flee", "never", limit=20)
    try:
        posse = parse_posse(posse_text, source=f"{what} posse")
        side = F.FullSide(deck, posse, shooter=shooter, casualties=casualties, flee=flee)
        side.checked()
    except OddsmithError as exc:
        raise BadInput(str(exc), f"{p}posse") from None
    return SideQuestion(sample, pasted, posse_text, shooter, casualties, flee, deck), side


def question(q: Query) -> Question:
    from dataclasses import replace

    a, side_a = _side(q, "", "law-dogs", DEFAULT_POSSE, "A's deck")
    b, side_b = _side(q, "vs_", "outlaws", DEFAULT_VS_POSSE, "B's deck")
    automaton = q.flag("automaton")
    if automaton:
        side_b = replace(side_b, automaton=True)
    return Question(a, b, automaton, q.flag("with_gang"), q.integer("trials", DEFAULT_TRIALS, 1, MAX_TRIALS),
                    q.integer("what_if_trials", DEFAULT_WHAT_IF_TRIALS, 0, MAX_WHAT_IF_TRIALS), q.seed(),
                    (side_a, side_b))


def params(x: Question) -> dict[str, str]:
    out: dict[str, str] = {}
    for p, s in (("", x.a), ("vs_", x.b)):
        out.update({f"{p}deck": s.sample, f"{p}paste": s.paste or "", f"{p}posse": s.posse, f"{p}shooter": s.shooter,
                    f"{p}casualties": s.casualties, f"{p}flee": s.flee})
    out.update({"trials": str(x.trials), "what_if_trials": str(x.what_if_trials)})
    out.update({k: "1" for k in ("automaton", "with_gang") if getattr(x, k)})
    if x.seed is not None:
        out["seed"] = str(x.seed)
    return out


@dataclass(frozen=True)
class Answer:
    question: Question
    result: object  # oddsmith.doomtown.full_shootout.FullShootout
    what_if: object  # DataFrame of full_shootout.what_if, or None


def answer(x: Question) -> Answer:
    from oddsmith.doomtown import full_shootout as F

    a, b = x.sides
    r = F.full_shootout(a, b, trials=x.trials, seed=x.seed)
    w = F.what_if(a, b, trials=x.what_if_trials, seed=x.seed) if x.what_if_trials else None
    return Answer(x, r, w)


def _side_form(s: SideQuestion | None, q: Query, p: str, who: str, default_deck: str, default_posse: str) -> str:
    from oddsmith.doomtown.deck import sample_names

    sample = s.sample if s else (q.params.get(f"{p}deck") or ("" if q.params.get(f"{p}paste") else default_deck))
    return f"""<fieldset><legend>{H.esc(who)}</legend>
{C.select(f"{p}deck", sample_names(), sample, "Sample deck", blank="(the pasted list below)")}
{C.textarea(f"{p}paste", s.paste if s else q.params.get(f"{p}paste", "")[:20_000], "Or paste a deck list")}
{C.text(f"{p}posse", s.posse if s else q.params.get(f"{p}posse", default_posse)[:400],
        "Posse: card titles, stud:N, draw:N, Name=stud:N, '*' after the shooter, [flags], + Sidekicks; ';' between",
        default_posse)}
{C.select(f"{p}shooter", SHOOTER_POLICIES, s.shooter if s else "best", "Shooter policy")}
{C.select(f"{p}casualties", CASUALTY_POLICIES, s.casualties if s else "keep-posse", "Casualty policy")}
{C.text(f"{p}flee", s.flee if s else "never", "Flee: never, outnumbered or losses:K")}
</fieldset>"""


def form(x: Question | None, q: Query) -> str:
    return f"""<form method="get" action="{PATH}" class="question" id="question">
{_side_form(x.a if x else None, q, "", "Side A (the leader)", "law-dogs", DEFAULT_POSSE)}
{_side_form(x.b if x else None, q, "vs_", "Side B (the mark)", "outlaws", DEFAULT_VS_POSSE)}
<div class="checks">{C.check("automaton", bool(x and x.automaton), "B plays the Automaton Variant")}
{C.check("with_gang", bool(x and x.with_gang), "keep the starting gangs in the draw decks")}</div>
{C.number("what_if_trials", x.what_if_trials if x else DEFAULT_WHAT_IF_TRIALS,
          f"Shootouts per change for 'what is +1 worth?' (0: skip; at most {MAX_WHAT_IF_TRIALS:,})", 0, MAX_WHAT_IF_TRIALS)}
{C.sampling_fields(x.trials if x else q.params.get("trials", DEFAULT_TRIALS), x.seed if x else q.params.get("seed"), MAX_TRIALS)}
<button type="submit">Play the shootouts</button>
<p class="hint">Simulated: every figure carries ± one standard error; the same seed gives the same figures.</p>
</form>"""


LABELS = {"p_a_wins": "P(A wins the shootout)", "p_b_wins": "P(B wins the shootout)", "p_nobody": "P(nobody wins)",
          "rounds_mean": "rounds (mean)", "dudes_lost_a": "A's dudes aced or discarded (mean)",
          "dudes_lost_b": "B's dudes aced or discarded (mean)"}


def _pm_frame(df, cols):
    import pandas as pd

    out = {}
    for c in df.columns:
        if c.endswith("_stderr") or c == "stderr":
            continue
        partner = "stderr" if f"{c}_stderr" not in df.columns and c in ("p", "value") else f"{c}_stderr"
        out[c] = [H.pm(v, e) for v, e in zip(df[c], df[partner])] if c in cols and partner in df.columns else df[c]
    return pd.DataFrame(out)


def _what_if_page(a: Answer):
    from functools import partial

    from oddsmith.report.document import Chart, Page, Sampling
    from oddsmith.report.full_shootout_page import what_if_bars

    w = a.what_if
    return Page(title="What is +1 worth?",
                subtitle=f"A's P(win the shootout) and dudes lost, one change at a time; "
                         f"{a.question.what_if_trials:,} shootouts per change, seed {a.question.seed} (common random "
                         f"numbers); whiskers ± 2 standard errors of the paired difference",
                blocks=[Chart(partial(what_if_bars, data=w, title="One change at a time"), title="What is +1 worth?",
                              data=_pm_frame(w, ("delta_p_a_wins", "delta_dudes_lost_a")),
                              height=1.2 + 0.16 * len(w),
                              sampling=Sampling(a.question.what_if_trials, float(w["delta_p_a_wins_stderr"].max())))])


def pages(a: Answer) -> list:
    from oddsmith.report.document import Notes, Page, Sampling, Table

    r = a.result
    s = r.summary
    out = [Page(title="Whole shootouts", subtitle=f"{r.trials:,} simulated, seed {r.seed}",
                blocks=[Notes(_sides_lines(a), title="The sides"),
                        Table(_pm_frame(s.assign(figure=s["figure"].map(lambda f: LABELS.get(f, f))), ("value",)),
                              title="The shootout (± one standard error)",
                              sampling=Sampling(r.trials, float(s["stderr"].max()))),
                        Table(_pm_frame(r.rounds[r.rounds["p"] > 0], ("p",)), title="Rounds played"),
                        Table(_pm_frame(r.dudes, tuple(c for c in r.dudes.columns if c.startswith("p_"))),
                              title="Each dude's fate")])]
    if a.what_if is not None:
        out.append(_what_if_page(a))
    return out


def _sides_lines(a: Answer) -> list[str]:
    r = a.result
    lines = []
    for label, side, removed in (("A (leader)", r.a, r.removed[0]), ("B (mark)", r.b, r.removed[1])):
        posse = ", ".join(d.name for d in side.posse.dudes)
        lines.append(f"{label}: {side.name}: {posse}; {side.policy_text}"
                     + (f"; in play, out of the deck: {', '.join(removed)}" if removed else ""))
    return lines


def answer_html(a: Answer) -> str:
    r = a.result
    s = r.summary.set_index("figure")
    head = H.figures([(f, LABELS[f], float(s.loc[f, "value"]), float(s.loc[f, "stderr"])) for f in LABELS])
    dudes = _pm_frame(r.dudes, tuple(c for c in r.dudes.columns if c.startswith("p_")))
    parts = ["<h2>Whole shootouts, posse against posse</h2>", H.notes(_sides_lines(a)), head,
             H.table(_pm_frame(r.rounds[r.rounds["p"] > 0], ("p",)), "Rounds played (± one standard error)"),
             H.table(dudes, "Each dude's fate (sent home: a Harrowed dude sent home as a casualty, or fled)")]
    if a.what_if is not None:
        parts.append(H.page_html(_what_if_page(a)))
    return "".join(parts)
