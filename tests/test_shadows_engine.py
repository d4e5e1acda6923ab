"""Shadows of the West dice engine: exact engine against the plain reference, Monte Carlo against exact."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

import reference_shadows as ref
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import engine as E

READINGS = ("a", "b")
BLESSINGS = ("none", "bless", "curse")


def _nonzero(d):
    return {k: v for k, v in d.items() if v}


# ---------------------------------------------------------------------------
# Tests: exact engine == reference, exactly
# ---------------------------------------------------------------------------

def _small_test_cases(count: int, seed: int):
    rng = random.Random(seed)
    cases = set()
    while len(cases) < count:
        D = rng.choice((6, 8, 10))
        n = rng.randint(1, 4 if D == 6 else 3)
        rr = rng.choice((0, 0, 1, 2))
        blessing = rng.choice(BLESSINGS)
        if D == 10 and n == 3 and rr:
            rr = 0
        if blessing != "none" and n > 3 - (D == 10):
            n -= 1   # the larger Bless/Curse cases are in the slow set
        cases.add((D, n, rng.choice(READINGS), blessing, rr))
    return sorted(cases)


@pytest.mark.parametrize("D,n,reading,blessing,rerolls", _small_test_cases(24, 1))
def test_test_joint_matches_reference(D, n, reading, blessing, rerolls):
    got = E.test_joint(D, n, reading=reading, blessing=blessing, rerolls=rerolls)
    want = _nonzero(ref.test_joint(D, n, reading, blessing, rerolls))
    assert got == want


@pytest.mark.slow
@pytest.mark.parametrize("D,n,reading,blessing", [(6, 5, "b", "none"), (6, 5, "a", "none"), (6, 4, "a", "curse"), (8, 4, "b", "bless"),
                                                  (8, 4, "b", "none"), (10, 3, "b", "curse")])
def test_test_joint_matches_reference_larger(D, n, reading, blessing):
    assert E.test_joint(D, n, reading=reading, blessing=blessing) == _nonzero(ref.test_joint(D, n, reading, blessing))


def test_book_2d8_reroll_example():
    """"I roll two D8s and score a 3 and an 8. The 8 allows me to re-roll the 3, and I score a 5.
    I have therefore scored two Successes" ("Tests")."""
    # from (3, 8) the 8 re-rolls the 3: each re-roll face 1/8, and the (5, 8) path is one of them
    paths = list(ref._resolve([3, 8], [False, False], 1, 8, True, "none"))
    assert len(paths) == 8 and sum(p for _f, p in paths) == 1
    assert ([5, 8], Fraction(1, 8)) in paths
    assert sum(p for f, p in paths if sum(x >= 5 for x in f) == 2) == Fraction(1, 2)
    # hand count: both succeed 1/4; an 8 beside a failure 2 * 1/8 * 1/2, re-rolled into a Success 1/2
    for reading in READINGS:
        d = E.test_distribution("d8", 2, reading=reading).fractions
        assert d == {"0": Fraction(1, 4), "1": Fraction(7, 16), "2": Fraction(5, 16)}


def test_reading_b_chains_and_a_does_not():
    # (8, 1, 1) on 3D8: under B a maximum on the re-roll grants the second re-roll
    a = E.test_distribution("d8", 3, reading="a").fractions
    b = E.test_distribution("d8", 3, reading="b").fractions
    assert b["3"] > a["3"] and a["0"] == b["0"] == Fraction(1, 8)
    # by hand: P(3 Successes) reading A = sum over first rolls of (Successes, maxima)
    p_s, p_max = Fraction(1, 2), Fraction(1, 8)
    # reading A by hand over the first roll's categories: all failures re-rolled only if maxima suffice
    want_a = Fraction(0)
    for cats in itertools.product(("max", "hit", "fail"), repeat=3):
        w = Fraction(1)
        for c in cats:
            w *= {"max": p_max, "hit": p_s - p_max, "fail": 1 - p_s}[c]
        fails = cats.count("fail")
        tokens = cats.count("max")
        if fails == 0:
            want_a += w
        elif tokens >= fails:
            want_a += w * p_s ** fails
    assert a["3"] == want_a


