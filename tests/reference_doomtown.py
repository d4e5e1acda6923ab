"""Plain, slow, obviously-right reference for Doomtown hand evaluation (tests only).

Straight from the rulebook ("Poker Hand Ranks", "Tied Hand Ranks", "Cheatin'",
"Jokers"; Quick reference "Hand Ranks"), with no cleverness:

* a five-card hand's rank is the highest rank whose definition it meets;
* its tie-break values follow the "Tied Hand Ranks" table;
* the best hand of n cards is the best over *every* five-card subset and *every*
  assignment of each joker in it to each of the 52 suit+value identities
  (max in a shootout, min in lowball);
* a five is legal when its valued cards are pairwise distinct (jokers never
  make a hand cheatin').

Keys use the layout of ``oddsmith.rules.doomtown`` (rank << 20, then five 4-bit
tie-break values), so they can be compared with the kernel's keys directly.
Other tests (e.g. deck kernels) import this module.

Two entry points compute the same thing: :func:`best_hand` (one hand, plain
loops) and :func:`best_keys` (many hands, the same brute force vectorised with
numpy so 100,000 hands take about a minute, not hours).
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

JOKER = 52
DEAD_MANS_HAND = frozenset({(1, 0), (1, 3), (8, 0), (8, 3), (11, 2)})  # A♠ A♣ 8♠ 8♣ J♦ as (value, suit)
DEAD_MANS_HAND_CODES = tuple(sorted((v - 1) * 4 + s for v, s in DEAD_MANS_HAND))
IDENTITIES = tuple(range(52))  # every suit+value a joker may take

(HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND,
 STRAIGHT_FLUSH, FIVE_OF_A_KIND, DEAD_MANS_HAND_RANK) = range(1, 12)


def value_of(code: int) -> int:
    return code // 4 + 1


def suit_of(code: int) -> int:
    return code % 4


def pack(rank: int, fields: Sequence[int]) -> int:
    key = rank
    for f in fields:
        key = key * 16 + f
    return key


def rank_and_fields(cards: Sequence[tuple[int, int]]) -> tuple[int, tuple[int, ...]]:
    """Rank and tie-break values of five (value, suit) cards, straight from the book."""
    assert len(cards) == 5
    values = sorted((v for v, _ in cards), reverse=True)
    counts = {v: values.count(v) for v in values}
    # largest group first, then higher value first: "the pair, then the next highest card..."
    by_group = tuple(sorted(values, key=lambda v: (counts[v], v), reverse=True))
    from_top = tuple(values)
    shape = sorted(counts.values(), reverse=True)
    same_suit = len({s for _, s in cards}) == 1
    # five different values in sequence; aces are always low (10-J-Q-K-A is no straight)
    in_sequence = len(counts) == 5 and values[0] - values[4] == 4
    if set(cards) == DEAD_MANS_HAND and len(set(cards)) == 5:
        return DEAD_MANS_HAND_RANK, by_group
    if shape[0] == 5:
        return FIVE_OF_A_KIND, by_group
    if in_sequence and same_suit:
        return STRAIGHT_FLUSH, from_top
    if shape[0] == 4:
        return FOUR_OF_A_KIND, by_group
    if shape[:2] == [3, 2]:
        return FULL_HOUSE, by_group
    if same_suit:
        return FLUSH, from_top
    if in_sequence:
        return STRAIGHT, from_top
    if shape[0] == 3:
        return THREE_OF_A_KIND, by_group
    if shape[:2] == [2, 2]:
        return TWO_PAIR, by_group
    if shape[0] == 2:
        return PAIR, by_group
    return HIGH_CARD, from_top


def key_of_cards(cards: Sequence[tuple[int, int]]) -> int:
    """Comparable key of five (value, suit) cards."""
    rank, fields = rank_and_fields(cards)
    return pack(rank, fields)


@functools.lru_cache(maxsize=None)
def key_of_identities(idents: tuple[int, ...]) -> int:
    """Key of five identity codes (0..51, jokers already assigned); ``idents`` sorted."""
    return key_of_cards([(value_of(c), suit_of(c)) for c in idents])


def is_legal(codes: Sequence[int]) -> bool:
    """No two valued cards share suit and value (Rulebook "Cheatin'"; jokers excluded)."""
    valued = [c for c in codes if c != JOKER]
    return len(set(valued)) == len(valued)


@dataclass(frozen=True)
class ReferenceResult:
    key: int  # best key of any legality
    legal_key: int  # best legal key, 0 when no legal five exists
    cheatin: bool  # the best hand cannot be made legally

    @property
    def rank(self) -> int:
        return self.key >> 20

    @property
    def legal_rank(self) -> int:
        return self.legal_key >> 20


def five_card_keys(five: Sequence[int]) -> list[int]:
    """Key of five cards for every assignment of its jokers to the 52 identities."""
    jokers = [i for i, c in enumerate(five) if c == JOKER]
    out = []
    for assignment in itertools.product(IDENTITIES, repeat=len(jokers)):
        idents = list(five)
        for pos, ident in zip(jokers, assignment):
            idents[pos] = ident
        out.append(key_of_identities(tuple(sorted(idents))))
    return out


def best_hand(codes: Sequence[int], lowball: bool = False) -> ReferenceResult:
    """Best hand (max key in a shootout, min in lowball) over every five-card subset and
    every joker assignment, of any legality and legal only."""
    pick = min if lowball else max
    best = legal = None
    for five in itertools.combinations(list(codes), 5):
        k = pick(five_card_keys(five))
        best = k if best is None else pick(best, k)
        if is_legal(five):
            legal = k if legal is None else pick(legal, k)
    return ReferenceResult(best, legal or 0, legal != best)


# ---------------------------------------------------------------------------
# The same brute force, vectorised over many hands
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray, int]:
    """Keys of every sorted value multiset (indexed in base 13), non-flush and flush, and the
    Dead Man's Hand key, all computed by :func:`key_of_cards`."""
    plain = np.zeros(13**5, dtype=np.int64)
    flush = np.zeros(13**5, dtype=np.int64)
    for values in itertools.combinations_with_replacement(range(1, 14), 5):
        idx = 0
        for v in values:
            idx = idx * 13 + (v - 1)
        plain[idx] = key_of_cards([(v, 0 if i == 0 else 1) for i, v in enumerate(values)])
        flush[idx] = key_of_cards([(v, 0) for v in values])
    dmh = key_of_cards(sorted(DEAD_MANS_HAND))
    return plain, flush, dmh


