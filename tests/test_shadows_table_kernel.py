"""The table battle's kernel (ext/shadows_battle.pyx, docs/shadows-battles.md): options, plans, geometry and
Fight steps played one at a time, and the fixed-range mode (--movement none) against its recorded figures."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P

FIXTURES = Path(__file__).parent / "fixtures"


# ---------------------------------------------------------------------------
# Options and plans
# ---------------------------------------------------------------------------


def test_terrain_names_and_numbers():
    assert B.parse_terrain("open") == 0.0 and B.parse_terrain("Light") == 0.25 and B.parse_terrain("dense") == 0.5
    assert B.parse_terrain("0.3") == 0.3 and B.parse_terrain(1) == 1.0
    for bad in ("swamp", "-0.1", "1.5", "nan"):
        with pytest.raises(OddsmithError, match="open, light, dense or a number between 0 and 1"):
            B.parse_terrain(bad)


def test_table_options_are_checked():
    o = B.battle_options()
    assert (o.movement, o.terrain, o.plan_a, o.plan_b) == ("table", 0.0, "balanced", "balanced")
    with pytest.raises(OddsmithError, match="--cover/--vs-cover apply to --movement none"):
        B.battle_options(cover=True)
    with pytest.raises(OddsmithError, match="--cover/--vs-cover apply to --movement none"):
        B.battle_options(vs_cover=True, movement="table")
    assert B.battle_options(cover=True, movement="none").cover_a
    with pytest.raises(OddsmithError, match="--movement must be one of table, none"):
        B.battle_options(movement="walk")
    with pytest.raises(OddsmithError, match="--plan must be one of gunline, brawl, balanced"):
        B.battle_options(plan="rush")
    with pytest.raises(OddsmithError, match="--vs-plan"):
        B.battle_options(vs_plan="rush")
    assert B.battle_options(terrain="light").terrain == 0.25
    assert "closest" in B.TARGET_POLICIES


def test_weapon_bands_follow_the_rules_model():
    a = P.sample_posse("unaligned")
    side = B.plan_side(a, B.Distance.parse("10"), False, False, table=True)
    for mp, m in zip(side.models, a.models):
        for wp in mp.weapons:
            if not wp.usable:
                continue
            w = next(x for x in m.battle_weapons() if x.name == wp.name)
            assert [b.band for b in wp.bands] == [R.RangeBand.SHORT, R.RangeBand.MEDIUM, R.RangeBand.LONG]
            for b in wp.bands:
                assert b.dice == R.shooting_dice(w, b.band, skills=m.all_skills, injuries=m.injuries)
                assert b.dice_cover == R.shooting_dice(w, b.band, cover=True, skills=m.all_skills, injuries=m.injuries)
                assert b.save_mod == w.save_modifier(b.band)
            assert [b.edge_inches for b in wp.bands] == [w.short, w.medium, w.long]
        usable = [w for w in mp.weapons if w.usable]
        if mp.style == "gun" and usable:
            assert mp.desired_inches == usable[0].bands[1].edge_inches


def test_plans_set_the_styles():
    a = P.sample_posse("red-hand-coven")
    for plan, want in (("gunline", {"gun"}), ("brawl", {"brawl"})):
        side = B.plan_side(a, B.Distance.parse("10"), False, False, table=True, plan=plan)
        assert {mp.style for mp in side.models} == want
    side = B.plan_side(a, B.Distance.parse("10"), False, False, table=True, plan="balanced")
    for mp in side.models:
        shoots = any(w.usable for w in mp.weapons) or mp.dynamite
        assert mp.style == ("brawl" if not shoots or mp.fight_bonus >= 2 else "gun")


def test_vessel_and_revenants():
    cong = B.prepare(P.sample_posse("congregation"), P.sample_posse("unaligned"))
    vessel = [mp for mp in cong.a.models if mp.model.is_vessel]
    assert len(vessel) == 1 and vessel[0].arcane_blast and vessel[0].style == "brawl"
    assert not any(w.usable for w in vessel[0].weapons) and vessel[0].dynamite == 0
    dc = B.prepare(P.sample_posse("dark-confederacy"), P.sample_posse("unaligned"))
    rev = dc.a.revenant
    assert rev is not None and rev.revenant and rev.model.rank is R.Rank.NOVICE
    assert {s.name for s in rev.model.all_skills} == {"Fearsome", "Hard to Kill"}
    n = len(dc.a.models)
    col = B._K.MODEL_COLUMNS
    assert all(dc.models[0, n + k, col.index("revenant")] == 1 for k in range(B.REVENANT_SLOTS))
    assert all(dc.models[0, n + k, col.index("vp")] == 0 for k in range(B.REVENANT_SLOTS))
    assert list(dc.order[0, n:n + 4]) == list(range(n, n + 4))
    assert dc.b.revenant is None


# ---------------------------------------------------------------------------
# --movement none: the fixed-range game as it was before the table
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("pair", ["unaligned_twilight-order", "red-hand-coven_skinwalker-tribes",
                                  "crossroads-cult_unaligned", "twilight-order_red-hand-coven"])
def test_movement_none_replays_the_fixed_range_game(pair):
    fx = json.loads((FIXTURES / "battle_fixed_range.json").read_text())["pairs"][pair]
    a, b = pair.split("_")
    r = B.battle(P.sample_posse(a), P.sample_posse(b), B.battle_options(movement="none"), trials=fx["trials"],
                 seed=fx["seed"])
    # the same random numbers consumed in the same order: the very same figures
    for fig, value in fx["figures"].items():
        assert r[fig] == value, fig
    assert [float(x) for x in r.models["p_casualty"]] == fx["p_casualty"]
    assert r["fights_mean"] == 0.0 and (r.models["p_fought"] == 0).all()


# ---------------------------------------------------------------------------
# The kernel's steps one at a time (table_probe)
# ---------------------------------------------------------------------------

import math  # noqa: E402

import numpy as np  # noqa: E402

from oddsmith.shadows import engine as E  # noqa: E402
from oddsmith.shadows import posse_odds as PO  # noqa: E402

K = B._K
FIGHTS = len(K.PROBE_DID_NAMES)  # table_probe's did: the Fights, then the Fight Casualties
FIGHT_CASUALTIES = FIGHTS + 1


def _posse(name: str, models: list[dict]) -> P.Posse:
    return P.posse_from_dict({"posse": {"name": name, "method": "advanced", "dollar_limit": 1000},
                              "prices": {"Telescopic Sight": 4}, "model": models}, name)


def _setup(a_models, b_models, **opts):
    return B.prepare(_posse("A", a_models), _posse("B", b_models), B.battle_options(**opts), check=False)


def _probe(st, kind, side, model, arg=0, *, where, trials=1, seed=1, state=None, riding=False, turn_events=0):
    """Play one step of the table game ``trials`` times from the positions ``where`` ({(side, model): (x, y)}; every
    model not named is off the table); ``riding``: ``out`` has a fifth column, the models still on horseback;
    ``turn_events``: the Events in force (bits 1 Dust Storm, 2 Unnatural Gloom, 4 Let There Be Light, 8 Arcane Storm)."""
    pos = np.zeros((2, K.MAX_MODELS, 2))
    stt = np.zeros((2, K.MAX_MODELS, 3), dtype=np.int32)
    for (s, m), xy in where.items():
        pos[s, m] = xy
        stt[s, m, 0] = 1
    for (s, m), (downed, shaken) in (state or {}).items():
        stt[s, m, 1:] = (downed, shaken)
    out = np.zeros((2, K.MAX_MODELS, 5 if riding else 4), dtype=np.int64)
    did = np.zeros(K.PROBE_DID_SIZE, dtype=np.int64)
    last = np.zeros((2, K.MAX_MODELS, 2))
    K.table_probe(np.random.PCG64(seed), st.models, st.weapons, st.n_models, st.order, st.opts, E.SAVE_TABLE_ARRAY,
                  E.DAMAGE_ARRAY, st.n_models.copy(), pos, stt, K.PROBE_KINDS.index(kind), side, model, arg, trials,
                  out, did, last, turn_events)
    return out, did, last


HERO = {"name": "H", "rank": "Hero", "weapons": ["Pistol"]}
VET = {"name": "V", "rank": "Veteran", "weapons": ["Pistol"]}
NOV = {"name": "N", "rank": "Novice", "weapons": ["Pistol"]}


def test_deployment_slots_are_the_showdown_corners():
    st = _setup([HERO], [HERO])
    a, b = K.table_slots(st.opts)
    assert a == [(7, 7), (5, 7), (7, 5), (5, 5), (3, 7), (7, 3), (3, 5), (5, 3), (1, 7), (7, 1), (3, 3), (1, 5),
                 (5, 1), (1, 3), (3, 1), (1, 1)]
    assert b == [(36 - x, 36 - y) for x, y in a]


def test_gun_model_closes_to_its_medium_range():
    st = _setup([VET], [NOV], plan="gunline")
    assert st.a.models[0].desired_inches == 8.0   # a Pistol's Medium Range ends at 8"
    # gap 9" > D* 8": it moves 1" closer (first Action of a Solo)
    _, did, last = _probe(st, "action", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (20, 10)})
    assert did[B._K.PROBE_KINDS.index("action")] == 0 and did[1] == 1
    assert tuple(last[0, 0]) == pytest.approx((11.0, 10.0))
    # gap 20": a full 4" Move
    _, _, last = _probe(st, "action", 0, 0, 0, where={(0, 0): (5, 5), (1, 0): (5, 26)})
    assert tuple(last[0, 0]) == pytest.approx((5.0, 9.0))


def test_moves_stop_an_inch_short_of_enemies_and_charges_make_contact():
    st = _setup([VET], [NOV, NOV], plan="brawl")
    # the closest enemy is 4.3" away (beyond a Charge): a 4" Move toward it stops 1" (edge to edge) short
    where = {(0, 0): (10, 10), (1, 0): (15, 11.8), (1, 1): (30, 30)}
    _, did, last = _probe(st, "action", 0, 0, 0, where=where)
    assert did[1] == 1
    assert math.dist(last[0, 0], (15, 11.8)) == pytest.approx(2.0)
    # within 4": a Charge, placed in Contact on the line between the centres, then the free Fight
    where = {(0, 0): (10, 10), (1, 0): (13, 14), (1, 1): (30, 30)}
    _, did, last = _probe(st, "action", 0, 0, 0, where=where, trials=50)
    assert did[4] == 50 and did[FIGHTS] == 50
    assert math.dist(last[0, 0], (13, 14)) == pytest.approx(1.0)
    assert tuple(last[0, 0]) == pytest.approx((13 - 0.6, 14 - 0.8))


def _fighter(model: P.PosseModel) -> E.Fighter:
    """The exact engine's Fighter, Close Work counting every Pistol carried (two Pistols are two)."""
    f = PO.fighter_of(model)
    if f.close_work_pistols:
        pistols = sum(1 for w in model.weapons if w.weapon_class is R.WeaponClass.PISTOL)
        f = replace(f, close_work_pistols=min(pistols, R.CLOSE_WORK_MAX_PISTOLS))
    return f