def test_sums_to_one_large_pools():
    for D in (6, 8, 10):
        for n in (1, 6, 12, 16):
            for reading in READINGS:
                for b in BLESSINGS:
                    d = E.test_distribution(D, n, reading=reading, blessing=b).fractions
                    assert sum(d.values()) == 1
                    assert all(v >= 0 for v in d.values())


def test_shaken_rolls_one_rank_lower_and_lead_belly_ignores():
    assert E.test_distribution("hero", 3, shaken=True).setup["die"] == "D8"
    assert E.test_distribution("novice", 3, shaken=True).setup["die"] == "D6"
    assert E.test_distribution("hero", 3, shaken=True, lead_belly=True).setup["die"] == "D10"


def test_dice_modifiers_never_below_one():
    assert E.test_distribution("veteran", 3, dice_mod=-5).setup["dice"] == 1


# ---------------------------------------------------------------------------
# Shooting
# ---------------------------------------------------------------------------

def _shot_cases(count, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        D = rng.choice((6, 8, 10))
        blessing = rng.choice(BLESSINGS)
        n = rng.randint(1, 2 if (D == 10 or blessing != "none") else 3)
        out.append(dict(shooter_die=D, dice=n, target_die=rng.choice((6, 8, 10)), reading=rng.choice(READINGS),
                        shooter_blessing=blessing, rerolls=rng.choice((0, 0, 1)),
                        cancel=rng.choice((0, 1)), shaken=rng.random() < 0.5, save_mod=rng.randint(-3, 3),
                        save_blessing=rng.choice(BLESSINGS), jam_die=rng.choice((6, 8, 10)),
                        jam_rerolls=rng.choice((0, 1))))
    return out


def _plan(c):
    return E.ShotPlan("test", c["shooter_die"], c["dice"], 0 if c["reading"] == "a" else 1,
                      BLESSINGS.index(c["shooter_blessing"]), c["rerolls"], c["cancel"], c["target_die"],
                      R.Rank(c["target_die"]).lower().die, int(c["shaken"]), c["save_mod"],
                      BLESSINGS.index(c["save_blessing"]), c["jam_die"], c["jam_rerolls"], (), ())


def test_shot_table_matches_reference():
    cases = _shot_cases(30, 2)
    _prob, fr = E.shot_plans_odds([_plan(c) for c in cases], fractions=True)
    for c, got in zip(cases, fr):
        want = ref.shoot(c["shooter_die"], c["dice"], c["target_die"], reading=c["reading"],
                         shooter_blessing=c["shooter_blessing"], rerolls=c["rerolls"], cancel=c["cancel"],
                         shaken=c["shaken"], save_mod=c["save_mod"], save_blessing=c["save_blessing"],
                         jam_die=c["jam_die"], jam_rerolls=c["jam_rerolls"])
        assert _nonzero(got) == _nonzero(want), c
        assert sum(got[k] for k in E.FINAL_SHOT_OUTCOMES) == 1


def test_shoot_applies_the_books_modifiers():
    base = E.shoot("veteran", "novice")
    assert base.setup["dice"] == 3 and base.setup["jam_die"] == "D10"
    short = E.shoot("veteran", "novice", range_band="short", elevated=True, back_shooter=True)
    assert short.setup["dice"] == 6
    long_cover = E.shoot("veteran", "novice", range_band="long", cover=True)
    assert long_cover.setup["dice"] == 1
    shotgun = E.shoot("veteran", "novice", "shotgun", range_band="short")
    assert shotgun.setup["dice"] == 5
    trick = E.shoot(E.Shooter.of("veteran", skills=["Trick Shooter"]), "novice", "carbine", range_band="long", cover=True)
    assert trick.setup["dice"] == 2
    heavy = E.shoot("veteran", E.Target.of("novice", skills=["Tough"]), "heavy pistol", range_band="short")
    assert heavy.setup["save_modifier"] == 0   # -1 Heavy Pistol up to 4", +1 Tough
    bow = E.shoot("veteran", "novice", "bow", range_band="long")
    assert bow.setup["save_modifier"] == 2
    silver = E.shoot("veteran", E.Target.of("hero", supernatural=True), silver_bullets=True)
    assert silver.setup["save_modifier"] == -1
    whiskey = E.shoot(E.Shooter.of("veteran", whiskey=True, skills=["Deadeye"]), "novice")
    assert whiskey.setup["dice"] == 3
    plate = E.shoot("veteran", E.Target.of("novice", boilerplate=True))
    assert plate.outcomes["cancelled"] > 0 and plate.setup["boilerplate"]
    gunsmith = E.shoot(E.Shooter.of("veteran", skills=["Gunsmith"]), "novice")
    assert gunsmith.outcomes["jammed"] == pytest.approx(base.outcomes["jammed"] * float(R.jam_chance(10)))


def test_more_dice_never_hurts_the_shooter():
    prev = None
    for n in range(1, 8):
        plan = E.ShotPlan("p", 8, n, 1, 0, 0, 0, 8, 6, 0, 0, 0, 10, 0, (), ())
        p, _ = E.shot_plans_odds([plan])
        miss = p[0, 0]
        if prev is not None:
            assert miss < prev
        prev = miss


def test_sequence_matches_reference():
    rng = random.Random(3)
    for _ in range(8):
        shots = []
        same = rng.random() < 0.5
        for i in range(2):
            shots.append(dict(die=rng.choice((6, 8, 10)), dice=rng.randint(1, 2), reading=rng.choice(READINGS),
                              cancel=rng.choice((0, 1)), save_mod=rng.randint(-2, 2),
                              jam_die=rng.choice((6, 8)), jam_rerolls=rng.choice((0, 1)),
                              weapon=0 if same else i))
        tdie = rng.choice((6, 8, 10))
        start = rng.random() < 0.3
        plans = [(E.ShotPlan("w", s["die"], s["dice"], 0 if s["reading"] == "a" else 1, 0, 0, s["cancel"], tdie,
                             R.Rank(tdie).lower().die, int(start), s["save_mod"], 0, s["jam_die"], s["jam_rerolls"],
                             (), ()), s["weapon"]) for s in shots]
        _p, fr = E.sequence_odds([plans], fractions=True)
        want = ref.shot_sequence(shots, tdie, R.Rank(tdie).lower().die, start)
        assert _nonzero(fr[0]) == _nonzero(want)


def test_double_shot_weapons_and_skills():
    six = E.shoot("hero", "veteran", "sixgun")
    assert six.extra["action_weapons"] == ["Sixgun", "Sixgun"]
    a = six.extra["action"]
    assert sum(a[k] for k in ("unhurt", "shaken", "downed", "casualty")) == pytest.approx(1)
    assert 1 < a["shots_fired"] < 2
    th = E.shoot(E.Shooter.of("hero", skills=["Trigger-Happy"]), "veteran", "repeater rifle")
    assert len(th.extra["action_weapons"]) == 4
    gs = E.shoot(E.Shooter.of("hero", skills=["Gunslinger"]), "veteran", "pistol", second_weapon="heavy pistol")
    assert gs.extra["action_weapons"] == ["Pistol", "Heavy Pistol"]
    with pytest.raises(OddsmithError):
        E.shoot(E.Shooter.of("hero", skills=["Gunslinger", "Trigger-Happy"]), "veteran")
    with pytest.raises(OddsmithError):
        E.shoot("hero", "veteran", "pistol", second_weapon="pistol")
    with pytest.raises(OddsmithError):
        E.shoot(E.Shooter.of("hero", skills=["Gunslinger"]), "veteran", "pistol", second_weapon="carbine")


# ---------------------------------------------------------------------------
# Fights
# ---------------------------------------------------------------------------

def _fight_ref(plan):
    a, d = plan.attacker, plan.defender
    reading = "a" if plan.reading == 0 else "b"
    return ref.fight(a[0], a[1], d[0], d[1], reading=reading, att_blessing=BLESSINGS[a[6]],
                     def_blessing=BLESSINGS[d[6]], att_save=(a[7], a[8], bool(a[9])),
                     def_save=(d[7], d[8], bool(d[9])), att_worse_from=a[10], def_worse_from=d[10])


def test_fight_matches_reference():
    rng = random.Random(4)
    for _ in range(10):
        ra, rd = rng.choice(list(R.Rank)), rng.choice(list(R.Rank))
        a = E.Fighter.of(ra, shaken=rng.random() < 0.3, skills=rng.choice([[], ["Tough"], ["Bull-Rush"]]),
                         form=rng.choice([None, None, "bear"]), blessing=rng.choice(BLESSINGS),
                         outnumbered=rng.choice((0, 1, 2)))
        d = E.Fighter.of(rd, shaken=rng.random() < 0.3, skills=rng.choice([[], ["Tough"], ["Lead-Belly"]]),
                         blessing=rng.choice(BLESSINGS))
        plan = E.plan_fight(a, d, charging=rng.random() < 0.5, fortified=rng.random() < 0.5,
                            reading=rng.choice(READINGS))
        if plan.attacker[1] + plan.defender[1] > 5 or plan.attacker[4]:
            continue
        _p, _m, fr = E.fight_plans_odds([plan], fractions=True)
        want = _fight_ref(plan)
        got = fr[0]
        for k in E.FIGHT_OUTCOMES:
            assert got[k] == want.get(k, 0), (k, plan)
        for side in ("attacker", "defender"):
            for m in range(1, 7):
                assert got[f"{side}_by_{m}"] == want.get(f"{side}_by_{m}", 0)
        assert got["draw"] + sum(got[f"{s}_{k}"] for s in ("attacker", "defender") for k in E.STATES) == 1


def test_fearsome_is_a_mixture_of_nerve_test_results():
    att = E.Fighter.of("veteran")
    dfn = E.Fighter.of("novice", skills=["Fearsome"])
    plan = E.plan_fight(att, dfn)
    assert plan.attacker[2] == plan.attacker[1] - 1
    _p, _m, fr = E.fight_plans_odds([plan], fractions=True)
    p_pass = Fraction(1, 2)  # a 1 Die Nerve Test on a D8
    full = ref.fight(8, 3, 6, 3)
    less = ref.fight(8, 2, 6, 3)
    for k in E.FIGHT_OUTCOMES:
        assert fr[0][k] == p_pass * full.get(k, 0) + (1 - p_pass) * less.get(k, 0)
    # Whiskey passes the Nerve Test; another Fearsome model ignores it
    assert E.plan_fight(E.Fighter.of("veteran", whiskey=True), dfn).attacker[4] == 0
    assert E.plan_fight(E.Fighter.of("veteran", form="wolf"), dfn).attacker[4] == 0


def test_fight_modifiers_from_the_rules():
    p = E.plan_fight(E.Fighter.of("hero", form="wolf", skills=["Mean"]), E.Fighter.of("novice", outnumbered=2),
                     charging=True, fortified=True)
    assert p.attacker[1] == 3 + 1 - 1 + 1 + 2
    assert p.defender[1] == 1
    ornery = E.plan_fight(E.Fighter.of("hero"), E.Fighter.of("novice", outnumbered=2, skills=["'Ornery"]))
    assert ornery.defender[1] == 3
    bull = E.plan_fight(E.Fighter.of("hero", skills=["Bull-Rush"]), E.Fighter.of("novice", skills=["Tough"]),
                        charging=True)
    assert bull.defender[8] == 0   # Tough +1, Bull-Rush -1
    bear = E.plan_fight(E.Fighter.of("hero", form="bear"), E.Fighter.of("novice"))
    assert bear.defender[8] == -1 and bear.defender[10] == R.BEAR_HUG_MARGIN
    assert bear.attacker[10] == 0
    with pytest.raises(OddsmithError):
        E.plan_fight(E.Fighter.of("hero", form="wolf", derringer=True), E.Fighter.of("novice"))
    with pytest.raises(OddsmithError):
        E.plan_fight(E.Fighter.of("hero", close_work_pistols=1), E.Fighter.of("novice"))


def test_bear_hug_worsens_damage():
    plain = E.fight(E.Fighter.of("hero", form="bear", base_mm=25), "novice")
    hug = E.fight(E.Fighter.of("hero", form="bear"), "novice")
    assert hug.outcomes["defender_casualty"] > plain.outcomes["defender_casualty"]
    assert hug.outcomes["attacker_wins"] == plain.outcomes["attacker_wins"]


# ---------------------------------------------------------------------------
# Recovery, Bottle Checks, Casting, Dynamite: reference through the rules functions
# ---------------------------------------------------------------------------

def _ref_mapped(D, n, fn, reading="b", blessing="none", rerolls=0):
    out = {}
    for final, p in ref.test_rolls(D, n, reading, blessing, rerolls).items():
        k = fn(final)
        out[k] = out.get(k, 0) + p
    return out


@pytest.mark.parametrize("rank,shaken,friend", [("novice", False, False), ("veteran", True, True),
                                                ("hero", False, True), ("hero", True, False)])
def test_recovery_matches_reference(rank, shaken, friend):
    got = E.recovery(rank, shaken=shaken, friend_in_contact=friend).fractions
    D = R.grit_die(rank, shaken)
    n = 3 + (1 if friend else 0)
    names = {R.RecoveryResult.CASUALTY: "casualty", R.RecoveryResult.REMAINS_DOWNED: "remains_downed",
             R.RecoveryResult.STANDS_SHAKEN: "stands_shaken"}
    want = _ref_mapped(D, n, lambda f: names[R.recovery_result(sum(x >= 5 for x in f))])
    assert _nonzero(got) == want
    assert E.recovery(rank, skills=["Hard to Kill"]).outcomes["stands_shaken"] == 1


def test_bottle_check_rerolls():
    plain = E.bottle_check("veteran").fractions["bottles_out"]
    assert plain == Fraction(1, 8)
    nos = E.bottle_check("veteran", skills=["Nerves of Steel"]).fractions["bottles_out"]
    assert nos == Fraction(1, 16)
    both = E.bottle_check("veteran", skills=["Nerves of Steel"], preacher=True).fractions["bottles_out"]
    assert both == Fraction(1, 32)
    stand_in = E.bottle_check("veteran", boss=False, skills=["Nerves of Steel"], preacher=True).fractions
    assert stand_in["bottles_out"] == Fraction(1, 4)   # one die is re-rolled at most once
    assert E.bottle_check("novice", whiskey=True).outcomes["bottles_out"] == 0
    want = _ref_mapped(8, 3, lambda f: "fights_on" if any(x >= 5 for x in f) else "bottles_out", rerolls=2)
    assert _nonzero(E.bottle_check("veteran", skills=["Nerves of Steel"], preacher=True).fractions) == want


@pytest.mark.parametrize("rank,power,difficulty,mods", [("hero", "Bless", None, {}), ("novice", "Summon", 3, {}),
                                                        ("veteran", "Faith Healing", None, {"concentrate": True}),
                                                        ("veteran", "Summon", 2, {"unique_summoning": True})])
def test_cast_matches_reference(rank, power, difficulty, mods):
    o = E.cast(rank, power, difficulty=difficulty, **mods)
    diff = o.setup["difficulty"]
    want = _ref_mapped(R.grit_die(rank), o.setup["dice"],
                       lambda f: "cast" if sum(x >= 5 for x in f) >= diff else ("miscast" if R.is_miscast(f) else "failed"))
    assert _nonzero(o.fractions) == want
    holy = E.cast(rank, power, difficulty=difficulty, holy_symbol=True, **mods)
    assert holy.outcomes["miscast"] == 0
    assert E.cast(rank, "Bless", shaken=True).extra["caster"] == "downed"
    assert E.cast(rank, "Bless", arcane_storm=True).extra["caster"] == "casualty"


def test_dynamite_throw():
    o = E.dynamite("novice").fractions
    assert o["on_target"] == Fraction(1, 3) and o["dud"] == Fraction(1, 6)
    b = E.dynamite("veteran", blessing="bless").fractions
    assert b["on_target"] == 1 - Fraction(1, 2) ** 2
    blast = E.blast_odds("hero")
    assert blast["saved"] == Fraction(4, 10)   # 7+ on a D10
    partly = E.blast_odds("hero", partly=True)
    assert partly["saved"] == Fraction(3, 5) + Fraction(2, 5) * Fraction(4, 10)


# ---------------------------------------------------------------------------
# Monte Carlo against exact, within confidence intervals
# ---------------------------------------------------------------------------

Z = 4.5   # a wrong engine is off by far more; a right one fails this about once in 150,000 checks


def _close(mc: E.Odds, exact: dict, names=None):
    for k in names or mc.outcomes:
        p = float(exact[k])
        se = max(mc.stderr[k], 1 / mc.trials)
        assert abs(mc.outcomes[k] - p) <= Z * se + 1e-12, (k, mc.outcomes[k], p, se)


@pytest.mark.parametrize("D,n,reading", [(6, 3, "b"), (8, 3, "a"), (10, 5, "b")])
def test_mc_successes_agree(D, n, reading):
    exact = E.test_distribution(D, n, reading=reading).outcomes
    _close(E.simulate_successes(D, n, reading=reading, trials=400_000, seed=11), exact)


@pytest.mark.parametrize("D,n,reading,blessing,rr", [(6, 3, "b", "curse", 0), (8, 4, "a", "bless", 1),
                                                     (10, 3, "b", "none", 2)])
def test_mc_test_joint_agrees(D, n, reading, blessing, rr):
    exact = E.test_joint(D, n, reading=reading, blessing=blessing, rerolls=rr)
    counts, trials, _ = E.simulate_test_joint(D, n, reading=reading, blessing=blessing, rerolls=rr,
                                              trials=300_000, seed=5)
    for idx in itertools.product(*(range(s) for s in counts.shape)):
        p = float(exact.get(idx, 0))
        q = counts[idx] / trials
        se = max(np.sqrt(p * (1 - p) / trials), 1 / trials)
        assert abs(q - p) <= Z * se, (idx, q, p)


def test_mc_shot_agrees():
    sh = E.Shooter.of("veteran", blessing="curse")
    tg = E.Target.of("hero", shaken=True, boilerplate=True, blessing="bless")
    plan = E.plan_shot(sh, tg, "sixgun", E.Situation(range_band=R.RangeBand.SHORT))
    prob, _ = E.shot_plans_odds([plan])
    _close(E.simulate_shot(plan, trials=300_000, seed=2), dict(zip(E.SHOT_OUTCOMES, prob[0])))


def test_mc_sequence_agrees():
    sh = E.Shooter.of("hero", skills=["Trigger-Happy", "Gunsmith"])
    tg = E.Target.of("veteran")
    sit = E.Situation(range_band=R.RangeBand.SHORT)
    shots = [(E.plan_shot(sh, tg, w, sit), wid) for w, wid in E.action_weapons(sh, "sixgun")]
    prob, _ = E.sequence_odds([shots])
    exact = dict(zip(E.SEQUENCE_OUTCOMES, prob[0]))
    _close(E.simulate_sequence(shots, trials=300_000, seed=9), exact)


def test_mc_fight_agrees():
    plan = E.plan_fight(E.Fighter.of("veteran", skills=["Bull-Rush"]),
                        E.Fighter.of("hero", skills=["Fearsome", "Tough"], shaken=True), charging=True)
    prob, margins, _ = E.fight_plans_odds([plan])
    mc = E.simulate_fight(plan, trials=300_000, seed=3)
    _close(mc, dict(zip(E.FIGHT_OUTCOMES, prob[0])))
    for i, side in enumerate(("attacker", "defender")):
        for k in range(1, 5):
            p = margins[0, i, k]
            q = mc.extra["margins"][side].get(str(k), 0.0)
            assert abs(q - p) <= Z * max(np.sqrt(p * (1 - p) / mc.trials), 1 / mc.trials)


def test_mc_mapped_tests_agree():
    _close(E.simulate_recovery("veteran", shaken=True, trials=200_000, seed=1), E.recovery("veteran", shaken=True).outcomes)
    _close(E.simulate_bottle_check("novice", skills=["Nerves of Steel"], trials=200_000, seed=1),
           E.bottle_check("novice", skills=["Nerves of Steel"]).outcomes)
    _close(E.simulate_cast("hero", "Summon", difficulty=3, trials=200_000, seed=1),
           E.cast("hero", "Summon", difficulty=3).outcomes)
    _close(E.simulate_dynamite("veteran", trials=200_000, seed=1), E.dynamite("veteran").outcomes)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22])
