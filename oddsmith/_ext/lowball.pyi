"""Type stubs of the compiled kernel oddsmith._ext.lowball (built from ext/lowball.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

def evaluate(hands: npt.NDArray[np.uint8], keys: npt.NDArray[np.uint32], cheatin: npt.NDArray[np.uint8]) -> None: ...
def exact_by_values(
    counts: npt.NDArray[np.uint8],
    cls_jokers: npt.NDArray[np.uint8],
    cls_pairs: npt.NDArray[np.uint8],
    cls_value: npt.NDArray[np.uint8],
    cls_count: npt.NDArray[np.uint8],
    cls_distinct: npt.NDArray[np.uint8],
    ix_plain: npt.NDArray[np.int32],
    ix_flush: npt.NDArray[np.int32],
    dmh_class: int,
    dmh_ix: int,
    dmh_codes: npt.NDArray[np.uint8],
    out_hands: npt.NDArray[np.int64],
    out_cheatin: npt.NDArray[np.int64],
) -> None: ...
def exact_by_cards(
    counts: npt.NDArray[np.uint8],
    keys: npt.NDArray[np.uint32],
    out_hands: npt.NDArray[np.int64],
    out_cheatin: npt.NDArray[np.int64],
) -> int: ...
def simulate_deck(deck: npt.NDArray[np.uint8], bit_generator: Any, trials: int, out: npt.NDArray[np.int64]) -> None: ...
def simulate_matchup(
    deck_a: npt.NDArray[np.uint8],
    deck_b: npt.NDArray[np.uint8],
    bit_generator: Any,
    trials: int,
    out: npt.NDArray[np.int64],
) -> int: ...
def simulate_table(
    decks: npt.NDArray[np.uint8],
    sizes: npt.NDArray[np.int32],
    bit_generator: Any,
    trials: int,
    out: npt.NDArray[np.int64],
    out_table: npt.NDArray[np.int64],
) -> int: ...
