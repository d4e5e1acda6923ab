"""Plain-Python shootout hand step (tests only; slow, to be read against the rules).

The five-card steps of a shootout hand (Rulebook "Shootout Sequence", step 4 "Draw!";
"Cheatin'"; "Automaton Variant", "Shootout Hands"; docs/rules-doomtown.md, 'Shootouts'),
written again in plain Python from the rules and from the documented discard heuristic, so
the whole-shootout reference (tests/reference_full_shootout.py, ``hands="python"``) checks
the compiled hand logic of ext/shootout_hand.pxd instead of calling it:

* :func:`best_keys`: best hand and best legal hand of any number of cards, by brute force
  over every five-card subset on tests/reference_doomtown.py's book evaluator;
* :func:`keep`: the hand-keeping policy (``legal``, ``greedy``, ``margin:K``);
* :func:`heuristic_discard`: which cards the discard heuristic throws away;
* :func:`draw_step`: discard, draw the replacements, keep five;
* :func:`automaton_key`: the Automaton's hand rule.

Cards are codes ``(value - 1) * 4 + suit`` (suits spades, hearts, diamonds, clubs = 0..3),
52 a joker; keys are those of oddsmith.rules.doomtown (rank << 20, then five 4-bit values).
"""
from __future__ import annotations

import functools
import itertools
from typing import Callable, Sequence

from reference_doomtown import (
    DEAD_MANS_HAND_CODES,
    FLUSH,
    FOUR_OF_A_KIND,
    FIVE_OF_A_KIND,
    FULL_HOUSE,
    JOKER,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    DEAD_MANS_HAND_RANK,
    is_legal,
    key_of_cards,
    suit_of,
    value_of,
)

LEGAL = 99
"""The ``legal`` hand-keeping policy as a margin (never cheat by choice)."""


# --- Hand ranks ---------------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)
def _key_of_identities(idents: tuple[int, ...]) -> int:
    return key_of_cards([(value_of(c), suit_of(c)) for c in idents])


def five_key(five: Sequence[int]) -> int:
    """Key of five cards, each joker taking the identity that makes the hand best
    (Rulebook "Jokers").

    A five's key depends only on its values, on whether all five share a suit, and on
    whether it is exactly Dead Man's Hand; for the same values, sharing a suit never
    lowers it (flush beats every rank below it, straight flush beats straight, the other
    ranks ignore suits). So a joker need only try each value in the suit of the first
    valued card, or one of the Dead Man's Hand cards: the best of those is the best of
    all 52 identities (tests/test_reference_shootout_hand.py checks it on random hands)."""
    valued = [c for c in five if c != JOKER]
    jokers = len(five) - len(valued)
    if not jokers:
        return _key_of_identities(tuple(sorted(valued)))
    suit = suit_of(valued[0])
    candidates = sorted({(v - 1) * 4 + suit for v in range(1, 14)} | set(DEAD_MANS_HAND_CODES))
    return max(_key_of_identities(tuple(sorted(valued + list(extra))))
               for extra in itertools.combinations_with_replacement(candidates, jokers))


def best_keys(cards: Sequence[int]) -> tuple[int, int]:
    """(best key, best legal key) over every five of ``cards``; the legal key is 0 when no
    five of pairwise different cards exists (Rulebook "Cheatin'": jokers never cheat)."""
    best = legal = 0
    for five in set(itertools.combinations(sorted(cards), 5)):
        k = five_key(five)
        best = max(best, k)
        if is_legal(five):
            legal = max(legal, k)
    return best, legal


def rank_of(key: int) -> int:
    return key >> 20


def keep(best: int, legal: int, margin: int) -> tuple[int, bool]:
    """The five the hand-keeping policy keeps: (key, cheatin').

    ``margin`` 0 (greedy): the best hand, cheatin' whenever it beats the best legal one;
    ``margin`` K: cheat only when the best hand is K ranks or more above the best legal
    one; ``LEGAL``: never by choice. With no legal five at all the player must cheat."""
    if legal == 0:
        return best, True
    if margin == 0:
        return (best, True) if best > legal else (legal, False)
    if rank_of(best) - rank_of(legal) >= margin:
        return best, True
    return legal, False