@pytest.mark.parametrize("attacker,defender,charging", [
    (VET, NOV, 0), (VET, NOV, 1), (NOV, HERO, 0),
    ({"name": "M", "rank": "Veteran", "weapons": ["Pistol", "Pistol"], "skills": ["Mean", "Close Work"]}, HERO, 0),
    ({"name": "R", "rank": "Novice", "weapons": ["Pistol"], "skills": ["Bull-Rush"]}, NOV, 1),
    (VET, {"name": "T", "rank": "Veteran", "weapons": ["Pistol"], "skills": ["Tough", "'Ornery"]}, 1),
])
def test_a_fight_agrees_with_the_exact_engine(attacker, defender, charging):
    st = _setup([attacker], [defender])
    trials = 40_000
    out, did, _ = _probe(st, "fight", 0, 0, charging, where={(0, 0): (10, 10), (1, 0): (11, 10)}, trials=trials,
                         seed=3 + charging)
    assert did[FIGHTS] == trials
    exact = E.fight(_fighter(st.a.models[0].model), _fighter(st.b.models[0].model), charging=bool(charging),
                    fractions=False)
    for side, who in ((1, "defender"), (0, "attacker")):
        for k, name in ((3, "casualty"), (1, "downed"), (2, "shaken")):
            p = float(exact[f"{who}_{name}"])
            got = out[side, 0, k] / trials
            se = math.sqrt(max(p * (1 - p), 1e-6) / trials)
            assert abs(got - p) <= 5 * se, (who, name, got, p)


