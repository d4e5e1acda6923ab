"""Type stubs of the compiled kernel oddsmith._ext.full_shootout (built from ext/full_shootout.pyx).

Written to match the module's Python-facing signatures; tests/test_packaging.py
checks that the names here are exactly the compiled module's public names. The
kernels are called only through their wrapper module (docs/design.md, 'Kernels'),
which checks every input; arrays must be C-contiguous with the dtypes shown.
"""
from typing import Any

import numpy as np
import numpy.typing as npt

BONUSES: int
MAX_CARDS: int
MAX_DECK: int
MAX_DUDES: int
MAX_SIDEKICKS: int
N_FATES: int
ROUND_CAP: int
S_A_FLED: int
S_A_WINS: int
S_BOUNTY_A: int
S_BOUNTY_A_SQ: int
S_BOUNTY_B: int
S_BOUNTY_B_SQ: int
S_B_FLED: int
S_B_WINS: int
S_CAP: int
S_LOST_A: int
S_LOST_A_SQ: int
S_LOST_B: int
S_LOST_B_SQ: int
S_NOBODY: int
S_RESHUFFLE_A: int
S_RESHUFFLE_ANY: int
S_RESHUFFLE_B: int
S_ROUNDS: int
S_ROUNDS_SQ: int
S_SIZE: int

def simulate(
    deck_a: npt.NDArray[np.uint8],
    dudes_a: npt.NDArray[np.int32],
    sk_a: npt.NDArray[np.int32],
    policy_a: npt.NDArray[np.int32],
    shoot_a: npt.NDArray[np.int32],
    cas_a: npt.NDArray[np.int32],
    deck_b: npt.NDArray[np.uint8],
    dudes_b: npt.NDArray[np.int32],
    sk_b: npt.NDArray[np.int32],
    policy_b: npt.NDArray[np.int32],
    shoot_b: npt.NDArray[np.int32],
    cas_b: npt.NDArray[np.int32],
    pw_a: npt.NDArray[np.float64],
    pw_b: npt.NDArray[np.float64],
    gen_a: Any,
    gen_b: Any,
    trials: int,
    summary: npt.NDArray[np.int64],
    rounds_hist: npt.NDArray[np.int64],
    fates: npt.NDArray[np.int64],
    per_winner: npt.NDArray[np.int8],
    per_lost_a: npt.NDArray[np.int8],
    per_lost_b: npt.NDArray[np.int8],
) -> None: ...
def sample_keys(
    deck: npt.NDArray[np.uint8],
    stud: int,
    draw: int,
    margin: int,
    mode: int,
    bit_generator: Any,
    keys: npt.NDArray[np.int64],
) -> None: ...
def take_lumps(
    dudes: npt.NDArray[np.int32],
    skcodes: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int32],
    order_cas: npt.NDArray[np.int32],
    casualties: int,
    fates: npt.NDArray[np.int32],
    sidekicks_left: npt.NDArray[np.int32],
    discarded_cards: npt.NDArray[np.int32],
) -> int: ...
