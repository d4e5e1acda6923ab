"""Reading deck text: the four deck-list formats, line by line, into card rows.

The reading step of :mod:`oddsmith.doomtown.deck` (the formats are described
there, :class:`DeckFormat`): each reader turns the text into one row per card
(the columns of ``deck.DECK_COLUMNS``), which :func:`oddsmith.doomtown.deck.parse_deck`
then validates (Rulebook "Deck Building") and wraps in a ``Deck``. Every error
names the source and the line.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass

from oddsmith import lazy

np = lazy.module("numpy")  # light at start-up: docs/design.md, 'Start-up'
pd = lazy.module("pandas")

from oddsmith.doomtown.cards import CARD_HELP, format_card, parse_card  # noqa: E402
from oddsmith.doomtown.deck_format import DeckFormat  # noqa: E402  (light: the command line's option type)
from oddsmith.doomtown.cardtable import (  # noqa: E402
    CardTable,
    parse_suit_name,
    parse_value_text,
    table_record,
    title_key,
)
from oddsmith.errors import OddsmithError  # noqa: E402
from oddsmith.rules.doomtown import DECK_RULES, JOKER_CODE, Suit, card_code, code_suit, code_value  # noqa: E402
from oddsmith.textinput import strip_comment  # noqa: E402

#: Largest count on one line (a legal deck has 54 drawable cards).
MAX_LINE_COUNT = DECK_RULES.max_deck_size
#: Most cards read from one list (validation then names the broken rule).
MAX_ROWS = 1000
#: Most lines holding anything but a comment in one deck list (a deck list has about 60); checked
#: first, before the format is detected over every line.
MAX_LINES = MAX_ROWS
_SUIT_NAMES = tuple(s.name.lower() for s in Suit)


def _na_int(value: object) -> object:
    return pd.NA if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)) else int(value)


def _row(code: int, *, line: int | None, title: str | None = None, ctype: str | None = None,
         shooter: str | None = None, bullets: object = None, influence: object = None,
         upkeep: object = None, starting: bool = False) -> dict:
    joker = code == JOKER_CODE
    dude = ctype == "dude"
    return {
        "card": format_card(code),
        "title": title,
        "type": "joker" if joker else ctype,
        "suit": None if joker else _SUIT_NAMES[code_suit(code)],
        "value": pd.NA if joker else code_value(code),
        "code": code,
        "shooter": shooter if dude else None,
        "bullets": _na_int(bullets) if dude else pd.NA,
        "influence": _na_int(influence) if dude else pd.NA,
        "upkeep": _na_int(upkeep) if dude else pd.NA,
        "starting": bool(starting),
        "line": pd.NA if line is None else int(line),
    }


def _row_from_table(card: Mapping[str, object], *, line: int | None, starting: bool = False) -> dict:
    """A deck row from a card table's row (a Series, or :meth:`CardTable.record`'s dict)."""
    title = card["title"] if isinstance(card["title"], str) and card["title"] else None
    if card["type"] == "joker":
        return _row(JOKER_CODE, line=line, title=title, ctype="joker")
    code = card_code(int(card["value"]), _SUIT_NAMES.index(card["suit"]))
    return _row(code, line=line, title=title, ctype=str(card["type"]),
                shooter=card.get("shooter"), bullets=card.get("bullets"),
                influence=card.get("influence"), upkeep=card.get("upkeep"), starting=starting)


_DIRECTIVE = re.compile(r"^#\s*(name|partial)\s*:\s*(.*)$", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"^(\d+)\s*[x×*]$", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"^[x×*](\d+)$", re.IGNORECASE)
_COUNT_GLUED_BEFORE = re.compile(r"^(\d+)[x×*](\S+)$", re.IGNORECASE)
_COUNT_GLUED_AFTER = re.compile(r"^(\S+?)[x×*](\d+)$", re.IGNORECASE)
_SPACED_COUNT_BEFORE = re.compile(r"\b(\d+)\s+[x×*]\s+", re.IGNORECASE)
_SPACED_COUNT_AFTER = re.compile(r"\s+[x×*]\s+(\d+)\b", re.IGNORECASE)
_TOKEN_SPLIT = re.compile(r"[\s,;]+")
_VALUESUIT = re.compile(r"^([^,\s]+)\s*,\s*([^,\s]+)\s*,?$")
_TITLE_COUNT_BEFORE = re.compile(r"^(\d+)\s*[x×*]?\s+(.+)$", re.IGNORECASE)
_TITLE_COUNT_AFTER = re.compile(r"^(.+?)\s+[x×*]\s*(\d+)$", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•·]\s+|\d+[.)]\s+(?=\D))")
_HEADER = re.compile(r"^([A-Za-z][A-Za-z '&/-]*?)\s*(?:\(\s*\d+\s*\)|:\s*\d+|\d+)?\s*(:)?\s*$")
_INLINE_HEADER = re.compile(r"^([A-Za-z][A-Za-z '&/-]*?)\s*(?:\(\s*\d+\s*\))?\s*:\s*(.+)$")

_SECTIONS = {
    "dudes": ("dude", False), "dude": ("dude", False),
    "deeds": ("deed", False), "deed": ("deed", False),
    "goods": ("goods", False), "good": ("goods", False),
    "spells": ("spell", False), "spell": ("spell", False),
    "actions": ("action", False), "action": ("action", False),
    "jokers": ("joker", False), "joker": ("joker", False),
    "outfit": ("outfit", False), "outfits": ("outfit", False), "home": ("outfit", False),
    "legend": ("legend", False), "legends": ("legend", False),
    "starting gang": ("dude", True), "starting dudes": ("dude", True), "starting posse": ("dude", True),
    "start": ("dude", True), "starting": ("dude", True), "gang": ("dude", True),
    "deck": (None, False), "draw deck": (None, False), "main deck": (None, False),
    "cards": (None, False), "other": (None, False), "others": (None, False),
    "sidekicks": ("goods", False), "horses": ("goods", False), "weapons": ("goods", False),
    "hexes": ("spell", False), "miracles": ("spell", False), "spirits": ("spell", False),
    "techniques": ("action", False), "total": (None, False),
}


# Headers recognised without a colon or a count ("Dudes", not "Joker", which is a card).
_BARE_SECTIONS = {"dudes", "deeds", "goods", "spells", "actions", "jokers", "outfit", "legend",
                  "starting gang", "starting dudes", "starting posse", "sidekicks", "horses", "weapons",
                  "hexes", "miracles", "spirits", "techniques"}


def _section_key(name: str) -> str:
    return " ".join(name.casefold().replace("'", "").split())


def _section(name: str) -> tuple[str | None, bool] | None:
    return _SECTIONS.get(_section_key(name))


def _header(text: str) -> tuple[str | None, bool] | None:
    """The section a header line opens (``Dudes:``, ``Deeds (12)``, ``Starting Gang``), or None."""
    m = _HEADER.match(text)
    if not m:
        return None
    marked = bool(m.group(2)) or m.group(0).rstrip() != m.group(1)
    if not marked and _section_key(m.group(1)) not in _BARE_SECTIONS:
        return None
    return _section(m.group(1))


@dataclass
class _Line:
    number: int
    text: str


def _content_lines(text: str) -> tuple[list[_Line], dict[str, str]]:
    """Lines without comments and blanks, and the ``# name:`` / ``# partial:`` directives."""
    lines: list[_Line] = []
    meta: dict[str, str] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.strip().lstrip("\ufeff")
        directive = _DIRECTIVE.match(stripped)
        if directive:
            meta.setdefault(directive.group(1).casefold(), directive.group(2).strip())
            continue
        stripped = strip_comment(stripped)
        if stripped:
            lines.append(_Line(number, stripped))
    return lines, meta