def test_mc_big_fight_and_shot_agree(seed):
    plan = E.plan_fight(E.Fighter.of("hero", form="wolf", skills=["Mean"]),
                        E.Fighter.of("veteran", outnumbered=1), charging=True, reading="a")
    prob, _m, _ = E.fight_plans_odds([plan])
    _close(E.simulate_fight(plan, trials=2_000_000, seed=seed), dict(zip(E.FIGHT_OUTCOMES, prob[0])))
    sh = E.Shooter.of("novice", skills=["Deadeye"])
    plan2 = E.plan_shot(sh, E.Target.of("veteran", skills=["Tough"]), "shotgun", E.Situation(range_band=R.RangeBand.SHORT))
    p2, _ = E.shot_plans_odds([plan2])
    _close(E.simulate_shot(plan2, trials=2_000_000, seed=seed), dict(zip(E.SHOT_OUTCOMES, p2[0])))


def test_same_seed_same_numbers_whatever_workers():
    a = E.simulate_test("veteran", 3, trials=200_000, seed=7, workers=1).outcomes
    b = E.simulate_test("veteran", 3, trials=200_000, seed=7, workers=2).outcomes
    assert a == b
    c = E.simulate_test("veteran", 3, trials=200_000, seed=8, workers=1).outcomes
    assert a != c


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: E.test_distribution("veteran", 0),
    lambda: E.test_distribution("squire", 3),
    lambda: E.test_distribution("d12", 3),
    lambda: E.test_distribution("veteran", 3, dice_mod=40),
    lambda: E.test_distribution("veteran", 3, rerolls=9),
    lambda: E.test_distribution("veteran", 3, reading="c"),
    lambda: E.test_distribution("veteran", 3, blessing="hex"),
    lambda: E.shoot("veteran", "novice", "blunderbuss"),
    lambda: E.shoot("veteran", "novice", range_band="point blank"),
    lambda: E.shoot(E.Shooter.of("veteran", skills=["Sharpshooter"]), "novice"),
    lambda: E.shoot("veteran", E.Target.of("novice", save_mod=9)),
    lambda: E.shoot("veteran", "novice", "rifle"),
    lambda: E.shoot("veteran", "novice", "sawn-off shotgun"),
    lambda: E.fight("veteran", E.Fighter.of("novice", form="eagle")),
    lambda: E.fight("veteran", E.Fighter.of("novice", outnumbered=-1)),
    lambda: E.cast("hero", "Fireball"),
    lambda: E.cast("hero", "Bless", difficulty=3),
    lambda: E.simulate_test("veteran", 3, trials=0),
    lambda: E.simulate_test("veteran", 3, seed=-1),
])
def test_bad_input_raises_oddsmith_error(call):
    with pytest.raises(OddsmithError):
        call()


