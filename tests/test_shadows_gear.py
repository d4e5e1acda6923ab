"""Whiskey and Snake Oil in the table battle (docs/shadows-battles.md section 11, KERNEL-NOTES Q17-Q19): the book's
"Horses and Gear Summary" text against the rules model and the reference's pieces, the kernel's steps, the kernel
against the reference on posses that carry them, and the sanity the book implies."""
from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest

import random_posses as RP
import reference_table as RT
import test_shadows_table as T
import test_shadows_table_kernel as TK
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from oddsmith.shadows import value as V

Dice, FakePlan, model, table = T.Dice, T.FakePlan, T.model, T.table

# ---------------------------------------------------------------------------
# The book's text against the rules model
# ---------------------------------------------------------------------------


def test_the_rules_model_reads_the_gear_summary():
    """Whiskey: "drink this item as part of any Move Action at the cost of 1" of movement ... automatically passes all
    Nerve Tests ... (including Bottle Checks, if applicable), but suffers a -1 Die Modifier on all Shoot Tests".
    Snake Oil: "Roll a D6 ... on a roll of 4+. Regardless of Success, the item is used up"."""
    whiskey, oil = R.gear("Whiskey"), R.gear("Snake Oil")
    assert whiskey.single_use and oil.single_use
    assert R.WHISKEY_MOVE_COST_INCHES == whiskey.move_cost == 1
    assert R.WHISKEY_SHOOT_DICE == whiskey.shoot_dice == R.ShootModifier.WHISKEY.dice == -1
    assert R.whiskey_passes(R.TestKind.NERVE) and R.whiskey_passes(R.TestKind.BOTTLE_CHECK)
    assert not R.whiskey_passes(R.TestKind.SHOOTING) and not R.whiskey_passes(R.TestKind.RECOVERY)
    assert R.SNAKE_OIL_DIE == 6 and R.SNAKE_OIL_SUCCESS_ON == oil.recover_on_d6 == 4
    assert [R.snake_oil_works(k) for k in range(1, 7)] == [False, False, False, True, True, True]
    assert R.SNAKE_OIL_CHANCE == Fraction(1, 2)
    with pytest.raises(OddsmithError, match="D6"):
        R.snake_oil_works(7)


# ---------------------------------------------------------------------------
# The reference's pieces, on hand-made positions
# ---------------------------------------------------------------------------


def test_snake_oil_on_itself_removes_shaken_on_four_plus_and_is_used_up_either_way():
    """"a friendly model in Contact (including itself) and who is either Shaken or Down ... removes its Shaken marker
    ... on a roll of 4+. Regardless of Success, the item is used up and discarded"."""
    user = FakePlan(model("Doc", gear=["Snake Oil"]))
    far = FakePlan(model("E"))
    for face, shaken_after in ((4, False), (3, True)):
        g = table([(user, (10, 10))], [(far, (30, 30))], Dice([face]))
        m = g.sides[0][0]
        m.shaken = True
        assert m.snake_oil == 1
        assert g.one_action(m, set(), [], late=False, after_move=False) == "move"  # a full Move Action
        assert g.rng.asked == [R.SNAKE_OIL_DIE] and m.shaken is shaken_after and m.snake_oil == 0
        # nothing left to use: the plan's Action (a gun-less brawler moves at the enemy)
        assert not g.gear_action(m)


def test_snake_oil_prefers_a_downed_friend_in_contact_who_stands_up_shaken_as_he_was():
    user = FakePlan(model("Doc", gear=["Snake Oil"]))
    friend = FakePlan(model("Pal"))
    g = table([(user, (10, 10)), (friend, (11, 10))], [(FakePlan(model("E")), (30, 30))], Dice([6]))
    m, f = g.sides[0]
    m.shaken = True
    f.downed, f.shaken = True, True
    assert g.gear_action(m)
    assert not f.downed and f.shaken  # stands up; its Shaken marker stays (KERNEL-NOTES Q19)
    assert m.shaken and m.snake_oil == 0
    # a Downed friend 1.5" away is not in Contact: the Shaken user treats itself
    g = table([(user, (10, 10)), (friend, (12.5, 10))], [(FakePlan(model("E")), (30, 30))], Dice([5]))
    m, f = g.sides[0]
    m.shaken, f.downed = True, True
    assert g.gear_action(m) and not m.shaken and f.downed
    # not Shaken itself: a standing Shaken friend in Contact
    g = table([(user, (10, 10)), (friend, (10, 11))], [(FakePlan(model("E")), (30, 30))], Dice([4]))
    m, f = g.sides[0]
    f.shaken = True
    assert g.gear_action(m) and not f.shaken


