"""The Weird West Edition card table: card facts looked up by title.

The package ships ``oddsmith/data/wwe-cards.csv`` (facts only: title, type,
faction, suit, value, shooter, bullets, influence, control, cost, upkeep,
production, starting ghost rock, keywords, copies in the box; rebuilt by
``scripts/build_card_table.py``). A user may pass their own table with the
same columns; only ``title``, ``type``, ``suit`` and ``value`` are required.

Titles match leniently, because deck lists (the rulebook's Decklists among
them) spell titles differently from the printed cards: case, accents, quote
and apostrophe styles, spacing and punctuation are ignored, ``&`` reads as
``and``, a dropped final g reads as the full word (``Mornin'`` =
``Morning'``) and spaces are ignored (``Exp.1`` = ``exp. 1``). An unknown title raises :class:`OddsmithError` naming the
closest title.
"""
from __future__ import annotations

import csv
import difflib
import functools
import io
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from oddsmith import lazy

pd = lazy.module("pandas")  # light at start-up: docs/design.md, 'Start-up'

from oddsmith.textinput import read_text
from oddsmith.errors import OddsmithError

#: Card types (the ``type`` column); the Weird West Edition box has no legend.
CARD_TYPES = ("outfit", "dude", "deed", "goods", "spell", "action", "joker", "legend")
#: Card types that carry no suit and value (not counted among the 52 valued cards).
UNVALUED_TYPES = ("outfit", "joker", "legend")

REQUIRED_COLUMNS = ("title", "type", "suit", "value")
INTEGER_COLUMNS = ("code", "value", "bullets", "influence", "control", "cost", "upkeep",
                   "production", "starting_ghost_rock", "copies_in_box")
TEXT_COLUMNS = ("faction", "shooter", "keywords")

# Suit spellings a card table may use, to the suit names of the rules model.
_SUIT_SPELLINGS = {
    "spades": "spades", "spade": "spades", "s": "spades", "♠": "spades", "♤": "spades",
    "hearts": "hearts", "heart": "hearts", "h": "hearts", "♥": "hearts", "♡": "hearts",
    "diams": "diamonds", "diamonds": "diamonds", "diamond": "diamonds", "d": "diamonds",
    "♦": "diamonds", "♢": "diamonds",
    "clubs": "clubs", "club": "clubs", "c": "clubs", "♣": "clubs", "♧": "clubs",
}
_VALUE_SPELLINGS = {"a": 1, "ace": 1, "j": 11, "jack": 11, "q": 12, "queen": 12, "k": 13, "king": 13}
_SHOOTER_SPELLINGS = {"stud": "stud", "draw": "draw", "bonus": "bonus"}

#: Title under which a deck list's plain ``Joker`` lines are read.
GENERIC_JOKER = "Joker"
#: Matching keys read as :data:`GENERIC_JOKER` when the table has no such title.
_JOKER_KEYS = ("joker", "jokers", "jk")

_WORD = re.compile(r"[a-z0-9]+")


@functools.lru_cache(maxsize=4096)
def title_key(title: str) -> str:
    """The lenient matching key of a title (see the module docstring)."""
    text = unicodedata.normalize("NFKD", str(title))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = text.replace("&", " and ")
    text = re.sub(r"['\u2018\u2019\u02bc`\u00b4]", "", text)  # Farnum's = Farnums
    words = _WORD.findall(text)
    # Western g-dropping: "Mornin'" and "Morning'" are the same card.
    words = [w[:-1] if len(w) > 4 and w.endswith("ing") else w for w in words]
    return "".join(words)


def parse_suit_name(text: str) -> str | None:
    """A suit spelling of a card table (``Spades``, ``Diams``, ``♦``, ``H``) as a suit name, or None."""
    return _SUIT_SPELLINGS.get(str(text).strip().casefold())


def parse_value_text(text: str) -> int | None:
    """A value spelling (``1``..``13``, ``A``, ``J``, ``Q``, ``K``) as 1..13, or None."""
    t = str(text).strip().casefold()
    if t.isdigit() and len(t) <= 2 and 1 <= int(t) <= 13:
        return int(t)
    return _VALUE_SPELLINGS.get(t)


#: Most commas a title holds (the box's titles hold at most one).
MAX_COMMAS_IN_TITLE = 3


def split_items(text: str, is_title: Callable[[str], bool]) -> list[str]:
    """Items of a list separated by ``;`` or ``,``, keeping commas inside titles.

    Titles may hold commas (``Emre, The Turkish Bear (Exp.1)``): at each comma
    piece the longest run of pieces that ``is_title`` accepts is kept whole.
    """
    items: list[str] = []
    for part in text.split(";"):
        pieces = part.split(",")
        i = 0
        while i < len(pieces):
            longest = min(len(pieces), i + MAX_COMMAS_IN_TITLE + 1)
            j = next((j for j in range(longest, i + 1, -1) if is_title(",".join(pieces[i:j]).strip())), i + 1)
            item = ",".join(pieces[i:j]).strip()
            if item:
                items.append(item)
            i = j
    return items