def test_four_shot_action_too_big_for_exact_counts_still_right_in_floats():
    """Sixgun + Trigger-Happy with 7 D10: the exact counts would pass 128 bits; the floats must still hold."""
    sh = E.Shooter.of("hero", skills=["Trigger-Happy", "Deadeye"])
    sit = E.Situation(range_band=R.RangeBand.SHORT, elevated=True, back_shooter=True)
    shots = [(E.plan_shot(sh, E.Target.of("veteran"), w, sit), wid) for w, wid in E.action_weapons(sh, "sixgun")]
    prob, fr = E.sequence_odds([shots], fractions=True)
    assert fr == [None]
    exact = dict(zip(E.SEQUENCE_OUTCOMES, prob[0]))
    assert sum(exact[k] for k in ("unhurt", "shaken", "downed", "casualty")) == pytest.approx(1, abs=1e-12)
    _close(E.simulate_sequence(shots, trials=200_000, seed=6), exact)


def test_engine_modifiers_agree_with_the_rules_model():
    """plan_shot / plan_fight put Tests together as oddsmith.rules.shadows does (shooting_dice, fight_dice, ...)."""
    for wname, band, cover, elev, back, skills, whiskey in itertools.product(
            ("Pistol", "Shotgun", "Carbine", "Bow", "Heavy Pistol"), list(R.RangeBand), (False, True), (False, True),
            (False, True), ((), ("Deadeye",), ("Trick Shooter",)), (False, True)):
        sh = E.Shooter.of("veteran", skills=skills, whiskey=whiskey)
        tg = E.Target.of("hero", skills=("Tough",), supernatural=True)
        p = E.plan_shot(sh, tg, wname, E.Situation(band, cover, elev, back, silver_bullets=True))
        assert p.dice == R.shooting_dice(wname, band, cover=cover, back_shooter=back, elevated=elev, skills=skills,
                                         whiskey=whiskey)
        assert p.save_mod == R.shot_save_modifier(wname, band, target_skills=("Tough",), silver_bullets=True,
                                                  target_supernatural=True)
    for charging, fortified, out, skills, form in itertools.product(
            (False, True), (False, True), (0, 1, 2), ((), ("Mean",), ("'Ornery",), ("Mean", "'Ornery")),
            (None, "wolf")):
        a = E.Fighter.of("hero", skills=skills, outnumbered=out, form=form)
        p = E.plan_fight(a, E.Fighter.of("novice"), charging=charging, fortified=fortified)
        assert p.attacker[1] == R.fight_dice(charging=charging, fortified_defender=fortified, outnumbered_by=out,
                                             skills=skills, wolf_form_attacking=form == "wolf")


