"""Reading and writing Doomtown cards and draw hands.

Accepted card tokens (case does not matter): a value ``A``/``1`` (ace, always
low), ``2``..``10``, ``T`` (ten), ``J``, ``Q``, ``K`` followed by a suit letter
``S H D C`` or symbol ``♠ ♥ ♦ ♣`` (outline symbols ``♤ ♡ ♢ ♧`` too), e.g. ``AS``,
``A♠``, ``as``, ``10H``, ``TH``, ``Th``, ``1S``; a joker is ``Joker`` or ``JK``.
Cards are separated by spaces and/or commas. Codes follow
:mod:`oddsmith.rules.doomtown`: ``(value - 1) * 4 + suit``, joker 52.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from oddsmith.errors import OddsmithError, quote
from oddsmith.rules.doomtown import JOKER_CODE, VALUE_LABELS, Suit, card_code, code_suit, code_value

_VALUES = {"A": 1, "1": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(v): v for v in range(2, 11)}}
_SUITS = {
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}
_JOKERS = {"JOKER", "JK"}
_SEPARATORS = re.compile(r"[\s,]+")
CARD_HELP = "write cards like AS, A♠, 10H, TH, 1S (ace) or Joker"

_TOKEN_CACHE: dict[str, int] = {}


def parse_card(token: str) -> int:
    """Kernel code (0..52) of one card token; ValueError if it is not a card."""
    code = _TOKEN_CACHE.get(token)
    if code is not None:
        return code
    t = token.strip().replace("\ufe0f", "").upper()
    if t in _JOKERS:
        code = JOKER_CODE
    else:
        if len(t) < 2 or t[:-1] not in _VALUES or t[-1] not in _SUITS:
            raise ValueError(f"unknown card {token!r}")
        code = card_code(_VALUES[t[:-1]], _SUITS[t[-1]])
    if len(_TOKEN_CACHE) < 4096:
        _TOKEN_CACHE[token] = code
    return code


def split_tokens(text: str) -> list[str]:
    """Card tokens of a hand text (separators: spaces and commas)."""
    return [t for t in _SEPARATORS.split(text.strip()) if t]


def parse_hand(text: str, *, where: str | None = None) -> list[int]:
    """Codes of the cards in ``text``. An unknown token raises :class:`OddsmithError` naming
    the token, its position in the hand and ``where`` (e.g. ``"line 7 of hands.txt"``)."""
    codes = []
    for pos, token in enumerate(split_tokens(text), start=1):
        try:
            codes.append(parse_card(token))
        except ValueError:
            at = f"card {pos}" + (f" on {where}" if where else "")
            raise OddsmithError(f"unknown card {quote(token)} ({at}); {CARD_HELP}") from None
    return codes


def format_card(code: int, *, ascii: bool = False) -> str:
    """Text of one code: ``A♠`` (or ``AS`` with ``ascii``), ``Joker`` for 52."""
    code = int(code)
    if code == JOKER_CODE:
        return "Joker"
    if not 0 <= code < JOKER_CODE:
        raise ValueError(f"card code {code} is not 0..52")
    suit = code_suit(code)
    return VALUE_LABELS[code_value(code)] + (suit.letter if ascii else suit.symbol)


def format_cards(codes: Iterable[int], *, ascii: bool = False) -> list[str]:
    return [format_card(c, ascii=ascii) for c in codes]


def format_hand(codes: Sequence[int], *, ascii: bool = False, sep: str = " ") -> str:
    """Hand text, e.g. ``A♠ A♣ 8♠ 8♣ J♦``."""
    return sep.join(format_cards(codes, ascii=ascii))