@dataclass(frozen=True)
class CardTable:
    """Card facts with lenient title lookup.

    ``frame`` has one row per card title, columns ``title``, ``type``, ``suit``
    (``spades``/``hearts``/``diamonds``/``clubs``, NA for outfits and jokers),
    ``value`` (1..13), ``shooter`` (``stud``/``draw`` for dudes, ``bonus`` for
    goods giving bullets), ``bullets``, ``influence``, ``control``, ``cost``,
    ``upkeep``, ``production``, ``starting_ghost_rock``, ``copies_in_box``
    (nullable integers), ``code``, ``faction``, ``keywords`` (``" ; "``
    separated) and ``key`` (the matching key).
    """

    frame: pd.DataFrame
    source: str
    _by_key: dict[str, int] = field(repr=False, compare=False)
    _rows: dict[int, pd.Series] = field(default_factory=dict, repr=False, compare=False)
    _records: dict[int, dict] = field(default_factory=dict, repr=False, compare=False)
    _columns: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.frame)

    def find(self, title: str) -> pd.Series | None:
        """The row of ``title`` (lenient match), or None."""
        key = title_key(title)
        pos = self._by_key.get(key)
        if pos is None and key in _JOKER_KEYS:
            return self.generic_joker()
        if pos is None:
            return None
        row = self._rows.get(pos)
        if row is None:  # iloc costs ~0.1 ms; deck lists look the same titles up again and again
            row = self._rows[pos] = self.frame.iloc[pos]
        return row

    def knows(self, title: str) -> bool:
        """Whether :meth:`find` finds ``title``, without making its row."""
        key = title_key(title)
        return key in self._by_key or key in _JOKER_KEYS

    def record(self, title: str) -> dict | None:
        """:meth:`find`'s row as a dict (the same facts, whole numbers as Python ints), or None. The deck parser
        reads a few facts of every card it lists: about 0.1 us a read here, 7 us from a Series, which also costs
        about 50 us to make."""
        pos = self._by_key.get(title_key(title))
        if pos is None:
            row = self.find(title)
            return None if row is None else dict(zip(row.index, row.to_numpy()))
        found = self._records.get(pos)
        if found is None:
            if not self._columns:
                self._columns.update({c: self.frame[c].to_numpy(dtype=object) for c in self.frame.columns})
            found = self._records[pos] = {c: values[pos] for c, values in self._columns.items()}
        return found

    def closest(self, title: str) -> str | None:
        """The printed title closest to ``title``, or None when nothing is close."""
        keys = list(self._by_key)
        match = difflib.get_close_matches(title_key(title), keys, n=1, cutoff=0.6)
        if not match:
            # A partial title ("Emre" for "Emre, The Turkish Bear (Exp.1)").
            key = title_key(title)
            starts = [k for k in keys if key and (k.startswith(key) or key.startswith(k))]
            match = starts[:1]
        return str(self.frame.iloc[self._by_key[match[0]]]["title"]) if match else None

    def lookup(self, title: str, where: str = "") -> pd.Series:
        """The row of ``title``; unknown titles raise OddsmithError naming the closest title."""
        row = self.find(title)
        if row is not None:
            return row
        prefix = f"{where}: " if where else ""
        hint = self.closest(title)
        suggestion = f"; did you mean {hint!r}?" if hint else ""
        raise OddsmithError(f"{prefix}unknown card title {title.strip()!r} in {self.source}{suggestion}")

    def generic_joker(self) -> pd.Series:
        """A joker row titled ``Joker`` (a deck list's plain ``Joker`` line)."""
        row = pd.Series({c: pd.NA for c in self.frame.columns}, dtype=object)
        row["title"], row["type"], row["key"] = GENERIC_JOKER, "joker", "joker"
        return row


def _int_cell(text: str, col: str, where: str, title: str) -> object:
    text = text.strip()
    if not text:
        return pd.NA
    if col == "value":
        value = parse_value_text(text)
        if value is None:
            raise OddsmithError(f"{where}: value {text!r} of {title!r} is not 1..13 or A/J/Q/K")
        return value
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    if not number.is_integer() or abs(number) > 1e9:
        raise OddsmithError(f"{where}: {col} {text!r} of {title!r} is not a whole number")
    if number < 0 and col != "code":
        raise OddsmithError(f"{where}: {col} {text!r} of {title!r} is negative")
    return int(number)


