"""The Cython hand evaluator against the brute-force reference and the rulebook's examples."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import reference_doomtown as ref
from oddsmith.doomtown.cards import format_card, parse_hand
from oddsmith.doomtown.evaluator import (
    evaluate_codes, evaluate_keys, evaluate_packed, pack_hands, sample_rank_counts,
)
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import HandRank, key_as_list


def random_hands(seed: int, count: int, sizes=range(5, 13)) -> list[list[int]]:
    """Hands drawn from random legal decks (four hands per deck): 0, 1 or 2 jokers, every
    fifth deck holding all 16 cards of one value, hand sizes spread over ``sizes``."""
    rng = np.random.default_rng(seed)
    sizes = list(sizes)
    hands = []
    for t in range(count):
        if t % 4 == 0:  # a new deck every four hands
            d = t // 4
            stacked = int(rng.integers(1, 14)) if d % 5 == 0 else None
            deck = ref.random_legal_deck(rng, jokers=d % 3, stacked_value=stacked)
        n = sizes[t % len(sizes)]
        hands.append(rng.choice(deck, n, replace=False).tolist())
    return hands


def check_against_reference(hands: list[list[int]], check_fives: int | None = None) -> None:
    expected = ref.best_keys(hands)
    cards, lengths = pack_hands(hands)
    for lowball, best, legal in ((False, expected.best, expected.legal), (True, expected.low_best, expected.low_legal)):
        key, legal_key = evaluate_keys(cards, lengths, lowball=lowball)
        ev = evaluate_packed(cards, lengths, lowball=lowball)
        bad = np.nonzero((key != best) | (legal_key != legal) | (ev.key != best) | (ev.legal_key != legal))[0]
        assert not len(bad), [(hands[i], lowball, hex(best[i]), hex(key[i]), hex(legal[i]), hex(legal_key[i])) for i in bad[:5]]
        # ranks, legality and the cheatin' flag follow from the keys
        assert (ev.rank == best >> 20).all()
        assert (ev.has_legal == (legal != 0)).all()
        assert (ev.cheatin == (best != legal)).all()
        n = len(hands) if check_fives is None else check_fives
        check_kept_fives(hands[:n], ev)


def check_kept_fives(hands: list[list[int]], ev) -> None:
    """The five cards reported are in the hand, make the reported key, and are legal iff claimed."""
    for i, hand in enumerate(hands):
        for five, ident, kept, key, legal_only in (
            (ev.five[i], ev.ident[i], ev.kept[i], ev.key[i], False),
            (ev.legal_five[i], ev.legal_ident[i], ev.legal_kept[i], ev.legal_key[i], True),
        ):
            if key == 0:
                assert legal_only
                continue
            positions = [p for p in range(len(hand)) if (int(kept) >> p) & 1]
            assert len(positions) == 5
            assert sorted(hand[p] for p in positions) == sorted(five.tolist())
            for held, counted in zip(five.tolist(), ident.tolist()):
                assert counted < 52 and (held == ref.JOKER or held == counted)
            assert ref.key_of_identities(tuple(sorted(ident.tolist()))) == key, (hand, five, ident)
            assert ref.is_legal(five.tolist()) == (legal_only or not ev.cheatin[i])


def test_kernel_matches_reference_sample():
    check_against_reference(random_hands(seed=2024, count=4000))


def test_kernel_matches_reference_large_hands_and_jokers():
    # hands of 10-15 cards from two-joker decks stress the joker and duplicate paths
    rng = np.random.default_rng(99)
    hands = []
    for t in range(120):
        deck = ref.random_legal_deck(rng, jokers=2, stacked_value=int(rng.integers(1, 14)) if t % 2 else None)
        hand = rng.choice(deck[:-2], int(rng.integers(8, 12)), replace=False).tolist()
        hands.append(hand + [52] * (1 + t % 2))
    check_against_reference(hands)


@pytest.mark.slow
def test_kernel_matches_reference_30k():
    # every key of 30,000 hands in both modes (exact equality, so the count buys coverage, not precision); the
    # five cards kept on the first 10,000
    check_against_reference(random_hands(seed=7, count=30_000), check_fives=10_000)


def test_five_card_path_matches_reference():
    from oddsmith._ext import hand_eval

    hands = random_hands(seed=5, count=4000, sizes=[5])
    cards = np.array(hands, dtype=np.uint8)
    expected = ref.best_keys(hands)
    for lowball, best in ((False, expected.best), (True, expected.low_best)):
        key = np.zeros(len(hands), np.int64)
        cheat = np.zeros(len(hands), np.uint8)
        hand_eval.evaluate_five(cards, lowball, key, cheat)
        assert (key == best).all()
        assert (cheat.astype(bool) == np.array([not ref.is_legal(h) for h in hands])).all()


def test_every_two_joker_five_card_hand_family():
    # three valued cards + two jokers, exhaustively over a spread of patterns, both modes
    rng = np.random.default_rng(3)
    triples = [list(t) for t in itertools.combinations(range(0, 52, 3), 3)][:300]
    triples += [[c, c, d] for c, d in rng.integers(0, 52, size=(60, 2)).tolist()]
    hands = [t + [52, 52] for t in triples]
    check_against_reference(hands)


def result(text: str, lowball: bool = False):
    hand = parse_hand(text)
    ev = evaluate_codes([hand], lowball=lowball)
    return int(ev.key[0]), bool(ev.cheatin[0]), int(ev.legal_key[0]), ev


def key(text: str, lowball: bool = False) -> int:
    return result(text, lowball)[0]


def rank(text: str, lowball: bool = False) -> HandRank:
    return HandRank(key(text, lowball) >> 20)


# --- the rulebook's own examples ------------------------------------------


def test_comparison_example_1_three_of_a_kind_kicker():
    # Player A's 10 beats Player B's 8
    a, b = key("6D 6C 6S 9S 10D"), key("6H 6C 6D 4S 8D")
    assert rank("6D 6C 6S 9S 10D") == rank("6H 6C 6D 4S 8D") == HandRank.THREE_OF_A_KIND
    assert a > b


def test_comparison_example_2_full_house_compares_trips_then_pair():
    assert key("7D 7C 7S 9S 9D") > key("7H 7C 7D 8S 8D")
    assert rank("7D 7C 7S 9S 9D") == HandRank.FULL_HOUSE
    # docs/rules-doomtown.md, 'Hands': 2-2-2-K-K loses to 3-3-3-Q-Q (trips first, not the higher value)
    assert key("2S 2H 2D KS KH") < key("3S 3H 3D QS QH")


def test_comparison_example_3_flush_highest_card():
    assert key("2C 4C 7C 10C JC") < key("6D 8D 10D JD KD")
    assert rank("2C 4C 7C 10C JC") == HandRank.FLUSH


def test_cheatin_four_of_a_kind_example():
    k, cheat, legal, _ = result("6D 6C 6S 6H QD")
    assert HandRank(k >> 20) == HandRank.FOUR_OF_A_KIND and not cheat and legal == k
    k, cheat, legal, _ = result("6D 6C 6S 6S QD")
    assert HandRank(k >> 20) == HandRank.FOUR_OF_A_KIND and cheat
    assert legal == 0  # five cards with a duplicate: no legal five exists


def test_aces_low_straights():
    assert rank("AS 2C 3H 4D 5S") == HandRank.STRAIGHT
    assert key_as_list(key("AS 2C 3H 4D 5S")) == [5, 5, 4, 3, 2, 1]
    # 10-J-Q-K-A is just a king high hand
    assert key_as_list(key("10C JC QH KD AH")) == [1, 13, 12, 11, 10, 1]


def test_dead_mans_hand_with_and_without_joker():
    assert rank("AS AC 8S 8C JD") == HandRank.DEAD_MANS_HAND
    assert rank("AS AC 8S 8C JK") == HandRank.DEAD_MANS_HAND
    assert rank("AS 8S 8C JD Joker") == HandRank.DEAD_MANS_HAND
    assert rank("AS AH 8S 8C JD") == HandRank.TWO_PAIR  # exactly those five cards, no others
    _, cheat, _, ev = result("AS AC 8S 8C Joker")
    assert not cheat and "J♦" in [format_card(c) for c in ev.ident[0]]
    # Dead Man's Hand ties Dead Man's Hand
    assert key("AS AC 8S 8C JD") == key("AS AC 8S 8C Joker 2H KD")


def test_legal_four_of_a_kind_plus_joker_is_legal_five_of_a_kind():
    k, cheat, legal, _ = result("6D 6C 6S 6H Joker")
    assert HandRank(k >> 20) == HandRank.FIVE_OF_A_KIND and not cheat and legal == k
    # a cheatin' four of a kind stays cheatin' with the joker
    k, cheat, legal, _ = result("6D 6C 6S 6S Joker")
    assert HandRank(k >> 20) == HandRank.FIVE_OF_A_KIND and cheat and legal == 0
    # a natural five of a kind is always cheatin'
    assert result("AS AH AD AC AH")[1]


def test_hand_rank_examples_from_the_books():
    examples = {
        "AC 3D 7S JC KS": HandRank.HIGH_CARD,
        "AC AD 7S JC KS": HandRank.PAIR,
        "AC AD KS KC 8S": HandRank.TWO_PAIR,
        "AC AD AS 10C KS": HandRank.THREE_OF_A_KIND,
        "AC 2D 3S 4D 5D": HandRank.STRAIGHT,
        "AS 5S 7S 8S 10S": HandRank.FLUSH,
        "JS JC JD 3H 3C": HandRank.FULL_HOUSE,
        "KS KC KD KH 2D": HandRank.FOUR_OF_A_KIND,
        "8C 7C 6C 5C 4C": HandRank.STRAIGHT_FLUSH,
        "AS AH AD AC AH": HandRank.FIVE_OF_A_KIND,
        "QS JD 10C 9C 8C": HandRank.STRAIGHT,
        "10S 8S 7S 6S 4S": HandRank.FLUSH,
        "5C 5D 5S 2C 3H": HandRank.THREE_OF_A_KIND,
        "QD QC AC AH KS": HandRank.TWO_PAIR,
        "KC 10S 7C 3H AD": HandRank.HIGH_CARD,
    }
    for text, expected in examples.items():
        assert rank(text) == expected, text


def test_joker_in_a_flush_counts_as_a_king():
    assert key_as_list(key("2S 5S 9S JS Joker")) == [6, 13, 11, 9, 5, 2]


def test_duplicates_allow_a_flush_beside_pairs():
    # K♠ K♠ 9♠ 5♠ 2♠: a (cheatin') flush beats the pair it also holds
    k, cheat, legal, _ = result("KS KS 9S 5S 2S")
    assert key_as_list(k) == [6, 13, 13, 9, 5, 2] and cheat and legal == 0


def test_best_of_seven_prefers_legal_when_it_ties():
    # the best five (trip kings) can be made without the duplicate K♠
    k, cheat, legal, ev = result("KS KS KH KD 2C 3C 9H")
    assert HandRank(k >> 20) == HandRank.FOUR_OF_A_KIND and cheat
    assert HandRank(legal >> 20) == HandRank.THREE_OF_A_KIND
    # the hand holds a duplicate Q♠, but the best five (four kings, queen kicker) needs only one
    k, cheat, legal, ev = result("QS QS KH KD KC KS 2C")
    assert not cheat and k == legal and key_as_list(k) == [8, 13, 13, 13, 13, 12]
    assert ref.is_legal(ev.five[0].tolist())


# --- lowball -----------------------------------------------------------------


def test_lowball_joker_takes_the_lowest_identity():
    # docs/rules-doomtown.md, 'Jokers': A-2-3-4 + joker is 6-4-3-2-A (a 5 would make a straight)
    assert key_as_list(key("AS 2C 3H 4D Joker", lowball=True)) == [1, 6, 4, 3, 2, 1]
    assert key_as_list(key("AS 2C 3H 4D Joker")) == [5, 5, 4, 3, 2, 1]  # shootout: the straight
    # with a pair the joker takes the lowest value not held: only a kicker
    assert key_as_list(key("KS KC QH JD Joker", lowball=True)) == [2, 13, 13, 12, 11, 1]


def test_lowball_is_the_reverse_order():
    low = key("2C 3D 4H 6S 7C", lowball=True)
    assert low < key("2C 3D 4H 6S 8C", lowball=True) < key("2C 2D 4H 6S 8C", lowball=True)


def test_lowball_best_of_seven_avoids_the_straight_and_flush():
    k, _, _, ev = result("AS 2S 3S 4S 5S 7H 9D", lowball=True)
    assert key_as_list(k) == [1, 7, 4, 3, 2, 1]


# --- inputs and sampling -------------------------------------------------------


@pytest.mark.parametrize(
    "hand, message",
    [
        ([1, 2, 3, 4], "4 cards"),
        (list(range(16)), "16 cards"),
        ([52, 52, 52, 1, 2], "3 jokers"),
        ([1, 2, 3, 4, 53], "card code 53"),
        ([1, 2, 3, 4, -1], "card code -1"),
    ],
)
def test_wrapper_rejects_bad_hands(hand, message):
    with pytest.raises(OddsmithError, match=message):
        evaluate_codes([[0, 1, 2, 3, 4], hand])


def test_wrapper_checks_packed_arrays():
    cards = np.array([[0, 1, 2, 3, 4, 52, 52, 52]], dtype=np.int64)
    with pytest.raises(OddsmithError, match="3 jokers"):
        evaluate_keys(cards, np.array([8]))
    key, legal = evaluate_keys(cards, np.array([7]))  # the third joker is padding
    assert key[0] >> 20 == HandRank.FIVE_OF_A_KIND  # A♠ A♥ A♦ A♣ + jokers


def test_sampled_rank_distribution_matches_exact_enumeration():
    # small deck so every hand can be enumerated: its exact distribution by the reference
    deck = [0, 0, 1, 2, 28, 28, 29, 51, 47, 43, 52, 52]
    hands = [list(h) for h in itertools.combinations(deck, 7)]
    exact = ref.best_keys(hands)
    n = 200_000
    df = sample_rank_counts(deck, 7, n, seed=12)
    p_best = np.bincount(exact.best >> 20, minlength=12) / len(hands)
    p_legal = np.bincount(exact.legal >> 20, minlength=12) / len(hands)
    se_best = np.sqrt(p_best * (1 - p_best) / n)
    se_legal = np.sqrt(p_legal * (1 - p_legal) / n)
    assert (np.abs(df["p_best"].to_numpy() - p_best) <= 4.5 * se_best + 1e-12).all()
    assert (np.abs(df["p_legal"].to_numpy() - p_legal) <= 4.5 * se_legal + 1e-12).all()
    assert df["p_best"].sum() == pytest.approx(1.0)
    # same seed, same numbers
    assert df.equals(sample_rank_counts(deck, 7, n, seed=12))
