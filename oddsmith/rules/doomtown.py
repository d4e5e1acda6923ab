"""The Doomtown: Weird West Edition rules model (pure Python, no kernels).

Every rule oddsmith uses for Doomtown lives here, named as the book names it,
with the section it comes from. Sources (``shared/rules``):

* *Rulebook* = ``doomtown-wwe-rulebook.txt`` (sections quoted by heading:
  "Aces & Faces", "Poker Hand Ranks", "Tied Hand Ranks", "Cheatin'",
  "Changing Suits & Values", "Modifying Hand Ranks", "Jokers", "Deck Building",
  "Shootout Sequence", "Pulls", "Skill Tests", "Kung Fu & Techniques",
  "Maximums & Minimums", "1. Gamblin' Phase", "Multiplayer Variant",
  "Automaton Variant").
* *Quick reference* = ``doomtown-quick-reference.txt`` ("Hand Ranks", "Deck",
  "Casualty", "Stud Bonus", "Draw Bonus", "Legal Hand", "Lowball", "Jokers").

Kernels in ``ext/`` do not import this module; they receive plain integers
built from it (card codes, the hand key layout below), and the tests check
that the kernels agree with these definitions.
"""
from __future__ import annotations

import enum
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence, Union

# --------------------------------------------------------------------------
# Cards: suits, values, codes  (Rulebook "Aces & Faces", "Poker")
# --------------------------------------------------------------------------


class Suit(enum.IntEnum):
    """The four suits, in kernel order (code = (value - 1) * 4 + suit).

    Quick reference "Suit": spades are dudes, hearts goods and spells,
    diamonds deeds, clubs actions. Suits carry no order in poker; the numbers
    are only the kernel encoding.
    """

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def card_type(self) -> str:
        """The card type printed in this suit (Quick reference "Suit")."""
        return ("Dude", "Goods or Spell", "Deed", "Action")[self]


VALUE_MIN = 1
"""Rulebook "Maximums & Minimums": value has a minimum of 1."""
VALUE_MAX = 13
"""Rulebook "Maximums & Minimums": by default value has a maximum of 13."""


class Value(enum.IntEnum):
    """Card values. Rulebook "Aces & Faces": aces are always low (A=1), J=11, Q=12, K=13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """The index printed on the card: A, 2..10, J, Q, K."""
        return VALUE_LABELS[self]


VALUE_LABELS: dict[int, str] = {1: "A", **{v: str(v) for v in range(2, 11)}, 11: "J", 12: "Q", 13: "K"}
"""Printed index of each value (Rulebook "Aces & Faces")."""

N_SUITS = 4
N_VALUES = 13
N_VALUED_CODES = N_SUITS * N_VALUES  # 52 suit+value identities
JOKER_CODE = 52
"""Kernel code of a joker (valued cards are 0..51)."""


def card_code(value: int, suit: int) -> int:
    """Kernel code of a valued card: ``(value - 1) * 4 + suit`` (0..51)."""
    return (int(value) - 1) * N_SUITS + int(suit)


def code_value(code: int) -> int:
    """Value (1..13) of a valued card code."""
    return code // N_SUITS + 1


def code_suit(code: int) -> Suit:
    """Suit of a valued card code."""
    return Suit(code % N_SUITS)


@dataclass(frozen=True, order=True)
class Card:
    """A card with a suit and value, as it counts in a draw hand (Rulebook "Poker":
    "the only things that matter are the suits and values of the cards")."""

    value: int
    suit: Suit

    def __post_init__(self) -> None:
        if not VALUE_MIN <= int(self.value) <= VALUE_MAX:
            raise ValueError(f"card value {self.value} is outside {VALUE_MIN}..{VALUE_MAX}")
        object.__setattr__(self, "value", int(self.value))
        object.__setattr__(self, "suit", Suit(self.suit))

    @property
    def code(self) -> int:
        return card_code(self.value, self.suit)

    @classmethod
    def from_code(cls, code: int) -> "Card":
        if not 0 <= code < N_VALUED_CODES:
            raise ValueError(f"card code {code} is not a valued card (0..51)")
        return cls(code_value(code), code_suit(code))

    @property
    def is_joker(self) -> bool:
        return False

    def __str__(self) -> str:
        return VALUE_LABELS[self.value] + self.suit.symbol


@dataclass(frozen=True)
class Joker:
    """A joker (Rulebook "Jokers"): wild in draw hands and pulls, no suit or value of its own.

    In a draw hand its owner names a suit and value; ``as_card`` records that
    choice when it is known (the evaluator reports it).
    """

    as_card: Card | None = None

    @property
    def code(self) -> int:
        return JOKER_CODE

    @property
    def is_joker(self) -> bool:
        return True

    def __str__(self) -> str:
        return "Joker" if self.as_card is None else f"Joker({self.as_card})"


JOKER = Joker()
DrawCard = Union[Card, Joker]


def from_code(code: int) -> DrawCard:
    """Card or joker for a kernel code (0..52)."""
    return JOKER if code == JOKER_CODE else Card.from_code(code)


# --------------------------------------------------------------------------
# Hand ranks and tie-breaks  (Rulebook "Poker Hand Ranks", "Tied Hand Ranks";
# Quick reference "Hand Ranks")
# --------------------------------------------------------------------------


class HandRank(enum.IntEnum):
    """The eleven hand ranks; higher is better in a shootout (Rulebook "Poker Hand Ranks",
    Quick reference "Hand Ranks")."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    FIVE_OF_A_KIND = 10
    DEAD_MANS_HAND = 11

    @property
    def book_name(self) -> str:
        return HAND_RANK_NAMES[self]


