"""Doomtown decks: reading deck lists, validating them, removing cards already seen.

A :class:`Deck` holds one row per card in :attr:`Deck.cards` (see
:data:`DECK_COLUMNS`) and gives the kernels :meth:`Deck.codes` (numpy uint8,
code = (value - 1) * 4 + suit, joker 52, as in :mod:`oddsmith.rules.doomtown`).

Deck files come in four formats (:class:`DeckFormat`), detected from the text
unless forced:

``cards``
    card tokens (:mod:`oddsmith.doomtown.cards`: ``AS``, ``A♠``, ``10H``,
    ``TH``, ``Joker``), one card or several per line, with counts ``4x 8S``,
    ``8S x4``.
``valuesuit``
    the ``Value,Suit`` lines of an existing Doomtown draw calculator:
    ``13,S``, ``1,H``, ``Joker``.
``csv``
    a CSV with columns ``title``, ``type``, ``suit``, ``value`` and optional
    ``shooter`` (Stud/Draw), ``bullets``, ``influence``, ``upkeep``,
    ``count`` and ``starting`` (yes/no); blank facts of a known title are
    taken from the card table.
``titles``
    a deck list by card titles as deckbuilding sites export it (``2x Shotgun``,
    ``Shotgun x2``, ``2 Shotgun``), with section headers (``Dudes:``,
    ``Starting Gang:``, ``Deeds (12)``; ``Outfit: Law Dogs``; inline lists
    ``Starting Gang: Randall; Asakichi Cooke``), resolved through the card
    table (:mod:`oddsmith.doomtown.cardtable`).

Analyses draw from the deck as set-up leaves it (:meth:`Deck.after_set_up`:
the starting gang in play, Rulebook "Setting Up the Game"), or from the full
deck on request (``with_gang``); :func:`load_deck` and :func:`resolve_deck`
(the one resolver behind every deck-taking API) do this; see
docs/rules-set-up.md.

In every format ``#`` starts a comment (at the start of a line, or after a
space and followed by a space). Comment lines ``# name: ...`` name the deck
and ``# partial: reason`` marks an incomplete list. The readers of the four
formats are :mod:`oddsmith.doomtown.deck_lists` (the reading step).

Validation follows Rulebook "Deck Building" through
:data:`oddsmith.rules.doomtown.DECK_RULES`: exactly 52 valued cards (fewer
with ``partial``), at most 4 sharing suit and value, at most 4 sharing a
title, up to 2 jokers, one outfit and at most one legend (not counted).
"""
from __future__ import annotations

import enum
import os
import re
import weakref
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from oddsmith import lazy

np = lazy.module("numpy")  # light at start-up: docs/design.md, 'Start-up'
pd = lazy.module("pandas")

from oddsmith.doomtown.cards import CARD_HELP, format_card, parse_card, parse_hand
from oddsmith.doomtown.cardtable import (
    CardTable,
    card_table as _card_table,
    split_items,
    title_key,
)
from oddsmith.textinput import decode_text, read_text
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import (
    DECK_RULES,
    STARTING_GANG_RULES,
    JOKER_CODE,
    N_SUITS,
    N_VALUES,
    VALUE_LABELS,
    deck_building_title,
)
from oddsmith.notebook import notebook_view
from oddsmith.doomtown.deck_lists import (  # the reading step, re-exported: importable from here as before
    _SUIT_NAMES,
    DeckFormat,
    _card_items,
    _check_room,
    _check_size,
    _content_lines,
    _format,
    _read_cards,
    _read_csv,
    _read_titles,
    _read_valuesuit,
    _row,
    _row_from_table,
    _section,
    _title_entries,
    detect_format,
)

#: Columns of :attr:`Deck.cards`, one row per card.
DECK_COLUMNS = (
    "card",      # the card as text: "8♠", "10♥", "Joker"
    "title",     # printed title, or None in a plain card list
    "type",      # dude, deed, goods, spell, action, joker; None when unknown (plain lists)
    "suit",      # spades, hearts, diamonds, clubs; None for jokers
    "value",     # 1..13 (Int64; NA for jokers)
    "code",      # kernel code (uint8): (value - 1) * 4 + suit, joker 52
    "shooter",   # dudes: "stud" or "draw"; else None
    "bullets",   # dudes: bullet rating (Int64, NA when unknown)
    "influence",  # dudes: influence (Int64)
    "upkeep",    # dudes: upkeep (Int64)
    "starting",  # bool: in the starting gang
    "line",      # line of the source file the card comes from (Int64; NA when built in code)
)

# --------------------------------------------------------------------------
# The Deck
# --------------------------------------------------------------------------


class DeckState(str, enum.Enum):
    """Which deck an analysis draws from (Rulebook "Setting Up the Game"; docs/rules-set-up.md).

    ``listed``: as read, the starting gang (if any) still among the cards;
    analyses never use this state, they set the deck up first (:func:`set_up`).
    ``after_set_up``: the draw deck after set-up, the starting gang in play
    (the default for analysis). ``full``: every listed card in the draw deck,
    the starting gang included (asked for with ``with_gang``), or a deck with
    no starting gang, which set-up leaves whole.
    """

    listed = "listed"
    after_set_up = "after set-up"
    full = "full"


