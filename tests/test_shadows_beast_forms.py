"""The Skinwalkers' Beast Forms and the Broodkin's Feed on the table (docs/shadows-battles.md section 9): the rules as
data against the book's text, the reference's Actions on scripted dice line by line, the kernel's steps against the
exact Fight odds, and the kernel against the reference on whole battles."""
from __future__ import annotations

import math

import pytest

from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import battle_plan as BP
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                pistol_plan, quick_case, table, table_options)

WOLF, BEAR = R.BEAST_FORMS["Wolf Form"], R.BEAST_FORMS["Bear Form"]


def role_model(name: str, rank: str, role: str, weapons=("Pistol",), skills=(), faction="The Skinwalker Tribes"):
    """A posse model with a Faction role (the posse file's ``role``), unchecked: one model is all a test needs."""
    data = {"posse": {"name": "t", "method": "advanced", "dollar_limit": 1000, "faction": faction},
            "model": [{"name": name, "rank": rank, "role": role, "weapons": list(weapons), "skills": list(skills)}]}
    return P.posse_from_dict(data, "t").models[0]


def beast_plan(rank="Hero", form="Wolf", weapons=("Pistol",), skills=()):
    m = role_model(f"{form} walker", rank, f"Skinwalker ({form})", weapons, skills)
    return FakePlan(m, weapons=(pistol_plan(),) if weapons else (), style="brawl",
                    beast_form=R.BEAST_FORMS[f"{form} Form"])


# ---------------------------------------------------------------------------
# The rules as data ("The Skinwalker Tribes", "The Red Hand Coven")
# ---------------------------------------------------------------------------


def test_beast_forms_are_the_books():
    """"Wolf Form. Moves 6", and has an additional +2 Die Modifier in a Fight when on the Attack"; "Bear Form. If this
    model wins a Fight, its opponent suffers a -1 Save Modifier ... if the Skinwalker wins by two or more ... one
    worse"; "replaced with a suitable monstrous model on a 40mm base. It gains Fearsome ... but cannot use any Weapons
    or Gear, Cast Arcane Powers"."""
    assert (WOLF.move, WOLF.attack_dice, WOLF.win_save_modifier, WOLF.bear_hug_margin) == (6, 2, 0, None)
    assert (BEAR.move, BEAR.attack_dice, BEAR.win_save_modifier, BEAR.bear_hug_margin) == (None, 0, -1, 2)
    for f in (WOLF, BEAR):
        assert f.base_mm == 40 and f.fearsome and not f.uses_weapons_and_gear and not f.casts
    assert R.beast_form_of(R.faction_role("Wolf")) is WOLF and R.beast_form_of(R.faction_role("Bear")) is BEAR
    assert R.beast_form_of(R.faction_role("Broodkin")) is None and R.beast_form_of(None) is None
    assert R.BEAST_FORM_CHANGE_ACTION == "Move" and R.BEAST_FORM_LOST_WHEN_DOWNED
    # the Feed: "a Shaken Broodkin ... in Contact with a Downed ... non-Supernatural model ... Their victim is removed
    # from play, and the Broodkin removes their Shaken marker"
    f = R.FEED
    assert f.needs_shaken and f.victim_downed and not f.victim_supernatural and f.removes_victim and f.removes_shaken
    assert R.faction_role("Broodsire").feeds and not R.faction_role("Wolf").feeds