HAND_RANK_NAMES: dict[HandRank, str] = {
    HandRank.HIGH_CARD: "High Card",
    HandRank.PAIR: "Pair",
    HandRank.TWO_PAIR: "Two Pair",
    HandRank.THREE_OF_A_KIND: "Three of a Kind",
    HandRank.STRAIGHT: "Straight",
    HandRank.FLUSH: "Flush",
    HandRank.FULL_HOUSE: "Full House",
    HandRank.FOUR_OF_A_KIND: "Four of a Kind",
    HandRank.STRAIGHT_FLUSH: "Straight Flush",
    HandRank.FIVE_OF_A_KIND: "Five of a Kind",
    HandRank.DEAD_MANS_HAND: "Dead Man's Hand",
}

HAND_RANK_MIN = 1
"""Rulebook "Maximums & Minimums": hand rank has a minimum of 1."""
HAND_RANK_MAX = 11
"""Rulebook "Maximums & Minimums": hand rank has a maximum of 11."""

HAND_SIZE = 5
"""Rulebook "Poker": every draw hand is a 5-card poker hand."""

DEAD_MANS_HAND: frozenset[Card] = frozenset(
    {Card(1, Suit.SPADES), Card(1, Suit.CLUBS), Card(8, Suit.SPADES), Card(8, Suit.CLUBS), Card(11, Suit.DIAMONDS)}
)
"""Quick reference "Hand Ranks": Dead Man's Hand is exactly 8♠, 8♣, A♠, A♣, J♦."""
DEAD_MANS_HAND_CODES: frozenset[int] = frozenset(c.code for c in DEAD_MANS_HAND)

STRAIGHT_LENGTH = 5
ACE_HIGH_STRAIGHT = False
"""Quick reference "Hand Ranks": aces are always low; A-2-3-4-5 is a straight,
10-J-Q-K-A is just a king high hand (rank 1)."""
STRAIGHT_TOPS: tuple[int, ...] = tuple(range(5, 14))
"""Top card of every straight: 5 (A-2-3-4-5) up to K (9-10-J-Q-K)."""


class TieBreakOrder(enum.Enum):
    """How the five values of a hand are listed for comparison within a rank."""

    BY_GROUP = "groups"
    """Largest group first, then by value from the top (pairs, sets, full houses, kickers)."""
    FROM_THE_TOP = "top"
    """All five values from the highest down (flush, high card, straights)."""


@dataclass(frozen=True)
class TieBreak:
    """Rulebook "Tied Hand Ranks": what two hands of ``rank`` compare, in order."""

    rank: HandRank
    steps: tuple[str, ...]
    order: TieBreakOrder


TIE_BREAKS: dict[HandRank, TieBreak] = {
    t.rank: t
    for t in (
        TieBreak(HandRank.HIGH_CARD, ("highest card", "next highest card", "next", "next", "last card"), TieBreakOrder.FROM_THE_TOP),
        TieBreak(HandRank.PAIR, ("the pair", "next highest card", "next highest card", "last card"), TieBreakOrder.BY_GROUP),
        TieBreak(HandRank.TWO_PAIR, ("highest pair", "other pair", "last card"), TieBreakOrder.BY_GROUP),
        TieBreak(HandRank.THREE_OF_A_KIND, ("the three of a kind", "next highest card", "last card"), TieBreakOrder.BY_GROUP),
        TieBreak(HandRank.STRAIGHT, ("highest card",), TieBreakOrder.FROM_THE_TOP),
        TieBreak(HandRank.FLUSH, ("highest card", "next", "next", "next", "last card"), TieBreakOrder.FROM_THE_TOP),
        # Comparison Example 2: the three of a kind first, then the pair (2-2-2-K-K loses to 3-3-3-Q-Q).
        TieBreak(HandRank.FULL_HOUSE, ("the three of a kind", "the pair"), TieBreakOrder.BY_GROUP),
        TieBreak(HandRank.FOUR_OF_A_KIND, ("the four of a kind", "the kicker"), TieBreakOrder.BY_GROUP),
        TieBreak(HandRank.STRAIGHT_FLUSH, ("highest card",), TieBreakOrder.FROM_THE_TOP),
        TieBreak(HandRank.FIVE_OF_A_KIND, ("the five of a kind",), TieBreakOrder.BY_GROUP),
        # Only one Dead Man's Hand exists, so it always ties another.
        TieBreak(HandRank.DEAD_MANS_HAND, (), TieBreakOrder.BY_GROUP),
    )
}
"""Tie-break order per rank (Rulebook "Tied Hand Ranks", its table and Comparison
Examples 1-3; ranks the table omits follow the same principle: ranking cards, then kickers)."""

# The comparable hand key (shared by the kernel, the reference and the CLI):
#   key = rank << 20 | f0 << 16 | f1 << 12 | f2 << 8 | f3 << 4 | f4
# where f0..f4 are the hand's five values listed in its TIE_BREAKS order.
# Comparing keys as integers (or [rank, f0..f4] as lists) orders hands exactly
# as "Tied Hand Ranks" does; identical keys tie.
KEY_RANK_SHIFT = 20
KEY_FIELD_BITS = 4
KEY_FIELD_MASK = (1 << KEY_FIELD_BITS) - 1
KEY_FIELDS = 5


def tie_break_values(rank: HandRank, values: Sequence[int]) -> tuple[int, ...]:
    """The five values of a hand of ``rank`` listed in the order they are compared."""
    values = [int(v) for v in values]
    if len(values) != HAND_SIZE:
        raise ValueError("a poker hand has exactly five cards")
    if TIE_BREAKS[HandRank(rank)].order is TieBreakOrder.FROM_THE_TOP:
        return tuple(sorted(values, reverse=True))
    counts = Counter(values)
    return tuple(sorted(values, key=lambda v: (counts[v], v), reverse=True))


