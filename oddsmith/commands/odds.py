"""`oddsmith shootout` and `oddsmith tradeoff`: shootout hands of a deck, one round head
to head, and the shootout/lowball trade-off table.

``oddsmith shootout DECK --stud S --draw D`` prints the distribution of the kept
hand's rank, P(rank >= r), P(cheatin') and the mean rank (exact without a draw
bonus and with stud 0..2, simulated otherwise); ``--vs DECK`` (or any ``--vs-*``
option) plays one shootout round against a second side and adds P(win),
P(lose), P(identical hands) and the casualties each side suffers. ``--posse``
takes the bonuses from a posse (the shooter is chosen to maximise the side's
odds unless one is named with ``--shooter`` or a ``*``).

``oddsmith tradeoff DECK [DECK ...]`` prints, for each deck and each stud/draw
bonus of a grid, the lowball win rate against a reference opponent (``--vs``,
default the deck itself), P(cheatin') in lowball, and the shootout strength
(mean kept rank, P(full house or better)).

JSON (``--format json``) follows docs/design.md, 'Contracts users rely on': ``distribution`` (rank ->
probability), ``p_cheatin``, ``mean_rank``, ``trials`` (0 when exact),
``exact``, ``stderr`` (rank -> standard error, 0 when exact); matchups add
``p_win``, ``p_lose``, ``p_tie`` and ``casualties`` ({"A": {n: p}, "B": {n: p}}).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, List, Optional

import typer

from oddsmith.commands._common import (
    FORMAT_HELP,
    OUTPUT_HELP,
    WITH_GANG_HELP,
    WITHOUT_HELP,
    check_one_stdin,
    check_output,
    check_sampling,
    exact_mode,
    deck_state_lines,
    load,
    readable,
    with_deck_state,
)
from oddsmith import lazy
from oddsmith.errors import OddsmithError, quote
from oddsmith.output import (Format, dumps_json, emit, format_frame, human_columns, human_label, is_proportion, note,
                             plus_minus, stderr_note)
from oddsmith.sampling import check_trials, check_workers, resolve_seed

pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
S = lazy.module("oddsmith.doomtown.shootout")
DK = lazy.module("oddsmith.doomtown.deck")  # the deck readers need the rules: not for --help
RD = lazy.module("oddsmith.rules.doomtown")

DECK_HELP = "Deck file, '-' for stdin, or a shipped sample deck name (see `oddsmith deck list`)."
PARTIAL_HELP = "Accept incomplete decks (fewer than 52 valued cards)."
POLICY_HELP = ("Hand-keeping policy: legal (best legal hand when one exists), greedy (highest hand, cheatin' "
               "or not) or margin:K (cheat only when it gains K ranks or more).")
DISCARD_HELP = ("Discard policy: heuristic (a sensible player's rule), search (the exact best discard for each "
                "hand; small cases only, slow) or automaton (the solo rules' Automaton: reveal the draw bonus, "
                "use at most one revealed card).")
POSSE_HELP = ("Posse giving the stud and draw bonus: a file, '-', 'gang' (the deck's own starting gang), or items "
              "such as 'Baker Andrews; 2x stud:1; draw:2' (card titles, stud:N, draw:N; '*' marks the shooter).")


def _fig(value: float, se: float, exact: bool, digits: int = 4, trials: Optional[int] = None) -> str:
    """A figure of the hand's foot: bare when exact; a probability (``trials`` given) seen as 0 or 1
    gets its exact 95% bound."""
    return f"{value:.{digits}f}" if exact else plus_minus(value, se, digits, trials=trials, proportion=trials is not None)


def _how(odds: S.ShootoutOdds) -> str:
    if odds.exact:
        return f"exact over {odds.hands:,} hands"
    return f"{odds.trials:,} simulated hands, seed {odds.seed}"


def _side_line(odds: S.ShootoutOdds, shooter: Optional[str]) -> str:
    who = f", shooter {shooter}" if shooter else ""
    return (f"{odds.deck}: {odds.cards} cards, stud {odds.stud}, draw {odds.draw}{who}, "
            f"policy {odds.policy}, discard {odds.discard}")


def _hand_foot(odds: S.ShootoutOdds, md: bool = False) -> str:
    e = odds.exact
    lines = [("mean rank", _fig(odds.mean_rank, odds.mean_rank_stderr, e)),
             ("P(cheatin')", _fig(odds.p_cheatin, odds.p_cheatin_stderr, e, 6, odds.trials)),
             ("P(full house or better)", _fig(odds.p_full_house_or_better, odds.p_at_least_stderr(7), e, 6, odds.trials))]
    if odds.mean_discards is not None and odds.draw:
        lines.append(("cards redrawn, on average", f"{odds.mean_discards:.3f}"))
    if md:
        return "\n".join(f"- {k}: {v}" for k, v in lines) + ("" if e else "\n\n(± one standard error)")
    foot = "\n".join(f"{k:<26}{v}" for k, v in lines)
    return foot + ("" if e else "\n(± one standard error)")


def _choice_text(choice: Optional[S.ShooterChoice], who: str) -> str:
    if choice is None:
        return ""
    how = "named" if choice.criterion == "named" else f"chosen by {choice.criterion}"
    return f"{who} shooter: {choice.name} (stud {choice.bonus.stud}, draw {choice.bonus.draw}; {how})\n"


def _render_hand(odds: S.ShootoutOdds, fmt: Format, choice: Optional[S.ShooterChoice]) -> str:
    if fmt is Format.json:
        out: dict[str, Any] = {"command": "shootout", **odds.to_json()}
        if choice is not None:
            out["shooter"] = choice.name
            out["shooter_options"] = choice.options
        return dumps_json(out)
    if fmt is Format.csv:
        return format_frame(with_deck_state(odds.ranks, odds.deck_state), fmt)
    title = f"Shootout hand: {_side_line(odds, choice.name if choice else None)}; {_how(odds)}"
    title = f"## {title}" if fmt is Format.md else note(title).rstrip("\n")
    table = format_frame(readable(odds.ranks, odds.exact, trials=odds.trials), fmt, float_digits=6)
    head = _choice_text(choice, "Posse")
    key = note("probability: P(the kept hand has this rank); at_least: P(rank >= this one); "
               "cheatin: P(this rank and cheatin')")
    text = f"{title}\n{head}\n{table}\n{key}\n{_hand_foot(odds, fmt is Format.md)}\n"
    return text if odds.exact else text + stderr_note(text, odds.trials)


def _wide_round(r: S.RoundOdds) -> pd.DataFrame:
    """One row per side: the summary, then p_rank_1..11 and p_casualties_0..10 (the CSV form)."""
    out = r.summary()
    for rank in S.RANKS:
        out[f"p_rank_{rank}"] = [r.a.distribution[rank], r.b.distribution[rank]]
    for n in range(S.MAX_CASUALTIES + 1):
        out[f"p_casualties_{n}"] = [float(r.casualties["p_A"].iloc[n]), float(r.casualties["p_B"].iloc[n])]
    return out


def _render_round(r: S.RoundOdds, fmt: Format, choices: tuple[Optional[S.ShooterChoice], ...],
                  full_table: bool = False) -> str:
    """The answer first: the round's result and each side's figures; ``full_table`` adds the
    distributions of casualties and kept ranks (always in CSV and JSON)."""
    if fmt is Format.json:
        out: dict[str, Any] = {"command": "shootout", **r.to_json()}
        for key, ch in zip(("shooter_options", "vs_shooter_options"), choices):
            if ch is not None:
                out[key] = ch.options
        return dumps_json(out)
    if fmt is Format.csv:
        return format_frame(with_deck_state(_wide_round(r), [r.a.deck_state, r.b.deck_state]), fmt)
    md = fmt is Format.md
    title = f"One shootout round: {r.trials:,} simulated rounds, seed {r.seed}"
    sides = [f"A: {_side_line(r.a, r.shooters[0])}", f"B: {_side_line(r.b, r.shooters[1])}"]
    if md:
        lines = [f"## {title}", "", "- " + sides[0], "- " + sides[1]]
    else:
        lines = [title, ""] + [note(x, indent="    ").rstrip("\n") for x in sides]
    heads = _choice_text(choices[0], "A") + _choice_text(choices[1], "B")
    outcome = pd.DataFrame({
        "outcome": ["A wins (A's kept hand higher)",
                    "B wins (B's kept hand higher)",
                    "identical hands (no winner)",
                    "equal ranks (1 casualty each)"],
        "probability": [r.p_win, r.p_lose, r.p_tie, r.p_equal_ranks],
        "stderr": [r.p_win_stderr, r.p_lose_stderr, r.p_tie_stderr, r.p_equal_ranks_stderr]})
    summary = r.summary()[["side", "deck", "p_win", "p_win_stderr", "expected_casualties",
                           "expected_casualties_stderr", "mean_rank", "mean_rank_stderr", "p_cheatin",
                           "p_cheatin_stderr"]]
    summary = summary.rename(columns={"expected_casualties": "casualties_suffered_mean",
                                      "expected_casualties_stderr": "casualties_suffered_mean_stderr"})
    sub = str  # format_frame makes a Markdown title a "###" heading itself
    equal = ("identical hands: no winner, 1 casualty each side. Equal ranks: 1 casualty each side; they are the "
             "tie-breaks won (counted in A wins and B wins) plus the identical hands.")
    parts = ["\n".join(lines) + "\n" + (("\n" + heads) if heads else ""),
             format_frame(readable(outcome, False, 6, trials=r.trials), fmt, title=sub("Result of the round"))
             + (f"{equal}\n" if md else note(equal)),
             format_frame(human_columns(readable(summary, False, 4, trials=r.trials))
                          .rename(columns={"casualties suffered (mean) ± se": "casualties ± se"}), fmt,
                          title=sub("Each side (casualties: those the side suffers, on average)"))]
    if full_table:
        parts += [format_frame(readable(r.casualties, False, 6, trials=r.trials), fmt,
                               title=sub("Casualties suffered (p_A: P(side A suffers exactly that many), p_B: side B)")),
                  format_frame(readable(r.ranks(), False, 6, trials=r.trials), fmt,
                               title=sub("Kept hand ranks (p_A: side A, p_B: side B)"))]
    text = "\n".join(parts)
    more = "" if full_table else "The distributions of casualties and kept hand ranks: --full-table."
    foot = "Figures ± one standard error. " + more
    return text + "\n" + (foot + "\n" if md else note(foot)) + stderr_note(text, r.trials)


_RANGE = re.compile(r"^\s*(\d+)\s*(?:(?:-|\.\.)\s*(\d+))?\s*$")


def parse_bonus_list(text: str, what: str) -> list[int]:
    """``0-3``, ``0..3``, ``1,2,4`` or ``2`` -> a sorted list of bonuses in 0..10."""
    values: set[int] = set()
    for part in str(text).split(","):
        m = _RANGE.match(part)
        if not m:
            raise OddsmithError(f"{what}: {quote(part.strip())} is not a number or a range such as 0-3")
        lo, hi = int(m.group(1)), int(m.group(2) if m.group(2) is not None else m.group(1))
        if lo > hi:
            raise OddsmithError(f"{what}: range {quote(part.strip())} runs backwards")
        if hi > S.MAX_BONUS:  # name what was typed, not the first value past the limit
            raise OddsmithError(f"{what}: {quote(part.strip())} goes past {S.MAX_BONUS}; bonuses are 0..{S.MAX_BONUS}")
        values.update(range(lo, hi + 1))
    return sorted(values)


def _tradeoff_cell(row: Any, figure: str, trials: int) -> str:
    """One shootout cell of the trade-off: bare where exact, else ± se (or its exact 95% bound)."""
    value = row[f"shootout_{figure}"]
    if row["shootout_exact"]:
        return f"{value:.4f}"
    return plus_minus(value, row[f"shootout_{figure}_stderr"], 4, trials=trials, proportion=is_proportion(figure))


def _tradeoff_summary(df: pd.DataFrame) -> pd.DataFrame:
    """The lowball figures, one row per deck (they do not depend on the stud and draw bonus)."""
    low = df.drop_duplicates(["deck", "vs"])[["deck", "vs", "lowball_p_win", "lowball_p_cheatin",
                                               "lowball_mean_rank"]]
    return low.reset_index(drop=True).rename(columns={"lowball_p_win": "P(win)", "lowball_p_cheatin": "P(cheatin')",
                                                      "lowball_mean_rank": "mean rank"})


def _tradeoff_grid(df: pd.DataFrame, trials: int) -> pd.DataFrame:
    """P(full house or better): a row per deck and stud bonus, a column per draw bonus (the deck
    column only when there are several decks)."""
    decks = list(dict.fromkeys(df["deck"]))
    studs, draws = sorted(set(df["stud"])), sorted(set(df["draw"]))
    cells = {(r["deck"], r["stud"], r["draw"]): _tradeoff_cell(r, "p_full_house_or_better", trials)
             for _, r in df.iterrows()}
    grid: dict[str, list[Any]] = {"deck": [d for d in decks for _ in studs], "stud": studs * len(decks)}
    for d in draws:
        grid[f"draw {d}"] = [cells[(deck, st, d)] for deck, st in zip(grid["deck"], grid["stud"])]
    out = pd.DataFrame(grid)
    return out if len(decks) > 1 else out.drop(columns=["deck"])


def _render_tradeoff(df: pd.DataFrame, fmt: Format, meta: dict[str, Any], full_table: bool = False) -> str:
    """The answer first: each deck's Gamblin' figures once, then its shootout strength as a stud x draw
    grid of P(full house or better); ``full_table`` adds every figure of every cell."""
    if fmt is Format.json:
        return dumps_json({"command": "tradeoff", **meta, "rows": df})
    if fmt is Format.csv:
        return format_frame(df, fmt)
    md = fmt is Format.md
    trials = meta["trials"]
    simulated = not bool(df["shootout_exact"].all())
    how = (f"shootout cells: exact where stud <= 2 and draw 0, else {trials:,} simulated hands, seed {meta['seed']}"
           + ("; ± one standard error" if simulated else ""))
    title = f"Trade-off: lowball against shootout strength (policy {meta['policy']}, discard {meta['discard']})"
    parts = [format_frame(_tradeoff_summary(df), fmt, float_digits=4,
                          title="Gamblin' (lowball), exact: P(win) against vs (identical hands redrawn), P(cheatin'), "
                                "mean rank")]
    grid = _tradeoff_grid(df, trials)
    who = "In a shootout" if "deck" in grid.columns else f"{df['deck'].iloc[0]} in a shootout"
    parts.append(format_frame(grid, fmt, keys=[c for c in ("deck", "stud") if c in grid.columns],
                              title=f"{who}: P(full house or better) by stud bonus (rows) and draw bonus (columns)"))
    if full_table:
        for (deck, vs), rows in df.groupby(["deck", "vs"], sort=False):
            cells = rows[["stud", "draw"]].copy()
            cells["exact"] = rows["shootout_exact"].map({True: "yes", False: "no"})
            for figure, label in (("mean_rank", "mean rank"), ("p_full_house_or_better", "P(full house+)"),
                                  ("p_cheatin", "P(cheatin')")):
                cells[label] = [_tradeoff_cell(r, figure, trials) for _, r in rows.iterrows()]
            parts.append(format_frame(cells, fmt, keys=["stud", "draw"],
                                      title=f"{deck} in a shootout, every cell: mean kept rank, P(full house or "
                                            f"better), P(cheatin')"))
        more = ""
    else:
        more = "Mean kept rank and P(cheatin') of every cell: --full-table (or --format csv/json)."
    body = "\n".join(parts)
    why_na = stderr_note(body, trials)
    states = meta["deck_states"]
    if md:
        return f"## {title}\n\n{how}\n\n{body}\n" + (f"{more}\n\n" if more else "") + \
            (why_na + "\n" if why_na else "") + states
    return note(title) + note(how) + "\n" + body + "\n" + (note(more) if more else "") + why_na + "\n" + states


# --------------------------------------------------------------------------
# `shootout --full`: whole shootouts (oddsmith.doomtown.full_shootout)
# --------------------------------------------------------------------------

SHOOTER_POLICY_HELP = ("Whole shootouts: how the posse picks its shooter each round: best (maximise P(win the round) "
                       "against the other side's replies), automaton (the Automaton's priority) or listed (the first "
                       "dude still standing, in posse order).")
CASUALTIES_HELP = ("Whole shootouts: how the posse covers casualties: keep-posse (Sidekicks first, then the weakest "
                   "dude covers all it can), save-dudes (send home and discard before acing) or automaton (the "
                   "Gunfighter's Programmed Reflexes).")
FLEE_HELP = ("Whole shootouts: when the posse flees (all its dudes, sent home booted): never, outnumbered (after "
             "a lost round, when now outnumbered) or losses:K (once K dudes are gone).")
_FULL_FIGURES = {
    "p_a_wins": "P(A wins the shootout)", "p_b_wins": "P(B wins the shootout)", "p_nobody": "P(nobody wins)",
    "p_a_fled": "P(A fled)", "p_b_fled": "P(B fled)", "p_cap": "P(stopped at the round cap)",
    "rounds_mean": "rounds (mean)", "bounty_a": "bounty A collects (mean)", "bounty_b": "bounty B collects (mean)",
    "dudes_lost_a": "A's dudes aced or discarded (mean)", "dudes_lost_b": "B's dudes aced or discarded (mean)",
    "p_reshuffle": "P(a deck reshuffled)", "p_reshuffle_a": "P(A's deck reshuffled)",
    "p_reshuffle_b": "P(B's deck reshuffled)",
}


def _full_long(r: Any) -> pd.DataFrame:
    """The CSV form: one row per figure (section, item, figure, value, stderr)."""
    rows = [("shootout", "", f.figure, f.value, f.stderr) for f in r.summary.itertuples()]
    rows += [("rounds", str(x.rounds), "p", x.p, x.stderr) for x in r.rounds.itertuples() if x.p > 0]
    for d in r.dudes.itertuples():
        for fig in ("p_aced", "p_discarded", "p_sent_home", "p_fled", "p_standing"):
            rows.append((f"dude {d.side}", d.name, fig, getattr(d, fig), getattr(d, fig + "_stderr")))
    return pd.DataFrame(rows, columns=["section", "item", "figure", "value", "stderr"])


def _with_side_states(df: pd.DataFrame, a: Any, b: Any) -> pd.DataFrame:
    """The CSV form of which decks were used: ``deck_state_a`` and ``deck_state_b`` columns."""
    return df.assign(deck_state_a=DK.deck_state_of(a.deck), deck_state_b=DK.deck_state_of(b.deck))


def _side_deck_lines(a: Any, b: Any, fmt: Format) -> str:
    """``Deck used: ...`` for each side's deck (table and Markdown)."""
    decks = [s.deck for s in (a, b) if isinstance(s.deck, DK.Deck)]
    return deck_state_lines(decks, fmt) if decks else ""