#: :attr:`Deck.deck_state` of each deck asked (decks are compared by identity; kept outside the deck so that
#: a pickled deck, which the report's cache key hashes, is the same whether it was asked or not).
_DECK_STATES: "weakref.WeakKeyDictionary[Deck, str]" = weakref.WeakKeyDictionary()


@notebook_view
@dataclass(frozen=True, eq=False)
class Deck:
    """A validated Doomtown deck (or part of one, when ``partial``).

    ``cards`` has the columns :data:`DECK_COLUMNS`: the cards an analysis
    draws from. ``outfit`` and ``legend`` are titles (not counted among the
    cards); ``warnings`` are problems that do not make the deck unusable;
    ``removed`` lists what :meth:`without` took out. ``state`` says whether
    the starting gang has been put into play (:class:`DeckState`); ``in_play``
    holds its rows once it has (:meth:`after_set_up`).
    """

    name: str
    cards: pd.DataFrame
    partial: bool = False
    source: str = ""
    format: DeckFormat | None = None
    outfit: str | None = None
    legend: str | None = None
    warnings: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    table: CardTable | None = field(default=None, repr=False)
    state: DeckState = DeckState.listed
    in_play: pd.DataFrame | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.cards)

    def codes(self) -> np.ndarray:
        """Kernel codes of the cards (uint8, one per card, row order; jokers 52)."""
        return self.cards["code"].to_numpy(dtype=np.uint8)

    def counts(self) -> np.ndarray:
        """Copies of each code 0..52 (int64, length 53)."""
        return np.bincount(self.codes(), minlength=JOKER_CODE + 1).astype(np.int64)

    @property
    def valued_cards(self) -> int:
        return int((self.cards["code"] != JOKER_CODE).sum())

    @property
    def jokers(self) -> int:
        return int((self.cards["code"] == JOKER_CODE).sum())

    def starting_gang(self) -> pd.DataFrame:
        """The rows of the starting gang, whether still among the cards or in play after set-up."""
        parts = [p for p in (self.in_play, self.cards[self.cards["starting"]]) if p is not None and not p.empty]
        if not parts:
            return self.cards.iloc[:0].reset_index(drop=True)
        return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0].reset_index(drop=True)

    def after_set_up(self) -> "Deck":
        """The draw deck as set-up leaves it: the starting gang put into play at home.

        Rulebook "Setting Up the Game", 4. Choose Starting Dudes ("put them into
        play simultaneously at home"); Quick reference "Setup" (4. Place dudes at
        your home, 5. Shuffle your remaining deck). A deck with no starting gang
        is left whole (state ``full``). See docs/rules-set-up.md.
        """
        if self.state is DeckState.after_set_up:
            return self
        gang = self.cards["starting"]
        if not gang.any():
            return replace(self, state=DeckState.after_set_up if self.in_play is not None and not self.in_play.empty
                           else DeckState.full)
        in_play = self.cards[gang] if self.in_play is None else pd.concat([self.in_play, self.cards[gang]])
        return replace(self, cards=self.cards[~gang].reset_index(drop=True), in_play=in_play.reset_index(drop=True),
                       state=DeckState.after_set_up)

    def with_gang(self) -> "Deck":
        """The full deck: the starting gang kept in (or put back into) the draw deck (``--with-gang``)."""
        if self.in_play is None or self.in_play.empty:
            return replace(self, state=DeckState.full)
        frame = pd.concat([self.in_play, self.cards], ignore_index=True)
        if frame["line"].notna().all():  # back in the order of the deck list
            frame = frame.sort_values("line", kind="stable").reset_index(drop=True)
        return replace(self, cards=frame, in_play=None, state=DeckState.full)

    @property
    def deck_state(self) -> str:
        """Which deck this is, in words: ``after set-up (starting gang in play: ...)``,
        ``full deck (starting gang kept in the draw deck: ...)`` or ``full deck (no starting gang listed)``."""
        said = _DECK_STATES.get(self)  # worked out once: every result of a report names its deck
        if said is None:
            said = _DECK_STATES[self] = self._say_deck_state()
        return said

    def _say_deck_state(self) -> str:
        gang = self.starting_gang()
        names = "; ".join(str(t) if t else str(c) for t, c in zip(gang["title"], gang["card"]))
        if gang.empty:
            return "full deck (no starting gang listed)"
        if self.state is DeckState.after_set_up:
            return f"after set-up (starting gang in play: {names})"
        if self.state is DeckState.full:
            return f"full deck (starting gang kept in the draw deck: {names})"
        return f"as listed (starting gang among the cards: {names})"

    def without(self, cards: str | Iterable[str]) -> "Deck":
        """This deck minus cards already seen; the result is ``partial`` once cards are removed.

        ``cards`` is a text or a list of texts, each ``gang`` (the starting
        gang: puts it into play, as :meth:`after_set_up`; nothing to do once it
        is), card tokens (``AS 8S``, ``2x 8S``, ``Joker``) or card titles,
        separated by ``;`` or ``,``. A card that is not (or no longer) in the
        deck raises OddsmithError.
        """
        items = [cards] if isinstance(cards, str) else list(cards)
        deck = self
        frame = self.cards
        removed = list(self.removed)
        for item in items:
            table = self.table if self.table is not None else _card_table()
            for kind, what, count in _removal_items(str(item), table):
                if kind == "gang":
                    if deck.starting_gang().empty:
                        raise OddsmithError("--without gang: the deck has no starting gang")
                    deck = replace(deck, cards=frame.reset_index(drop=True)).after_set_up()
                    frame = deck.cards
                    continue
                frame = _remove(frame, kind, what, count, deck.in_play)
                removed.append(_removal_label(kind, what, count))
        took_cards = len(removed) > len(self.removed)
        return replace(deck, cards=frame.reset_index(drop=True), partial=self.partial or took_cards,
                       removed=tuple(removed))

    def summary(self) -> dict:
        """The validated summary (:func:`deck_summary`)."""
        return deck_summary(self)