def hand_key(rank: HandRank | int, fields: Sequence[int]) -> int:
    """Pack a rank and its five tie-break values into the comparable integer key."""
    key = int(rank) << KEY_RANK_SHIFT
    for i, f in enumerate(fields):
        key |= int(f) << (KEY_FIELD_BITS * (KEY_FIELDS - 1 - i))
    return key


def key_rank(key: int) -> HandRank:
    """The hand rank stored in a key."""
    return HandRank(int(key) >> KEY_RANK_SHIFT)


def key_fields(key: int) -> tuple[int, ...]:
    """The five tie-break values stored in a key (0 for a modified rank, see below)."""
    return tuple((int(key) >> (KEY_FIELD_BITS * (KEY_FIELDS - 1 - i))) & KEY_FIELD_MASK for i in range(KEY_FIELDS))


def key_as_list(key: int) -> list[int]:
    """``[rank, f0, f1, f2, f3, f4]``: compares as lists exactly as the integer key does."""
    return [int(key) >> KEY_RANK_SHIFT, *key_fields(key)]


# --------------------------------------------------------------------------
# Cheatin' and jokers  (Rulebook "Cheatin'", "Changing Suits & Values", "Jokers")
# --------------------------------------------------------------------------


def is_cheatin(cards: Iterable[DrawCard]) -> bool:
    """Rulebook "Cheatin'": a hand is cheatin' when it could not be made from one regular
    52-card deck, i.e. two of its valued cards share suit and value. Rulebook "Jokers":
    a joker never makes a hand cheatin' (even when it copies a card in the hand)."""
    seen: set[int] = set()
    for c in cards:
        if c.is_joker:
            continue
        if c.code in seen:
            return True
        seen.add(c.code)
    return False


@dataclass(frozen=True)
class JokerRules:
    """Rulebook "Jokers", Quick reference "Jokers"; docs/rules-doomtown.md, 'Jokers'."""

    max_per_deck: int = 2
    """Up to two jokers; they do not count against the 52 valued cards."""
    wild_suit_and_value: bool = True
    """In a draw hand the owner chooses both suit and value."""
    may_copy_card_in_hand: bool = True
    """The chosen identity may duplicate a card already in the hand (legal five of a kind)."""
    makes_cheatin: bool = False
    """A joker never makes a hand cheatin'; a hand cheatin' without it stays cheatin'."""
    shootout_choice: str = "the identity giving the highest hand"
    lowball_choice: str = "the identity giving the lowest hand, tie-breaks included"
    pull_value: str = "the value its owner wants"
    """A pulled joker takes the value its owner wants (best for the test)."""
    aced_after_use: bool = True
    """Quick reference "Jokers": once you use a joker, you must ace it."""
    outside_hand_has_suit_or_value: bool = False
    """Revealed from the deck (not as a pull), discarded, or in the discard pile: no suit, no value."""


JOKER_RULES = JokerRules()


# --------------------------------------------------------------------------
# Maximums & minimums, modified hand ranks
# (Rulebook "Maximums & Minimums", "Modifying Hand Ranks", "Changing Suits & Values")
# --------------------------------------------------------------------------

NUMBER_MIN = 0
"""Rulebook "Maximums & Minimums": the default minimum for numbers is zero (no default maximum)."""

DUDE_NUMBER_MAX = 999
"""oddsmith's one range for every per-dude number of a posse (bullets, bounty, influence, value,
cost, of a dude or a Sidekick): NUMBER_MIN..DUDE_NUMBER_MAX. The book sets no maximum ("Maximums
& Minimums"); printed cards stay below 20 and a bounty grows by a few a day, so 999 is beyond any
game while every figure stays a small integer for the kernels (docs/rules-doomtown.md)."""


def clamp_value(value: int) -> int:
    """A modified value, held within 1..13."""
    return max(VALUE_MIN, min(VALUE_MAX, int(value)))


def clamp_hand_rank(rank: int) -> HandRank:
    """A modified hand rank, held within 1..11."""
    return HandRank(max(HAND_RANK_MIN, min(HAND_RANK_MAX, int(rank))))


def clamp_number(number: int) -> int:
    """Any other number (bullets, influence, ...): minimum 0, no maximum."""
    return max(NUMBER_MIN, int(number))


def modified_rank(rank: int, change: int) -> HandRank:
    """The hand rank after a card effect raises or lowers it by ``change``, clamped to 1..11."""
    return clamp_hand_rank(int(rank) + int(change))


def modified_hand_key(rank: int, *, lowball: bool = False) -> int:
    """Key of a hand whose rank was modified to ``rank`` (Rulebook "Modifying Hand Ranks").

    "A modified hand rank is considered to be the worst hand of that rank, losing
    to any unmodified hand of that rank. If both hands have been modified to the
    same hand rank, they tie." In a shootout the worst hand of a rank is below
    every real key of that rank (fields all 0); in lowball, where lower wins, the
    worst hand is above every real key of that rank (fields all 15).
    """
    r = clamp_hand_rank(rank)
    fill = KEY_FIELD_MASK if lowball else 0
    return hand_key(r, [fill] * KEY_FIELDS)


