"""What you will draw: exact odds of holding given cards in the play hand, day by day.

The card flow follows the book (:data:`oddsmith.rules.doomtown.DAY_CARD_FLOW`):

* set-up ("Setting Up the Game", 4. and 5.): the starting gang is in play, the
  rest is shuffled and a five-card play hand drawn: **day 0**;
* each day, "1. Gamblin' Phase": a five-card draw hand from the deck, discarded
  once the lowball hand is resolved ("Draw Hand"), never joining the play hand;
* "6. Nightfall Phase": the player may discard one card from the play hand, then
  draws up to the maximum hand size (5).

**Day N** is the play hand after N days' Gamblin' and Nightfall draws (what the
player holds going into day N + 1's High Noon). Which cards a player plays is
the player's business; oddsmith's stated policy (:class:`DayPolicy`, named
``play-P-discard-one``) is that ``plays`` cards leave the play hand each High
Noon and one more is discarded at Nightfall, so each Nightfall draws
``plays + 1`` cards (at most 5). A query asks whether its cards have been
*drawn into the play hand* by day N (a card drawn and later played still
counts: it was there to play).

Every draw takes the top card of a uniformly shuffled deck and no card's
identity decides how many cards are drawn, so the play-hand cards by day N
are a uniformly random subset of ``5 + N * refill`` of the deck's cards, the
Gamblin' hands drawn in between notwithstanding. Odds are then exact
hypergeometric (one query) or multivariate hypergeometric (a conjunction of
several parts, each needing distinct cards) sums over integer counts. Days
that would empty the deck (its discard pile reshuffled, "Deck") are refused.

Queries (:func:`parse_query`): one filter ``card:TITLE``, ``type:T``,
``keyword:K``, ``value:V``, ``stud:N`` / ``draw:N`` (a stud or draw dude with
at least N bullets); several filters on one card joined with ``&``
(``stud:2 & keyword:deputy``); a conjunction of parts, each met by its own
cards, joined with ``;`` and optionally counted (``type:deed; 2x stud:1``).
See docs/doomtown.md, "What you will draw".
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Sequence

import pandas as pd

from oddsmith.doomtown.cardtable import CardTable, card_table as _card_table, parse_value_text, title_key
from oddsmith.doomtown.deck import Deck, deck_label, resolve_deck
from oddsmith.errors import OddsmithError, check_whole
from oddsmith.rules.doomtown import DAY_CARD_FLOW, DECK_RULES, VALUE_LABELS, deck_building_title

#: Card types a ``type:`` filter takes (the card table's types that can be in a draw deck).
CARD_TYPES = ("dude", "deed", "goods", "spell", "action", "joker")
_TYPE_ALIASES = {"dudes": "dude", "deeds": "deed", "good": "goods", "spells": "spell", "actions": "action",
                 "jokers": "joker"}
FILTER_KINDS = ("card", "type", "keyword", "value", "stud", "draw")
_KIND_ALIASES = {"title": "card", "kw": "keyword", "keywords": "keyword", "v": "value"}
#: Most parts in one conjunction, and most states its enumeration may walk (a clear error beyond).
MAX_PARTS = 6
MAX_STATES = 200_000
_PART_COUNT = re.compile(r"^(\d+)\s*[x×]\s+(.+)$", re.IGNORECASE)
#: "&" between filters on one card; an "&" inside a title ("Shane & Graves Security") is not one.
_AND = re.compile(r"\s*&\s*(?=(?:" + "|".join(FILTER_KINDS + tuple(_KIND_ALIASES)) + r")\s*:)", re.IGNORECASE)


@dataclass(frozen=True)
class DayPolicy:
    """The stated play policy ``play-P-discard-one``: ``plays`` cards leave the play hand each
    High Noon and, with ``nightfall_discard``, one more is discarded at Nightfall (Rulebook
    "6. Nightfall Phase": "may discard one card"); Nightfall then refills to the maximum hand size."""

    plays: int = 1
    nightfall_discard: bool = True

    def __post_init__(self) -> None:
        hand = DAY_CARD_FLOW.max_hand_size
        if isinstance(self.plays, bool) or not isinstance(self.plays, int) or not 0 <= self.plays <= hand:
            raise OddsmithError(f"--plays {self.plays!r}: cards played from the play hand in a day are 0..{hand}")

    @property
    def refill(self) -> int:
        """Cards drawn at each Nightfall."""
        gone = self.plays + (DAY_CARD_FLOW.nightfall_discard if self.nightfall_discard else 0)
        return min(gone, DAY_CARD_FLOW.max_hand_size)

    @property
    def name(self) -> str:
        return f"play-{self.plays}" + ("-discard-one" if self.nightfall_discard else "-no-discard")

    def play_hand_cards(self, day: int) -> int:
        """Cards drawn into the play hand by the end of day ``day`` (the opening hand included)."""
        return DAY_CARD_FLOW.opening_play_hand + day * self.refill

    def deck_cards_needed(self, day: int) -> int:
        """Cards taken from the deck by the end of day ``day``: play hands and Gamblin' hands."""
        return self.play_hand_cards(day) + day * DAY_CARD_FLOW.gamblin_draw_hand

    def max_day(self, deck_cards: int) -> int:
        """The last day before the deck runs out (-1 when even the opening hand does not fit)."""
        if deck_cards < DAY_CARD_FLOW.opening_play_hand:
            return -1
        per_day = self.refill + DAY_CARD_FLOW.gamblin_draw_hand
        return (deck_cards - DAY_CARD_FLOW.opening_play_hand) // per_day


