"""Type stubs of the compiled kernel oddsmith._ext.hand_eval (built from ext/hand_eval.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

def evaluate(
    cards: npt.NDArray[np.uint8],
    lengths: npt.NDArray[np.uint8],
    lowball: bool,
    key: npt.NDArray[np.int64],
    cheatin: npt.NDArray[np.uint8],
    five: npt.NDArray[np.uint8],
    ident: npt.NDArray[np.uint8],
    kept: npt.NDArray[np.uint32],
    legal_key: npt.NDArray[np.int64],
    legal_five: npt.NDArray[np.uint8],
    legal_ident: npt.NDArray[np.uint8],
    legal_kept: npt.NDArray[np.uint32],
) -> None: ...
def evaluate_keys(
    cards: npt.NDArray[np.uint8],
    lengths: npt.NDArray[np.uint8],
    lowball: bool,
    key: npt.NDArray[np.int64],
    legal_key: npt.NDArray[np.int64],
) -> None: ...
def evaluate_five(
    cards: npt.NDArray[np.uint8],
    lowball: bool,
    key: npt.NDArray[np.int64],
    cheatin: npt.NDArray[np.uint8],
) -> None: ...
def sample_rank_counts(
    deck: npt.NDArray[np.uint8],
    hand_size: int,
    n_hands: int,
    bit_generator: Any,
    best_counts: npt.NDArray[np.int64],
    legal_counts: npt.NDArray[np.int64],
) -> int: ...
