"""Arcane Powers of casting models on the table (docs/shadows-battles.md section 12): the reference's Powers against
the book's text ("Casting Powers", "Arcane Power Summary"), the policy's numbers, the kernel against the reference,
the sanity the book implies and the CLI end to end."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

import reference_battle as RB
import reference_table as RT
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                p_win_diff, quick_case, table, table_options)


def arcanist_posse(sample: str, powers: list[str], name: str | None = None) -> P.Posse:
    """A sample posse whose Arcanist (its first model) knows ``powers`` instead."""
    p = P.sample_posse(sample)
    ms = list(p.models)
    assert ms[0].is_arcanist
    ms[0] = replace(ms[0], powers=tuple(R.arcane_power(n) for n in powers))
    p = replace(p, models=tuple(ms), name=name or p.name)
    P.check_posse(p)
    return p


def caster(name="Caster", rank="Hero", casts=(), over=((), (), ())):
    """A hand-made casting model (brawl style, no Weapon): ``casts`` best first, ``over`` by band."""
    return FakePlan(model(name, rank), casts=tuple(casts), casts_over_shot=over)


# ---------------------------------------------------------------------------
# The reference's Powers against the book's text
# ---------------------------------------------------------------------------


def test_casting_test_cast_fail_and_miscast():
    """"Make a 3 Dice Casting Test ... if you score Successes equal to or over the Power's listed Difficulty, the
    Power is Cast ... If you score no Successes and at least one Die is a 1, you Miscast and the Caster immediately
    becomes Shaken (or Downed if already Shaken)." Once per Activation."""
    kid = FakePlan(model("Kid", "Novice"))
    # Arcane Blast (Difficulty 2) at a Novice 5" away: the Hero's (D10) casting 5, 6, 2 is two Successes
    g = table([(caster(casts=["Arcane Blast"]), (10, 10))], [(kid, (16, 10))], Dice([5, 6, 2, 7, 8, 1]))
    asked = RT_saves(g)
    m = g.sides[0][0]
    fired: set = set()
    assert g.cast(m, fired, []) is True and "cast" in fired
    assert asked == [("Kid", R.save_target(2), 0, 0)]  # the Blast's 3 Dice: 7, 8, 1 two Successes
    assert g.cast(m, fired, []) is False  # once per Activation
    # one Success: not Cast, no Miscast
    g = table([(caster(casts=["Arcane Blast"]), (10, 10))], [(kid, (16, 10))], Dice([5, 2, 3]))
    asked = RT_saves(g)
    m = g.sides[0][0]
    assert g.cast(m, set(), []) and not m.shaken and not m.downed and asked == []
    # no Successes and a 1: Miscast, Shaken; again: Downed
    g = table([(caster(casts=["Arcane Blast"]), (10, 10))], [(kid, (16, 10))], Dice([1, 2, 3, 4, 1, 2]))
    m = g.sides[0][0]
    assert g.cast(m, set(), []) and m.shaken and not m.downed
    assert g.cast(m, set(), []) and m.downed
    assert R.is_miscast([1, 2, 3]) and not R.is_miscast([2, 3, 4]) and not R.is_miscast([1, 5, 2])


def RT_saves(g):
    asked = []
    g.save = lambda victim, needed, modifier, credit: asked.append((victim.pm.name, needed, modifier, credit))
    return asked


def test_no_cast_in_contact_or_without_a_target():
    """"... if it is not in Contact with an enemy model"; Arcane Blast needs a Target within 9"."""
    kid = FakePlan(model("Kid", "Novice"))
    g = table([(caster(casts=["Arcane Blast"]), (10, 10))], [(kid, (11, 10))], Dice([]))
    assert g.cast(g.sides[0][0], set(), []) is False
    g = table([(caster(casts=["Arcane Blast"]), (10, 10))], [(kid, (21, 10))], Dice([]))  # gap 10" > 9"
    assert g.cast(g.sides[0][0], set(), []) is False
    g = table([(caster(casts=["Arcane Blast"]), (10, 10))], [(kid, (20, 10))], Dice([]))  # gap 9": within
    assert g.power_target(g.sides[0][0], "Arcane Blast") is g.sides[1][0]


def test_transfix_nerve_test_or_done():
    """"Target any one visible non-Entity enemy model within 6" that has not yet Activated. It must Succeed a 1 Die
    Nerve Test or immediately receive a Done Token." Nerves of Steel re-rolls the Nerve Test."""
    a, b = FakePlan(model("A", "Veteran")), FakePlan(model("B", "Veteran"))
    g = table([(caster(casts=["Transfix"]), (10, 10))], [(a, (17, 10)), (b, (15, 10))], Dice([5, 6, 1, 3]))
    m = g.sides[0][0]
    g.sides[1][1].done = True  # B has Activated: only A (gap 6") may be Transfixed
    assert g.power_target(m, "Transfix") is g.sides[1][0]
    assert g.cast(m, set(), []) and g.sides[1][0].done  # cast 5, 6, 1; the Nerve Test 3 on a D8 fails
    g = table([(caster(casts=["Transfix"]), (10, 10))], [(a, (17, 10))], Dice([5, 6, 1, 6]))
    assert g.cast(g.sides[0][0], set(), []) and not g.sides[1][0].done  # 6: a Success
    g = table([(caster(casts=["Transfix"]), (10, 10))], [(a, (18, 10))], Dice([]))
    assert g.power_target(g.sides[0][0], "Transfix") is None  # gap 7"
    steel = FakePlan(model("Steel", "Veteran", skills=["Nerves of Steel"]))
    g = table([(caster(casts=["Transfix"]), (10, 10))], [(steel, (17, 10))], Dice([5, 6, 1, 2, 7]))
    assert g.cast(g.sides[0][0], set(), []) and not g.sides[1][0].done  # 2 fails, the re-roll 7 passes


