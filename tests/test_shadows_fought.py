"""Who a model counts as "the closest" when two enemies are equally near (KERNEL-NOTES Q36, docs/shadows-battles.md
section 1): edge-to-edge distances within 1e-6" are equal, and the tie goes to the first in the enemy's Activation
order, in the kernel (battle_table.tie2) and the reference (TableGame.closest) alike.

The case that found it: a gunline posse whose gun models close to exactly D* (8") of the same brawler stand at centre
distance 9" from it, one at a squared distance of 81.0, another at 80.99999999999999. The kernel compared squared
distances exactly and so sent the brawler (its Move, its Charge, its shots) at the Preacher, last in Activation order,
where the reference (math.hypot: 9.0 both) went at the Veteran before it: p_fought of that Veteran 0.32 in the
kernel against 0.39 in the reference, the Preacher's 0.48 against 0.43."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

import reference_table as RT
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_table import QUICK_TWIN_GAMES, check_agreement

K = B._K
PRICES = {"Sixgun": 6, "Repeater Rifle": 8, "Heavy Pistol": 4, "Telescopic Sight": 4, "Derringer": 3}


def _posse(name: str, models: list[dict], check: bool = True) -> P.Posse:
    posse = P.posse_from_dict({"posse": {"name": name, "method": "advanced", "dollar_limit": 1000},
                               "prices": dict(PRICES), "model": models}, name)
    if check:
        P.check_posse(posse)
    return posse


def _m(name, rank, weapons, skills=(), gear=()):
    return {"name": name, "rank": rank, "weapons": list(weapons), "skills": list(skills), "gear": list(gear),
            "injuries": []}


def gunline_vs_brawl_case():
    """The disagreeing case: a gunline posse of five and a Preacher against four brawlers, Cover 0.5 per shot."""
    a = _posse("A", [
        _m("A 0", "Hero", ["Carbine", "Pistol", "Pistol"]),
        _m("A 1", "Veteran", ["Pistol", "Heavy Pistol", "Shotgun"], ["Fearsome"]),
        _m("A 2", "Veteran", ["Shotgun", "Heavy Pistol"]),
        _m("A 3", "Veteran", ["Pistol", "Carbine"], ["Fearsome"]),
        _m("A 4", "Novice", ["Repeater Rifle"], ["Deadeye"], ["Dynamite", "Telescopic Sight"]),
        {"name": "A preacher", "hired_gun": "Preacher", "weapons": ["Pistol"]},
    ])
    b = _posse("B", [
        _m("B 0", "Hero", ["Pistol", "Pistol", "Carbine"], ["Fearsome"]),
        _m("B 1", "Veteran", ["Pistol", "Pistol"], (), ["Dynamite"]),
        _m("B 2", "Novice", ["Repeater Rifle"], ["Hard to Kill", "Lead-Belly"], ["Boilerplate", "Telescopic Sight"]),
        _m("B 3", "Novice", ["Carbine"], ["Hard to Kill", "Trigger-Happy"], ["Telescopic Sight"]),
    ])
    opts = B.battle_options(movement="table", terrain="0.5", plan="gunline", vs_plan="brawl", turns=8,
                            targets="most-dangerous", activation="auto", lone_gun="at-once")
    return B.prepare(a, b, opts)


def test_the_case_is_the_one_reported():
    st = gunline_vs_brawl_case()
    assert B.danger_order(st.a) == [4, 0, 1, 2, 3, 5]   # the Veteran A 3 before the Preacher
    assert st.a.models[3].style == "gun" and st.a.models[3].desired_inches == 8.0
    assert all(m.style == "brawl" for m in st.b.models)


@pytest.mark.quick_twin("test_kernel_agrees_with_reference")
def test_kernel_agrees_with_reference_quick():
    check_agreement(gunline_vs_brawl_case(), QUICK_TWIN_GAMES, 2002)


@pytest.mark.slow
def test_kernel_agrees_with_reference():
    check_agreement(gunline_vs_brawl_case(), 3_000, 2002)


# Hand-made: a brawler (B 0) and two equally dangerous gun models at centre distance 9" from it, the first in
# Activation order (A 0) at squared distance 81.0, the second (A 1) at 80.99999999999999 (positions from a game).
ME = (17.920817858365368, 19.466134075143017)
FIRST = (10.92097316315652, 13.809087651172595)
SECOND = (13.256550738755035, 11.769081896748881)
VET = _m("V", "Veteran", ["Pistol"])


def _tie_setup():
    opts = B.battle_options(movement="table", terrain="open", plan="gunline", vs_plan="brawl", targets="closest")
    return B.prepare(_posse("A", [VET, VET], False), _posse("B", [_m("N", "Novice", ["Pistol"])], False), opts,
                     check=False)


def test_the_positions_tie_only_up_to_rounding():
    d2 = [(x - ME[0]) ** 2 + (y - ME[1]) ** 2 for x, y in (FIRST, SECOND)]
    assert d2[1] < d2[0] and math.isclose(d2[0], d2[1], rel_tol=1e-14)
    assert math.hypot(FIRST[0] - ME[0], FIRST[1] - ME[1]) == pytest.approx(9.0, abs=1e-9)


def _probe(st, kind, trials, seed=1):
    pos = np.zeros((2, K.MAX_MODELS, 2))
    stt = np.zeros((2, K.MAX_MODELS, 3), dtype=np.int32)
    for (s, m), xy in {(0, 0): FIRST, (0, 1): SECOND, (1, 0): ME}.items():
        pos[s, m] = xy
        stt[s, m, 0] = 1
    out = np.zeros((2, K.MAX_MODELS, 4), dtype=np.int64)
    did = np.zeros(K.PROBE_DID_SIZE, dtype=np.int64)
    last = np.zeros((2, K.MAX_MODELS, 2))
    K.table_probe(np.random.PCG64(seed), st.models, st.weapons, st.n_models, st.order, st.opts, E.SAVE_TABLE_ARRAY,
                  E.DAMAGE_ARRAY, st.n_models.copy(), pos, stt, K.PROBE_KINDS.index(kind), 1, 0, 0, trials, out, did,
                  last)
    return out, did, last


def _toward(target, inches=4.0):
    d = math.dist(ME, target)
    return (ME[0] + (target[0] - ME[0]) / d * inches, ME[1] + (target[1] - ME[1]) / d * inches)


def test_kernel_brawler_moves_toward_the_first_of_two_equally_near():
    st = _tie_setup()
    assert B.danger_order(st.a) == [0, 1]
    _, did, last = _probe(st, "action", 1)
    assert did[1] == 1   # a Move (the gap of 8" is beyond a Charge)
    assert tuple(last[1, 0]) == pytest.approx(_toward(FIRST), abs=1e-9)


def test_kernel_shoots_the_first_of_two_equally_near():
    """The legal Target among candidates with the same dice (no Cover on an open table) is the closest, ties by
    Activation order: only A 0 is ever hit."""
    out, did, _ = _probe(_tie_setup(), "shoot", 3000)
    hit = lambda m: 3000 - out[0, m, 0] + out[0, m, 1] + out[0, m, 2]   # noqa: E731
    assert hit(0) > 300 and hit(1) == 0


def test_reference_picks_the_first_of_two_equally_near():
    st = _tie_setup()
    g = RT.TableGame(st, random.Random(1))
    (a0, a1), (b0,) = g.sides
    (a0.x, a0.y), (a1.x, a1.y), (b0.x, b0.y) = FIRST, SECOND, ME
    assert g.closest(b0, [a1, a0]) is a0
    wp = b0.plan.weapons[0]
    assert all(g.choose_target(b0, wp, False)[0] is a0 for _ in range(20))
    assert g.brawl_action(b0, set(), [], False) == "move"
    assert (b0.x, b0.y) == pytest.approx(_toward(FIRST), abs=1e-9)
    # a real difference still counts: 1e-5" nearer wins whatever the order
    b0.x, b0.y = ME
    a1.x, a1.y = ME[0] + (SECOND[0] - ME[0]) * (1 - 2e-6), ME[1] + (SECOND[1] - ME[1]) * (1 - 2e-6)
    assert g.closest(b0, [a0, a1]) is a1
