"""Lowball (the Gamblin' phase): hand-rank odds of a deck, head-to-head and at a table.

Rulebook "1. Gamblin' Phase": each player draws a five-card draw hand and the
lowest hand wins the pot. oddsmith reads it as docs/rules-doomtown.md, 'Gamblin' (lowball)' says:

* the hand is exactly the five cards drawn (no stud, no draw, no choosing);
* lowest wins, the exact reverse of the shootout ordering, tie-breaks
  included (Rulebook "Tied Hand Ranks"); identical hands tie;
* a joker takes the suit and value that make the hand lowest (Rulebook
  "Jokers": the owner chooses), so it never completes a flush, a straight or
  Dead Man's Hand and never makes the hand cheatin';
* a hand is cheatin' when two of its valued cards share suit and value
  (Rulebook "Cheatin' While Gamblin'": such a hand can be punished);
* "Tied Hand Ranks": identical hands are discarded and redrawn in the
  Gamblin' phase. The redraw is modelled as a fresh deal from the same deck
  (the five discarded cards are not taken out), so after redraws
  P(win) = P(win) / (P(win) + P(lose)) of a single deal;
* "Multiplayer Variant": with three or more players the lowest hand wins 2
  ghost rock and the second lowest 1; every player whose hand is identical to
  another's redraws and the table is compared again.

Exact figures come from ``oddsmith._ext.lowball`` (value-class enumeration,
cross-checked hand by hand over multisets of distinct cards); Monte Carlo
figures come with their standard errors and reproduce from their seed
whatever the number of workers.
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import pandas as pd

from oddsmith import _ext
from oddsmith.doomtown.deck import MAX_KERNEL_CARDS as MAX_CARDS
from oddsmith.doomtown.deck import N_CODES
from oddsmith.doomtown.deck import deck_state_of, resolve_deck
from oddsmith.doomtown.deck import kernel_counts as deck_counts
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import (
    DEAD_MANS_HAND_CODES,
    DECK_RULES,
    HAND_RANK_NAMES,
    HAND_SIZE,
    JOKER_CODE,
    KEY_RANK_SHIFT,
    N_SUITS,
    VALUE_LABELS,
    VALUE_MAX,
    HandRank,
    gamblin_payouts,
    key_fields,
)
from oddsmith.sampling import SamplingPlan, binomial_stderr, check_trials, check_workers, resolve_seed, sum_chunks
from oddsmith.notebook import notebook_view

RANKS = tuple(int(r) for r in HandRank)
DEFAULT_TRIALS = 1_000_000
MAX_PLAYERS = 8


def _kernels():
    return _ext.load("lowball")


# --------------------------------------------------------------------------
# Decks as kernel input (deck_counts: oddsmith.doomtown.deck.kernel_counts)
# --------------------------------------------------------------------------


def _counts_to_codes(counts: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(N_CODES, dtype=np.uint8), counts.astype(np.int64))


def _deck_name(deck: object, default: str) -> str:
    name = getattr(deck, "name", None)
    return str(name) if name else default


def _check_drawable(counts: np.ndarray, name: str) -> int:
    n = int(counts.sum())
    if n < HAND_SIZE:
        raise OddsmithError(f"{name}: {n} cards cannot make a {HAND_SIZE}-card lowball hand")
    if counts[JOKER_CODE] > DECK_RULES.max_jokers:
        raise OddsmithError(f"{name}: {int(counts[JOKER_CODE])} jokers (a deck holds at most {DECK_RULES.max_jokers})")
    return n


# --------------------------------------------------------------------------
# The value-class table (deck independent, built once)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _ClassTable:
    jokers: np.ndarray
    pairs: np.ndarray
    value: np.ndarray
    count: np.ndarray
    distinct: np.ndarray
    ix_plain: np.ndarray
    ix_flush: np.ndarray
    dmh_class: int
    dmh_ix: int
    keys: np.ndarray  # every lowball key, sorted (uint32)
    dmh_codes: np.ndarray


_DMH_VALUES = tuple(sorted(c // N_SUITS + 1 for c in DEAD_MANS_HAND_CODES))


@functools.lru_cache(maxsize=1)
def class_table() -> _ClassTable:
    """Every value class of a lowball hand (values held, jokers) with its lowball key(s).

    Each class is evaluated by the hand core on a representative hand: suits
    spread so the hand is no flush and not Dead Man's Hand, and (without jokers)
    again all in one suit for the flush key. The kernel weighs each class by the
    number of hands of each kind the deck holds.
    """
    ext = _kernels()
    parts = []
    for j in range(DECK_RULES.max_jokers + 1):
        combos = np.array(list(itertools.combinations_with_replacement(range(1, VALUE_MAX + 1), HAND_SIZE - j)),
                          dtype=np.int64).reshape(-1, HAND_SIZE - j)
        parts.append((j, combos))
    jokers = np.concatenate([np.full(len(c), j) for j, c in parts])
    held = np.zeros((len(jokers), VALUE_MAX + 1), dtype=np.int64)  # cards of each value 1..13 (column 0 unused)
    row = 0
    for j, combos in parts:
        for col in range(combos.shape[1]):
            np.add.at(held, (np.arange(row, row + len(combos)), combos[:, col]), 1)
        row += len(combos)
    present = held[:, 1:] > 0
    # the values held, lowest first, padded with 0 (count 0) to five slots
    order = np.argsort(~present, axis=1, kind="stable")[:, :HAND_SIZE]
    pairs = present.sum(axis=1)
    slot_used = np.arange(HAND_SIZE)[None, :] < pairs[:, None]
    values = np.where(slot_used, order + 1, 0)
    counts = np.where(slot_used, np.take_along_axis(held[:, 1:], order, axis=1), 0)
    distinct = (held <= 1).all(axis=1)
    plain_reps, flush_reps = [], []
    for j, combos in parts:
        jcol = np.full((len(combos), j), JOKER_CODE, dtype=np.int64)
        # suits spread 0, 1, 2, 3, 0 across the sorted values: never a flush, never Dead Man's Hand
        spread = (combos - 1) * N_SUITS + (np.arange(combos.shape[1]) % N_SUITS)[None, :]
        plain_reps.append(np.hstack([spread, jcol]))
        flush_reps.append(np.hstack([(combos - 1) * N_SUITS, jcol]))
    plain_reps = np.vstack(plain_reps)
    flush_reps = np.vstack(flush_reps)
    dmh_row = np.bincount(_DMH_VALUES, minlength=VALUE_MAX + 1)
    dmh_class = int(np.flatnonzero((jokers == 0) & (held == dmh_row).all(axis=1))[0])
    reps = np.vstack([plain_reps, flush_reps, [sorted(DEAD_MANS_HAND_CODES)]]).astype(np.uint8)
    keys = np.zeros(len(reps), dtype=np.uint32)
    cheat = np.zeros(len(reps), dtype=np.uint8)
    ext.evaluate(reps, keys, cheat)
    n = len(jokers)
    plain_keys, flush_keys, dmh_key = keys[:n], keys[n : 2 * n], keys[2 * n]
    jokers_a = jokers.astype(np.uint8)
    used = np.concatenate([plain_keys, flush_keys[jokers_a == 0], [dmh_key]])
    used = np.sort(used)
    all_keys = used[np.concatenate([[True], used[1:] != used[:-1]])].astype(np.uint32)
    return _ClassTable(
        jokers=jokers_a,
        pairs=pairs.astype(np.uint8),
        value=np.ascontiguousarray(values, dtype=np.uint8),
        count=np.ascontiguousarray(counts, dtype=np.uint8),
        distinct=distinct.astype(np.uint8),
        ix_plain=np.searchsorted(all_keys, plain_keys).astype(np.int32),
        ix_flush=np.where(jokers_a == 0, np.searchsorted(all_keys, flush_keys), 0).astype(np.int32),
        dmh_class=dmh_class,
        dmh_ix=int(np.searchsorted(all_keys, dmh_key)),
        keys=all_keys,
        dmh_codes=np.array(sorted(DEAD_MANS_HAND_CODES), dtype=np.uint8),
    )


def exact_key_counts(counts: np.ndarray, *, method: str = "values") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, hands, cheatin') over every 5-card hand of a deck given as per-code counts:
    ``hands[i]`` hands have lowball key ``keys[i]``, ``cheatin'[i]`` of them are cheatin'.

    ``method="values"`` weighs value classes (fast); ``"cards"`` enumerates every multiset
    of distinct cards weighted by binomial coefficients (the slower cross-check).
    """
    ext = _kernels()
    table = class_table()
    counts = np.asarray(counts, dtype=np.int64)
    if counts.shape != (N_CODES,) or counts.min() < 0 or counts.max() > MAX_CARDS:
        raise OddsmithError("deck counts must be 53 numbers 0..255 (52 card codes and jokers)")
    if counts[JOKER_CODE] > DECK_RULES.max_jokers:
        raise OddsmithError(f"{int(counts[JOKER_CODE])} jokers (a deck holds at most {DECK_RULES.max_jokers})")
    c8 = counts.astype(np.uint8)
    hands = np.zeros(len(table.keys), dtype=np.int64)
    cheat = np.zeros(len(table.keys), dtype=np.int64)
    if method == "values":
        ext.exact_by_values(c8, table.jokers, table.pairs, table.value, table.count, table.distinct,
                            table.ix_plain, table.ix_flush, table.dmh_class, table.dmh_ix, table.dmh_codes,
                            hands, cheat)
    elif method == "cards":
        missing = ext.exact_by_cards(c8, table.keys, hands, cheat)
        if missing:
            raise RuntimeError(f"{missing} hands evaluated to a key outside the class table")
    else:
        raise ValueError(f"unknown method {method!r} (values or cards)")
    return table.keys, hands, cheat


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------