# --------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CardFilter:
    """One test on one card: ``kind`` in :data:`FILTER_KINDS`, ``what`` its canonical text."""

    kind: str
    what: str
    number: int = 0

    def __str__(self) -> str:
        return f"{self.kind}:{self.what}"


@dataclass(frozen=True)
class QueryPart:
    """Cards passing every filter; the part needs ``count`` of them (None: the query's --at-least)."""

    filters: tuple[CardFilter, ...]
    count: int | None = None

    def __str__(self) -> str:
        text = " & ".join(str(f) for f in self.filters)
        return text if self.count is None else f"{self.count}x {text}"


@dataclass(frozen=True)
class Query:
    """One question: one part (P(at least k) and the expected count) or a conjunction of parts."""

    parts: tuple[QueryPart, ...]

    @property
    def conjunction(self) -> bool:
        return len(self.parts) > 1

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self.parts)


def _keyword_names(table: CardTable) -> dict[str, str]:
    """casefolded keyword (and its name without a rating: ``huckster`` for ``Huckster 1``) -> spelling."""
    out: dict[str, str] = {}
    for text in table.frame["keywords"].dropna():
        for k in str(text).split(";"):
            k = k.strip()
            if k:
                out.setdefault(k.casefold(), k)
                bare = re.sub(r"\s+\d+$", "", k)
                out.setdefault(bare.casefold(), bare)
    return out


def parse_filter(text: str, table: CardTable | None = None, *, where: str = "query") -> CardFilter:
    """``kind:what`` (see the module docstring) as a :class:`CardFilter`; bad input raises OddsmithError."""
    table = _card_table(table)
    kind, sep, what = str(text).partition(":")
    kind, what = kind.strip().casefold(), what.strip()
    kind = _KIND_ALIASES.get(kind, kind)
    if not sep or kind not in FILTER_KINDS:
        raise OddsmithError(f"{where}: {text.strip()!r} is not a filter; write card:TITLE, type:T, keyword:K, "
                            f"value:V, stud:N or draw:N")
    if kind in ("stud", "draw"):
        if not what.isdigit() or len(what) > 2:
            raise OddsmithError(f"{where}: {kind}:{what} needs a number of bullets, e.g. {kind}:2")
        return CardFilter(kind, what, int(what))
    if not what:
        example = {"card": "Shotgun", "type": "deed", "keyword": "Saloon", "value": "8"}[kind]
        if where == f"--{kind}":  # the --card, --type ... option itself
            raise OddsmithError(f"{where} names nothing (e.g. {where} {example!r})")
        raise OddsmithError(f"{where}: {kind}: names nothing (e.g. {kind}:{example})")
    if kind == "card":
        card = table.find(what)
        if card is None:  # a dude named without its experience marker: every version
            base = title_key(deck_building_title(what))
            versions = [t for t in table.frame["title"] if title_key(deck_building_title(t)) == base]
            if versions:
                return CardFilter("card", deck_building_title(versions[0]))
            card = table.lookup(what, where)
        if str(card["type"]) in ("outfit", "legend"):
            raise OddsmithError(f"{where}: {card['title']!r} is an {card['type']}; it is never in the draw deck")
        title = str(card["title"])
        return CardFilter("card", title)
    if kind == "type":
        t = _TYPE_ALIASES.get(what.casefold(), what.casefold())
        if t not in CARD_TYPES:
            raise OddsmithError(f"{where}: unknown card type {what!r} (types: {', '.join(CARD_TYPES)})")
        return CardFilter("type", t)
    if kind == "keyword":
        names = _keyword_names(table)
        if what.casefold() not in names:
            import difflib

            hint = difflib.get_close_matches(what.casefold(), list(names), n=1, cutoff=0.6)
            raise OddsmithError(f"{where}: no card of {table.source} has the keyword {what!r}"
                                + (f"; did you mean {names[hint[0]]!r}?" if hint else ""))
        return CardFilter("keyword", names[what.casefold()])
    value = parse_value_text(what)
    if value is None:
        raise OddsmithError(f"{where}: value {what!r} is not a card value (A, 2..10, J, Q, K or 1..13)")
    return CardFilter("value", VALUE_LABELS[value], value)


