"""The Doomtown rules model: encodings, tie-break key, limits, bonuses, casualties, lowball."""
import itertools
import random

import pytest

import reference_doomtown as ref
from oddsmith.rules import doomtown as dt
from oddsmith.rules.doomtown import (
    CASUALTY_TABLE, DECK_RULES, HAND_RANK_NAMES, TIE_BREAKS, BulletType, Card, CasualtyChoice, Gunslinger,
    HandRank, Suit,
)


def test_card_codes():
    assert [Card(1, s).code for s in Suit] == [0, 1, 2, 3]
    assert Card(13, Suit.CLUBS).code == 51 and dt.JOKER_CODE == 52
    for code in range(52):
        assert Card.from_code(code).code == code
    assert str(Card(10, Suit.HEARTS)) == "10♥" and dt.Value(1).label == "A"
    with pytest.raises(ValueError):
        Card(14, Suit.SPADES)
    assert dt.from_code(52) is dt.JOKER and dt.JOKER.is_joker


def test_hand_ranks_and_names():
    assert [r.value for r in HandRank] == list(range(1, 12))
    assert HandRank.DEAD_MANS_HAND.book_name == "Dead Man's Hand"
    assert set(HAND_RANK_NAMES) == set(HandRank) == set(TIE_BREAKS)
    assert {c.code for c in dt.DEAD_MANS_HAND} == {0, 3, 28, 31, 42}


def test_rules_key_agrees_with_reference_on_random_fives():
    rng = random.Random(1)
    for _ in range(5000):
        codes = [rng.randrange(52) for _ in range(5)]
        cards = [Card.from_code(c) for c in codes]
        assert dt.key_of_five(cards) == ref.key_of_identities(tuple(sorted(codes)))
        assert dt.is_cheatin(cards) == (not ref.is_legal(codes))


def test_key_layout_round_trip():
    key = dt.hand_key(HandRank.FULL_HOUSE, [7, 7, 7, 9, 9])
    assert dt.key_rank(key) == HandRank.FULL_HOUSE and dt.key_fields(key) == (7, 7, 7, 9, 9)
    assert dt.key_as_list(key) == [7, 7, 7, 7, 9, 9]
    # tie-break values: full house trips first; flush from the top
    assert dt.tie_break_values(HandRank.FULL_HOUSE, [9, 7, 9, 7, 7]) == (7, 7, 7, 9, 9)
    assert dt.tie_break_values(HandRank.FLUSH, [9, 13, 9, 5, 2]) == (13, 9, 9, 5, 2)


def test_jokers_never_make_cheatin():
    assert not dt.is_cheatin([Card(6, 0), Card(6, 1), Card(6, 2), Card(6, 3), dt.Joker(Card(6, 0))])
    assert dt.is_cheatin([Card(6, 0), Card(6, 0), Card(6, 2), Card(6, 3), dt.JOKER])


def test_limits_and_modified_ranks():
    assert dt.clamp_value(0) == 1 and dt.clamp_value(15) == 13
    assert dt.clamp_hand_rank(-3) == HandRank.HIGH_CARD and dt.clamp_hand_rank(14) == HandRank.DEAD_MANS_HAND
    assert dt.modified_rank(10, 3) == HandRank.DEAD_MANS_HAND
    assert dt.clamp_number(-2) == 0
    # a modified rank is the worst hand of that rank: below every real key of the rank in a
    # shootout, above every real key of the rank in lowball; two modified hands tie
    worst_shootout = dt.modified_hand_key(HandRank.FLUSH)
    worst_lowball = dt.modified_hand_key(HandRank.FLUSH, lowball=True)
    lowest_real = dt.hand_key(HandRank.FLUSH, [6, 4, 3, 2, 1])
    highest_real = dt.hand_key(HandRank.FLUSH, [13, 12, 11, 10, 8])
    assert dt.hand_key(HandRank.STRAIGHT, [13, 12, 11, 10, 9]) < worst_shootout < lowest_real
    assert highest_real < worst_lowball < dt.hand_key(HandRank.FULL_HOUSE, [1, 1, 1, 2, 2])
    assert dt.modified_hand_key(20) == dt.modified_hand_key(11)


def test_deck_rules():
    assert (DECK_RULES.valued_cards, DECK_RULES.max_per_suit_and_value, DECK_RULES.max_per_title,
            DECK_RULES.max_jokers, DECK_RULES.outfits) == (52, 4, 4, 2, 1)
    assert DECK_RULES.max_deck_size == 54