# --- seeding of the stages of `shadows shoot --mc` (issue 16) ------------------------------------------


def _sixgun_plans():
    sh = E.Shooter.of("Hero")
    weapons = E.action_weapons(sh, "Sixgun")
    sit = E.Situation(R.RangeBand.MEDIUM, False, False, False, False, False, None)
    return [(E.plan_shot(sh, E.Target.of("Veteran"), w, sit), wid) for w, wid in weapons]


def test_shoot_stages_have_their_own_named_streams():
    from oddsmith.sampling import SamplingPlan, stream_key

    five = E.simulate_shoot("Hero", "Veteran", "Sixgun", trials=20_000, seed=5)
    six = E.simulate_shoot("Hero", "Veteran", "Sixgun", trials=20_000, seed=6)
    # the Action stage of --seed 5 is not any stage of --seed 6 (it was seed + 1, the same numbers)
    assert five.extra["action"] != E.simulate_sequence(_sixgun_plans(), trials=20_000, seed=6).outcomes
    assert five.extra["action"] != six.extra["action"] and five.outcomes != six.outcomes
    assert five.extra["streams"] == ["shot", "action"] and five.extra["action_seed"] == 5
    keyed = E.simulate_sequence(_sixgun_plans(), trials=20_000, seed=5, stream="action")
    assert five.extra["action"] == keyed.outcomes
    draws = {(sd, name): SamplingPlan(sd, 10, stream=stream_key(name)).chunk_generator(0).random_raw(4).tolist()
             for sd in (5, 6) for name in ("shot", "action")}
    plain = {sd: SamplingPlan(sd, 10).chunk_generator(0).random_raw(4).tolist() for sd in (5, 6)}
    every = list(draws.values()) + list(plain.values())
    assert len({tuple(d) for d in every}) == len(every)


