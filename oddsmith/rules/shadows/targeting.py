"""Choosing a Target ("Shoot: 1: Declare Weapon and Target") and the Spotting Test.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

from fractions import Fraction

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows.dice import SUCCESS_ON, TESTS, TestKind

# ---------------------------------------------------------------------------
# Declare Weapon and Target ("Shoot: 1"), Spotting Tests
# ---------------------------------------------------------------------------

TARGET_RULE = ("the closest visible enemy model, unless a more distant one is an easier Target, or any model on a 40mm "
               "base or larger; any other visible enemy only after a passed 1 Die Spotting Test (a Failure wastes the "
               "Action)")
"""Who may be Shot at ("Shoot: 1: Declare Weapon and Target"): Downed models may not be Shot at and models in a Fight
"can be ignored"."""

ALWAYS_TARGETED_BASE_MM = 40
""""Models on 40mm diameter (or more) bases are so large that they can always be Targeted, even if they are not the
closest visible enemy model to the Shooter" ("Shoot: 1"): a rider, a Beast Form, a Major Entity."""

SPOTTING_TEST_DICE = TESTS[TestKind.SPOTTING].base_dice
"""A Spotting Test is a 1 Die Test on the model's Grit Die ("Shoot: 1")."""

SPOTTING_FAIL_WASTES_ACTION = True
"""A failed Spotting Test: "the model loses its chance to Shoot entirely and its Action is wasted"."""


def spotting_pass_chance(die: int, hawkeye: bool = False) -> Fraction:
    """Chance a 1 Die Spotting Test on a D``die`` passes (Hawkeye re-rolls a Failure): D6 1/3, D8 1/2, D10 3/5."""
    if die < 2:
        raise OddsmithError(f"a Grit Die has at least 2 faces, got D{die}")
    p = Fraction(max(die - SUCCESS_ON + 1, 0), die)
    return 1 - (1 - p) ** 2 if hawkeye else p