def key_text(key: int) -> str:
    """A lowball key as the hand's values in comparison order, e.g. ``6-4-3-2-A``."""
    return "-".join(VALUE_LABELS[f] for f in key_fields(key))


def _rank_frame(p: np.ndarray, cheat: np.ndarray, trials: int = 0) -> pd.DataFrame:
    """The rank table; standard errors are binomial over ``trials`` (0: exact, no error)."""
    at_most = np.minimum(np.cumsum(p), 1.0)
    zero = np.zeros(len(p))
    return pd.DataFrame({
        "rank": list(RANKS),
        "hand": [HAND_RANK_NAMES[HandRank(r)] for r in RANKS],
        "probability": p,
        "stderr": binomial_stderr(p, trials) if trials else zero,
        "at_most": at_most,
        "at_most_stderr": binomial_stderr(at_most, trials) if trials else zero,
        "cheatin": cheat,
    })


@notebook_view
@dataclass(frozen=True, eq=False)
class LowballOdds:
    """One deck's lowball hand: rank distribution, P(cheatin'), mean rank.

    ``ranks`` columns: rank (1..11), hand (book name), probability, stderr
    (0 when exact), at_most (P(rank <= r): lowball rewards low ranks),
    at_most_stderr, cheatin (P(this rank and cheatin'); NaN when simulated).
    Exact results also hold every distinct hand key with its number of hands
    (``key_codes``, ``key_hands``, ``key_cheatin``; see :meth:`key_table`).
    """

    deck: str
    cards: int
    exact: bool
    trials: int
    ranks: pd.DataFrame
    p_cheatin: float
    p_cheatin_stderr: float
    mean_rank: float
    mean_rank_stderr: float
    seed: int | None = None
    hands: int | None = None
    """Number of 5-card hands (exact): C(cards, 5)."""
    key_codes: np.ndarray | None = None
    key_hands: np.ndarray | None = None
    key_cheatin: np.ndarray | None = None
    deck_state: str | None = None
    """Which deck was used (:attr:`oddsmith.doomtown.deck.Deck.deck_state`): after set-up, or full."""

    def key_table(self) -> pd.DataFrame:
        """Exact only: one row per distinct lowball hand, lowest (best) first. Columns: key,
        rank, hand, values (the five values in comparison order, e.g. 6-4-3-2-A), hands,
        cheatin_hands, probability, at_most (P(a hand this low or lower))."""
        if self.key_codes is None:
            raise ValueError("a simulated result holds no hand-by-hand table")
        ranks = (self.key_codes >> KEY_RANK_SHIFT).astype(np.int64)
        df = pd.DataFrame({
            "key": self.key_codes.astype(np.int64),
            "rank": ranks,
            "hand": [HAND_RANK_NAMES[HandRank(r)] for r in ranks],
            "values": [key_text(int(k)) for k in self.key_codes],
            "hands": self.key_hands,
            "cheatin_hands": self.key_cheatin,
        })
        df["probability"] = df["hands"] / self.hands
        df["at_most"] = np.cumsum(self.key_hands) / self.hands
        return df

    @property
    def distribution(self) -> dict[int, float]:
        return {int(r): float(p) for r, p in zip(self.ranks["rank"], self.ranks["probability"])}

    def to_json(self) -> dict[str, Any]:
        """The JSON contract: distribution, p_cheatin, mean_rank, trials, exact, stderr (+ context)."""
        out: dict[str, Any] = {
            "deck": self.deck,
            **({"deck_state": self.deck_state} if self.deck_state is not None else {}),
            "cards": self.cards,
            "distribution": self.distribution,
            "p_cheatin": float(self.p_cheatin),
            "mean_rank": float(self.mean_rank),
            "trials": int(self.trials),
            "exact": bool(self.exact),
            "stderr": {int(r): float(s) for r, s in zip(self.ranks["rank"], self.ranks["stderr"])},
            "p_cheatin_stderr": float(self.p_cheatin_stderr),
            "mean_rank_stderr": float(self.mean_rank_stderr),
        }
        if self.seed is not None:
            out.update(_plan_json(self.seed, self.trials))
        return out