# --------------------------------------------------------------------------
# Deck construction  (Rulebook "Deck Building", "Jokers"; Quick reference "Deck")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckRules:
    """What a legal Doomtown deck holds."""

    outfits: int = 1
    """Exactly one outfit card; it starts in play and is not counted."""
    valued_cards: int = 52
    """Exactly fifty-two cards with printed values."""
    max_per_suit_and_value: int = 4
    """No more than four cards sharing the same suit and value."""
    max_per_title: int = 4
    """No more than four cards sharing the same title (Quick reference "Deck"); different versions
    of a dude (its Experienced versions, "(Exp.1)") are the same card here (Quick reference
    "Experienced"; :func:`deck_building_title`; docs/rules-set-up.md)."""
    max_jokers: int = 2
    """Up to two jokers (not counted in the 52)."""
    max_legends: int = 1
    """Up to one legend, which starts in play and is not counted (Rulebook "Legends")."""

    @property
    def max_deck_size(self) -> int:
        """Cards that can be drawn into poker hands: 52 valued cards plus jokers."""
        return self.valued_cards + self.max_jokers


DECK_RULES = DeckRules()

#: The experience marker of a title: "(Exp.1)", "(exp. 2)", "(Experienced 1)".
_EXPERIENCE_MARKER = re.compile(r"\s*\(\s*exp(?:erienced)?\.?\s*\d+\s*\)\s*$", re.IGNORECASE)


def deck_building_title(title: str) -> str:
    """The title under which a card counts towards :attr:`DeckRules.max_per_title`.

    Quick reference "Experienced": "Different versions of the same dude are
    considered to be the same card for deck building purposes", so
    "Judge Harry Somerset (Exp.1)" counts as "Judge Harry Somerset".
    """
    return _EXPERIENCE_MARKER.sub("", str(title)).strip()


@dataclass(frozen=True)
class StartingGangRules:
    """Who may start in play (Rulebook "Setting Up the Game", 4. Choose Starting Dudes;
    "Loaded Keywords": Grifter, Gadget).

    The starting gang is part of the 52 valued cards; it is searched out of the
    deck and its costs are paid from the outfit's starting ghost rock.
    """

    max_dudes: int = 5
    """"Up to five dudes"."""
    drifter_faction: str = "neutral"
    """Drifters (faction-less dudes, ``neutral`` in the card table) may join any gang."""
    max_grifters: int = 1
    """"You can only include one Grifter when selecting your starting dudes"."""
    gadget_dudes: bool = False
    """A Gadget dude may start only if its own text says so (not modelled: always flagged)."""
    costs_paid_from_stash: bool = True
    """"Pay their costs from your stash": the gang costs at most the starting ghost rock."""


STARTING_GANG_RULES = StartingGangRules()


@dataclass(frozen=True)
class SwapRules:
    """What a deckbuilding swap (``oddsmith deck tune``; docs/deckbuilding.md) may change.

    A swap trades one card of the draw deck for one card of the pool, so the deck
    keeps its 52 valued cards (Rulebook "Deck Building"); the new list must pass
    :class:`DeckRules` like any deck.
    """

    swappable_types: tuple[str, ...] = ("dude", "deed", "goods", "spell", "action")
    """The cards with a suit and value. The outfit and a legend are not counted among the
    52 (Rulebook "Deck Building", "Legends"), and a joker traded for a valued card would
    make 53 valued cards: none of them is ever swapped."""
    starting_gang_fixed: bool = True
    """The starting gang is chosen and put into play at set-up (Rulebook "Setting Up the
    Game", 4. Choose Starting Dudes): a swap changes the draw deck, never the gang."""
    off_faction_upkeep: bool = True
    """A dude of another faction than the outfit's is legal, but "you increase their upkeep
    by their influence" (Rulebook "Dudes from Other Factions"): by default the pool offers
    only dudes of the outfit's faction and drifters."""


SWAP_RULES = SwapRules()


# --------------------------------------------------------------------------
# Stud and draw bonus  (Rulebook "4. Draw!"; Quick reference "Stud Bonus", "Draw Bonus")
# --------------------------------------------------------------------------


class BulletType(enum.Enum):
    """Quick reference "Bullet": silver = stud, brass = draw."""

    STUD = "stud"
    DRAW = "draw"


@dataclass(frozen=True)
class Gunslinger:
    """What a dude brings to a shootout hand: bullet rating and type."""

    bullets: int
    bullet_type: BulletType

    def __post_init__(self) -> None:
        object.__setattr__(self, "bullets", clamp_number(self.bullets))
        object.__setattr__(self, "bullet_type", BulletType(self.bullet_type))


@dataclass(frozen=True)
class PosseBonus:
    """Stud bonus: extra cards drawn; draw bonus: cards that may be discarded and replaced once."""

    stud: int
    draw: int

    @property
    def cards_drawn(self) -> int:
        """Rulebook "4. Draw!": each player draws 5 cards plus their stud bonus."""
        return HAND_SIZE + self.stud


def posse_bonus(shooter: Gunslinger, others: Iterable[Gunslinger] = ()) -> PosseBonus:
    """Rulebook "4. Draw!": the shooter adds their full bullet rating to the bonus of their
    type; every backup dude adds exactly one to the bonus of its type, whatever its bullets."""
    stud = shooter.bullets if shooter.bullet_type is BulletType.STUD else 0
    draw = shooter.bullets if shooter.bullet_type is BulletType.DRAW else 0
    for dude in others:
        if dude.bullet_type is BulletType.STUD:
            stud += 1
        else:
            draw += 1
    return PosseBonus(stud=stud, draw=draw)


# --------------------------------------------------------------------------
# Shootout round result and casualties
# (Rulebook "7. Compare Hand Ranks", "8. Determine Casualties", "9. Take Your Lumps";
#  Quick reference "Casualty", "Take Yer Lumps")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    """One shootout round: ``winner`` is 0 or 1 (or None for identical hands)."""

    winner: int | None
    casualties: tuple[int, int]


