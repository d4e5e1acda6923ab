"""Moving ("Move", "And Falling").

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import math

from oddsmith.errors import OddsmithError

# ---------------------------------------------------------------------------
# Moving ("And Falling", "Move")
# ---------------------------------------------------------------------------

MOVE_INCHES = 4
MOUNTED_MOVE_INCHES = 6
APPALOOSA_MOVE_INCHES = 8
DOWNED_CRAWL_INCHES = 2
LEAP_MAX_INCHES = 4
FALLING_BASE_SAVE = 5
FALLING_INCHES_PER_STEP = 2
FALLING_FREE_DROP_INCHES = 2
"""A drop greater than 2" counts as falling ("Climbing and Leaping")."""


def falling_save_target(inches: float) -> int:
    """Save a falling model makes: 5+, one worse for every additional full 2" fallen ("And Falling").

    The book's example: 4" needs 6+, 5" still 6+.
    """
    if inches < 0:
        raise OddsmithError(f"a fall cannot be negative, got {inches}\"")
    extra = max(0.0, float(inches) - FALLING_FREE_DROP_INCHES)
    return FALLING_BASE_SAVE + int(math.floor(extra / FALLING_INCHES_PER_STEP + 1e-9))


FALLEN_ONTO_SAVE = 5
"""A model landed on by a falling model makes a 5+ Save ("And Falling")."""


# ---------------------------------------------------------------------------
# The table ("What You Need", "Deployment", "Measuring", "Other Models", "Charging Enemy Models")
# ---------------------------------------------------------------------------

TABLE_INCHES = 36
"""The standard table: "three foot by three foot being the standard size" ("What You Need")."""

DEPLOYMENT_ZONE_INCHES = 8
""""A Deployment Zone is an 8" x 8" square extending outward from the corner of the table" ("Deployment Zones")."""

BASE_INCHES = 1.0
"""Every model of the book's profiles stands on a 25mm round base, read as 1" across ("What You Need")."""
BASE_MM = 25
"""That base in mm (a 40mm one, a Major Entity's or a Beast Form's, is larger: the bear-hug compares them)."""
MOUNTED_BASE_MM = 40
""""Mounted models have a 40mm diameter base" ("Mounted Models")."""


def base_inches(base_mm: int) -> float:
    """A base's diameter in inches on the table's scale, where a 25mm base is ``BASE_INCHES`` across ("Measuring":
    every distance is measured edge to edge, so a larger base reaches further and touches sooner; docs/shadows-battles.md
    section 11d).

    >>> base_inches(25), base_inches(40)
    (1.0, 1.6)
    >>> base_inches(0)
    Traceback (most recent call last):
    ...
    ValueError: a base is a positive number of mm, not 0
    """
    if base_mm <= 0:
        raise ValueError(f"a base is a positive number of mm, not {base_mm}")
    return base_mm * BASE_INCHES / BASE_MM

ENEMY_CLEARANCE_INCHES = 1
"""A model "cannot voluntarily Move closer than 1" to an enemy model unless you intend to Contact" ("Other Models")."""

FLYING_IGNORES_OTHER_MODELS = True
""""Flying Models: These models may ignore all other models and terrain as they Move" and "are assumed to start and end
each Move Action on the ground ... in a position where the model can physically stand" ("Types of Model"). *Reading*
(docs/shadows-battles.md section 2): the 1" of "Other Models" does not stop a Flying model on its way; where it ends,
it holds."""

CHARGE_REACH_INCHES = MOVE_INCHES
"""A Charge is a Move that ends in Contact: the Target must be within one Move (edge to edge) ("Charging Enemy Models")."""

DISENGAGE_MOVE_INCHES = MOVE_INCHES
"""A Disengage is a Move Action started in Contact ("Disengaging From Contact")."""