def test_plans_play_the_beast_form_but_not_on_the_gunline():
    wolf = role_model("Elk", "Hero", "Skinwalker (Wolf)", ["Bow", "Pistol"], ["Mean"])
    bear = role_model("Stone", "Veteran", "Skinwalker (Bear)", ["Bow"], ["Tough"])
    assert BP.beast_fight_bonus(wolf, WOLF) == 1 + 1 + 2 and BP.beast_fight_bonus(bear, BEAR) == 1 + 1
    for m, form in ((wolf, WOLF), (bear, BEAR)):
        assert BP.plays_beast_form(m, "brawl") is form and BP.plays_beast_form(m, "balanced") is form
        assert BP.plays_beast_form(m, "gunline") is None
        # balanced: its Human Form keeps its own style (guns: gun) and changes only to Charge at once
        mp = BP.plan_model(m, False, BP.Distance(10.0), False, table=True, plan="balanced")
        assert mp.style == "gun" and mp.beast_form is form and not mp.beast_at_once
        mp = BP.plan_model(m, False, BP.Distance(10.0), False, table=True, plan="brawl")
        assert mp.style == "brawl" and mp.beast_form is form and mp.beast_at_once
        mp = BP.plan_model(m, False, BP.Distance(10.0), False, table=True, plan="gunline")
        assert mp.style == "gun" and mp.beast_form is None
    # no Weapon that shoots: brawl style under balanced, in its Beast Form at once
    axe = role_model("Axe", "Veteran", "Skinwalker (Bear)", ["Woodsman's Axe"])
    mp = BP.plan_model(axe, False, BP.Distance(10.0), False, table=True, plan="balanced")
    assert mp.style == "brawl" and mp.beast_form is BEAR and mp.beast_at_once
    # the kernel's row
    st = B.prepare(P.sample_posse("skinwalker-tribes"), P.sample_posse(None), table_options())
    col = {c: i for i, c in enumerate(B._K.MODEL_COLUMNS)}
    row = st.models[0, 0]
    assert st.a.models[0].beast_form is WOLF
    assert (row[col["beast_form"]], row[col["beast_move"]], row[col["beast_attack_dice"]], row[col["beast_win_save"]],
            row[col["beast_hug_margin"]], row[col["beast_base_mm"]], row[col["base_mm"]], row[col["move"]]) == (
        2, 6000, 2, 0, 0, 40, 25, 4000)   # 2: it changes only to Charge at once (gun style, balanced)
    brawl = B.prepare(P.sample_posse("skinwalker-tribes"), P.sample_posse(None), table_options(plan_a="brawl"))
    assert brawl.models[0, 0, col["beast_form"]] == 1
    row = st.models[0, 1]
    assert (row[col["beast_move"]], row[col["beast_win_save"]], row[col["beast_hug_margin"]]) == (4000, -1, 2)
    coven = B.prepare(P.sample_posse("red-hand-coven"), P.sample_posse(None), table_options())
    feeds = [int(coven.models[0, i, col["feeds"]]) for i in range(len(coven.a.models))]
    assert feeds == [int(mp.model.role is not None and mp.model.role.name == "Broodkin") for mp in coven.a.models]
    assert sum(feeds) == 2


# ---------------------------------------------------------------------------
# The reference on scripted dice, against the book's text
# ---------------------------------------------------------------------------


def test_wolf_assumes_its_form_with_a_move_action_then_charges_six_inches_with_two_more_dice():
    """First Action: "assume its Beast Form ... by using an entire Move Action" (no die, no step). Second: a Charge
    6" away (a Wolf "Moves 6"") and its free Fight: 3 Dice +1 Charging +2 "when on the Attack" (the Hero's D10);
    the Novice defends on 3 (no Nerve Test: the Attacker, not the Defender, tests against a Fearsome enemy)."""
    kid = FakePlan(model("Kid", "Novice"))
    dice = Dice([5, 1, 1, 1, 1, 1] + [1, 1, 1] + [1])   # one Success against none; the Kid's Save: 1, failed by 4
    g = table([(beast_plan(), (10, 10))], [(kid, (17, 10))], dice)   # gap 6"
    m, k = g.sides[0][0], g.sides[1][0]
    assert g.one_action(m, set(), [], late=False, after_move=False) == "move"
    assert m.beast and (m.x, m.y) == (10, 10) and dice.asked == [] and m.moved
    assert g.one_action(m, set(), [], late=True, after_move=True) == "move"   # a Charge is a Move
    assert dice.asked == [10] * 6 + [6] * 3 + [6] and k.downed and g.fights == 1


def test_human_form_charges_four_inches_with_pistol_close_work_gone_in_beast_form():
    """In Human Form the same model charges only 4" (gap 6": it Moves); in its Beast Form it "cannot use any Weapons
    or Gear": no shot on a Solo's second Action (gap 6.7" from its 40mm base, beyond the Wolf's 6"), it Moves instead,
    until its base is 1" from the Kid's (section 11d: centres 0.8" + 0.5" + 1" apart)."""
    kid = FakePlan(model("Kid", "Novice"))
    g = table([(beast_plan(), (10, 10))], [(kid, (18, 10))], Dice())
    m = g.sides[0][0]
    m.beast = True
    assert g.one_action(m, set(), [], late=True, after_move=True) == "move"
    assert (m.x, m.y) == pytest.approx((18 - 2.3, 10.0)) and not g.can_shoot(m, set(), [])
    m.beast = False
    assert g.can_shoot(m, set(), [])   # its Pistol, in Human Form