def _parse_count(text: str, where: str) -> int:
    count = int(text)
    if count > MAX_LINE_COUNT:
        raise OddsmithError(f"{where}: count {text} is more than a deck can hold ({MAX_LINE_COUNT} cards)")
    return count


def _is_card(token: str) -> bool:
    try:
        parse_card(token)
    except ValueError:
        return False
    return True


def _card_items(text: str, where: str) -> list[tuple[int, int]]:
    """(code, count) pairs of a line of card tokens; OddsmithError if any part is not a card."""
    items: list[tuple[int, int]] = []
    pending: int | None = None
    text = _SPACED_COUNT_AFTER.sub(r" x\1", _SPACED_COUNT_BEFORE.sub(r"\1x ", text))  # "3 x 8D", "8D x 3"
    for token in _TOKEN_SPLIT.split(text.strip()):
        if not token:
            continue
        m = _COUNT_BEFORE.match(token)
        if m:
            if pending is not None:
                raise OddsmithError(f"{where}: two counts in a row ({token!r})")
            pending = _parse_count(m.group(1), where)
            continue
        m = _COUNT_AFTER.match(token)
        if m and pending is None:
            if not items:
                raise OddsmithError(f"{where}: count {token!r} follows no card")
            code, count = items[-1]
            if count != 1:
                raise OddsmithError(f"{where}: two counts for one card ({token!r})")
            items[-1] = (code, _parse_count(m.group(1), where))
            continue
        count = 1
        m = _COUNT_GLUED_BEFORE.match(token) or _COUNT_GLUED_AFTER.match(token)  # "4x8S", "8Sx4"
        if m and pending is None:
            number, card = (m.group(1), m.group(2)) if m.re is _COUNT_GLUED_BEFORE else (m.group(2), m.group(1))
            if _is_card(card):
                token, count = card, _parse_count(number, where)
        try:
            code = parse_card(token)
        except ValueError:
            raise OddsmithError(f"{where}: {token!r} is not a card; {CARD_HELP}") from None
        if pending is not None:
            count, pending = pending, None
        items.append((code, count))
    if pending is not None:
        raise OddsmithError(f"{where}: {token!r} is not a card, or is a count with no card after it; {CARD_HELP}")
    return items