def round_casualties(winner_rank: int, loser_rank: int) -> tuple[int, int]:
    """(winner's, loser's) casualties: the loser suffers one per rank lost by; with equal
    ranks (even when a tie-break decided the round) each side suffers 1."""
    diff = int(winner_rank) - int(loser_rank)
    if diff < 0:
        raise ValueError("the winner's hand rank cannot be below the loser's")
    return (1, 1) if diff == 0 else (0, diff)


def shootout_round(key_a: int, key_b: int) -> RoundResult:
    """Compare two shootout hands by key (higher wins) and give each side's casualties."""
    ra, rb = int(key_a) >> KEY_RANK_SHIFT, int(key_b) >> KEY_RANK_SHIFT
    if key_a == key_b:
        return RoundResult(None, (1, 1))
    if key_a > key_b:
        w, l = round_casualties(ra, rb)
        return RoundResult(0, (w, l))
    w, l = round_casualties(rb, ra)
    return RoundResult(1, (l, w))


class CasualtyChoice(enum.Enum):
    """Ways to cover casualties (Rulebook "9. Take Your Lumps", Quick reference "Casualty")."""

    DISCARD_DUDE = "discard a dude"
    ACE_DUDE = "ace a dude"
    DISCARD_SIDEKICK = "discard a Sidekick"
    HARROWED_HOME_BOOTED = "send a Harrowed dude home booted"
    DISCARD_HARROWED = "discard a Harrowed dude"
    ACE_HARROWED = "ace a Harrowed dude"


CASUALTY_TABLE: dict[CasualtyChoice, int] = {
    CasualtyChoice.DISCARD_DUDE: 1,
    CasualtyChoice.ACE_DUDE: 2,
    CasualtyChoice.DISCARD_SIDEKICK: 1,
    CasualtyChoice.HARROWED_HOME_BOOTED: 1,
    CasualtyChoice.DISCARD_HARROWED: 2,
    CasualtyChoice.ACE_HARROWED: 3,
}
"""Casualties each choice covers."""

MAX_COVER_DUDE = CASUALTY_TABLE[CasualtyChoice.ACE_DUDE]
MAX_COVER_HARROWED = CASUALTY_TABLE[CasualtyChoice.ACE_HARROWED]
MAX_COVER_SIDEKICK = CASUALTY_TABLE[CasualtyChoice.DISCARD_SIDEKICK]
TOKEN_DUDES_LEAVE_PLAY = True
"""Quick reference "Token": a token dude aced or discarded is removed from play."""


def casualty_capacity(dudes: int, harrowed: int = 0, sidekicks: int = 0) -> int:
    """Most casualties a posse can cover: ace every dude (2, Harrowed 3), discard every Sidekick (1).

    ``dudes`` counts the posse's dudes that are not Harrowed."""
    if min(dudes, harrowed, sidekicks) < 0:
        raise ValueError("posse counts cannot be negative")
    return dudes * MAX_COVER_DUDE + harrowed * MAX_COVER_HARROWED + sidekicks * MAX_COVER_SIDEKICK


def casualties_to_cover(suffered: int, capacity: int) -> int:
    """Rulebook "9. Take Your Lumps": a side must do all it can to cover its casualties and
    may not suffer excess ones, so it covers exactly min(suffered, capacity)."""
    return max(0, min(int(suffered), int(capacity)))


def check_cover(suffered: int, choices: Sequence[CasualtyChoice], capacity: int) -> None:
    """Raise ValueError unless ``choices`` (applied one at a time) is a legal way to take lumps:
    no choice covers more than what remains, and the total is all the side can cover."""
    remaining = int(suffered)
    for c in choices:
        cover = CASUALTY_TABLE[c]
        if cover > remaining:
            raise ValueError(f"{c.value} covers {cover} but only {remaining} casualties remain")
        remaining -= cover
    covered = int(suffered) - remaining
    if covered != casualties_to_cover(suffered, capacity):
        raise ValueError(f"covers {covered} casualties but must cover {casualties_to_cover(suffered, capacity)}")


# --------------------------------------------------------------------------
# Pulls, skill tests, Kung Fu  (Rulebook "Pulls", "Skill Tests", "Kung Fu & Techniques")
# --------------------------------------------------------------------------

PULL_JOKER_VALUE_SKILL = VALUE_MAX
"""A pulled joker takes the value its owner wants: for a skill test, the highest (13)."""
PULL_JOKER_VALUE_KUNG_FU = VALUE_MIN
"""For a Kung Fu test (lower succeeds), the lowest (1)."""


def skill_test_succeeds(pull_value: int, skill_rating: int, difficulty: int) -> bool:
    """Skill test: pull + skill rating meets or beats the difficulty."""
    return clamp_value(pull_value) + clamp_number(skill_rating) >= int(difficulty)


def kung_fu_dude_value(value: int, kung_fu_rating: int) -> int:
    """A Kung Fu dude's value while in play: value + Kung Fu rating (held at most 13)."""
    return clamp_value(int(value) + clamp_number(kung_fu_rating))


def kung_fu_test_succeeds(pull_value: int, dude_value: int) -> bool:
    """Kung Fu test: the pull is less than or equal to the performing dude's value
    (including bonuses such as the Kung Fu rating)."""
    return clamp_value(pull_value) <= clamp_value(dude_value)


# --------------------------------------------------------------------------
# Lowball: the Gamblin' phase  (Rulebook "1. Gamblin' Phase", "Multiplayer Variant";
# Quick reference "Lowball")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class LowballRules:
    ante: int = 1
    """Each player antes 1 ghost rock (borrowed from the bank if need be)."""
    hand_size: int = 5
    """Each player draws exactly a five-card draw hand (no stud or draw bonus)."""
    lowest_wins: bool = True
    """Lowest hand wins: the exact reverse of the shootout ordering, tie-breaks included."""
    identical_hands_redraw: bool = True
    """Identical hands are discarded and new hands drawn (the only tie that is redrawn)."""
    cheatin_punishable: bool = True
    """A cheatin' lowball hand can be punished by Cheatin' Resolutions (one per player)."""
    joker_choice: str = JOKER_RULES.lowball_choice


