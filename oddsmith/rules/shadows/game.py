"""Game Turns, cards and Activations ("Anatomy of a Game", "Activations", "Running Out of Cards", "Lone Gun"), Lookout and
Reactions ("Lookout", "Declaring Reactions", "Resolving a Reaction"), and the other numbers of the game.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import normalize_name
from oddsmith.rules.shadows.dice import TESTS, TestKind

# ---------------------------------------------------------------------------
# Other numbers of the game
# ---------------------------------------------------------------------------

CACTUS_PATCH_SAVE = 5
ORNERY_CRITTER_SAVE = 5
ARMED_CIVILIANS_DICE = 2
ARMED_CIVILIANS_DIE = 6
ARMED_CIVILIANS_RANGE = 6
DUST_STORM_VISIBILITY = 12
HORSE_RIDER_SAVE = 5
"""A rider whose horse becomes a Casualty makes a 5+ Save ("Horses in Combat"); a horse counts as a Novice."""
HORSE_GRIT_DIE = 6
"""A horse's Save is rolled on a Novice's D6 ("Horses in Combat": "it counts as a Novice"; "Grit": Novices roll D6)."""
LASSO_RANGE = 6
"""Lasso ("Horses and Gear Summary"): "the user can throw the Lasso up to 6" at an enemy model" as a Shoot Action."""
LASSO_DRAG_INCHES_PER_SUCCESS = 1
"""A Target that fails its Save is "dragged 1" directly towards the Lasso thrower in a straight line for each Success
the attacker scored" (Lasso)."""
LASSO_LARGER_BASE_MAX_DRAG_INCHES = 1
"""Lasso: "if the Target model is on a larger base than the user, then the maximum distance it can be dragged is 1"."""
FALLING_SAVE = 5
"""And Falling: "A model that falls must make a 5+ Save. For every additional full 2" fallen, this Save becomes one
worse" (:func:`falling_save`)."""
FALLING_FREE_INCHES = 2
"""And Falling: the 5+ Save covers a fall of up to 2" plus less than 2" more ("a model falls 4". The player must make
a Save of 6+. If a model falls 5", it would still make a 6+ Save")."""
GAME_TURNS = 8
MAX_LOOT_PER_MODEL = 2