def test_snake_oil_user_moves_to_a_downed_friend_when_no_enemy_is_within_d_star():
    """Policy (d): into Contact with the closest Downed friend within a Move, no die rolled; not with an enemy near."""
    user = FakePlan(model("Doc", gear=["Snake Oil"]), desired_inches=8.0)
    friend = FakePlan(model("Pal"))
    g = table([(user, (10, 10)), (friend, (14, 10))], [(FakePlan(model("E")), (30, 30))], Dice([]))
    m, f = g.sides[0]
    f.downed = True
    assert g.gear_action(m)
    assert RT.in_contact(m, f) and m.x == pytest.approx(13.0) and m.snake_oil == 1
    # the next Action applies it
    g.rng = Dice([4])
    assert g.gear_action(m) and not f.downed and m.snake_oil == 0
    # an enemy within D* (gap 7" <= 8"): the plan goes on; a friend beyond 4" is not sought
    g = table([(user, (10, 10)), (friend, (14, 10))], [(FakePlan(model("E")), (10, 18))], Dice([]))
    g.sides[0][1].downed = True
    assert not g.gear_action(g.sides[0][0])
    g = table([(user, (10, 10)), (friend, (15.5, 10))], [(FakePlan(model("E")), (30, 30))], Dice([]))
    g.sides[0][1].downed = True
    assert not g.gear_action(g.sides[0][0])


def test_whiskey_drunk_by_the_bottle_check_maker_passes_the_bottle_check_this_turn():
    """"automatically passes all Nerve Tests it would have to make for the rest of this Turn (including Bottle
    Checks, if applicable)"; "The effects of Whiskey end at the start of the following Game Turn"."""
    boss = FakePlan(model("Boss", "Hero", gear=["Whiskey"]), boss=True)
    kid = FakePlan(model("Kid", "Novice", gear=["Whiskey"]))
    g = table([(boss, (10, 10)), (kid, (20, 20))], [(FakePlan(model("E")), (30, 30))], Dice([]))
    g.turn = 3
    b, k = g.sides[0]
    assert not g.gear_action(b)  # both standing: no Bottle Check due
    k.downed = True              # one of two standing: half or fewer, a Check is due
    assert g.gear_action(b) and b.whiskey == 0 and b.drunk_in_turn == 3 and (b.x, b.y) == (10, 10)
    assert not g.gear_action(b)  # never twice in a Turn (and no bottle left)
    # Recovery: the Kid's Test (three D6 showing 1: a Casualty), then the Boss's Check: passed with no die
    g.rng = Dice([1, 1, 1])
    assert not g.recovery(0)
    assert g.rng.asked == [6, 6, 6] and k.casualty
    # the next Turn the Whiskey wears off: the Check is rolled (3 Dice on the Hero's D10; all fail)
    g.turn = 4
    g.rng = Dice([1, 2, 3])
    assert g.recovery(0) and g.rng.asked == [10, 10, 10]
    # with the Boss Downed the stand-in drinks (the highest Rank standing), not a lower-ranked friend
    vet = FakePlan(model("Vet", "Veteran", gear=["Whiskey"]))
    g = table([(boss, (10, 10)), (vet, (20, 20)), (kid, (5, 20)), (kid, (5, 25))], [(FakePlan(model("E")), (30, 30))],
              Dice([]))
    g.turn = 1
    b, v, k, k2 = g.sides[0]
    assert g.bottle_check_maker(0) is None  # four standing of four
    b.downed = k2.downed = True             # two of four
    assert g.bottle_check_maker(0) is v
    assert not g.gear_action(k) and g.gear_action(v) and g.whiskey_on(v)


def test_whiskey_passes_the_fearsome_nerve_test_and_costs_a_shooting_die():
    att = FakePlan(model("A", "Hero", gear=["Whiskey"]), weapons=(T.pistol_plan(),), style="gun")
    scary = FakePlan(model("Scary", "Hero", skills=["Fearsome"]))
    # drunk: no Nerve Test; 3 dice each (no -1): a Draw
    g = table([(att, (10, 10))], [(scary, (11, 10))], Dice([6, 3, 2, 6, 3, 2]))
    g.turn = 2
    a = g.sides[0][0]
    g.drink(a)
    g.fight(a, g.sides[1][0])
    assert g.rng.asked == [10] * 6 and not a.fearsome_failed and a.fearsome_tested
    assert (g.shoot_dice(a, 3), g.shoot_dice(a, 2), g.shoot_dice(a, 1)) == (2, 1, 1)
    # a shot at Medium Range rolls 2 dice instead of 3 (misses, no 1: no Jamming Check)
    g = table([(att, (10, 10))], [(FakePlan(model("Far")), (17, 10))], Dice([2, 3], uniforms=[0.9]))
    g.turn = 1
    g.drink(g.sides[0][0])
    assert g.fire(g.sides[0][0], att.weapons[0], 1, False)
    assert g.rng.asked == [10, 10]
    g.turn = 2  # the next Game Turn: 3 dice again
    assert g.shoot_dice(g.sides[0][0], 3) == 3