def _plan_json(seed: int, trials: int) -> dict[str, Any]:
    plan = SamplingPlan(seed=seed, trials=trials)
    return {"seed": int(seed), "bit_generator": plan.bit_generator, "chunk_trials": plan.chunk_trials}


def _exact_hands(counts: np.ndarray, name: str, method: str = "values") -> tuple[int, np.ndarray, np.ndarray,
                                                                             np.ndarray, int]:
    """(cards, keys, hands, cheatin', hands in all): every 5-card hand of the deck ``counts`` by lowball key
    (:func:`exact_key_counts`), checked; the keys no hand has left out."""
    n = _check_drawable(counts, name)
    keys, hands, cheat = exact_key_counts(counts, method=method)
    total = math.comb(n, HAND_SIZE)
    if int(hands.sum()) != total:  # every hand is counted once: a kernel invariant
        raise RuntimeError(f"lowball enumeration counted {int(hands.sum())} hands, expected {total}")
    nz = hands > 0
    return n, keys[nz], hands[nz], cheat[nz], total


def _exact_odds(counts: np.ndarray, name: str, method: str = "values") -> LowballOdds:
    n, keys, hands, cheat, total = _exact_hands(counts, name, method)
    ranks_of_keys = (keys >> KEY_RANK_SHIFT).astype(np.int64)
    by_rank = np.bincount(ranks_of_keys, weights=hands, minlength=12)[1:12]
    cheat_by_rank = np.bincount(ranks_of_keys, weights=cheat, minlength=12)[1:12]
    p = by_rank / total
    return LowballOdds(
        deck=name, cards=n, exact=True, trials=0,
        ranks=_rank_frame(p, cheat_by_rank / total),
        p_cheatin=float(cheat.sum() / total), p_cheatin_stderr=0.0,
        mean_rank=float(np.dot(p, RANKS)), mean_rank_stderr=0.0,
        hands=total, key_codes=keys, key_hands=hands, key_cheatin=cheat,
    )


