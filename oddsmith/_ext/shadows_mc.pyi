"""Type stubs of the compiled kernel oddsmith._ext.shadows_mc (built from ext/shadows_mc.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

FIGHT_SIDE_COLUMNS: tuple[str, ...]
SEQ_SHOT_COLUMNS: tuple[str, ...]
SHOT_COLUMNS: tuple[str, ...]

def mc_test(
    bit_generator: Any,
    D: int,
    T: int,
    one_face: int,
    n: int,
    reading: int,
    mode: int,
    rerolls: int,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def mc_successes(
    bit_generator: Any,
    D: int,
    T: int,
    n: int,
    reading: int,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def mc_shot(
    bit_generator: Any,
    p: npt.NDArray[np.int64],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    T: int,
    one_face: int,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def mc_shot_sequence(
    bit_generator: Any,
    target: npt.NDArray[np.int64],
    shots: npt.NDArray[np.int64],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    T: int,
    one_face: int,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def mc_fight(
    bit_generator: Any,
    att: npt.NDArray[np.int64],
    dfn: npt.NDArray[np.int64],
    reading: int,
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    T: int,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
