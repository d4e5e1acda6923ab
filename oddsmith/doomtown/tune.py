"""What to swap: single card swaps from the card pool, scored, their Pareto frontier, and the
best sequences of up to K swaps (``oddsmith deck tune``; docs/deckbuilding.md).

A swap trades one card of the draw deck (as set-up leaves it: the starting gang in
play) for one card of the pool: the box's copies not already in the deck (the
default), any card up to the deck-building limits (``pool="all"``), or a list of
titles. The new deck must be legal (Rulebook "Deck Building": 52 valued cards,
at most 4 sharing suit and value, at most 4 sharing a title, Experienced versions
counted as one; :data:`~oddsmith.rules.doomtown.SWAP_RULES`: outfit, legend,
jokers and the starting gang are never swapped) and, by default, keep the card
type. Dudes of another faction cost more upkeep (Rulebook "Dudes from Other
Factions"): the pool offers only the outfit's faction and drifters unless
``any_faction``.

Each candidate deck is scored against the current deck on:

* ``d_p_lowball_win``: P(win Gamblin') against the opponent, exact
  (:mod:`oddsmith.doomtown.lowball`);
* ``d_p_shootout``: P(kept shootout hand at least ``at_least``, Full House by
  default) at the chosen stud and draw bonus: exact where the enumeration is exact
  (stud 0..2, no draw), otherwise simulated on common random numbers (every deck
  sees the same deals, the swapped card in the place of the old one), with the
  paired standard error of the difference;
* ``d_p_cheatin``: P(the Gamblin' hand is cheatin'), exact; also
  ``d_p_shootout_cheatin``, the kept shootout hand's;
* with a posse, ``d_p_full_shootout_win``: P(win the whole shootout) against the
  opponent's posse (:mod:`oddsmith.doomtown.full_shootout`, the same seed for every
  deck, paired standard errors).

The search for sequences is a **beam search**: level j expands each of the
``beam`` best decks of level j - 1 by every legal single swap and keeps the
``beam`` best by the score ``w * d_p_lowball_win + (1 - w) * d_p_shootout``
(``w = lowball_weight``); ``beam=1`` is greedy, ``exhaustive=True`` keeps every
deck (for small pools: the tests check the beam against it).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np
import pandas as pd

from oddsmith.doomtown.cardtable import CardTable, card_table as _card_table, split_items, title_key
from oddsmith.doomtown.deck import N_CODES, Deck, resolve_deck, set_up, swap_cards
from oddsmith.errors import OddsmithError
from oddsmith.executor import STREAM_TUNE_FULL, STREAM_TUNE_HANDS, Executor, InlineExecutor, deck_key, stream, stream_seed
from oddsmith.rules.doomtown import (
    DECK_RULES,
    HAND_RANK_NAMES,
    HAND_SIZE,
    JOKER_CODE,
    STARTING_GANG_RULES,
    SWAP_RULES,
    HandRank,
    deck_building_title,
)
from oddsmith.sampling import CHUNK_TRIALS, SamplingPlan, check_trials, resolve_seed

DEFAULT_TRIALS = 20_000
"""Simulated shootout hands per deck when the hand figure is not exact (paired: the differences
between decks one card apart are far sharper than the figures)."""
DEFAULT_FULL_TRIALS = 5_000
"""Whole shootouts per deck with a posse."""
DEFAULT_SWAPS = 2
DEFAULT_BEAM = 4
DEFAULT_LOWBALL_WEIGHT = 0.5
BATCH_DECKS = 64
"""Candidate decks per task: a fixed cut, so the tasks are the same whatever runs them."""
POOLS = ("box", "all")
SWAP_COLUMNS = ("out", "in", "out_type", "in_type", "out_card", "in_card", "d_p_lowball_win", "d_p_shootout",
                "d_p_shootout_stderr", "d_p_cheatin", "d_p_shootout_cheatin", "d_p_shootout_cheatin_stderr",
                "d_p_full_shootout_win", "d_p_full_shootout_win_stderr", "score", "frontier")


@dataclass(frozen=True)
class TuneQuestion:
    """What every candidate deck is scored on (the options travelling together)."""

    stud: int = 0
    draw: int = 0
    policy: str = "legal"
    discard: str = "heuristic"
    at_least: int = int(HandRank.FULL_HOUSE)
    """The shootout figure: P(kept hand of this rank or better)."""
    trials: int = DEFAULT_TRIALS
    full_trials: int = DEFAULT_FULL_TRIALS
    lowball_weight: float = DEFAULT_LOWBALL_WEIGHT

    def checked(self) -> "TuneQuestion":
        from oddsmith.doomtown.shootout import check_bonus, check_discard, parse_policy

        check_bonus(self.stud, "--stud")
        check_bonus(self.draw, "--draw")
        if check_discard(self.discard) == "search":
            raise OddsmithError("tune: the search discard policy is a one-hand reference; use heuristic or automaton")
        parse_policy(self.policy)
        if not int(HandRank.PAIR) <= int(self.at_least) <= int(HandRank.DEAD_MANS_HAND):
            raise OddsmithError(f"--at-least {self.at_least}: a hand rank 2..11 (2 = Pair, 7 = Full House)")
        check_trials(self.trials)
        check_trials(self.full_trials)
        if not 0.0 <= float(self.lowball_weight) <= 1.0:
            raise OddsmithError(f"--lowball-weight {self.lowball_weight}: a weight 0..1")
        return replace(self, discard=check_discard(self.discard), policy=str(parse_policy(self.policy)))

    @property
    def shootout_exact(self) -> bool:
        from oddsmith.doomtown.shootout import can_be_exact

        return can_be_exact(self.stud, self.draw)

    @property
    def measure(self) -> str:
        name = HAND_RANK_NAMES[HandRank(int(self.at_least))].lower().replace("'", "").replace(" ", "_")
        return f"p_{name}_or_better"

    @property
    def measure_text(self) -> str:
        return (f"{self.measure}: P(kept shootout hand {HAND_RANK_NAMES[HandRank(int(self.at_least))]} or better), "
                f"stud {self.stud}, draw {self.draw}, policy {self.policy}, discard {self.discard}")


@dataclass(frozen=True)
class TuneSearch:
    """Which swaps are considered and how sequences are searched."""

    pool: str = "box"
    """``box`` (the box's copies not in the deck), ``all`` (any card up to the deck-building
    limits) or titles separated by ``;`` (``2x Shotgun; Bass Reeves``: the copies that may come in)."""
    any_type: bool = False
    any_faction: bool = False
    swaps: int = DEFAULT_SWAPS
    beam: int = DEFAULT_BEAM
    exhaustive: bool = False

    def checked(self) -> "TuneSearch":
        if not 1 <= int(self.swaps) <= 6:
            raise OddsmithError(f"--swaps {self.swaps}: 1..6 swaps")
        if int(self.beam) < 1:
            raise OddsmithError(f"--beam {self.beam}: at least 1")
        return self


class Card(NamedTuple):
    """One kind of card a swap moves: its title (None for an untitled card), type, code, faction."""

    title: str | None
    type: str | None
    code: int
    faction: str | None

    @property
    def label(self) -> str:
        from oddsmith.doomtown.cards import format_card

        return self.title if self.title else format_card(self.code)


def _key(card: Card) -> str:
    return title_key(deck_building_title(card.title)) if card.title else ""


# --------------------------------------------------------------------------
# The pool and the legal swaps
# --------------------------------------------------------------------------


def _faction_of(deck: Deck, table: CardTable) -> str | None:
    outfit = table.find(deck.outfit) if deck.outfit else None
    faction = None if outfit is None else outfit.get("faction")
    return faction if isinstance(faction, str) and faction else None


def _table_card(row: pd.Series) -> Card:
    faction = row.get("faction")
    return Card(str(row["title"]), str(row["type"]), int((int(row["value"]) - 1) * 4 + _suit_index(row["suit"])),
                faction if isinstance(faction, str) else None)


def _suit_index(suit: str) -> int:
    return ("spades", "hearts", "diamonds", "clubs").index(str(suit))


@dataclass(frozen=True)
class _Start:
    """The deck being tuned, as the search sees it."""

    deck: Deck
    base_cards: tuple[tuple[Card, int], ...]   # the draw deck's swappable cards and their copies
    fixed_codes: tuple[int, ...]               # codes of the rest of the listed deck (gang in play, jokers)
    fixed_titles: tuple[tuple[str, int], ...]  # deck-building title keys of the rest, with copies
    pool: tuple[tuple[Card, int], ...]         # pool cards and the copies that may come in
    faction: str | None
    jokers: int                                # jokers in the draw deck (never swapped)


def _deck_cards(frame: pd.DataFrame, table: CardTable) -> list[Card]:
    out = []
    for title, ctype, code in zip(frame["title"], frame["type"], frame["code"]):
        known = table.find(title) if title else None
        faction = None if known is None else known.get("faction")
        out.append(Card(title if title else None, ctype if ctype else None, int(code),
                        faction if isinstance(faction, str) else None))
    return out


def _pool(spec: str, deck: Deck, table: CardTable, listed: Counter, listed_exact: Counter) -> list[tuple[Card, int]]:
    spec = str(spec).strip()
    rows: list[tuple[Card, int]] = []
    if spec.casefold() in POOLS:
        for _, row in table.frame.iterrows():
            if row["type"] not in SWAP_RULES.swappable_types:
                continue
            card = _table_card(row)
            if spec.casefold() == "box":
                box = row.get("copies_in_box")
                copies = 0 if box is None or box is pd.NA else int(box) - listed_exact[title_key(card.title)]
            else:
                copies = DECK_RULES.max_per_title - listed[_key(card)]
            if copies > 0:
                rows.append((card, copies))
        return rows
    from oddsmith.doomtown.deck import _title_entries  # the deck-list reader's "2x Title" rule

    items = split_items(spec, lambda s: table.find(_title_entries(s, "", table)[0]) is not None)
    if not items:
        raise OddsmithError("--pool: give box, all, or card titles separated by ';'")
    for item in items:
        title, count = _title_entries(item, "--pool", table)
        row = table.lookup(title, "--pool")
        if row["type"] not in SWAP_RULES.swappable_types:
            raise OddsmithError(f"--pool: {row['title']!r} is a {row['type']}; a swap trades cards with a suit and "
                                f"value ({', '.join(SWAP_RULES.swappable_types)})")
        card = _table_card(row)
        room = DECK_RULES.max_per_title - listed[_key(card)]
        if room <= 0:
            raise OddsmithError(f"--pool: {card.title!r} cannot come in: the deck already holds "
                                f"{DECK_RULES.max_per_title} cards sharing its title (Deck Building)")
        copies = min(count if _explicit_count(item) else room, room)
        rows.append((card, copies))
    return rows


def _explicit_count(item: str) -> bool:
    import re

    return bool(re.match(r"^\s*\d+\s*[x×*]?\s+\S", item) or re.search(r"\s[x×*]\s*\d+\s*$", item))


def start(deck: object, search: TuneSearch = TuneSearch(), *, table: CardTable | None = None) -> _Start:
    """The deck to tune (set up: the starting gang in play) with its pool."""
    deck = resolve_deck(deck)
    if not isinstance(deck, Deck):
        raise OddsmithError("tune: the deck must be a deck list (a file, a sample or a deck text), not bare cards")
    deck = set_up(deck)
    table = table or (deck.table if deck.table is not None else _card_table())
    draw = _deck_cards(deck.cards, table)
    gang = _deck_cards(deck.in_play, table) if deck.in_play is not None and not deck.in_play.empty else []
    swappable = [c for c in draw if c.code != JOKER_CODE]
    fixed = [c for c in draw if c.code == JOKER_CODE] + gang
    listed = Counter(_key(c) for c in draw + gang if c.title)
    listed_exact = Counter(title_key(c.title) for c in draw + gang if c.title)
    pool = _pool(search.pool, deck, table, listed, listed_exact)
    return _Start(deck=deck, base_cards=tuple(sorted(Counter(swappable).items(), key=_order)),
                  fixed_codes=tuple(c.code for c in fixed),
                  fixed_titles=tuple(sorted(Counter(_key(c) for c in fixed if c.title).items())),
                  pool=tuple(sorted(pool, key=_order)), faction=_faction_of(deck, table),
                  jokers=sum(c.code == JOKER_CODE for c in draw))


def _order(item: tuple[Card, int]) -> tuple:
    c = item[0]
    return (c.code, c.title or "", c.type or "")


@dataclass(frozen=True)
class _State:
    """A deck reached by swaps: the swappable cards and copies, and the swaps made."""

    cards: tuple[tuple[Card, int], ...]
    swaps: tuple[tuple[Card, Card], ...] = ()

    def counter(self) -> Counter:
        return Counter(dict(self.cards))


def _counts(st: _Start, cards: Iterable[tuple[Card, int]]) -> np.ndarray:
    """The draw deck's copies of each code 0..52 (jokers included, the gang in play left out)."""
    counts = np.zeros(N_CODES, dtype=np.int64)
    for card, n in cards:
        counts[card.code] += n
    counts[JOKER_CODE] += st.jokers
    return counts