def _valuesuit_item(text: str, where: str) -> tuple[int, int]:
    if text.strip().casefold() in ("joker", "jk"):
        return JOKER_CODE, 1
    m = _VALUESUIT.match(text)
    value = parse_value_text(m.group(1)) if m else None
    suit = parse_suit_name(m.group(2)) if m else None
    if value is None or suit is None:
        raise OddsmithError(f"{where}: {text!r} is not a Value,Suit line (e.g. 13,S or Joker)")
    return card_code(value, _SUIT_NAMES.index(suit)), 1


def _is_valuesuit_header(line: _Line, first: bool) -> bool:
    return first and line.text.replace(" ", "").casefold() in ("value,suit", "val,suit", "suit,value")


def _looks_like_csv_header(line: _Line) -> bool:
    try:
        cols = {c.strip().casefold() for c in next(csv.reader([line.text]))}
    except csv.Error:
        return False
    return {"suit", "value"} <= cols and ("title" in cols or "type" in cols)


def detect_format(text: str) -> DeckFormat:
    """The format of a deck text (see :class:`DeckFormat`): the one that reads most of its lines."""
    lines, _ = _content_lines(text)
    if not lines:
        return DeckFormat.cards
    if _looks_like_csv_header(lines[0]):
        return DeckFormat.csv
    scores = {DeckFormat.cards: 0, DeckFormat.valuesuit: 0, DeckFormat.titles: 0}
    for i, line in enumerate(lines):
        if _is_valuesuit_header(line, i == 0):
            scores[DeckFormat.valuesuit] += 1
            continue
        for fmt, reader in ((DeckFormat.cards, _card_items), (DeckFormat.valuesuit, _valuesuit_item)):
            try:
                reader(line.text, "")
            except OddsmithError:
                continue
            scores[fmt] += 1
        text = _BULLET.sub("", line.text)
        inline = _INLINE_HEADER.match(text)
        if _header(text) is not None or (inline and _section(inline.group(1)) is not None):
            scores[DeckFormat.titles] += len(lines)  # a section header settles it
        elif re.search(r"[A-Za-z]{3}", line.text) and line.text.strip().casefold() not in ("joker", "jk"):
            scores[DeckFormat.titles] += 1
    return max(scores, key=lambda f: scores[f])  # ties: cards, then valuesuit, then titles


