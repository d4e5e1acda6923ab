"""`oddsmith lowball` and `oddsmith pull`: Gamblin' odds of a deck, and pulls from it.

``oddsmith lowball DECK`` prints the exact distribution of the deck's lowball
hand rank and P(cheatin'); ``--vs DECK`` plays Gamblin' head to head (exact);
``--players N`` (or several ``--vs``) simulates the multiplayer variant.
``oddsmith pull DECK`` gives exact P(success) of skill tests, Kung Fu tests,
suit and value pulls from what is left of the deck.

DECK is a deck file, ``-`` for stdin, or a shipped sample deck name (as for
``oddsmith deck show``). JSON (``--format json``) follows the contract of
docs/design.md, 'Contracts users rely on': ``distribution`` (rank -> probability), ``p_cheatin``,
``mean_rank``, ``trials`` (0 when exact), ``exact``, ``stderr`` (rank ->
standard error, 0 when exact); matchups add ``p_win``, ``p_lose``, ``p_tie``.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

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
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, dumps_json, emit, format_frame, human_columns, note, plus_minus, stderr_note
from oddsmith.sampling import resolve_seed

if TYPE_CHECKING:
    from oddsmith.doomtown.deck import Deck

pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
L = lazy.module("oddsmith.doomtown.lowball")
deck_label = lazy.function("oddsmith.doomtown.deck", "deck_label")
P = lazy.module("oddsmith.doomtown.pulls")

DECK_HELP = "Deck file, '-' for stdin, or a shipped sample deck name (see `oddsmith deck show --help`)."
PARTIAL_HELP = "Accept an incomplete deck (fewer than 52 valued cards)."


def _how(exact: bool, trials: int, seed: Optional[int]) -> str:
    return "exact" if exact else f"{trials:,} simulated deals, seed {seed}"


def _render_single(odds: L.LowballOdds, fmt: Format) -> str:
    if fmt is Format.json:
        return dumps_json({"command": "lowball", **odds.to_json()})
    if fmt is Format.csv:
        return format_frame(with_deck_state(odds.ranks, odds.deck_state), fmt)
    title = f"Lowball hand of {odds.deck}: {odds.cards} cards, {_how(odds.exact, odds.trials, odds.seed)}"
    title = f"## {title}" if fmt is Format.md else note(title).rstrip("\n")
    table = format_frame(readable(odds.ranks, odds.exact, trials=odds.trials), fmt, float_digits=6)
    if odds.exact:
        foot = f"P(cheatin') {odds.p_cheatin:.6f}   mean rank {odds.mean_rank:.4f}"
    else:
        foot = (f"P(cheatin') {plus_minus(odds.p_cheatin, odds.p_cheatin_stderr, trials=odds.trials, proportion=True)}   "
                f"mean rank {plus_minus(odds.mean_rank, odds.mean_rank_stderr, 4)} (± one standard error)")
    text = f"{title}\n\n{table}\n{foot}\n"
    return text if odds.exact else text + stderr_note(text, odds.trials)


def _render_hands(odds: L.LowballOdds, fmt: Format) -> str:
    df = odds.key_table().drop(columns=["key"])
    if fmt is Format.json:
        return dumps_json({"command": "lowball", "deck": odds.deck, "deck_state": odds.deck_state,
                           "cards": odds.cards, "exact": True, "trials": 0, "total_hands": odds.hands, "hands": df})
    if fmt is Format.csv:
        return format_frame(with_deck_state(df, odds.deck_state), fmt)
    title = (f"Every lowball hand of {odds.deck}, lowest first: {len(df):,} distinct hands "
             f"among {odds.hands:,} deals, exact (values in comparison order)")
    title = f"## {title}" if fmt is Format.md else note(title).rstrip("\n")
    return f"{title}\n\n{format_frame(df, fmt, float_digits=8)}"


def _wide(summary: pd.DataFrame, hands: tuple[L.LowballOdds, ...]) -> pd.DataFrame:
    """One row per player with the rank distribution as p_rank_1..p_rank_11 (the CSV form)."""
    out = summary.copy()
    for r in L.RANKS:
        out[f"p_rank_{r}"] = [h.distribution[r] for h in hands]
    return out


def _render_matchup(g: L.GamblinOdds, fmt: Format, full_table: bool = False) -> str:
    """The answer first: each player's figures and the result; ``full_table`` adds the rank
    distributions (always in CSV and JSON)."""
    if fmt is Format.json:
        return dumps_json({"command": "lowball", **g.to_json()})
    if fmt is Format.csv:
        return format_frame(with_deck_state(_wide(g.summary(), g.players), [p.deck_state for p in g.players]), fmt)
    a, b = g.players
    title = f"Gamblin': {a.deck} (A) vs {b.deck} (B), {_how(g.exact, g.trials, g.seed)}"
    result = pd.DataFrame({
        "outcome": ["A wins (identical hands redrawn)", "B wins (identical hands redrawn)",
                    "identical hands on one deal", "A lower on one deal", "B lower on one deal"],
        "probability": [g.p_win, g.p_lose, g.p_tie, g.p_win_first_deal, g.p_lose_first_deal]})
    if not g.exact:
        # one-deal figures are proportions of the simulated deals: binomial standard errors
        first = [g.p_win_first_deal, g.p_lose_first_deal]
        result["stderr"] = [g.p_win_stderr, g.p_lose_stderr, g.p_tie_stderr,
                            *(math.sqrt(p * (1 - p) / g.trials) for p in first)]
    outcome = format_frame(readable(result, g.exact, trials=g.trials), fmt, float_digits=6,
                           title="Result of Gamblin' (lowest hand wins)")
    title = f"## {title}" if fmt is Format.md else note(title).rstrip("\n")
    s = format_frame(human_columns(readable(g.summary(), g.exact, trials=g.trials)), fmt, float_digits=6)
    text = f"{title}\n\n{s}\n{outcome}"
    if full_table:
        text += "\n" + format_frame(readable(g.ranks(), g.exact, trials=g.trials), fmt, float_digits=6,
                                    title="Lowball hand ranks")
    more = "" if full_table else "Each deck's lowball hand ranks: --full-table."
    foot = ("" if g.exact else "Figures ± one standard error. ") + more
    text += "\n" + ((foot + "\n") if fmt is Format.md else note(foot)) if foot else ""
    return text if g.exact else text + stderr_note(text, g.trials)


def _render_table(t: L.TableOdds, fmt: Format) -> str:
    if fmt is Format.json:
        return dumps_json({"command": "lowball", **t.to_json()})
    if fmt is Format.csv:
        return format_frame(with_deck_state(_wide(t.players, t.hands), [h.deck_state for h in t.hands]), fmt)
    n = len(t.hands)
    title = (f"Gamblin' at a table of {n}: {t.trials:,} simulated deals, seed {t.seed} "
             f"(lowest hand wins 2 ghost rock, second lowest 1)")
    title = f"## {title}" if fmt is Format.md else note(title).rstrip("\n")
    body = format_frame(readable(t.players, False, trials=t.trials), fmt, float_digits=6)
    foot = note(f"Identical hands on a first deal: probability {plus_minus(t.p_identical, t.p_identical_stderr, trials=t.trials, proportion=True)}; "
                f"redraws per deal: {t.mean_redraws:.4f} on average. Figures ± one standard error.")
    text = f"{title}\n\n{body}\n{foot}"
    return text + stderr_note(text, t.trials)


def _pull_meta(deck: Deck, kind: str) -> dict[str, Any]:
    return {"command": "pull", "test": kind, "deck": deck.name, "deck_state": deck.deck_state, "cards": len(deck),
            "removed": list(deck.removed), "exact": True, "trials": 0}


def register(app: typer.Typer) -> None:
    """Add `oddsmith lowball` and `oddsmith pull`."""

    @app.command("lowball")
    def lowball_cmd(
        deck: str = typer.Argument(..., help=DECK_HELP, metavar="DECK"),
        vs: Optional[List[str]] = typer.Option(None, "--vs", help="Opponent deck (file, '-' or sample name); repeat for a table of players."),
        players: Optional[int] = typer.Option(None, "--players", "-n", help="Players at the table (2..8). Seats without a --vs deck play the last --vs deck (or DECK itself)."),
        exact: Optional[bool] = typer.Option(None, "--exact/--simulate", help="Exact enumeration (default for one deck or two) or Monte Carlo."),
        trials: Optional[int] = typer.Option(None, "--trials", "-t", help=f"Simulated deals (default {L.DEFAULT_TRIALS:,}); giving it selects --simulate unless --exact is given."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the simulation (default: fresh, and printed)."),
        workers: int = typer.Option(1, "--workers", "-w", help="Threads for the simulation (results do not depend on it)."),
        partial: bool = typer.Option(False, "--partial", help=PARTIAL_HELP),
        with_gang: bool = typer.Option(False, "--with-gang", help=WITH_GANG_HELP + " Applies to every deck."),
        without: Optional[str] = typer.Option(None, "--without", help=WITHOUT_HELP + " Applies to DECK."),
        full_table: bool = typer.Option(False, "--full-table", help="Head to head (--vs), table and Markdown: add each deck's lowball hand-rank distribution (always in CSV and JSON)."),
        hands: bool = typer.Option(False, "--hands", help="List every distinct lowball hand DECK can deal (exact), lowest first, with its probability."),
        fmt: Format = typer.Option(Format.table, "--format", "-f", help=FORMAT_HELP),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help=OUTPUT_HELP),
    ) -> None:
        """Lowball (Gamblin') odds: hand-rank distribution and P(cheatin'), head to head, or at a table."""
        check_output(output)
        check_sampling(trials, workers)
        vs = list(vs or [])
        if players is not None and not 2 <= players <= L.MAX_PLAYERS:
            raise OddsmithError(f"--players must be 2..{L.MAX_PLAYERS}, got {players}")
        if players is not None and len(vs) > players - 1:
            raise OddsmithError(f"--players {players} leaves room for {players - 1} --vs deck(s), got {len(vs)}")
        n_players = players if players is not None else (1 + len(vs) if vs else 1)
        check_one_stdin([deck, *vs])
        main = load(deck, partial, without, with_gang)
        loaded: dict[str, Deck] = {}
        opponents = []
        for spec in vs:
            if spec not in loaded:
                loaded[spec] = load(spec, partial, with_gang=with_gang)
            opponents.append(loaded[spec])
        while len(opponents) < n_players - 1:
            opponents.append(opponents[-1] if opponents else main)
        if hands and (n_players > 1 or exact is False or trials is not None):
            raise OddsmithError("--hands lists one deck's hands exactly: drop --vs, --players, --simulate and --trials")
        is_exact = exact_mode(exact, trials, n_players <= 2,
                              refuse="multiplayer Gamblin' is only simulated: drop --exact")
        n_trials = trials if trials is not None else L.DEFAULT_TRIALS
        used_seed = None if is_exact else resolve_seed(seed)
        if hands:
            odds = L.lowball_odds(main, name=deck_label(main))
            text = _render_hands(odds, fmt)
        elif n_players == 1:
            odds = L.lowball_odds(main, exact=is_exact, trials=n_trials, seed=used_seed, workers=workers,
                                  name=deck_label(main))
            text = _render_single(odds, fmt)
        elif n_players == 2:
            g = L.gamblin_odds(main, opponents[0], exact=is_exact, trials=n_trials, seed=used_seed,
                               workers=workers, names=(deck_label(main), deck_label(opponents[0])))
            text = _render_matchup(g, fmt, full_table)
        else:
            decks = [main, *opponents]
            t = L.table_odds(decks, trials=n_trials, seed=used_seed, workers=workers,
                             names=[deck_label(d) for d in decks])
            text = _render_table(t, fmt)
        if fmt in (Format.table, Format.md):
            text += "\n" + deck_state_lines([main, *opponents][:n_players], fmt)
        emit(text, output)

    @app.command("pull")
    def pull_cmd(
        deck: str = typer.Argument(..., help=DECK_HELP, metavar="DECK"),
        skill: Optional[int] = typer.Option(None, "--skill", help="Skill test: the dude's skill rating (without --difficulty: a table by difficulty)."),
        difficulty: Optional[int] = typer.Option(None, "--difficulty", help="Skill test difficulty (without --skill: a table by skill rating 0..5)."),
        kung_fu: Optional[int] = typer.Option(None, "--kung-fu", "-k", help="Kung Fu test: the dude's Kung Fu rating (added to its value)."),
        dude_value: Optional[int] = typer.Option(None, "--dude-value", help="Kung Fu test: the dude's printed value (without it: a table over 1..13)."),
        suit: Optional[str] = typer.Option(None, "--suit", help="Suit pull: suits that pass (spades, H, ♦, red, black; comma list)."),
        value: Optional[str] = typer.Option(None, "--value", help="Value pull: values that pass (8, 8+, <=5, 3-7, J-K; comma list)."),
        seen: Optional[str] = typer.Option(None, "--seen", help="Cards already seen (discard pile, hand, in play), removed before the pull: " + WITHOUT_HELP),
        partial: bool = typer.Option(False, "--partial", help=PARTIAL_HELP),
        with_gang: bool = typer.Option(False, "--with-gang", help=WITH_GANG_HELP),
        without: Optional[str] = typer.Option(None, "--without", help=WITHOUT_HELP),
        fmt: Format = typer.Option(Format.table, "--format", "-f", help=FORMAT_HELP),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help=OUTPUT_HELP),
    ) -> None:
        """Exact pull odds: skill tests, Kung Fu tests, suit and value pulls (jokers wild).

        With no test given, prints what a pull reveals, value by value."""
        check_output(output)
        kinds = [k for k, on in (("skill test", skill is not None or difficulty is not None),
                                 ("Kung Fu test", kung_fu is not None or dude_value is not None),
                                 ("pull", suit is not None or value is not None)) if on]
        if len(kinds) > 1:
            raise OddsmithError(f"choose one kind of pull: got {' and '.join(kinds)} options")
        base = load(deck, partial, without, with_gang)
        if seen:
            try:
                base = base.without(seen)
            except OddsmithError as exc:
                raise OddsmithError(str(exc).replace("--without", "--seen")) from None
        kind = kinds[0] if kinds else "value table"
        if kind == "skill test":
            df = P.skill_test_odds(base, skill, difficulty)
            title = "Skill test: pull + skill rating >= difficulty (a joker counts as a king)"
        elif kind == "Kung Fu test":
            df = P.kung_fu_test_odds(base, dude_value, kung_fu if kung_fu is not None else 0)
            title = "Kung Fu test: pull <= dude's value + Kung Fu rating, at most 13 (a joker passes)"
        elif kind == "pull":
            df = P.pull_odds(base, suits=suit, values=value)
            title = "Pull (a joker passes)"
        else:
            df = P.value_pull_table(base)
            title = "What a pull reveals: P(exactly / at least / at most each value), jokers wild"
        meta = _pull_meta(base, kind)
        foot = ""
        if kind == "value table":
            jokers = len(base) - int(df["cards_of_value"].sum())
            meta["jokers"] = jokers
            if jokers:
                foot = "\n" + note(f"p_exactly counts each of the {jokers} joker{'s' if jokers > 1 else ''} in every "
                                   f"row (a joker passes a pull for any value), so the column sums to "
                                   f"{df['p_exactly'].sum():.4f}, not 1; cards_of_value and cards are counts of cards.")
        if fmt is Format.json:
            payload: dict[str, Any] = {**meta, "rows": df}
            if len(df) == 1 and "p_success" in df:
                payload["p_success"] = float(df["p_success"].iloc[0])
            text = dumps_json(payload)
        elif fmt is Format.csv:
            text = format_frame(with_deck_state(df, base.deck_state), fmt)
        else:
            head = f"{title}\n{deck_label(base)}: {len(base)} cards left, exact"
            if fmt is Format.md:
                head = "## " + head.replace("\n", "\n\n")
            text = f"{head}\n\n{format_frame(df, fmt, float_digits=4)}{foot}\n{deck_state_lines([base], fmt)}"
        emit(text, output)