_INT64_COLUMNS = ("value", "bullets", "influence", "upkeep", "line")


def _missing(value: object) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)


def _frame(rows: list[dict]) -> pd.DataFrame:
    """The cards frame (:data:`DECK_COLUMNS`) of rows made by ``deck_lists._row``: text or None, whole numbers or
    NA. Built column by column with its dtype, about a quarter of the time of converting a frame of records."""
    columns: dict[str, object] = {}
    for col in DECK_COLUMNS:
        values = [r[col] for r in rows]
        if col in _INT64_COLUMNS:
            columns[col] = pd.array(values, dtype="Int64")
        elif col == "code":
            columns[col] = np.array(values, dtype=np.uint8)
        elif col == "starting":
            columns[col] = np.array(values, dtype=bool)
        else:  # text stays in Python objects, None where missing (pandas 3 would infer its str dtype)
            columns[col] = pd.Series([None if _missing(v) else v for v in values], dtype=object)
    return pd.DataFrame(columns, columns=list(DECK_COLUMNS))


def deck_from_codes(codes: Iterable[int], *, name: str = "deck", partial: bool = False) -> Deck:
    """A validated deck of plain cards from kernel codes (0..51, joker 52)."""
    rows: list[dict] = []
    for code in codes:
        code = int(code)
        if not 0 <= code <= JOKER_CODE:
            raise OddsmithError(f"{name}: card code {code} is not 0..52")
        _check_room(rows, 1, name)
        rows.append(_row(code, line=None))
    frame = _frame(rows)
    warnings = validate_deck(frame, partial=partial, name=name)
    return Deck(name=name, cards=frame, partial=partial, source="codes", warnings=tuple(warnings))


# --------------------------------------------------------------------------
# Validation (Rulebook "Deck Building", "Jokers", "Legends"; DECK_RULES)
# --------------------------------------------------------------------------


def _lines_text(lines: Sequence[object]) -> str:
    known = sorted({int(x) for x in lines if x is not pd.NA and x is not None})
    if not known:
        return ""
    shown = ", ".join(str(x) for x in known[:6]) + (", ..." if len(known) > 6 else "")
    return f" (line{'s' if len(known) > 1 else ''} {shown})"


def validate_deck(cards: pd.DataFrame, *, partial: bool = False, name: str = "deck",
                  outfits: Sequence[str] = (), legends: Sequence[str] = (),
                  table: CardTable | None = None) -> list[str]:
    """Check ``cards`` (columns :data:`DECK_COLUMNS`) against the deck-construction rules.

    Breaking a rule raises OddsmithError naming the cards and their lines:
    more than 4 cards sharing suit and value or sharing a title, more than 2
    jokers, more than 52 valued cards, fewer than 52 unless ``partial``, more
    than one outfit or legend. Returns warnings (facts that do not break a
    rule but deserve a look: more copies than the box holds, a starting gang
    member that is not a dude, no outfit in a deck list by titles).
    """
    rules = DECK_RULES
    if cards.empty:
        raise OddsmithError(f"{name}: no cards")
    # Counted over plain lists (a deck is validated at every load, before anything runs); the rows are picked out
    # with pandas only where a rule is broken, to name them.
    codes, titles = cards["code"].tolist(), cards["title"].tolist()
    if codes.count(JOKER_CODE) > rules.max_jokers:
        jokers = cards[cards["code"] == JOKER_CODE]
        raise OddsmithError(f"{name}: {len(jokers)} jokers; a deck holds at most {rules.max_jokers} "
                            f"(Deck Building){_lines_text(jokers['line'].tolist())}")
    valued_codes = [c for c in codes if c != JOKER_CODE]
    # the first group over the limit in sorted order, as it is named
    code = _first_over(valued_codes, rules.max_per_suit_and_value)
    if code is not None:
        group = cards[cards["code"] == code]
        raise OddsmithError(
            f"{name}: {len(group)} copies of {format_card(int(code))}; a deck holds at most "
            f"{rules.max_per_suit_and_value} cards sharing suit and value{_lines_text(group['line'].tolist())}")
    titled = [not _missing(t) for t in titles]
    titled_titles = [t for t, has in zip(titles, titled) if has]
    if titled_titles:
        # Experienced versions of a dude count as the same card (Quick reference "Experienced").
        keys = [title_key(deck_building_title(t)) for t in titled_titles]
        key = _first_over(keys, rules.max_per_title)
        if key is not None:
            group = cards[titled][[k == key for k in keys]]
            versions = list(dict.fromkeys(str(t) for t in group["title"]))
            what = repr(versions[0]) if len(versions) == 1 else \
                f"{deck_building_title(versions[0])!r} ({', '.join(versions)}: versions of one card)"
            raise OddsmithError(
                f"{name}: {len(group)} copies of {what}; a deck holds at most "
                f"{rules.max_per_title} cards sharing a title{_lines_text(group['line'].tolist())}")
    n = len(valued_codes)
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
    starting, types = cards["starting"].tolist(), cards["type"].tolist()
    if any(starting):
        lines, shown = cards["line"].tolist(), cards["card"].tolist()
        for i, (start, kind) in enumerate(zip(starting, types)):
            if start and kind != "dude":
                warnings.append(f"{titles[i] or shown[i]} is in the starting gang but is not a dude"
                                f"{_lines_text([lines[i]])}")
        if table is not None:
            gang = [start and kind == "dude" for start, kind in zip(starting, types)]
            warnings += _starting_gang_warnings(cards[gang], outfits, table)
    if table is not None and titled_titles and "copies_in_box" in table.frame:
        copies_of: dict = {}
        for t in titled_titles:
            copies_of[t] = copies_of.get(t, 0) + 1
        for title in sorted(copies_of):
            copies = copies_of[title]
            card = table.record(str(title))
            box = None if card is None else card.get("copies_in_box")
            if box is not None and box is not pd.NA and copies > int(box):
                warnings.append(f"{copies} copies of {str(title)!r}; the box holds {int(box)}")
    return warnings