def test_shoot_stages_same_whatever_the_workers_and_agree_with_exact():
    trials = 3 * (1 << 16) // 2
    one = E.simulate_shoot("Hero", "Veteran", "Sixgun", trials=trials, seed=11, workers=1)
    two = E.simulate_shoot("Hero", "Veteran", "Sixgun", trials=trials, seed=11, workers=2)
    assert one.outcomes == two.outcomes and one.extra["action"] == two.extra["action"]
    exact = E.shoot("Hero", "Veteran", "Sixgun")
    for k in ("unhurt", "shaken", "downed", "casualty", "jammed"):
        assert abs(one.extra["action"][k] - exact.extra["action"][k]) <= 5 * one.extra["action_stderr"][k] + 1e-12
    for k in ("miss", "saved", "shaken", "downed", "casualty"):
        assert abs(one[k] - exact[k]) <= 5 * one.stderr[k] + 1e-12


@pytest.mark.parametrize("text,band,inches", [("short", R.RangeBand.SHORT, None), ("4", R.RangeBand.SHORT, 4.0),
                                              ("4.5", R.RangeBand.MEDIUM, 4.5), ('8"', R.RangeBand.MEDIUM, 8.0),
                                              ("12in", R.RangeBand.LONG, 12.0), (0, R.RangeBand.SHORT, 0.0)])
def test_shooting_range_takes_bands_and_inches(text, band, inches):
    assert E.shooting_range("Pistol", text) == (band, inches)


def test_shooting_range_refuses_out_of_range_and_nonsense():
    with pytest.raises(OddsmithError, match="beyond the Carbine's Long Range \\(up to 18\"\\)"):
        E.shooting_range("Carbine", "19")
    for bad in ("far", "-1", "nan", "inf"):
        with pytest.raises(OddsmithError, match="--range"):
            E.shooting_range("Pistol", bad)
    with pytest.raises(OddsmithError, match="no ranges for the Rifle"):
        E.shooting_range("Rifle", "10")
