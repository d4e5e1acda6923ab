"""Doomtown deck: a pasted deck list or a sample, its summary, its exact lowball (Gamblin') odds
against an opponent, the kept shootout hand for a stud/draw grid and the trade-off chart
(rulebook "Gamblin'", "Shootouts"; ``oddsmith deck show``, ``lowball``, ``tradeoff``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from oddsmith.web import render as H
from oddsmith.web.forms import BadInput, Query, grid, grid_text
from oddsmith.web.pages import common as C

PATH = "/doomtown/deck"
TITLE = "Doomtown: a deck's odds"
SIMULATED = True
SUMMARY = ("paste a deck list or pick a sample: its cards, exact lowball and Gamblin' odds, shootout hands "
           "for a stud and draw grid, and the trade-off chart")
MAX_TRIALS = 200_000
DEFAULT_TRIALS = 20_000
MAX_BONUS = 6  # a grid of at most 7 x 7 cells
DEFAULT_VS = "balanced"  # the trade-off chart then compares two decks (the CLI's tradeoff example)


@dataclass(frozen=True)
class Question:
    sample: str
    paste: str | None
    vs: str
    with_gang: bool
    partial: bool
    studs: tuple[int, ...]
    draws: tuple[int, ...]
    trials: int
    seed: int | None
    deck: object = field(compare=False, repr=False, default=None)
    opponent: object = field(compare=False, repr=False, default=None)


def _samples() -> list[str]:
    from oddsmith.doomtown.deck import sample_names

    return sample_names()


def question(q: Query) -> Question:
    from oddsmith.errors import OddsmithError

    with_gang, partial = q.flag("with_gang"), q.flag("partial")
    studs = grid(q.text("studs", "0-3"), "studs", MAX_BONUS)
    draws = grid(q.text("draws", "0-3"), "draws", MAX_BONUS)
    trials = q.integer("trials", DEFAULT_TRIALS, 1, MAX_TRIALS)
    seed = q.seed()
    vs = q.choice("vs", ["self"] + _samples(), DEFAULT_VS)
    try:
        if not q.params.get("deck") and not q.params.get("paste"):
            q = Query({**q.params, "deck": "law-dogs"})
        deck, pasted, sample = C.load_deck_input(q, "deck", "paste", with_gang=with_gang, partial=partial,
                                                 what="deck")
    except OddsmithError as exc:
        raise C.deck_error(exc, "paste") from None
    try:
        opponent = deck if vs == "self" else C.load_deck_input(Query({"vs": vs}), "vs", None, with_gang=with_gang,
                                                               partial=False, what="opponent")[0]
    except OddsmithError as exc:
        raise C.deck_error(exc, "vs") from None
    return Question(sample, pasted, vs, with_gang, partial, studs, draws, trials, seed, deck, opponent)


def params(x: Question) -> dict[str, str]:
    out = {"deck": x.sample, "paste": x.paste or "", "vs": x.vs, "studs": grid_text(x.studs),
           "draws": grid_text(x.draws), "trials": str(x.trials)}
    out.update({k: "1" for k in ("with_gang", "partial") if getattr(x, k)})
    if x.seed is not None:
        out["seed"] = str(x.seed)
    return out


@dataclass(frozen=True)
class Answer:
    question: Question
    summary: dict
    lowball: object
    gamblin: object
    tradeoff: object  # DataFrame of oddsmith.doomtown.shootout.tradeoff


def answer(x: Question) -> Answer:
    from oddsmith.doomtown import lowball, shootout
    from oddsmith.doomtown.deck import deck_summary

    decks = [x.deck] if x.opponent is x.deck else [x.deck, x.opponent]
    return Answer(x, deck_summary(x.deck), lowball.lowball_odds(x.deck), lowball.gamblin_odds(x.deck, x.opponent),
                  shootout.tradeoff(decks, vs=x.opponent, studs=x.studs, draws=x.draws, trials=x.trials,
                                    seed=x.seed))


PASTE_EXAMPLE = "Outfit: Law Dogs\nStarting Gang:\n1x Philip Swinford\n..."


def form(x: Question | None, q: Query) -> str:
    sample = x.sample if x else (q.params.get("deck") or ("" if q.params.get("paste") else "law-dogs"))
    paste = x.paste if x else q.params.get("paste", "")[:20_000]
    vs = x.vs if x else q.params.get("vs", DEFAULT_VS)
    studs = grid_text(x.studs) if x else q.params.get("studs", "0-3")[:40]
    draws = grid_text(x.draws) if x else q.params.get("draws", "0-3")[:40]
    return f"""<form method="get" action="{PATH}" class="question" id="question">
{C.select("deck", _samples(), sample, "Sample deck", blank="(the pasted list below)")}
{C.textarea("paste", paste, "Or paste a deck list (card list such as 4x 8S, Value,Suit lines, CSV, or titles as "
            "printed; a pasted list wins over the sample)", PASTE_EXAMPLE)}
