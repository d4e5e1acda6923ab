"""Type stubs of the compiled kernel oddsmith._ext.shadows_battle (built from ext/shadows_battle.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

ENTITY_SLOT: int
HEAD_COLUMNS: tuple[str, ...]
MAX_MODELS: int
MAX_WEAPONS: int
MODEL_COLUMNS: tuple[str, ...]
N_OUT: int
OPTION_COLUMNS: tuple[str, ...]
PAIRED_FIGURES: tuple[str, ...]
PAIR_SUMS: tuple[str, ...]
PROBE_KINDS: tuple[str, ...]
PROBE_DID_NAMES: tuple[str, ...]
PROBE_DID_SIZE: int
RECORD_COLUMNS: tuple[str, ...]
SNAP_BYTES: int
TOUCH_COLUMNS: tuple[str, ...]
TOUCH_BITS: tuple[int, ...]
WEAPON_COLUMNS: tuple[str, ...]

def card_keys() -> list[int]: ...
def mc_battle(
    bit_generator: Any,
    models: npt.NDArray[np.int32],
    weapons: npt.NDArray[np.int32],
    n_models: npt.NDArray[np.int32],
    order: npt.NDArray[np.int32],
    options: npt.NDArray[np.int32],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    event_codes: npt.NDArray[np.int32],
    dynamite_failed: npt.NDArray[np.int32],
    trials: int,
    out: npt.NDArray[np.int64],
    record: npt.NDArray[np.int8] | None = None,
    paired: npt.NDArray[np.int8] | None = None,
    pair_out: npt.NDArray[np.int64] | None = None,
    touched: npt.NDArray[np.int32] | None = None,
    paired_touched: npt.NDArray[np.int32] | None = None,
    skip_model: int = -1,
    skip_mask: int = 0,
    saves: npt.NDArray[np.uint8] | None = None,
    saved: npt.NDArray[np.int32] | None = None,
    paired_saves: npt.NDArray[np.uint8] | None = None,
    paired_saved: npt.NDArray[np.int32] | None = None,
    resumed: npt.NDArray[np.int64] | None = None,
) -> int: ...
def mc_first_round(
    bit_generator: Any,
    hand_a: int,
    hand_b: int,
    roll_off_die: int,
    trials: int,
    out: npt.NDArray[np.int64],
) -> None: ...
def table_slots(options: npt.NDArray[np.int32]) -> list[list[tuple[float, float]]]: ...
def table_probe(
    bit_generator: Any,
    models: npt.NDArray[np.int32],
    weapons: npt.NDArray[np.int32],
    n_models: npt.NDArray[np.int32],
    order: npt.NDArray[np.int32],
    options: npt.NDArray[np.int32],
    save_table: npt.NDArray[np.int32],
    damage: npt.NDArray[np.int32],
    in_game: npt.NDArray[np.int32],
    positions: npt.NDArray[np.float64],
    state: npt.NDArray[np.int32],
    kind: int,
    side: int,
    model: int,
    arg: int,
    trials: int,
    out: npt.NDArray[np.int64],
    did: npt.NDArray[np.int64],
    last: npt.NDArray[np.float64],
    turn_events: int = 0,
) -> None: ...
