"""Bases as geometry (docs/shadows-battles.md section 11d): "All distances are measured from the edge of the base",
and a rider's base is 40mm ("Mounted models have a 40mm diameter base"), 1.6" on the table's scale."""
from __future__ import annotations

from dataclasses import replace

import pytest

import reference_table as RT
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from test_shadows_horses import mounted_plan, rider
from test_shadows_table import FakePlan, model, table
from test_shadows_table_kernel import NOV, VET, _probe, _setup

TOUCH = (R.base_inches(R.BASE_MM) + R.base_inches(R.MOUNTED_BASE_MM)) / 2   # a 25mm and a 40mm base in Contact


def test_base_inches():
    assert R.base_inches(R.BASE_MM) == R.BASE_INCHES and R.base_inches(R.MOUNTED_BASE_MM) == pytest.approx(1.6)
    assert TOUCH == pytest.approx(1.3)
    with pytest.raises(ValueError, match="a base is a positive number of mm"):
        R.base_inches(0)


def test_reference_measures_edge_to_edge_with_each_base():
    g = table([(mounted_plan(), (10, 10))], [(FakePlan(model("T")), (10 + TOUCH, 10))])
    r, t = g.sides[0][0], g.sides[1][0]
    assert r.radius == pytest.approx(0.8) and t.radius == pytest.approx(0.5)
    assert RT.in_contact(r, t) and RT.gap(r, t) == pytest.approx(0, abs=1e-9)
    t.x += 0.5
    assert not RT.in_contact(r, t) and RT.gap(r, t) == pytest.approx(0.5)
    # the table's edge: a rider's centre stays 0.8" in
    g.move_towards(r, -5, 10, r.move_inches)
    assert r.x == pytest.approx(4.0)
    g.move_towards(r, -5, 10, r.move_inches)
    assert r.x == pytest.approx(0.8)


def test_reference_charge_ends_touching_and_the_one_inch_rule_counts_both_bases():
    g = table([(FakePlan(model("B"), style="brawl"), (10, 10))], [(mounted_plan(rank="Novice"), (14.5, 10))])
    m, r = g.sides[0][0], g.sides[1][0]
    g.fight = lambda *a, **kw: None
    assert g.charge(m, r) and m.x == pytest.approx(14.5 - TOUCH) and RT.in_contact(m, r)
    # a plain Move toward the rider stops with 1" between the bases' edges: centres 2.3" apart
    g = table([(FakePlan(model("B")), (10, 10))], [(mounted_plan(rank="Novice"), (14.5, 10))])
    m = g.sides[0][0]
    g.move_towards(m, 14.5, 10, 4)
    assert m.x == pytest.approx(14.5 - TOUCH - R.ENEMY_CLEARANCE_INCHES)


def test_reference_rider_downed_in_contact_is_placed_touching_still():
    """Off its horse the Downed rider stands on a 25mm base; it touched the enemy, so it is placed touching it still:
    its centre 0.3" nearer. Not in Contact, it stays where it stood."""
    g = table([(mounted_plan(), (10, 10))], [(FakePlan(model("T")), (10 + 1.6 / 2 + 0.5, 10))])
    m, t = g.sides[0][0], g.sides[1][0]
    g.damage(m, 1, None)
    g.damage(m, 1, None)
    assert m.downed and not m.mounted and m.x == pytest.approx(10.3) and RT.in_contact(m, t)
    g = table([(mounted_plan(), (10, 10))], [(FakePlan(model("T")), (15, 10))])
    m = g.sides[0][0]
    g.damage(m, 1, None)
    g.damage(m, 1, None)
    assert m.downed and not m.mounted and m.x == 10


def test_kernel_charge_ends_touching_a_rider_and_base_mm_zero_restores_standard_bases():
    """A foot brawler 4.5" (centres) from a mounted Novice: gap 3.2", it Charges and ends with centres 1.3" apart;
    with the option base_mm 0 every base is standard and it ends 1" apart."""
    st = _setup([VET], [rider("R", "Novice")], plan="brawl")
    where = {(0, 0): (10, 10), (1, 0): (14.5, 10)}
    _, did, last = _probe(st, "action", 0, 0, 1, where=where, trials=5, riding=True)
    assert did[4] == 5 and last[0, 0, 0] == pytest.approx(14.5 - TOUCH)
    opts = st.opts.copy()
    opts[B._K.OPTION_COLUMNS.index("base_mm")] = 0
    _, did, last = _probe(replace(st, opts=opts), "action", 0, 0, 1, where=where, trials=5, riding=True)
    assert did[4] == 5 and last[0, 0, 0] == pytest.approx(14.5 - R.BASE_INCHES)


def test_kernel_rider_downed_in_a_fight_is_placed_touching_still():
    """Kernel and reference alike: a mounted Novice Downed in a Fight against a Mean Veteran stands 0.3" nearer it
    (centres 1" apart, in Contact); Shaken or unhurt it rides on where it stood (one trial per seed)."""
    st = _setup([{**VET, "skills": ["Mean"]}], [rider("D", "Novice")])
    where = {(0, 0): (10, 10), (1, 0): (10 + TOUCH, 10)}
    downed = 0
    for seed in range(300):
        out, _, last = _probe(st, "fight", 0, 0, 1, where=where, trials=1, seed=seed, riding=True)
        if out[1, 0, 1]:
            downed += 1
            assert last[1, 0, 0] == pytest.approx(10 + R.BASE_INCHES) and not out[1, 0, 4]
        elif out[1, 0, 0]:
            assert last[1, 0, 0] == pytest.approx(10 + TOUCH)
    assert downed > 0



@pytest.mark.parametrize("horse", [True, False])
def test_kernel_shoots_to_its_long_range_from_its_own_edge(horse):
    """A Pistol's Long Range, 12", is measured from the Shooter's own base: a Novice 13.25" away (centres) is 11.95"
    from a rider's 40mm edge, shot at; on foot the gap is 12.25" and there is nobody to shoot (kernel, 2,000 Shoot
    Actions)."""
    shooter = rider("R", "Veteran") if horse else VET
    st = _setup([shooter], [NOV], plan="gunline")
    out, _, _ = _probe(st, "shoot", 0, 0, where={(0, 0): (10, 10), (1, 0): (23.25, 10)}, trials=2_000, seed=61,
                       riding=True)
    hurt = out[1, 0, 1] + out[1, 0, 2] + out[1, 0, 3]
    assert (hurt > 0) == horse
