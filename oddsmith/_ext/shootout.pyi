"""Type stubs of the compiled kernel oddsmith._ext.shootout (built from ext/shootout.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

AUTOMATON: int
HEURISTIC: int
LEGAL_MARGIN: int
RND_A: int
RND_A_WINS: int
RND_B: int
RND_B_WINS: int
RND_CAS_A: int
RND_CAS_B: int
RND_EQUAL_RANKS: int
RND_IDENTICAL: int
RND_SIZE: int
SEARCH: int

def simulate_hands(
    deck: npt.NDArray[np.uint8],
    stud: int,
    draw: int,
    margin: int,
    mode: int,
    bit_generator: Any,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def simulate_rounds(
    deck_a: npt.NDArray[np.uint8],
    stud_a: int,
    draw_a: int,
    margin_a: int,
    mode_a: int,
    deck_b: npt.NDArray[np.uint8],
    stud_b: int,
    draw_b: int,
    margin_b: int,
    mode_b: int,
    bit_generator: Any,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def kept_keys(
    hands: npt.NDArray[np.uint8],
    n: int,
    margin: int,
    keys: npt.NDArray[np.int64],
    cheat: npt.NDArray[np.uint8],
) -> None: ...
def heuristic_masks(
    hands: npt.NDArray[np.uint8],
    n: int,
    maxd: int,
    margin: int,
    masks: npt.NDArray[np.uint32],
) -> None: ...
def automaton_keys(
    hands: npt.NDArray[np.uint8],
    n: int,
    draws: int,
    keys: npt.NDArray[np.int64],
    cheat: npt.NDArray[np.uint8],
) -> None: ...
def heuristic_discard(hand: Any, maxd: int, margin: int) -> tuple[int, int, bool]: ...
def expected_rank(hand: npt.NDArray[np.uint8], mask: int, rem: npt.NDArray[np.int32], margin: int) -> float: ...
def best_discard(
    hand: npt.NDArray[np.uint8],
    maxd: int,
    rem: npt.NDArray[np.int32],
    margin: int,
) -> tuple[int, float]: ...
def discard_gap(
    deck: npt.NDArray[np.uint8],
    stud: int,
    draw: int,
    margin: int,
    bit_generator: Any,
    hands: int,
    e_heuristic: npt.NDArray[np.float64],
    e_search: npt.NDArray[np.float64],
    e_keep: npt.NDArray[np.float64],
    heuristic_mask: npt.NDArray[np.uint32],
    search_mask: npt.NDArray[np.uint32],
) -> None: ...
def exact_direct(counts: npt.NDArray[np.int32], n: int, margin: int, out: npt.NDArray[np.int64]) -> None: ...
def exact_values(counts: npt.NDArray[np.int32], n: int, margin: int, out: npt.NDArray[np.int64]) -> None: ...
