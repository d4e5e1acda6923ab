"""`oddsmith deck ...`: read, validate and summarise deck lists; list the shipped sample decks.

* ``oddsmith deck show DECK``: the validated summary of a deck (a file, ``-``
  for stdin, or a shipped sample name): cards per value and suit, duplicates,
  jokers, starting gang, warnings.
* ``oddsmith deck list``: the shipped sample decks.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from oddsmith.commands.deck_draws import register_draws
from oddsmith import lazy
from oddsmith.doomtown.deck_format import DeckFormat
from oddsmith.output import Format, dumps_json, emit, fact_lines, format_frame

pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
deck_summary = lazy.function("oddsmith.doomtown.deck", "deck_summary")  # the deck readers need the rules
load_deck = lazy.function("oddsmith.doomtown.deck", "load_deck")
sample_decks = lazy.function("oddsmith.doomtown.deck", "sample_decks")

deck_app = typer.Typer(
    name="deck",
    help="Deck lists: validate and summarise a deck, list the shipped sample decks.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

DECK_HELP = "Deck file (plain card list, Value,Suit lines, CSV or a deck list by titles), '-' for stdin, " \
            "or the name of a shipped sample deck (see `oddsmith deck list`)."
PARTIAL_HELP = "Accept fewer than 52 valued cards (an incomplete deck)."
WITH_GANG_HELP = ("Count the full deck, the starting gang in the draw deck. Default: the deck as set-up leaves it, "
                  "the starting gang in play.")
WITHOUT_HELP = "Remove cards already seen: 'gang' (the starting gang), card tokens ('AS 8S', '2x 10H', " \
               "'Joker') or card titles, separated by ';' or ','. Repeatable."


def _display_counts(counts: pd.DataFrame, align: bool) -> pd.DataFrame:
    """The counts grid for text tables: A..K rows, Joker row with only its total, a total row."""
    shown = counts.drop(columns=["value"]).astype(object)
    suits = ["spades", "hearts", "diamonds", "clubs"]
    shown.loc[shown["card"] == "Joker", suits] = ""
    total = {"card": "total", **{s: int(counts[s].sum()) for s in suits}, "total": int(counts["total"].sum())}
    shown = pd.concat([shown, pd.DataFrame([total])], ignore_index=True).astype(str)
    if align:  # text columns print left-aligned: pad the numbers to align them right
        for col in suits + ["total"]:
            width = max(len(col), shown[col].str.len().max())
            shown[col] = shown[col].str.rjust(width)
    return shown


def render_summary(summary: dict, fmt: Format) -> str:
    """The text of `oddsmith deck show` in one output format."""
    counts: pd.DataFrame = summary["counts"]
    dups: pd.DataFrame = summary["duplicates"]
    if fmt is Format.json:
        return dumps_json(summary)
    if fmt is Format.csv:
        return format_frame(counts.assign(deck_state=summary["deck_state"]), fmt)
    facts = [
        ("deck", summary["name"]),
        ("source", summary["source"] + (f" ({summary['format']} format)" if summary["format"] else "")),
        ("deck used", f"{summary['deck_state']}, {summary['cards']} cards"),
        ("outfit", summary["outfit"] or "none listed"),
        ("valued cards", f"{summary['valued_cards']}" + (" (partial)" if summary["partial"] else "")
         + (f" in the draw deck, {summary['valued_cards'] + len(summary['starting_gang'])} listed"
            if summary["deck_state"].startswith("after set-up") and not summary["removed"] else "")),
        ("jokers", str(summary["jokers"])),
        ("most copies of one card", str(summary["max_copies"])),
    ]
    if summary["starting_gang"]:
        facts.append(("starting gang", "; ".join(summary["starting_gang"])))
    if summary["removed"]:
        facts.append(("removed", "; ".join(summary["removed"])))
    warnings = summary["warnings"] or ["none"]
    if fmt is Format.md:
        parts = [f"## {summary['name']}\n", "\n".join(f"- **{k}**: {v}" for k, v in facts) + "\n",
                 format_frame(_display_counts(counts, False), fmt, title="Cards per value and suit")]
        if not dups.empty:
            parts.append(format_frame(dups, fmt, title="Duplicates (cards sharing suit and value)"))
        parts.append("### Warnings\n\n" + "\n".join(f"- {w}" for w in warnings) + "\n")
        return "\n".join(parts)
    parts = [fact_lines(facts),
             format_frame(_display_counts(counts, True), fmt, title="cards per value and suit")]
    parts.append(format_frame(dups, fmt, title="duplicates (cards sharing suit and value)") if not dups.empty
                 else "duplicates: none\n")
    parts.append("warnings:\n" + "\n".join(f"- {w}" for w in warnings) + "\n")
    return "\n".join(parts)


@deck_app.command("show")
def show(
    deck: str = typer.Argument(..., metavar="DECK", help=DECK_HELP),
    partial: bool = typer.Option(False, "--partial", help=PARTIAL_HELP),
    with_gang: bool = typer.Option(False, "--with-gang", help=WITH_GANG_HELP),
    without: Optional[List[str]] = typer.Option(None, "--without", metavar="CARDS", help=WITHOUT_HELP),
    deck_format: Optional[DeckFormat] = typer.Option(
        None, "--deck-format", case_sensitive=False, help="Read the deck in this format instead of detecting it."),
    card_table: Optional[Path] = typer.Option(
        None, "--card-table", help="Card table CSV (title, type, suit, value, ...) instead of the shipped one."),
    fmt: Format = typer.Option(Format.table, "--format", "-f", case_sensitive=False, help="Output format."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Validate a deck and print its summary: counts per value and suit, duplicates, jokers, warnings."""
    loaded = load_deck(deck, format=deck_format, partial=partial, without=without or None, card_table=card_table,
                       with_gang=with_gang)
    emit(render_summary(deck_summary(loaded), fmt), output)


@deck_app.command("list")
def list_samples(
    fmt: Format = typer.Option(Format.table, "--format", "-f", case_sensitive=False, help="Output format."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """List the sample decks shipped with oddsmith (usable wherever a DECK is asked for)."""
    samples = sample_decks()
    samples["outfit"] = samples["outfit"].fillna("")
    emit(format_frame(samples, fmt), output)


register_draws(deck_app)


def register(app: typer.Typer) -> None:
    from oddsmith.commands.deck_tune import register_tune

    register_tune(deck_app)
    app.add_typer(deck_app, name="deck")

