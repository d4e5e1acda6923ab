"""Models on 40mm bases "can always be Targeted, even if they are not the closest visible enemy model to the
Shooter" ("Shoot: 1: Declare Weapon and Target"; docs/shadows-battles.md section 3): a rider, a Beast Form, a Major
Entity. The rule as data, the reference's choice on scripted dice, the kernel's shots against exact odds, and a
paired measure of what it changes in whole battles."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_horses import mounted_plan, rider
from test_shadows_table import Dice, FakePlan, model, pistol_plan, table
from test_shadows_table_kernel import NOV, _probe, _setup

BIG = B._K.OPTION_COLUMNS.index("big_target_mm")


def rule_off(st: B.BattleSetup) -> B.BattleSetup:
    """The same set-up with the 40mm rule switched off (option big_target_mm 0)."""
    opts = st.opts.copy()
    opts[BIG] = 0
    return replace(st, opts=opts)


# ---------------------------------------------------------------------------- the rule as data


def test_the_rule_is_data():
    assert R.ALWAYS_TARGETED_BASE_MM == 40
    assert R.MOUNTED_BASE_MM >= R.ALWAYS_TARGETED_BASE_MM and R.BEAST_FORM_BASE_MM >= R.ALWAYS_TARGETED_BASE_MM
    assert "40mm" in R.TARGET_RULE
    assert B.prepare(P.sample_posse(None), P.sample_posse(None)).opts[BIG] == 40


# ---------------------------------------------------------------------------- the reference on scripted dice


def test_reference_shoots_a_preferred_rider_without_a_spotting_test():
    """most-dangerous prefers the Far model, the Near one (2" away) is the legal Target. On foot 3" away, a Veteran
    (D8: a Spotting Test passes 1/2) tests and a 3 wastes the Action; on horseback Far is shot with no Test (no die
    rolled) when its shot has the legal Target's dice (both at Short Range), and at Medium Range (fewer dice) the
    Near one is shot, again with no Test."""
    shooter = FakePlan(model("S", "Veteran"), weapons=(pistol_plan(),), style="gun")
    near = FakePlan(model("Near"), danger=1.0)
    wp = shooter.weapons[0]
    for far, y, want in ((FakePlan(model("Far"), danger=5.0), 14, "wasted"),
                         (replace(mounted_plan("Far"), danger=5.0), 14, "Far"),
                         (replace(mounted_plan("Far"), danger=5.0), 17, "Near")):
        g = table([(shooter, (10, 10))], [(near, (13, 10)), (far, (10, y))], Dice([3], uniforms=[0.9, 0.9]))
        got = g.choose_target(g.sides[0][0], wp, True)
        assert (got if got == "wasted" else got[0].pm.name) == want
        assert g.rng.faces == ([] if want == "wasted" else [3])   # the rider: no Spotting Test rolled


def test_reference_without_a_test_picks_among_the_legal_target_and_the_40mm_ones():
    """A Novice (D6: 1/3, no Spotting Test) whose preferred Target (Hero, on foot, Long Range) is not the legal one
    shoots the most dangerous of the Near model (legal, Short Range) and a rider at Short Range; a rider at Medium
    Range (fewer dice) or on foot: the Near one, as before the rule. A later shot of the Action (no Test allowed)
    chooses the same way; closest shoots the legal Target."""
    novice = FakePlan(model("N", "Novice"), weapons=(pistol_plan(),), style="gun")
    wp = novice.weapons[0]
    hero = FakePlan(model("Hero"), danger=9.0)
    near = FakePlan(model("Near"), danger=1.0)
    rider_ = replace(mounted_plan("Mid"), danger=5.0)
    for mid, y, want in ((rider_, 14, "Mid"), (rider_, 17, "Near"), (FakePlan(model("Mid"), danger=5.0), 14, "Near")):
        for may_spot in (True, False):
            g = table([(novice, (10, 10))], [(hero, (10, 22)), (mid, (10, y)), (near, (12, 10))],
                      Dice(uniforms=[0.9] * 3))
            assert g.choose_target(g.sides[0][0], wp, may_spot)[0].pm.name == want, (y, may_spot)
    g = table([(novice, (10, 10))], [(hero, (10, 22)), (rider_, (10, 14)), (near, (12, 10))],
              Dice(uniforms=[0.9] * 3), targets="closest")
    assert g.choose_target(g.sides[0][0], wp, True)[0].pm.name == "Near"


# ---------------------------------------------------------------------------- the kernel's shots


def _hits(out, side, m, trials):
    return sum(out[side, m, k] for k in (1, 2, 3)) / trials


def _within(got, want, trials):
    return abs(got - want) <= 5 * math.sqrt(max(want * (1 - want), 1e-6) / trials)


def _p_hurt(shooter, target, band):
    r = E.shoot(E.Shooter.of(shooter), target, "Pistol", range_band=band, fractions=False)
    return sum(r[k] for k in ("shaken", "downed", "casualty"))


def test_kernel_shoots_a_preferred_rider_without_a_spotting_test():
    """A Veteran with a Pistol; a mounted Hero (preferred: first in Activation order) and a Novice 1" away (the legal
    Target). The Hero 3.5" away (Short Range, as many dice): every shot at it, with the rule off half the Actions
    wasted on the Spotting Test; 6" away (Medium): every shot at the Novice, with the rule off half at the Hero."""
    trials = 40_000
    st = _setup([{"name": "S", "rank": "Veteran", "weapons": ["Pistol"]}], [rider("Far", "Hero"), NOV])
    assert list(st.order[1][:2]) == [0, 1]
    p_far_short, p_far_medium = _p_hurt("Veteran", "Hero", "short"), _p_hurt("Veteran", "Hero", "medium")
    p_near = _p_hurt("Veteran", "Novice", "short")
    for x, setup, want in ((14.5, st, (p_far_short, 0.0)), (14.5, rule_off(st), (p_far_short / 2, 0.0)),
                           (17, st, (0.0, p_near)), (17, rule_off(st), (p_far_medium / 2, 0.0))):
        where = {(0, 0): (10, 10), (1, 0): (x, 10), (1, 1): (10, 12)}
        out, _, _ = _probe(setup, "shoot", 0, 0, where=where, trials=trials, seed=11, riding=True)
        got = [_hits(out, 1, k, trials) for k in range(2)]
        assert all(_within(g_, w, trials) for g_, w in zip(got, want)), (x, got, want)