def _render_full(r: Any, fmt: Format) -> str:
    if fmt is Format.json:
        return dumps_json({"command": "shootout", "mode": "full", **r.to_json()})
    if fmt is Format.csv:
        return format_frame(_with_side_states(_full_long(r), r.a, r.b), fmt)
    md = fmt is Format.md
    sub = str  # format_frame makes a Markdown title a "###" heading itself
    title = f"Whole shootouts, {r.trials:,} simulated, seed {r.seed}"
    lines = [f"## {title}" if md else title, ""]
    for label, side, removed in (("A (leader)", r.a, r.removed[0]), ("B (mark)", r.b, r.removed[1])):
        posse = ", ".join(d.name for d in side.posse.dudes)
        out = f"; in play, out of the deck: {', '.join(removed)}" if removed else ""
        side_line = f"{label}: {side.name}: {posse}; {side.policy_text}{out}"
        # a Markdown bullet is one line for the renderer to wrap; a terminal gets it wrapped, indented
        lines.append(f"- {side_line}" if md else note(side_line, indent="    ").rstrip("\n"))
    summary = r.summary.assign(figure=r.summary["figure"].map(_FULL_FIGURES)).rename(columns={"stderr": "value_stderr"})
    key = ("Figures ± one standard error. "
           + (f"{r.cap_hits:,} shootouts reached the {RD.SHOOTOUT_ROUND_CAP}-round cap (no winner)."
              if r.cap_hits else f"No shootout reached the {RD.SHOOTOUT_ROUND_CAP}-round cap."))
    rounds = r.rounds[r.rounds["p"] > 0].rename(columns={"stderr": "p_stderr"})
    dudes = r.dudes.drop(columns=["p_fled", "p_fled_stderr"])
    figures = [is_proportion(f) for f in r.summary["figure"]]
    tables = [format_frame(readable(summary, False, 4, trials=r.trials, proportions=figures), fmt),
              format_frame(readable(rounds, False, 4, trials=r.trials), fmt, title=sub("Rounds played")),
              format_frame(readable(dudes, False, 4, trials=r.trials), fmt,
                           title=sub("Each dude's fate (sent home: a Harrowed dude sent home as a casualty, or fled)"))]
    parts = ["\n".join(lines) + "\n", tables[0],
             (note(key) if not md else key + "\n") + stderr_note("".join(tables), r.trials),
             *tables[1:], _side_deck_lines(r.a, r.b, fmt)]
    return "\n".join(parts)


