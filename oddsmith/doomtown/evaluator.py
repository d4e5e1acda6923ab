"""Doomtown hand evaluation: the Python face of the ``hand_eval`` kernel.

Checks inputs (codes 0..52, at most two jokers per hand, 5..15 cards), packs
them into the kernel's padded ``uint8`` layout, runs one ``nogil`` batch call
and returns numpy arrays or a tidy DataFrame. Keys follow
:mod:`oddsmith.rules.doomtown` (``rank << 20`` then five 4-bit tie-break
values): within a mode, a larger key is a better shootout hand and a smaller
key a better lowball hand. A legal key of 0 means no legal five exists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from oddsmith import _ext
from oddsmith.doomtown.cards import format_cards, format_hand, parse_hand
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import (
    DECK_RULES, HAND_RANK_NAMES, HAND_SIZE, JOKER_CODE, KEY_RANK_SHIFT, HandRank, key_as_list,
)

MAX_CARDS = 15
"""Most cards one hand may hold (5 + a stud bonus of 10)."""
MAX_JOKERS_PER_HAND = DECK_RULES.max_jokers
MAX_SAMPLED_CARDS = 10
"""Most cards :func:`sample_rank_counts` draws per hand (its batched draw needs the product
of the ranges to fit in 64 bits)."""


def _kernel():
    return _ext.load("hand_eval")


def pack_hands(hands: Sequence[Sequence[int]], *, labels: Sequence[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Check hands of card codes and pack them as ``(n, 15) uint8`` cards plus ``uint8`` lengths.

    ``labels`` name each hand in error messages (default ``hand 1``, ``hand 2``...)."""
    n = len(hands)
    cards = np.full((n, MAX_CARDS), JOKER_CODE, dtype=np.uint8)
    lengths = np.zeros(n, dtype=np.uint8)
    for i, hand in enumerate(hands):
        if _plain_hand(hand):  # the common case, checked without numpy (a million hands from a file)
            cards[i, : len(hand)] = hand
            lengths[i] = len(hand)
            continue
        where = labels[i] if labels is not None else f"hand {i + 1}"
        codes = np.asarray(hand)
        if codes.ndim != 1 or (codes.size and not np.issubdtype(codes.dtype, np.integer)):
            raise OddsmithError(f"{where} is not a list of integer card codes 0..52")
        _check_codes(codes, where)
        cards[i, : len(codes)] = codes
        lengths[i] = len(codes)
    return cards, lengths


def _plain_hand(hand: object) -> bool:
    """True for a list of 5..15 ints 0..52 with at most two jokers: a hand that needs no
    closer look (anything else goes through :func:`_check_codes`, which names the problem)."""
    return (type(hand) is list and HAND_SIZE <= len(hand) <= MAX_CARDS
            and all(type(c) is int and 0 <= c <= JOKER_CODE for c in hand)
            and hand.count(JOKER_CODE) <= MAX_JOKERS_PER_HAND)


def _check_codes(codes: np.ndarray, where: str) -> None:
    k = len(codes)
    if k < HAND_SIZE:
        raise OddsmithError(f"{where} has {k} card{'s' if k != 1 else ''}; a draw hand needs at least {HAND_SIZE}")
    if k > MAX_CARDS:
        raise OddsmithError(f"{where} has {k} cards; a hand holds at most {MAX_CARDS} (5 + a stud bonus of 10)")
    bad = codes[(codes < 0) | (codes > JOKER_CODE)]
    if bad.size:
        raise OddsmithError(f"{where} has card code {int(bad[0])}; codes are 0..52 (52 = joker)")
    jokers = int((codes == JOKER_CODE).sum())
    if jokers > MAX_JOKERS_PER_HAND:
        raise OddsmithError(f"{where} has {jokers} jokers; a deck holds at most {MAX_JOKERS_PER_HAND}")


