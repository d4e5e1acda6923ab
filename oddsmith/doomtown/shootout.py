"""Shootout hands: what a deck draws with a stud and draw bonus, one round head to
head, the shooter a posse should pick, and the shootout/lowball trade-off.

The rules, as oddsmith reads them (Rulebook "Shootout Sequence", steps 3, 4, 7
and 8; docs/rules-doomtown.md, 'Shootouts'):

* a side draws 5 + stud bonus cards; it may then discard up to its draw bonus
  and draw that many once, from the rest of its deck; then it keeps five;
* which five it keeps is the **hand-keeping policy**: ``legal`` (the default:
  the best legal hand when one exists; with fewer than five distinct cards,
  jokers counted, the side must cheat), ``greedy`` (the highest hand whatever
  its legality; a legal hand when it is just as high) or ``margin:K`` (cheat
  only when the best hand is K ranks or more above the best legal one);
* which cards it discards is the **discard policy**: ``heuristic`` (the
  default, a sensible player's rule: keep the structure of the best made or
  nearly made hand, drop kickers and, playing legal, second copies of a
  card; see ``_heuristic`` in ext/shootout.pyx), ``search`` (the reference:
  for each hand dealt, the discard set with the highest exact expected kept
  rank, found by enumerating every discard set and every replacement draw;
  under ``legal`` a hand the player would be forced to cheat with scores 0,
  since a legal player does not aim at being forced to cheat; small cases
  only), or ``automaton``
  (Rulebook "Automaton Variant", "Shootout Hands": the Automaton reveals
  ``draw`` cards and makes the highest rank from its 5 + stud cards and at
  most one revealed card, a legal hand when one of that rank exists; this
  replaces both policies);
* the higher hand wins the round; identical hands tie; the loser suffers one
  casualty per rank of difference, and equal ranks (even when a tie-break
  decided the round) cost each side one casualty
  (:func:`oddsmith.rules.doomtown.round_casualties`);
* each side draws from its own deck.

Exact figures: without a draw bonus and with a stud bonus of 0 to 2, the kept
hand's distribution is enumerated exactly (``oddsmith._ext.shootout``,
value classes with flush and Dead Man's Hand corrections, cross-checked hand
by hand in the tests). Everything else is Monte Carlo, every figure with its
standard error, reproducible from its seed whatever the number of workers.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from oddsmith import _ext
from oddsmith.doomtown.deck import N_CODES, deck_state_of, resolve_deck
from oddsmith.doomtown.deck import deck_label as deck_name
from oddsmith.doomtown.deck import kernel_codes as deck_codes
from oddsmith.errors import OddsmithError, quote
from oddsmith.rules.doomtown import (
    DECK_RULES,
    HAND_RANK_NAMES,
    HAND_SIZE,
    JOKER_CODE,
    HandRank,
    PosseBonus,
)
from oddsmith.sampling import (SamplingPlan, binomial_stderr, check_trials, check_workers, resolve_seed, run_chunks,
                               sum_chunks)
from oddsmith.notebook import notebook_view

RANKS = tuple(int(r) for r in HandRank)
MAX_BONUS = 10
"""Largest stud or draw bonus analysed (the issue's range 0..10)."""
LEGAL_MARGIN = 99
"""Kernel margin of the ``legal`` policy: never cheat unless no legal hand exists."""
EXACT_MAX_STUD = 2
DEFAULT_TRIALS = 1_000_000
DEFAULT_SEARCH_TRIALS = 20_000
DEFAULT_TRADEOFF_TRIALS = 200_000
SCREEN_TRIALS = 100_000
"""Rounds per shooter pairing when a posse's shooter is chosen (then the full run)."""
SEARCH_MAX_EVALUATIONS = 60_000
"""The search reference evaluates every discard set against every replacement draw;
above this many evaluations per hand it is refused (use it for small cases)."""
FULL_HOUSE_OR_BETTER = int(HandRank.FULL_HOUSE)
DISCARD_POLICIES = ("heuristic", "search", "automaton")
_MODE = {"heuristic": 0, "search": 1, "automaton": 2}
# head-to-head kernel output layout (ext/shootout.pyx, RND_*)
_RND_A, _RND_B, _RND_A_WINS, _RND_B_WINS, _RND_IDENTICAL, _RND_EQUAL = 0, 24, 48, 49, 50, 51
_RND_CAS_A, _RND_CAS_B, _RND_SIZE = 52, 63, 74
MAX_CASUALTIES = 10
"""Most casualties one round can cost: Dead Man's Hand (11) against a high card (1)."""


def _kernels():
    return _ext.load("shootout")


# --------------------------------------------------------------------------
# Policies and bonuses
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Policy:
    """Hand-keeping policy (docs/rules-doomtown.md, 'Cheatin''): ``legal``, ``greedy`` or ``margin:K``."""

    name: str
    margin: int | None = None

    @property
    def kernel_margin(self) -> int:
        """0 = greedy, K = margin K, LEGAL_MARGIN = legal."""
        if self.name == "legal":
            return LEGAL_MARGIN
        if self.name == "greedy":
            return 0
        return int(self.margin)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return f"margin:{self.margin}" if self.name == "margin" else self.name


LEGAL = Policy("legal")
GREEDY = Policy("greedy")
AUTOMATON_POLICY = Policy("margin", 1)
"""The Automaton's keeping rule: the highest rank, legal when a legal hand of that rank exists."""

_MARGIN = re.compile(r"^margin\s*[:= ]?\s*(-?\d+)$")


def parse_policy(policy: "Policy | str") -> Policy:
    """``legal``, ``greedy`` or ``margin:K`` (K = 1..10; also ``margin K``, ``margin=K``)."""
    if isinstance(policy, Policy):
        return policy
    text = str(policy).strip().casefold()
    if text in ("legal", "greedy"):
        return LEGAL if text == "legal" else GREEDY
    m = _MARGIN.match(text)
    if m:
        k = int(m.group(1))
        if not 1 <= k <= HandRank.DEAD_MANS_HAND - 1:
            raise OddsmithError(f"policy {quote(policy)}: the margin must be 1..10 ranks (margin 0 is 'greedy')")
        return Policy("margin", k)
    raise OddsmithError(f"unknown hand-keeping policy {quote(policy)}: use legal, greedy or margin:K")


def check_bonus(value: int, what: str = "--stud") -> int:
    """A stud or draw bonus in 0..10."""
    if not 0 <= int(value) <= MAX_BONUS:
        raise OddsmithError(f"{what} must be 0..{MAX_BONUS}, got {value}")
    return int(value)


def check_discard(discard: str) -> str:
    d = str(discard).strip().casefold()
    if d not in DISCARD_POLICIES:
        raise OddsmithError(f"unknown discard policy {quote(discard)}: use {', '.join(DISCARD_POLICIES)}")
    return d


# --------------------------------------------------------------------------
# Decks as kernel input (deck_codes, deck_name: oddsmith.doomtown.deck)
# --------------------------------------------------------------------------


def _check_deck(codes: np.ndarray, stud: int, name: str) -> None:
    jokers = int((codes == JOKER_CODE).sum())
    if jokers > DECK_RULES.max_jokers:
        raise OddsmithError(f"{name}: {jokers} jokers (a deck holds at most {DECK_RULES.max_jokers})")
    need = HAND_SIZE + stud
    if codes.size < need:
        raise OddsmithError(f"{name}: {codes.size} cards cannot make a shootout hand with stud bonus {stud} "
                            f"({need} cards)")


# --------------------------------------------------------------------------
# One side's hand
# --------------------------------------------------------------------------


def _rank_frame(counts: np.ndarray, total: int, exact: bool) -> tuple[pd.DataFrame, dict[str, float]]:
    """Rank table and summary figures from counts[rank * 2 + cheatin'] (24 entries)."""
    by = np.asarray(counts[:24], dtype=np.float64).reshape(12, 2)[1:12]
    p = by.sum(axis=1) / total
    cheat = by[:, 1] / total
    at_least = np.clip(np.cumsum(p[::-1])[::-1], 0.0, 1.0)
    r = np.array(RANKS, dtype=np.float64)
    mean = float(np.dot(p, r))
    p_cheat = float(cheat.sum())
    if exact:
        zero = np.zeros(11)
        se, se_at, se_ch, se_mean, se_pc = zero, zero, zero, 0.0, 0.0
    else:
        se = binomial_stderr(p, total)
        se_at = binomial_stderr(at_least, total)
        se_ch = binomial_stderr(cheat, total)
        se_mean = math.sqrt(float(np.dot(p, (r - mean) ** 2)) / total)
        se_pc = float(binomial_stderr(p_cheat, total))
    df = pd.DataFrame({
        "rank": list(RANKS),
        "hand": [HAND_RANK_NAMES[HandRank(x)] for x in RANKS],
        "probability": p,
        "stderr": se,
        "at_least": at_least,
        "at_least_stderr": se_at,
        "cheatin": cheat,
        "cheatin_stderr": se_ch,
    })
    return df, {"mean_rank": mean, "mean_rank_stderr": se_mean, "p_cheatin": p_cheat, "p_cheatin_stderr": se_pc}


def _plan_json(seed: int | None, trials: int) -> dict[str, Any]:
    if seed is None:
        return {}
    plan = SamplingPlan(seed=seed, trials=max(trials, 1))
    return {"seed": int(seed), "bit_generator": plan.bit_generator, "chunk_trials": plan.chunk_trials}


@notebook_view
@dataclass(frozen=True, eq=False)
class ShootoutOdds:
    """The kept shootout hand of one deck with a stud and draw bonus.

    ``ranks`` columns: ``rank`` (1..11), ``hand`` (book name), ``probability``,
    ``stderr``, ``at_least`` (P(rank >= r)), ``at_least_stderr``, ``cheatin``
    (P(this rank and cheatin')), ``cheatin_stderr``; standard errors are 0 when
    exact. ``counts`` holds the raw counts per rank * 2 + cheatin' (hands when
    exact, trials when simulated).
    """

    deck: str
    cards: int
    stud: int
    draw: int
    policy: str
    discard: str
    exact: bool
    trials: int
    ranks: pd.DataFrame
    p_cheatin: float
    p_cheatin_stderr: float
    mean_rank: float
    mean_rank_stderr: float
    counts: np.ndarray = field(repr=False)
    seed: int | None = None
    hands: int | None = None
    """Exact: the number of (5 + stud)-card hands, C(cards, 5 + stud)."""
    mean_discards: float | None = None
    """Simulated: mean number of cards discarded and redrawn."""
    deck_state: str | None = None
    """Which deck was used (:attr:`oddsmith.doomtown.deck.Deck.deck_state`): after set-up, or full."""

    @property
    def distribution(self) -> dict[int, float]:
        return {int(r): float(p) for r, p in zip(self.ranks["rank"], self.ranks["probability"])}

    def p_at_least(self, rank: int) -> float:
        """P(kept rank >= ``rank``)."""
        return self._by_rank("at_least")[int(rank)]

    def p_at_least_stderr(self, rank: int) -> float:
        return self._by_rank("at_least_stderr")[int(rank)]

    def _by_rank(self, column: str) -> dict[int, float]:
        """``column`` of :attr:`ranks` by rank, read once (a report asks for each figure many times)."""
        cache = self.__dict__.setdefault("_rank_columns", {})
        if column not in cache:
            cache[column] = {int(r): float(v) for r, v in zip(self.ranks["rank"], self.ranks[column])}
        return cache[column]

    @property
    def p_full_house_or_better(self) -> float:
        return self.p_at_least(FULL_HOUSE_OR_BETTER)

    def summary(self) -> pd.DataFrame:
        """One row: deck, cards, stud, draw, policy, discard, mean_rank, mean_rank_stderr,
        p_cheatin, p_cheatin_stderr, p_full_house_or_better (+ _stderr), exact, trials."""
        return pd.DataFrame([{
            "deck": self.deck, "cards": self.cards, "stud": self.stud, "draw": self.draw,
            "policy": self.policy, "discard": self.discard,
            "mean_rank": self.mean_rank, "mean_rank_stderr": self.mean_rank_stderr,
            "p_cheatin": self.p_cheatin, "p_cheatin_stderr": self.p_cheatin_stderr,
            "p_full_house_or_better": self.p_full_house_or_better,
            "p_full_house_or_better_stderr": self.p_at_least_stderr(FULL_HOUSE_OR_BETTER),
            "exact": self.exact, "trials": self.trials,
        }])

    def to_json(self) -> dict[str, Any]:
        """The JSON contract (``distribution``, ``p_cheatin``, ``mean_rank``, ``trials``,
        ``exact``, ``stderr``) plus context: deck, cards, stud, draw, policy, discard,
        ``p_at_least`` / ``p_at_least_stderr`` (rank -> P(rank >= r)), ``p_cheatin_stderr``,
        ``mean_rank_stderr``, and the sampling plan (seed, bit_generator, chunk_trials)."""
        out: dict[str, Any] = {
            "deck": self.deck,
            **({"deck_state": self.deck_state} if self.deck_state is not None else {}),
            "cards": self.cards,
            "stud": self.stud,
            "draw": self.draw,
            "policy": self.policy,
            "discard": self.discard,
            "distribution": self.distribution,
            "p_cheatin": float(self.p_cheatin),
            "mean_rank": float(self.mean_rank),
            "trials": int(self.trials),
            "exact": bool(self.exact),
            "stderr": {int(r): float(s) for r, s in zip(self.ranks["rank"], self.ranks["stderr"])},
            "p_cheatin_stderr": float(self.p_cheatin_stderr),
            "mean_rank_stderr": float(self.mean_rank_stderr),
            "p_at_least": {int(r): float(s) for r, s in zip(self.ranks["rank"], self.ranks["at_least"])},
            "p_at_least_stderr": {int(r): float(s) for r, s in zip(self.ranks["rank"], self.ranks["at_least_stderr"])},
        }
        if self.mean_discards is not None:
            out["mean_discards"] = float(self.mean_discards)
        out.update(_plan_json(self.seed, self.trials))
        return out


def _odds_from_counts(counts: np.ndarray, *, total: int, exact: bool, name: str, cards: int, stud: int,
                      draw: int, policy: str, discard: str, seed: int | None,
                      mean_discards: float | None = None, deck_state: str | None = None) -> ShootoutOdds:
    ranks, fig = _rank_frame(counts, total, exact)
    return ShootoutOdds(
        deck=name, cards=cards, stud=stud, draw=draw, policy=policy, discard=discard, exact=exact,
        trials=0 if exact else total, ranks=ranks, counts=np.asarray(counts[:24], dtype=np.int64).copy(),
        seed=None if exact else seed, hands=total if exact else None, mean_discards=mean_discards,
        deck_state=deck_state, **fig,
    )


def can_be_exact(stud: int, draw: int, cards: int | None = None) -> bool:
    """Whether the exact enumeration applies: stud 0..2 and nothing to replace (draw 0,
    or a deck with no card left after the hand)."""
    no_draw = draw == 0 or (cards is not None and cards <= HAND_SIZE + stud)
    return stud <= EXACT_MAX_STUD and no_draw


def exact_counts(deck: object, stud: int, policy: Policy | str = "legal", *, method: str = "values") -> np.ndarray:
    """Number of (5 + stud)-card hands per kept rank * 2 + cheatin' (24 entries), exactly.

    ``method``: ``values`` (value classes with flush and Dead Man's Hand corrections,
    fast) or ``cards`` (hand by hand over multisets of distinct cards, the cross-check)."""
    stud = check_bonus(stud, "stud")
    if stud > EXACT_MAX_STUD:
        raise OddsmithError(f"exact shootout hands need a stud bonus of 0..{EXACT_MAX_STUD}, got {stud}")
    deck = resolve_deck(deck)
    codes = deck_codes(deck)
    _check_deck(codes, stud, deck_name(deck))
    counts = np.bincount(codes, minlength=N_CODES).astype(np.int32)
    out = np.zeros(24, dtype=np.int64)
    ext = _kernels()
    margin = parse_policy(policy).kernel_margin
    if method == "values":
        ext.exact_values(counts, HAND_SIZE + stud, margin, out)
    elif method == "cards":
        ext.exact_direct(counts, HAND_SIZE + stud, margin, out)
    else:
        raise ValueError(f"unknown method {method!r}")
    total = math.comb(int(codes.size), HAND_SIZE + stud)
    if int(out.sum()) != total:  # every hand counted once: a kernel invariant
        raise RuntimeError(f"shootout enumeration counted {int(out.sum())} hands, expected {total}")
    return out


def _search_cost(codes: np.ndarray, stud: int, draw: int) -> int:
    """Evaluations per hand of the search reference (an upper bound)."""
    n = HAND_SIZE + stud
    distinct = len(np.unique(codes))
    draws = min(draw, codes.size - n)
    return sum(math.comb(n, r) * math.comb(distinct + r - 1, r) for r in range(draws + 1))


def _check_search(codes: np.ndarray, stud: int, draw: int) -> None:
    cost = _search_cost(codes, stud, draw)
    if cost > SEARCH_MAX_EVALUATIONS:
        raise OddsmithError(
            f"the search discard policy is a reference for small cases: stud {stud}, draw {draw} needs about "
            f"{cost:,} hand evaluations per hand (limit {SEARCH_MAX_EVALUATIONS:,}); try draw 1-2 with stud 0-2")


def shootout_odds(
    deck: object,
    stud: int = 0,
    draw: int = 0,
    *,
    policy: Policy | str = "legal",
    discard: str = "heuristic",
    exact: bool | None = None,
    trials: int | None = None,
    seed: int | None = None,
    workers: int = 1,
    name: str | None = None,
) -> ShootoutOdds:
    """The kept shootout hand of ``deck`` with stud bonus ``stud`` and draw bonus ``draw``.

    ``exact=None`` enumerates exactly when it can (:func:`can_be_exact`) and
    simulates otherwise; ``exact=False`` forces simulation (``trials`` hands,
    default 1,000,000, or 20,000 with the search discard policy). ``deck``: anything
    :func:`~oddsmith.doomtown.deck.resolve_deck` takes (a sample name, a file, a deck text,
    a Deck, cards), as it stands after set-up.
    """
    deck = resolve_deck(deck)
    stud, draw = check_bonus(stud, "stud"), check_bonus(draw, "draw")
    discard = check_discard(discard)
    pol = AUTOMATON_POLICY if discard == "automaton" else parse_policy(policy)
    policy_label = "automaton" if discard == "automaton" else str(pol)
    codes = deck_codes(deck)
    name = name or deck_name(deck)
    _check_deck(codes, stud, name)
    exactable = can_be_exact(stud, draw, codes.size)
    if exact is None:
        exact = exactable
    if exact and not exactable:
        raise OddsmithError(f"exact shootout hands need stud 0..{EXACT_MAX_STUD} and no draw bonus "
                            f"(got stud {stud}, draw {draw}): simulate instead")
    if exact:
        counts = exact_counts(codes, stud, pol)
        return _odds_from_counts(counts, total=int(counts.sum()), exact=True, name=name, cards=int(codes.size),
                                 stud=stud, draw=draw, policy=policy_label, discard=discard, seed=None,
                                 deck_state=deck_state_of(deck))
    if discard == "search":
        _check_search(codes, stud, draw)
    default = DEFAULT_SEARCH_TRIALS if discard == "search" else DEFAULT_TRIALS
    trials = check_trials(default if trials is None else trials)
    workers, seed = check_workers(workers), resolve_seed(seed)
    ext = _kernels()
    margin, mode = pol.kernel_margin, _MODE[discard]

    def work(gen: np.random.PCG64, n_trials: int) -> np.ndarray:
        out = np.zeros(25, dtype=np.int64)
        ext.simulate_hands(codes, stud, draw, margin, mode, gen, n_trials, out)
        return out

    total = sum_chunks(work, SamplingPlan(seed, trials), workers=workers, label="shootout hands")
    return _odds_from_counts(total[:24], total=trials, exact=False, name=name, cards=int(codes.size), stud=stud,
                             draw=draw, policy=policy_label, discard=discard, seed=seed,
                             mean_discards=float(total[24]) / trials, deck_state=deck_state_of(deck))


# --------------------------------------------------------------------------
# One round head to head
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a shootout round: its deck (anything :func:`~oddsmith.doomtown.deck.resolve_deck`
    takes), bonuses and policies."""

    deck: object
    stud: int = 0
    draw: int = 0
    policy: Policy | str = "legal"
    discard: str = "heuristic"
    name: str | None = None

    def checked(self) -> "Side":
        discard = check_discard(self.discard)
        policy = AUTOMATON_POLICY if discard == "automaton" else parse_policy(self.policy)
        deck = resolve_deck(self.deck)
        return replace(self, deck=deck, stud=check_bonus(self.stud, "stud"), draw=check_bonus(self.draw, "draw"),
                       discard=discard, policy=policy, name=self.name or deck_name(deck))

    @property
    def policy_label(self) -> str:
        return "automaton" if self.discard == "automaton" else str(parse_policy(self.policy))


@notebook_view
@dataclass(frozen=True, eq=False)
class RoundOdds:
    """One shootout round, side A against side B (simulated).

    ``p_win``/``p_lose``: A's kept hand is higher/lower; ``p_tie``: identical
    hands (no winner; each side suffers 1 casualty). ``p_equal_ranks``: both
    hands of the same rank, each side suffering 1 casualty (Casualties): the
    tie-breaks won, counted in ``p_win``/``p_lose`` too, plus ``p_tie``.
    ``casualties`` columns: ``casualties`` (0..10), ``p_A``, ``p_A_stderr``,
    ``p_B``, ``p_B_stderr`` (the probability that side A / B suffers exactly
    that many). ``a``/``b``: each side's kept hand over the same rounds.
    """

    a: ShootoutOdds
    b: ShootoutOdds
    trials: int
    p_win: float
    p_lose: float
    p_tie: float
    p_equal_ranks: float
    p_win_stderr: float
    p_lose_stderr: float
    p_tie_stderr: float
    p_equal_ranks_stderr: float
    casualties: pd.DataFrame
    expected_casualties: tuple[float, float]
    expected_casualties_stderr: tuple[float, float]
    seed: int
    shooters: tuple[str | None, str | None] = (None, None)
    """Shooter chosen or named for each side when bonuses came from a posse."""
    exact: bool = False

    def summary(self) -> pd.DataFrame:
        """One row per side: side (A, B), deck, shooter, stud, draw, policy, discard, p_win,
        p_win_stderr, p_lose, p_lose_stderr, p_tie, p_tie_stderr, expected_casualties
        (+ _stderr: what the side suffers), mean_rank (+ _stderr), p_cheatin (+ _stderr)."""
        rows = []
        for i, h in enumerate((self.a, self.b)):
            win, lose = (self.p_win, self.p_lose) if i == 0 else (self.p_lose, self.p_win)
            rows.append({
                "side": "AB"[i], "deck": h.deck, "shooter": self.shooters[i] or "",
                "stud": h.stud, "draw": h.draw, "policy": h.policy, "discard": h.discard,
                "p_win": win, "p_win_stderr": self.p_win_stderr,
                "p_lose": lose, "p_lose_stderr": self.p_lose_stderr,
                "p_tie": self.p_tie, "p_tie_stderr": self.p_tie_stderr,
                "expected_casualties": self.expected_casualties[i],
                "expected_casualties_stderr": self.expected_casualties_stderr[i],
                "mean_rank": h.mean_rank, "mean_rank_stderr": h.mean_rank_stderr,
                "p_cheatin": h.p_cheatin, "p_cheatin_stderr": h.p_cheatin_stderr,
            })
        return pd.DataFrame(rows)

    def ranks(self) -> pd.DataFrame:
        """Both kept-hand distributions: rank, hand, p_A, p_A_stderr, p_B, p_B_stderr."""
        return pd.DataFrame({
            "rank": self.a.ranks["rank"], "hand": self.a.ranks["hand"],
            "p_A": self.a.ranks["probability"], "p_A_stderr": self.a.ranks["stderr"],
            "p_B": self.b.ranks["probability"], "p_B_stderr": self.b.ranks["stderr"],
        })

    def to_json(self) -> dict[str, Any]:
        """Side A's hand fields (the contract), then ``p_win``, ``p_lose``, ``p_tie``,
        ``casualties`` ({"A": {n: p}, "B": {n: p}}), their standard errors, and
        ``opponent`` (side B's hand fields)."""
        out = self.a.to_json()
        for k in ("seed", "bit_generator", "chunk_trials"):
            out.pop(k, None)
        cas = self.casualties
        out.update({
            "vs": self.b.deck,
            "shooter": self.shooters[0],
            "trials": int(self.trials),
            "exact": bool(self.exact),
            "p_win": float(self.p_win),
            "p_lose": float(self.p_lose),
            "p_tie": float(self.p_tie),
            "p_equal_ranks": float(self.p_equal_ranks),
            "casualties": {
                "A": {int(n): float(p) for n, p in zip(cas["casualties"], cas["p_A"])},
                "B": {int(n): float(p) for n, p in zip(cas["casualties"], cas["p_B"])},
            },
            "expected_casualties": {"A": float(self.expected_casualties[0]), "B": float(self.expected_casualties[1])},
            "p_win_stderr": float(self.p_win_stderr),
            "p_lose_stderr": float(self.p_lose_stderr),
            "p_tie_stderr": float(self.p_tie_stderr),
            "p_equal_ranks_stderr": float(self.p_equal_ranks_stderr),
            "casualties_stderr": {
                "A": {int(n): float(p) for n, p in zip(cas["casualties"], cas["p_A_stderr"])},
                "B": {int(n): float(p) for n, p in zip(cas["casualties"], cas["p_B_stderr"])},
            },
            "expected_casualties_stderr": {"A": float(self.expected_casualties_stderr[0]),
                                           "B": float(self.expected_casualties_stderr[1])},
            "opponent": {k: v for k, v in self.b.to_json().items()
                         if k not in ("trials", "exact", "seed", "bit_generator", "chunk_trials")},
        })
        out["opponent"]["shooter"] = self.shooters[1]
        out.update(_plan_json(self.seed, self.trials))
        return out


def _simulate_rounds(a: Side, b: Side, trials: int, seed: int, workers: int, label: str = "shootout rounds") -> np.ndarray:
    ca, cb = deck_codes(a.deck), deck_codes(b.deck)
    _check_deck(ca, a.stud, a.name or "deck A")
    _check_deck(cb, b.stud, b.name or "deck B")
    for side, codes in ((a, ca), (b, cb)):
        if side.discard == "search":
            _check_search(codes, side.stud, side.draw)
    ext = _kernels()
    pa, pb = parse_policy(a.policy), parse_policy(b.policy)

    def work(gen: np.random.PCG64, n_trials: int) -> np.ndarray:
        out = np.zeros(_RND_SIZE, dtype=np.int64)
        ext.simulate_rounds(ca, a.stud, a.draw, pa.kernel_margin, _MODE[a.discard],
                            cb, b.stud, b.draw, pb.kernel_margin, _MODE[b.discard], gen, n_trials, out)
        return out

    return sum_chunks(work, SamplingPlan(seed, trials), workers=workers, label=label)


def _round_odds(t: np.ndarray, a: Side, b: Side, trials: int, seed: int,
                shooters: tuple[str | None, str | None]) -> RoundOdds:
    def side(h: np.ndarray, s: Side) -> ShootoutOdds:
        return _odds_from_counts(h, total=trials, exact=False, name=s.name or "deck", cards=len(deck_codes(s.deck)),
                                 stud=s.stud, draw=s.draw, policy=s.policy_label, discard=s.discard, seed=seed,
                                 deck_state=deck_state_of(s.deck))

    n = np.arange(MAX_CASUALTIES + 1, dtype=np.float64)
    cas_a = t[_RND_CAS_A:_RND_CAS_A + MAX_CASUALTIES + 1] / trials
    cas_b = t[_RND_CAS_B:_RND_CAS_B + MAX_CASUALTIES + 1] / trials
    mean_a, mean_b = float(np.dot(n, cas_a)), float(np.dot(n, cas_b))
    se_mean = tuple(math.sqrt(float(np.dot(c, (n - m) ** 2)) / trials) for c, m in ((cas_a, mean_a), (cas_b, mean_b)))
    p = t[[_RND_A_WINS, _RND_B_WINS, _RND_IDENTICAL, _RND_EQUAL]] / trials
    se = binomial_stderr(p, trials)
    casualties = pd.DataFrame({
        "casualties": n.astype(int), "p_A": cas_a, "p_A_stderr": binomial_stderr(cas_a, trials),
        "p_B": cas_b, "p_B_stderr": binomial_stderr(cas_b, trials),
    })
    return RoundOdds(
        a=side(t[_RND_A:_RND_A + 24], a), b=side(t[_RND_B:_RND_B + 24], b), trials=trials,
        p_win=float(p[0]), p_lose=float(p[1]), p_tie=float(p[2]), p_equal_ranks=float(p[3]),
        p_win_stderr=float(se[0]), p_lose_stderr=float(se[1]), p_tie_stderr=float(se[2]),
        p_equal_ranks_stderr=float(se[3]), casualties=casualties,
        expected_casualties=(mean_a, mean_b), expected_casualties_stderr=se_mean,  # type: ignore[arg-type]
        seed=seed, shooters=shooters,
    )


def shootout_round(a: Side, b: Side, *, trials: int = DEFAULT_TRIALS, seed: int | None = None,
                   workers: int = 1, shooters: tuple[str | None, str | None] = (None, None)) -> RoundOdds:
    """One shootout round between side ``a`` and side ``b`` (Monte Carlo, ``trials`` rounds)."""
    a, b = a.checked(), b.checked()
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)
    t = _simulate_rounds(a, b, trials, seed, workers)
    return _round_odds(t, a, b, trials, seed, shooters)


# --------------------------------------------------------------------------
# Posses: choosing the shooter
# --------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class ShooterChoice:
    """The shooter picked for a posse and why.

    ``options`` columns: ``shooter`` (index), ``name``, ``bullet_type``,
    ``bullets``, ``stud``, ``draw``, ``score`` (what was maximised, see
    ``criterion``; NaN for a named shooter), ``chosen`` (bool).
    """

    index: int
    name: str
    bonus: PosseBonus
    criterion: str
    options: pd.DataFrame


def _options_frame(posse: Any, scores: dict[PosseBonus, float], chosen: int) -> pd.DataFrame:
    df = posse.shooter_options()
    df["score"] = [scores.get(PosseBonus(int(s), int(d)), float("nan")) for s, d in zip(df["stud"], df["draw"])]
    df["chosen"] = df["shooter"] == chosen
    return df


def _bonus_in_range(b: PosseBonus, who: str) -> PosseBonus:
    check_bonus(b.stud, f"{who}: stud bonus")
    check_bonus(b.draw, f"{who}: draw bonus")
    return b


def choose_shooter(deck: object, posse: Any, *, policy: Policy | str = "legal", discard: str = "heuristic",
                   trials: int = SCREEN_TRIALS, seed: int | None = None, workers: int = 1) -> ShooterChoice:
    """The shooter maximising the mean kept rank of ``deck``'s hand (exact where possible,
    else ``trials`` simulated hands per distinct bonus; common seed). A shooter named in
    the posse is kept."""
    from oddsmith.doomtown.posse import best_shooter, resolve_posse

    deck = resolve_deck(deck)
    posse = resolve_posse(posse, deck=deck)  # "gang": the deck's own starting gang
    seed = resolve_seed(seed)
    scores: dict[PosseBonus, float] = {}

    def score(b: PosseBonus) -> float:
        _bonus_in_range(b, "posse")
        odds = shootout_odds(deck, b.stud, b.draw, policy=policy, discard=discard, trials=trials, seed=seed,
                             workers=workers)
        scores[b] = odds.mean_rank
        return odds.mean_rank

    i, bonus = best_shooter(posse, score)
    named = posse.shooter is not None
    _bonus_in_range(bonus, "posse")
    return ShooterChoice(i, posse.dudes[i].name, bonus, "named" if named else "mean kept rank",
                         _options_frame(posse, scores, i))


AUTOMATON_SHOOTER_CRITERION = "the Automaton's priority (more than one stud, highest bullets, unbooted, lowest influence)"


def choose_shooters(a: Side, posse_a: Any | None, b: Side, posse_b: Any | None, *,
                    trials: int = SCREEN_TRIALS, seed: int | None = None,
                    workers: int = 1) -> tuple[Side, Side, ShooterChoice | None, ShooterChoice | None]:
    """Stud and draw bonuses for the sides that bring a posse: a named shooter is kept; a
    side playing the Automaton (discard ``automaton``) picks by the book's priority
    (Rulebook "Automaton Variant", "Shootout Hands": :func:`oddsmith.doomtown.posse.automaton_shooter`);
    otherwise each side picks the shooter that maximises its P(win the round) against the
    other side's replies (maximin over the distinct bonuses, ``trials`` rounds per
    pairing, common seed; against an Automaton, its one choice). Returns the sides with
    their bonuses and the choices."""
    from oddsmith.doomtown.posse import resolve_posse

    posse_a, posse_b = resolve_posse(posse_a, deck=a.deck), resolve_posse(posse_b, deck=b.deck)
    seed = resolve_seed(seed)

    from oddsmith.doomtown.posse import automaton_shooter

    def plays_automaton(side: Side, posse: Any | None) -> bool:
        return posse is not None and posse.shooter is None and check_discard(side.discard) == "automaton"

    def options(side: Side, posse: Any | None, who: str) -> list[PosseBonus]:
        if posse is None:
            return [PosseBonus(side.stud, side.draw)]
        if posse.shooter is not None:
            return [_bonus_in_range(posse.bonus(), who)]
        if plays_automaton(side, posse):  # the book's own priority, not maximin
            return [_bonus_in_range(posse.bonus(automaton_shooter(posse)), who)]
        return [_bonus_in_range(b, who) for b in posse.bonus_choices()]

    opts_a, opts_b = options(a, posse_a, "posse"), options(b, posse_b, "vs posse")
    a, b = a.checked(), b.checked()
    grid = np.zeros((len(opts_a), len(opts_b), 2))
    if len(opts_a) > 1 or len(opts_b) > 1:
        for i, ba in enumerate(opts_a):
            for j, bb in enumerate(opts_b):
                t = _simulate_rounds(replace(a, stud=ba.stud, draw=ba.draw), replace(b, stud=bb.stud, draw=bb.draw),
                                     trials, seed, workers, label="choosing shooters")
                grid[i, j] = t[_RND_A_WINS] / trials, t[_RND_B_WINS] / trials
    # maximin: each side's worst P(win) over the other side's options
    score_a = {ba: float(grid[i, :, 0].min()) for i, ba in enumerate(opts_a)}
    score_b = {bb: float(grid[:, j, 1].min()) for j, bb in enumerate(opts_b)}
    best_a = max(opts_a, key=lambda x: score_a[x])  # max keeps the first (posse order) on ties
    best_b = max(opts_b, key=lambda x: score_b[x])

    def choice(posse: Any | None, best: PosseBonus, scores: dict[PosseBonus, float],
               automaton: bool) -> ShooterChoice | None:
        if posse is None:
            return None
        if posse.shooter is not None:
            i = posse.shooter
            return ShooterChoice(i, posse.dudes[i].name, posse.bonus(), "named", _options_frame(posse, {}, i))
        if automaton:
            i = automaton_shooter(posse)
            return ShooterChoice(i, posse.dudes[i].name, posse.bonus(i), AUTOMATON_SHOOTER_CRITERION,
                                 _options_frame(posse, {}, i))
        i = next(k for k in range(len(posse)) if posse.bonus(k) == best)
        crit = "P(win the round), worst case over the other side's shooters"
        return ShooterChoice(i, posse.dudes[i].name, best, crit,
                             _options_frame(posse, scores if len(scores) > 1 or len(opts_b) > 1 else {}, i))

    ch_a = choice(posse_a, best_a, score_a, plays_automaton(a, posse_a))
    ch_b = choice(posse_b, best_b, score_b, plays_automaton(b, posse_b))
    a = replace(a, stud=best_a.stud, draw=best_a.draw)
    b = replace(b, stud=best_b.stud, draw=best_b.draw)
    return a, b, ch_a, ch_b


# --------------------------------------------------------------------------
# The heuristic against the search reference
# --------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class DiscardGap:
    """How far the discard heuristic falls short of the search reference.

    For each of ``hands`` dealt hands, the exact expected kept rank after the
    draw is computed for the heuristic's discards, for the best discard set
    (the search reference) and for standing pat (under ``legal``, a hand the
    player is forced to cheat with counts 0, as the search scores it). ``gap`` = mean(search -
    heuristic) >= 0, with its standard error over the hands dealt;
    ``p_optimal``: the fraction of hands where the heuristic's choice is as good
    as the best one.
    """

    deck: str
    stud: int
    draw: int
    policy: str
    hands: int
    mean_heuristic: float
    mean_search: float
    mean_stand_pat: float
    gap: float
    gap_stderr: float
    max_gap: float
    p_optimal: float
    seed: int

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([{k: getattr(self, k) for k in (
            "deck", "stud", "draw", "policy", "hands", "mean_heuristic", "mean_search", "mean_stand_pat",
            "gap", "gap_stderr", "max_gap", "p_optimal", "seed")}])


def discard_gap(deck: object, stud: int, draw: int, *, policy: Policy | str = "legal", hands: int = 2_000,
                seed: int | None = None, workers: int = 1, name: str | None = None) -> DiscardGap:
    """Measure the heuristic discard policy against the search reference on ``hands`` deals."""
    stud, draw = check_bonus(stud, "stud"), check_bonus(draw, "draw")
    pol = parse_policy(policy)
    deck = resolve_deck(deck)
    codes = deck_codes(deck)
    name = name or deck_name(deck)
    _check_deck(codes, stud, name)
    _check_search(codes, stud, draw)
    hands, workers, seed = check_trials(hands), check_workers(workers), resolve_seed(seed)
    ext = _kernels()

    def work(gen: np.random.PCG64, n: int) -> np.ndarray:
        eh, es, ek = np.zeros(n), np.zeros(n), np.zeros(n)
        hm, sm = np.zeros(n, dtype=np.uint32), np.zeros(n, dtype=np.uint32)
        ext.discard_gap(codes, stud, draw, pol.kernel_margin, gen, n, eh, es, ek, hm, sm)
        return np.stack([eh, es, ek])

    parts = run_chunks(work, SamplingPlan(seed, hands, chunk_trials=128), workers=workers, label="discard gap")
    eh, es, ek = np.concatenate(parts, axis=1)
    diff = es - eh
    return DiscardGap(
        deck=name, stud=stud, draw=draw, policy=str(pol), hands=hands,
        mean_heuristic=float(eh.mean()), mean_search=float(es.mean()), mean_stand_pat=float(ek.mean()),
        gap=float(diff.mean()), gap_stderr=float(diff.std(ddof=1) / math.sqrt(hands)) if hands > 1 else 0.0,
        max_gap=float(diff.max()), p_optimal=float(np.mean(diff <= 1e-9)), seed=seed,
    )


# --------------------------------------------------------------------------
# The trade-off: lowball against shootout strength
# --------------------------------------------------------------------------

TRADEOFF_COLUMNS = (
    "deck", "vs", "stud", "draw",
    "lowball_p_win", "lowball_p_cheatin", "lowball_mean_rank",
    "shootout_mean_rank", "shootout_mean_rank_stderr",
    "shootout_p_full_house_or_better", "shootout_p_full_house_or_better_stderr",
    "shootout_p_cheatin", "shootout_p_cheatin_stderr",
    "shootout_exact", "shootout_trials", "deck_state",
)
"""Columns of :func:`tradeoff` (one row per deck x stud x draw):

* ``deck``: the deck's name; ``vs``: the lowball reference opponent's name;
* ``stud``, ``draw``: the shootout bonuses of the row;
* ``lowball_p_win``: P(the deck wins Gamblin' against ``vs``), identical hands
  redrawn (exact; the same on every row of a deck);
* ``lowball_p_cheatin``: P(the deck's lowball hand is cheatin') (exact);
* ``lowball_mean_rank``: mean lowball hand rank (exact; lower is better);
* ``shootout_mean_rank``: mean rank of the kept shootout hand at (stud, draw);
* ``shootout_p_full_house_or_better``: P(kept rank >= Full House);
* ``shootout_p_cheatin``: P(the kept shootout hand is cheatin');
* each shootout figure with its ``_stderr`` (0 when exact);
* ``shootout_exact``: the shootout figures are exact (stud <= 2, draw 0);
  ``shootout_trials``: simulated hands (0 when exact);
* ``deck_state``: which deck was used (after set-up, or full; :attr:`oddsmith.doomtown.deck.Deck.deck_state`).
"""


def _grid(values: Iterable[int], what: str) -> list[int]:
    out = sorted({check_bonus(v, what) for v in values})
    if not out:
        raise OddsmithError(f"{what}: give at least one value")
    return out


def tradeoff(
    decks: Sequence[object],
    *,
    vs: object | None = None,
    studs: Iterable[int] = range(0, 4),
    draws: Iterable[int] = range(0, 4),
    policy: Policy | str = "legal",
    discard: str = "heuristic",
    trials: int = DEFAULT_TRADEOFF_TRIALS,
    seed: int | None = None,
    workers: int = 1,
) -> pd.DataFrame:
    """For each deck and each (stud, draw) of the grid: lowball win rate against ``vs`` (the
    deck itself when None), P(cheatin') in lowball, and shootout strength (mean kept rank,
    P(full house or better)). Columns: :data:`TRADEOFF_COLUMNS`. Simulated cells all use
    ``seed`` (common random numbers: differences between cells are sharper)."""
    from oddsmith.doomtown.lowball import lowball_tradeoff

    if not decks:
        raise OddsmithError("tradeoff: give at least one deck")
    decks = [resolve_deck(d) for d in decks]
    vs = None if vs is None else resolve_deck(vs)
    studs, draws = _grid(studs, "stud"), _grid(draws, "draw")
    pol = parse_policy(policy)
    discard = check_discard(discard)
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)
    rows = []
    for deck in decks:
        name = deck_name(deck)
        low = lowball_tradeoff(deck, vs)
        vs_name = name if vs is None else deck_name(vs)
        for s in studs:
            for d in draws:
                odds = shootout_odds(deck, s, d, policy=pol, discard=discard, trials=trials, seed=seed,
                                     workers=workers, name=name)
                rows.append({
                    "deck": name, "vs": vs_name, "stud": s, "draw": d,
                    "lowball_p_win": low.p_win, "lowball_p_cheatin": low.p_cheatin,
                    "lowball_mean_rank": low.mean_rank,
                    "shootout_mean_rank": odds.mean_rank, "shootout_mean_rank_stderr": odds.mean_rank_stderr,
                    "shootout_p_full_house_or_better": odds.p_full_house_or_better,
                    "shootout_p_full_house_or_better_stderr": odds.p_at_least_stderr(FULL_HOUSE_OR_BETTER),
                    "shootout_p_cheatin": odds.p_cheatin, "shootout_p_cheatin_stderr": odds.p_cheatin_stderr,
                    "shootout_exact": odds.exact, "shootout_trials": odds.trials,
                    "deck_state": odds.deck_state,
                })
    return pd.DataFrame(rows, columns=list(TRADEOFF_COLUMNS))