def test_bear_wins_by_two_loser_saves_at_minus_one_and_takes_one_worse():
    """A Bear (Veteran, D8) Charges a Novice: 3 + 1 Dice. Won by 2: a Save at 6+ (2 Successes) with the Bear's -1;
    a 4 fails by 3: Downed, one worse: a Casualty (the Novice's 25mm base is smaller than the Bear's 40mm)."""
    kid = FakePlan(model("Kid", "Novice"))
    dice = Dice([5, 6, 1, 1] + [1, 1, 1] + [4])
    g = table([(beast_plan("Veteran", "Bear"), (10, 10))], [(kid, (14, 10))], dice)   # gap 3"
    m, k = g.sides[0][0], g.sides[1][0]
    m.beast = True
    assert g.one_action(m, set(), [], late=True, after_move=False) == "move"
    assert dice.asked == [8] * 4 + [6] * 3 + [6]
    assert k.casualty and g.vp[0] == 1
    # won by 1: no bear-hug, the Save at 5+ with -1: a 4 fails by 2, Shaken
    dice = Dice([5, 1, 1, 1] + [1, 1, 1] + [4])
    g = table([(beast_plan("Veteran", "Bear"), (10, 10))], [(kid, (14, 10))], dice)
    g.sides[0][0].beast = True
    g.one_action(g.sides[0][0], set(), [], late=True, after_move=False)
    assert g.sides[1][0].shaken and not g.sides[1][0].downed


def test_a_gun_style_walker_changes_only_to_charge_at_once():
    """Balanced (gun style in Human Form): it changes on an Action another follows, with the closest standing enemy
    within its Beast Form's Charge reach (6" for the Wolf); else it plays its guns."""
    kid = FakePlan(model("Kid", "Novice"))
    gunner = FakePlan(beast_plan().model, weapons=(pistol_plan(),), style="gun", beast_form=WOLF, beast_at_once=False)
    g = table([(gunner, (10, 10))], [(kid, (16, 10))], Dice())   # gap 5"
    m = g.sides[0][0]
    assert g.beast_wanted(m, late=False) and not g.beast_wanted(m, late=True)
    assert g.one_action(m, set(), [], late=False, after_move=False) == "move" and m.beast
    g = table([(gunner, (10, 10))], [(kid, (17.5, 10))], Dice())   # gap 6.5": beyond the Wolf's reach
    assert not g.beast_wanted(g.sides[0][0], late=False)


def test_a_gun_style_walker_returns_to_human_form_to_shoot():
    """Balanced (gun style): in its Beast Form, on an Action another follows, out of Contact, with no enemy (Downed
    ones too) within its Beast Form's Charge reach and a candidate for a Weapon of its Human Form, it returns to Human
    Form ("may ... return to Human Form by using an entire Move Action"): the return, then the shot."""
    kid = FakePlan(model("Kid", "Novice"))
    gunner = FakePlan(beast_plan().model, weapons=(pistol_plan(),), style="gun", beast_form=WOLF, beast_at_once=False)

    def walker_in_beast_form(gap, enemy=kid):
        g = table([(gunner, (10, 10))], [(enemy, (11 + gap, 10))], Dice())
        g.sides[0][0].beast = True
        return g, g.sides[0][0]

    g, m = walker_in_beast_form(8.0)   # beyond the Wolf's 6", within the Pistol's 12"
    assert g.one_action(m, set(), [], late=False, after_move=False) == "move"
    assert not m.beast and m.x == 10
    g, m = walker_in_beast_form(8.0)
    assert not g.human_wanted(m, late=True)                       # nothing follows: it stays a Wolf
    g, m = walker_in_beast_form(5.0)
    assert not g.human_wanted(m, late=False)                      # an enemy within its Charge
    g, m = walker_in_beast_form(13.0)
    assert not g.human_wanted(m, late=False)                      # nothing for the Pistol to shoot
    g = table([(gunner, (10, 10))], [(kid, (19, 10)), (FakePlan(model("Down", "Novice")), (14, 10))], Dice())
    m = g.sides[0][0]
    m.beast, g.sides[1][1].downed = True, True
    assert not g.human_wanted(m, late=False)                      # a Downed enemy within reach: it finishes it
    brawler = FakePlan(beast_plan().model, weapons=(pistol_plan(),), style="brawl", beast_form=WOLF)
    g = table([(brawler, (10, 10))], [(kid, (19, 10))], Dice())
    g.sides[0][0].beast = True
    assert not g.human_wanted(g.sides[0][0], late=False)         # a brawl-style walker stays in its Beast Form