def test_outnumbered_costs_a_die_per_unengaged_enemy():
    st = _setup([VET], [NOV, NOV, NOV])
    trials = 40_000
    where = {(0, 0): (10, 10), (1, 0): (11, 10), (1, 1): (9, 10), (1, 2): (10, 11)}
    out, _, _ = _probe(st, "fight", 0, 0, 0, where=where, trials=trials, seed=5)
    exact = E.fight(E.Fighter.of("Veteran", outnumbered=2), "Novice", fractions=False)
    for k, name in ((3, "casualty"), (1, "downed")):
        got = sum(out[1, j, k] for j in range(3)) / trials   # the Defender: the lowest die, ties the lower index
        assert out[1, 1, k] == out[1, 2, k] == 0
        p = float(exact[f"defender_{name}"])
        assert abs(got - p) <= 5 * math.sqrt(p * (1 - p) / trials), (name, got, p)


def test_a_downed_defender_is_finished_off():
    st = _setup([VET], [NOV])
    out, did, _ = _probe(st, "fight", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (10, 11)}, trials=20,
                         state={(1, 0): (1, 0)})
    assert out[1, 0, 3] == 20 and did[FIGHTS] == 20 and did[FIGHT_CASUALTIES] == 20


def test_disengage_fails_half_the_time_on_a_d8_then_saves_for_each_enemy():
    st = _setup([VET], [NOV, NOV])
    trials = 60_000
    where = {(0, 0): (10, 10), (1, 0): (11, 10), (1, 1): (10, 11)}
    out, did, last = _probe(st, "disengage", 0, 0, where=where, trials=trials, seed=9)
    assert did[5] == trials
    # exact: the Test fails 1/2 (D8, 5+); then two 5+ Saves on the D8 (Shaken after the first lowers the die)
    p_fail = 1 - R.spotting_pass_chance(8)
    def save(die):
        res = {}
        for face in range(1, die + 1):
            code = int(E.DAMAGE_ARRAY[max(R.DISENGAGE_FAIL_SAVE - face, 0)]) if face < R.DISENGAGE_FAIL_SAVE else 0
            res[code] = res.get(code, 0) + 1 / die
        return res
    shaken_die = R.grit_die(R.Rank.VETERAN, True, False)
    p = {"none": 0.0, "shaken": 0.0, "downed": 0.0, "cas": 0.0}
    for c1, p1 in save(8).items():
        if c1 == 3:
            p["cas"] += p1
            continue
        if c1 == 2:
            p["downed"] += p1
            continue
        for c2, p2 in save(shaken_die if c1 == 1 else 8).items():
            code = c2 if c1 == 0 else {0: 1, 1: 2, 2: 2, 3: 3}[c2]
            p[{0: "none", 1: "shaken", 2: "downed", 3: "cas"}[code]] += p1 * p2
    for k, name in ((3, "cas"), (1, "downed"), (2, "shaken")):
        want = float(p_fail) * p[name]
        got = out[0, 0, k] / trials
        assert abs(got - want) <= 5 * math.sqrt(want * (1 - want) / trials) + 1e-9, (name, got, want)


