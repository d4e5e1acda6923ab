"""Pulls: skill tests, Kung Fu tests, suit and value pulls, exactly.

Rulebook "Pulls": a pull reveals the top card of your deck and compares its
suit or value to the pull's instructions. "Skill Tests": pull, add the dude's
skill rating, succeed when the total meets or beats the difficulty. "Kung Fu &
Techniques": succeed when the pull is less than or equal to the performing
dude's value, Kung Fu rating included. "Jokers": jokers are wild in pulls, and
a pulled joker takes the value (and suit) its owner wants, so it succeeds at
any pull that some card could pass.

A pull is one card from the shuffled remaining deck, so every figure here is
exact: successes / cards left, after removing the cards already seen (the
discard pile, the play hand, the cards in play). Each frame carries the two
integers beside the probability so a reader can check it by hand.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from oddsmith.doomtown.deck import deck_state_of, kernel_counts, resolve_deck
from oddsmith.errors import OddsmithError, quote
from oddsmith.rules.doomtown import (
    JOKER_CODE,
    N_SUITS,
    PULL_JOKER_VALUE_KUNG_FU,
    PULL_JOKER_VALUE_SKILL,
    VALUE_LABELS,
    VALUE_MAX,
    VALUE_MIN,
    Suit,
    Value,
    kung_fu_dude_value,
    kung_fu_test_succeeds,
    skill_test_succeeds,
)

VALUES = tuple(range(VALUE_MIN, VALUE_MAX + 1))


class PullDeck:
    """The cards a pull can reveal: per-code counts of the deck minus the cards seen.

    ``deck`` is anything :func:`~oddsmith.doomtown.deck.resolve_deck` takes (a sample
    name, a file, a deck text, a Deck, cards), as it stands after set-up."""

    def __init__(self, deck: object, seen: object = ()) -> None:
        deck = resolve_deck(deck)
        #: which deck the pull is from (after set-up, or full); also in each table's ``attrs``
        self.deck_state = deck_state_of(deck)
        self.counts = kernel_counts(deck, without=seen, what="seen cards")
        self.cards = int(self.counts.sum())
        if self.cards < 1:
            raise OddsmithError("no cards are left in the deck to pull")
        self.jokers = int(self.counts[JOKER_CODE])
        valued = self.counts[:JOKER_CODE].reshape(VALUE_MAX, N_SUITS)
        #: cards of each value 1..13 (index value - 1), jokers not included
        self.by_value = valued.sum(axis=1).astype(np.int64)
        #: cards of each suit (kernel order), jokers not included
        self.by_suit = valued.sum(axis=0).astype(np.int64)
        self._valued = valued.astype(np.int64)

    def successes(self, values: Iterable[int] | None = None, suits: Iterable[int] | None = None) -> int:
        """Cards that pass a pull wanting a value in ``values`` and a suit in ``suits``
        (None: any). A joker passes whenever some suit and value would."""
        vs = sorted(set(VALUES if values is None else (int(v) for v in values)))
        ss = sorted(set(range(N_SUITS) if suits is None else (int(s) for s in suits)))
        natural = int(self._valued[np.ix_([v - 1 for v in vs], ss)].sum()) if vs and ss else 0
        return natural + (self.jokers if vs and ss else 0)


def _frame(rows: list[dict], columns: Sequence[str]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(columns))
    df["p_success"] = df["successes"] / df["cards"]
    return df


def _stated(df: pd.DataFrame, deck: PullDeck) -> pd.DataFrame:
    df.attrs["deck_state"] = deck.deck_state  # which deck the figures are of
    return df


def _int_list(name: str, values: int | Iterable[int] | None, default: Iterable[int]) -> list[int]:
    if values is None:
        return list(default)
    out = [int(values)] if isinstance(values, (int, np.integer)) else [int(v) for v in values]
    if not out:
        raise OddsmithError(f"{name}: give at least one number")
    return out


def skill_test_odds(
    deck: object,
    skill_rating: int | Iterable[int] | None = None,
    difficulty: int | Iterable[int] | None = None,
    *,
    seen: object = (),
) -> pd.DataFrame:
    """P(success) of a skill test (Rulebook "Skill Tests": pull value + skill rating >= difficulty).

    Give one rating and one difficulty for a single figure, or leave either out
    (or give several) for a table: ratings default to 0..5, difficulties to
    every difficulty from sure success to sure failure. A pulled joker counts
    as a king (Rulebook "Jokers": its owner picks the value).
    Columns: skill_rating, difficulty, successes, cards, p_success.
    """
    pd_ = PullDeck(deck, seen)
    ratings = _int_list("skill rating", skill_rating, range(0, 6))
    for r in ratings:
        if r < 0:
            raise OddsmithError(f"skill rating must be 0 or more, got {r}")
    top = VALUE_MAX + max(ratings) + 1
    difficulties = _int_list("difficulty", difficulty, range(1, top + 1))
    rows = []
    for r in ratings:
        for d in difficulties:
            passing = [v for v in VALUES if skill_test_succeeds(v, r, d)]
            natural = int(sum(pd_.by_value[v - 1] for v in passing))
            joker = pd_.jokers if skill_test_succeeds(PULL_JOKER_VALUE_SKILL, r, d) else 0
            rows.append({"skill_rating": r, "difficulty": d, "successes": natural + joker, "cards": pd_.cards})
    return _stated(_frame(rows, ["skill_rating", "difficulty", "successes", "cards"]), pd_)


def kung_fu_test_odds(
    deck: object,
    dude_value: int | Iterable[int] | None = None,
    kung_fu_rating: int | Iterable[int] = 0,
    *,
    seen: object = (),
) -> pd.DataFrame:
    """P(success) of a Kung Fu test (Rulebook "Kung Fu & Techniques": the pull is at most the
    dude's value, Kung Fu rating included; value held at most 13 by "Maximums & Minimums").

    ``dude_value`` is the printed value (default: a table over 1..13);
    ``kung_fu_rating`` is added to it. A pulled joker takes the lowest value and succeeds.
    Columns: dude_value, kung_fu_rating, effective_value, successes, cards, p_success.
    """
    pd_ = PullDeck(deck, seen)
    values = _int_list("dude value", dude_value, VALUES)
    ratings = _int_list("Kung Fu rating", kung_fu_rating, [0])
    for v in values:
        if not VALUE_MIN <= v <= VALUE_MAX:
            raise OddsmithError(f"dude value must be {VALUE_MIN}..{VALUE_MAX}, got {v}")
    for r in ratings:
        if r < 0:
            raise OddsmithError(f"Kung Fu rating must be 0 or more, got {r}")
    rows = []
    for r in ratings:
        for v in values:
            eff = kung_fu_dude_value(v, r)
            passing = [p for p in VALUES if kung_fu_test_succeeds(p, eff)]
            natural = int(sum(pd_.by_value[p - 1] for p in passing))
            joker = pd_.jokers if kung_fu_test_succeeds(PULL_JOKER_VALUE_KUNG_FU, eff) else 0
            rows.append({"dude_value": v, "kung_fu_rating": r, "effective_value": eff,
                         "successes": natural + joker, "cards": pd_.cards})
    return _stated(_frame(rows, ["dude_value", "kung_fu_rating", "effective_value", "successes", "cards"]), pd_)


# --------------------------------------------------------------------------
# Suit and value pulls
# --------------------------------------------------------------------------

_SUIT_WORDS = {
    "s": Suit.SPADES, "spade": Suit.SPADES, "spades": Suit.SPADES, "♠": Suit.SPADES,
    "h": Suit.HEARTS, "heart": Suit.HEARTS, "hearts": Suit.HEARTS, "♥": Suit.HEARTS,
    "d": Suit.DIAMONDS, "diamond": Suit.DIAMONDS, "diamonds": Suit.DIAMONDS, "♦": Suit.DIAMONDS,
    "c": Suit.CLUBS, "club": Suit.CLUBS, "clubs": Suit.CLUBS, "♣": Suit.CLUBS,
}
# Colour words some pull instructions use.
_SUIT_GROUPS = {"red": (Suit.HEARTS, Suit.DIAMONDS), "black": (Suit.SPADES, Suit.CLUBS)}


def parse_suits(text: str | Iterable[str]) -> tuple[Suit, ...]:
    """Suits named in ``text``: ``spades``, ``H``, ``♦``, ``red``, ``black`` or a comma list of them."""
    parts = re.split(r"[,\s/]+", text) if isinstance(text, str) else list(text)
    parts = [p for p in (str(x).strip() for x in parts) if p]
    if not parts:
        raise OddsmithError("no suit given (use spades, hearts, diamonds, clubs, red or black)")
    out: list[Suit] = []
    for i, p in enumerate(parts, 1):
        key = p.casefold()
        if key in _SUIT_GROUPS:
            out.extend(_SUIT_GROUPS[key])
        elif key in _SUIT_WORDS:
            out.append(_SUIT_WORDS[key])
        else:
            raise OddsmithError(f"unknown suit {quote(p)} (item {i}); use spades, hearts, diamonds, clubs, red or black")
    return tuple(sorted(set(out)))


# Letters and names of the face values as the rules model names them (A, J, Q, K; ace, jack, ...).
_VALUE_WORDS = {**{VALUE_LABELS[v].casefold(): int(v) for v in (Value.ACE, Value.JACK, Value.QUEEN, Value.KING)},
                **{v.name.casefold(): int(v) for v in (Value.ACE, Value.JACK, Value.QUEEN, Value.KING)}}


def _in_pull(spec: str, item: str) -> str:
    """Where a bad item of a value pull is: the whole condition, unless it is that one item
    (then quoting both would say the same thing twice)."""
    return "value pull: " if item.strip() == spec.strip() else f"value pull {quote(spec)}: "


def _value_token(tok: str, spec: str) -> int:
    t = tok.strip().casefold()
    if t in _VALUE_WORDS:
        return _VALUE_WORDS[t]
    if t.isdigit() and VALUE_MIN <= int(t) <= VALUE_MAX:
        return int(t)
    raise OddsmithError(f"{_in_pull(spec, tok)}{quote(tok.strip())} is not a card value (A, 2..10, J, Q, K or 1..13)")


def parse_value_condition(spec: str) -> tuple[int, ...]:
    """The values a value pull wants, from ``8`` (exactly 8), ``8+`` or ``>=8`` (8 or more),
    ``8-`` or ``<=8`` (8 or less), ``>8``, ``<8``, ``3-7`` (3 to 7), or a comma list of these."""
    spec = str(spec).strip()
    if not spec:
        raise OddsmithError("empty value pull condition")
    wanted: set[int] = set()
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            raise OddsmithError(f"value pull {quote(spec)}: empty item")
        m = re.fullmatch(r"(>=|<=|>|<|=|==)?\s*([A-Za-z0-9]+)\s*([+-])?", part)
        rng = re.fullmatch(r"([A-Za-z0-9]+)\s*(?:-|\.\.)\s*([A-Za-z0-9]+)", part)
        if rng:
            lo, hi = _value_token(rng.group(1), spec), _value_token(rng.group(2), spec)
            if lo > hi:
                raise OddsmithError(f"{_in_pull(spec, part)}range {quote(part)} runs backwards")
            wanted.update(range(lo, hi + 1))
        elif m:
            op, v, tail = m.group(1) or "", _value_token(m.group(2), spec), m.group(3)
            if op and tail:
                raise OddsmithError(f"{_in_pull(spec, part)}{quote(part)} has two comparisons")
            if tail == "+" or op == ">=":
                wanted.update(range(v, VALUE_MAX + 1))
            elif tail == "-" or op == "<=":
                wanted.update(range(VALUE_MIN, v + 1))
            elif op == ">":
                wanted.update(range(v + 1, VALUE_MAX + 1))
            elif op == "<":
                wanted.update(range(VALUE_MIN, v))
            else:
                wanted.add(v)
        else:
            raise OddsmithError(f"{_in_pull(spec, part)}cannot read {quote(part)} (try 8, 8+, <=5, 3-7)")
    if not wanted:
        raise OddsmithError(f"value pull {quote(spec)} wants no value at all")
    return tuple(sorted(wanted))


def _values_text(values: Sequence[int]) -> str:
    vs = sorted(values)
    runs, start = [], vs[0]
    for a, b in zip(vs, vs[1:] + [None]):
        if b != a + 1:
            runs.append(VALUE_LABELS[start] if start == a else f"{VALUE_LABELS[start]}-{VALUE_LABELS[a]}")
            if b is not None:
                start = b
    return ",".join(runs)


def pull_odds(
    deck: object,
    *,
    suits: str | Iterable[str] | None = None,
    values: str | Iterable[int] | None = None,
    seen: object = (),
) -> pd.DataFrame:
    """P(a pull passes) for a pull wanting a suit in ``suits`` and/or a value in ``values``
    (Rulebook "Pulls"); a joker is wild and passes. One row:
    condition, suits, values, successes, cards, p_success."""
    pd_ = PullDeck(deck, seen)
    if suits is None and values is None:
        raise OddsmithError("a pull needs a suit, a value condition, or both")
    suit_set = None if suits is None else parse_suits(suits)
    if values is None:
        value_set = None
    elif isinstance(values, str):
        value_set = parse_value_condition(values)
    else:
        value_set = tuple(sorted({_value_token(str(v), str(values)) for v in values}))
    parts = []
    if value_set is not None:
        parts.append("value " + _values_text(list(value_set)))
    if suit_set is not None:
        parts.append("suit " + "/".join(s.name.lower() for s in suit_set))
    row = {
        "condition": " and ".join(parts),
        "suits": "any" if suit_set is None else ",".join(s.name.lower() for s in suit_set),
        "values": "any" if value_set is None else _values_text(list(value_set)),
        "successes": pd_.successes(value_set, suit_set),
        "cards": pd_.cards,
    }
    return _stated(_frame([row], ["condition", "suits", "values", "successes", "cards"]), pd_)


def value_pull_table(deck: object, *, seen: object = ()) -> pd.DataFrame:
    """What a pull reveals, value by value: cards of that value left, and P(pull passes) for a pull
    wanting exactly that value, that value or more, that value or less (jokers wild in each).
    Columns: value, label, cards_of_value, cards, p_exactly, p_at_least, p_at_most."""
    pd_ = PullDeck(deck, seen)
    rows = []
    for v in VALUES:
        rows.append({
            "value": v, "label": VALUE_LABELS[v], "cards_of_value": int(pd_.by_value[v - 1]), "cards": pd_.cards,
            "p_exactly": pd_.successes([v]) / pd_.cards,
            "p_at_least": pd_.successes(range(v, VALUE_MAX + 1)) / pd_.cards,
            "p_at_most": pd_.successes(range(VALUE_MIN, v + 1)) / pd_.cards,
        })
    return _stated(pd.DataFrame(rows), pd_)


def suit_pull_table(deck: object, *, seen: object = ()) -> pd.DataFrame:
    """P(a pull shows each suit), jokers wild. Columns: suit, cards_of_suit, cards, p_success."""
    pd_ = PullDeck(deck, seen)
    rows = [{"suit": s.name.lower(), "cards_of_suit": int(pd_.by_suit[s]), "cards": pd_.cards,
             "p_success": pd_.successes(None, [s]) / pd_.cards} for s in Suit]
    return _stated(pd.DataFrame(rows), pd_)