def _keys_of_rows(idents: np.ndarray) -> np.ndarray:
    """Keys of rows of five identity codes (the vectorised :func:`key_of_identities`)."""
    plain, flush, dmh = _tables()
    values = np.sort((idents // 4).astype(np.int8), axis=1).astype(np.int64)  # 0-based values
    idx = np.zeros(len(idents), dtype=np.int64)
    for col in range(5):
        idx = idx * 13 + values[:, col]
    suits = idents % 4
    same_suit = (suits == suits[:, :1]).all(axis=1)
    keys = np.where(same_suit, flush[idx], plain[idx])
    # exactly the five Dead Man's Hand cards: a sum of five powers of two has five bits
    # set only when they are distinct, so the sums match only for that exact set
    bits = (np.int64(1) << idents.astype(np.int64)).sum(axis=1)
    is_dmh = bits == sum(1 << c for c in DEAD_MANS_HAND_CODES)
    return np.where(is_dmh, dmh, keys)


@functools.lru_cache(maxsize=None)
def _combinations(n: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(n), 5)), dtype=np.int64).reshape(-1, 5)


@functools.lru_cache(maxsize=None)
def _joker_assignments(j: int) -> np.ndarray:
    """Every assignment of j interchangeable jokers to the 52 identities."""
    return np.array(list(itertools.combinations_with_replacement(IDENTITIES, j)), dtype=np.int16).reshape(-1, j)


