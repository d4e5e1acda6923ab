"""Lookout and Reactions on the table (docs/shadows-battles.md, 'The table battle' 11): the book's rules against the
rules model and the plain reference (tests/reference_table.py), the kernel against the reference on posses with
Quickdraw and Bushwhacker and the plans that put them on Lookout, and the sanity the book implies."""
from __future__ import annotations

import random

import pytest

import reference_table as RT
import test_shadows_table as TT
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_table import Dice, FakePlan, model, pistol_plan, saves_of, table


def lookouts(skills=("Bushwhacker",), name="Lookouts") -> P.Posse:
    """Five gun models: two Carbines, a Sixgun (two shots), a Gunslinger with two Pistols, a Trigger-Happy Pistol;
    ``skills`` on every model (Quickdraw, Bushwhacker: the Reaction Skills that make a model play Lookout)."""
    rows = [("Hero", ["Carbine"], ["Gunsmith"]), ("Veteran", ["Carbine"], []), ("Veteran", ["Sixgun"], []),
            ("Novice", ["Pistol", "Pistol"], ["Gunslinger"]), ("Novice", ["Pistol"], ["Trigger-Happy"])]
    data = {"posse": {"name": name, "method": "advanced", "dollar_limit": 1000}, "prices": {"Sixgun": 6},
            "model": [{"name": f"Look {i}", "rank": r, "weapons": w, "skills": s + list(skills)}
                      for i, (r, w, s) in enumerate(rows)]}
    posse = P.posse_from_dict(data, "lookouts")
    P.check_posse(posse)
    return posse


# ---------------------------------------------------------------------------
# The book's rules, against R and the reference's pieces
# ---------------------------------------------------------------------------


def test_rules_model_lookout_and_reactions():
    assert R.REACTION_TEST_DICE == 1 and R.TESTS[R.TestKind.REACTION].base_dice == 1
    assert R.REACTIONS_PER_TRIGGERING_ACTION == 1 and not R.REACT_TO_A_REACTION
    assert R.REACTION_KINDS == ("Shoot", "Move") and not R.REACTION_SHOOT_SPOTTING_TEST
    assert R.LOOKOUT_ENDS_ACTIVATION and R.LOOKOUT_LASTS_INTO_NEXT_TURN and R.BUSHWHACKER_DICE == 1
    # every loss replaces the Lookout Token by a Done Token, but the next Activation ("at no penalty")
    assert [x.done_token for x in R.LookoutLoss] == [True, True, True, True, False]
    assert R.REACTION_REROLL_SKILL == "Quickdraw" and R.skill("Bushwhacker").grit_die_to_keep_lookout
    # "This Skill cannot be used as part of a Reaction"
    assert {s.name for s in R.SKILLS.values() if s.not_in_reaction} == {"Trigger-Happy", "Gunslinger"}


def test_reaction_order_the_books_example():
    """"Tony scores a 6, while Andy's model gets a 1. Tony therefore resolves his Reaction first"; ties: the higher
    Ranked model, then those models roll again ("Resolving a Reaction")."""
    andy, tony = (1, R.Rank.VETERAN.die), (6, R.Rank.NOVICE.die)
    assert R.reaction_order([andy, tony]) == ([1, 0], [])
    assert R.reaction_order([(4, 6), (4, 10), (4, 6)]) == ([1, 0, 2], [[0, 2]])


def lookout_plan(name="L", rank="Veteran", skills=("Bushwhacker",)):
    return FakePlan(model(name, rank, skills=list(skills)), weapons=(pistol_plan(),), style="gun",
                    desired_inches=8.0)


def test_gun_model_goes_on_lookout_instead_of_its_second_move():
    """A Lookout model (gun, Quickdraw or Bushwhacker) on an Activation's last Action after a first one, with nothing
    to shoot, goes on Lookout instead of Moving when the enemy is within Long Range (Pistol 12") plus one Move."""
    lk = lookout_plan()
    lk.lookout = True
    e = FakePlan(model("E"))
    g = table([(lk, (10, 10))], [(e, (25, 10))])  # gap 14": beyond the Pistol's 12", within 12" + 4"
    m = g.sides[0][0]
    assert g.one_action(m, set(), [], late=True, after_move=True, second=True) == "lookout"
    assert m.lookout and m.x == 10
    # a Dual Action (its only one) Moves
    g = table([(lk, (10, 10))], [(e, (25, 10))])
    assert g.one_action(g.sides[0][0], set(), [], late=True, after_move=False) == "move"
    # too far to come into range with one Move: it Moves
    g = table([(lk, (10, 10))], [(e, (28.5, 10))])  # gap 17.5"
    assert g.one_action(g.sides[0][0], set(), [], late=True, after_move=True, second=True) == "move"
    # without a Reaction Skill (plan.lookout False) it Moves
    plain = lookout_plan(skills=())
    g = table([(plain, (10, 10))], [(e, (25, 10))])
    assert g.one_action(g.sides[0][0], set(), [], late=True, after_move=True, second=True) == "move"


def test_shoot_reaction_before_the_triggering_action_then_done():
    """A Passive model on Lookout Shoots the triggering model (no Spotting Test) before its Action; "Once it Reacts,
    the Lookout Token is replaced by a Done Token"."""
    lk = lookout_plan(skills=())
    e = FakePlan(model("E"))
    # gap 5": the Pistol's Medium band, 3 dice on the Veteran's D8: 6, 2, 1 -> one Success (no Jam check: a hit)
    g = table([(lk, (10, 10))], [(e, (16, 10))], Dice([6, 2, 1], uniforms=[0.9]))
    asked = saves_of(g)
    m, t = g.sides[0][0], g.sides[1][0]
    m.lookout = True
    g.react(t)
    assert asked == [("E", R.save_target(1), 0, 0)] and g.rng.asked == [8, 8, 8]
    assert not m.lookout and m.done