def _mc_odds(rank_counts: np.ndarray, cheat: int, trials: int, name: str, cards: int, seed: int) -> LowballOdds:
    """LowballOdds from simulated counts: rank_counts[r] for r = 1..11 (index 0 unused)."""
    p = rank_counts[1:12] / trials
    r = np.array(RANKS, dtype=float)
    mean = float(np.dot(p, r))
    var = float(np.dot(p, (r - mean) ** 2))
    return LowballOdds(
        deck=name, cards=cards, exact=False, trials=trials,
        ranks=_rank_frame(p, np.full(11, np.nan), trials),
        p_cheatin=cheat / trials, p_cheatin_stderr=float(binomial_stderr(cheat / trials, trials)),
        mean_rank=mean, mean_rank_stderr=math.sqrt(var / trials), seed=seed,
    )


def lowball_odds(
    deck: object,
    *,
    exact: bool = True,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    workers: int = 1,
    without: object = (),
    name: str | None = None,
    method: str = "values",
) -> LowballOdds:
    """Lowball hand odds of ``deck`` (minus ``without``): exact by enumeration, or by
    ``trials`` simulated hands (``exact=False``) with standard errors. ``deck``: anything
    :func:`~oddsmith.doomtown.deck.resolve_deck` takes (a sample name, a file, a deck text,
    a Deck, cards), as it stands after set-up."""
    deck = resolve_deck(deck)
    counts = deck_counts(deck, without=without)
    name = name or _deck_name(deck, "deck")
    n = _check_drawable(counts, name)
    if exact:
        return _stated(_exact_odds(counts, name, method), deck)
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)
    codes = _counts_to_codes(counts)
    ext = _kernels()

    def work(gen: np.random.PCG64, n_trials: int) -> np.ndarray:
        out = np.zeros(13, dtype=np.int64)
        ext.simulate_deck(codes, gen, n_trials, out)
        return out

    total = sum_chunks(work, SamplingPlan(seed, trials), workers=workers, label="lowball")
    return _stated(_mc_odds(total[:12], int(total[12]), trials, name, n, seed), deck)


