"""Horses on the table ("Mounted Models", "Horses in Combat", "Fight" Fortified, "Ka-Boom!"; docs/shadows-battles.md
section 11): a rider moves 6" (an Appaloosa 8", Boilerplate 1" less) and Charges as far; an enemy on the ground
Attacking it is Fortified against (-1 Die); Downed, it is dismounted and the horse flees; caught in a blast it makes
two Saves, the horse's (a Novice) and, the horse a Casualty, the rider's 5+ Save. The rules as data, the reference
on scripted dice, the kernel's steps against the exact engine and the reference, and whole battles."""
from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

import random_posses as RP
import reference_table as RT
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from oddsmith.shadows import value as V
from test_shadows_table import (HOUSE_PRICES, QUICK_TWIN_GAMES, SKILLS, SLOW_REFERENCE_GAMES, Dice, FakePlan,
                                check_agreement, model, quick_case, table, table_options)
from test_shadows_table_kernel import NOV, VET, _fighter, _probe, _setup

MOUNT = B._K.MODEL_COLUMNS.index("mount_move")


def rider(name="R", rank="Veteran", horse="Horse", **kw):
    return {"name": name, "rank": rank, "weapons": ["Pistol"], "horse": horse, **kw}


# ---------------------------------------------------------------------------- the rules as data


def test_rules_of_mounted_models():
    assert R.MOUNTED_MOVE_INCHES == 6 and R.APPALOOSA_MOVE_INCHES == 8 and R.MOUNTED_BASE_MM == 40
    assert R.gear("Horse").move == 6 and R.gear("Appaloosa").move == 8
    assert R.HORSE_RIDER_SAVE == 5 and R.HORSE_GRIT_DIE == R.Rank.NOVICE.die == 6
    assert R.FightModifier.FORTIFIED.dice == -1
    # a horse's D6 never makes Dynamite's 7+ Save: in a blast the horse always falls
    assert R.DYNAMITE_BLAST_SAVE > R.HORSE_GRIT_DIE


def test_the_mounted_move_of_a_model():
    def one(**kw):
        return P.posse_from_dict({"posse": {"name": "t", "method": "advanced", "dollar_limit": 1000},
                                  "model": [rider(**kw)]}, "t").models[0]

    assert one().mounted_move_inches == 6 and one().move_inches == R.MOVE_INCHES
    assert one(horse="Appaloosa Horse").mounted_move_inches == 8
    assert one(gear=["Boilerplate"]).mounted_move_inches == 5   # "reduced by 1" (even if Mounted)"
    on_foot = one()
    assert replace(on_foot, horse=None).mounted_move_inches is None
    assert replace(on_foot, horse=None, gear=(R.gear("Horse"),)).mounted_move_inches == 6   # a horse listed as Gear
    vessel = replace(on_foot, role=R.faction_role("Vessel"))
    assert vessel.battle_horse is None and vessel.mounted_move_inches is None   # "lose all their ... Horse"


def test_the_kernel_column_is_the_mounted_move():
    st = _setup([rider(), rider(horse="Appaloosa Horse"), rider(gear=["Boilerplate"]), VET], [VET])
    assert list(st.models[0, :4, MOUNT]) == [6000, 8000, 5000, 0]
    assert not st.models[1, :, MOUNT].any()
    # the sample Regulators' Marshal rides his Horse; Revenants never ride
    st = B.prepare(P.sample_posse(None), P.sample_posse("dark-confederacy"), B.battle_options())
    rows = {mp.model.name: k for k, mp in enumerate(st.a.models)}
    assert st.models[0, rows["Marshal Ezra Cole"], MOUNT] == 6000 and st.models[0, :, MOUNT].sum() == 6000
    assert not st.models[1, :, MOUNT].any()


# ---------------------------------------------------------------------------- the reference on scripted dice


def mounted_plan(name="R", horse="Horse", **kw):
    return FakePlan(replace(model(name, **kw), horse=R.gear(horse)))