def _first_over(keys: list, most: int):
    """The smallest value of ``keys`` that occurs more than ``most`` times, or None."""
    counts: dict = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    over = [k for k, n in counts.items() if n > most]
    return min(over) if over else None


# --------------------------------------------------------------------------
# Reading deck text
# --------------------------------------------------------------------------

def _keywords(card: Mapping[str, object]) -> list[str]:
    text = card.get("keywords")
    return [] if text is None or text is pd.NA or not isinstance(text, str) else [
        k.strip().casefold() for k in text.split(";")]


def _starting_gang_warnings(gang: pd.DataFrame, outfits: Sequence[str], table: CardTable) -> list[str]:
    """What in the starting gang breaks STARTING_GANG_RULES (warnings: card text may allow it)."""
    rules = STARTING_GANG_RULES
    if gang.empty:
        return []
    warnings = []
    if len(gang) > rules.max_dudes:
        warnings.append(f"the starting gang has {len(gang)} dudes; it holds up to {rules.max_dudes} "
                        f"(Setting Up the Game)")
    outfit = table.record(outfits[0]) if outfits else None
    faction = None if outfit is None else outfit.get("faction")
    known = [(row, table.record(str(row["title"]))) for _, row in gang.iterrows() if row["title"]]
    known = [(row, card) for row, card in known if card is not None]
    for row, card in known:
        where = _lines_text([row["line"]])
        if isinstance(faction, str) and card.get("faction") not in (faction, rules.drifter_faction):
            warnings.append(f"{row['title']} ({card.get('faction')}) is in the starting gang of a {faction} "
                            f"outfit; starting dudes are of its faction or drifters{where}")
        if "gadget" in " ".join(_keywords(card)) and not rules.gadget_dudes:
            warnings.append(f"{row['title']} is a Gadget dude; it may start only if its own text says so{where}")
    grifters = [row["title"] for row, card in known if any(k.startswith("grifter") for k in _keywords(card))]
    if len(grifters) > rules.max_grifters:
        warnings.append(f"{len(grifters)} Grifters in the starting gang ({', '.join(grifters)}); "
                        f"at most {rules.max_grifters}")
    stash = None if outfit is None else outfit.get("starting_ghost_rock")
    costs = [card.get("cost") for _, card in known]
    if rules.costs_paid_from_stash and stash is not None and stash is not pd.NA and all(
            c is not None and c is not pd.NA for c in costs) and len(known) == len(gang):
        total = int(sum(int(c) for c in costs))
        if total > int(stash):
            warnings.append(f"the starting gang costs {total} ghost rock; {outfits[0]} starts with {int(stash)}")
    return warnings


