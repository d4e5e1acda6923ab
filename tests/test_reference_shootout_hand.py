"""The plain-Python shootout hand step (tests/reference_shootout_hand.py) against the
compiled one (ext/shootout_hand.pxd through ext/shootout.pyx) on random hands from random
legal decks, and against the brute-force evaluator (tests/reference_doomtown.py)."""
from __future__ import annotations

import random

import numpy as np
import pytest

import reference_full_shootout as ref
import reference_shootout_hand as rh
from oddsmith._ext import shootout as one_round
from oddsmith.doomtown.deck import load_sample
from oddsmith.doomtown.full_shootout import FullSide, _setup, round_win_tables
from oddsmith.doomtown.posse import parse_posse
from reference_doomtown import JOKER, best_keys, random_legal_deck

MARGINS = (0, 1, 2, 3, rh.LEGAL)  # greedy, margin:1..3, legal
SIZES = (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
SIZE_WEIGHTS = (25, 20, 20, 12, 8, 4, 3, 2, 2, 2, 2)  # the big hands are slow in plain Python


def random_hands(seed: int, count: int):
    """(hand, draw bonus, margin) from random legal decks: duplicates, 0-2 jokers, some
    decks stacked with all 16 cards of one value (so made hands and their draws occur)."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    for _ in range(count):
        stacked = int(rng.integers(1, 14)) if rng.random() < 0.2 else None
        deck = random_legal_deck(rng, int(rng.integers(0, 3)), stacked_value=stacked)
        n = pick.choices(SIZES, SIZE_WEIGHTS)[0]
        hand = [int(c) for c in rng.permutation(deck)[:n]]
        yield hand, pick.randint(0, 5), pick.choice(MARGINS)


def check_heuristic(seed: int, count: int) -> None:
    for hand, draw, margin in random_hands(seed, count):
        mask, key, cheat = one_round.heuristic_discard(hand, draw, margin)
        positions, p_key, p_cheat = rh.heuristic_discard(hand, draw, margin)
        kernel = [i for i in range(len(hand)) if (mask >> i) & 1]
        assert (positions, p_key, p_cheat) == (kernel, key, cheat), (hand, draw, margin)
        assert len(positions) <= draw and all(hand[i] != JOKER for i in positions)


def check_hand_step(seed: int, count: int) -> None:
    """The whole step: discard, draw the replacements from the rest of the deck, keep five;
    and the Automaton's hand from the same cards."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    for _ in range(count):
        deck = [int(c) for c in rng.permutation(random_legal_deck(rng, int(rng.integers(0, 3))))]
        n, draw, margin = pick.randint(5, 10), pick.randint(0, 5), pick.choice(MARGINS)
        hand, rest = deck[:n], deck[n:]
        # the kernel's step, written with its test entry points
        mask, _, _ = one_round.heuristic_discard(hand, draw, margin)
        chosen = [i for i in range(n) if (mask >> i) & 1]
        final = list(hand)
        for i, card in zip(chosen, rest):
            final[i] = card
        keys, cheat = np.zeros(1, np.int64), np.zeros(1, np.uint8)
        one_round.kept_keys(np.array([final], np.uint8), n, margin, keys, cheat)
        # the port's
        mine, supply = list(hand), iter(rest)
        key = rh.draw_step(mine, draw, margin, lambda: next(supply), lambda card: None)
        assert (mine, key) == (final, int(keys[0])), (hand, draw, margin)
        assert rh.kept_key(final, margin) == (int(keys[0]), bool(cheat[0]))
        # the Automaton: 5 + stud drawn, the draw bonus revealed
        one_round.automaton_keys(np.array([deck[:n + draw]], np.uint8), n, draw, keys, cheat)
        assert rh.automaton_key(deck[:n], deck[n:n + draw]) == (int(keys[0]), bool(cheat[0])), (deck[:n + draw], n)


# A few hands in the quick loop, most in the slow set (CI checks 7,000 discards and 1,800 hand steps in all)
def test_heuristic_port_equals_kernel():
    check_heuristic(seed=1, count=1_500)


@pytest.mark.slow
def test_heuristic_port_equals_kernel_many():
    check_heuristic(seed=2, count=5_500)


def test_hand_step_and_automaton_port_equal_kernel():
    check_hand_step(seed=3, count=300)


@pytest.mark.slow
def test_hand_step_and_automaton_port_equal_kernel_many():
    check_hand_step(seed=4, count=1_500)


def test_port_evaluator_equals_brute_force():
    """best_keys (jokers trying only the identities that can matter) equals the brute force
    over every five and all 52 identities per joker, jokers and duplicates included."""
    rng = np.random.default_rng(5)
    hands = []
    for _ in range(400):
        deck = random_legal_deck(rng, 2, stacked_value=int(rng.integers(1, 14)) if rng.random() < 0.3 else None)
        hands.append([int(c) for c in rng.permutation(deck)[:int(rng.integers(5, 9))]])
    hands += [[JOKER, JOKER, 0, 3, 28], [JOKER, 0, 3, 28, 31], [JOKER, JOKER, 4, 4, 4]]
    brute = best_keys(hands)
    for i, hand in enumerate(hands):
        assert rh.best_keys(hand) == (int(brute.best[i]), int(brute.legal[i])), hand


def test_keep_policies():
    pair, flush = (2 << 20) | 0x55432, (6 << 20) | 0xD9753
    assert rh.keep(flush, pair, 0) == (flush, True)
    assert rh.keep(flush, pair, 4) == (flush, True)       # four ranks up: margin:4 cheats
    assert rh.keep(flush, pair, 5) == (pair, False)
    assert rh.keep(flush, pair, rh.LEGAL) == (pair, False)
    assert rh.keep(flush, 0, rh.LEGAL) == (flush, True)    # no legal five: forced to cheat
    assert rh.keep(pair, pair, 0) == (pair, False)


@pytest.mark.parametrize("hand, draw, margin, message", [
    ([0, 1, 2, 3], 1, 0, "5 to 15 cards"),
    (list(range(16)), 1, 0, "5 to 15 cards"),
    ([0, 1, 2, 3, 53], 1, 0, "card codes"),
    ([0, 1, JOKER, JOKER, JOKER], 1, 0, "at most 2 jokers"),
    ([0, 1, 2, 3, 4], -1, 0, "draw bonus"),
    ([0, 1, 2, 3, 4], 1, 50, "margin"),
])
def test_kernel_entry_point_validates(hand, draw, margin, message):
    with pytest.raises(ValueError, match=message):
        one_round.heuristic_discard(hand, draw, margin)


def test_reference_shootouts_same_with_either_hand_step():
    """The whole-shootout reference plays card for card the same shootouts whether its hand
    steps come from the port or from the kernel (same seed, same cards)."""
    law, outlaws = load_sample("law-dogs"), load_sample("outlaws")
    cases = [
        (FullSide(law, parse_posse("stud:2, draw:1, stud:1"), policy="legal"),
         FullSide(outlaws, parse_posse("draw:2, stud:1, draw:1"), automaton=True)),
        (FullSide(law, parse_posse("draw:3, stud:1"), policy="greedy", shooter="listed"),
         FullSide(outlaws, parse_posse("stud:2, draw:2"), policy="margin:2", flee="losses:1")),
    ]
    for a, b in cases:
        tables = round_win_tables(_setup(a.checked(), "A"), _setup(b.checked(), "B"), 0)
        python = ref.reference_shootouts(a, b, 150, 11, *tables, hands="python")
        kernel = ref.reference_shootouts(a, b, 150, 11, *tables, hands="kernel")
        assert python == kernel
    with pytest.raises(ValueError, match="hands"):
        ref.reference_shootouts(a, b, 1, 0, *tables, hands="numpy")