def check_packed(cards: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate already packed arrays (vectorised) and return C-contiguous uint8 copies if needed."""
    cards = np.asarray(cards)
    lengths = np.asarray(lengths)
    if cards.ndim != 2 or cards.shape[1] < HAND_SIZE or lengths.shape != (cards.shape[0],):
        raise OddsmithError("cards must be an (n, k) array with k >= 5 and lengths an (n,) array")
    if cards.shape[1] > MAX_CARDS:
        raise OddsmithError(f"at most {MAX_CARDS} cards per hand (got {cards.shape[1]} columns)")
    if cards.size and (cards.min() < 0 or cards.max() > JOKER_CODE):
        i = int(np.argwhere((cards < 0) | (cards > JOKER_CODE))[0][0])
        raise OddsmithError(f"hand {i + 1}: card codes must be 0..52")
    if lengths.size and (lengths.min() < HAND_SIZE or lengths.max() > cards.shape[1]):
        i = int(np.argwhere((lengths < HAND_SIZE) | (lengths > cards.shape[1]))[0][0])
        raise OddsmithError(f"hand {i + 1}: {int(lengths[i])} cards; a hand holds {HAND_SIZE}..{cards.shape[1]}")
    inside = np.arange(cards.shape[1])[None, :] < lengths[:, None]
    jokers = ((cards == JOKER_CODE) & inside).sum(axis=1)
    if jokers.size and jokers.max() > MAX_JOKERS_PER_HAND:
        i = int(np.argmax(jokers > MAX_JOKERS_PER_HAND))
        raise OddsmithError(f"hand {i + 1}: {int(jokers[i])} jokers; a deck holds at most {MAX_JOKERS_PER_HAND}")
    return np.ascontiguousarray(cards, dtype=np.uint8), np.ascontiguousarray(lengths, dtype=np.uint8)


@dataclass(frozen=True)
class Evaluation:
    """Kernel results for n hands (arrays of length n; ``five``/``ident`` are (n, 5)).

    ``five`` holds the kept cards as held (52 = joker) in tie-break order,
    ``ident`` what each counts as (jokers resolved), ``kept`` the kept positions
    as bit masks. ``legal_*`` describe the best legal hand; ``legal_key == 0``
    when none exists."""

    lowball: bool
    key: np.ndarray
    cheatin: np.ndarray
    five: np.ndarray
    ident: np.ndarray
    kept: np.ndarray
    legal_key: np.ndarray
    legal_five: np.ndarray
    legal_ident: np.ndarray
    legal_kept: np.ndarray

    @property
    def rank(self) -> np.ndarray:
        return (self.key >> KEY_RANK_SHIFT).astype(np.int8)

    @property
    def legal_rank(self) -> np.ndarray:
        """Best legal rank, 0 when no legal five exists."""
        return (self.legal_key >> KEY_RANK_SHIFT).astype(np.int8)

    @property
    def has_legal(self) -> np.ndarray:
        return self.legal_key != 0


def evaluate_packed(cards: np.ndarray, lengths: np.ndarray, *, lowball: bool = False) -> Evaluation:
    """Full evaluation (keys, cheatin', the five kept, legal hand) of packed hands, one kernel call."""
    cards, lengths = check_packed(cards, lengths)
    n = cards.shape[0]
    if cards.shape[1] != MAX_CARDS:
        padded = np.full((n, MAX_CARDS), JOKER_CODE, dtype=np.uint8)
        padded[:, : cards.shape[1]] = cards
        cards = padded
    out = dict(
        key=np.zeros(n, np.int64), cheatin=np.zeros(n, np.uint8), five=np.zeros((n, 5), np.uint8),
        ident=np.zeros((n, 5), np.uint8), kept=np.zeros(n, np.uint32), legal_key=np.zeros(n, np.int64),
        legal_five=np.zeros((n, 5), np.uint8), legal_ident=np.zeros((n, 5), np.uint8),
        legal_kept=np.zeros(n, np.uint32),
    )
    _kernel().evaluate(
        cards, lengths, bool(lowball), out["key"], out["cheatin"], out["five"], out["ident"], out["kept"],
        out["legal_key"], out["legal_five"], out["legal_ident"], out["legal_kept"],
    )
    out["cheatin"] = out["cheatin"].astype(bool)
    return Evaluation(lowball=bool(lowball), **out)


def evaluate_keys(cards: np.ndarray, lengths: np.ndarray, *, lowball: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Keys only: (best key of any legality, best legal key or 0) per hand. Cheatin' iff they differ."""
    cards, lengths = check_packed(cards, lengths)
    key = np.zeros(cards.shape[0], np.int64)
    legal = np.zeros(cards.shape[0], np.int64)
    _kernel().evaluate_keys(cards, lengths, bool(lowball), key, legal)
    return key, legal


def evaluate_codes(hands: Sequence[Sequence[int]], *, lowball: bool = False,
                   labels: Sequence[str] | None = None) -> Evaluation:
    """Full evaluation of hands given as lists of card codes."""
    cards, lengths = pack_hands(hands, labels=labels)
    return evaluate_packed(cards, lengths, lowball=lowball)


def _card_texts(ascii: bool) -> list[str]:
    """The text of every card code 0..52, for formatting many hands at once."""
    return format_cards(range(JOKER_CODE + 1), ascii=ascii)


def _hand_texts(rows: Sequence[Sequence[int]] | np.ndarray, ascii: bool) -> list[str]:
    """``format_hand`` of every row, through a table of the 53 card texts."""
    names = _card_texts(ascii)
    rows = rows.tolist() if isinstance(rows, np.ndarray) else rows
    return [" ".join([names[c] for c in row]) for row in rows]


def rank_name(rank: int) -> str | None:
    """The book name of a hand rank 1..11 ("Dead Man's Hand" for 11); None for 0 (no legal hand)."""
    return HAND_RANK_NAMES[HandRank(int(rank))] if rank else None


def hand_records(hands: Sequence[Sequence[int]], ev: Evaluation, *, ascii: bool = False) -> list[dict]:
    """One JSON-ready dict per hand: cards, rank, rank_name, key (list), cheatin, best_five,
    counts_as, and legal (same fields, or None when no legal five exists)."""
    records = []
    names = _card_texts(ascii)
    cards = lambda codes: [names[int(c)] for c in codes]  # noqa: E731 (a million hands: no format_card calls)
    five, ident, legal_five, legal_ident = (a.tolist() for a in (ev.five, ev.ident, ev.legal_five, ev.legal_ident))
    for i, hand in enumerate(hands):
        lk = int(ev.legal_key[i])
        legal = None
        if lk:
            legal = {
                "rank": lk >> KEY_RANK_SHIFT,
                "rank_name": rank_name(lk >> KEY_RANK_SHIFT),
                "key": key_as_list(lk),
                "best_five": cards(legal_five[i]),
                "counts_as": cards(legal_ident[i]),
            }
        k = int(ev.key[i])
        records.append({
            "cards": cards(hand),
            "rank": k >> KEY_RANK_SHIFT,
            "rank_name": rank_name(k >> KEY_RANK_SHIFT),
            "key": key_as_list(k),
            "cheatin": bool(ev.cheatin[i]),
            "best_five": cards(five[i]),
            "counts_as": cards(ident[i]),
            "legal": legal,
        })
    return records


def hands_frame(hands: Sequence[Sequence[int]], ev: Evaluation, *, ascii: bool = False) -> pd.DataFrame:
    """Tidy table, one row per hand. ``key`` and ``legal_key`` are the packed integer keys;
    legal columns are empty (rank 0) when no legal five exists."""
    legal_rank = ev.legal_rank.astype(int)
    names = {r: rank_name(r) for r in range(1, len(HandRank) + 1)}
    return pd.DataFrame({
        "cards": _hand_texts([list(map(int, h)) for h in hands], ascii),
        "rank": ev.rank.astype(int),
        "rank_name": [names[r] for r in ev.rank.tolist()],
        "key": ev.key,
        "cheatin": ev.cheatin.astype(bool),
        "best_five": _hand_texts(ev.five, ascii),
        "counts_as": _hand_texts(ev.ident, ascii),
        "legal_rank": legal_rank,
        "legal_rank_name": [names[r] if r else "" for r in legal_rank.tolist()],
        "legal_key": ev.legal_key,
        "legal_five": [t if r else "" for t, r in zip(_hand_texts(ev.legal_five, ascii), legal_rank.tolist())],
    })


def evaluate_hands(hands: Sequence[str | Sequence[int]], *, lowball: bool = False, ascii: bool = False) -> pd.DataFrame:
    """Evaluate hands given as text (``"AS AC 8S 8C JD"``) or code lists; returns :func:`hands_frame`."""
    codes = [parse_hand(h, where=f"hand {i + 1}") if isinstance(h, str) else list(h) for i, h in enumerate(hands)]
    ev = evaluate_codes(codes, lowball=lowball)
    return hands_frame(codes, ev, ascii=ascii)


def sample_rank_counts(deck: Sequence[int], hand_size: int, n_hands: int, *, seed: int | None = None) -> pd.DataFrame:
    """Monte Carlo distribution of the best and best legal shootout rank of ``hand_size`` cards
    drawn from ``deck`` (codes, jokers 52): columns rank, rank_name, p_best, p_legal,
    se_best, se_legal (rank 0 = no legal five). The drawing happens inside the kernel."""
    deck_arr = np.asarray(deck, dtype=np.int64)
    if deck_arr.ndim != 1 or len(deck_arr) > 64 or len(deck_arr) < hand_size:
        raise OddsmithError(f"deck must hold between hand size ({hand_size}) and 64 cards")
    if not HAND_SIZE <= hand_size <= MAX_SAMPLED_CARDS:
        raise OddsmithError(f"hand size {hand_size} is not {HAND_SIZE}..{MAX_SAMPLED_CARDS}")
    if deck_arr.min() < 0 or deck_arr.max() > JOKER_CODE:
        raise OddsmithError("deck: card codes must be 0..52")
    if int((deck_arr == JOKER_CODE).sum()) > MAX_JOKERS_PER_HAND:
        raise OddsmithError(f"deck: at most {MAX_JOKERS_PER_HAND} jokers")
    if n_hands < 1:
        raise OddsmithError("number of hands must be at least 1")
    best = np.zeros(12, np.int64)
    legal = np.zeros(12, np.int64)
    bitgen = np.random.PCG64(seed)
    _kernel().sample_rank_counts(deck_arr.astype(np.uint8), int(hand_size), int(n_hands), bitgen, best, legal)
    p_best, p_legal = best / n_hands, legal / n_hands
    return pd.DataFrame({
        "rank": np.arange(12),
        "rank_name": ["no legal hand"] + [rank_name(r) for r in range(1, 12)],
        "p_best": p_best,
        "se_best": np.sqrt(p_best * (1 - p_best) / n_hands),
        "p_legal": p_legal,
        "se_legal": np.sqrt(p_legal * (1 - p_legal) / n_hands),
    })
