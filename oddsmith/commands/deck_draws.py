"""`oddsmith deck draws`: exact odds of holding given cards in the play hand, day by day.

``oddsmith deck draws DECK --card TITLE [--card ...] [--type T] [--keyword K]
[--value V] [--all QUERY] [--day N] [--at-least K]``: one row per query and
day (:mod:`oddsmith.doomtown.draws`). JSON rows carry ``query``, ``day``,
``p_at_least_1`` (and ``p_at_least`` with ``--at-least``), ``expected``;
docs/doomtown.md, "What you will draw". Heavy modules are imported inside
the command (the CLI starts without pandas).
"""
from __future__ import annotations

from typing import List, Optional

import typer

DECK_HELP = "Deck file, '-' for stdin, or a shipped sample deck name (see `oddsmith deck list`)."
QUERY_HELP = ("A conjunction: parts joined by ';', each met by its own cards, e.g. 'type:deed; stud:2' (a deed and a "
              "stud dude with 2 or more bullets). A part is card:TITLE, type:T, keyword:K, value:V, stud:N or draw:N, "
              "several on one card joined by '&' ('stud:1 & keyword:deputy'), with an optional count ('2x type:deed').")


def register_draws(deck_app: typer.Typer) -> None:
    """Add ``draws`` to ``oddsmith deck``."""

    @deck_app.command("draws")
    def draws_cmd(
        deck: str = typer.Argument(..., metavar="DECK", help=DECK_HELP),
        card: Optional[List[str]] = typer.Option(None, "--card", metavar="TITLE",
                                                 help="A card by title (every Experienced version of a dude counts "
                                                      "unless the title names one). Repeatable."),
        type_: Optional[List[str]] = typer.Option(None, "--type", metavar="T",
                                                  help="A card type: dude, deed, goods, spell, action, joker. Repeatable."),
        keyword: Optional[List[str]] = typer.Option(None, "--keyword", metavar="K",
                                                    help="A keyword (Saloon, Deputy, Huckster, Weapon ...). Repeatable."),
        value: Optional[List[str]] = typer.Option(None, "--value", metavar="V",
                                                  help="A card value (A, 2..10, J, Q, K). Repeatable."),
        all_: Optional[List[str]] = typer.Option(None, "--all", metavar="QUERY", help=QUERY_HELP + " Repeatable."),
        day: Optional[List[int]] = typer.Option(None, "--day", metavar="N",
                                                help="Day: 0 is the opening play hand after set-up, N the play hand "
                                                     "after N days' Gamblin' and Nightfall draws. Repeatable; "
                                                     "default 0 to 3."),
        at_least: Optional[int] = typer.Option(None, "--at-least", metavar="K",
                                               help="Also give P(at least K) (the count of every --all part without "
                                                    "its own)."),
        plays: int = typer.Option(1, "--plays", metavar="P",
                                  help="Cards played from the play hand each day (0..5); Nightfall refills them."),
        nightfall_discard: bool = typer.Option(True, "--nightfall-discard/--no-nightfall-discard",
                                               help="Discard one card at Nightfall before refilling (the book's "
                                                    "'may discard one card'; default: yes)."),
        partial: bool = typer.Option(False, "--partial", help="Accept an incomplete deck (fewer than 52 valued cards)."),
        with_gang: bool = typer.Option(False, "--with-gang",
                                       help="Keep the starting gang in the draw deck. Default: the deck as set-up "
                                            "leaves it, the starting gang in play."),
        without: Optional[List[str]] = typer.Option(None, "--without", metavar="CARDS",
                                                    help="Cards already out of the deck: card tokens, titles or 'gang'."),
        fmt: str = typer.Option("table", "--format", "-f", help="Output format: table, csv, json or md."),
        output: Optional[str] = typer.Option(None, "--output", "-o",
                                             help="Write to this file instead of stdout (written atomically)."),
    ) -> None:
        """Exact odds of holding given cards in the play hand: opening hand (day 0) and by day N.

        Day N counts every card drawn into the play hand by the end of day N (the
        opening five, then each Nightfall's refill); Gamblin' hands are drawn and
        discarded in between. Policy: --plays cards leave the hand each day and one
        more is discarded at Nightfall (docs/rules-doomtown.md, 'Cards through the days').
        """
        from oddsmith.commands._common import check_output, deck_state_lines, load
        from oddsmith.doomtown import draws as D
        from oddsmith.errors import OddsmithError
        from oddsmith.output import Format, dumps_json, emit, format_frame, note

        try:
            out_fmt = Format(fmt.strip().casefold())
        except ValueError:
            raise OddsmithError(f"--format {fmt!r}: use table, csv, json or md") from None
        check_output(output)
        policy = D.DayPolicy(plays=plays, nightfall_discard=nightfall_discard)
        if at_least is not None:
            D.check_whole(at_least, "--at-least", 1, D.DECK_RULES.max_deck_size)
        for d in day or ():
            D.check_whole(d, "--day", 0)
        loaded = load(deck, partial, ";".join(without) if without else None, with_gang)
        table = loaded.table
        queries = [D.single_query(kind, text, table) for kind, texts in
                   (("card", card), ("type", type_), ("keyword", keyword), ("value", value)) for text in texts or ()]
        queries += [D.parse_query(text, table, where="--all") for text in all_ or ()]
        odds = D.deck_draws(loaded, queries, days=day, at_least=at_least, policy=policy)
        emit(_render(odds, out_fmt, deck_state_lines([loaded], out_fmt), format_frame, dumps_json, note, Format),
             output)


def _render(odds, fmt, deck_lines: str, format_frame, dumps_json, note, Format) -> str:
    """The text of `oddsmith deck draws` in one format."""
    if fmt is Format.json:
        return dumps_json({"command": "deck draws", **odds.to_json()})
    rows = odds.rows.copy()
    if rows["p_at_least"].isna().all():
        rows = rows.drop(columns=["p_at_least"])
    if fmt is Format.csv:
        rows["deck_state"] = odds.deck_state
        rows["policy"] = odds.policy.name
        return format_frame(rows, fmt, float_digits=6)
    k = odds.at_least
    shown = rows.rename(columns={"cards_drawn": "in hand", "matching": "in deck", "p_at_least_1": "P(>=1)",
                                 "p_at_least": f"P(>={k})" if k is not None else "P(count)"})
    shown = shown.drop(columns=["kind"])
    title = (f"What you will draw from {odds.deck}: {odds.deck_cards} cards, exact; policy {odds.policy.name} "
             f"(Nightfall draws {odds.policy.refill} a day)")
    counted = "P(count)" in shown.columns or k is not None
    text = ("'in hand': cards drawn into the play hand by the end of that day (day 0: the opening hand); "
            "'in deck': the deck's cards matching the query; expected: how many of them are drawn by then.")
    if (rows["kind"] == "all").any():
        text += (" A query joined by ';' needs a distinct card for each part: P(>=1) is every part at least once"
                 + (f", P(>={k})" if k is not None else ", P(count)" if counted else "")
                 + (" every part its own count ('2x ...')" + (f" or {k}" if k is not None else "") if counted else "")
                 + ".")
    foot = note(text)
    head = f"## {title}\n\n" if fmt is Format.md else note(title)
    return f"{head}{deck_lines}\n{format_frame(shown, fmt, float_digits=6)}\n{foot}"