def falling_save(inches: float) -> int:
    """The Save of a model that falls ``inches`` ("And Falling"): 5+, one worse for every additional full 2".

    >>> falling_save(2), falling_save(4), falling_save(5), falling_save(6)
    (5, 6, 6, 7)
    """
    if inches < 0:
        raise OddsmithError(f"a fall of {inches}\" is not a distance")
    return FALLING_SAVE + max(0, int((inches - FALLING_FREE_INCHES) // FALLING_FREE_INCHES))


LASSO_HORSE_FALL_SAVE = falling_save(FALLING_FREE_INCHES)
"""Lasso: "A model can be dragged off a horse ... and counts as falling where applicable". *Reading*
(docs/shadows-battles.md section 11c): a rider's fall from the saddle is under 4" (the book gives no height), so a 5+
Save."""


# ---------------------------------------------------------------------------
# Game Turns, cards and Activations ("Anatomy of a Game", "Activations", "Running Out of Cards", "Lone Gun")
# ---------------------------------------------------------------------------

DECK_CARDS = 54
DECK_JOKERS = 2
"""Each player has their own Deck: a single deck of ordinary playing cards ("What You Will Need to Play"), 52 cards
and two Jokers. Read here: one Joker is black, the other red (the book gives Jokers a value but no colour)."""

CARD_SUITS: dict[str, str] = {"S": "black", "C": "black", "H": "red", "D": "red"}
"""Black cards (Spades and Clubs) always resolve before red cards (Hearts and Diamonds) ("Activations", step 2)."""
COLOUR_ORDER = ("black", "red")
ACE_VALUE = 14
JOKER_VALUE = 0
"""Aces are the highest value card, then Kings, Queens, Jacks, 10 down to 2 and finally Jokers ("Activations")."""
CARD_VALUE_LABELS: dict[int, str] = {14: "A", 13: "K", 12: "Q", 11: "J", 0: "Joker", **{v: str(v) for v in range(2, 11)}}


@dataclass(frozen=True)
class PlayingCard:
    """A card played to order Activations: ``value`` 2..14 (Ace 14, Joker 0), ``suit`` S/C/H/D (None for a Joker)."""

    value: int
    suit: str | None
    joker_colour: str | None = None

    @property
    def colour(self) -> str:
        return CARD_SUITS[self.suit] if self.suit is not None else str(self.joker_colour)

    @property
    def activation_key(self) -> tuple[int, int]:
        """Sort key, smallest Activates first: black before red, then higher value first ("Activations", step 2)."""
        return (COLOUR_ORDER.index(self.colour), -self.value)

    @property
    def label(self) -> str:
        if self.suit is None:
            return f"{self.colour} Joker"
        return f"{CARD_VALUE_LABELS[self.value]}{self.suit}"


def playing_card(text: str) -> PlayingCard:
    """'10S', 'JH', 'AC', 'black joker' ... as a PlayingCard."""
    t = normalize_name(text).replace(" ", "")
    if t.endswith("joker"):
        colour = t[: -len("joker")] or "black"
        if colour not in COLOUR_ORDER:
            raise OddsmithError(f"a Joker is black or red, got {text!r}")
        return PlayingCard(JOKER_VALUE, None, colour)
    suit, value = t[-1:].upper(), t[:-1].upper()
    values = {v: k for k, v in CARD_VALUE_LABELS.items() if k != JOKER_VALUE}
    if suit not in CARD_SUITS or value not in values:
        raise OddsmithError(f"not a playing card: {text!r} (e.g. 10S, JH, AC, black joker)")
    return PlayingCard(values[value], suit)


def deck_cards() -> list[PlayingCard]:
    """The 54 cards of one player's Deck."""
    cards = [PlayingCard(v, s) for s in CARD_SUITS for v in range(2, ACE_VALUE + 1)]
    return cards + [PlayingCard(JOKER_VALUE, None, c) for c in COLOUR_ORDER[:DECK_JOKERS]]


def hand_size(models_on_table: int, boss_on_table: bool) -> int:
    """Cards drawn in the Draw Phase: half the models on the table rounded up, +1 if the Boss is amongst them
    ("Anatomy of a Game: 1: Draw Phase"). The book's example: six models with their Boss draw four."""
    if models_on_table < 0:
        raise OddsmithError(f"models on the table must not be negative, got {models_on_table}")
    return -(-models_on_table // 2) + (1 if boss_on_table and models_on_table > 0 else 0)


def activation_order(cards: Iterable[PlayingCard], roll_offs: Iterable[int] = ()) -> tuple[list[int], bool]:
    """Who Activates in what order this round, and whether an Event occurs ("Activations", step 2).

    ``cards``: the card each player revealed (index = player). Black before
    red, then higher value first; players who revealed equal values Roll-Off
    and go in descending order of score: ``roll_offs`` are their D10 scores
    in player order, one per tied player (ties between the scores are the
    caller's to re-roll). The exact same card revealed by two or more players
    raises an Event.
    """
    cards = list(cards)
    scores = list(roll_offs)
    keys = [c.activation_key for c in cards]
    tied = sorted(i for i in range(len(cards)) if keys.count(keys[i]) > 1)
    if len(scores) < len(tied):
        raise OddsmithError(f"{len(tied)} players tied on card value need a Roll-Off score each, got {len(scores)}")
    roll = dict(zip(tied, scores))
    order = sorted(range(len(cards)), key=lambda i: (keys[i], -roll.get(i, 0)))
    event = len(set(cards)) < len(cards)
    return order, event


ROLL_OFF_DIE = 10
"""Each player involved in a Roll-Off rolls a D10, the highest scorer winning; ties re-roll ("Roll-Offs")."""
EVENTS_PER_GAME_TURN = 1
"""A maximum of one Event may occur per Game Turn ("Unexpected Events")."""
LONE_GUN_HAND = 1
"""A Hand of only one card at the start of a Turn may be played whenever its owner wishes ("Lone Gun")."""
SOLO_ACTIONS = 2
DUAL_MODELS = 2
"""Solo Activation: one model makes two Actions (each Weapon fired once per Activation; Trigger-Happy may fire the
same Weapon twice); Dual Activation: two models make one Action each ("Activations", step 3)."""
CLEAR_JAM_ACTION = "Move"
"""A model spends an entire Move Action to clear one Jammed Weapon ("Clearing a Jammed Weapon")."""


# ---------------------------------------------------------------------------
# Lookout and Reactions ("Lookout", "Declaring Reactions", "Resolving a Reaction", Gumption Skills Table)
# ---------------------------------------------------------------------------

LOOKOUT_ACTION = "Lookout"
"""The fourth Action: "When a model is Activated, it makes one or more of the following Actions: Move, Shoot, Fight or
Lookout" ("Actions")."""

LOOKOUT_ENDS_ACTIVATION = True
""""By expending an entire Action, a model may go on Lookout. This will end that model's Activation immediately,
regardless of whether it had any Actions remaining to it, but instead of a Done Token, the model is given a Lookout
Token instead" ("Lookout"); other Actions may come first ("you could Move into position first")."""

LOOKOUT_LASTS_INTO_NEXT_TURN = True
""""Until then it retains its Lookout Token. In this way it is possible for a model to be on Lookout from one Game
Turn to the next" ("Lookout")."""


class LookoutLoss(enum.Enum):
    """What takes a model's Lookout Token away ("Lookout"), each replacing it by a Done Token but the next Activation,
    which takes it "at no penalty"."""

    REACTED = "it Reacts"
    SHAKEN = "it becomes Shaken"
    DOWNED = "it is Downed"
    ENEMY_CONTACT = "an enemy model Moves into Contact with it"
    ACTIVATED = "the start of its next Activation"

    @property
    def done_token(self) -> bool:
        """The Lookout Token is replaced by a Done Token (the model cannot be Activated again this Turn)."""
        return self is not LookoutLoss.ACTIVATED


REACTIONS_PER_TRIGGERING_ACTION = 1
""""When an Active model [...] declares an Action [...], one Passive model that is on Lookout and that has LOS to it
may declare a Reaction. In games involving three or more Posses, only one eligible model per Passive Posse may try to
React in this way" ("Declaring Reactions"): in a two-player game one model Reacts to each triggering Action."""

REACT_TO_A_REACTION = False
""""Note also that it is not possible to React to a Reaction" ("Declaring Reactions")."""

REACTION_KINDS = ("Shoot", "Move")
""""Reacting models may make either a single Shoot (targeted at the triggering model, with no Spotting Test required)
or Move Action, using all the usual rules" ("Resolving a Reaction")."""

REACTION_SHOOT_SPOTTING_TEST = False
"""A Shoot Reaction targets the triggering model "with no Spotting Test required"."""

REACTION_BEFORE_TRIGGERING_ACTION = True
""""Once all eligible Reactions are complete, the triggering model then completes their Action if still able to do so"
("Resolving a Reaction")."""

REACTION_DISENGAGE_TEST = False
""""If using a Reaction to Disengage, you do so automatically with no Disengage Test required"."""

REACTION_TEST_DICE = TESTS[TestKind.REACTION].base_dice
""""each player involved makes a 1 Die Reaction Test on behalf of their own model" when "several opposing models all
wish to React at the same time" ("Resolving a Reaction"); Quickdraw "may re-roll a Reaction Test"."""

BUSHWHACKER_DICE = 1
"""Bushwhacker: "after resolving their Reaction, roll one Grit Die on their behalf. If you score a Success, this model
retains its Lookout marker and is not classed as Done. It can still only React once per triggering Action"."""


def reaction_order(tests: Iterable[tuple[int, int]]) -> tuple[list[int], list[list[int]]]:
    """The order in which Reacting models resolve their Reactions ("Resolving a Reaction"): ``tests`` gives each
    model's (Reaction Test score, Rank as its Grit Die's faces). "Descending order of scores (from highest score to
    lowest), regardless of whether you score a Success or not. In case of a tie, the higher Ranked model wins; if
    still tied, those models roll again." Returns the indices in resolving order and the groups (of two or more
    indices) still tied on score and Rank, which roll again among themselves."""
    tests = list(tests)
    order = sorted(range(len(tests)), key=lambda i: (-tests[i][0], -tests[i][1], i))
    groups: dict[tuple[int, int], list[int]] = {}
    for i in order:
        groups.setdefault(tests[i], []).append(i)
    return order, [g for g in groups.values() if len(g) > 1]
