"""Concentrate on the table (docs/shadows-battles.md section 12, "Concentrate"): the rule, the reference's Action
against the book's text on scripted dice, the policy's numbers and column, the kernel against the reference, and the
sanity the policy implies."""
from __future__ import annotations

from dataclasses import replace

import pytest

from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import battle_plan as BP
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_arcane import arcanist_posse, caster
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                p_win_diff, pistol_plan, quick_case, table, table_options)

BLAST = ("Arcane Blast", 0)


def test_the_rule():
    """"A Caster may declare a special Concentrate Action as the first Action of their Activation. If their second
    Action is to Cast, they gain a +1 Die Modifier to their Casting Test.\""""
    assert R.CONCENTRATE_DICE == R.CastingModifier.CONCENTRATE.dice == 1
    four = E.cast("Hero", "Summon", difficulty=3, concentrate=True, fractions=False)["cast"]
    assert four > E.cast("Hero", "Summon", difficulty=3, fractions=False)["cast"]


def gunner(concentrate=((), (), ()), casts=("Arcane Blast",)):
    """A Hero with a Pistol (gun style) who casts ``casts`` whenever it has a Target and Concentrates for the casts
    listed per band (Short, Medium, Long)."""
    plan = caster(casts=casts, over=(casts,) * 3)
    return replace(plan, weapons=(pistol_plan(),), style="gun", concentrate=tuple(frozenset(c) for c in concentrate))


def test_concentrate_then_cast_with_four_dice():
    """First Action: a Concentrate, no die rolled. Second: the Cast, its Casting Test on 4 Dice."""
    kid = FakePlan(model("Kid", "Novice"))
    dice = Dice([2, 3, 4, 5])
    g = table([(gunner(((), (BLAST,), ())), (10, 10))], [(kid, (16, 10))], dice)  # gap 5": Medium Range
    m = g.sides[0][0]
    fired: set = set()
    assert g.one_action(m, fired, [], late=False, after_move=False) == "concentrate"
    assert dice.asked == [] and "cast" not in fired
    assert g.one_action(m, fired, [], late=True, after_move=False) == "cast"
    assert dice.asked == [10] * 4  # 3 Dice + 1; one Success (5): not Cast, no 1: no Miscast
    assert not m.shaken


def test_no_concentrate_where_the_policy_or_the_book_says_no():
    kid = FakePlan(model("Kid", "Novice"))
    # the last Action (a Dual Activation's): "as the first Action of their Activation" with a second to Cast in
    dice = Dice([2, 3, 4])
    g = table([(gunner(((), (BLAST,), ())), (10, 10))], [(kid, (16, 10))], dice)
    assert g.one_action(g.sides[0][0], set(), [], late=True, after_move=False) == "cast" and dice.asked == [10] * 3
    # not the band it pays at: Medium Range, Concentrate listed at Short only
    dice = Dice([2, 3, 4])
    g = table([(gunner(((BLAST,), (), ())), (10, 10))], [(kid, (16, 10))], dice)
    m = g.sides[0][0]
    fired: set = set()
    assert g.one_action(m, fired, [], late=False, after_move=False) == "cast" and dice.asked == [10] * 3
    # a second Action that is not the first's follow-up gains nothing: the bonus is for "their second Action" only
    dice = Dice([2, 3, 4])
    g = table([(gunner(((), (BLAST,), ())), (10, 10))], [(kid, (16, 10))], dice)
    m = g.sides[0][0]
    fired = {"acted"}
    assert g.one_action(m, fired, [], late=False, after_move=False) == "cast" and dice.asked == [10] * 3


def test_with_no_shot_now_the_long_range_choice_decides():
    """Policy: with no shot now the other Action is a Move toward one, worth a shot at Long Range."""
    kid = FakePlan(model("Kid", "Novice"))
    for long_range, expect in ((frozenset({BLAST}), "concentrate"), (frozenset(), "cast")):
        dice = Dice([2, 3, 4])
        g = table([(gunner(((), (), long_range)), (10, 10))], [(kid, (16, 10))], dice)
        m = g.sides[0][0]
        m.jammed.add(id(m.plan.weapons[0]))  # the Pistol is Jammed: no shot
        assert g.one_action(m, set(), [], late=False, after_move=False) == expect


# ---------------------------------------------------------------------------
# The policy's numbers and the kernel's column
# ---------------------------------------------------------------------------