def test_kernel_without_a_test_shoots_the_most_dangerous_rider():
    """A Novice (D6: no Spotting Test) with a Pistol: a Hero 11" away on foot is preferred, a mounted Veteran next in
    Activation order 3.5" away (Short Range), a Novice 1" away is the legal Target. The rider takes every shot; with
    the rule off the Novice does."""
    trials = 40_000
    where = {(0, 0): (10, 10), (1, 0): (22, 10), (1, 1): (10, 14.5), (1, 2): (12, 10)}
    hero = {"name": "Hero", "rank": "Hero", "weapons": ["Carbine"]}
    st = _setup([{"name": "S", "rank": "Novice", "weapons": ["Pistol"]}], [hero, rider("Mid", "Veteran"), NOV])
    assert list(st.order[1][:3]) == [0, 1, 2]
    p_mid, p_near = _p_hurt("Novice", "Veteran", "short"), _p_hurt("Novice", "Novice", "short")
    for setup, want in ((st, (0.0, p_mid, 0.0)), (rule_off(st), (0.0, 0.0, p_near))):
        out, _, _ = _probe(setup, "shoot", 0, 0, where=where, trials=trials, seed=12, riding=True)
        got = [_hits(out, 1, k, trials) for k in range(3)]
        assert all(_within(g_, w, trials) for g_, w in zip(got, want)), (got, want)


# ---------------------------------------------------------------------------- whole battles


@pytest.mark.slow
def test_the_rule_helps_shooters_against_riders():
    """Paired (same dice), 20,000 battles: the Twilight Order against the unaligned sample posse all on horseback,
    both balanced. Under most-dangerous the shooters win more battles and kill more riders with the rule than with
    it off (measured: +11.1 pp, +0.30 Casualties; docs section 3)."""
    base = P.sample_posse(None)
    riders = replace(base, name="riders", models=tuple(replace(m, horse=R.gear("Horse")) for m in base.models))
    st = B.prepare(P.sample_posse("twilight-order"), riders, check=False)
    runs = B.run_paired(st, [rule_off(st)], 20_000, seed=3)
    for figure in ("a_wins", "casualties_b"):
        d, se = runs.difference(0, figure)   # off minus on
        assert d < -5 * se, (figure, d, se)