def _check_room(rows: list[dict], count: int, where: str) -> None:
    """Stop reading a list far longer than any deck before it fills memory."""
    if len(rows) + count > MAX_ROWS:
        raise OddsmithError(f"{where}: more than {MAX_ROWS} cards, far more than any deck holds")


def _expand(code: int, count: int, line: int, rows: list[dict], where: str, starting: bool = False) -> None:
    _check_room(rows, count, where)
    rows.extend(_row(code, line=line, starting=starting) for _ in range(count))


def _read_cards(lines: list[_Line], name: str) -> list[dict]:
    rows: list[dict] = []
    for line in lines:
        where = f"{name}: line {line.number}"
        for code, count in _card_items(line.text, where):
            _expand(code, count, line.number, rows, where)
    return rows


def _read_valuesuit(lines: list[_Line], name: str) -> list[dict]:
    rows: list[dict] = []
    for i, line in enumerate(lines):
        if _is_valuesuit_header(line, i == 0):
            continue
        where = f"{name}: line {line.number}"
        code, count = _valuesuit_item(line.text, where)
        _expand(code, count, line.number, rows, where)
    return rows


_TRUE = {"1", "yes", "y", "true", "t", "x", "starting", "start", "gang"}
_FALSE = {"", "0", "no", "n", "false", "f"}


def _read_csv(text: str, name: str, table: CardTable) -> list[dict]:
    # Comment lines are blanked, not removed, so reader line numbers stay the file's.
    kept = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    reader = csv.reader(io.StringIO(kept))
    header: list[str] | None = None
    rows: list[dict] = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if header is None:
                header = [c.strip().lstrip("\ufeff").casefold() for c in cells]
                for alias, col in (("stud/draw", "shooter"), ("bullet type", "shooter"),
                                   ("quantity", "count"), ("copies", "count"), ("qty", "count"),
                                   ("starting gang", "starting"), ("start", "starting")):
                    header = [col if h == alias else h for h in header]
                missing = [c for c in ("title", "type", "suit", "value") if c not in header]
                if missing:
                    raise OddsmithError(f"{name}: line {reader.line_num}: the CSV has no column "
                                        f"{', '.join(missing)} (needs title, type, suit, value)")
                continue
            where = f"{name}: line {reader.line_num}"
            cell = dict(zip(header, [c.strip() for c in cells] + [""] * (len(header) - len(cells))))
            known = table.find(cell["title"]) if cell["title"] else None
            if known is not None:
                for col in ("type", "suit", "value", "shooter", "bullets", "influence", "upkeep"):
                    if not cell.get(col) and col in known and known[col] is not None and known[col] is not pd.NA:
                        cell[col] = str(known[col])
            record = table_record(cell, where, deck_row=True)
            count_text = cell.get("count", "") or "1"
            if not count_text.isdigit():
                raise OddsmithError(f"{where}: count {count_text!r} is not a whole number")
            count = _parse_count(count_text, where)
            start_text = cell.get("starting", "").casefold()
            if start_text not in _TRUE | _FALSE:
                raise OddsmithError(f"{where}: starting {cell.get('starting')!r} is not yes or no")
            record["starting"] = start_text in _TRUE
            if record["type"] in ("outfit", "legend"):
                rows.extend({"_unvalued": record["type"], "title": record["title"], "line": reader.line_num}
                            for _ in range(count))
                continue
            record["title"] = record["title"] or None
            _check_room(rows, count, where)
            rows.extend(_row_from_table(pd.Series(record), line=reader.line_num, starting=record["starting"])
                        for _ in range(count))
    except csv.Error as exc:
        raise OddsmithError(f"{name}: line {reader.line_num}: unreadable CSV ({exc})") from None
    if header is None:
        raise OddsmithError(f"{name}: the CSV has no header line")
    return rows