def parse_query(text: str, table: CardTable | None = None, *, where: str = "query") -> Query:
    """A query text: parts joined by ``;``, each ``[Nx ]filter[ & filter ...]``."""
    table = _card_table(table)
    parts = []
    raw = [p.strip() for p in str(text).split(";")]
    if not any(raw):
        raise OddsmithError(f"{where}: empty query (e.g. 'type:deed; stud:2')")
    for piece in raw:
        if not piece:
            raise OddsmithError(f"{where} {text.strip()!r}: an empty part between ';'")
        count = None
        m = _PART_COUNT.match(piece)
        if m:
            count = int(m.group(1))
            if not 1 <= count <= DECK_RULES.max_deck_size:
                raise OddsmithError(f"{where}: count {m.group(1)} in {piece!r} is not 1..{DECK_RULES.max_deck_size}")
            piece = m.group(2)
        filters = tuple(parse_filter(f, table, where=where) for f in _AND.split(piece))
        parts.append(QueryPart(filters, count))
    if len(parts) > MAX_PARTS:
        raise OddsmithError(f"{where}: {len(parts)} parts; a query joins at most {MAX_PARTS}")
    return Query(tuple(parts))


def single_query(kind: str, what: str, table: CardTable | None = None) -> Query:
    """The query of one ``--card``, ``--type``, ``--keyword`` or ``--value`` option."""
    where = f"--{kind}"
    return Query((QueryPart((parse_filter(f"{kind}:{what}", table, where=where),)),))


def _row_keywords(deck: Deck, table: CardTable) -> list[set[str]]:
    out = []
    for title in deck.cards["title"]:
        card = table.find(title) if isinstance(title, str) and title else None
        text = "" if card is None or not isinstance(card.get("keywords"), str) else card["keywords"]
        names = set()
        for k in text.split(";"):
            k = k.strip().casefold()
            if k:
                names.add(k)
                names.add(re.sub(r"\s+\d+$", "", k))
        out.append(names)
    return out


def _matches(deck: Deck, f: CardFilter, keywords: list[set[str]]) -> list[bool]:
    cards = deck.cards
    if f.kind == "value":
        return [v is not pd.NA and v is not None and int(v) == f.number for v in cards["value"]]
    if f.kind in ("type", "card", "keyword") and f.what != "joker" and cards["title"].isna().all():
        raise OddsmithError(f"{deck.name}: a plain list of cards has no titles, types or keywords; "
                            f"{f.kind}:{f.what} needs a deck list by titles or a CSV (value: works on any deck)")
    if f.kind == "type":
        return [t == f.what for t in cards["type"]]
    if f.kind == "card":
        want = title_key(f.what)
        base = title_key(deck_building_title(f.what))
        every_version = want == base  # a title without an experience marker counts every version
        return [isinstance(t, str) and (title_key(t) == want or (every_version and
                                                                  title_key(deck_building_title(t)) == base))
                for t in cards["title"]]
    if f.kind == "keyword":
        return [f.what.casefold() in k for k in keywords]
    bullets = cards["bullets"]
    return [t == "dude" and s == f.kind and b is not pd.NA and int(b) >= f.number
            for t, s, b in zip(cards["type"], cards["shooter"], bullets)]