# Section headers of deck lists: normalised name -> (card type expected, starting gang, outfit).
def parse_deck(text: str, *, name: str = "deck", source: str = "<text>", format: DeckFormat | str | None = None,
               partial: bool = False, card_table: CardTable | str | Path | None = None) -> Deck:
    """Read and validate a deck from its text.

    ``format`` forces a :class:`DeckFormat` (detected when None); ``partial``
    allows fewer than 52 valued cards (also set by a ``# partial:`` line);
    ``card_table`` is a :class:`CardTable`, a path to a user's table, or None
    for the shipped Weird West Edition table. Errors name ``source`` and the line.
    """
    _check_size(text, source)
    table = _card_table(card_table)
    fmt = detect_format(text) if format is None else _format(format)
    lines, meta = _content_lines(text)
    if not lines and fmt is not DeckFormat.csv:
        raise OddsmithError(f"{source}: no cards (only comments or blank lines)")
    if fmt is DeckFormat.cards:
        rows = _read_cards(lines, source)
    elif fmt is DeckFormat.valuesuit:
        rows = _read_valuesuit(lines, source)
    elif fmt is DeckFormat.csv:
        rows = _read_csv(text, source, table)
    else:
        rows = _read_titles(lines, source, table)
    warnings = [r["_warning"] for r in rows if "_warning" in r]
    names = [r["_name"] for r in rows if "_name" in r]
    outfits = [r["title"] for r in rows if r.get("_unvalued") == "outfit"]
    legends = [r["title"] for r in rows if r.get("_unvalued") == "legend"]
    frame = _frame([r for r in rows if "_warning" not in r and "_unvalued" not in r])
    deck_name = meta.get("name") or (names[0] if names else name)
    partial = partial or "partial" in meta
    warnings = validate_deck(frame, partial=partial, name=source, outfits=outfits, legends=legends,
                             table=table) + warnings
    if fmt is DeckFormat.titles and not outfits:
        warnings.append("no outfit listed (a deck has one; it is not counted among the cards)")
    if "partial" in meta and meta["partial"]:
        warnings.insert(0, f"partial deck: {meta['partial']}")
    return Deck(name=deck_name, cards=frame, partial=partial, source=source, format=fmt,
                outfit=outfits[0] if outfits else None, legend=legends[0] if legends else None,
                warnings=tuple(warnings), table=table)


# --------------------------------------------------------------------------
# Removing cards already seen
# --------------------------------------------------------------------------


def _removal_items(text: str, table: CardTable) -> list[tuple[str, object, int]]:
    """(kind, what, count) for a --without text: kind ``gang``, ``code`` or ``title``."""
    out: list[tuple[str, object, int]] = []
    for item in split_items(text, lambda s: table.find(_title_entries(s, "", table)[0]) is not None):
        where = f"--without {item!r}"
        if _section(item.rstrip(":")) == ("dude", True):
            out.append(("gang", None, 0))
            continue
        try:
            out.extend(("code", code, n) for code, n in _card_items(item, where))
            continue
        except OddsmithError:
            pass
        title, n = _title_entries(item, where, table)
        card = table.find(title)
        if card is None:
            hint = table.closest(title)
            raise OddsmithError(f"{where}: neither 'gang', a card ({CARD_HELP}) nor a known title"
                                + (f"; did you mean {hint!r}?" if hint else ""))
        out.append(("title", str(card["title"]), n))
    return out


def _remove(frame: pd.DataFrame, kind: str, what: object, count: int,
            in_play: pd.DataFrame | None = None) -> pd.DataFrame:
    for _ in range(count):
        if kind == "code":
            match = frame.index[frame["code"] == what]
            label = format_card(int(what))
        else:
            keys = frame["title"].map(lambda t: title_key(t) if t else "")
            match = frame.index[keys == title_key(str(what))]
            label = repr(what)
        if len(match) == 0:
            playing = in_play is not None and not in_play.empty and (
                (in_play["code"] == what).any() if kind == "code"
                else in_play["title"].map(lambda t: title_key(t) if t else "").eq(title_key(str(what))).any())
            why = (" (in play in the starting gang since set-up; --with-gang keeps the gang in the deck)" if playing
                   else " (or all its copies are already removed)")
            raise OddsmithError(f"--without: {label} is not in the deck{why}")
        # Prefer a card still in the draw deck over one of the starting gang.
        in_deck = [i for i in match if not frame.at[i, "starting"]]
        frame = frame.drop(index=(in_deck or list(match))[-1])
    return frame


def _removal_label(kind: str, what: object, count: int) -> str:
    label = format_card(int(what)) if kind == "code" else str(what)
    return label if count == 1 else f"{count}x {label}"


# --------------------------------------------------------------------------
# Decks as kernel input (what the lowball, shootout and pull analyses take)
# --------------------------------------------------------------------------

#: Largest deck the kernels take (a legal deck has at most 54 cards).
MAX_KERNEL_CARDS = 255
N_CODES = JOKER_CODE + 1


def card_codes(cards: object, what: str) -> list[int]:
    """Codes of ``cards``: card tokens (``8S``, ``K♥``, ``Joker``; a string may list several),
    objects with a ``code``, or integer codes 0..52. None is no card."""
    if cards is None:
        return []
    if isinstance(cards, str):
        return parse_hand(cards, where=what)
    out = []
    for i, c in enumerate(cards, 1):
        if isinstance(c, str):
            out.extend(card_codes(c, what))
        elif hasattr(c, "code"):
            out.append(int(c.code))
        else:
            try:
                code = int(c)
            except (TypeError, ValueError):
                raise OddsmithError(f"{what}: item {i} is neither a card token nor a card code 0..52") from None
            if not 0 <= code <= JOKER_CODE:
                raise OddsmithError(f"{what}: card code {code} (item {i}) is not 0..52")
            out.append(code)
    return out