LOWBALL_RULES = LowballRules()


def gamblin_payouts(players: int) -> tuple[int, ...]:
    """Ghost rock won by the lowest, second lowest, ... hand.

    Two players: the lowest hand collects the whole pot. Three or more
    (Multiplayer Variant): lowest wins 2, second lowest 1, the rest of the pot
    is removed from play."""
    if players < 2:
        raise ValueError("Gamblin' needs at least two players")
    if players == 2:
        return (2 * LOWBALL_RULES.ante, 0)
    return (2, 1) + (0,) * (players - 2)


# --------------------------------------------------------------------------
# Sequence of play and shootout steps  (Rulebook "The Turn: A Day in Doomtown",
# "Shootout Sequence")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    number: int
    name: str
    summary: str


PHASES: tuple[Step, ...] = (
    Step(1, "Gamblin'", "Ante 1 ghost rock, draw a 5-card lowball hand; lowest hand wins the pot and is the Dealer."),
    Step(2, "Production", "Outfit, deeds and other cards with production add ghost rock to your stash."),
    Step(3, "Upkeep", "Repay the bank, pay upkeep or discard those cards."),
    Step(4, "High Noon", "Alternate Noon plays (recruit, buy, trade, learn, build, move, abilities, call out) until all pass."),
    Step(5, "Sundown", "Check victory: more control points than the opponent's total influence."),
    Step(6, "Nightfall", "Discard 1, refill the play hand, unboot, end turn effects, refresh abilities."),
)
"""Rulebook "The Turn: A Day in Doomtown": six phases."""

SHOOTOUT_STEPS: tuple[Step, ...] = (
    Step(1, "Form Posses", "Leader then mark form posses from dudes at or adjacent to the location."),
    Step(2, "Shootout Plays", "Starting with the Dealer, alternate Shootout plays until all pass."),
    Step(3, "Choose Your Shooters", "Each posse picks a shooter (full bullets); the others are backup (type only)."),
    Step(4, "Draw!", "Draw 5 + stud bonus, discard and replace up to the draw bonus once, keep five."),
    Step(5, "Reveal Draw Hands", "Reveal, announce cheatin' and joker identities; on-reveal traits and Reacts."),
    Step(6, "Resolution", "Resolution plays, at most one Cheatin' Resolution against a cheatin' player."),
    Step(7, "Compare Hand Ranks", "Highest hand rank wins the round; ties broken by Tied Hand Ranks."),
    Step(8, "Determine Casualties", "Loser suffers the rank difference; equal ranks: 1 casualty each."),
    Step(9, "Take Your Lumps", "Loser first, cover all casualties possible and no more (discard 1, ace 2, ...)."),
    Step(10, "Flight or Fight", "Loser then winner may send any posse dudes home booted."),
    Step(11, "Chamber Another Round", "If both posses still have dudes, return to step 2."),
)
"""Rulebook "Shootout Sequence"."""

GAMBLIN_STEPS: tuple[Step, ...] = (
    Step(1, "Ante", "Each player antes 1 ghost rock (borrow from the bank if needed)."),
    Step(2, "Draw", "Set the play hand aside, draw and reveal a 5-card lowball draw hand."),
    Step(3, "Cheatin' Resolutions", "Traits, then at most one Cheatin' Resolution against each cheatin' player."),
    Step(4, "Winner", "Lowest hand wins the pot and becomes the Dealer; identical hands redraw."),
)
"""Rulebook "1. Gamblin' Phase"; Quick reference "Sequence of Play"."""


# --------------------------------------------------------------------------
# Automaton shootout hand  (Rulebook "Automaton Variant", "Shootout Hands")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class AutomatonHandRule:
    """The Automaton draws 5 + stud, reveals ``draw`` more, and makes the highest rank from
    the stud cards and at most one revealed card, preferring a legal hand, then one without jokers."""

    revealed_cards_usable: int = 1
    prefer_legal: bool = True
    prefer_no_jokers: bool = True


AUTOMATON_HAND = AutomatonHandRule()


# --------------------------------------------------------------------------
# Plain helpers on explicit five-card hands (used by docs, tests and the CLI)
# --------------------------------------------------------------------------


def is_dead_mans_hand(cards: Sequence[DrawCard]) -> bool:
    """Exactly A♠ A♣ 8♠ 8♣ J♦ (Quick reference "Hand Ranks"), jokers standing in as named."""
    real = [c.as_card if c.is_joker else c for c in cards]
    return len(real) == HAND_SIZE and None not in real and frozenset(real) == DEAD_MANS_HAND and len(set(real)) == 5