def _stated(odds: LowballOdds, deck: object) -> LowballOdds:
    """``odds`` saying which deck it comes from (after set-up, full, cards as given)."""
    return replace(odds, deck_state=deck_state_of(deck))


def lowball_distribution(deck: object, **kwargs: Any) -> pd.DataFrame:
    """The rank table of :func:`lowball_odds` (columns rank, hand, probability, stderr, at_most, cheatin)."""
    return lowball_odds(deck, **kwargs).ranks


# --------------------------------------------------------------------------
# Head-to-head Gamblin'
# --------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class GamblinOdds:
    """Two players' Gamblin' hands against each other (player A = ``players[0]``).

    ``p_win``/``p_lose``: A's hand is lower/higher once identical hands have been
    redrawn (they sum to 1); ``p_tie``: identical hands on a single deal;
    ``p_win_first_deal``/``p_lose_first_deal``: a single deal.
    ``win``/``lose``/``tie`` (exact): the counts of hand pairs behind those figures.
    """

    players: tuple[LowballOdds, LowballOdds]
    exact: bool
    trials: int
    p_win: float
    p_lose: float
    p_tie: float
    p_win_first_deal: float
    p_lose_first_deal: float
    p_win_stderr: float = 0.0
    p_lose_stderr: float = 0.0
    p_tie_stderr: float = 0.0
    seed: int | None = None
    win_fraction: Fraction | None = None
    mean_redraws: float = 0.0

    def summary(self) -> pd.DataFrame:
        """One row per player: player (A, B), deck, p_win, p_win_stderr, p_lose,
        p_lose_stderr, p_tie, p_tie_stderr, p_cheatin, p_cheatin_stderr, mean_rank,
        mean_rank_stderr (B's p_win is A's p_lose; stderr 0 when exact)."""
        rows = []
        for i, pl in enumerate(self.players):
            win, lose = (self.p_win, self.p_lose) if i == 0 else (self.p_lose, self.p_win)
            rows.append({
                "player": "AB"[i], "deck": pl.deck,
                "p_win": win, "p_win_stderr": self.p_win_stderr,
                "p_lose": lose, "p_lose_stderr": self.p_lose_stderr,
                "p_tie": self.p_tie, "p_tie_stderr": self.p_tie_stderr,
                "p_cheatin": pl.p_cheatin, "p_cheatin_stderr": pl.p_cheatin_stderr,
                "mean_rank": pl.mean_rank, "mean_rank_stderr": pl.mean_rank_stderr,
            })
        return pd.DataFrame(rows)

    def ranks(self) -> pd.DataFrame:
        """Both rank distributions side by side: rank, hand, p_A, p_A_stderr, p_B, p_B_stderr."""
        a, b = self.players
        return pd.DataFrame({
            "rank": a.ranks["rank"], "hand": a.ranks["hand"],
            "p_A": a.ranks["probability"], "p_A_stderr": a.ranks["stderr"],
            "p_B": b.ranks["probability"], "p_B_stderr": b.ranks["stderr"],
        })

    def to_json(self) -> dict[str, Any]:
        """Player A's lowball fields, the matchup fields p_win, p_lose, p_tie, and ``opponent``."""
        out = self.players[0].to_json()
        out.pop("seed", None)
        out.update({
            "vs": self.players[1].deck,
            "trials": int(self.trials),
            "exact": bool(self.exact),
            "p_win": float(self.p_win),
            "p_lose": float(self.p_lose),
            "p_tie": float(self.p_tie),
            "p_win_first_deal": float(self.p_win_first_deal),
            "p_lose_first_deal": float(self.p_lose_first_deal),
            "p_win_stderr": float(self.p_win_stderr),
            "p_lose_stderr": float(self.p_lose_stderr),
            "p_tie_stderr": float(self.p_tie_stderr),
            "mean_redraws": float(self.mean_redraws),
            "opponent": {k: v for k, v in self.players[1].to_json().items()
                         if k not in ("trials", "exact", "seed", "bit_generator", "chunk_trials")},
        })
        if self.seed is not None:
            out.update(_plan_json(self.seed, self.trials))
        return out


