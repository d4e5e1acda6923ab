"""Card and hand parsing and formatting."""
import pytest

from oddsmith.doomtown.cards import format_card, format_hand, parse_card, parse_hand
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import JOKER_CODE, Card, Suit


@pytest.mark.parametrize(
    "token, value, suit",
    [
        ("AS", 1, Suit.SPADES), ("A♠", 1, Suit.SPADES), ("as", 1, Suit.SPADES), ("1S", 1, Suit.SPADES),
        ("10H", 10, Suit.HEARTS), ("TH", 10, Suit.HEARTS), ("Th", 10, Suit.HEARTS), ("10♥", 10, Suit.HEARTS),
        ("JD", 11, Suit.DIAMONDS), ("q♦", 12, Suit.DIAMONDS), ("KC", 13, Suit.CLUBS), ("K♣", 13, Suit.CLUBS),
        ("2♤", 2, Suit.SPADES), ("9♡", 9, Suit.HEARTS), ("8♢", 8, Suit.DIAMONDS), ("7♧", 7, Suit.CLUBS),
        ("5♥️", 5, Suit.HEARTS),  # emoji variation selector
    ],
)
def test_tokens(token, value, suit):
    assert parse_card(token) == Card(value, suit).code == (value - 1) * 4 + int(suit)


@pytest.mark.parametrize("token", ["Joker", "JOKER", "joker", "JK", "jk"])
def test_jokers(token):
    assert parse_card(token) == JOKER_CODE


def test_separators():
    assert parse_hand("AS, 2H,3D  4C\t5S") == [0, 5, 10, 15, 16]
    assert parse_hand(" AS AC 8S 8C JD ") == [0, 3, 28, 31, 42]


@pytest.mark.parametrize("text, token, pos", [("AS KH 1X", "1X", 3), ("ZS", "ZS", 1), ("AS 11H", "11H", 2),
                                              ("AS 0S", "0S", 2), ("AS A", "A", 2), ("AS JKR", "JKR", 2)])
def test_errors_name_token_and_position(text, token, pos):
    with pytest.raises(OddsmithError) as exc:
        parse_hand(text, where="line 4 of x.txt")
    msg = str(exc.value)
    assert repr(token) in msg and f"card {pos}" in msg and "line 4 of x.txt" in msg


def test_formatting_round_trip():
    for code in range(53):
        for ascii in (False, True):
            assert parse_card(format_card(code, ascii=ascii)) == code
    assert format_card(0) == "A♠" and format_card(0, ascii=True) == "AS"
    assert format_card(39, ascii=True) == "10C" and format_card(JOKER_CODE) == "Joker"
    assert format_hand([0, 3, 28, 31, 42]) == "A♠ A♣ 8♠ 8♣ J♦"
    with pytest.raises(ValueError):
        format_card(53)