def _render_what_if(df: pd.DataFrame, fmt: Format, meta: dict[str, Any], a: Any, b: Any) -> str:
    if fmt is Format.json:
        states = {"deck_state_a": DK.deck_state_of(a.deck), "deck_state_b": DK.deck_state_of(b.deck)}
        return dumps_json({"command": "shootout", "mode": "what-if", **meta, **states, "rows": df})
    if fmt is Format.csv:
        return format_frame(_with_side_states(df, a, b), fmt)
    title = (f"What is +1 worth? Side A's P(win the shootout) and dudes lost, one change at a time; "
             f"{meta['trials']:,} shootouts per row, seed {meta['seed']} (common random numbers)")
    key = ("whose A: a change to A's posse; B: the same taken from B's posse. delta: the change from the first "
           "row, ± the standard error of the paired difference.")
    table = format_frame(readable(df, False, 4), fmt)
    why_na = stderr_note(table, meta["trials"])
    if fmt is Format.md:
        return f"## {title}\n\n{table}\n{key}\n\n" + (why_na + "\n" if why_na else "") + _side_deck_lines(a, b, fmt)
    return note(title) + "\n" + table + "\n" + note(key) + why_na + "\n" + _side_deck_lines(a, b, fmt)


def _full_cmd(*, main: Any, opponent: Any, posse: Optional[str], vs_posse: Optional[str], pol: Any, vpol: Any,
              disc: str, vdisc: str, shooter_policy: Optional[str], vs_shooter_policy: Optional[str],
              casualties: Optional[str], vs_casualties: Optional[str], flee: Optional[str], vs_flee: Optional[str],
              automaton: bool, what_if: bool, trials: Optional[int], seed: int, workers: int, fmt: Format,
              output: Optional[Path]) -> None:
    from oddsmith.doomtown import full_shootout as F
    from oddsmith.doomtown.posse import load_posse

    if posse is None or vs_posse is None:
        raise OddsmithError("--full plays posse against posse: give --posse and --vs-posse")
    posse_a = load_posse(posse, source="--posse", deck=main)  # "gang": the deck's own starting gang
    posse_b = load_posse(vs_posse, source="--vs-posse", deck=opponent)
    side_a = F.FullSide(main, posse_a, shooter=shooter_policy or "best", casualties=casualties or "keep-posse",
                        flee=flee or "never", policy=pol, discard=disc)
    side_b = F.FullSide(opponent, posse_b, shooter=vs_shooter_policy or "best",
                        casualties=vs_casualties or "keep-posse", flee=vs_flee or "never", policy=vpol,
                        discard=vdisc, automaton=automaton)
    side_a.checked(), side_b.checked()
    if what_if:
        n = trials if trials is not None else F.DEFAULT_WHAT_IF_TRIALS
        df = F.what_if(side_a, side_b, trials=n, seed=seed, workers=workers)
        emit(_render_what_if(df, fmt, {"trials": n, "seed": seed, "a": side_a.checked().name,
                                       "b": side_b.checked().name}, side_a, side_b), output)
        return
    n = trials if trials is not None else F.DEFAULT_TRIALS
    emit(_render_full(F.full_shootout(side_a, side_b, trials=n, seed=seed, workers=workers), fmt), output)