<div class="checks">{C.check("with_gang", bool(x and x.with_gang), "keep the starting gang in the draw deck")}
{C.check("partial", bool(x and x.partial), "partial deck (fewer than 52 valued cards)")}</div>
{C.select("vs", ["self"] + _samples(), vs, "Opponent (Gamblin' and the trade-off)")}
{C.text("studs", studs, "Stud bonuses of the grid (0-3, 0,2,4 or 2; at most 6)")}
{C.text("draws", draws, "Draw bonuses of the grid")}
{C.sampling_fields(x.trials if x else q.params.get("trials", DEFAULT_TRIALS), x.seed if x else q.params.get("seed"), MAX_TRIALS)}
<button type="submit">Work out the odds</button>
<p class="hint">Lowball is exact; shootout hands with a draw bonus or stud 3+ are simulated and carry ± one
standard error.</p></form>"""


def _grid_view(records: list[dict], *, deck: bool = True) -> list[dict]:
    """The grid's rows as the page prints them (plain dicts: cheaper than a DataFrame per view)."""
    def pm(r: dict, col: str) -> str:
        return H.pm(r[col], None if r["shootout_exact"] else r[col + "_stderr"])

    return [{**({"deck": r["deck"]} if deck else {}), "stud": r["stud"], "draw": r["draw"],
             "mean rank": pm(r, "shootout_mean_rank"),
             "P(Full House or better)": pm(r, "shootout_p_full_house_or_better"),
             "P(cheatin')": pm(r, "shootout_p_cheatin"),
             "how": "exact" if r["shootout_exact"] else f"{r['shootout_trials']:,} trials"} for r in records]


def _tradeoff_page(a: Answer, records: list[dict]):
    from functools import partial

    from oddsmith.report import charts
    from oddsmith.report.document import Chart, Page, Sampling

    df = a.tradeoff.assign(bonus=[f"stud {s}, draw {d}" for s, d in zip(a.tradeoff["stud"], a.tradeoff["draw"])])
    sim = df[~df["shootout_exact"]]
    sampling = Sampling(a.question.trials, float(sim["shootout_p_full_house_or_better_stderr"].max())) \
        if len(sim) else None
    opp = df["vs"].iloc[0]
    return Page(
        title="The trade-off: lowball against shootout strength",
        subtitle=f"x: P(win Gamblin') against {opp} (exact) · y: P(kept hand is a Full House or better) · "
                 f"{a.question.trials:,} trials per simulated cell, seed {a.question.seed}; error bars ± 1 standard error",
        blocks=[Chart(partial(charts.tradeoff_scatter, data=df, x="lowball_p_win", y="shootout_p_full_house_or_better",
                              deck="deck", bonus="bonus", yerr="shootout_p_full_house_or_better_stderr",
                              title="Lowball win rate against shootout strength, one point per deck and bonus",
                              xlabel=f"P(win Gamblin') against {opp}", ylabel="P(Full House or better)"),
                      title="Trade-off chart", data=H.frame(_grid_view(records)), height=4.2,
                      sampling=sampling)])


def _records(a: Answer) -> list[dict]:
    """The trade-off table's rows as dicts (the deck's own first, then the opponent's)."""
    df = a.tradeoff
    return [dict(zip(df.columns, row)) for row in df.to_numpy(dtype=object).tolist()]


def _own(records: list[dict]) -> list[dict]:
    """The grid rows of the deck itself (the trade-off table also holds the opponent's)."""
    return [r for r in records if r["deck"] == records[0]["deck"]]


def pages(a: Answer) -> list:
    from oddsmith.report import deck_report
    from oddsmith.report.document import Page, Table

    x = a.question
    records = _records(a)
    inputs = deck_report.DeckInputs(decks=[x.deck], vs=None if x.opponent is x.deck else x.opponent)
    first = deck_report.lowball_page(inputs, x.deck, a.lowball, [(x.opponent, a.gamblin)])
    grid_page = Page(title="Shootout hands for the stud and draw grid",
                     subtitle=f"policy legal, heuristic discard · {x.trials:,} trials per simulated cell, seed {x.seed}",
                     blocks=[Table(H.frame(_grid_view(_own(records), deck=False)),
                                   title="The kept hand (± one standard error where simulated)")])
    return [first, grid_page, _tradeoff_page(a, records)]


def answer_html(a: Answer) -> str:
    x, s = a.question, a.summary
    facts = [f"Deck used: {s['deck_state']}, {s['cards']} cards", f"Outfit: {s['outfit'] or 'none listed'}",
             f"{s['valued_cards']} valued cards, {s['jokers']} jokers; most copies of one card {s['max_copies']}"]
    if s["starting_gang"]:
        facts.append("Starting gang: " + "; ".join(map(str, s["starting_gang"])))
    warn = s["warnings"] or ["none: the deck follows the deck-building rules"]
    low = a.lowball
    opp = "itself (mirror)" if x.opponent is x.deck else x.vs
    head = H.figures([("lowball_p_win", f"P(win Gamblin') against {opp}", a.gamblin.p_win, None),
                      ("lowball_p_cheatin", "P(cheatin' lowball hand)", low.p_cheatin, None),
                      ("lowball_mean_rank", "lowball mean rank", low.mean_rank, None)])
    ranks = [{"hand": h, "probability": p, "at_most": m, "cheatin": c} for h, p, m, c in
             zip(*(low.ranks[k].tolist() for k in ("hand", "probability", "at_most", "cheatin"))) if p > 0]
    records = _records(a)
    own = _own(records)
    cells = "".join(
        f'<span hidden data-cell="{int(r["stud"])},{int(r["draw"])}" data-mean-rank="{r["shootout_mean_rank"]!r}" '
        f'data-mean-rank-stderr="{r["shootout_mean_rank_stderr"]!r}"></span>' for r in own)
    parts = [f"<h2>{H.esc(s['name'])}</h2>", H.notes(facts, "The deck"), H.notes(warn, "Warnings"), head,
             H.table(ranks, "Lowball hand (exact): P(rank), P(this low or lower), P(and cheatin')"),
             H.table(_grid_view(own, deck=False), "Shootout hand by stud and draw bonus (± one standard error)"), cells]
    parts += [H.page_html(_tradeoff_page(a, records))]
    return "".join(parts)