def moves(st: _Start, state: _State, search: TuneSearch) -> list[tuple[Card, Card]]:
    """Every legal single swap (out, in) from ``state``: the new deck keeps 4 per suit and value
    and 4 per title (Rulebook "Deck Building"), the pool's copies, the card type unless
    ``any_type`` (an untitled card's type is unknown: any type), the outfit's faction and drifters
    for dudes unless ``any_faction``. A card brought in is not taken out again and a card taken
    out is not brought back; a swap of two cards of the same suit and value changes no figure
    and is left out."""
    have = state.counter()
    codes = Counter()
    titles = Counter(dict(st.fixed_titles))
    for c in st.fixed_codes:
        codes[c] += 1
    for card, n in have.items():
        codes[card.code] += n
        if card.title:
            titles[_key(card)] += n
    came_in = Counter(new for _, new in state.swaps)
    went_out = {old for old, _ in state.swaps}
    out = []
    for old, n in sorted(have.items(), key=_order):
        if n <= 0 or old in came_in:
            continue
        for new, copies in st.pool:
            if new == old or new in went_out or new.code == old.code or came_in[new] >= copies:
                continue
            if not search.any_type and old.type is not None and new.type != old.type:
                continue
            if (not search.any_faction and new.type == "dude" and st.faction is not None
                    and new.faction not in (st.faction, STARTING_GANG_RULES.drifter_faction, None)):
                continue
            if codes[new.code] + 1 > DECK_RULES.max_per_suit_and_value:
                continue
            same_title = old.title is not None and _key(old) == _key(new)
            if not same_title and titles[_key(new)] + 1 > DECK_RULES.max_per_title:
                continue
            out.append((old, new))
    return out