def register(app: typer.Typer) -> None:
    """Add `oddsmith shootout` and `oddsmith tradeoff`."""

    @app.command("shootout")
    def shootout_cmd(
        deck: str = typer.Argument(..., help=DECK_HELP, metavar="DECK"),
        stud: Optional[int] = typer.Option(None, "--stud", "-s", help="Stud bonus 0..10 (extra cards drawn; default 0)."),
        draw: Optional[int] = typer.Option(None, "--draw", "-d", help="Draw bonus 0..10 (cards that may be discarded and redrawn once; default 0)."),
        posse: Optional[str] = typer.Option(None, "--posse", help=POSSE_HELP),
        shooter: Optional[str] = typer.Option(None, "--shooter", help="The posse's shooter (name or title); default: the one maximising the side's odds."),
        policy: str = typer.Option("legal", "--policy", help=POLICY_HELP),
        discard: str = typer.Option("heuristic", "--discard", help=DISCARD_HELP),
        vs: Optional[str] = typer.Option(None, "--vs", help="Opponent deck for one shootout round (default: DECK itself when any --vs-* option is given)."),
        vs_stud: Optional[int] = typer.Option(None, "--vs-stud", help="Opponent's stud bonus 0..10 (default 0)."),
        vs_draw: Optional[int] = typer.Option(None, "--vs-draw", help="Opponent's draw bonus 0..10 (default 0)."),
        vs_posse: Optional[str] = typer.Option(None, "--vs-posse", help="Opponent's posse (as --posse)."),
        vs_shooter: Optional[str] = typer.Option(None, "--vs-shooter", help="Opponent posse's shooter."),
        vs_policy: Optional[str] = typer.Option(None, "--vs-policy", help="Opponent's hand-keeping policy (default legal)."),
        vs_discard: Optional[str] = typer.Option(None, "--vs-discard", help="Opponent's discard policy (default heuristic; 'automaton' for a solo game)."),
        exact: Optional[bool] = typer.Option(None, "--exact/--simulate", help="Exact enumeration (default where it exists: stud 0..2, no draw) or Monte Carlo."),
        trials: Optional[int] = typer.Option(None, "--trials", "-t", help=f"Simulated hands or rounds (default {S.DEFAULT_TRIALS:,}; {S.DEFAULT_SEARCH_TRIALS:,} with --discard search); giving it selects --simulate unless --exact is given."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the simulation (default: fresh, and printed)."),
        workers: int = typer.Option(1, "--workers", "-w", help="Threads for the simulation (results do not depend on it)."),
        partial: bool = typer.Option(False, "--partial", help=PARTIAL_HELP),
        with_gang: bool = typer.Option(False, "--with-gang", help=WITH_GANG_HELP + " Applies to both decks."),
        without: Optional[str] = typer.Option(None, "--without", help=WITHOUT_HELP + " Applies to DECK."),
        vs_without: Optional[str] = typer.Option(None, "--vs-without", help="Cards already out of the opponent's deck (as --without)."),
        full: bool = typer.Option(False, "--full", help="Play whole shootouts, posse against posse, round after round to the end (needs --posse and --vs-posse)."),
        shooter_policy: Optional[str] = typer.Option(None, "--shooter-policy", help=SHOOTER_POLICY_HELP + " Default best."),
        vs_shooter_policy: Optional[str] = typer.Option(None, "--vs-shooter-policy", help="The opponent's shooter policy (as --shooter-policy)."),
        casualties: Optional[str] = typer.Option(None, "--casualties", help=CASUALTIES_HELP + " Default keep-posse."),
        vs_casualties: Optional[str] = typer.Option(None, "--vs-casualties", help="The opponent's casualty policy (as --casualties)."),
        flee: Optional[str] = typer.Option(None, "--flee", help=FLEE_HELP + " Default never."),
        vs_flee: Optional[str] = typer.Option(None, "--vs-flee", help="The opponent's flee policy (as --flee)."),
        automaton: bool = typer.Option(False, "--automaton", help="Whole shootouts: the opponent plays the Automaton Variant throughout (its shooter priority, hand rule and casualty reflexes; never flees)."),
        full_table: bool = typer.Option(False, "--full-table", help="One round head to head (--vs), table and Markdown: add the distributions of casualties and kept hand ranks (always in CSV and JSON)."),
        what_if: bool = typer.Option(False, "--what-if", help="Whole shootouts: what is +1 worth? The change in A's P(win) and dudes lost from one change at a time (common random numbers)."),
        fmt: Format = typer.Option(Format.table, "--format", "-f", help=FORMAT_HELP),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help=OUTPUT_HELP),
    ) -> None:
        """Shootout odds: the kept hand; with --vs, one round head to head; with --full, whole shootouts.

        Alone: the kept-rank distribution and P(cheatin') of one hand. With --vs: one round
        head to head, with casualties. With --full: shootouts played to the end, posse against
        posse (--posse and --vs-posse), round after round."""
        from oddsmith.doomtown.posse import load_posse

        check_output(output)
        for value, what in ((stud, "--stud"), (draw, "--draw"), (vs_stud, "--vs-stud"), (vs_draw, "--vs-draw")):
            if value is not None:
                S.check_bonus(value, what)
        check_sampling(trials, workers)
        pol = S.parse_policy(policy)
        vpol = S.parse_policy(vs_policy) if vs_policy is not None else S.LEGAL
        disc = S.check_discard(discard)
        vdisc = S.check_discard(vs_discard) if vs_discard is not None else "heuristic"
        if posse is not None and (stud is not None or draw is not None):
            raise OddsmithError("give --stud/--draw or --posse, not both")
        if vs_posse is not None and (vs_stud is not None or vs_draw is not None):
            raise OddsmithError("give --vs-stud/--vs-draw or --vs-posse, not both")
        if shooter is not None and posse is None:
            raise OddsmithError("--shooter needs --posse")
        if vs_shooter is not None and vs_posse is None:
            raise OddsmithError("--vs-shooter needs --vs-posse")
        matchup = any(x is not None for x in (vs, vs_stud, vs_draw, vs_posse, vs_shooter, vs_policy, vs_discard,
                                              vs_without))
        check_one_stdin([deck, vs], "input")
        check_one_stdin([posse, vs_posse], "input")
        full_only = {"--shooter-policy": shooter_policy, "--vs-shooter-policy": vs_shooter_policy,
                     "--casualties": casualties, "--vs-casualties": vs_casualties, "--flee": flee,
                     "--vs-flee": vs_flee, "--automaton": automaton or None, "--what-if": what_if or None}
        if not full:
            given = [k for k, v in full_only.items() if v is not None]
            if given:
                raise OddsmithError(f"{given[0]} plays whole shootouts: add --full")
        else:
            if exact:
                raise OddsmithError("whole shootouts are simulated: drop --exact")
            if shooter is not None or vs_shooter is not None:
                raise OddsmithError("--full chooses a shooter every round: use --shooter-policy / --vs-shooter-policy "
                                    "instead of --shooter")
            if automaton:
                clash = [k for k, v in (("--vs-shooter-policy", vs_shooter_policy), ("--vs-casualties", vs_casualties),
                                        ("--vs-flee", vs_flee), ("--vs-discard", vs_discard), ("--vs-policy", vs_policy))
                         if v is not None]
                if clash:
                    raise OddsmithError(f"--automaton sets the opponent's policies: drop {clash[0]}")
            main = load(deck, partial, without, with_gang)
            opponent = load(vs if vs is not None else deck, partial, vs_without, with_gang)
            _full_cmd(main=main, opponent=opponent, posse=posse, vs_posse=vs_posse, pol=pol, vpol=vpol, disc=disc,
                      vdisc=vdisc, shooter_policy=shooter_policy, vs_shooter_policy=vs_shooter_policy,
                      casualties=casualties, vs_casualties=vs_casualties, flee=flee, vs_flee=vs_flee,
                      automaton=automaton, what_if=what_if, trials=trials, seed=resolve_seed(seed), workers=workers,
                      fmt=fmt, output=output)
            return
        main = load(deck, partial, without, with_gang)
        posse_a = load_posse(posse, shooter=shooter, source="--posse", deck=main) if posse is not None else None
        used_seed = resolve_seed(seed)
        side_a = S.Side(main, stud or 0, draw or 0, pol, disc, name=S.deck_name(main))
        if not matchup:
            choice = None
            if posse_a is not None:
                screen = min(trials, S.SCREEN_TRIALS) if trials is not None else S.SCREEN_TRIALS
                choice = S.choose_shooter(main, posse_a, policy=pol, discard=disc, trials=screen,
                                          seed=used_seed, workers=workers)
                side_a = S.Side(main, choice.bonus.stud, choice.bonus.draw, pol, disc, name=side_a.name)
            is_exact = exact_mode(exact, trials, S.can_be_exact(side_a.stud, side_a.draw, len(main)))
            odds = S.shootout_odds(main, side_a.stud, side_a.draw, policy=pol, discard=disc, exact=is_exact,
                                   trials=trials, seed=None if is_exact else used_seed, workers=workers,
                                   name=side_a.name)
            text = _render_hand(odds, fmt, choice)
            if fmt in (Format.table, Format.md):
                text += "\n" + deck_state_lines([main], fmt)
            emit(text, output)
            return
        if exact:
            raise OddsmithError("a shootout round head to head is simulated: drop --exact")
        opponent = load(vs if vs is not None else deck, partial, vs_without, with_gang)
        posse_b = load_posse(vs_posse, shooter=vs_shooter, source="--vs-posse", deck=opponent) \
            if vs_posse is not None else None
        side_b = S.Side(opponent, vs_stud or 0, vs_draw or 0, vpol, vdisc, name=S.deck_name(opponent))
        n_trials = trials if trials is not None else S.DEFAULT_TRIALS
        choices: tuple[Optional[S.ShooterChoice], Optional[S.ShooterChoice]] = (None, None)
        if posse_a is not None or posse_b is not None:
            side_a, side_b, ch_a, ch_b = S.choose_shooters(side_a, posse_a, side_b, posse_b,
                                                           trials=min(n_trials, S.SCREEN_TRIALS), seed=used_seed,
                                                           workers=workers)
            choices = (ch_a, ch_b)
        r = S.shootout_round(side_a, side_b, trials=n_trials, seed=used_seed, workers=workers,
                             shooters=(choices[0].name if choices[0] else None, choices[1].name if choices[1] else None))
        text = _render_round(r, fmt, choices, full_table)
        if fmt in (Format.table, Format.md):
            text += "\n" + deck_state_lines([main, opponent], fmt)
        emit(text, output)

    @app.command("tradeoff")
    def tradeoff_cmd(
        decks: List[str] = typer.Argument(..., help="One or more decks: " + DECK_HELP, metavar="DECK..."),
        vs: Optional[str] = typer.Option(None, "--vs", help="Reference opponent for the lowball win rate (default: each deck against itself)."),
        studs: str = typer.Option("0-3", "--studs", help="Stud bonuses of the grid: a range (0-3), a list (0,2,4) or one value."),
        draws: str = typer.Option("0-3", "--draws", help="Draw bonuses of the grid (as --studs)."),
        policy: str = typer.Option("legal", "--policy", help=POLICY_HELP),
        discard: str = typer.Option("heuristic", "--discard", help=DISCARD_HELP),
        trials: Optional[int] = typer.Option(None, "--trials", "-t", help=f"Simulated hands per simulated cell (default {S.DEFAULT_TRADEOFF_TRIALS:,})."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the simulation (default: fresh, and printed)."),
        workers: int = typer.Option(1, "--workers", "-w", help="Threads for the simulation (results do not depend on it)."),
        partial: bool = typer.Option(False, "--partial", help=PARTIAL_HELP),
        with_gang: bool = typer.Option(False, "--with-gang", help=WITH_GANG_HELP + " Applies to every deck."),
        without: Optional[str] = typer.Option(None, "--without", help=WITHOUT_HELP + " Applies to every DECK."),
        full_table: bool = typer.Option(False, "--full-table", help="Table and Markdown: add every figure of every stud/draw cell (mean kept rank, P(full house or better), P(cheatin')) after the summary."),
        fmt: Format = typer.Option(Format.table, "--format", "-f", help=FORMAT_HELP),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help=OUTPUT_HELP),
    ) -> None:
        """The trade-off table: lowball win rate and P(cheatin') beside shootout strength per stud/draw bonus.

        Table and Markdown lead with the answer: each deck's Gamblin' figures once, then a grid of
        P(full house or better) by stud and draw bonus; --full-table adds every figure of every cell.
        CSV and JSON always hold every cell."""
        check_output(output)
        stud_list = parse_bonus_list(studs, "--studs")
        draw_list = parse_bonus_list(draws, "--draws")
        n_trials = check_trials(trials) if trials is not None else S.DEFAULT_TRADEOFF_TRIALS
        check_workers(workers)
        pol = S.parse_policy(policy)
        disc = S.check_discard(discard)
        check_one_stdin([*decks, vs])
        loaded = [load(d, partial, without, with_gang) for d in decks]
        reference = load(vs, partial, with_gang=with_gang) if vs is not None else None
        used_seed = resolve_seed(seed)
        df = S.tradeoff(loaded, vs=reference, studs=stud_list, draws=draw_list, policy=pol, discard=disc,
                        trials=n_trials, seed=used_seed, workers=workers)
        meta = {"policy": str(pol), "discard": disc, "trials": n_trials, "seed": used_seed,
                "vs": S.deck_name(reference) if reference is not None else None,
                "vs_deck_state": reference.deck_state if reference is not None else None,
                "studs": stud_list, "draws": draw_list}
        if fmt in (Format.table, Format.md):
            meta["deck_states"] = deck_state_lines(loaded + ([reference] if reference is not None else []), fmt)
        emit(_render_tradeoff(df, fmt, meta, full_table), output)