def kernel_codes(deck: object) -> np.ndarray:
    """The deck as kernel codes (uint8, one entry per card; 52 = joker), validated.

    ``deck`` is a :class:`Deck` (its :meth:`Deck.codes`), a numpy array of
    codes, or any sequence of codes 0..52 or card tokens.
    """
    deck = resolve_deck(deck)
    if hasattr(deck, "codes") and callable(deck.codes):
        codes = np.asarray(deck.codes(), dtype=np.int64).ravel()
    elif isinstance(deck, np.ndarray):
        codes = deck.astype(np.int64).ravel()
    else:
        try:
            codes = np.asarray(card_codes(deck, "deck"), dtype=np.int64)
        except TypeError:  # not iterable
            raise OddsmithError("a deck is a Deck, card tokens or a list of card codes 0..52") from None
    if codes.size and (codes.min() < 0 or codes.max() > JOKER_CODE):
        raise OddsmithError("deck holds a card code outside 0..52")
    if codes.size > MAX_KERNEL_CARDS:
        raise OddsmithError(f"a deck of {codes.size} cards is too large (at most {MAX_KERNEL_CARDS})")
    return codes.astype(np.uint8)


def kernel_counts(deck: object, *, without: object = (), what: str = "removed cards") -> np.ndarray:
    """Copies of each code 0..52 (int64, length 53) in ``deck`` minus the cards in ``without``.

    For a :class:`Deck`, ``without`` text goes through :meth:`Deck.without`
    (card tokens, titles, ``gang``); otherwise it is card tokens or codes, and
    a card not (or no longer) in the deck raises OddsmithError naming ``what``.
    """
    if without is None:
        without = ()
    deck = resolve_deck(deck)
    if hasattr(deck, "without") and (isinstance(without, str) or (
            not isinstance(without, np.ndarray) and without and all(isinstance(w, str) for w in without))):
        return np.bincount(kernel_codes(deck.without(without)), minlength=N_CODES).astype(np.int64)
    counts = np.bincount(kernel_codes(deck), minlength=N_CODES).astype(np.int64)
    for code in card_codes(without, what):
        if counts[code] == 0:
            raise OddsmithError(f"{what}: {format_card(code)} is not (or no longer) in the deck")
        counts[code] -= 1
    return counts


def deck_label(deck: object, default: str = "deck") -> str:
    """The deck's name for reports, with what :meth:`Deck.without` took out."""
    name = getattr(deck, "name", None)
    removed = getattr(deck, "removed", ())
    base = str(name) if name else default
    return base + (f" (without {', '.join(removed)})" if removed else "")


# --------------------------------------------------------------------------
# Loading: files, stdin, shipped sample decks
# --------------------------------------------------------------------------

SAMPLE_SUFFIX = ".txt"


def _samples_dir():
    return resources.files("oddsmith.data").joinpath("decks")


def sample_names() -> list[str]:
    """Names of the sample decks shipped in the package (file names without ``.txt``)."""
    return sorted(p.name[: -len(SAMPLE_SUFFIX)] for p in _samples_dir().iterdir()
                  if p.name.endswith(SAMPLE_SUFFIX))


def _sample_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def is_sample(name: str) -> bool:
    return _sample_key(str(name)) in sample_names()


def set_up(deck: Deck, *, with_gang: bool = False) -> Deck:
    """The deck an analysis draws from: after set-up (the starting gang in play, see
    :meth:`Deck.after_set_up`), or with ``with_gang`` the full deck. A deck already set
    up either way is returned as it is."""
    if deck.state is not DeckState.listed:
        return deck
    return deck.with_gang() if with_gang else deck.after_set_up()


def load_sample(name: str, *, partial: bool = False, without: str | Iterable[str] | None = None,
                with_gang: bool = False) -> Deck:
    """A shipped sample deck by name (``law-dogs``, ``Law Dogs``, ``stack-16-16-16`` ...), as it
    stands after set-up (the full deck with ``with_gang``; see :func:`set_up`), minus ``without``."""
    key = _sample_key(name)
    if key not in sample_names():
        raise OddsmithError(f"no sample deck {name!r}; samples: {', '.join(sample_names())}")
    text = _samples_dir().joinpath(key + SAMPLE_SUFFIX).read_text(encoding="utf-8")
    deck = set_up(parse_deck(text, name=key, source=f"sample {key}", partial=partial), with_gang=with_gang)
    return deck.without(without) if without else deck


def sample_decks() -> pd.DataFrame:
    """The shipped sample decks: name, title, valued_cards and jokers (as listed), partial, outfit,
    format, and cards_after_set_up (the draw deck analyses use by default: the starting gang in play)."""
    rows = []
    for key in sample_names():
        deck = load_sample(key, with_gang=True)
        rows.append({"name": key, "title": deck.name, "valued_cards": deck.valued_cards,
                     "jokers": deck.jokers, "partial": deck.partial, "outfit": deck.outfit,
                     "format": deck.format.value if deck.format else None,
                     "cards_after_set_up": len(deck.after_set_up())})
    return pd.DataFrame(rows, columns=["name", "title", "valued_cards", "jokers", "partial", "outfit", "format",
                                       "cards_after_set_up"])


