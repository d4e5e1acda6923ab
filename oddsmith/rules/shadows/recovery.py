"""The Recovery Phase ("Make Recovery Tests", "Bottle Checks") and the other single-die Tests ("Disengaging From Contact", Spotting, Reactions, Nerve).

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum

from oddsmith.errors import OddsmithError

# ---------------------------------------------------------------------------
# Recovery Phase ("Make Recovery Tests", "Bottle Checks")
# ---------------------------------------------------------------------------


class RecoveryResult(enum.Enum):
    """Recovery Test results ("The Recovery Phase: 2")."""

    CASUALTY = "Casualty"
    REMAINS_DOWNED = "remains Downed"
    STANDS_SHAKEN = "stands up Shaken"


RECOVERY_TABLE: tuple[tuple[int, int | None, RecoveryResult], ...] = (
    (0, 0, RecoveryResult.CASUALTY),
    (1, 2, RecoveryResult.REMAINS_DOWNED),
    (3, None, RecoveryResult.STANDS_SHAKEN),
)
"""Recovery Test Successes -> result: 0 Casualty, 1-2 remains Downed, 3+ stands up Shaken."""


def recovery_result(successes: int) -> RecoveryResult:
    for low, high, result in RECOVERY_TABLE:
        if successes >= low and (high is None or successes <= high):
            return result
    raise OddsmithError(f"successes must not be negative, got {successes}")


BOTTLE_CHECK_BOSS_DICE = 3
BOTTLE_CHECK_STAND_IN_DICE = 1
"""Bottle Check: the Boss rolls an unmodified 3 Dice Nerve Test; if the Boss is Downed or gone the next
highest Rank rolls 1 Die; at least 1 Success and the Posse fights on ("Bottle Checks")."""


def bottle_check_required(models_at_start: int, models_standing: int) -> bool:
    """A Posse checks when reduced to half its starting models or fewer (rounded down); Downed models do not count."""
    return models_standing <= models_at_start // 2


BOTTLE_CHECK_REROLLS = {
    "Nerves of Steel": "may re-roll any one Die result on all its Nerve Tests, including Bottle Checks",
    "Preacher": "may re-roll a single Die of the Bottle Check if the Preacher is on the table and not Down",
    "Whiskey": "automatically passes all Nerve Tests this Turn, including Bottle Checks",
}
"""What changes a Bottle Check's dice (Gumption Skills Table, Hired Guns, Horses and Gear Summary)."""


# ---------------------------------------------------------------------------
# Other single-die Tests ("Disengaging From Contact", Spotting, Reactions, Nerve)
# ---------------------------------------------------------------------------

DISENGAGE_FAIL_SAVE = 5
"""A failed Disengage Test: a 5+ Save for each enemy the model was in Contact with ("Disengaging From Contact")."""

SPOTTING_REROLL_SKILL = "Hawkeye"
REACTION_REROLL_SKILL = "Quickdraw"
NERVE_REROLL_SKILL = "Nerves of Steel"

FEARSOME_NERVE_DICE = 1
"""Fearsome: enemies wishing to Fight the model pass a 1 Die Nerve Test or suffer -1 Die on their Fight Tests."""

TRANSFIX_NERVE_DICE = 1