def _dot(x: np.ndarray, y: np.ndarray) -> int:
    """Exact integer dot product of non-negative counts: int64 when the sum cannot pass
    2**62 (every legal deck), Python integers otherwise."""
    if int(x.sum()) * int(y.max(initial=0)) < (1 << 62):
        return int(np.dot(x, y))
    return sum(int(a) * int(b) for a, b in zip(x.tolist(), y.tolist()) if a and b)


def _win_tie_lose(a_keys: np.ndarray, a_hands: np.ndarray, a_total: int, b_keys: np.ndarray, b_hands: np.ndarray,
                  b_total: int) -> tuple[int, int, int]:
    """Pairs of first deals (A's hand, B's hand) where A's key is below B's (A wins), equal, above: exact integers
    from each deck's hands per key (ascending keys, ``*_total`` hands in all)."""
    keys = np.union1d(a_keys, b_keys)
    ca = np.zeros(len(keys), dtype=np.int64)
    cb = np.zeros(len(keys), dtype=np.int64)
    ca[np.searchsorted(keys, a_keys)] = a_hands
    cb[np.searchsorted(keys, b_keys)] = b_hands
    # in exact integers: a product of two hand counts can pass 2**63 for the largest decks the kernels take
    cum_b = np.cumsum(cb)
    win = _dot(ca, b_total - cum_b)
    tie = _dot(ca, cb)
    lose = _dot(ca, cum_b - cb)
    if win + lose + tie != a_total * b_total:
        raise RuntimeError("matchup counts do not add up")
    return win, tie, lose


def _never_ends(a: str, b: str) -> OddsmithError:
    return OddsmithError(f"{a} and {b} always deal identical lowball hands: Gamblin' never ends")


def _exact_matchup(a: LowballOdds, b: LowballOdds) -> GamblinOdds:
    win, tie, lose = _win_tie_lose(a.key_codes, a.key_hands, a.hands, b.key_codes, b.key_hands, b.hands)
    pairs = a.hands * b.hands
    if win + lose == 0:
        raise _never_ends(a.deck, b.deck)
    frac = Fraction(win, win + lose)
    return GamblinOdds(
        players=(a, b), exact=True, trials=0,
        p_win=float(frac), p_lose=float(1 - frac), p_tie=tie / pairs,
        p_win_first_deal=win / pairs, p_lose_first_deal=lose / pairs,
        win_fraction=frac, mean_redraws=tie / (win + lose),
    )


def exact_p_win(counts: np.ndarray, opponent: LowballOdds, name: str = "deck") -> tuple[float, float]:
    """(P(win Gamblin'), P(Gamblin' hand cheatin')) of the deck ``counts`` against ``opponent`` (exact odds), as
    ``_exact_matchup(_exact_odds(counts, name), opponent).p_win`` and ``_exact_odds(counts, name).p_cheatin`` give
    them, without the rank table: the swap search and the sweeps ask them of hundreds of decks."""
    _, keys, hands, cheat, total = _exact_hands(counts, name)
    win, _, lose = _win_tie_lose(keys, hands, total, opponent.key_codes, opponent.key_hands, opponent.hands)
    if win + lose == 0:
        raise _never_ends(name, opponent.deck)
    return float(Fraction(win, win + lose)), float(cheat.sum() / total)


