"""Bless, Curse and Dispel on the table (docs/shadows-battles.md section 12, "Bless and Curse tokens"): the reference's
tokens against the book's text ("Arcane Power Summary", "Casting Powers"), the kernel against the reference, and the
sanity the book implies."""
from __future__ import annotations

import pytest

import reference_battle as RB
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_arcane import arcanist_posse, caster
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                p_win_diff, quick_case, table, table_options)

BLESS, CURSE, NONE = R.Blessing.BLESS, R.Blessing.CURSE, R.Blessing.NONE


# ---------------------------------------------------------------------------
# The reference's tokens against the book's text
# ---------------------------------------------------------------------------


def test_roll_test_bless_rerolls_failures_curse_rerolls_successes_once():
    """"The Blessed model may re-roll all Failures it scores once"; "The Cursed model must re-roll all Successes it
    scores once" (after the Test's own maximum-face re-rolls, on the dice not re-rolled yet; R.Blessing)."""
    reading = R.RerollReading.B
    # D8: 2, 3, 6 -- the Bless re-rolls the 2 and the 3 (to 5 and 1); the 1 stands
    assert RB.roll_test(Dice([2, 3, 6, 5, 1]), 8, 3, reading, token=BLESS) == [5, 1, 6]
    # D8: 2, 6, 7 -- the Curse re-rolls the 6 and the 7 (to 1 and 8); the 8 grants nothing
    assert RB.roll_test(Dice([2, 6, 7, 1, 8]), 8, 3, reading, token=CURSE) == [2, 1, 8]
    # D8: 8, 2, 3 -- the 8 re-rolls the 2 (to 4); the Bless re-rolls only the 3, not the 4 again
    assert RB.roll_test(Dice([8, 2, 3, 4, 6]), 8, 3, reading, token=BLESS) == [8, 4, 6]
    # no token: no extra die
    assert RB.roll_test(Dice([2, 3, 6]), 8, 3, reading) == [2, 3, 6]


def test_token_acts_on_the_very_next_test_or_save_then_goes():
    """"... in the very next Test or Save it has to make, after which the token is removed": a Shooting, Casting
    or any other Test, or a Save (a Bless re-rolls a failed Save, a Curse a passed one)."""
    g = table([(FakePlan(model("A")), (10, 10))], [(FakePlan(model("B")), (30, 10))], Dice([2, 3, 6, 5, 1, 2, 3, 6]))
    a = g.sides[0][0]
    a.token = BLESS
    assert g.test(a, 3) == [5, 1, 6] and a.token is NONE
    assert g.test(a, 3) == [2, 3, 6]  # gone: the next Test rolls plain
    # a Save needing 5+ on a D8: a Blessed 2 is re-rolled (6: saved); a Cursed 7 is re-rolled (1: failed by 4)
    g = table([(FakePlan(model("A")), (10, 10))], [(FakePlan(model("B")), (30, 10))], Dice([2, 6, 7, 1]))
    a = g.sides[0][0]
    a.token = BLESS
    g.save(a, 5, 0, 1)
    assert a.token is NONE and not a.shaken
    a.token = CURSE
    g.save(a, 5, 0, 1)
    assert a.token is NONE and a.downed  # failed by 4: Downed (R.damage_for)
    assert R.damage_for(4) is R.Damage.DOWNED


def test_bless_and_curse_cast_place_the_token_and_cancel_each_other():
    """Bless: "Place a "Bless" token on any one visible friendly model within 12"" (Difficulty 1); Curse on an enemy.
    "Blessing a Cursed model removes that token, but otherwise has no effect. The reverse is also true." Policy: the
    first friend (enemy) in Activation order standing and not Done."""
    friend, done = FakePlan(model("Friend")), FakePlan(model("Done"))
    e1, e2 = FakePlan(model("E1")), FakePlan(model("E2"))
    g = table([(caster(casts=["Bless"]), (10, 10)), (done, (12, 10)), (friend, (20, 10))],
              [(e1, (40, 10)), (e2, (18, 15))], Dice([5, 2, 3, 5, 2, 3]))
    m, d, f = g.sides[0]
    d.done = True
    assert g.power_target(m, "Bless") is f  # the Caster and a Done friend are passed over
    f.token, f.token_by = CURSE, g.sides[1][1]
    assert g.cast(m, set(), []) and f.token is NONE  # the Curse is removed, no Bless placed
    assert g.cast(m, set(), []) and f.token is BLESS and f.token_by is m
    assert g.power_target(m, "Bless") is None  # "only one of each Power in play": its Bless is on f
    # Curse: E1 is 29" away; E2 within 12"
    g = table([(caster(casts=["Curse"]), (10, 10))], [(e1, (40, 10)), (e2, (18, 15))], Dice([5, 2, 3]))
    m = g.sides[0][0]
    assert g.power_target(m, "Curse") is g.sides[1][1]
    assert g.cast(m, set(), []) and g.sides[1][1].token is CURSE
    far = table([(caster(casts=["Curse"]), (10, 10))], [(e1, (23.1, 10))], Dice([]))  # gap 12.1"
    assert far.power_target(far.sides[0][0], "Curse") is None


