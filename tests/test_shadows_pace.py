"""The gunline's pace (docs/shadows-battles.md section 6, gun rule (6)): a posse's gun models advance at the Move of
the slowest standing one. The reference's rule on hand-made states, the kernel's Move step, and what the policy
brings on the same games (common random numbers)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_table import Dice, FakePlan, model, pistol_plan, table, table_options


def broodkin(name="Count"):
    data = {"posse": {"name": "t", "method": "advanced", "dollar_limit": 1000, "faction": "The Red Hand Coven"},
            "model": [{"name": name, "rank": "Hero", "role": "Broodkin", "weapons": ["Pistol"]}]}
    return P.posse_from_dict(data, "t").models[0]


def gun(m):
    return FakePlan(m, weapons=(pistol_plan(),), style="gun", desired_inches=8.0)


def test_reference_fast_model_keeps_the_slowest_pace():
    """A Broodkin (Move 6") with a 4" friend moves 4" toward an enemy 20" away; with its friend Downed, or when the
    friend plays brawl (it is not in the gunline), its own 6"."""
    kid = FakePlan(model("Kid", "Novice"))
    g = table([(gun(broodkin()), (5, 5)), (gun(model("Pard")), (3, 3))], [(kid, (26, 5))], Dice())
    count, pard = g.sides[0]
    assert count.move_inches == 6 and g.pace(count) == 4
    assert g.one_action(count, set(), [], late=False, after_move=False) == "move" and count.x == pytest.approx(9)
    pard.downed = True
    assert g.pace(count) == 6
    g = table([(gun(broodkin()), (5, 5)), (FakePlan(model("Pard")), (3, 3))], [(kid, (26, 5))], Dice())
    assert g.pace(g.sides[0][0]) == 6   # a brawl-style friend does not set the gunline's pace


def test_kernel_fast_model_keeps_the_slowest_pace():
    import test_shadows_table_kernel as TK
    coven = {"posse": {"name": "Coven", "method": "advanced", "dollar_limit": 1000, "faction": "The Red Hand Coven"},
             "model": [{"name": "Count", "rank": "Hero", "role": "Broodkin", "weapons": ["Pistol"]},
                       {"name": "Pard", "rank": "Veteran", "weapons": ["Pistol"]}]}
    kid = {"posse": {"name": "Kid", "method": "advanced", "dollar_limit": 1000},
           "model": [{"name": "Kid", "rank": "Novice", "weapons": ["Pistol"]}]}
    st = B.prepare(P.posse_from_dict(coven, "c"), P.posse_from_dict(kid, "k"), table_options(plan_a="gunline"),
                   check=False)
    where = {(0, 0): (5, 5), (0, 1): (3, 3), (1, 0): (26, 5)}
    _, _, last = TK._probe(st, "action", 0, 0, where=where)
    assert tuple(last[0, 0]) == pytest.approx((9, 5))
    _, _, last = TK._probe(st, "action", 0, 0, where=where, state={(0, 1): (1, 0)})   # Pard Downed
    assert tuple(last[0, 0]) == pytest.approx((11, 5))
    loose = replace(st, opts=st.opts.copy())
    loose.opts[list(B._K.OPTION_COLUMNS).index("gun_pace")] = 0
    _, _, last = TK._probe(loose, "action", 0, 0, where=where)
    assert tuple(last[0, 0]) == pytest.approx((11, 5))


@pytest.mark.parametrize("faction", ["red-hand-coven", "twilight-order"])
def test_keeping_pace_wins_more(faction):
    """The sample Red Hand Coven (two Broodkin, 6") and Twilight Order (two Crusaders in armour, 3") against the
    sample unaligned posse, on the same games: with the gunline keeping its slowest model's pace the posse wins more
    than with each model going its own Move (docs/shadows-battles.md section 6 gives the figures). The option is both
    sides': the unaligned posse's Marshal is put on foot, as all its models were then, so that only side A's pace
    changes (mounted, his 6" would run ahead of his own line with the option off)."""
    vs = P.sample_posse("unaligned")
    vs = replace(vs, models=tuple(replace(m, horse=None) for m in vs.models))
    base = B.prepare(P.sample_posse(faction), vs, table_options())
    loose = replace(base, opts=base.opts.copy())
    loose.opts[list(B._K.OPTION_COLUMNS).index("gun_pace")] = 0
    runs = B.run_paired(loose, [base], 20_000, seed=17)
    d, se = runs.difference(0, "a_wins")
    assert d > 3 * se > 0, (d, se)
    assert np.isfinite(d)