def test_whiskey_is_drunk_on_a_charge_that_reaches_a_fearsome_enemy_within_three_inches():
    att = FakePlan(model("A", "Hero", gear=["Whiskey"]))
    scary = FakePlan(model("Scary", "Hero", skills=["Fearsome"]))
    # gap 2.5": drinks on the way; no Nerve Test; 4 dice (Charging) against 3
    g = table([(att, (10, 10))], [(scary, (13.5, 10))], Dice([1, 2, 3, 4, 1, 2, 3]))
    T.saves_of(g)
    g.turn = 1
    assert g.charge(g.sides[0][0], g.sides[1][0])
    assert g.sides[0][0].whiskey == 0 and g.rng.asked == [10] * 7
    # gap 3.5": the drink would leave too little of the Move: the Nerve Test is rolled (a 7 passes)
    g = table([(att, (10, 10))], [(scary, (14.5, 10))], Dice([7, 1, 2, 3, 4, 1, 2, 3]))
    T.saves_of(g)
    g.turn = 1
    assert g.charge(g.sides[0][0], g.sides[1][0])
    assert g.sides[0][0].whiskey == 1 and g.rng.asked == [10] * 8
    # not at a plain enemy
    g = table([(att, (10, 10))], [(FakePlan(model("Plain", "Hero")), (13.5, 10))], Dice([1, 2, 3, 4, 1, 2, 3]))
    T.saves_of(g)
    g.turn = 1
    assert g.charge(g.sides[0][0], g.sides[1][0]) and g.sides[0][0].whiskey == 1


# ---------------------------------------------------------------------------
# Packing and the kernel's steps (table_probe)
# ---------------------------------------------------------------------------

DOC = {"name": "Doc", "rank": "Veteran", "weapons": ["Pistol"], "gear": ["Snake Oil", "Whiskey", "Whiskey"]}
OILER = {"name": "Oiler", "rank": "Veteran", "weapons": ["Pistol"], "gear": ["Snake Oil"]}


def test_the_counts_are_packed_on_the_table_only():
    st = TK._setup([DOC, TK.VET], [TK.NOV])
    col = B._K.MODEL_COLUMNS
    assert {"whiskey", "snake_oil"} <= set(col)
    assert (st.a.models[0].whiskey, st.a.models[0].snake_oil) == (2, 1)
    assert list(st.models[0, 0, [col.index("whiskey"), col.index("snake_oil")]]) == [2, 1]
    assert st.models[0, 1, col.index("whiskey")] == 0
    none = TK._setup([DOC, TK.VET], [TK.NOV], movement="none")
    assert not none.models[:, :, [col.index("whiskey"), col.index("snake_oil")]].any()
    assert not any("Whiskey" in x or "Snake Oil" in x for x in B.NOT_MODELLED)
    assert any("Whiskey" in x and "Snake Oil" in x for x in B.NOT_MODELLED_NONE)


def test_kernel_snake_oil_works_half_the_time():
    st = TK._setup([OILER, TK.VET], [TK.NOV])
    n = 20_000
    # on itself, Shaken, its friend away
    out, did, _ = TK._probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (0, 1): (2, 30), (1, 0): (30, 30)},
                            trials=n, state={(0, 0): (0, 1)})
    assert did[1] == n and abs(out[0, 0, 2] / n - 0.5) < 5 * math.sqrt(0.25 / n)
    # a Downed friend in Contact stands up (still Shaken, as it was)
    out, did, _ = TK._probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (0, 1): (11, 10), (1, 0): (30, 30)},
                            trials=n, state={(0, 1): (1, 1)}, seed=2)
    assert did[1] == n and out[0, 1, 1] + out[0, 1, 2] == n
    assert abs(out[0, 1, 2] / n - 0.5) < 5 * math.sqrt(0.25 / n)
    # a Downed friend 3" away, no enemy within D* (8"): a Move into Contact
    _, did, last = TK._probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (0, 1): (14, 10), (1, 0): (30, 30)},
                             state={(0, 1): (1, 0)})
    assert did[1] == 1 and tuple(last[0, 0]) == pytest.approx((13.0, 10.0))