def test_dispel_removes_an_enemy_bless_first_then_a_friends_curse():
    """Dispel (Difficulty 2): "Remove any one Bless, Curse, or Warding Circle token/marker within 12" from play.
    Measure to the model affected ... No LOS is required." Policy: an enemy's Bless first, else a friend's Curse."""
    friend, e1 = FakePlan(model("Friend")), FakePlan(model("E1"))
    g = table([(caster(casts=["Dispel"]), (10, 10)), (friend, (12, 10))], [(e1, (20, 10))], Dice([5, 6, 2, 5, 2, 3]))
    m, f = g.sides[0]
    e = g.sides[1][0]
    assert g.power_target(m, "Dispel") is None
    f.token = CURSE
    e.token = BLESS
    assert g.power_target(m, "Dispel") is e
    assert g.cast(m, set(), []) and e.token is NONE and f.token is CURSE
    assert g.power_target(m, "Dispel") is f
    assert g.cast(m, set(), []) and f.token is CURSE  # one Success: not Cast against Difficulty 2


def test_tokens_cease_at_recovery_and_when_the_caster_is_downed():
    """"Unless stated otherwise, the effects of all Powers cease at the start of this Game Turn's Recovery Phase."
    "Should the Caster be Downed or become a Casualty, the effects of all Powers they have in play will end
    immediately." (Shaken alone does not end them.)"""
    friend, e1 = FakePlan(model("Friend")), FakePlan(model("E1"))
    g = table([(caster(casts=["Bless"]), (10, 10)), (friend, (12, 10))], [(e1, (20, 10))], Dice([]))
    m, f = g.sides[0]
    e = g.sides[1][0]
    f.token, f.token_by = BLESS, m
    e.token, e.token_by = CURSE, m
    g.recovery(1)  # nobody Downed, nobody lost: no die rolled
    assert f.token is NONE and e.token is NONE
    f.token, f.token_by = BLESS, m
    g.damage(m, 1, None)  # Shaken
    assert m.shaken and f.token is BLESS
    g.damage(m, 1, None)  # Shaken again: Downed
    assert m.downed and f.token is NONE


# ---------------------------------------------------------------------------
# The kernel against the reference, and sanity
# ---------------------------------------------------------------------------


def token_cases() -> list:
    cult = arcanist_posse("crossroads-cult", ["Summon", "Curse", "Dispel"])
    conf = arcanist_posse("dark-confederacy", ["Faith Healing", "Bless", "Dispel"])
    return [
        B.prepare(cult, conf, table_options(plan_a="brawl", plan_b="brawl", activation="solo")),
        B.prepare(conf, cult, table_options(plan_a="brawl", plan_b="gunline", activation="dual", targets="closest")),
        B.prepare(cult, P.sample_posse(None), table_options(plan_a="brawl", terrain="light")),
    ]


# One case in the quick loop, on fewer games (its three Powers on both sides); every case at full size is slow.
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) for c in range(3)]
                         + [quick_case("test_tokens_kernel_agrees_with_reference[1]")])
def test_tokens_kernel_agrees_with_reference(case):
    if case == "quick":
        check_agreement(token_cases()[1], QUICK_TWIN_GAMES, 2711)
    else:
        check_agreement(token_cases()[case], SLOW_REFERENCE_GAMES, 2710 + case)


def test_a_cursing_arcanist_wins_more_than_the_same_not_casting():
    """Curse makes the enemy's next Test re-roll its Successes: the same brawling Arcanist wins more with Curse and
    Dispel than with Powers the battle does not model (Scry, Warding Circle)."""
    enemy = P.sample_posse(None)
    opts = table_options(plan_a="brawl")
    cursing = B.battle(arcanist_posse("crossroads-cult", ["Summon", "Curse", "Dispel"]), enemy, opts,
                       trials=20_000, seed=93)
    plain = B.battle(arcanist_posse("crossroads-cult", ["Summon", "Scry", "Warding Circle"]), enemy, opts,
                     trials=20_000, seed=93)
    d, se = p_win_diff(cursing, plain)
    assert d > 3 * se, (d, se)