def kept_key(cards: Sequence[int], margin: int) -> tuple[int, bool]:
    return keep(*best_keys(cards), margin)


# --- The discard heuristic ----------------------------------------------------------


def heuristic_discard(hand: Sequence[int], max_discard: int, margin: int) -> tuple[list[int], int, bool]:
    """Positions of ``hand`` the discard heuristic throws away (at most ``max_discard``),
    with the kept key and cheatin' flag of the hand as dealt.

    The rule (docs/rules-doomtown.md, 'Shootouts', "Which cards to discard"):

    1. Keep the structure of the hand the policy keeps now: a straight, flush, straight
       flush or Dead Man's Hand whole; the groups of the other ranks; the jokers. A pair
       made by a joker is no structure.
    2. Up to a straight, also keep four cards to a flush (jokers count); up to three of a
       kind with no flush draw, four cards to a straight; beside two pair, a third pair.
    3. When that leaves nothing to draw to: a pair is kept alone; two pair keep the flush
       draw and the pair that shares a card with it.
    4. Discard the rest, up to the draw bonus: second copies of a card first when the hand
       is played legal, then cards in no draw, then straight-draw cards, then a third
       pair; lowest values first within each (then the earlier position first).

    "The first card of a value" below means the one at the lowest position; the second
    copy of a card is any later position holding the same suit and value.
    """
    n = len(hand)
    positions = range(n)
    jokers = {i for i in positions if hand[i] == JOKER}
    valued = [i for i in positions if hand[i] != JOKER]
    second_copies = {i for i in valued if hand[i] in list(hand[:i])}
    best, legal_best = best_keys(hand)
    kept, cheatin = keep(best, legal_best, margin)
    if max_discard <= 0:
        return [], kept, cheatin

    def value(i: int) -> int:
        return value_of(hand[i])

    def suit(i: int) -> int:
        return suit_of(hand[i])

    # A hand played legal (or a legal player forced to cheat, who still aims at a legal
    # hand) counts each card once and never keeps a second copy.
    legal = not cheatin or margin == LEGAL
    counted = [i for i in valued if not (legal and i in second_copies)]
    allowed = set(counted)

    def first_of(values: set[int], pool: Callable[[int], bool]) -> set[int]:
        """For each value, the first position of that value passing ``pool``."""
        out = set()
        for v in values:
            found = [i for i in valued if value(i) == v and pool(i)]
            if found:
                out.add(found[0])
        return out

    def of_values(values: set[int]) -> set[int]:
        return {i for i in allowed if value(i) in values}

    def suit_count(s: int) -> int:
        return sum(1 for i in counted if suit(i) == s)

    def suit_values(s: int) -> set[int]:
        return {value(i) for i in valued if suit(i) == s}

    rank = rank_of(kept)
    fields = [(kept >> (16 - 4 * k)) & 15 for k in range(5)]

    # 1. the made hand
    group: set[int] = set()
    if (rank == PAIR and not jokers) or rank in (THREE_OF_A_KIND, FOUR_OF_A_KIND, FIVE_OF_A_KIND):
        group = {fields[0]}
    elif rank == TWO_PAIR:
        group = {fields[0], fields[2]}
    elif rank == FULL_HOUSE:
        group = {fields[0], fields[3]}
    made = set(jokers) | of_values(group)
    if rank == STRAIGHT:
        made |= first_of(set(range(fields[0] - 4, fields[0] + 1)), lambda i: i in allowed)
    elif rank == FLUSH:
        # every card of the first suit (spades, hearts, diamonds, clubs) holding a flush
        for s in range(4):
            if suit_count(s) + len(jokers) >= 5:
                made |= {i for i in allowed if suit(i) == s}
                break
    elif rank == STRAIGHT_FLUSH:
        window = set(range(fields[0] - 4, fields[0] + 1))
        for s in range(4):
            if suit_count(s) + len(jokers) >= 5 and len(suit_values(s) & window) + len(jokers) >= 5:
                made |= first_of(window, lambda i: suit(i) == s)
                break
    elif rank == DEAD_MANS_HAND_RANK:
        # the first copy of each of its cards held (jokers stand in for the others)
        made |= {list(hand).index(c) for c in DEAD_MANS_HAND_CODES if c in hand}

    # 2. the draws
    draw_flush: set[int] = set()
    if rank <= STRAIGHT:
        # four to a flush: the suit with the most cards, then the highest cards
        fours = [s for s in range(4) if suit_count(s) + len(jokers) == 4]
        if fours:
            top = max(fours, key=lambda s: (suit_count(s), sorted(suit_values(s), reverse=True)))
            draw_flush = {i for i in allowed if suit(i) == top}
    draw_straight: set[int] = set()
    if rank <= THREE_OF_A_KIND and not draw_flush and len(jokers) < 2:
        # every window of five values (the lowest 1..9: aces are low) holding four, the
        # jokers filling in, gives one card of each of its values
        held = {value(i) for i in valued}
        drawn_to: set[int] = set()
        for low in range(1, 10):
            window = set(range(low, low + 5))
            if len(window & held) + len(jokers) >= 4:
                drawn_to |= window & held
        draw_straight = first_of(drawn_to, lambda i: i in allowed)
    third_pairs: set[int] = set()
    if rank == TWO_PAIR:
        counts = {v: sum(1 for i in counted if value(i) == v) for v in range(1, 14)}
        third_pairs = of_values({v for v, c in counts.items() if c >= 2} - group)

    # 3. the flush draw is kept whole, unless that leaves nothing to draw to
    protect = made | draw_flush
    if len(protect) == n and protect != made:
        if rank <= PAIR:
            protect = made
        elif rank == TWO_PAIR:
            protect = set(jokers) | draw_flush
            for v in group:
                if any(value(i) == v for i in draw_flush):
                    protect |= of_values({v})

    # 4. discard the rest, in order
    free = set(positions) - protect
    out: list[int] = []

    def take_lowest(candidates: set[int]) -> None:
        for i in sorted(candidates - set(out), key=lambda i: (value(i), i)):
            if len(out) < max_discard:
                out.append(i)

    if legal:
        take_lowest(free & second_copies)
    take_lowest(free - draw_straight - third_pairs)
    take_lowest((free & draw_straight) - third_pairs)
    take_lowest(free)
    return sorted(out), kept, cheatin


