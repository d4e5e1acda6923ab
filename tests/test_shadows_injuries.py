"""Lasting Injuries in the battle: Old Wound and Limp (rulebook "Injury Table"; docs/shadows-battles.md sections 6
and 9), in the plain reference (tests/reference_battle.py, tests/reference_table.py) and the kernel."""
from __future__ import annotations

import math
import random

import pytest

import random_posses as RP
import reference_battle as RB
import test_shadows_table as T
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P


def posse_of(injuries: list[str], ranks=("Hero", "Veteran", "Veteran", "Novice", "Novice"), name="Hurt") -> P.Posse:
    """Pistol-armed models of ``ranks``, each with the Lasting ``injuries``."""
    data = {"posse": {"name": name + (" (" + ", ".join(injuries) + ")" if injuries else ""), "method": "advanced",
                      "dollar_limit": 1000},
            "model": [{"name": f"Model {i}", "rank": r, "weapons": ["Pistol"], "injuries": list(injuries)}
                      for i, r in enumerate(ranks)]}
    posse = P.posse_from_dict(data, "hurt")
    P.check_posse(posse)
    return posse


def hurt_model(name: str, injuries: list[str], rank: str = "Veteran") -> P.PosseModel:
    data = {"posse": {"name": "t", "method": "advanced", "dollar_limit": 1000},
            "model": [{"name": name, "rank": rank, "weapons": ["Pistol"], "injuries": injuries}]}
    return P.posse_from_dict(data, "t").models[0]


# ---------------------------------------------------------------------------
# The reference against the book's text
# ---------------------------------------------------------------------------


def test_old_wound_starts_shaken_when_its_grit_die_fails():
    """"The model must roll one Grit Die before Deployment at the start of each game ... If the roll is Failed, the
    model begins that game already Shaken": Shaken at the start with chance 4/die (1-4 fail, 5+ succeeds) for the
    Hero's D10, the Veteran's D8 and the Novice's D6."""
    ranks = ("Hero", "Veteran", "Novice")
    setup = B.prepare(posse_of(["Old Wound"], ranks), P.sample_posse(None), T.table_options())
    rng = random.Random(7)
    n = 4_000
    shaken = [0, 0, 0]
    for _ in range(n):
        for i, m in enumerate(RB.Game(setup, rng).sides[0]):
            shaken[i] += m.shaken
    for k, die in zip(shaken, (10, 8, 6)):
        p = (R.SUCCESS_ON - 1) / die
        assert abs(k / n - p) < 5 * math.sqrt(p * (1 - p) / n), (k / n, p)
    # without the injury nobody starts Shaken
    plain = B.prepare(posse_of([], ranks), P.sample_posse(None), T.table_options())
    assert not any(m.shaken for _ in range(200) for m in RB.Game(plain, rng).sides[0])


def test_limp_allows_one_move_action_per_activation():
    """"If on foot, the model can only make one Move Action per Activation from now on, regardless of how many
    Actions it has": a Solo Activation far from the enemy Moves 4" once (a sound model Moves twice, 8")."""
    for injuries, travelled in (([], 2 * R.MOVE_INCHES), (["Limp"], R.MOVE_INCHES)):
        brawler = T.FakePlan(hurt_model("B", injuries), style="brawl")
        g = T.table([(brawler, (5, 5))], [(T.FakePlan(T.model("E")), (30, 5))])
        m = g.sides[0][0]
        g.start_activation(m)
        first = g.one_action(m, set(), [], late=False, after_move=False)
        second = g.one_action(m, set(), [], late=True, after_move=first == "move", second=True)
        assert first == "move" and m.x == pytest.approx(5 + travelled)
        assert second == ("move" if not injuries else None)
        # the next Activation allows a Move again
        g.start_activation(m)
        assert g.one_action(m, set(), [], late=False, after_move=False) == "move"