def gamblin_odds(
    deck: object,
    opponent: object,
    *,
    exact: bool = True,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    workers: int = 1,
    without: object = (),
    opponent_without: object = (),
    names: tuple[str, str] | None = None,
) -> GamblinOdds:
    """Head-to-head Gamblin' between ``deck`` (A) and ``opponent`` (B), each drawing five
    cards from their own deck: P(A wins), P(A loses) after redraws, P(identical) per deal."""
    deck, opponent = resolve_deck(deck), resolve_deck(opponent)
    na, nb = names or (_deck_name(deck, "A"), _deck_name(opponent, "B"))
    ca = deck_counts(deck, without=without)
    cb = deck_counts(opponent, without=opponent_without)
    if exact:
        return _exact_matchup(_stated(_exact_odds(ca, na), deck), _stated(_exact_odds(cb, nb), opponent))
    size_a, size_b = _check_drawable(ca, na), _check_drawable(cb, nb)
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)
    codes_a, codes_b = _counts_to_codes(ca), _counts_to_codes(cb)
    ext = _kernels()

    def work(gen: np.random.PCG64, n_trials: int) -> np.ndarray:
        out = np.zeros(32, dtype=np.int64)
        if ext.simulate_matchup(codes_a, codes_b, gen, n_trials, out) < 0:
            raise OddsmithError(f"{na} and {nb} keep dealing identical lowball hands: Gamblin' never ends")
        return out

    t = sum_chunks(work, SamplingPlan(seed, trials), workers=workers, label="gamblin'")
    pa = _stated(_mc_odds(t[0:12], int(t[24]), trials, na, size_a, seed), deck)
    pb = _stated(_mc_odds(t[12:24], int(t[25]), trials, nb, size_b, seed), opponent)
    p_win = t[29] / trials
    return GamblinOdds(
        players=(pa, pb), exact=False, trials=trials,
        p_win=float(p_win), p_lose=float(t[30] / trials), p_tie=float(t[28] / trials),
        p_win_first_deal=float(t[26] / trials), p_lose_first_deal=float(t[27] / trials),
        p_win_stderr=float(binomial_stderr(p_win, trials)), p_lose_stderr=float(binomial_stderr(p_win, trials)),
        p_tie_stderr=float(binomial_stderr(t[28] / trials, trials)),
        seed=seed, mean_redraws=float(t[31] / trials),
    )


@notebook_view
@dataclass(frozen=True)
class LowballTradeoff:
    """What the trade-off table takes from lowball (exact)."""

    p_win: float
    """P(the deck wins Gamblin' against the reference opponent), identical hands redrawn."""
    p_lose: float
    p_tie: float
    """P(identical hands) on a single deal."""
    p_cheatin: float
    """P(the deck's lowball hand is cheatin')."""
    mean_rank: float


def lowball_tradeoff(deck: object, opponent: object | None = None, *, without: object = ()) -> LowballTradeoff:
    """Exact lowball figures of ``deck`` for the trade-off table: win rate against
    ``opponent`` (default: the deck itself, i.e. a mirror match) and P(cheatin')."""
    deck = resolve_deck(deck)
    opponent = None if opponent is None else resolve_deck(opponent)
    g = gamblin_odds(deck, deck if opponent is None else opponent, exact=True, without=without,
                     opponent_without=without if opponent is None else ())
    a = g.players[0]
    return LowballTradeoff(p_win=g.p_win, p_lose=g.p_lose, p_tie=g.p_tie, p_cheatin=a.p_cheatin, mean_rank=a.mean_rank)


# --------------------------------------------------------------------------
# Multiplayer Gamblin' (by simulation)
# --------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class TableOdds:
    """Multiplayer Gamblin' (Rulebook "Multiplayer Variant"): lowest hand wins 2 ghost
    rock, second lowest 1.

    ``players`` columns: seat (1..N), deck, p_lowest, p_lowest_stderr, p_second_lowest,
    p_second_lowest_stderr, expected_ghost_rock (payout, before the ante),
    expected_ghost_rock_stderr, p_cheatin, p_cheatin_stderr, mean_rank, mean_rank_stderr.
    """

    players: pd.DataFrame
    hands: tuple[LowballOdds, ...]
    trials: int
    seed: int
    p_identical: float
    p_identical_stderr: float
    mean_redraws: float

    def to_json(self) -> dict[str, Any]:
        """Seat 1's lowball fields; p_win = P(lowest), p_lose = P(not lowest), p_tie = P(some
        hands identical on the first deal); every seat under ``players``."""
        first = self.players.iloc[0]
        out = self.hands[0].to_json()
        out.pop("seed", None)
        out.update({
            "players_count": len(self.hands),
            "p_win": float(first["p_lowest"]),
            "p_lose": float(1 - first["p_lowest"]),
            "p_tie": float(self.p_identical),
            "p_win_stderr": float(first["p_lowest_stderr"]),
            "p_tie_stderr": float(self.p_identical_stderr),
            "p_second_lowest": float(first["p_second_lowest"]),
            "mean_redraws": float(self.mean_redraws),
            "players": [
                {**{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()},
                 "deck_state": h.deck_state, "distribution": h.distribution,
                 "stderr": {int(r): float(s) for r, s in zip(h.ranks["rank"], h.ranks["stderr"])}}
                for (_, row), h in zip(self.players.iterrows(), self.hands)
            ],
        })
        out.update(_plan_json(self.seed, self.trials))
        return out