def _hand_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (five-card subset, joker assignment) of one hand as identity rows, and whether
    the subset each row comes from is legal."""
    subsets = np.sort(codes[_combinations(len(codes))], axis=1).astype(np.int16)  # jokers (52) sort last
    n_jokers = (subsets == JOKER).sum(axis=1)
    same = (subsets[:, 1:] == subsets[:, :-1]) & (subsets[:, 1:] != JOKER)
    legal = ~same.any(axis=1)
    rows, row_legal = [], []
    for j in range(3):
        chosen = n_jokers == j
        sel = subsets[chosen]
        if not len(sel):
            continue
        if j == 0:
            rows.append(sel)
            row_legal.append(legal[chosen])
            continue
        assignments = _joker_assignments(j)
        expanded = np.repeat(sel, len(assignments), axis=0)
        expanded[:, 5 - j:] = np.tile(assignments, (len(sel), 1))
        rows.append(expanded)
        row_legal.append(np.repeat(legal[chosen], len(assignments)))
    return np.concatenate(rows), np.concatenate(row_legal)


@dataclass(frozen=True)
class ReferenceKeys:
    """Best keys of many hands in both modes (legal keys 0 when no legal five exists)."""

    best: np.ndarray  # shootout, any legality
    legal: np.ndarray  # shootout, legal
    low_best: np.ndarray  # lowball, any legality
    low_legal: np.ndarray  # lowball, legal


def best_keys(hands: Sequence[Sequence[int]], chunk_rows: int = 2_000_000) -> ReferenceKeys:
    """Best keys of every hand in both modes, by the same brute force as :func:`best_hand`."""
    n = len(hands)
    out = {name: np.zeros(n, dtype=np.int64) for name in ("best", "legal", "low_best", "low_legal")}
    pending: list[tuple[int, np.ndarray, np.ndarray]] = []
    pending_rows = 0
    never = np.int64(1 << 40)

    def flush_pending() -> None:
        nonlocal pending, pending_rows
        if not pending:
            return
        keys = _keys_of_rows(np.concatenate([p[1] for p in pending]))
        legal_rows = np.concatenate([p[2] for p in pending])
        starts = np.concatenate([[0], np.cumsum([len(p[1]) for p in pending])[:-1]])
        ids = np.array([p[0] for p in pending])
        out["best"][ids] = np.maximum.reduceat(keys, starts)
        out["low_best"][ids] = np.minimum.reduceat(keys, starts)
        # legal: illegal rows get a key that never wins, then 0 where nothing legal was found
        hi = np.maximum.reduceat(np.where(legal_rows, keys, -1), starts)
        lo = np.minimum.reduceat(np.where(legal_rows, keys, never), starts)
        out["legal"][ids] = np.where(hi < 0, 0, hi)
        out["low_legal"][ids] = np.where(lo == never, 0, lo)
        pending, pending_rows = [], 0

    for i, hand in enumerate(hands):
        rows, row_legal = _hand_rows(np.asarray(hand, dtype=np.int64))
        pending.append((i, rows, row_legal))
        pending_rows += len(rows)
        if pending_rows >= chunk_rows:
            flush_pending()
    flush_pending()
    return ReferenceKeys(**out)


def random_legal_deck(rng: np.random.Generator, jokers: int, stacked_value: int | None = None) -> np.ndarray:
    """A random legal deck: 52 valued cards with at most 4 per suit+value, plus ``jokers``.
    With ``stacked_value`` the deck holds all 16 cards of that value (4 of each suit).

    Each identity has 4 slots; the deck is 52 slots drawn without replacement with
    uneven weights per identity, so duplicates are common, as in real decks."""
    slots = np.repeat(np.arange(52), 4)
    weights = np.repeat(rng.dirichlet(np.full(52, 0.3)) + 1e-3, 4)
    chosen = np.zeros(len(slots), dtype=bool)
    if stacked_value is not None:
        chosen[(slots // 4 + 1) == stacked_value] = True
    free = np.flatnonzero(~chosen)
    p = weights[free] / weights[free].sum()
    chosen[rng.choice(free, 52 - int(chosen.sum()), replace=False, p=p)] = True
    deck = slots[chosen]
    return np.concatenate([deck, np.full(jokers, JOKER)]).astype(np.int64)