def test_immolate_centre_within_saves_partly_within_reacts():
    """"All other models (not the Caster themselves) whose centre of base lies within 3" of the Caster must make a
    5+ Save. Any model within the 3" radius, but whose centre of base is not, may make a 1 Die Reaction Test. If
    Failed, they must make the Save as well." Policy: cast only with no friend in the radius."""
    near, edge, far = (FakePlan(model(n, "Novice")) for n in ("Near", "Edge", "Far"))
    # centres 3.5", 3.8" (gap 2.8": partly within) and 4.5" (gap 3.5": outside) from the Caster's centre
    g = table([(caster(casts=["Immolate"]), (10, 10))], [(near, (13.5, 10)), (edge, (10, 13.8)), (far, (5.5, 10))],
              Dice([5, 6, 6, 2]))
    asked = RT_saves(g)
    m = g.sides[0][0]
    assert g.power_target(m, "Immolate") is m
    assert g.cast(m, set(), [])  # cast 5, 6, 6 (three Successes); Edge's Reaction Test 2 fails
    assert asked == [("Near", R.IMMOLATE_SAVE, 0, 0), ("Edge", R.IMMOLATE_SAVE, 0, 0)]
    g = table([(caster(casts=["Immolate"]), (10, 10))], [(edge, (10, 13.8))], Dice([]))
    assert g.power_target(g.sides[0][0], "Immolate") is None  # nobody's centre within 3"
    friend = FakePlan(model("Friend", "Novice"))
    g = table([(caster(casts=["Immolate"]), (10, 10)), (friend, (7, 10))], [(near, (13.5, 10))], Dice([]))
    assert g.power_target(g.sides[0][0], "Immolate") is None  # a friend would have to Save


def test_faith_healing_stands_a_downed_friend_or_unshakes():
    """"Target a friendly Down/Shaken model in Contact with the Caster. It immediately recovers and stands up if
    Down, or if Shaken it removes this Token." (Difficulty 3.)"""
    f1, f2, kid = FakePlan(model("F1")), FakePlan(model("F2")), FakePlan(model("Kid", "Novice"))
    g = table([(caster(casts=["Faith Healing"]), (10, 10)), (f1, (11, 10)), (f2, (10, 11))], [(kid, (25, 25))],
              Dice([6, 7, 8]))
    m, a, b = g.sides[0]
    a.shaken = True
    b.downed = b.shaken = True
    assert g.power_target(m, "Faith Healing") is b  # Downed first
    assert g.cast(m, set(), []) and not b.downed and b.shaken
    assert g.power_target(m, "Faith Healing") is a
    g2 = table([(caster(casts=["Faith Healing"]), (10, 10)), (f1, (11, 10))], [(kid, (25, 25))], Dice([6, 7, 2]))
    g2.sides[0][1].downed = True
    assert g2.cast(g2.sides[0][0], set(), []) and g2.sides[0][1].downed  # two Successes: not Cast


def test_a_power_worth_less_than_the_shot_waits_for_no_shot():
    """Policy: a Power whose value does not beat the best shot at the current band is cast only when a Shoot Action
    would not shoot."""
    from test_shadows_table import pistol_plan
    kid = FakePlan(model("Kid", "Novice"))
    gun = replace(caster(casts=["Arcane Blast"]), weapons=(pistol_plan(),), style="gun")
    g = table([(gun, (10, 10))], [(kid, (16, 10))], Dice([]))
    assert g.cast(g.sides[0][0], set(), []) is False  # the Pistol has a Target at Medium Range
    fired = {id(gun.weapons[0])}
    g = table([(gun, (10, 10))], [(kid, (16, 10))], Dice([1, 2, 3, 4, 1, 2]))
    assert g.cast(g.sides[0][0], fired, []) is True  # the Pistol has fired this Activation
    over = replace(gun, casts_over_shot=((), ("Arcane Blast",), ()))
    g = table([(over, (10, 10))], [(kid, (16, 10))], Dice([1, 2, 3]))
    assert g.cast(g.sides[0][0], set(), []) is True  # gap 5": Medium Range, where the Blast beats the shot


# ---------------------------------------------------------------------------
# The policy's numbers
# ---------------------------------------------------------------------------


