"""Type stubs of the compiled kernel oddsmith._ext.shadows_exact (built from ext/shadows_exact.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""

import numpy as np
import numpy.typing as npt

FIGHT_OUTCOMES: tuple[str, ...]
FIGHT_SIDE_COLUMNS: tuple[str, ...]
MAX_DICE_PER_TEST: int
MAX_DIE_FACES: int
MAX_SEQUENCE_SHOTS: int
SEQ_OUTCOMES: tuple[str, ...]
SEQ_SHOT_COLUMNS: tuple[str, ...]
SEQ_TARGET_COLUMNS: tuple[str, ...]
SHOT_COLUMNS: tuple[str, ...]
SHOT_OUTCOMES: tuple[str, ...]

def test_joint(
    D: int,
    T: int,
    one_face: int,
    n: int,
    reading: int,
    mode: int,
    rerolls: int,
    track_high: bool = ...,
    track_one: bool = ...,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], int]: ...
def shot_table(
    rows: npt.NDArray[np.int64],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    T: int,
    one_face: int,
    want_counts: bool = ...,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...
def shot_sequence_table(
    targets: npt.NDArray[np.int64],
    shots: npt.NDArray[np.int64],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    T: int,
    one_face: int,
    want_counts: bool = ...,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint8]]: ...
def fight_table(
    attackers: npt.NDArray[np.int64],
    defenders: npt.NDArray[np.int64],
    readings: npt.NDArray[np.int64],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    T: int,
    want_counts: bool = ...,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint8]]: ...