@pytest.mark.parametrize("gap,drinks", [(2.5, True), (3.5, False)])
def test_kernel_charge_with_whiskey_agrees_with_the_exact_fight(gap, drinks):
    """A Charge at a Fearsome Defender: within 3" the Attacker drinks and skips the Nerve Test (the exact engine's
    ``whiskey``), from farther it takes the Test."""
    att = {"name": "A", "rank": "Veteran", "weapons": ["Pistol"], "gear": ["Whiskey"]}
    dfn = {"name": "F", "rank": "Veteran", "weapons": ["Pistol"], "skills": ["Fearsome"]}
    st = TK._setup([att], [dfn])
    n = 40_000
    out, did, _ = TK._probe(st, "charge", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (11 + gap, 10)}, trials=n, seed=7)
    assert did[4] == n
    exact = E.fight(replace(TK._fighter(st.a.models[0].model), whiskey=drinks), TK._fighter(st.b.models[0].model),
                    charging=True, fractions=False)
    for side, who in ((1, "defender"), (0, "attacker")):
        for k, name in ((3, "casualty"), (1, "downed"), (2, "shaken")):
            p = float(exact[f"{who}_{name}"])
            got = out[side, 0, k] / n
            assert abs(got - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / n), (who, name, got, p)


def test_movement_none_ignores_the_gear():
    """The fixed-range game is kept as it was: a posse carrying both plays exactly as without them."""
    a, b = P.sample_posse(None), P.sample_posse("twilight-order")
    opts = B.battle_options(movement="none")
    plain = B.run_counts(B.prepare(a, b, opts), 3_000, seed=4)
    geared = with_gear(a, random.Random(1), 1.0, 1.0, check=False)
    assert all(g.name in ("Whiskey", "Snake Oil") for m in geared.models for g in m.gear[len(m.gear) - 1:])
    geared = B.run_counts(B.prepare(geared, b, opts, check=False), 3_000, seed=4)
    assert list(plain) == list(geared)


def test_value_prices_whiskey_and_snake_oil_on_the_table_only():
    posse = P.resolve_posse(P.sample_posse_text("unaligned")[1] + '\n[prices]\n"Whiskey" = 2\n"Snake Oil" = 4\n')
    cands, _ = V.candidates(posse, B.battle_options())
    assert {c.item for c in cands} >= {"Whiskey", "Snake Oil"}
    cands, skipped = V.candidates(posse, B.battle_options(movement="none"))
    assert not any(c.item in V.TABLE_GEAR for c in cands)
    priced = set(V.TABLE_GEAR) - {"Vial of Nitro", "Blessed Water"}   # no price here (section 11b's items)
    assert {s["reason"] for s in skipped if s["item"] in priced} == {V.NO_EFFECT}
    _, skipped = V.candidates(P.sample_posse("unaligned"), B.battle_options())
    # the unpriced ones (Whiskey, Snake Oil, the Vial, the Water); the Lasso is priced, and this posse's gun-style
    # models would not throw it (docs/shadows-battles.md section 11c)
    assert {s["reason"] for s in skipped if s["item"] in V.TABLE_GEAR} == {V.NO_PRICE, V.GUN_LASSO}


# ---------------------------------------------------------------------------
# The kernel against the reference on posses that carry them
# ---------------------------------------------------------------------------

GEAR_PRICES = {"Whiskey": 2, "Snake Oil": 5}
"""House prices (the rulebook text gives none) so that the posses pass the posse-building rules."""


def with_gear(posse: P.Posse, rng: random.Random, whiskey: float, oil: float, *, check: bool = True) -> P.Posse:
    """``posse`` with Whiskey and Snake Oil added at random (a second bottle of each at half the chance), within the
    three items of Gear a model may carry. Only this file adds them: the shared helper's posses stay as they were."""
    models = []
    for m in posse.models:
        gear = list(m.gear)
        draws = (("Whiskey", whiskey), ("Snake Oil", oil), ("Whiskey", whiskey / 2), ("Snake Oil", oil / 2))
        for name, chance in draws:
            if sum(g.takes_slot for g in gear) + (m.horse is not None) < R.MAX_GEAR_PER_MODEL and rng.random() < chance:
                gear.append(R.gear(name))
        models.append(replace(m, gear=tuple(gear)))
    out = replace(posse, models=tuple(models), prices={**posse.prices, **GEAR_PRICES})
    if check:
        P.check_posse(out)
    return out