def test_reference_rider_moves_and_charges_six_inches():
    g = table([(mounted_plan(), (10, 10))], [(FakePlan(model("T")), (30, 10))])
    m = g.sides[0][0]
    assert m.mounted and m.move_inches == 6 and m.base_mm == R.MOUNTED_BASE_MM
    g.move_towards(m, 30, 10, m.move_inches)
    assert m.x == pytest.approx(16)
    g = table([(mounted_plan(horse="Appaloosa Horse"), (10, 10))], [(FakePlan(model("T")), (30, 10))])
    assert g.sides[0][0].move_inches == 8


def test_reference_downed_rider_is_dismounted():
    g = table([(mounted_plan(), (10, 10))], [(FakePlan(model("T")), (30, 10))])
    m = g.sides[0][0]
    g.damage(m, 1, None)        # Shaken: still riding
    assert m.shaken and m.mounted and m.move_inches == 6
    g.damage(m, 1, None)        # Shaken again: Downed, "forcibly dismounted"
    assert m.downed and not m.mounted and m.move_inches == R.MOVE_INCHES


def test_reference_blast_on_a_rider_is_two_saves():
    """A Veteran rider at the blast point: its own 7+ Save (D8 rolls 8: saved), then the horse's on a D6 (a 6 still
    fails a 7+), then the rider's 5+ Save (a 2 fails by 3: Downed), dismounted. A rider Downed by its own Save makes no
    horse Save: its horse has fled."""
    dice = Dice([8, 6, 2])
    g = table([(FakePlan(model("T")), (30, 30))], [(mounted_plan(), (10, 10))], rng=dice)
    m = g.sides[1][0]
    g.blast(10, 10, 0)
    assert dice.asked == [8, R.HORSE_GRIT_DIE, 8] and not dice.faces
    assert m.downed and not m.mounted
    dice = Dice([1])
    g = table([(FakePlan(model("T")), (30, 30))], [(mounted_plan(), (10, 10))], rng=dice)
    g.blast(10, 10, 0)
    assert dice.asked == [8] and not g.sides[1][0].mounted


def test_reference_fight_against_a_rider_is_fortified():
    """The Attacker on the ground rolls one Die fewer against a rider; a rider Attacking one does not."""
    for att_mounted, dfn_mounted, dice in ((False, True, 2), (True, True, 3), (True, False, 3), (False, False, 3)):
        a = mounted_plan("A") if att_mounted else FakePlan(model("A"))
        d = mounted_plan("D") if dfn_mounted else FakePlan(model("D"))
        g = table([(a, (10, 10))], [(d, (11, 10))])
        asked = []
        g.test = lambda m, n, extra=0, asked=asked: asked.append((m.pm.name, n)) or [1] * n
        g.fight(g.sides[0][0], g.sides[1][0])
        assert asked[0] == ("A", dice) and asked[1] == ("D", 3)


# ---------------------------------------------------------------------------- the kernel's steps


@pytest.mark.parametrize("attacker,defender,fortified", [
    (VET, rider("D", "Novice"), True),
    (rider("A"), rider("D", "Novice"), False),
    (rider("A"), NOV, False),
])
def test_kernel_fight_against_a_rider_agrees_with_the_exact_engine(attacker, defender, fortified):
    st = _setup([attacker], [defender])
    trials = 40_000
    out, did, _ = _probe(st, "fight", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (11, 10)}, trials=trials, seed=41)
    exact = E.fight(_fighter(st.a.models[0].model), _fighter(st.b.models[0].model), fortified=fortified,
                    fractions=False)
    for side, who in ((1, "defender"), (0, "attacker")):
        for k, name in ((3, "casualty"), (1, "downed"), (2, "shaken")):
            p = float(exact[f"{who}_{name}"])
            got = out[side, 0, k] / trials
            assert abs(got - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / trials), (who, name, got, p)


