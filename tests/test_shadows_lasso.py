"""The Lasso on the table ("Horses and Gear Summary": Lasso; "And Falling"; docs/shadows-battles.md section 11c).

"As a Shoot Action, the user can throw the Lasso up to 6" at an enemy model — this Attack is not modified for Range
(though other modifiers will apply). If the Target fails their Save they suffer no Damage, but are instead dragged 1"
directly towards the Lasso thrower in a straight line for each Success the attacker scored. Note however that if the
Target model is on a larger base than the user, then the maximum distance it can be dragged is 1". A model can be
dragged off a horse or elevated position — and counts as falling where applicable."

Policy: a brawl-style model throws it at the closest rider within 6" on an Action another follows, before its Charge.
The rules as data, the reference on scripted dice, the kernel's throw against exact odds, whole battles against the
reference, and a paired measure of what the Lasso brings.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

import random_posses as RP
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from oddsmith.shadows import value as V
from test_shadows_horses import mounted_plan, rider
from test_shadows_table import (HOUSE_PRICES, QUICK_TWIN_GAMES, SKILLS, SLOW_REFERENCE_GAMES, Dice, FakePlan,
                                check_agreement, model, quick_case, table, table_options)
from test_shadows_table_kernel import _probe, _setup

K = B._K
LASSO, LASSO_COVER = K.MODEL_COLUMNS.index("lasso"), K.MODEL_COLUMNS.index("lasso_cover")
PLAN = K.OPTION_COLUMNS.index("lasso_plan")
LASSOER = {"name": "L", "rank": "Veteran", "weapons": ["Pistol"], "gear": ["Lasso"], "skills": ["Mean"]}


def lasso_off(st: B.BattleSetup) -> B.BattleSetup:
    """The same set-up with nobody throwing a Lasso (option lasso_plan 0)."""
    opts = st.opts.copy()
    opts[PLAN] = 0
    return replace(st, opts=opts)


# ---------------------------------------------------------------------------- the rules as data


def test_the_rules_as_data():
    assert R.LASSO_RANGE == 6 and R.gear("Lasso").cost == 3
    assert R.LASSO_DRAG_INCHES_PER_SUCCESS == 1 and R.LASSO_LARGER_BASE_MAX_DRAG_INCHES == 1
    # "A model that falls must make a 5+ Save. For every additional full 2" fallen, this Save becomes one worse. For
    # example, a model falls 4". The player must make a Save of 6+. If a model falls 5", it would still make a 6+"
    assert [R.falling_save(x) for x in (0, 2, 3.9, 4, 5, 6)] == [5, 5, 5, 6, 6, 7]
    assert R.LASSO_HORSE_FALL_SAVE == 5
    with pytest.raises(Exception, match="not a distance"):
        R.falling_save(-1)
    # "not modified for Range (though other modifiers will apply)": Cover, Deadeye, One-Eyed, Whiskey
    assert R.lasso_dice() == 3 and R.lasso_dice(cover=True) == 2
    assert R.lasso_dice(skills=["Deadeye"]) == 4 and R.lasso_dice(injuries=[R.Injury.ONE_EYED], whiskey=True) == 1
    # the Swamp Baka "May unleash writhing tendrils, using the rules for a Lasso"
    assert R.UNIQUE_SUMMONINGS["Swamp Baka"].lasso and not R.UNIQUE_SUMMONINGS["Behemoth"].lasso


def test_the_kernel_columns():
    st = _setup([LASSOER, {**LASSOER, "skills": ["Deadeye"]}, {**LASSOER, "gear": []}], [rider()], plan="brawl")
    assert [tuple(st.models[0, i, [LASSO, LASSO_COVER]]) for i in range(3)] == [(3, 2), (4, 3), (0, 0)]
    assert st.opts[PLAN] == 1 and st.opts[K.OPTION_COLUMNS.index("lasso_range")] == 6000
    # the fixed-range firefight plays no Lasso
    none = _setup([LASSOER], [rider()], movement="none")
    assert not none.models[0, :, LASSO].any()
    # a Congregation Arcanist's Swamp Baka lassoes with its tendrils (a Major Entity, D8: 3 Dice)
    baka = B.entity_model(3, R.UNIQUE_SUMMONINGS["Swamp Baka"])
    plan = B.plan_model(baka, False, B.Distance.parse("10"), False, table=True)
    assert plan.lasso == (3, 2)


# ---------------------------------------------------------------------------- the reference on scripted dice


def lasso_plan(name="L", rank="Veteran", **kw):
    return FakePlan(model(name, rank, gear=("Lasso",), **kw), lasso=(3, 2))


def test_reference_drags_a_rider_off_its_horse():
    """A Veteran 2" from a rider: no Cover (0.9), its 3 Dice show 5, 6, 2 (two Successes on a D8); the Novice rider
    needs 6+ and rolls 3: dragged 2", but at most 1" (a 40mm base is larger than the thrower's 25mm), off its horse,
    and falls: a 5+ Save, a 2 fails by 3: Downed."""
    dice = Dice([5, 6, 2, 3, 2], uniforms=[0.9])
    g = table([(lasso_plan(), (10, 10))], [(mounted_plan("R", rank="Novice"), (13, 10))], rng=dice)
    m, r = g.sides[0][0], g.sides[1][0]
    assert g.brawl_action(m, set(), [], False, late=False) == "shoot"
    assert dice.asked == [8, 8, 8, 6, 6] and not dice.faces
    assert (r.x, r.y) == (12, 10) and not r.mounted and r.downed


def test_reference_a_passed_save_or_boilerplate_leaves_the_rider_up():
    dice = Dice([5, 6, 2, 6], uniforms=[0.9])   # two Successes; the rider's 6 makes its 6+ Save
    g = table([(lasso_plan(), (10, 10))], [(mounted_plan("R", rank="Novice"), (13, 10))], rng=dice)
    g.throw_lasso(g.sides[0][0], g.sides[1][0])
    assert not dice.faces and g.sides[1][0].mounted and g.sides[1][0].x == 13
    # Boilerplate "cancels one Success rolled by the Shooter each time it suffers a Shooting Attack": no Save at all
    dice = Dice([5, 2, 2], uniforms=[0.9])
    g = table([(lasso_plan(), (10, 10))], [(mounted_plan("R", rank="Novice", gear=("Boilerplate",)), (13, 10))],
              rng=dice)
    g.throw_lasso(g.sides[0][0], g.sides[1][0])
    assert not dice.faces and g.sides[1][0].mounted
    # in Cover (a draw below the density): 2 Dice
    dice = Dice([2, 2], uniforms=[0.1])
    g = table([(lasso_plan(), (10, 10))], [(mounted_plan("R", rank="Novice"), (13, 10))], rng=dice, terrain="0.5")
    g.throw_lasso(g.sides[0][0], g.sides[1][0])
    assert dice.asked == [8, 8]


def test_reference_drags_a_target_as_far_as_its_successes_and_halts_in_contact():
    """A rider lassoing a rider (both 40mm: not a larger base) drags it 1" per Success: two Successes from 2.5"
    away leave 0.5", and off its horse its 25mm base stands 0.3" further (0.8"); from 1.5" away three Successes bring
    it into Contact, no further, and on foot it is placed touching still (section 11d). (The rider's 1 fails its
    Save, its 6 makes the fall's 5+.)"""
    touch = R.base_inches(R.MOUNTED_BASE_MM)   # centre distance of two 40mm bases in Contact
    for gap_, faces, want in ((2.5, [5, 6, 2, 1, 6], 0.8), (1.5, [5, 6, 7, 1, 6], 0.0)):
        dice = Dice(faces, uniforms=[0.9])
        thrower = replace(mounted_plan("L", gear=("Lasso",)), lasso=(3, 2))
        g = table([(thrower, (10, 10))], [(mounted_plan("R", rank="Novice"), (10 + touch + gap_, 10))], rng=dice)
        g.throw_lasso(g.sides[0][0], g.sides[1][0])
        r = g.sides[1][0]
        assert not dice.faces and not r.mounted and not r.shaken
        assert r.x - 10 - g.sides[0][0].radius - r.radius == pytest.approx(want)


def test_reference_policy():
    """Brawl: the Lasso goes before the Charge, only on an Action another follows, only at a rider within 6"; a
    Downed enemy in reach is finished first."""
    def plays(late, riding=True, x=13.0, downed=False):
        g = table([(lasso_plan(), (10, 10))],
                  [((mounted_plan if riding else lambda n, **kw: FakePlan(model(n, **kw)))("R", rank="Novice"),
                    (x, 10))])
        g.sides[1][0].downed = downed
        seen = []
        g.throw_lasso = lambda m, v: seen.append("lasso")
        g.charge = lambda m, v: seen.append("charge") or True
        g.move_towards = lambda *a, **kw: seen.append("move")
        g.brawl_action(g.sides[0][0], set(), [], False, late=late)
        return seen

    assert plays(False) == ["lasso"] and plays(True) == ["charge"]
    assert plays(False, riding=False) == ["charge"]
    # a 25mm base and a 40mm one touch at 1.3" between centres: gaps 6" and 6.1"
    assert plays(False, x=17.3) == ["lasso"] and plays(False, x=17.4) == ["move"]
    assert plays(False, downed=True) == ["charge"]


# ---------------------------------------------------------------------------- the kernel's throw


def exact(rank, dice, cancel=0, die=6):
    """(P(dismounted), P(Shaken), P(Downed), P(Casualty)) of a standing rider with Grit Die ``die`` lassoed by a
    ``rank`` thrower rolling ``dice``, Boilerplate cancelling ``cancel`` Successes; and P(e Successes drag it)."""
    dist = {int(k): float(v) for k, v in E.test_distribution(rank, dice).fractions.items()}
    fall = E.save_odds(die, R.LASSO_HORSE_FALL_SAVE)
    off, hurt, drag = 0.0, {"shaken": 0.0, "downed": 0.0, "casualty": 0.0}, {}
    for k, pk in dist.items():
        e = k - cancel
        if e <= 0:
            continue
        p = pk * float(1 - E.save_odds(die, R.save_target(e))["saved"])
        off += p
        drag[e] = drag.get(e, 0.0) + p
        for h in hurt:
            hurt[h] += p * float(fall[h])
    return (off, hurt["shaken"], hurt["downed"], hurt["casualty"]), drag


def _close(got, want, n):
    return abs(got - want) <= 5 * math.sqrt(max(want * (1 - want), 1e-6) / n) + 1e-12


@pytest.mark.parametrize("thrower,target,terrain,dice,cancel", [
    (LASSOER, rider("R", "Novice"), "open", 3, 0),
    ({**LASSOER, "rank": "Novice"}, rider("R", "Novice", gear=["Boilerplate"]), "open", 3, 1),
    (LASSOER, rider("R", "Novice"), "1", 2, 0),   # always in Cover: 2 Dice
])
def test_kernel_throw_agrees_with_the_exact_odds(thrower, target, terrain, dice, cancel):
    trials = 60_000
    st = _setup([thrower], [target], plan="brawl", terrain=terrain)
    out, did, last = _probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (13, 10)}, trials=trials,
                            seed=21, riding=True)
    (off, shaken, downed, cas), _ = exact(thrower["rank"], dice, cancel)
    assert did[K.PROBE_DID_NAMES.index("shoot")] == trials
    got = (1 - out[1, 0, 4] / trials, out[1, 0, 2] / trials, out[1, 0, 1] / trials, out[1, 0, 3] / trials)
    assert all(_close(g_, w, trials) for g_, w in zip(got, (off, shaken, downed, cas))), (got, (off, shaken, downed))
    # the thrower stays put; the rider is 1" nearer or where it was
    assert tuple(last[0, 0]) == (10, 10) and last[1, 0, 0] in (12.0, 13.0)


def test_kernel_drags_one_inch_per_success_and_halts_in_contact():
    """A mounted Veteran lassoes a mounted Novice (equal 40mm bases) 2.5" away: dragged 1", 2" or 2.5" (into Contact)
    with one, two or three Successes whose Save fails, and 0.3" more in Contact, where the rider off its horse is
    placed touching still (section 11d); the frequencies against the exact odds, one trial per seed."""
    st = _setup([rider("L", gear=["Lasso"], skills=["Mean"])], [rider("R", "Novice")], plan="brawl")
    x0 = 10 + R.base_inches(R.MOUNTED_BASE_MM) + 2.5
    n, seen = 1_500, {0.0: 0, 1.0: 0, 2.0: 0, 2.8: 0}
    for seed in range(n):
        _, _, last = _probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (x0, 10)}, seed=seed,
                            riding=True)
        seen[round(x0 - last[1, 0, 0], 6)] += 1
    _, drag = exact("Veteran", 3)
    want = {1.0: drag.get(1, 0), 2.0: drag.get(2, 0), 2.8: sum(p for e, p in drag.items() if e >= 3)}
    for d, p in want.items():
        assert _close(seen[d] / n, p, n), (d, seen, want)
    # on foot (25mm) the same throw drags the rider (40mm, "a larger base") 1" at most, whatever the Successes
    st = _setup([LASSOER], [rider("R", "Novice")], plan="brawl")
    n, seen = 600, {0.0: 0, 1.0: 0}
    for seed in range(n):
        _, _, last = _probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (x0, 10)}, seed=seed,
                            riding=True)
        seen[round(x0 - last[1, 0, 0], 6)] += 1
    assert _close(seen[1.0] / n, sum(drag.values()), n), seen