def _exists(spec: str) -> bool:
    try:
        return Path(spec).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def load_deck(deck: str | os.PathLike[str], *, format: DeckFormat | str | None = None, partial: bool = False,
              without: str | Iterable[str] | None = None,
              card_table: CardTable | str | Path | None = None, with_gang: bool = False) -> Deck:
    """A deck from a file path, ``-`` (stdin) or a shipped sample name, validated, as
    analyses take it.

    The full deck list is validated first (52 valued cards unless ``partial``);
    then set-up puts the starting gang into play (unless ``with_gang``: the
    full deck, see :func:`set_up`); then the cards in ``without`` are removed
    (see :meth:`Deck.without`). A path that exists wins over a sample of the
    same name.
    """
    spec = str(deck)
    if spec != "-" and not _exists(spec) and is_sample(spec):
        return load_sample(spec, partial=partial, without=without, with_gang=with_gang)
    if spec != "-" and not _exists(spec):
        raise OddsmithError(f"{spec}: no such deck file or sample deck (samples: {', '.join(sample_names())})")
    text = read_text(spec, what="deck file")
    name = "stdin" if spec == "-" else Path(spec).stem
    parsed = set_up(parse_deck(text, name=name, source="stdin" if spec == "-" else spec, format=format,
                               partial=partial, card_table=card_table), with_gang=with_gang)
    return parsed.without(without) if without else parsed


def resolve_deck(deck: object, *, with_gang: bool = False, partial: bool = False) -> object:
    """Any deck the Python API takes, as the analyses take it (one resolver for every entry point).

    * a :class:`Deck`: set up (:func:`set_up`) unless it already is;
    * a path (``str`` or ``os.PathLike``) to a deck file, ``-`` (stdin) or a
      shipped sample name (``"law-dogs"``): :func:`load_deck`;
    * a deck text (a deck list of several lines, any :class:`DeckFormat`):
      :func:`parse_deck`, then set up;
    * card tokens (``"AS KS QS JS 10S 9S"``), a numpy array or a sequence of
      card codes 0..52: returned as they are, a plain list of cards (no
      deck-building checks, no starting gang).

    ``with_gang`` keeps the starting gang in the draw deck; ``partial`` accepts
    fewer than 52 valued cards in a file or text.
    """
    if isinstance(deck, Deck):
        return set_up(deck, with_gang=with_gang)
    if isinstance(deck, os.PathLike):
        return load_deck(deck, partial=partial, with_gang=with_gang)
    if not isinstance(deck, str):
        return deck
    spec = deck.strip()
    single = "\n" not in spec
    if single and (spec == "-" or _exists(spec) or is_sample(spec)):
        return load_deck(spec, partial=partial, with_gang=with_gang)
    try:
        parse_hand(spec, where="deck")
    except (OddsmithError, ValueError):
        pass
    else:
        return deck  # plain card tokens
    if single:
        raise OddsmithError(f"{spec!r} is neither a sample deck ({', '.join(sample_names())}), a deck file, "
                            f"a deck list nor card tokens ({CARD_HELP})")
    return set_up(parse_deck(deck, partial=partial), with_gang=with_gang)


def deck_state_of(deck: object) -> str:
    """:attr:`Deck.deck_state` of a resolved deck; ``cards as given`` for a plain list of cards."""
    return deck.deck_state if isinstance(deck, Deck) else "cards as given (no starting gang)"


def deck_from_bytes(data: bytes, **kwargs) -> Deck:
    """:func:`parse_deck` of raw file bytes (same checks as a file: binary, empty, BOM, CRLF)."""
    source = kwargs.pop("source", "<bytes>")
    return parse_deck(decode_text(data, source, "deck file"), source=source, **kwargs)


# --------------------------------------------------------------------------
# Summary (what `oddsmith deck show` prints)
# --------------------------------------------------------------------------


def counts_frame(deck: Deck) -> pd.DataFrame:
    """Cards per value and suit: one row per value (A..K) plus a Joker row;
    columns ``card`` (A..K, Joker), ``value``, ``spades``, ``hearts``,
    ``diamonds``, ``clubs``, ``total``."""
    grid = deck.counts()[:JOKER_CODE].reshape(N_VALUES, N_SUITS)  # code = (value - 1) * 4 + suit
    df = pd.DataFrame(grid, columns=list(_SUIT_NAMES))
    df.insert(0, "value", pd.array(range(1, 14), dtype="Int64"))
    df.insert(0, "card", [VALUE_LABELS[v] for v in range(1, 14)])
    df["total"] = grid.sum(axis=1)
    joker = {"card": "Joker", "value": pd.NA, **{s: 0 for s in _SUIT_NAMES}, "total": deck.jokers}
    df = pd.concat([df, pd.DataFrame([joker])], ignore_index=True)
    df["value"] = df["value"].astype("Int64")
    return df


