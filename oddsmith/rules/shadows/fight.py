"""Fights ("Fight"), Shoves and Downed defenders.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from typing import Iterable

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows.dice import FightModifier, is_success

# ---------------------------------------------------------------------------
# Fight ("Fight"), Shove, Downed defenders
# ---------------------------------------------------------------------------


class FightResult(enum.Enum):
    """Outcome of a Fight from the Attacker's side ("Fight: 2")."""

    ATTACKER_WINS = "attacker wins"
    DEFENDER_WINS = "defender wins"
    DRAW = "draw"


TIE_BREAK_MARGIN = 1
"""Equal Successes: "the model with the single highest scoring Die wins by 1" ("Fight: 2")."""


def fight_result(attacker_scores: Iterable[int], defender_scores: Iterable[int]) -> tuple[FightResult, int]:
    """Winner and margin of a Fight from both models' final Dice scores (plain reference rule).

    More Successes wins by the difference; equal Successes: the higher single
    Die wins by 1; equal highest Dice: a Draw (margin 0).
    """
    a = list(attacker_scores)
    d = list(defender_scores)
    sa = sum(1 for s in a if is_success(s))
    sd = sum(1 for s in d if is_success(s))
    if sa > sd:
        return FightResult.ATTACKER_WINS, sa - sd
    if sd > sa:
        return FightResult.DEFENDER_WINS, sd - sa
    ha, hd = max(a), max(d)
    if ha > hd:
        return FightResult.ATTACKER_WINS, TIE_BREAK_MARGIN
    if hd > ha:
        return FightResult.DEFENDER_WINS, TIE_BREAK_MARGIN
    return FightResult.DRAW, 0


SHOVE_INCHES_PER_SUCCESS = 1
"""Shove: the loser is pushed 1" per Success lost by, at most 1" if on a larger base ("Shove")."""


def shove_distance(margin: int, target_on_larger_base: bool = False) -> int:
    """Inches a Shove pushes the loser of a Fight lost by ``margin``."""
    if margin < 1:
        raise OddsmithError(f"a Shove needs a winner, margin must be at least 1, got {margin}")
    return min(margin, 1) if target_on_larger_base else margin * SHOVE_INCHES_PER_SUCCESS


DOWNED_DEFENDER_IS_CASUALTY = True
"""A Downed model that is Fought makes no Fight Test and is removed as a Casualty ("Downed")."""


# ---------------------------------------------------------------------------
# The Die Modifiers of a Fight Test on the table ("Fight Modifiers", Fighting Skills Table, Gear, Injuries)
# ---------------------------------------------------------------------------

FIGHT_TEST_MODIFIERS: tuple[FightModifier, ...] = (
    FightModifier.CHARGING, FightModifier.OUTNUMBERED, FightModifier.MEAN, FightModifier.CLOSE_WORK,
    FightModifier.DERRINGER, FightModifier.FEARSOME, FightModifier.WEAKENED,
)
"""Every Die Modifier the table battle applies to a Fight Test (the Fortified row needs terrain, Wolf Form a
Skinwalker in Beast Form: neither is on this table); ``FightModifier.X.dice`` is the number."""

BULL_RUSH_SAVE_MODIFIER = -1
"""Bull-Rush: "If this model Charges and wins the ensuing Fight, the Defender suffers a -1 Save Modifier"."""

FIGHT_DRAW_EFFECT = "no effect"
"""Equal Successes and equal highest Dice: "the Fight is a Draw and nothing happens" ("Roll to Strike")."""