def test_stud_and_draw_bonus_book_examples():
    baker, allie, ike = Gunslinger(2, BulletType.STUD), Gunslinger(2, "draw"), Gunslinger(0, "draw")
    b = dt.posse_bonus(baker, [allie, ike])  # Example 1
    assert (b.stud, b.draw) == (2, 2) and b.cards_drawn == 7
    miranda, andreas = Gunslinger(0, "stud"), Gunslinger(0, "stud")
    assert dt.posse_bonus(miranda, [andreas, allie]) == dt.PosseBonus(1, 1)  # Example 2
    assert dt.posse_bonus(allie, [miranda, andreas]) == dt.PosseBonus(2, 2)


def test_round_result_and_casualties():
    full_house = dt.hand_key(HandRank.FULL_HOUSE, [7, 7, 7, 9, 9])
    pair = dt.hand_key(HandRank.PAIR, [5, 5, 9, 4, 2])
    assert dt.shootout_round(full_house, pair) == dt.RoundResult(0, (0, 5))
    assert dt.shootout_round(pair, full_house) == dt.RoundResult(1, (5, 0))
    other_fh = dt.hand_key(HandRank.FULL_HOUSE, [7, 7, 7, 8, 8])
    assert dt.shootout_round(full_house, other_fh) == dt.RoundResult(0, (1, 1))  # tie-break decided, 1 each
    assert dt.shootout_round(pair, pair) == dt.RoundResult(None, (1, 1))


def test_casualty_table():
    assert CASUALTY_TABLE[CasualtyChoice.ACE_DUDE] == 2 and CASUALTY_TABLE[CasualtyChoice.ACE_HARROWED] == 3
    assert CASUALTY_TABLE[CasualtyChoice.HARROWED_HOME_BOOTED] == 1
    assert dt.casualty_capacity(dudes=2) == 4
    # 4 casualties, 2 dudes: must ace both (Rulebook "9. Take Your Lumps")
    dt.check_cover(4, [CasualtyChoice.ACE_DUDE, CasualtyChoice.ACE_DUDE], dt.casualty_capacity(2))
    with pytest.raises(ValueError, match="must cover 4"):
        dt.check_cover(4, [CasualtyChoice.DISCARD_DUDE, CasualtyChoice.DISCARD_DUDE], dt.casualty_capacity(2))
    # cannot suffer excess casualties: acing a dude for 1 casualty is not allowed
    with pytest.raises(ValueError, match="only 1"):
        dt.check_cover(1, [CasualtyChoice.ACE_DUDE], dt.casualty_capacity(1))
    dt.check_cover(3, [CasualtyChoice.ACE_HARROWED], dt.casualty_capacity(0, harrowed=1))


def test_pulls_skill_and_kung_fu():
    assert dt.skill_test_succeeds(5, 2, 7) and not dt.skill_test_succeeds(4, 2, 7)
    assert dt.skill_test_succeeds(dt.PULL_JOKER_VALUE_SKILL, 0, 13)
    emre = dt.kung_fu_dude_value(6, 1)  # Kung Fu Combo Example: Emre is value 7
    assert emre == 7 and dt.kung_fu_test_succeeds(6, emre) and not dt.kung_fu_test_succeeds(8, emre)
    assert dt.kung_fu_dude_value(12, 4) == 13


def test_gamblin_payouts():
    assert dt.gamblin_payouts(2) == (2, 0)
    assert dt.gamblin_payouts(4) == (2, 1, 0, 0)
    with pytest.raises(ValueError):
        dt.gamblin_payouts(1)


def test_sequence_data():
    assert [p.name for p in dt.PHASES] == ["Gamblin'", "Production", "Upkeep", "High Noon", "Sundown", "Nightfall"]
    assert [s.number for s in dt.SHOOTOUT_STEPS] == list(range(1, 12))
    assert dt.SHOOTOUT_STEPS[3].name == "Draw!"


def test_every_value_multiset_orders_like_the_reference():
    # rank_of_five / tie_break_values in the rules model against the reference on all
    # value multisets (mixed suits), so the two encodings of the book agree everywhere
    for values in itertools.combinations_with_replacement(range(1, 14), 5):
        cards = [Card(v, 0 if i == 0 else 1) for i, v in enumerate(values)]
        assert dt.key_of_five(cards) == ref.key_of_cards([(c.value, int(c.suit)) for c in cards])