def _part_mask(deck: Deck, part: QueryPart, keywords: list[set[str]]) -> list[bool]:
    """Which deck cards pass every filter of ``part``."""
    masks = [_matches(deck, f, keywords) for f in part.filters]
    return [all(col) for col in zip(*masks)]


# --------------------------------------------------------------------------
# Exact odds
# --------------------------------------------------------------------------


def p_at_least(matching: int, deck_cards: int, drawn: int, k: int) -> Fraction:
    """P(at least ``k`` of ``matching`` cards among ``drawn`` drawn from ``deck_cards``): hypergeometric."""
    total = math.comb(deck_cards, drawn)
    hits = sum(math.comb(matching, x) * math.comb(deck_cards - matching, drawn - x)
               for x in range(k, min(matching, drawn) + 1))
    return Fraction(hits, total)


def _hall(counts: dict[tuple[bool, ...], int], need: Sequence[int]) -> bool:
    """Whether distinct cards can meet every part: Hall's condition over every set of parts."""
    m = len(need)
    for r in range(1, m + 1):
        for subset in itertools.combinations(range(m), r):
            have = sum(n for cls, n in counts.items() if any(cls[j] for j in subset))
            if have < sum(need[j] for j in subset):
                return False
    return True


def p_all(memberships: Sequence[Sequence[bool]], drawn: int, need: Sequence[int]) -> Fraction:
    """P(the ``drawn`` cards, a uniform subset of the deck, hold distinct cards meeting every part).

    ``memberships``: one row per deck card, which parts it matches; ``need``: cards each part needs.
    Multivariate hypergeometric: cards are grouped by the parts they match, and the counts drawn of
    each group (capped at what can ever help) are enumerated with their binomial weights.
    """
    deck_cards = len(memberships)
    sizes: dict[tuple[bool, ...], int] = {}
    other = 0
    for row in memberships:
        cls = tuple(bool(x) for x in row)
        if any(cls):
            sizes[cls] = sizes.get(cls, 0) + 1
        else:
            other += 1
    classes = sorted(sizes)
    caps = [min(sizes[c], sum(n for n, hit in zip(need, c) if hit)) for c in classes]
    states: dict[tuple[tuple[int, ...], int], int] = {((), 0): 1}
    for cls, cap in zip(classes, caps):
        size = sizes[cls]
        nxt: dict[tuple[tuple[int, ...], int], int] = {}
        for (vec, total), ways in states.items():
            for x in range(0, min(size, drawn - total) + 1):
                key = (vec + (min(x, cap),), total + x)
                nxt[key] = nxt.get(key, 0) + ways * math.comb(size, x)
        states = nxt
        if len(states) > MAX_STATES:
            raise OddsmithError("the query joins too many overlapping parts to count exactly in reasonable time; "
                                "split it into smaller --all queries")
    hits = 0
    for (vec, total), ways in states.items():
        rest = drawn - total
        if rest > other:
            continue
        if _hall(dict(zip(classes, vec)), need):
            hits += ways * math.comb(other, rest)
    return Fraction(hits, math.comb(deck_cards, drawn))


#: Columns of :attr:`DrawOdds.rows`.
DRAW_COLUMNS = ("query", "kind", "day", "cards_drawn", "matching", "p_at_least_1", "p_at_least", "expected")


@dataclass(frozen=True)
class DrawOdds:
    """Exact odds of the play hand by day (:func:`deck_draws`). ``rows`` has :data:`DRAW_COLUMNS`
    (``p_at_least`` only with ``at_least``); probabilities as floats, ``exact_rows`` as fractions."""

    deck: str
    deck_state: str
    deck_cards: int
    policy: DayPolicy
    days: tuple[int, ...]
    at_least: int | None
    rows: pd.DataFrame
    exact_rows: tuple[dict[str, Any], ...] = field(repr=False, default=())

    def to_json(self) -> dict[str, Any]:
        """``deck``, ``deck_state``, ``deck_cards``, ``policy``, ``refill``, ``at_least``, ``exact``
        (true), ``trials`` (0) and ``rows`` (``query``, ``kind``, ``day``, ``cards_drawn``,
        ``matching``, ``p_at_least_1``, ``p_at_least`` with ``at_least``, ``expected``)."""
        counted = self.rows["p_at_least"].notna().any()
        rows = self.rows if counted else self.rows.drop(columns=["p_at_least"])
        return {"deck": self.deck, "deck_state": self.deck_state, "deck_cards": self.deck_cards,
                "policy": self.policy.name, "plays": self.policy.plays,
                "nightfall_discard": self.policy.nightfall_discard, "refill": self.policy.refill,
                "at_least": self.at_least, "exact": True, "trials": 0, "rows": rows}