def test_downed_reverts_to_human_form_and_assumes_it_again_after_recovering():
    kid = FakePlan(model("Kid", "Novice"))
    g = table([(beast_plan(), (10, 10))], [(kid, (30, 10))], Dice([1]))
    m = g.sides[0][0]
    m.beast = True
    g.save(m, 5, 0, 1)   # a 1 fails by 4: Downed
    assert m.downed and not m.beast
    m.downed, m.shaken = False, True   # Recovered
    assert g.one_action(m, set(), [], late=False, after_move=False) == "move" and m.beast


def test_no_form_change_in_contact_and_no_powers_in_beast_form():
    kid = FakePlan(model("Kid", "Novice"))
    dice = Dice([1, 1, 1, 1] + [6, 1, 1] + [6])   # the Kid wins; the walker's Save: 6, saved
    g = table([(beast_plan(), (10, 10))], [(kid, (11, 10))], dice)   # in Contact
    m = g.sides[0][0]
    assert g.one_action(m, set(), [], late=False, after_move=False) == "fight" and not m.beast


def feeder(shaken=True):
    m = role_model("Count", "Hero", "Broodkin", faction="The Red Hand Coven")
    return FakePlan(m, weapons=(pistol_plan(),), style="gun")


def test_shaken_broodkin_feeds_on_a_downed_non_supernatural_enemy():
    """"if a Shaken Broodkin spends an Action while in Contact with a Downed ... non-Supernatural model, they will
    Feed. Their victim is removed from play, and the Broodkin removes their Shaken marker": no die, no Fight, no VP."""
    kid = FakePlan(model("Kid", "Novice"))
    g = table([(feeder(), (10, 10))], [(kid, (11, 10))], Dice())
    m, k = g.sides[0][0], g.sides[1][0]
    m.shaken, k.downed = True, True
    assert g.one_action(m, set(), [], late=False, after_move=False) == "feed"
    assert k.casualty and not k.on_table and not m.shaken and g.vp == [0, 0] and g.fights == 0
    # not Shaken: it finishes the Downed enemy in a Fight (VP), as any gun model
    g = table([(feeder(), (10, 10))], [(kid, (11, 10))], Dice())
    g.sides[1][0].downed = True
    assert g.one_action(g.sides[0][0], set(), [], late=False, after_move=False) == "fight" and g.vp[0] == 1
    # a Supernatural victim is not fed on
    walker = FakePlan(role_model("Wolf", "Novice", "Skinwalker (Wolf)"))
    g = table([(feeder(), (10, 10))], [(walker, (11, 10))], Dice())
    g.sides[0][0].shaken, g.sides[1][0].downed = True, True
    assert g.one_action(g.sides[0][0], set(), [], late=False, after_move=False) == "fight"
    assert g.sides[0][0].shaken and g.vp[0] == 1


# ---------------------------------------------------------------------------
# The kernel's steps (table_probe) against the exact Fight odds and the reference's readings
# ---------------------------------------------------------------------------


def _skinwalker_setup(form: str, rank: str):
    data = {"posse": {"name": "Walkers", "method": "advanced", "dollar_limit": 1000,
                      "faction": "The Skinwalker Tribes", "native_american": True},
            "model": [{"name": "Walker", "rank": rank, "role": f"Skinwalker ({form})", "weapons": ["Pistol"]}]}
    kid = {"posse": {"name": "Kid", "method": "advanced", "dollar_limit": 1000},
           "model": [{"name": "Kid", "rank": "Novice", "weapons": ["Pistol"]}]}
    return B.prepare(P.posse_from_dict(data, "w"), P.posse_from_dict(kid, "k"),
                     table_options(plan_a="brawl", plan_b="gunline", activation="solo"), check=False)