def test_power_values_and_ranking():
    hero = R.Rank.HERO
    pc, pm = B.cast_chance(hero, "Arcane Blast")
    assert 0 < pm < pc < 1
    vals = dict(B.power_values(replace(P.sample_posse("crossroads-cult").models[0],
                                       powers=tuple(R.arcane_power(n) for n in ("Summon", "Arcane Blast", "Bless")))))
    assert vals["Summon"] == pytest.approx(max(v for _, v in B.summon_values(P.sample_posse("crossroads-cult").models[0])))
    assert vals["Arcane Blast"] == pytest.approx(pc * B.blast_steps(10) - pm)
    bc, bm = B.cast_chance(hero, "Bless")
    assert vals["Bless"] == pytest.approx(bc * B.token_effects()[0] - bm)
    st = B.prepare(arcanist_posse("crossroads-cult", ["Summon", "Arcane Blast", "Transfix"]), P.sample_posse(None),
                   table_options(plan_a="brawl"))
    mp = st.a.models[0]
    assert mp.casts == ("Arcane Blast", "Transfix")  # best first
    assert mp.casts_over_shot == (mp.casts,) * 3  # a brawl model's shot counts 0
    col = list(B._K.MODEL_COLUMNS).index("casts")
    assert st.models[0, 0, col] == (1 | 112) | ((2 | 112) << 7)
    st = B.prepare(arcanist_posse("crossroads-cult", ["Summon", "Arcane Blast", "Transfix"]), P.sample_posse(None),
                   table_options(plan_a="gunline"))
    assert st.a.models[0].casts_over_shot == ((), (), ())  # the Hero's Pistol beats both at every band
    assert any("Summons first" in n for n in st.notes)
    # a posse without a caster: every casts column 0
    st = B.prepare(P.sample_posse(None), P.sample_posse("red-hand-coven"), table_options())
    assert not st.models[0, :, col].any()


# ---------------------------------------------------------------------------
# The kernel against the reference (quick), sanity, CLI
# ---------------------------------------------------------------------------


def arcane_cases() -> list:
    return [
        B.prepare(arcanist_posse("crossroads-cult", ["Summon", "Arcane Blast", "Transfix"]), P.sample_posse(None),
                  table_options(plan_a="brawl", targets="closest")),
        B.prepare(arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"]),
                  P.sample_posse("twilight-order"), table_options(plan_a="brawl", plan_b="brawl", activation="solo")),
        B.prepare(arcanist_posse("dark-confederacy", ["Faith Healing", "Arcane Blast", "Immolate"]),
                  P.sample_posse(None), table_options(plan_a="brawl", plan_b="brawl")),
        B.prepare(P.sample_posse("red-hand-coven"),
                  arcanist_posse("crossroads-cult", ["Summon", "Arcane Blast", "Transfix"]),
                  table_options(plan_a="brawl", plan_b="gunline", activation="dual")),
    ]


# One case in the quick loop (`pytest -n 2`), on fewer reference games; every case at full size is slow (CI
# runs them all: README).
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) for c in range(4)]
                         + [quick_case("test_arcane_kernel_agrees_with_reference_quick[0]")])
def test_arcane_kernel_agrees_with_reference_quick(case):
    if case == "quick":
        check_agreement(arcane_cases()[0], QUICK_TWIN_GAMES, 1700)
    else:
        check_agreement(arcane_cases()[case], SLOW_REFERENCE_GAMES, 1700 + case)


def test_arcanist_with_powers_beats_the_same_posse_without():
    """A brawling Arcanist that casts Arcane Blast and Transfix between its Charges wins more than the same posse
    whose Arcanist knows Summon (both Summon) and Powers the battle does not model (Scry, Warding Circle)."""
    enemy = P.sample_posse(None)
    opts = table_options(plan_a="brawl")
    casting = B.battle(arcanist_posse("crossroads-cult", ["Summon", "Arcane Blast", "Transfix"]), enemy, opts,
                       trials=40_000, seed=91)
    plain = B.battle(arcanist_posse("crossroads-cult", ["Summon", "Scry", "Warding Circle"]), enemy, opts, trials=40_000,
                     seed=92)
    d, se = p_win_diff(casting, plain)
    assert d > 3 * se, (d, se)
    assert casting["casualties_b"] > plain["casualties_b"]


def test_cli_battle_with_an_arcanist_posse(tmp_path, capsys):
    """`oddsmith shadows battle` with a posse file whose Arcanist knows Arcane Blast and Transfix, end to end."""
    from oddsmith.cli import main
    _, text = P.sample_posse_text("crossroads-cult")
    old = 'powers = ["Summon", "Curse", "Scry"]'
    assert old in text
    f = tmp_path / "cult.toml"
    f.write_text(text.replace(old, 'powers = ["Summon", "Arcane Blast", "Transfix"]'))
    assert main(["shadows", "battle", str(f), "--vs", "unaligned", "--plan", "brawl", "--trials", "2000",
                 "--seed", "3", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any("casts Arcane Blast, Transfix" in n for n in out["notes"])
    assert any("Summons first" in n for n in out["notes"])
    assert any("Warding Circle" in n for n in out["not_modelled"])
    assert 0 < out["p_a_wins"] < 1