# ---------------------------------------------------------------------------- whole battles


def brawlers(n=5, lasso=True) -> P.Posse:
    return P.posse_from_dict({"posse": {"name": "Brawlers", "method": "advanced", "dollar_limit": 1000},
                              "model": [{"name": f"Brawler {i}", "rank": r, "weapons": ["Pistol"], "skills": ["Mean"],
                                         "gear": ["Lasso"] if lasso else []}
                                        for i, r in enumerate(["Hero", "Veteran", "Veteran", "Novice", "Novice"][:n])]},
                             "brawlers")


def riders() -> P.Posse:
    base = P.sample_posse(None)
    return replace(base, name="riders", dollar_limit=1000,
                   models=tuple(replace(m, horse=R.gear("Horse")) for m in base.models))


def with_lassos(posse: P.Posse) -> P.Posse:
    """Every model with a Gear slot free gets a Lasso (the Dollar Limit lifted)."""
    return replace(posse, dollar_limit=1000, models=tuple(
        replace(m, gear=m.gear + (R.gear("Lasso"),)) if len(m.gear) + (m.horse is not None) < 3 else m
        for m in posse.models))


def lasso_cases() -> list:
    rng = random.Random(83)
    out = [B.prepare(brawlers(), riders(), table_options(plan_a="brawl", plan_b="brawl"))]
    while len(out) < 3:
        a = with_lassos(RP.random_posse(rng, "A", skills=SKILLS, prices=HOUSE_PRICES, horses=0.3))
        b = replace(RP.random_posse(rng, "B", skills=SKILLS, prices=HOUSE_PRICES, horses=0.8), dollar_limit=1000)
        out.append(B.prepare(a, b, table_options(plan_a=("brawl", "balanced")[len(out) - 1], plan_b="brawl")))
    return out