def test_gains_are_the_exact_differences_and_bits_beat_the_shot():
    posse = arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"])
    hero = posse.models[0]
    st = B.prepare(posse, P.sample_posse(None), table_options(plan_a="gunline"))
    mp = st.a.models[0]
    gains = BP.concentrate_gains(hero, mp.casts, mp.summon, False)
    for d, _ in mp.summon:
        four = E.cast(hero.rank, "Summon", difficulty=d, concentrate=True, fractions=False)
        three = E.cast(hero.rank, "Summon", difficulty=d, fractions=False)
        worth = BP.entity_worth(d)
        assert gains[("Summon", d)] == pytest.approx(four["cast"] * worth - four["miscast"]
                                                     - (three["cast"] * worth - three["miscast"]))
    for name in mp.casts:
        pc4, pm4 = B.cast_chance(hero.rank, name, True)
        pc3, pm3 = B.cast_chance(hero.rank, name)
        assert pc4 > pc3 and pm4 < pm3
        assert gains[(name, 0)] > 0
    shooter = P.shooter_of(hero)
    best = [max(BP._shot_value(shooter, w, b, False) * w.shots_per_action for w, why in BP._carried(hero)
                if why is None) for b in BP._BANDS]
    for i in range(3):
        assert mp.concentrate[i] == frozenset(k for k, v in gains.items() if v > best[i])
    assert ("Summon", 3) in mp.concentrate[0]  # a Major Entity: 4 Dice beat a Hero's Pistol shot at Short Range
    col = list(B._K.MODEL_COLUMNS).index("concentrate")
    assert st.models[0, 0, col] == BP.concentrate_column(mp) != 0
    k = [d for d, _ in mp.summon].index(3)
    assert (st.models[0, 0, col] >> (BP.CONCENTRATE_SUMMON_BIT + 3 * k)) & 7 == 7  # every band
    # brawl style never Concentrates; a posse without a caster has the column 0
    st = B.prepare(posse, P.sample_posse(None), table_options(plan_a="brawl"))
    assert st.a.models[0].concentrate == (frozenset(),) * 3 and not st.models[0, :, col].any()
    assert any("Concentrates" in n for n in B.prepare(posse, P.sample_posse(None),
                                                      table_options(plan_a="gunline")).notes)


# ---------------------------------------------------------------------------
# The kernel: its Solo Activation step, against the reference, and sanity
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("enemy_x, concentrates", [(9, False), (16, True), (30, True)])
def test_kernel_solo_activation_summons_on_four_dice_after_concentrating(enemy_x, concentrates):
    """The gunline Magister (Hero) alone against one enemy, a Solo Activation's two Actions in the kernel: at Short
    Range (gap 3") it Summons the Minor Entity at once on 3 Dice and then shoots; at Long Range (gap 10") and with no
    shot (gap 24") it Concentrates and Summons on 4 Dice. The Entity is on the table as often as the exact Casting
    Test says."""
    import test_shadows_table_kernel as TK
    cult = arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"])
    st = B.prepare(cult, P.sample_posse(None), table_options(plan_a="gunline", activation="solo"))
    assert st.a.models[0].summon[0][0] == 2  # the Minor Entity first
    trials = 20_000
    out, did, _ = TK._probe(st, "solo", 0, 0, where={(0, 0): (5, 5), (1, 0): (enemy_x, 5)}, trials=trials, seed=3)
    p = E.cast("Hero", "Summon", difficulty=2, concentrate=concentrates, fractions=False)["cast"]
    on = out[0, B._K.ENTITY_SLOT + 1, 0] / trials
    assert abs(on - p) < 5 * (p * (1 - p) / trials) ** 0.5, (on, p)
    assert did[2 if not concentrates else 7] == trials  # the second Action: a shot, or the Cast


def concentrate_cases() -> list:
    cult = arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"])
    conf = arcanist_posse("dark-confederacy", ["Faith Healing", "Summon", "Bless"])
    return [
        B.prepare(cult, P.sample_posse(None), table_options(plan_a="gunline", activation="solo")),
        B.prepare(conf, cult, table_options(plan_a="balanced", plan_b="gunline", activation="solo",
                                            terrain="light")),
    ]


# The quick twin of case 0; both cases at full size are slow (at 1,500 games a reference that never
# Concentrates fails case 0: P(win) 0.344 against 0.435).
@pytest.mark.parametrize("case", [quick_case("test_concentrate_kernel_agrees_with_reference[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in range(2)])
def test_concentrate_kernel_agrees_with_reference(case):
    if case == "quick":
        check_agreement(concentrate_cases()[0], QUICK_TWIN_GAMES, 3100)
    else:
        check_agreement(concentrate_cases()[case], SLOW_REFERENCE_GAMES, 3100 + case)


def test_concentrating_wins_more_in_solo_activations(monkeypatch):
    """Concentrate is played, and it changes who wins: the gunline Magister Concentrating (for a Minor Entity at Long
    Range or with no shot, a Major one anywhere) wins more than the same posse with Concentrate never declared. Most
    of the gain is the Move the Concentrate replaces (docs/shadows-battles.md section 12): the Magister stays back."""
    cult = arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"])
    opts = table_options(plan_a="gunline", activation="solo")
    focused = B.battle(cult, P.sample_posse(None), opts, trials=10_000, seed=31)
    monkeypatch.setattr(BP, "concentrate_column", lambda mp: 0)
    BP._rows_of.cache_clear()
    try:
        plain = B.battle(cult, P.sample_posse(None), opts, trials=10_000, seed=31)
    finally:
        BP._rows_of.cache_clear()
    d, se = p_win_diff(focused, plain)
    assert d > 5 * se, (d, se)