def _title_entries(text: str, where: str, table: CardTable) -> tuple[str, int]:
    """(title, count) of a deck-list item; a title that starts with a number wins over a count."""
    if table.knows(text):
        return text.strip(), 1
    m = _TITLE_COUNT_BEFORE.match(text)
    if m:
        return m.group(2).strip(), _parse_count(m.group(1), where)
    m = _TITLE_COUNT_AFTER.match(text)
    if m:
        return m.group(1).strip(), _parse_count(m.group(2), where)
    return text.strip(), 1


#: An export's count line ("Total: 54 cards", "Total cards: 54", "54 cards").
_TOTAL = re.compile(r"^(?:total(?:\s+cards)?\s*[:=]?\s*\(?\d+\)?(?:\s+cards?)?|\d+\s+cards)\s*$", re.IGNORECASE)
#: A line naming the deck: "Name: My Law Dogs", "Deck name: ...", "Deck: ..." (unless it lists a card).
_NAME_LINE = re.compile(r"^(?:(?:deck\s*)?name|deck|title)\s*:\s*(.+)$", re.IGNORECASE)
#: Set names an export adds in parentheses after a title ("Shotgun (Weird West Edition)").
_SET_NAME = re.compile(r"\s*\([^()]*\)\s*$")


def _without_set_name(title: str, table: CardTable) -> str:
    """``title`` without the set names an export adds after it in parentheses, when the title
    is not a card as it stands ("Joker (black)" and "(Exp.1)" are parts of titles)."""
    text = title
    while not table.knows(text) and _SET_NAME.search(text):
        shorter = _SET_NAME.sub("", text)
        if not shorter or shorter == text:
            break
        text = shorter
    return text if table.knows(text) else title


def _close_title(title: str, table: CardTable) -> str | None:
    """The closest printed title when it is close enough to be a typo of it, else None."""
    import difflib

    hint = table.closest(title)
    if hint is None:
        return None
    ratio = difflib.SequenceMatcher(None, title_key(title), title_key(hint)).ratio()
    return hint if ratio >= 0.8 else None


def _is_name_line(text: str, table: CardTable) -> bool:
    """Whether the first line of a list by titles is the deck's name, as sites put it first: no
    count, no card, no title (nor a near miss of one: that is a typo, reported as such)."""
    if _TITLE_COUNT_BEFORE.match(text) or _TITLE_COUNT_AFTER.match(text) or text.endswith(":"):
        return False
    inline = _INLINE_HEADER.match(text)
    if inline and _section(inline.group(1)) is not None:
        return False
    # the fuzzy match last: it compares the line with every title of the table (about 4 ms)
    if table.knows(_without_set_name(text, table)) or _close_title(text, table) is not None:
        return False
    try:
        _card_items(text, "")
    except OddsmithError:
        return True
    return False


def _unreadable(where: str, item: str, title: str, table: CardTable) -> OddsmithError:
    """The error for a line of a list by titles that cannot be read: what it is taken for, what to do."""
    bare = title
    while _SET_NAME.search(bare) and _SET_NAME.sub("", bare):
        bare = _SET_NAME.sub("", bare)
    hint = _close_title(title, table) or _close_title(bare, table)
    if hint is not None:
        return OddsmithError(f"{where}: unknown card title {title.strip()!r} in {table.source}; "
                             f"did you mean {hint!r}?")
    return OddsmithError(
        f"{where}: unknown card title {title.strip()!r} in {table.source}: each line of a deck list is a count "
        f"and a title ('2x Shotgun'), a card ('8S') or a section heading ('Dudes (12)', 'Outfit: Law Dogs'); "
        f"fix the title, or start the line with '# ' to skip it")