@pytest.mark.parametrize("case", [quick_case("test_kernel_agrees_with_reference_with_lassos[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in range(3)])
def test_kernel_agrees_with_reference_with_lassos(case):
    if case == "quick":
        check_agreement(lasso_cases()[0], QUICK_TWIN_GAMES, 91)
    else:
        check_agreement(lasso_cases()[case], 800 if case == 0 else SLOW_REFERENCE_GAMES, 91 + case)


@pytest.mark.slow
def test_the_lasso_helps_brawlers_against_riders():
    """Paired (same dice), 20,000 battles: five Mean brawlers with Lassos against the unaligned sample posse all on
    horseback, both brawl: with the Lasso thrown they win more battles and cause more Casualties (measured: +18.1 pp,
    +2.9 Casualties; docs section 11c). Against the same posse without Lassos the option changes nothing."""
    st = B.prepare(brawlers(), riders(), table_options(plan_a="brawl", plan_b="brawl"))
    runs = B.run_paired(lasso_off(st), [st], 20_000, seed=5)
    for figure in ("a_wins", "casualties_b"):
        d, se = runs.difference(0, figure)   # thrown minus not
        assert d > 5 * se, (figure, d, se)
    plain = B.prepare(brawlers(lasso=False), riders(), table_options(plan_a="brawl", plan_b="brawl"))
    assert np.array_equal(B.run_counts(plain, 2_000, seed=5), B.run_counts(lasso_off(plain), 2_000, seed=5))


def test_the_lasso_is_valued_where_it_is_thrown():
    """`shadows value` prices a Lasso on the table for a model that would throw it (brawl style); for a gun-style
    model, and in the fixed-range firefight, it says why not, with no battles played."""
    posse = brawlers(2, lasso=False)
    cands, skipped = V.candidates(posse, B.battle_options(plan="brawl"))
    assert {c.model_index for c in cands if c.item == "Lasso"} == {0, 1}
    assert not any(s["item"] == "Lasso" for s in skipped)
    # a second Lasso changes nothing (measured exactly 0 before this was skipped)
    cands, skipped = V.candidates(brawlers(2), B.battle_options(plan="brawl"))
    assert not any(c.item == "Lasso" for c in cands)
    assert {s["reason"] for s in skipped if s["item"] == "Lasso"} == {V.SECOND_LASSO}
    for opts, reason in ((B.battle_options(), V.GUN_LASSO), (B.battle_options(movement="none"), V.NO_EFFECT)):
        cands, skipped = V.candidates(posse, opts)   # balanced: Mean alone (+1 Die) keeps a Pistol model gun style
        assert not any(c.item == "Lasso" for c in cands)
        assert {s["reason"] for s in skipped if s["item"] == "Lasso"} == {reason}