def draw_step(hand: list[int], draw: int, margin: int, draw_card: Callable[[], int],
              discard: Callable[[int], None]) -> int:
    """Rulebook "4. Draw!" after the 5 + stud cards are in ``hand``: discard what the
    heuristic throws away (to the discard pile first, so a reshuffle may bring them back),
    draw as many, keep five. Returns the kept key; ``hand`` holds the final cards."""
    if draw <= 0:
        return kept_key(hand, margin)[0]
    chosen, key, _ = heuristic_discard(hand, draw, margin)
    if not chosen:
        return key
    for i in chosen:
        discard(hand[i])
    for i in chosen:
        hand[i] = draw_card()
    return kept_key(hand, margin)[0]


# --- The Automaton --------------------------------------------------------------------


def automaton_key(drawn: Sequence[int], revealed: Sequence[int]) -> tuple[int, bool]:
    """Rulebook "Automaton Variant", "Shootout Hands": the hand of the highest possible
    rank made from the cards drawn (5 + stud) and at most one revealed card; of that rank,
    one that is not cheatin' when possible (the best such), else the best cheatin' one.

    "If the same hand can be made with and without jokers, use the one without jokers"
    picks cards, not the key: the same hand has the same key, so it changes nothing here.
    Returns (key, cheatin')."""
    fives = set(itertools.combinations(sorted(drawn), 5))
    for card in revealed:
        fives |= set(itertools.combinations(sorted([*drawn, card]), 5))
    keyed = [(five_key(five), is_legal(five)) for five in fives]
    top = max(rank_of(k) for k, _ in keyed)
    legal = [k for k, ok in keyed if ok and rank_of(k) == top]
    if legal:
        return max(legal), False
    return max(k for k, _ in keyed if rank_of(k) == top), True