def test_limp_fights_instead_of_a_second_move_in_contact():
    """After its Move Action a limping model in Contact Fights (a Fight is not a Move Action), where a sound gun model
    would Disengage (a Move)."""
    gun = T.FakePlan(hurt_model("G", ["Limp"]), weapons=(T.pistol_plan(),), style="gun", desired_inches=8.0)
    g = T.table([(gun, (10, 10))], [(T.FakePlan(T.model("E")), (11, 10))], T.Dice([1, 1, 1, 1, 1, 1, 1]))
    asked = T.saves_of(g)
    m = g.sides[0][0]
    g.start_activation(m)
    m.moved = True  # its Move Action made
    assert g.one_action(m, set(), [], late=True, after_move=True, second=True) == "fight"
    assert g.fights == 1 and m.x == pytest.approx(10.0) and asked == []  # all 1s: a drawn Fight, nobody Saves


# ---------------------------------------------------------------------------
# The kernel against the reference, and the sanity the book implies
# ---------------------------------------------------------------------------


def injury_cases() -> list:
    """Random posses whose models carry Lasting Injuries (Old Wound, Limp, One-Eyed, Weakened) half the time, on the
    brawl, balanced and gunline plans, and one fixed-range firefight (Old Wound plays there too)."""
    rng = random.Random(2035)  # a seed whose every case has both Limp and Old Wound
    out = []
    for plan_a, plan_b, movement in (("brawl", "balanced", "table"), ("balanced", "gunline", "table"),
                                     ("gunline", "brawl", "table"), ("balanced", "balanced", "none")):
        a = RP.random_posse(rng, "A", skills=T.SKILLS, prices=T.HOUSE_PRICES, injuries=0.6)
        b = RP.random_posse(rng, "B", skills=T.SKILLS, prices=T.HOUSE_PRICES, injuries=0.6)
        opts = T.table_options(movement, terrain=rng.choice(T.TERRAINS), plan_a=plan_a, plan_b=plan_b,
                               **({"range_": "10"} if movement == "none" else {}))
        out.append(B.prepare(a, b, opts))
    return out


def test_injury_cases_carry_the_injuries():
    for setup in injury_cases():
        hurt = [i for side in (setup.a, setup.b) for mp in side.models for i in mp.model.injuries]
        assert R.Injury.LIMP in hurt and R.Injury.OLD_WOUND in hurt, [m.model.name for m in setup.a.models]


# One case in the quick loop on fewer reference games; every case at full size is slow (CI runs them all: README).
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) for c in range(4)]
                         + [T.quick_case("test_kernel_agrees_with_reference_with_injuries[0]")])
def test_kernel_agrees_with_reference_with_injuries(case):
    if case == "quick":
        T.check_agreement(injury_cases()[0], T.QUICK_TWIN_GAMES, 2000)
    else:
        T.check_agreement(injury_cases()[case], T.SLOW_REFERENCE_GAMES, 2000 + case)


def test_limping_brawlers_fight_less_and_old_wounds_lose_more():
    """Limp: in a Solo Activation a limping brawler closes 4", not 8", and after its Move it may not Charge, so its
    posse Fights less. Old Wound: models that may start Shaken (a Grit Die a Rank lower) win less."""
    enemy = P.sample_posse(None)
    opts = T.table_options(plan_a="brawl", plan_b="balanced", activation="solo")
    limping = B.battle(posse_of(["Limp"]), enemy, opts, trials=20_000, seed=61)
    sound = B.battle(posse_of([]), enemy, opts, trials=20_000, seed=62)
    d = sound["fights_mean"] - limping["fights_mean"]
    se = math.hypot(sound.stderr("fights_mean"), limping.stderr("fights_mean"))
    assert d > 3 * se, (d, se)
    opts = T.table_options(plan_a="gunline", plan_b="balanced")
    wounded = B.battle(posse_of(["Old Wound"]), enemy, opts, trials=20_000, seed=63)
    sound = B.battle(posse_of([]), enemy, opts, trials=20_000, seed=64)
    d, se = T.p_win_diff(sound, wounded)
    assert d > 3 * se, (d, se)