def duplicates_frame(deck: Deck) -> pd.DataFrame:
    """Cards held more than once (same suit and value): ``card``, ``copies``, ``titles``."""
    valued = deck.cards[deck.cards["code"] != JOKER_CODE]
    rows = []
    for code, group in valued.groupby("code", sort=True):
        if len(group) > 1:
            titles = [t for t in group["title"] if t]
            rows.append({"card": format_card(int(code)), "copies": len(group),
                         "titles": "; ".join(dict.fromkeys(titles)) if titles else ""})
    return pd.DataFrame(rows, columns=["card", "copies", "titles"])


def deck_summary(deck: Deck) -> dict:
    """The validated summary as plain data (the JSON of ``oddsmith deck show``).

    Fields: ``name``, ``source``, ``format``, ``outfit``, ``partial``,
    ``deck_state`` (:attr:`Deck.deck_state`: which deck the counts are of),
    ``valued_cards``, ``jokers``, ``cards`` (of the draw deck in that state),
    ``removed``, ``starting_gang`` (titles), ``per_value`` (A..K -> cards), ``per_suit`` (suit -> cards),
    ``counts`` (rows of :func:`counts_frame`), ``duplicates`` (rows of
    :func:`duplicates_frame`), ``max_copies`` (most cards sharing suit and
    value), ``warnings``.
    """
    counts = counts_frame(deck)
    valued = counts.iloc[:13]
    dups = duplicates_frame(deck)
    gang = deck.starting_gang()
    return {
        "name": deck.name,
        "source": deck.source,
        "format": deck.format.value if deck.format else None,
        "outfit": deck.outfit,
        "partial": deck.partial,
        "deck_state": deck.deck_state,
        "valued_cards": deck.valued_cards,
        "jokers": deck.jokers,
        "cards": len(deck),
        "removed": list(deck.removed),
        "starting_gang": [t if t else c for t, c in zip(gang["title"], gang["card"])],
        "per_value": {str(c): int(t) for c, t in zip(valued["card"], valued["total"])},
        "per_suit": {s: int(valued[s].sum()) for s in _SUIT_NAMES},
        "counts": counts,
        "duplicates": dups,
        "max_copies": int(deck.counts()[:JOKER_CODE].max()) if deck.valued_cards else 0,
        "warnings": list(deck.warnings),
    }


# --------------------------------------------------------------------------
# Swapping cards (oddsmith deck tune; Rulebook "Deck Building"; SWAP_RULES)
# --------------------------------------------------------------------------


def swap_cards(deck: Deck, swaps: Iterable[tuple[str, str]], *, name: str | None = None) -> Deck:
    """``deck`` with each ``(out, in)`` swap made in its draw deck, the new list validated.

    ``out`` is a title of a card in the draw deck (or a card token such as ``8S``
    for an untitled card); ``in`` is a title of the deck's card table. The new
    card takes the old one's place in the draw deck. A starting-gang card, the
    outfit, a legend or a joker is never swapped
    (:data:`oddsmith.rules.doomtown.SWAP_RULES`). The whole list (the gang in play
    included) is then checked by :func:`validate_deck`, so a swap that breaks
    "Deck Building" raises OddsmithError naming the rule.
    """
    from oddsmith.rules.doomtown import SWAP_RULES

    deck = set_up(deck)
    table = deck.table if deck.table is not None else _card_table()
    frame = deck.cards.reset_index(drop=True)
    done = []
    for out, new in swaps:
        where = f"swap {out!r} -> {new!r}"
        try:
            code = parse_card(str(out))
        except ValueError:
            keys = frame["title"].map(lambda t: title_key(t) if t else "")
            match = frame.index[(keys == title_key(str(out))) & ~frame["starting"]]
        else:
            match = frame.index[(frame["code"] == code) & frame["title"].isna() & ~frame["starting"]]
        if len(match) == 0:
            raise OddsmithError(f"{where}: {out!r} is not in the draw deck (the starting gang, the outfit and "
                                f"a legend are never swapped)")
        if frame.at[match[-1], "code"] == JOKER_CODE:
            raise OddsmithError(f"{where}: a joker is not one of the 52 valued cards and is never swapped")
        card = table.lookup(str(new), where)
        if str(card["type"]) not in SWAP_RULES.swappable_types:
            raise OddsmithError(f"{where}: {card['title']!r} is a {card['type']}; a swap trades cards with a suit "
                                f"and value ({', '.join(SWAP_RULES.swappable_types)})")
        row = _frame([_row_from_table(card, line=None)])
        at = int(match[-1])
        frame = pd.concat([frame.iloc[:at], row, frame.iloc[at + 1:]], ignore_index=True)
        done.append(f"-{out} +{card['title']}")
    listed = frame if deck.in_play is None or deck.in_play.empty else pd.concat([deck.in_play, frame],
                                                                                 ignore_index=True)
    label = name or (f"{deck.name} ({'; '.join(done)})" if done else deck.name)
    outfits = [deck.outfit] if deck.outfit else []
    legends = [deck.legend] if deck.legend else []
    warnings = validate_deck(listed, partial=deck.partial, name=label, outfits=outfits, legends=legends, table=table)
    return replace(deck, name=label, cards=frame, warnings=tuple(warnings))
