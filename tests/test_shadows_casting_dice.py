"""The Casting Test's Dice in battles (docs/shadows-battles.md section 12): a Grimoire given to an existing Arcanist
("Supernatural Gear Summary") and the Harbinger of the Abyss near its Magister ("The Crossroads Cult"), each +1 Die;
the rules, the posse model, the reference on scripted dice and the kernel's Solo step against the exact Casting
Test."""
from __future__ import annotations

from dataclasses import replace

import pytest

from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_arcane import arcanist_posse
from test_shadows_table import Dice, table_options


def test_the_rules():
    """"If an existing Arcanist is given a Grimoire, it benefits from a +1 Die Modifier when attempting to Cast a
    Power — this does not destroy the Grimoire. Further Grimoires have no effect. Furthermore, a model with access to
    an Arcane Power, but that is not a 'true' Arcanist ... gains no benefit from a Grimoire." The Harbinger: "within
    6" of their Posse's Magister, then the Magister gets a +1 Die Modifier on all their Casting Tests"."""
    assert R.GRIMOIRE_CASTING_DICE == R.HARBINGER_CASTING_DICE == 1 and R.HARBINGER_RANGE_INCHES == 6
    assert R.grimoire_dice(1, True, True) == 0  # the Grimoire that made it an Arcanist is destroyed
    assert R.grimoire_dice(2, True, True) == 1 and R.grimoire_dice(3, True, True) == 1  # further ones: nothing
    assert R.grimoire_dice(1, True, False) == 1  # a Magister given one
    assert R.grimoire_dice(1, False, False) == 0  # not a true Arcanist


def test_posse_models_count_their_grimoires():
    cult = P.sample_posse("crossroads-cult")
    magister, harbinger = cult.models[0], cult.models[1]
    assert magister.role.name == R.MAGISTER and harbinger.role.name == R.HARBINGER
    grimoire = R.gear("Grimoire")
    assert magister.grimoire_dice == 0 and replace(magister, gear=(grimoire,)).grimoire_dice == 1
    assert replace(harbinger, gear=(grimoire,)).grimoire_dice == 0  # knows Summon, no Arcanist
    arcanist = replace(magister, role=None, arcanist=True, gear=(grimoire,))
    assert arcanist.grimoire_dice == 0 and replace(arcanist, gear=(grimoire, grimoire)).grimoire_dice == 1
    st = B.prepare(cult, P.sample_posse(None), table_options())
    col = {c: i for i, c in enumerate(B._K.MODEL_COLUMNS)}
    assert st.models[0, 0, col["magister"]] == 1 and st.models[0, 1, col["harbinger"]] == 1
    assert not st.models[0, :, col["grimoire_dice"]].any()


@pytest.mark.parametrize("harbinger_at, downed, dice", [((5.0, 8.0), False, 4), ((5.0, 13.0), False, 3),
                                                         ((5.0, 8.0), True, 3)])
def test_reference_magister_rolls_a_die_more_with_its_harbinger_near(harbinger_at, downed, dice):
    """The Harbinger 3" from the Magister's centre (gap 2"): 4 Dice; 8" (gap 7"): 3; Downed: 3."""
    import reference_table as RT
    st = B.prepare(arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"]), P.sample_posse(None),
                   table_options())
    g = RT.TableGame(st, Dice([]))
    magister, harbinger = g.sides[0][0], g.sides[0][1]
    magister.x, magister.y = 5.0, 5.0
    harbinger.x, harbinger.y = harbinger_at
    harbinger.downed = downed
    g.rng = Dice([2] * dice)
    assert g.casting_test(magister, 1) is False  # no Success, no 1
    assert g.rng.asked == [10] * dice


@pytest.mark.parametrize("harbinger_y, grimoires, extra", [(8, 0, 1), (20, 0, 0), (20, 1, 1), (8, 1, 2)])
def test_kernel_solo_summon_with_casting_dice_bonuses(harbinger_y, grimoires, extra):
    """The kernel's Solo Activation step: the Hero Magister at Short Range Summons its Minor Entity at once, on 3 Dice
    plus 1 while its Harbinger stands within 6" and plus 1 with a Grimoire given to it: the Entity is on the table as
    often as the exact Casting Test says."""
    import test_shadows_table_kernel as TK
    posse = arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"])
    if grimoires:
        ms = list(posse.models)
        ms[0] = replace(ms[0], gear=(R.gear("Grimoire"),))
        posse = replace(posse, models=tuple(ms))
    st = B.prepare(posse, P.sample_posse(None), table_options(plan_a="gunline", activation="solo"), check=False)
    assert st.a.models[0].summon[0][0] == 2
    trials = 20_000
    where = {(0, 0): (5, 5), (0, 1): (5, harbinger_y), (1, 0): (9, 5)}
    out, _, _ = TK._probe(st, "solo", 0, 0, where=where, trials=trials, seed=8)
    p = E.cast("Hero", "Summon", difficulty=2, dice_mod=extra, fractions=False)["cast"]
    on = out[0, B._K.ENTITY_SLOT + 1, 0] / trials
    assert abs(on - p) < 5 * (p * (1 - p) / trials) ** 0.5, (on, p)