def gear_cases() -> list:
    """Four setups that use both items: Charges at Fearsome brawlers, Bottle Checks, Snake Oil on both sides."""
    rng = random.Random(1313)
    out = []
    a = with_gear(T.random_posse(rng, "A"), rng, 0.6, 0.6)
    out.append(B.prepare(a, T.brawlers(["Fearsome"]), T.table_options(plan_a="brawl", plan_b="brawl")))
    a = with_gear(T.random_posse(rng, "A"), rng, 0.2, 0.9)
    b = with_gear(T.random_posse(rng, "B"), rng, 0.8, 0.0)
    out.append(B.prepare(a, b, T.table_options(terrain="light", plan_a="gunline", plan_b="balanced",
                                               targets="weakest")))
    a = with_gear(T.random_posse(rng, "A"), rng, 0.5, 0.5)
    b = with_gear(T.random_posse(rng, "B"), rng, 0.5, 0.5)
    out.append(B.prepare(a, b, T.table_options(terrain="dense", plan_a="balanced", plan_b="brawl", activation="solo")))
    a = with_gear(T.random_posse(rng, "A"), rng, 0.9, 0.3)
    out.append(B.prepare(a, P.sample_posse("congregation"),
                         T.table_options(plan_a="balanced", plan_b="gunline", activation="dual", targets="boss")))
    return out


def test_gear_cases_use_the_gear():
    """The reference uses each item in the agreement cases (so that agreeing means something)."""
    used = {"drink": 0, "oil": 0, "fearsome": 0, "bottle": 0}
    drink, oil, passes = RT.TableGame.drink, RT.TableGame.snake_oil, RT.TableGame.passes_nerve_tests

    class Counting(RT.TableGame):
        def drink(self, m):
            used["drink"] += 1
            drink(self, m)

        def snake_oil(self, m, patient):
            used["oil"] += 1
            oil(self, m, patient)

        def passes_nerve_tests(self, m, test=R.TestKind.NERVE):
            ok = passes(self, m, test)
            used["fearsome" if test is R.TestKind.NERVE else "bottle"] += ok
            return ok

    for setup in gear_cases():
        assert any(mp.whiskey or mp.snake_oil for mp in setup.a.models)
        rng = random.Random(2)
        for _ in range(100):
            Counting(setup, rng).play()
    assert all(v >= 10 for v in used.values()), used


# One case in the quick loop (`pytest -n 2`), on fewer reference games; every case at full size is slow (CI
# runs them all: README).
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) for c in range(4)]
                         + [T.quick_case("test_kernel_agrees_with_reference_with_gear_quick[1]")])
def test_kernel_agrees_with_reference_with_gear_quick(case):
    if case == "quick":
        T.check_agreement(gear_cases()[1], T.QUICK_TWIN_GAMES, 1701)
    else:
        T.check_agreement(gear_cases()[case], T.SLOW_REFERENCE_GAMES, 1700 + case)


# ---------------------------------------------------------------------------
# Sanity the book implies
# ---------------------------------------------------------------------------


def pistoleers(gear: list[str]) -> P.Posse:
    """Five Pistol-armed models (a Hero, two Veterans, two Novices), each carrying ``gear``."""
    ranks = ["Hero", "Veteran", "Veteran", "Novice", "Novice"]
    data = {"posse": {"name": "Pistoleers", "method": "advanced", "dollar_limit": 1000}, "prices": GEAR_PRICES,
            "model": [{"name": f"Pistoleer {i}", "rank": r, "weapons": ["Pistol"], "gear": list(gear)}
                      for i, r in enumerate(ranks)]}
    posse = P.posse_from_dict(data, "pistoleers")
    P.check_posse(posse)
    return posse


def test_snake_oil_wins_more_battles():
    """Snake Oil takes a Shaken marker off or stands a Down model up: a posse with a bottle each, shot at and Shaken
    often, wins more (and Bottles Out less) than the same posse without."""
    enemy = P.sample_posse(None)
    opts = T.table_options()
    oiled = B.battle(pistoleers(["Snake Oil"]), enemy, opts, trials=20_000, seed=91)
    plain = B.battle(pistoleers([]), enemy, opts, trials=20_000, seed=92)
    d, se = T.p_win_diff(oiled, plain)
    assert d > 3 * se, (d, se)
    bottles = oiled["p_a_bottles"] - plain["p_a_bottles"]
    assert bottles < -3 * math.hypot(oiled.stderr("p_a_bottles"), plain.stderr("p_a_bottles"))