def _read_rows(text: str, source: str) -> list[dict[str, object]]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise OddsmithError(f"{source}: the card table is empty") from None
    except csv.Error as exc:
        raise OddsmithError(f"{source}: line 1: not a CSV card table ({exc})") from None
    columns = [h.strip().lstrip("\ufeff").casefold() for h in header]
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise OddsmithError(f"{source}: the card table has no column {', '.join(missing)} "
                            f"(needs {', '.join(REQUIRED_COLUMNS)})")
    records = []
    try:
        for row in reader:
            where = f"{source}: line {reader.line_num}"
            if not any(cell.strip() for cell in row):
                continue
            cells = dict(zip(columns, row + [""] * (len(columns) - len(row))))
            records.append(table_record(cells, where))
    except csv.Error as exc:
        raise OddsmithError(f"{source}: line {reader.line_num}: unreadable CSV ({exc})") from None
    if not records:
        raise OddsmithError(f"{source}: the card table has no cards")
    return records


def table_record(cells: dict[str, str], where: str, *, deck_row: bool = False) -> dict[str, object]:
    """One checked card-table row from its text cells; errors name ``where``.

    With ``deck_row`` (a row of a deck CSV) the title may be blank and a
    dude's shooter type may be unknown."""
    title = cells["title"].strip()
    if not title and not deck_row:
        raise OddsmithError(f"{where}: empty title")
    ctype = cells["type"].strip().casefold()
    if ctype not in CARD_TYPES:
        raise OddsmithError(f"{where}: type {cells['type']!r} of {title!r} is not one of {', '.join(CARD_TYPES)}")
    record: dict[str, object] = {"title": title, "type": ctype}
    for col in INTEGER_COLUMNS:
        record[col] = _int_cell(cells.get(col, ""), col, where, title)
    suit_text = cells["suit"].strip()
    suit = parse_suit_name(suit_text) if suit_text else None
    if suit_text and suit is None:
        raise OddsmithError(f"{where}: suit {suit_text!r} of {title!r} is not a suit")
    record["suit"] = suit if suit is not None else pd.NA
    valued = ctype not in UNVALUED_TYPES
    if valued and (suit is None or record["value"] is pd.NA):
        raise OddsmithError(f"{where}: {ctype} {title!r} needs a suit and a value")
    if not valued:
        record["suit"], record["value"] = pd.NA, pd.NA
    shooter_text = cells.get("shooter", "").strip()
    shooter = _SHOOTER_SPELLINGS.get(shooter_text.casefold()) if shooter_text else None
    if shooter_text and shooter is None:
        raise OddsmithError(f"{where}: shooter {shooter_text!r} of {title!r} is not Stud, Draw or Bonus")
    if ctype == "dude" and shooter not in ("stud", "draw") and (not deck_row or shooter):
        raise OddsmithError(f"{where}: dude {title!r} needs shooter Stud or Draw")
    record["shooter"] = shooter if shooter else pd.NA
    for col in ("faction", "keywords"):
        record[col] = cells.get(col, "").strip() or pd.NA
    return record


def _build(records: list[dict[str, object]], source: str) -> CardTable:
    """The table of :func:`table_record`'s rows, built column by column with its dtype (whole numbers Int64, text
    in Python objects, None where missing): about half the time of converting a frame of records."""
    columns: dict[str, object] = {}
    for col in records[0]:
        values = [r[col] for r in records]
        if col in INTEGER_COLUMNS:
            columns[col] = pd.array(values, dtype="Int64")
        else:
            columns[col] = pd.Series([None if v is pd.NA else v for v in values], dtype=object)
    frame = pd.DataFrame(columns)
    frame["key"] = [title_key(t) for t in frame["title"]]
    by_key: dict[str, int] = {}
    for pos, (key, title) in enumerate(zip(frame["key"], frame["title"])):
        if key in by_key:
            other = frame["title"].iloc[by_key[key]]
            raise OddsmithError(f"{source}: titles {other!r} and {title!r} are the same card title")
        by_key[key] = pos
    columns = ["title", "type", "suit", "value", "shooter", "bullets", "influence", "control", "cost",
               "upkeep", "production", "starting_ghost_rock", "copies_in_box", "code", "faction",
               "keywords", "key"]
    return CardTable(frame[columns], source, by_key)


MAX_TABLE_BYTES = 8 * 1024 * 1024


def read_card_table(path: str | Path) -> CardTable:
    """Read a user's card table (CSV with at least title, type, suit, value)."""
    text = read_text(path, limit=MAX_TABLE_BYTES, what="card table")
    return _build(_read_rows(text, str(path)), str(path))


@functools.lru_cache(maxsize=1)
def default_card_table() -> CardTable:
    """The Weird West Edition table shipped in the package."""
    text = resources.files("oddsmith.data").joinpath("wwe-cards.csv").read_text(encoding="utf-8")
    return _build(_read_rows(text, "wwe-cards.csv"), "the Weird West Edition card table")


def card_table(table: CardTable | str | Path | None = None) -> CardTable:
    """``table`` itself, the table read from a path, or the shipped table when None."""
    if table is None:
        return default_card_table()
    if isinstance(table, CardTable):
        return table
    return read_card_table(table)