def table_odds(
    decks: Sequence[object],
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    workers: int = 1,
    without: Sequence[object] | None = None,
    names: Sequence[str] | None = None,
) -> TableOdds:
    """Simulate multiplayer Gamblin' among ``decks`` (2..8 players, the book's variant is
    for three or more): each player draws five from their own deck; identical hands are
    redrawn; P(lowest), P(second lowest) and expected ghost rock per seat."""
    if not 2 <= len(decks) <= MAX_PLAYERS:
        raise OddsmithError(f"Gamblin' at a table needs 2 to {MAX_PLAYERS} players, got {len(decks)}")
    decks = [resolve_deck(d) for d in decks]
    without = list(without) if without is not None else [()] * len(decks)
    names = list(names) if names is not None else [_deck_name(d, f"seat {i + 1}") for i, d in enumerate(decks)]
    counts = [deck_counts(d, without=w) for d, w in zip(decks, without)]
    sizes = np.array([_check_drawable(c, nm) for c, nm in zip(counts, names)], dtype=np.int32)
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)
    grid = np.zeros((len(decks), int(sizes.max())), dtype=np.uint8)
    for i, c in enumerate(counts):
        grid[i, : sizes[i]] = _counts_to_codes(c)
    ext = _kernels()

    def work(gen: np.random.PCG64, n_trials: int) -> tuple[np.ndarray, np.ndarray]:
        out = np.zeros((len(decks), 15), dtype=np.int64)
        table = np.zeros(2, dtype=np.int64)
        if ext.simulate_table(grid, sizes, gen, n_trials, out, table) < 0:
            raise OddsmithError("these decks keep dealing identical lowball hands: Gamblin' never ends")
        return out, table

    out, table = sum_chunks(work, SamplingPlan(seed, trials), workers=workers, label="gamblin' table")
    payout = gamblin_payouts(len(decks))
    hands = tuple(_stated(_mc_odds(out[i, :12], int(out[i, 12]), trials, names[i], int(sizes[i]), seed), decks[i])
                  for i in range(len(decks)))
    rows = []
    for i, h in enumerate(hands):
        lo, se = out[i, 13] / trials, out[i, 14] / trials
        # ghost rock won per deal: payout[0] for lowest, payout[1] for second lowest
        g = np.array([payout[0], payout[1], 0.0])
        probs = np.array([lo, se, 1 - lo - se])
        mean_g = float(np.dot(probs, g))
        var_g = float(np.dot(probs, (g - mean_g) ** 2))
        rows.append({
            "seat": i + 1, "deck": names[i],
            "p_lowest": lo, "p_lowest_stderr": float(binomial_stderr(lo, trials)),
            "p_second_lowest": se, "p_second_lowest_stderr": float(binomial_stderr(se, trials)),
            "expected_ghost_rock": mean_g, "expected_ghost_rock_stderr": math.sqrt(var_g / trials),
            "p_cheatin": h.p_cheatin, "p_cheatin_stderr": h.p_cheatin_stderr,
            "mean_rank": h.mean_rank, "mean_rank_stderr": h.mean_rank_stderr,
        })
    p_id = table[0] / trials
    return TableOdds(
        players=pd.DataFrame(rows), hands=hands, trials=trials, seed=seed,
        p_identical=float(p_id), p_identical_stderr=float(binomial_stderr(p_id, trials)),
        mean_redraws=float(table[1] / trials),
    )
