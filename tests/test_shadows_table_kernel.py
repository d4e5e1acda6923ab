"""The table battle's kernel (ext/shadows_battle.pyx, docs/shadows-battles.md): options, plans, geometry and
Fight steps played one at a time, and the fixed-range mode (--movement none) against its recorded figures."""
from __future__ import annotations

import json
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