def _probe5(st, kind, side, m, arg=0, **kw):
    """table_probe with the riding column (out[..., 4])."""
    return _probe(st, kind, side, m, arg, riding=True, **kw)


def test_kernel_rider_moves_six_inches_and_charges_from_six():
    """brawl: a rider 6.5" (centre to centre) from an enemy Charges it (reach 6" edge to edge plus a base); on foot it
    Moves 4" toward it instead. A Move of an Appaloosa goes 8"."""
    where = {(0, 0): (10, 10), (1, 0): (16.5, 10)}
    _, did, _ = _probe5(_setup([rider()], [NOV], plan="brawl"), "action", 0, 0, 1, where=where, trials=10)
    assert did[4] == 10
    _, did, last = _probe5(_setup([VET], [NOV], plan="brawl"), "action", 0, 0, 1, where=where, trials=10)
    assert did[1] == 10 and last[0, 0, 0] == pytest.approx(14)
    where = {(0, 0): (5, 10), (1, 0): (30, 10)}
    _, did, last = _probe5(_setup([rider(horse="Appaloosa Horse")], [NOV], plan="brawl"), "action", 0, 0, 1,
                           where=where, trials=10)
    assert did[1] == 10 and last[0, 0, 0] == pytest.approx(13)


def test_kernel_rider_downed_in_a_fight_is_dismounted():
    """A Fight a mounted Novice loses by enough to be Downed leaves it on foot; a Shaken one still rides."""
    st = _setup([{**VET, "skills": ["Mean"]}], [rider("D", "Novice")])
    trials = 20_000
    out, _, _ = _probe5(st, "fight", 0, 0, 1, where={(0, 0): (10, 10), (1, 0): (11, 10)}, trials=trials, seed=7)
    on, downed, shaken, riding = out[1, 0, 0], out[1, 0, 1], out[1, 0, 2], out[1, 0, 4]
    assert downed > 0 and shaken > 0
    assert riding == on - downed   # every standing one rides, no Downed one does


def test_kernel_blast_on_a_rider_agrees_with_the_reference(monkeypatch):
    """A Veteran thrower 5" from a mounted Novice (and from the same Novice on foot) throws its Dynamite: the
    Target's Damage after the throw, kernel (table_probe "shoot") against the reference's Shoot Action. table_probe
    plays every failed throw as a dud, and so does the reference here."""
    throw = R.dynamite_throw
    monkeypatch.setattr(R, "dynamite_throw", lambda score: throw(score) if score >= R.SUCCESS_ON
                        else R.DynamiteOutcome.DUD)
    trials_k, trials_r = 60_000, 12_000
    thrower = {"name": "T", "rank": "Veteran", "weapons": ["Pistol"], "gear": ["Dynamite"]}
    figures = {}
    for mounted in (True, False):
        target = rider("V", "Novice") if mounted else NOV
        st = _setup([thrower], [target])
        out, _, _ = _probe5(st, "shoot", 0, 0, where={(0, 0): (10, 10), (1, 0): (15, 10)}, trials=trials_k, seed=9)
        kernel = [out[1, 0, k] / trials_k for k in (2, 1, 3)]   # Shaken, Downed, Casualty
        rng = random.Random(11)
        counts = [0, 0, 0]
        # the plans, made once: a game reads its plans and never changes them
        mine = [(FakePlan(st.a.models[0].model, dynamite=1, style="gun"), (10, 10))]
        theirs = [(mounted_plan("V", rank="Novice") if mounted else FakePlan(model("V", rank="Novice")), (15, 10))]
        for _ in range(trials_r):
            g = table(mine, theirs, rng=rng)
            t = g.sides[1][0]
            g.shoot(g.sides[0][0], set(), [])
            counts[0] += t.on_table and t.shaken and not t.downed
            counts[1] += t.on_table and t.downed
            counts[2] += not t.on_table
        for got, n in zip(kernel, counts):
            p = n / trials_r
            se = math.hypot(math.sqrt(max(p * (1 - p), 1e-6) / trials_r), math.sqrt(max(got * (1 - got), 1e-6) / trials_k))
            assert abs(got - p) <= 5 * se, (mounted, kernel, [c / trials_r for c in counts])
        figures[mounted] = kernel
    # the horse's fall costs the rider a 5+ Save: more Downed and Casualties than on foot
    assert figures[True][1] + figures[True][2] > figures[False][1] + figures[False][2] + 0.02