@pytest.mark.parametrize("form, rank, gap", [("Wolf", "Hero", 5.5), ("Bear", "Veteran", 3.5)])
def test_kernel_beast_form_charge_fights_as_the_exact_odds_say(form, rank, gap):
    """The kernel's Solo Activation: the first Action assumes the Beast Form, the second Charges (the Wolf from 5.5",
    beyond a man's 4") and Fights. How often the Novice ends Shaken, Downed or a Casualty, and the Skinwalker hurt,
    equals the exact Fight odds of the Beast Form Charging (oddsmith.shadows.engine.fight: Wolf +2 on the Attack;
    the Bear's -1 Save and bear-hug against the smaller base) within 5 standard errors."""
    import test_shadows_table_kernel as TK
    st = _skinwalker_setup(form, rank)
    trials = 40_000
    out, did, _ = TK._probe(st, "solo", 0, 0, where={(0, 0): (10, 10), (1, 0): (11 + gap, 10)}, trials=trials,
                            seed=11)
    assert did[B._K.PROBE_DID_NAMES.index("charge")] == trials   # the second Action: the Charge
    odds = E.fight(E.Fighter.of(rank, form=form.lower()), "Novice", charging=True, fractions=False)
    seen = {"defender_shaken": out[1, 0, 2], "defender_downed": out[1, 0, 1], "defender_casualty": out[1, 0, 3],
            "attacker_shaken": out[0, 0, 2], "attacker_downed": out[0, 0, 1], "attacker_casualty": out[0, 0, 3]}
    for key, n in seen.items():
        p = odds[key]
        assert abs(n / trials - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / trials), (key, n / trials, p)


def _walker_probe(kind: str, gap: float, human_return: int = 1, trials: int = 200):
    """table_probe from a Skinwalker (balanced, gun style: a Wolf Hero with a Pistol) already in its Beast Form, a
    Novice ``gap`` inches away."""
    import numpy as np

    data = {"posse": {"name": "Walkers", "method": "advanced", "dollar_limit": 1000,
                      "faction": "The Skinwalker Tribes", "native_american": True},
            "model": [{"name": "Walker", "rank": "Hero", "role": "Skinwalker (Wolf)", "weapons": ["Pistol"]}]}
    kid = {"posse": {"name": "Kid", "method": "advanced", "dollar_limit": 1000},
           "model": [{"name": "Kid", "rank": "Novice", "weapons": ["Pistol"]}]}
    st = B.prepare(P.posse_from_dict(data, "w"), P.posse_from_dict(kid, "k"),
                   table_options(plan_a="balanced", plan_b="gunline", activation="solo"), check=False)
    assert st.models[0, 0, B._K.MODEL_COLUMNS.index("beast_form")] == 2
    st.opts[list(B._K.OPTION_COLUMNS).index("human_return")] = human_return
    K = B._K
    pos = np.zeros((2, K.MAX_MODELS, 2))
    state = np.zeros((2, K.MAX_MODELS, 4), dtype=np.int32)
    pos[0, 0], pos[1, 0] = (10, 10), (11 + gap, 10)
    state[0, 0] = (1, 0, 0, 1)   # on the table, in its Beast Form
    state[1, 0, 0] = 1
    out = np.zeros((2, K.MAX_MODELS, 4), dtype=np.int64)
    did = np.zeros(K.PROBE_DID_SIZE, dtype=np.int64)
    last = np.zeros((2, K.MAX_MODELS, 2))
    K.table_probe(np.random.PCG64(8), st.models, st.weapons, st.n_models, st.order, st.opts, E.SAVE_TABLE_ARRAY,
                  E.DAMAGE_ARRAY, st.n_models.copy(), pos, state, K.PROBE_KINDS.index(kind), 0, 0, 0, trials, out,
                  did, last)
    return did, last


def test_kernel_walker_returns_to_human_form_then_shoots():
    """The kernel's Solo Activation from its Beast Form, the Novice 8" away (beyond the Wolf's 6"): the return (a Move
    Action, not a step taken), then a shot; without the policy (option ``human_return`` 0) the Wolf runs in twice. An
    Action with none to follow: it stays and runs in; within its Charge (5"): the Charge."""
    names = B._K.PROBE_DID_NAMES
    did, last = _walker_probe("action", 8.0)
    assert did[names.index("move")] == 200 and tuple(last[0, 0]) == (10, 10)
    did, _ = _walker_probe("solo", 8.0)
    assert did[names.index("shoot")] == 200
    did, last = _walker_probe("solo", 8.0, human_return=0)
    assert did[names.index("move")] + did[names.index("charge")] == 200 and last[0, 0, 0] > 10
    did, _ = _walker_probe("solo", 5.0)
    assert did[len(names)] >= 200 and did[names.index("shoot")] == 0   # every trial Fights (the Charge's own)


