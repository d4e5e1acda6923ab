"""Flying models on the table ("Types of Model", "Flying Models"; docs/shadows-battles.md section 2): they "may ignore
all other models ... as they Move", so the 1" of "Other Models" does not stop them on the way; where they end, it
holds. The rules model, the reference on hand-placed models and the kernel's Charge step against it."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import reference_table as RT
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_table import FakePlan, model, table
from test_shadows_table_kernel import VET, _probe, _setup

HARBINGER = R.faction_role(R.HARBINGER)


def flyer(name="F"):
    return FakePlan(replace(model(name), role=HARBINGER))


def test_rules_name_the_flying_models():
    assert R.FLYING_IGNORES_OTHER_MODELS
    assert HARBINGER.flying and R.faction_role("Vessel").flying
    assert R.UNIQUE_SUMMONINGS["Seraphim"].flying and R.UNIQUE_SUMMONINGS["Behemoth"].flying
    assert not R.UNIQUE_SUMMONINGS["Hellhound"].flying
    # Flying is played: no longer among what a unique Summoning does without
    assert "Flying" not in (R.UNIQUE_SUMMONINGS["Behemoth"].not_played or "")
    assert R.UNIQUE_SUMMONINGS["Seraphim"].not_played is None
    flying = {p: [m.name for m in P.sample_posse(p).models if m.flying] for p in P.sample_posse_names()}
    assert flying["crossroads-cult"] == ["Mr. Ash"] and flying["congregation"] == ["Baptiste"]


def test_a_flying_model_passes_an_enemy_in_its_way():
    """An enemy 0.3" off the path: a model on foot stops where its gap to it would fall below 1" (at once); a
    Flying model goes its whole 4", ending 2.02" (centre to centre) from it, outside its 1"."""
    blocker = FakePlan(model("B"))
    for plan, x in ((FakePlan(model("W")), 12 - (4 - 0.09) ** 0.5), (flyer(), 14.0)):
        g = table([(plan, (10, 10))], [(blocker, (12, 10.3)), (FakePlan(model("T")), (30, 10))])
        g.move_towards(g.sides[0][0], 30, 10, R.MOVE_INCHES)
        assert g.sides[0][0].x == pytest.approx(x) and g.sides[0][0].y == pytest.approx(10)


def test_a_flying_model_does_not_end_within_an_inch():
    """The end of the Move would be 1.3" (centre to centre) from an enemy: it ends where its path enters that
    enemy's 1" instead, and from there again for the next enemy whose 1" it is in; it goes no nearer to an enemy it
    starts within 1" of."""
    g = table([(flyer(), (10, 10))], [(FakePlan(model("B")), (14.5, 11.2))])
    m, e = g.sides[0][0], g.sides[1][0]
    g.move_towards(m, 30, 10, R.MOVE_INCHES)
    assert RT.dist(m, e) == pytest.approx(R.BASE_INCHES + R.ENEMY_CLEARANCE_INCHES)
    assert m.x < 14 and m.y == pytest.approx(10)
    # two overlapping 1" zones: back out of the second, then out of the first
    g = table([(flyer(), (10, 10))], [(FakePlan(model("B")), (13.6, 11.0)), (FakePlan(model("C")), (12.2, 11.2))])
    m = g.sides[0][0]
    g.move_towards(m, 30, 10, R.MOVE_INCHES)
    assert min(RT.dist(m, e) for e in g.sides[1]) >= R.BASE_INCHES + R.ENEMY_CLEARANCE_INCHES - 1e-9
    assert m.x == pytest.approx(12.2 - (4 - 1.2 ** 2) ** 0.5)
    # within 1" at the start, toward the enemy: no Move at all
    g = table([(flyer(), (10, 10))], [(FakePlan(model("B")), (11.5, 10))])
    g.move_towards(g.sides[0][0], 30, 10, R.MOVE_INCHES)
    assert g.sides[0][0].x == 10


def _flying_setup(flying: bool):
    st = _setup([VET], [VET, VET], plan="brawl")
    col = B._K.MODEL_COLUMNS.index("flying")
    assert not st.models[:, :, col].any()
    if flying:
        st.models[0, 0, col] = 1
    return st


@pytest.mark.parametrize("blocker,flying,charged", [
    ((12, 10.3), False, False),    # on foot: stopped short by the enemy in its way, a Move, no Fight
    ((12, 10.3), True, True),      # Flying over it: in Contact with the Target, the Fight
    ((14.5, 11.2), True, False),   # Flying, but the Target's side holds an enemy within 1" of the end
])
def test_kernel_charge_of_a_flying_model_agrees_with_the_reference(blocker, flying, charged):
    """The kernel's Charge (table_probe "charge") from (10, 10) at a Target at (15, 10), another enemy at
    ``blocker``: the same end as the reference's Move, and a Fight exactly when the Charge reaches Contact."""
    st = _flying_setup(flying)
    where = {(0, 0): (10, 10), (1, 0): (15, 10), (1, 1): blocker}
    _, did, last = _probe(st, "charge", 0, 0, 0, where=where, trials=20, seed=31)
    assert did[4] == (20 if charged else 0) and did[1] == (0 if charged else 20)
    plan = flyer() if flying else FakePlan(model("W"))
    g = table([(plan, (10, 10))], [(FakePlan(model("T")), (15, 10)), (FakePlan(model("B")), blocker)])
    m, t = g.sides[0][0], g.sides[1][0]
    g.move_towards(m, t.x - R.BASE_INCHES, t.y, R.MOVE_INCHES, ignore=(t,))
    assert RT.in_contact(m, t) is charged
    assert np.allclose(last[0, 0], (m.x, m.y), atol=1e-9)


def test_sample_flyers_have_the_kernel_column():
    col = B._K.MODEL_COLUMNS.index("flying")
    for name, flyer_name in (("crossroads-cult", "Mr. Ash"), ("congregation", "Baptiste")):
        st = B.prepare(P.sample_posse(name), P.sample_posse(None), B.battle_options())
        rows = [k for k, mp in enumerate(st.a.models) if mp.model.name == flyer_name]
        assert rows and all(st.models[0, k, col] == 1 for k in rows)
        assert st.models[0, :, col].sum() == 1 and st.models[1, :, col].sum() == 0