def apply(state: _State, old: Card, new: Card) -> _State:
    have = state.counter()
    have[old] -= 1
    if have[old] == 0:
        del have[old]
    have[new] += 1
    return _State(tuple(sorted(have.items(), key=_order)), state.swaps + ((old, new),))


def swapped_deck(st: _Start, swaps: Sequence[tuple[Card, Card]]) -> Deck:
    """The deck after ``swaps``, built and validated by :func:`oddsmith.doomtown.deck.swap_cards`
    (what every reported swap is checked against)."""
    return swap_cards(st.deck, [(old.label, new.title) for old, new in swaps])


# --------------------------------------------------------------------------
# Figures: exact parts, paired Monte Carlo parts (tasks carry card counts only)
# --------------------------------------------------------------------------


def aligned_codes(base: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``counts`` as kernel codes laid out like ``base``: every card the two decks share keeps
    its place, the cards that differ take the places of the cards they replace (so a simulation
    on common random numbers deals the swapped card where the old one was)."""
    base = np.asarray(base, dtype=np.uint8)
    diff = np.asarray(counts, dtype=np.int64) - np.bincount(base, minlength=N_CODES)
    if diff.sum() != 0:
        raise ValueError("aligned_codes: the decks differ in size")
    out = base.copy()
    free: list[int] = []
    for code in np.flatnonzero(diff < 0):
        free.extend(np.flatnonzero(base == code)[diff[code]:].tolist())
    extra = np.repeat(np.arange(N_CODES), np.maximum(diff, 0))
    out[np.sort(np.array(free, dtype=np.int64))] = extra.astype(np.uint8)
    return out


def deal_positions(gen: np.random.PCG64, trials: int, size: int, k: int) -> np.ndarray:
    """Positions of the first ``k`` cards of ``trials`` independent shuffles of a ``size``-card deck
    (uint8, C order): every deck of the comparison is dealt at these positions."""
    rng = np.random.Generator(gen)
    perm = np.tile(np.arange(size, dtype=np.uint8), (int(trials), 1))
    rng.permuted(perm, axis=1, out=perm)
    return np.ascontiguousarray(perm[:, :k])


def hand_outcomes(codes: np.ndarray, positions: np.ndarray, stud: int, draw: int, margin: int,
                  mode: int) -> tuple[np.ndarray, np.ndarray]:
    """Kept rank (1..11) and cheatin' (0/1) of the shootout hand dealt at each row of ``positions``
    (Rulebook "Shootout Sequence", 4. Draw!: 5 + stud cards, up to ``draw`` discarded by the
    discard policy and replaced once by the next cards, in order; then the keeping policy),
    by the kernels of :mod:`oddsmith.doomtown.shootout`."""
    from oddsmith import _ext

    ext = _ext.load("shootout")
    n = HAND_SIZE + stud
    draws = min(draw, codes.size - n)
    hands = np.ascontiguousarray(np.asarray(codes, dtype=np.uint8)[positions[:, :n + draws]])
    trials = hands.shape[0]
    keys = np.zeros(trials, dtype=np.int64)
    cheat = np.zeros(trials, dtype=np.uint8)
    if draws > 0 and mode == 2:  # the Automaton
        ext.automaton_keys(hands, n, draws, keys, cheat)
    else:
        if draws > 0:
            masks = np.zeros(trials, dtype=np.uint32)
            ext.heuristic_masks(hands, n, draws, margin, masks)
            bits = ((masks[:, None] >> np.arange(n, dtype=np.uint32)) & 1).astype(bool)
            rows, cols = np.nonzero(bits)
            nth = (np.cumsum(bits, axis=1) - 1)[rows, cols]
            hands[rows, cols] = hands[rows, n + nth]
        ext.kept_keys(hands, n, margin, keys, cheat)
    return (keys >> 20).astype(np.int8), cheat


def _policy_args(q: TuneQuestion) -> tuple[int, int]:
    from oddsmith.doomtown.shootout import _MODE, AUTOMATON_POLICY, parse_policy

    pol = AUTOMATON_POLICY if q.discard == "automaton" else parse_policy(q.policy)
    return pol.kernel_margin, _MODE[q.discard]


def exact_task(q: TuneQuestion, opponent: np.ndarray, decks: np.ndarray) -> np.ndarray:
    """Exact figures of each deck (rows of card counts): P(win Gamblin') against ``opponent``
    (counts), P(Gamblin' hand cheatin'), and when exact the shootout figure and its cheatin'
    (NaN when they are simulated). One row per deck."""
    from oddsmith.doomtown import lowball as L
    from oddsmith.doomtown.shootout import exact_counts

    opp = L._exact_odds(np.asarray(opponent, dtype=np.int64), "opponent")
    out = np.full((len(decks), 4), np.nan)
    for i, counts in enumerate(np.asarray(decks, dtype=np.int64)):
        out[i, 0], out[i, 1] = L.exact_p_win(counts, opp)
        if q.shootout_exact:
            c = exact_counts(L._counts_to_codes(counts), q.stud, q.policy)
            total = c.sum()
            out[i, 2] = c[2 * int(q.at_least):].sum() / total
            out[i, 3] = c[1::2].sum() / total
    return out


def hands_task(q: TuneQuestion, seed: int, key: int, chunk: int, trials: int, base: np.ndarray,
               decks: np.ndarray) -> np.ndarray:
    """One chunk of the paired shootout-hand simulation: every deck (rows of card counts) dealt at
    the same positions, drawn from the stream (seed, deck key, chunk). Per deck: hits (kept hand
    at least ``at_least``), cheatin', and against ``base`` the discordant trials of each
    (base no / deck yes, base yes / deck no): int64 [decks, 6]."""
    margin, mode = _policy_args(q)
    base = np.asarray(base, dtype=np.uint8)
    k = min(HAND_SIZE + q.stud + q.draw, base.size)
    pos = deal_positions(stream(seed, STREAM_TUNE_HANDS, key, chunk), trials, base.size, k)
    r0, c0 = hand_outcomes(base, pos, q.stud, q.draw, margin, mode)
    h0 = r0 >= q.at_least
    c0 = c0.astype(bool)
    out = np.zeros((len(decks), 6), dtype=np.int64)
    for i, counts in enumerate(np.asarray(decks)):
        r, c = hand_outcomes(aligned_codes(base, counts), pos, q.stud, q.draw, margin, mode)
        h, c = r >= q.at_least, c.astype(bool)
        out[i] = (h.sum(), c.sum(), (~h0 & h).sum(), (h0 & ~h).sum(), (~c0 & c).sum(), (c0 & ~c).sum())
    return out


@dataclass(frozen=True)
class FullQuestion:
    """The whole-shootout part: both posses, the opponent's cycle deck, the policies."""

    posse: Any
    vs_posse: Any
    opponent_codes: tuple[int, ...]
    removed: tuple[int, ...]
    """Codes of the posse's cards found in the draw deck (in play, out of the cycle)."""


def full_task(q: TuneQuestion, fq: FullQuestion, seed: int, key: int, base: np.ndarray,
              decks: np.ndarray) -> np.ndarray:
    """Whole shootouts of each deck's posse against the opponent's, every deck on the seed
    derived from (seed, deck key): per deck, its wins and against ``base`` the discordant
    trials (base lost / deck won, base won / deck lost): int64 [decks, 3]."""
    from oddsmith.doomtown.full_shootout import FullSide, full_shootout

    run_seed = stream_seed(seed, STREAM_TUNE_FULL, key)
    opp = FullSide(np.asarray(fq.opponent_codes, dtype=np.uint8), fq.vs_posse, policy=q.policy, discard=q.discard)

    def wins(codes: np.ndarray) -> np.ndarray:
        cycle = codes.copy()
        for code in fq.removed:
            cycle = np.delete(cycle, np.flatnonzero(cycle == code)[-1])
        side = FullSide(cycle, fq.posse, policy=q.policy, discard=q.discard)
        res = full_shootout(side, opp, trials=q.full_trials, seed=run_seed, per_trial=True)
        return res.per_trial["winner"].to_numpy() == 1

    base = np.asarray(base, dtype=np.uint8)
    w0 = wins(base)
    out = np.zeros((len(decks), 3), dtype=np.int64)
    for i, counts in enumerate(np.asarray(decks)):
        w = wins(aligned_codes(base, counts))
        out[i] = (w.sum(), (~w0 & w).sum(), (w0 & ~w).sum())
    return out


@dataclass
class _Figures:
    """Figures of evaluated decks, by card counts."""

    exact: dict[bytes, np.ndarray] = field(default_factory=dict)
    hands: dict[bytes, np.ndarray] = field(default_factory=dict)
    full: dict[bytes, np.ndarray] = field(default_factory=dict)


class Evaluator:
    """Scores decks against the current one; every task through one :class:`Executor`."""

    def __init__(self, st: _Start, opponent: Deck, q: TuneQuestion, seed: int, executor: Executor,
                 full: FullQuestion | None = None) -> None:
        self.st, self.q, self.seed, self.executor, self.fq = st, q, seed, executor, full
        self.base_counts = _counts(st, st.base_cards)
        self.base_codes = np.asarray(st.deck.codes(), dtype=np.uint8)
        self.key = deck_key(self.base_counts)
        self.opponent = np.bincount(opponent.codes(), minlength=N_CODES).astype(np.int64)
        self.figs = _Figures()
        self.evaluated = 0
        self.evaluate([self.base_counts])
        self.base = self.row(self.base_counts)

    def evaluate(self, decks: Sequence[np.ndarray]) -> None:
        new = []
        seen = set()
        for c in decks:
            b = np.asarray(c, dtype=np.int64).tobytes()
            if b not in self.figs.exact and b not in seen:
                seen.add(b)
                new.append(np.asarray(c, dtype=np.int64))
        if not new:
            return
        self.evaluated += len(new)
        groups = [np.stack(g) for g in _cut(new, BATCH_DECKS)]
        ex = self.executor
        exact = ex.map(exact_task, [(self.q, self.opponent, g) for g in groups])
        for g, rows in zip(groups, exact):
            for c, r in zip(g, rows):
                self.figs.exact[c.tobytes()] = r
        if not self.q.shootout_exact:
            plan = SamplingPlan(self.seed, self.q.trials)
            tasks = [(self.q, self.seed, self.key, i, plan.chunk_size(i), self.base_codes, g)
                     for g in groups for i in range(plan.n_chunks)]
            parts = ex.map(hands_task, tasks)
            for j, g in enumerate(groups):
                tot = np.sum(parts[j * plan.n_chunks:(j + 1) * plan.n_chunks], axis=0)
                for c, r in zip(g, tot):
                    self.figs.hands[c.tobytes()] = r
        if self.fq is not None:
            parts = ex.map(full_task, [(self.q, self.fq, self.seed, self.key, self.base_codes, g) for g in groups])
            for g, rows in zip(groups, parts):
                for c, r in zip(g, rows):
                    self.figs.full[c.tobytes()] = r

    def row(self, counts: np.ndarray) -> dict[str, float]:
        """The deck's figures and their differences from the current deck, with standard errors."""
        b = np.asarray(counts, dtype=np.int64).tobytes()
        e = self.figs.exact[b]
        out = {"p_lowball_win": float(e[0]), "p_cheatin": float(e[1])}
        if self.q.shootout_exact:
            out.update(p_shootout=float(e[2]), p_shootout_stderr=0.0, p_shootout_cheatin=float(e[3]),
                       p_shootout_cheatin_stderr=0.0)
        else:
            n = self.q.trials
            h = self.figs.hands[b]
            out.update(p_shootout=h[0] / n, p_shootout_stderr=_se(h[0], n), p_shootout_cheatin=h[1] / n,
                       p_shootout_cheatin_stderr=_se(h[1], n), _hands=h)
        if self.fq is not None:
            n = self.q.full_trials
            f = self.figs.full[b]
            out.update(p_full_shootout_win=f[0] / n, p_full_shootout_win_stderr=_se(f[0], n), _full=f)
        return out

    def deltas(self, counts: np.ndarray) -> dict[str, float]:
        """``d_*`` figures of the deck against the current deck (paired standard errors)."""
        r, b = self.row(counts), self.base
        d = {"d_p_lowball_win": r["p_lowball_win"] - b["p_lowball_win"],
             "d_p_cheatin": r["p_cheatin"] - b["p_cheatin"]}
        if self.q.shootout_exact:
            d.update(d_p_shootout=r["p_shootout"] - b["p_shootout"], d_p_shootout_stderr=0.0,
                     d_p_shootout_cheatin=r["p_shootout_cheatin"] - b["p_shootout_cheatin"],
                     d_p_shootout_cheatin_stderr=0.0)
        else:
            n, h = self.q.trials, r["_hands"]
            d.update(d_p_shootout=(h[2] - h[3]) / n, d_p_shootout_stderr=_paired_se(h[2], h[3], n),
                     d_p_shootout_cheatin=(h[4] - h[5]) / n, d_p_shootout_cheatin_stderr=_paired_se(h[4], h[5], n))
        if self.fq is not None:
            n, f = self.q.full_trials, r["_full"]
            d.update(d_p_full_shootout_win=(f[1] - f[2]) / n, d_p_full_shootout_win_stderr=_paired_se(f[1], f[2], n))
        w = self.q.lowball_weight
        d["score"] = w * d["d_p_lowball_win"] + (1 - w) * d["d_p_shootout"]
        return d


def _cut(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def _se(hits: float, n: int) -> float:
    p = hits / n
    return math.sqrt(max(p * (1 - p), 0.0) / n)


def _paired_se(up: float, down: float, n: int) -> float:
    """Standard error of the mean of per-trial differences in {-1, 0, 1} (``up`` trials +1,
    ``down`` trials -1): the paired standard error on common random numbers."""
    mean = (up - down) / n
    var = max((up + down) / n - mean * mean, 0.0)
    return math.sqrt(var / n)


# --------------------------------------------------------------------------
# The analysis
# --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TuneResult:
    """Single swaps (``swaps``, one row per swap: :data:`SWAP_COLUMNS`), the indices of the
    Pareto frontier (``frontier``), the best sequences found (``sequences``: length, swaps, the
    same deltas), and what was asked."""

    deck: str
    opponent: str
    deck_state: str
    question: TuneQuestion
    search: TuneSearch
    swaps: pd.DataFrame
    frontier: tuple[int, ...]
    sequences: pd.DataFrame
    current: dict[str, float]
    seed: int
    exact: dict[str, bool]
    evaluated: int
    executor: str
    pool_size: int
    posse: bool = False

    def to_json(self) -> dict[str, Any]:
        """The issue 14 contract: deck, opponent, swaps (out, in, d_p_lowball_win, d_p_shootout,
        d_p_cheatin, with a posse d_p_full_shootout_win), shootout_measure, frontier (indices of
        swaps), sequences (swaps and the same deltas), stderr (every delta of every swap and
        sequence; 0 where exact), exact (which deltas are), trials (simulated hands per deck, 0
        when the hand figure is exact; with a posse also full_shootout_trials), seed; plus context."""
        names = self.delta_names
        swaps, stderr = [], []
        for r in self.swaps.to_dict("records"):
            swaps.append({"out": r["out"], "in": r["in"], "out_type": r["out_type"], "in_type": r["in_type"],
                          "out_card": r["out_card"], "in_card": r["in_card"],
                          **{k: float(r[k]) for k in names}, "score": float(r["score"])})
            stderr.append({k: float(r.get(k + "_stderr", 0.0)) for k in names})
        seqs = []
        for r in self.sequences.to_dict("records"):
            seqs.append({"length": int(r["length"]), "swaps": [{"out": o, "in": i} for o, i in r["swaps"]],
                         **{k: float(r[k]) for k in names}, "score": float(r["score"]),
                         "stderr": {k: float(r.get(k + "_stderr", 0.0)) for k in names}})
        return {
            "deck": self.deck, "opponent": self.opponent, "deck_state": self.deck_state,
            "shootout_measure": self.question.measure_text,
            "stud": self.question.stud, "draw": self.question.draw,
            "policy": self.question.policy, "discard": self.question.discard,
            "pool": self.search.pool, "pool_cards": self.pool_size, "any_type": self.search.any_type,
            "any_faction": self.search.any_faction,
            "current": {k: float(v) for k, v in self.current.items() if not k.startswith("_")},
            "swaps": swaps, "frontier": list(self.frontier),
            "search": {"method": "exhaustive" if self.search.exhaustive else ("greedy" if self.search.beam == 1
                                                                               else "beam"),
                       "beam": self.search.beam, "max_swaps": self.search.swaps,
                       "score": f"{self.question.lowball_weight:g} * d_p_lowball_win + "
                                f"{1 - self.question.lowball_weight:g} * d_p_shootout",
                       "decks_evaluated": self.evaluated},
            "sequences": seqs,
            "stderr": {"swaps": stderr, "sequences": [s["stderr"] for s in seqs]},
            "exact": dict(self.exact),
            "trials": 0 if self.exact["d_p_shootout"] else self.question.trials,
            **({"full_shootout_trials": self.question.full_trials} if self.posse else {}),
            "seed": int(self.seed),
            "executor": self.executor,
        }

    @property
    def delta_names(self) -> list[str]:
        names = ["d_p_lowball_win", "d_p_shootout", "d_p_cheatin", "d_p_shootout_cheatin"]
        return names + (["d_p_full_shootout_win"] if self.posse else [])

    def frontier_frame(self) -> pd.DataFrame:
        """The chart's data: every single swap (lowball gain, shootout gain, on the frontier or
        not, its label) and the current deck at (0, 0)."""
        df = self.swaps[["out", "in", "d_p_lowball_win", "d_p_shootout", "d_p_shootout_stderr", "frontier"]].copy()
        df["label"] = "-" + df["out"] + " +" + df["in"]
        return df


def pareto_frontier(x: np.ndarray, y: np.ndarray) -> list[int]:
    """Indices of the swaps on the Pareto frontier, sorted by ``x``: those that no other swap
    dominates (at least as good on both figures and better on one) and that gain on at least
    one figure (the current deck, at (0, 0), dominates the rest)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.size == 0:
        return []
    ge = (x[None, :] >= x[:, None]) & (y[None, :] >= y[:, None])
    gt = (x[None, :] > x[:, None]) | (y[None, :] > y[:, None])
    dominated = (ge & gt).any(axis=1) | ((x <= 0) & (y <= 0))
    keep = np.flatnonzero(~dominated)
    return sorted(keep.tolist(), key=lambda i: (x[i], -y[i], i))


def tune(deck: object, opponent: object, *, question: TuneQuestion = TuneQuestion(),
         search: TuneSearch = TuneSearch(), posse: object | None = None, vs_posse: object | None = None,
         seed: int | None = None, executor: Executor | None = None, card_table: CardTable | None = None
         ) -> TuneResult:
    """Score every legal single swap of ``deck`` against ``opponent``, the Pareto frontier of
    lowball gain against shootout gain, and the best sequences of up to ``search.swaps`` swaps
    (see the module docstring)."""
    q, search = question.checked(), search.checked()
    seed = resolve_seed(seed)
    st = start(deck, search, table=card_table)
    opp = resolve_deck(opponent)
    if not isinstance(opp, Deck):
        from oddsmith.doomtown.deck import deck_from_codes

        opp = deck_from_codes(np.asarray(opp), name="opponent", partial=True)
    opp = set_up(opp)
    fq = _full_question(st, opp, posse, vs_posse)
    ex = executor or InlineExecutor()
    ev = Evaluator(st, opp, q, seed, ex, fq)
    base = _State(st.base_cards)
    singles = moves(st, base, search)
    if not singles:
        raise OddsmithError(f"tune: no legal swap from the pool ({search.pool}): every pool card would break "
                            f"Deck Building (4 per suit and value, 4 per title) or change the card type "
                            f"(--any-type allows that)")
    children = [apply(base, o, n) for o, n in singles]
    ev.evaluate([_counts(st, c.cards) for c in children])
    rows = []
    for (o, n), child in zip(singles, children):
        d = ev.deltas(_counts(st, child.cards))
        rows.append({"out": o.label, "in": n.title, "out_type": o.type, "in_type": n.type,
                     "out_card": _card_text(o.code), "in_card": _card_text(n.code), **d})
    swaps = pd.DataFrame(rows)
    order = np.lexsort((swaps["in"].to_numpy(), swaps["out"].to_numpy(), -swaps["score"].to_numpy()))
    swaps = swaps.iloc[order].reset_index(drop=True)
    front = pareto_frontier(swaps["d_p_lowball_win"].to_numpy(), swaps["d_p_shootout"].to_numpy())
    swaps["frontier"] = False
    swaps.loc[front, "frontier"] = True
    for col in SWAP_COLUMNS:
        if col not in swaps:
            swaps[col] = np.nan
    swaps = swaps[list(SWAP_COLUMNS)]
    sequences = _search(st, ev, base, search, children)
    exact = {"d_p_lowball_win": True, "d_p_cheatin": True, "d_p_shootout": q.shootout_exact,
             "d_p_shootout_cheatin": q.shootout_exact}
    if fq is not None:
        exact["d_p_full_shootout_win"] = False
    return TuneResult(deck=st.deck.name, opponent=opp.name, deck_state=st.deck.deck_state, question=q,
                      search=search, swaps=swaps, frontier=tuple(front), sequences=sequences,
                      current=ev.base, seed=seed, exact=exact, evaluated=ev.evaluated, executor=ex.describe(),
                      pool_size=len(st.pool), posse=fq is not None)


def _card_text(code: int) -> str:
    from oddsmith.doomtown.cards import format_card

    return format_card(int(code))


def _full_question(st: _Start, opp: Deck, posse: object | None, vs_posse: object | None) -> FullQuestion | None:
    from oddsmith.doomtown.posse import resolve_posse

    if posse is None and vs_posse is None:
        return None
    if posse is None or vs_posse is None:
        raise OddsmithError("tune: --posse and --vs-posse go together (your posse and the opponent's)")
    from oddsmith.doomtown.full_shootout import cycle_codes

    pa, pb = resolve_posse(posse), resolve_posse(vs_posse)
    codes, removed_titles = cycle_codes(st.deck, pa)
    removed = []
    for title in removed_titles:
        hit = st.deck.cards[st.deck.cards["title"].map(lambda t: bool(t) and title_key(t) == title_key(title))]
        removed.append(int(hit["code"].iloc[0]))
    opp_codes, _ = cycle_codes(opp, pb)
    return FullQuestion(posse=pa, vs_posse=pb, opponent_codes=tuple(int(c) for c in opp_codes),
                        removed=tuple(removed))


def _search(st: _Start, ev: Evaluator, base: _State, search: TuneSearch,
            level1: list[_State]) -> pd.DataFrame:
    """Beam (or greedy, or exhaustive) search for the best sequences of up to ``search.swaps`` swaps.

    Level j expands every deck kept at level j - 1 by every legal swap (:func:`moves`); decks
    holding the same cards are one deck. The beam keeps the ``beam`` best by score (decks with
    the same card counts, which score the same, count once); exhaustive keeps them all. Each
    level reports its ``beam`` best."""
    rows = []
    level = level1
    for length in range(1, search.swaps + 1):
        if length > 1:
            children: dict[tuple, _State] = {}
            for s in level:
                for o, n in moves(st, s, search):
                    child = apply(s, o, n)
                    children.setdefault(child.cards, child)
            if not children:
                break
            ev.evaluate([_counts(st, c.cards) for c in children.values()])
            level = list(children.values())
        ranked = _best(st, ev, level)
        level = ranked if search.exhaustive else ranked[:search.beam]
        for s in ranked[:search.beam]:
            d = ev.deltas(_counts(st, s.cards))
            rows.append({"length": length, "swaps": tuple((o.label, n.title) for o, n in s.swaps), **d})
    cols = ["length", "swaps", "d_p_lowball_win", "d_p_shootout", "d_p_shootout_stderr", "d_p_cheatin",
            "d_p_shootout_cheatin", "d_p_shootout_cheatin_stderr", "d_p_full_shootout_win",
            "d_p_full_shootout_win_stderr", "score"]
    df = pd.DataFrame(rows)
    for c in cols:
        if c not in df:
            df[c] = np.nan
    return df[cols]


def _best(st: _Start, ev: Evaluator, states: list[_State]) -> list[_State]:
    """``states`` by score, best first (ties: by the swaps' labels, so the order is fixed), one
    deck per card counts (the same counts score the same)."""
    keyed = [(ev.deltas(_counts(st, s.cards))["score"], tuple((o.label, n.title) for o, n in s.swaps),
              _counts(st, s.cards).tobytes(), s) for s in states]
    keyed.sort(key=lambda t: (-t[0], t[1]))
    out, seen = [], set()
    for _, _, counts, s in keyed:
        if counts not in seen:
            seen.add(counts)
            out.append(s)
    return out