def deck_draws(deck: object, queries: Iterable[Query | str], *, days: Iterable[int] | None = None,
               at_least: int | None = None, policy: DayPolicy | None = None,
               card_table: CardTable | None = None) -> DrawOdds:
    """Exact odds that the play hand has held each query's cards by each day.

    ``deck``: anything :func:`oddsmith.doomtown.deck.resolve_deck` takes (used as set-up leaves
    it); ``queries``: :class:`Query` objects or query texts (:func:`parse_query`); ``days``: the
    days (0 is the opening play hand; default 0 to 3, fewer if the deck runs out sooner);
    ``at_least``: k for P(at least k) (and the count of parts without one); ``policy``: the
    stated :class:`DayPolicy` (default: play one card a day, discard one at Nightfall).
    """
    policy = policy or DayPolicy()
    resolved = resolve_deck(deck)
    if not isinstance(resolved, Deck):
        raise OddsmithError("deck draws needs a deck (a file, a sample name or a deck list), not bare card codes")
    table = card_table or resolved.table or _card_table()
    qs = [q if isinstance(q, Query) else parse_query(q, table) for q in queries]
    if not qs:
        raise OddsmithError("no query: give --card, --type, --keyword, --value or --all")
    if at_least is not None:
        check_whole(at_least, "--at-least", 1, DECK_RULES.max_deck_size)
    n = len(resolved)
    last = policy.max_day(n)
    if last < 0:
        raise OddsmithError(f"{deck_label(resolved)}: {n} cards in the draw deck; the opening play hand alone "
                            f"takes {DAY_CARD_FLOW.opening_play_hand}")
    if days is None:
        day_list = list(range(0, min(3, last) + 1))
    else:
        day_list = sorted(dict.fromkeys(check_whole(d, "--day", 0) for d in days))
        if not day_list:
            raise OddsmithError("no day asked for")
        if day_list[-1] > last:
            d = day_list[-1]
            raise OddsmithError(
                f"--day {d}: by then {policy.deck_cards_needed(d)} cards are drawn from a {n}-card deck, which "
                f"runs out and is reshuffled from the discard pile; deck draws counts exactly up to day {last} "
                f"(policy {policy.name})")
    keywords = _row_keywords(resolved, table)
    rows, exact_rows = [], []
    for q in qs:
        member = [_part_mask(resolved, p, keywords) for p in q.parts]
        by_card = list(zip(*member))
        union = sum(any(r) for r in by_card)
        counted = at_least is not None or any(p.count is not None for p in q.parts)
        for day in day_list:
            h = policy.play_hand_cards(day)
            if q.conjunction:
                p1 = p_all(by_card, h, [1] * len(q.parts))
                pk = p_all(by_card, h, [p.count or at_least or 1 for p in q.parts]) if counted else None
            else:
                m = sum(member[0])
                p1 = p_at_least(m, n, h, 1)
                pk = p_at_least(m, n, h, q.parts[0].count or at_least or 1) if counted else None
            expected = Fraction(h * union, n)
            exact = {"query": str(q), "kind": "all" if q.conjunction else "one", "day": day, "cards_drawn": h,
                     "matching": union, "p_at_least_1": p1, "p_at_least": pk, "expected": expected}
            exact_rows.append(exact)
            rows.append({**exact, "p_at_least_1": float(p1), "p_at_least": None if pk is None else float(pk),
                         "expected": float(expected)})
    frame = pd.DataFrame(rows, columns=list(DRAW_COLUMNS))
    return DrawOdds(deck=deck_label(resolved), deck_state=resolved.deck_state, deck_cards=n, policy=policy,
                    days=tuple(day_list), at_least=at_least, rows=frame, exact_rows=tuple(exact_rows))