def test_spotting_test_for_the_most_dangerous_target():
    """A Veteran (D8: a Spotting Test passes 1/2, worth taking) with a Pistol: the Hero 10" away is the preferred
    Target, the Novice 3" away the legal one. most-dangerous: half the Actions are wasted, the rest go at the Hero;
    closest: every shot goes at the Novice."""
    hero_far, nov_near = {"name": "Far", "rank": "Hero", "weapons": ["Carbine"]}, NOV
    trials = 40_000
    where = {(0, 0): (10, 10), (1, 0): (21, 10), (1, 1): (14, 10)}
    shooter = E.Shooter.of("Veteran")
    for policy in ("most-dangerous", "closest"):
        st = _setup([VET], [hero_far, nov_near], targets=policy)
        assert list(st.order[1][:2]) == [0, 1]
        out, _, _ = _probe(st, "shoot", 0, 0, where=where, trials=trials, seed=11)
        hit_far = sum(out[1, 0, k] for k in (1, 2, 3)) / trials
        hit_near = sum(out[1, 1, k] for k in (1, 2, 3)) / trials
        far = E.shoot(shooter, "Hero", "Pistol", range_band="long", fractions=False)
        near = E.shoot(shooter, "Novice", "Pistol", range_band="short", fractions=False)
        p_far = sum(far[k] for k in ("shaken", "downed", "casualty"))
        p_near = sum(near[k] for k in ("shaken", "downed", "casualty"))
        want_far, want_near = (p_far / 2, 0.0) if policy == "most-dangerous" else (0.0, p_near)
        for got, want in ((hit_far, want_far), (hit_near, want_near)):
            assert abs(got - want) <= 5 * math.sqrt(max(want * (1 - want), 1e-6) / trials), (policy, got, want)


# ---------------------------------------------------------------------------
# Whole table battles
# ---------------------------------------------------------------------------


def test_table_mirror_match_is_even_and_seeded():
    a = P.sample_posse("unaligned")
    r = B.battle(a, a, trials=20_000, seed=4)
    assert abs(r["p_a_wins"] - r["p_b_wins"]) < 5 * math.hypot(r.stderr("p_a_wins"), r.stderr("p_b_wins"))
    assert r["turns_mean"] > 2
    st = B.prepare(a, a)
    assert np.array_equal(B.run_counts(st, 9_000, 5, workers=1), B.run_counts(st, 9_000, 5, workers=2))


