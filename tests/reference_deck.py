"""Plain, slow, obviously-right reference for reading and validating a deck (tests only).

Each function does its job one pandas step at a time, as the rules read (Rulebook "Deck Building", "Jokers",
"Legends"; Quick reference "Experienced"; "Setting Up the Game", 4. Choose Starting Dudes), with no shortcut:
``oddsmith.doomtown.deck`` counts over plain lists and picks rows out with pandas only to name a broken rule, and
builds its frames column by column; the tests hold it to these.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from oddsmith.doomtown.cardtable import INTEGER_COLUMNS, CardTable, title_key
from oddsmith.doomtown.cards import format_card
from oddsmith.doomtown.deck import DECK_COLUMNS, _lines_text, _starting_gang_warnings
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import DECK_RULES, JOKER_CODE, deck_building_title


def cards_frame(rows: list[dict]) -> pd.DataFrame:
    """A deck's cards frame: the rows as records, then each column given its dtype (text as Python objects, None
    where missing)."""
    df = pd.DataFrame.from_records(rows, columns=list(DECK_COLUMNS))
    for col in ("value", "bullets", "influence", "upkeep", "line"):
        df[col] = df[col].astype("Int64")
    df["code"] = df["code"].astype(np.uint8)
    df["starting"] = df["starting"].astype(bool)
    for col in ("card", "title", "type", "suit", "shooter"):
        df[col] = df[col].astype(object).where(df[col].notna(), None)
    return df


def card_table_frame(records: list[dict]) -> pd.DataFrame:
    """A card table's frame before its columns are put in order: the records, whole numbers as Int64, text as
    Python objects (None where missing), and each title's matching key."""
    frame = pd.DataFrame.from_records(records)
    for col in INTEGER_COLUMNS:
        frame[col] = frame[col].astype("Int64")
    for col in ("title", "type", "suit", "shooter", "faction", "keywords"):
        frame[col] = frame[col].astype(object).where(frame[col].notna(), None)
    frame["key"] = [title_key(t) for t in frame["title"]]
    return frame


def _first_over(keys: pd.Series, most: int):
    counts = keys.value_counts(sort=False)
    over = counts.index[counts.to_numpy() > most]
    return min(over) if len(over) else None


def validate_deck(cards: pd.DataFrame, *, partial: bool = False, name: str = "deck",
                  outfits: Sequence[str] = (), legends: Sequence[str] = (),
                  table: CardTable | None = None) -> list[str]:
    """The rules checked in the order they are named, each over the frame; the same errors and warnings as
    ``oddsmith.doomtown.deck.validate_deck``."""
    rules = DECK_RULES
    if cards.empty:
        raise OddsmithError(f"{name}: no cards")
    jokers = cards[cards["code"] == JOKER_CODE]
    if len(jokers) > rules.max_jokers:
        raise OddsmithError(f"{name}: {len(jokers)} jokers; a deck holds at most {rules.max_jokers} "
                            f"(Deck Building){_lines_text(jokers['line'].tolist())}")
    valued = cards[cards["code"] != JOKER_CODE]
    code = _first_over(valued["code"], rules.max_per_suit_and_value)
    if code is not None:
        group = valued[valued["code"] == code]
        raise OddsmithError(
            f"{name}: {len(group)} copies of {format_card(int(code))}; a deck holds at most "
            f"{rules.max_per_suit_and_value} cards sharing suit and value{_lines_text(group['line'].tolist())}")
    titled = cards[cards["title"].notna()]
    if not titled.empty:
        keys = titled["title"].map(lambda t: title_key(deck_building_title(t)))
        key = _first_over(keys, rules.max_per_title)
        if key is not None:
            group = titled[keys == key]
            versions = list(dict.fromkeys(str(t) for t in group["title"]))
            what = repr(versions[0]) if len(versions) == 1 else \
                f"{deck_building_title(versions[0])!r} ({', '.join(versions)}: versions of one card)"
            raise OddsmithError(
                f"{name}: {len(group)} copies of {what}; a deck holds at most "
                f"{rules.max_per_title} cards sharing a title{_lines_text(group['line'].tolist())}")
    n = len(valued)
    if n > rules.valued_cards:
        raise OddsmithError(f"{name}: {n} valued cards; a deck holds exactly {rules.valued_cards} "
                            f"(Deck Building)")
    if n < rules.valued_cards and not partial:
        raise OddsmithError(f"{name}: {n} valued cards; a deck holds exactly {rules.valued_cards} "
                            f"(use --partial, or partial=True, to analyse an incomplete deck)")
    if len(outfits) > rules.outfits:
        raise OddsmithError(f"{name}: {len(outfits)} outfits ({', '.join(outfits)}); a deck has "
                            f"{rules.outfits}")
    if len(legends) > rules.max_legends:
        raise OddsmithError(f"{name}: {len(legends)} legends ({', '.join(legends)}); a deck has at most "
                            f"{rules.max_legends}")
    warnings = []
    for _, row in cards[cards["starting"] & (cards["type"] != "dude")].iterrows():
        warnings.append(f"{row['title'] or row['card']} is in the starting gang but is not a dude"
                        f"{_lines_text([row['line']])}")
    if table is not None:
        warnings += _starting_gang_warnings(cards[cards["starting"] & (cards["type"] == "dude")], outfits, table)
    if table is not None and not titled.empty and "copies_in_box" in table.frame:
        for title, copies in titled["title"].value_counts(sort=False).sort_index().items():
            card = table.find(str(title))
            box = None if card is None else card.get("copies_in_box")
            if box is not None and box is not pd.NA and copies > int(box):
                warnings.append(f"{copies} copies of {str(title)!r}; the box holds {int(box)}")
    return warnings