def test_bushwhacker_keeps_lookout_on_a_success():
    lk = lookout_plan(skills=("Bushwhacker",))
    e = FakePlan(model("E"))
    for grit, kept in ((5, True), (4, False)):  # the Bushwhacker's one Grit Die (D8): 5+ a Success
        # a miss without a 1 (no Jamming Check), then the Grit Die
        g = table([(lk, (10, 10))], [(e, (16, 10))], Dice([2, 2, 3, grit], uniforms=[0.9]))
        saves_of(g)
        m = g.sides[0][0]
        m.lookout = True
        g.react(g.sides[1][0])
        assert m.lookout is kept and m.done is (not kept) and not g.rng.faces


def test_one_reaction_per_triggering_action_and_who_may_react():
    a, b = lookout_plan("A", skills=()), lookout_plan("B", skills=())
    e = FakePlan(model("E"))
    g = table([(a, (10, 10)), (b, (10, 12))], [(e, (16, 10))], Dice([2, 2, 3], uniforms=[0.9]))
    x, y = g.sides[0]
    x.lookout = y.lookout = True
    g.react(g.sides[1][0])
    assert not x.lookout and y.lookout and not g.rng.faces  # the first in Activation order Reacted, alone
    # out of Long Range (Pistol 12"): nobody Reacts, no die is rolled
    g = table([(a, (10, 10))], [(e, (24, 10))], Dice([]))
    g.sides[0][0].lookout = True
    g.react(g.sides[1][0])
    assert g.sides[0][0].lookout
    # the triggering model in a Fight with another model of the Passive side is not shot at
    g = table([(a, (10, 10)), (b, (17, 10))], [(e, (16, 10))], Dice([]))
    g.sides[0][0].lookout = True
    g.react(g.sides[1][0])
    assert g.sides[0][0].lookout


def test_lookout_is_lost_when_shaken_contacted_or_activated():
    a = lookout_plan(skills=())
    e = FakePlan(model("E"))
    g = table([(a, (10, 10))], [(e, (16, 10))])
    m = g.sides[0][0]
    m.lookout = True
    g.damage(m, 1, 1)  # Shaken
    assert m.shaken and not m.lookout and m.done
    # an enemy Charges into Contact
    g = table([(a, (10, 10))], [(e, (13, 10))], Dice([1, 1, 1, 1, 1, 1, 1]))
    saves_of(g)
    m = g.sides[0][0]
    m.lookout = True
    g.charge(g.sides[1][0], m)
    assert RT.in_contact(m, g.sides[1][0]) and not m.lookout and m.done
    # its next Activation: no penalty
    g = table([(a, (10, 10))], [(e, (30, 30))])
    m = g.sides[0][0]
    m.lookout = True
    g.start_activation(m)
    assert not m.lookout and not m.done


# ---------------------------------------------------------------------------
# The kernel against the reference
# ---------------------------------------------------------------------------


def reaction_cases() -> list:
    enemy = TT.random_posse(random.Random(17), "B")
    quick = lookouts(("Quickdraw",), "Quickdraws")
    return [
        B.prepare(lookouts(), P.sample_posse(None), TT.table_options(plan_a="gunline", plan_b="brawl",
                                                                      terrain="light")),
        B.prepare(quick, enemy, TT.table_options(plan_a="balanced", plan_b="gunline", activation="solo")),
        B.prepare(P.sample_posse("dark-confederacy"), lookouts(), TT.table_options(
            plan_a="balanced", plan_b="gunline", targets="weakest", terrain="dense")),
        B.prepare(lookouts(), quick, TT.table_options(plan_a="gunline", plan_b="balanced", targets="closest",
                                                      activation="solo", turns=4)),
    ]


def test_reaction_cases_put_models_on_lookout():
    for setup in reaction_cases():
        assert any(mp.lookout for side in (setup.a, setup.b) for mp in side.models)
        col = B._K.MODEL_COLUMNS.index("lookout")
        assert setup.models[:, :, col].sum() == sum(mp.lookout for side in (setup.a, setup.b) for mp in side.models)


# One case in the quick loop (`pytest -n 2`), on fewer reference games; every case at full size is slow (CI
# runs them all: README).
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) for c in range(4)] + ["quick"])
def test_kernel_agrees_with_reference_on_reactions(case):
    if case == "quick":
        TT.check_agreement(reaction_cases()[3], 800, 60_000, 1400)
    else:
        TT.check_agreement(reaction_cases()[case], TT.SLOW_REFERENCE_GAMES, 60_000, 1300 + case)


# ---------------------------------------------------------------------------
# Sanity the book implies
# ---------------------------------------------------------------------------


def test_bushwhacker_beats_quickdraw_on_lookout():
    """Both play Lookout the same way; Bushwhacker "retains its Lookout marker and is not classed as Done" on a
    Success, so it Reacts more often and its posse wins more (common random numbers: the same games)."""
    enemy = P.sample_posse("twilight-order")
    opts = TT.table_options(plan_a="gunline", plan_b="balanced")
    quick = B.prepare(lookouts(("Quickdraw",)), enemy, opts)
    bush = B.prepare(lookouts(("Bushwhacker",)), enemy, opts)
    pr = B.run_paired(quick, [bush], 40_000, seed=91)
    d, se = pr.difference(0, "a_wins")
    assert d > 3 * se > 0, (d, se)