def rank_of_five(cards: Sequence[Card]) -> HandRank:
    """Hand rank of five valued cards (jokers already given identities), from the book's definitions."""
    if len(cards) != HAND_SIZE:
        raise ValueError("a poker hand has exactly five cards")
    if len({c.code for c in cards}) == 5 and frozenset(cards) == DEAD_MANS_HAND:
        return HandRank.DEAD_MANS_HAND
    values = sorted(c.value for c in cards)
    counts = sorted(Counter(values).values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    straight = len(set(values)) == 5 and values[4] - values[0] == 4
    if counts[0] == 5:
        return HandRank.FIVE_OF_A_KIND
    if straight and flush:
        return HandRank.STRAIGHT_FLUSH
    if counts[0] == 4:
        return HandRank.FOUR_OF_A_KIND
    if counts[:2] == [3, 2]:
        return HandRank.FULL_HOUSE
    if flush:
        return HandRank.FLUSH
    if straight:
        return HandRank.STRAIGHT
    if counts[0] == 3:
        return HandRank.THREE_OF_A_KIND
    if counts[:2] == [2, 2]:
        return HandRank.TWO_PAIR
    if counts[0] == 2:
        return HandRank.PAIR
    return HandRank.HIGH_CARD


def key_of_five(cards: Sequence[Card]) -> int:
    """Comparable key of five valued cards (see ``hand_key``)."""
    rank = rank_of_five(cards)
    return hand_key(rank, tie_break_values(rank, [c.value for c in cards]))




# --------------------------------------------------------------------------
# Whole shootouts: round after round until a posse is empty
# (Rulebook "Shootout Sequence" steps 3-11, "Ending a Shootout", "9. Take Your
#  Lumps", "10. Flight or Fight", "Where Cards Go" ("Deck", "Discard Pile",
#  "Boot Hill", "Draw Hand"), "Automaton Variant")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CardFlowRules:
    """Where cards go during a shootout (Rulebook "Where Cards Go")."""

    reshuffle_discard_when_deck_empty: bool = True
    """"Deck": to draw or reveal from an empty deck, turn the discard pile face down and
    shuffle it to make a new deck, then draw."""
    draw_hand_discarded_after_round: bool = True
    """"Draw Hand": once a hand of poker is resolved, its cards are discarded at once."""
    jokers_go_with_the_draw_hand: bool = True
    """A joker drawn into a draw hand is discarded with it (oddsmith's reading; the Quick
    reference's "once you use a joker, you must ace it" concerns jokers used as pulls and
    in abilities, not left in the deck's cycle here)."""
    discarded_dudes_to_discard_pile: bool = True
    """"Discard Pile": a discarded dude's card (and cards attached to an aced or discarded
    dude) go to the owner's discard pile, and so back into the deck when it is reshuffled."""
    aced_dudes_to_boot_hill: bool = True
    """"Boot Hill": aced cards never come back into the deck."""
    play_hand_set_aside: int = HAND_SIZE
    """"4. Draw!": each player sets a five-card play hand aside (its cards unknown, drawn
    before the shootout; they are neither in the deck nor in the discard pile)."""


CARD_FLOW = CardFlowRules()

SHOOTOUT_ROUND_CAP = 50
"""oddsmith's cap on rounds (the book has none: a shootout ends only when a posse is empty,
"Ending a Shootout"); a shootout still running after 50 rounds is stopped with no winner and
counted as a cap hit."""


# --------------------------------------------------------------------------
# Cards through the days: set-up, Gamblin' and Nightfall draws
# (Rulebook "Setting Up the Game" 5. Draw Play Hands, "1. Gamblin' Phase",
#  "6. Nightfall Phase", "Where Cards Go" ("Play Hand", "Draw Hand", "Deck"))
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DayCardFlowRules:
    """How cards leave the deck from set-up to the end of each day (what ``deck draws`` models)."""

    opening_play_hand: int = HAND_SIZE
    """Set-up, "5. Draw Play Hands": shuffle, then draw a five card play hand."""
    gamblin_draw_hand: int = LOWBALL_RULES.hand_size
    """"1. Gamblin' Phase": put the play hand aside and draw a five card draw hand."""
    gamblin_hand_discarded: bool = True
    """"Draw Hand": once a hand of poker is resolved, its cards are discarded at once (they
    never join the play hand)."""
    nightfall_discard: int = 1
    """"6. Nightfall Phase": each player "may discard one card from their play hand"."""
    max_hand_size: int = HAND_SIZE
    """Nightfall: "draws (or discards, if necessary) until they are at their maximum hand size
    (usually this is 5 cards)"."""
    reshuffle_discard_when_deck_empty: bool = CARD_FLOW.reshuffle_discard_when_deck_empty
    """"Deck": an empty deck is remade from the shuffled discard pile (``deck draws`` stops
    before that happens, docs/rules-doomtown.md)."""


DAY_CARD_FLOW = DayCardFlowRules()


class ShooterPolicy(enum.IntEnum):
    """How a side picks its shooter each round (Rulebook "3. Choose Your Shooters": any dude
    of the posse, chosen again each round, "11. Chamber Another Round"). Kernel codes."""

    BEST = 0
    """Maximise P(win the round) against the other side's possible replies (maximin over
    the (stud, draw) bonuses each side can field with its standing dudes; a side whose
    shooter follows a fixed rule has one reply)."""
    AUTOMATON = 1
    """Rulebook "Automaton Variant", "Shootout Hands": {more than one stud}, then {highest
    bullets}, then {unbooted dude}, then {lowest influence}; then ("Automaton Decisions")
    {the highest value}, then {first alphabetically}."""
    LISTED = 2
    """The first dude still in the posse, in the order the posse lists them."""


SHOOTER_POLICY_NAMES: dict[str, ShooterPolicy] = {
    "best": ShooterPolicy.BEST, "automaton": ShooterPolicy.AUTOMATON, "listed": ShooterPolicy.LISTED}


@dataclass(frozen=True)
class AutomatonShooterPriority:
    """Rulebook "Automaton Variant", "Shootout Hands" and "Automaton Decisions": the
    priorities, first to last, for the Automaton's shooter."""

    criteria: tuple[str, ...] = ("more than one stud", "highest bullets", "unbooted dude", "lowest influence",
                                 "the card with the highest value", "the card that comes first alphabetically")
    more_than_one_stud: int = 2
    """"{more than one stud}": read as a stud dude with 2 or more bullets (a stud shooter adds
    its bullets to the stud bonus, so such a dude draws more than one extra card)."""


AUTOMATON_SHOOTER = AutomatonShooterPriority()


def automaton_shooter_key(bullets: int, bullet_type: BulletType | str, booted: bool, influence: int,
                          value: int, name: str) -> tuple:
    """Sort key (smallest first = the Automaton's shooter) of :data:`AUTOMATON_SHOOTER`."""
    stud = BulletType(bullet_type) is BulletType.STUD
    return (not (stud and int(bullets) >= AUTOMATON_SHOOTER.more_than_one_stud), -int(bullets), bool(booted),
            int(influence), -int(value), str(name).casefold())


class CasualtyPolicy(enum.IntEnum):
    """How a side covers its casualties (Rulebook "9. Take Your Lumps": one at a time, no
    choice covering more than what remains, all that can be covered). Kernel codes."""

    AUTOMATON = 0
    """The Gunfighter's Programmed Reflexes, "Assigning Casualties", as written: Harrowed dudes
    first (sent home booted, as 1 casualty), then Token dudes, then Sidekicks, then dudes; every
    one but a Harrowed dude takes as many casualties as it can (ace 2, else discard 1). Within a
    category, Target Priorities "Dude Leaving Play/Control (own)": {lowest influence}, then
    {draw dude}, then {lowest cost of dude and attachments combined}, then the highest value,
    then first alphabetically."""
    KEEP_POSSE = 1
    """Cover with as few dudes as possible: Sidekicks first (1 each), then the weakest dude
    (fewest bullets, draw before stud, the last listed first) covering all it can (ace 2;
    a Harrowed dude ace 3, discard 2, home booted 1), and so on."""
    SAVE_DUDES = 2
    """Prefer sending home and discarding to acing: each item covers 1 first (Sidekicks, then
    Harrowed dudes home booted, then dudes discarded, weakest first; Sidekicks first because a
    Harrowed dude sent home takes his along); when that is not enough,
    Harrowed dudes are discarded rather than sent home, then dudes aced (weakest first), then
    Harrowed dudes aced."""


CASUALTY_POLICY_NAMES: dict[str, CasualtyPolicy] = {
    "automaton": CasualtyPolicy.AUTOMATON, "keep-posse": CasualtyPolicy.KEEP_POSSE,
    "save-dudes": CasualtyPolicy.SAVE_DUDES}

AUTOMATON_CASUALTY_ORDER: tuple[str, ...] = ("Harrowed dudes (as 1 casualty)", "Token dudes", "Sidekicks", "dudes")
"""Gunfighter Archetype, Programmed Reflexes, "Assigning Casualties"."""
AUTOMATON_HARROWED_COVER = CASUALTY_TABLE[CasualtyChoice.HARROWED_HOME_BOOTED]
"""A Harrowed dude is assigned "as 1 casualty": sent home booted. Read as written even when
the posse cannot cover all its casualties (the Harrowed dude then survives at home while
acing him would have covered 3; either way the posse is empty). Likewise Token dudes go before
Sidekicks, so a Token dude's own Sidekicks are discarded with him without covering a casualty."""


def automaton_casualty_key(influence: int, bullet_type: BulletType | str, cost: int, value: int,
                           name: str) -> tuple:
    """Sort key (smallest first) within a category of the Automaton's casualties: Target
    Priorities, "Dude Leaving Play/Control (own)", then "Automaton Decisions"."""
    draw = BulletType(bullet_type) is BulletType.DRAW
    return (int(influence), not draw, int(cost), -int(value), str(name).casefold())


def weakest_first_key(bullets: int, bullet_type: BulletType | str, position: int) -> tuple:
    """Order of the ``keep-posse`` and ``save-dudes`` policies: fewest bullets, draw dudes
    before stud dudes, the last listed first."""
    stud = BulletType(bullet_type) is BulletType.STUD
    return (int(bullets), stud, -int(position))


class FleeKind(enum.IntEnum):
    """Rulebook "10. Flight or Fight": starting with the round's loser, each side may send
    posse dudes home booted. oddsmith's sides flee with every dude or none. Kernel codes."""

    NEVER = 0
    """Fight on (the Gunfighter's Programmed Reflexes, "Fleeing": never flees)."""
    OUTNUMBERED = 1
    """After a round it lost, flee when its posse now has fewer dudes than the other."""
    LOSSES = 2
    """Flee once K of its dudes are gone from the posse (aced, discarded or sent home)."""


@dataclass(frozen=True)
class FleePolicy:
    kind: FleeKind
    losses: int = 0

    def __str__(self) -> str:
        return f"losses:{self.losses}" if self.kind is FleeKind.LOSSES else self.kind.name.lower()


FLEE_NEVER = FleePolicy(FleeKind.NEVER)


@dataclass(frozen=True)
class ShootoutEndRules:
    """Rulebook "Ending a Shootout", "10. Flight or Fight", "11. Chamber Another Round"."""

    ends_when_a_posse_is_empty: bool = True
    surviving_posse_wins: bool = True
    both_empty_nobody_wins: bool = True
    loser_decides_flight_first: bool = True
    """With identical hands there is no loser; the leader (side A) decides first, as the
    leader takes its lumps first ("9. Take Your Lumps")."""
    identical_hands_casualties_simultaneous: bool = True
    bounty_for_casualties: bool = True
    """"9. Take Your Lumps": a wanted dude discarded or aced as a casualty pays its bounty to the
    other side (a Harrowed dude sent home booted does not: he is neither discarded nor aced)."""


SHOOTOUT_END = ShootoutEndRules()