def test_kernel_walker_measures_its_human_forms_base():
    """The Human Form's Pistol reaches 12" from the Human Form's own 25mm base (section 11d), not from the Wolf's 40mm:
    11.8" away it returns to shoot; 12.2" away (11.9" from the Wolf's edge) nothing is in range, so the Wolf runs in."""
    names = B._K.PROBE_DID_NAMES
    did, last = _walker_probe("action", 11.8)
    assert did[names.index("move")] == 200 and tuple(last[0, 0]) == (10, 10)
    did, last = _walker_probe("action", 12.2)
    assert did[names.index("move")] == 200 and last[0, 0, 0] > 10


def _feed_setup():
    coven = {"posse": {"name": "Coven", "method": "advanced", "dollar_limit": 1000, "faction": "The Red Hand Coven"},
             "model": [{"name": "Count", "rank": "Hero", "role": "Broodkin", "weapons": ["Pistol"]}]}
    data = {"posse": {"name": "Two", "method": "advanced", "dollar_limit": 1000},
            "model": [{"name": "Kid", "rank": "Novice", "weapons": ["Pistol"]},
                      {"name": "Pard", "rank": "Novice", "weapons": ["Pistol"]}]}
    return B.prepare(P.posse_from_dict(coven, "c"), P.posse_from_dict(data, "t"), table_options(), check=False)


def test_kernel_shaken_broodkin_feeds():
    import test_shadows_table_kernel as TK
    st = _feed_setup()
    where = {(0, 0): (10, 10), (1, 0): (11, 10), (1, 1): (30, 30)}
    out, did, _ = TK._probe(st, "action", 0, 0, where=where, state={(0, 0): (0, 1), (1, 0): (1, 0)}, trials=50)
    assert did[B._K.PROBE_DID_NAMES.index("feed")] == 50 and out[1, 0, 3] == 50 and out[0, 0, 2] == 0
    # not Shaken: a finishing Fight, as any gun model
    out, did, _ = TK._probe(st, "action", 0, 0, where=where, state={(1, 0): (1, 0)}, trials=50)
    assert did[B._K.PROBE_DID_NAMES.index("fight")] == 50 and out[1, 0, 3] == 50
    # no Downed model in Contact: no Feed (it Disengages from the standing one)
    out, did, _ = TK._probe(st, "action", 0, 0, where=where, state={(0, 0): (0, 1)}, trials=50)
    assert did[B._K.PROBE_DID_NAMES.index("feed")] == 0 and out[0, 0, 2] + out[0, 0, 1] + out[0, 0, 3] >= 1


# ---------------------------------------------------------------------------
# The kernel against the reference
# ---------------------------------------------------------------------------


def beast_cases() -> list:
    import random

    from random_posses import random_posse
    rng = random.Random(5)
    walkers, coven = P.sample_posse("skinwalker-tribes"), P.sample_posse("red-hand-coven")
    return [B.prepare(a, b, table_options(plan_a=pa, plan_b=pb, terrain=t)) for a, b, pa, pb, t in (
        (walkers, random_posse(rng, "B"), "balanced", "brawl", "open"),
        (coven, random_posse(rng, "B"), "brawl", "balanced", "light"),
        (walkers, coven, "brawl", "brawl", "open"),
        (random_posse(rng, "A"), walkers, "gunline", "brawl", "dense"),
    )]


# The quick case on 600 games; cases 0, 2 and 3 at full size are slow. At 1,500 games a reference whose Skinwalkers
# never leave Human Form fails each of them; one without the Feed or without the bear-hug passes them all (too rare in
# a whole battle to show): the scripted and exact checks above hold those two to the book. Case 1 (the Coven's brawl:
# no Skinwalker, its Feeds too rare to show) is left out of CI's time budget.
@pytest.mark.parametrize("case", [quick_case("test_beast_forms_kernel_agrees_with_reference[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in (0, 2, 3)])
def test_beast_forms_kernel_agrees_with_reference(case):
    if case == "quick":
        check_agreement(beast_cases()[0], QUICK_TWIN_GAMES, 4100)
    else:
        check_agreement(beast_cases()[case], SLOW_REFERENCE_GAMES, 4100 + case)