def test_terrain_and_plans_change_the_battle():
    a, b = P.sample_posse("unaligned"), P.sample_posse("red-hand-coven")
    open_ = B.battle(a, b, trials=8_000, seed=2)
    dense = B.battle(a, b, B.battle_options(terrain="dense"), trials=8_000, seed=2)
    both = open_["casualties_a"] + open_["casualties_b"] - dense["casualties_a"] - dense["casualties_b"]
    assert both > 5 * math.hypot(open_.stderr("casualties_a"), dense.stderr("casualties_a"))
    gun = B.battle(a, b, B.battle_options(plan="gunline", vs_plan="gunline"), trials=8_000, seed=2)
    brawl = B.battle(a, b, B.battle_options(plan="brawl", vs_plan="brawl"), trials=8_000, seed=2)
    assert brawl["fights_mean"] > gun["fights_mean"] + 5 * math.hypot(brawl.stderr("fights_mean"),
                                                                      gun.stderr("fights_mean"))
    assert brawl["p_a_fight_casualties"] + brawl["p_b_fight_casualties"] > 0
    assert (brawl.models["p_fought"] > 0).any()


def test_revenants_join_and_follow_their_boss():
    dc, un = P.sample_posse("dark-confederacy"), P.sample_posse("unaligned")
    r = B.battle(dc, un, trials=6_000, seed=3)
    revs = r.models[r.models["revenant"]]
    assert list(revs["model"]) == [f"Revenant {k}" for k in range(1, 5)]
    # Revenants 1 and 2 always join, the 4th one game in three: fewer Casualties among the late ones
    pc = list(revs["p_casualty"])
    assert pc[0] > 0 and pc[3] < pc[1]
    # the General Summons: its Entities' rows are not in the Casualty figure (docs/shadows-battles.md section 12)
    own = r.models[(r.models.side == "a") & ~r.models["summoned"]]
    assert r["casualties_a"] == pytest.approx(own["p_casualty"].sum())
    assert r.models[r.models["summoned"]]["p_fought"].sum() > 0


def test_slick_gives_an_extra_action_on_the_table_only():
    a = P.sample_posse("unaligned")
    slick = replace(a, models=tuple(replace(m, skills=m.skills + (R.skill("Slick"),)) for m in a.models))
    def figure(posse, name):   # over its Dollar Limit: prepared without the posse-building check
        st = B.prepare(posse, a, check=False)
        summary, _ = B.summarise(st, B.run_counts(st, 8_000, 6), 8_000)
        return summary.set_index("figure").loc[name]
    # the extra Actions (half the time on a D8) bring the fight on sooner and hurt the enemy more
    plain, quick = figure(a, "casualties_b"), figure(slick, "casualties_b")
    assert quick["value"] - plain["value"] > 5 * math.hypot(quick["stderr"], plain["stderr"])
    plain, quick = figure(a, "turns_mean"), figure(slick, "turns_mean")
    assert plain["value"] - quick["value"] > 5 * math.hypot(quick["stderr"], plain["stderr"])
    col = B._K.MODEL_COLUMNS.index("slick")
    assert B.prepare(slick, a, check=False).models[0, 0, col] == 1
    none = B.battle_options(movement="none")
    st0, st1 = B.prepare(a, a, none, check=False), B.prepare(slick, a, none, check=False)
    assert np.array_equal(B.run_counts(st0, 4_000, 2), B.run_counts(st1, 4_000, 2))


def test_common_random_numbers_pair_table_battles():
    """Each model's Actions roll their own dice on the table too: one model made Tough changes the game little, and
    the paired error of the change is well under the independent runs' bound."""
    a, b = P.sample_posse("unaligned"), P.sample_posse("twilight-order")
    m = a.models[3]
    tough = replace(a, models=a.models[:3] + (replace(m, skills=m.skills + (R.skill("Tough"),)),) + a.models[4:])
    base = B.prepare(a, b)
    changed = B.prepare(tough, b, base.options, check=False)
    runs = B.run_paired(base, [changed], 10_000, 3)
    _, se = runs.difference(0, "a_wins")
    s0 = B.summarise(base, runs.base, 10_000)[0].set_index("figure")
    s1 = B.summarise(changed, runs.counts[0], 10_000)[0].set_index("figure")
    assert se < 0.5 * math.hypot(s0.loc["p_a_wins", "stderr"], s1.loc["p_a_wins", "stderr"])
    assert np.array_equal(runs.base, B.run_counts(base, 10_000, 3))