def _read_titles(lines: list[_Line], name: str, table: CardTable) -> list[dict]:
    rows: list[dict] = []
    section: tuple[str | None, bool] = (None, False)
    section_name = ""
    for index, line in enumerate(lines):
        where = f"{name}: line {line.number}"
        text = _BULLET.sub("", line.text).strip()
        found = _header(text)
        if found is not None:
            section, section_name = found, _HEADER.match(text).group(1).strip()
            continue
        if _TOTAL.match(text):  # an export's "Total: 54 cards": validation counts the cards itself
            continue
        named = _NAME_LINE.match(text)
        if named and (_TITLE_COUNT_BEFORE.match(named.group(1))
                      or table.knows(_without_set_name(named.group(1), table))):
            named = None  # "Deck: 2x Shotgun" lists cards
        if named or (index == 0 and _is_name_line(text, table)):
            deck_name = (named.group(1) if named else text).strip()
            rows.append({"_name": deck_name, "_warning": f"line {line.number}: {deck_name!r} read as the deck's "
                                                         f"name"})
            continue
        if text.endswith(":") and not table.knows(text):
            raise OddsmithError(f"{where}: unknown section {text!r} (expected Dudes:, Deeds:, Goods:, "
                                f"Spells:, Actions:, Jokers:, Outfit:, Starting Gang:)")
        items = [text]
        inline = _INLINE_HEADER.match(text)
        line_section, line_section_name = section, section_name
        if inline and _section(inline.group(1)) is not None and not table.knows(text):
            # "Starting Gang: Randall; Asakichi Cooke" holds for its own line only.
            line_section, line_section_name = _section(inline.group(1)), inline.group(1).strip()
            items = [p.strip() for p in inline.group(2).split(";") if p.strip()]
        for item in items:
            title, count = _title_entries(item, where, table)
            title = _without_set_name(title, table)
            card = table.record(title)
            if card is None:
                try:
                    codes = _card_items(item, where)
                except OddsmithError:
                    raise _unreadable(where, item, title, table) from None
                for code, n in codes:
                    _expand(code, n, line.number, rows, where, starting=line_section[1])
                continue
            expected, starting = line_section
            ctype = str(card["type"])
            if expected is not None and ctype != expected:
                rows.append({"_warning": f"line {line.number}: {card['title']!r} is a {ctype}, listed under "
                                         f"{line_section_name}"})
            if ctype in ("outfit", "legend"):
                rows.extend({"_unvalued": ctype, "title": str(card["title"]), "line": line.number}
                            for _ in range(count))
                continue
            _check_room(rows, count, where)
            row = _row_from_table(card, line=line.number, starting=starting)
            rows.extend(dict(row) for _ in range(count))
    return rows


def _check_size(text: str, source: str) -> None:
    """Refuse a list far longer than any deck at once, before any line is read (cheap: no regex)."""
    lines = 0
    for raw in text.split("\n"):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            lines += 1
            if lines > MAX_LINES:
                raise OddsmithError(f"{source}: more than {MAX_LINES} lines of cards, far more than any deck "
                                    f"list holds (a deck is 52 cards, an outfit and up to 2 jokers)")


def _format(fmt: DeckFormat | str) -> DeckFormat:
    try:
        return DeckFormat(fmt.value if isinstance(fmt, DeckFormat) else str(fmt).casefold())
    except ValueError:
        raise OddsmithError(f"unknown deck format {fmt!r} (expected {', '.join(f.value for f in DeckFormat)})") \
            from None