# ---------------------------------------------------------------------------- whole battles


def horse_cases() -> list:
    rng = random.Random(61)
    out = []
    while len(out) < 3:
        j = len(out)
        a = RP.random_posse(rng, "A", skills=SKILLS, prices=HOUSE_PRICES, derringer=0.2, horses=0.6)
        b = RP.random_posse(rng, "B", skills=SKILLS, prices=HOUSE_PRICES, horses=0.3)
        if not any(m.battle_horse for m in a.models):
            continue
        out.append(B.prepare(a, b, table_options(plan_a=("brawl", "balanced", "gunline")[j],
                                                 plan_b=("balanced", "brawl", "balanced")[j])))
    return out


@pytest.mark.parametrize("case", [quick_case("test_kernel_agrees_with_reference_with_horses[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in range(3)])
def test_kernel_agrees_with_reference_with_horses(case):
    if case == "quick":
        check_agreement(horse_cases()[0], QUICK_TWIN_GAMES, 71)
    else:
        check_agreement(horse_cases()[case], 800 if case == 0 else SLOW_REFERENCE_GAMES, 71 + case)


def test_a_horse_is_valued_on_the_table():
    """Horses are priced by `shadows value` on the table (no effect with ``--movement none``)."""
    m = P.sample_posse(None).models[1]
    assert V.gear_not_modelled(m, "Horse", table_options()) is None
    assert V.gear_not_modelled(m, "Appaloosa Horse", B.battle_options(movement="none")) == V.NO_EFFECT


def riders_mirror(mount_move: int):
    """Five Mean brawlers against themselves, both brawl; side A on horses whose Move is ``mount_move`` thousandths."""
    base = P.posse_from_dict({"posse": {"name": "Brawlers", "method": "advanced", "dollar_limit": 1000},
                              "model": [{"name": f"Brawler {i}", "rank": r, "weapons": ["Pistol"], "skills": ["Mean"]}
                                        for i, r in enumerate(["Hero", "Veteran", "Veteran", "Novice", "Novice"])]},
                             "brawlers")
    riders = replace(base, models=tuple(replace(m, horse=R.gear("Horse")) for m in base.models))
    opts = table_options(plan_a="brawl", plan_b="brawl")
    st = B.prepare(riders, base, opts)
    st.models[0, :5, MOUNT] = mount_move
    return B.prepare(base, base, opts), st


def test_riders_fight_better_at_the_same_pace():
    """Mounted at the Move they have on foot (4"), the riders differ from their mirror only in the Fights (Fortified
    against Attackers on the ground) and the rules of Downed riders and blasts: they win more (paired, 20,000
    battles; measured +5.5 pp). At 6" they win less under the brawl plan (docs/shadows-battles.md section 11): the
    plan's full-Move approach, not the horse, decides who Charges first."""
    base, four = riders_mirror(4000)
    _, six = riders_mirror(6000)
    res = B.run_paired(base, [four, six], 20_000, seed=17)
    n = res.trials
    x, y4, xy4, xx, yy4 = (float(v) for v in res.pairs[0][:5])
    d = (y4 - x) / n
    var = (xx - 2 * xy4 + yy4) / n - d * d
    assert d > 3 * math.sqrt(var / n), (d, math.sqrt(var / n))
    assert res.pairs[1][1] < res.pairs[0][1]
