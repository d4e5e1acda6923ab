"""The Supernatural Events table ("Supernatural Events"; docs/shadows-battles.md section 8a): "Instead of using the
Unexpected Events table, you may roll on the following table instead" (``--events supernatural``). Unnatural Gloom
("visibility is reduced to 12" for all non-Supernatural models"), Let There Be Light ("all Supernatural models suffer a
-1 Die Modifier on all Tests") and the Arcane Storm ("all attempts to Cast Arcane Powers have a +1 Die Modifier.
However, on a Miscast the Caster immediately becomes a Casualty") are played until the end of the Game Turn; Armed
Civilians and Haunted! need terrain pieces, and the roll of 6 has no entry in this rulebook text. The rules as data,
the reference on scripted dice, the kernel's steps against the exact engine and exact dice, and whole battles."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                quick_case, table, table_options)
from test_shadows_nitro_and_water import congregation, zombi
from test_shadows_table_kernel import _fighter, _probe

GLOOM, LIGHT, STORM = 2, 4, 8   # table_probe's turn_events bits


def advanced(*models: dict) -> P.Posse:
    return P.posse_from_dict({"posse": {"name": "A", "method": "advanced", "dollar_limit": 1000},
                              "model": list(models)}, "A")


def _within(got: float, p: float, n: int) -> bool:
    return abs(got - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / n)


# ---------------------------------------------------------------------------- the rules as data and the options


def test_the_table_and_its_codes():
    assert [e.name for e in R.SUPERNATURAL_EVENTS.entries] == [
        "Armed Civilians", "Unnatural Gloom", "Haunted!", "Let There Be Light", "Arcane Storm", None]
    assert R.SUPERNATURAL_EVENTS.die == R.UNEXPECTED_EVENTS.die == 6
    assert R.LET_THERE_BE_LIGHT == -1 and R.CastingModifier.ARCANE_STORM.dice == 1
    assert list(B._event_codes(B.battle_options(events="supernatural"))[1:7]) == [0, 5, 0, 6, 7, 0]
    assert list(B._event_codes(B.battle_options())[1:7]) == [1, 0, 2, 3, 4, 0]
    assert set(B.SUPERNATURAL_EVENT_EFFECTS) >= {e.name for e in R.SUPERNATURAL_EVENTS.entries if e.name}
    assert B.event_effects(B.battle_options(events="none")) == {}


def test_the_events_option():
    assert B.battle_options().events == "unexpected"
    assert B.battle_options(events=True).events == "unexpected" and B.battle_options(events=False).events == "none"
    assert B.battle_options(events="supernatural").events == "supernatural"
    with pytest.raises(OddsmithError, match="--events must be one of unexpected, supernatural, none, got 'gloomy'"):
        B.battle_options(events="gloomy")


# ---------------------------------------------------------------------------- the reference on scripted dice


def test_reference_unnatural_gloom_blinds_the_living_only():
    """A man and a Zombi, an enemy 14" away: in Unnatural Gloom only the Zombi may Shoot at it; in a Dust Storm
    neither."""
    g = table([(FakePlan(model("H")), (10, 10)), (FakePlan(zombi()), (10, 12))],
              [(FakePlan(model("E")), (10 + R.BASE_INCHES + 14, 10))])
    h, z = g.sides[0]
    anyone = lambda gap: True  # noqa: E731
    assert list(g.each_candidate(h, anyone)) and list(g.each_candidate(z, anyone))
    g.gloom = True
    assert not list(g.each_candidate(h, anyone)) and list(g.each_candidate(z, anyone))
    g.gloom, g.dust_storm = False, True
    assert not list(g.each_candidate(h, anyone)) and not list(g.each_candidate(z, anyone))


def test_reference_let_there_be_light_takes_a_die_from_the_supernatural():
    dice = Dice([2] * 20)
    g = table([(FakePlan(model("H")), (10, 10)), (FakePlan(zombi()), (10, 12))], [(FakePlan(model("E")), (30, 30))],
              rng=dice)
    h, z = g.sides[0]
    g.light = True
    assert len(g.test(z, 3)) == 2 and len(g.test(h, 3)) == 3
    assert len(g.test(z, 1)) == 1                      # "You can never be reduced to 0 Dice for any Test"
    assert len(g.test(z, 3, unmodified=True)) == 3     # Arcane Blast's "unmodified 3 Dice Shooting Test"
    g.light = False
    assert len(g.test(z, 3)) == 3


def test_reference_arcane_storm_adds_a_die_and_a_miscast_kills():
    """A Casting Test in an Arcane Storm rolls 4 Dice; no Success and a 1 is a Miscast: "the Caster immediately
    becomes a Casualty" (worth no VP). Without the Storm: 3 Dice, and the Miscast Shakes."""
    for storm, faces in ((True, [1, 2, 2, 2]), (False, [1, 2, 2])):
        dice = Dice(faces)
        g = table([(FakePlan(model("C")), (10, 10))], [(FakePlan(model("E")), (30, 30))], rng=dice)
        c = g.sides[0][0]
        g.storm = storm
        assert not g.casting_test(c, 1)
        assert len(dice.asked) == len(faces) and not dice.faces
        assert (not c.on_table and g.vp == [0, 0]) if storm else (c.on_table and c.shaken)


# ---------------------------------------------------------------------------- the kernel's steps


@pytest.mark.parametrize("zombi_attacks", [True, False])
def test_kernel_fight_in_the_light_agrees_with_the_exact_engine(zombi_attacks):
    """A Veteran Zombi and a Veteran man Fight in Let There Be Light: the Zombi rolls one Die fewer (engine.fight with
    its dice_mod -1), the man as ever; 40,000 trials, each model's Shaken, Downed and Casualty within 5 standard
    errors. A kernel that forgot the Light fails both cases by more than 5 standard errors."""
    zv = {"name": "Z", "rank": "Veteran", "role": "Zombi", "weapons": ["Pistol"]}
    man = {"name": "M", "rank": "Veteran", "weapons": ["Pistol"]}
    st = B.prepare(congregation(zv) if zombi_attacks else advanced(man),
                   advanced(man) if zombi_attacks else congregation(zv), table_options(), check=False)
    trials = 40_000
    out, _, _ = _probe(st, "fight", 0, 0, 0, where={(0, 0): (10, 10), (1, 0): (11, 10)}, trials=trials, seed=31,
                       turn_events=LIGHT)
    att, dfn = _fighter(st.a.models[0].model), _fighter(st.b.models[0].model)
    if zombi_attacks:
        att = replace(att, dice_mod=att.dice_mod + R.LET_THERE_BE_LIGHT)
    else:
        dfn = replace(dfn, dice_mod=dfn.dice_mod + R.LET_THERE_BE_LIGHT)
    exact = E.fight(att, dfn, fractions=False)
    for side, who in ((1, "defender"), (0, "attacker")):
        for k, name in ((3, "casualty"), (1, "downed"), (2, "shaken")):
            p = float(exact[f"{who}_{name}"])
            assert _within(out[side, 0, k] / trials, p, trials), (who, name, out[side, 0, k] / trials, p)


def test_kernel_vessel_in_an_arcane_storm():
    """The Vessel (a Veteran, D8) casts Arcane Blast at an enemy 5" away: in an Arcane Storm on 4 Dice, its Miscast
    (no Success, a 1) makes it a Casualty: (4/8)^4 - (3/8)^4 of the time; without the Storm, 3 Dice and a Miscast
    Shakes it: (4/8)^3 - (3/8)^3, never a Casualty."""
    st = B.prepare(congregation({"name": "V", "rank": "Veteran", "role": "Vessel", "weapons": ["Pistol"]}),
                   advanced({"name": "E", "rank": "Hero", "weapons": ["Pistol"]}), table_options(), check=False)
    assert st.a.models[0].arcane_blast
    trials = 40_000
    where = {(0, 0): (10, 10), (1, 0): (10 + R.BASE_INCHES + 5, 10)}
    out, did, _ = _probe(st, "action", 0, 0, 1, where=where, trials=trials, seed=33, turn_events=STORM)
    assert _within(out[0, 0, 3] / trials, 0.5 ** 4 - 0.375 ** 4, trials) and out[0, 0, 2] == 0
    out, _, _ = _probe(st, "action", 0, 0, 1, where=where, trials=trials, seed=33)
    assert out[0, 0, 3] == 0 and _within(out[0, 0, 2] / trials, 0.5 ** 3 - 0.375 ** 3, trials)


def test_kernel_gloom_stops_the_living_shooting_past_twelve_inches():
    """A Carbine 14" from its Target on the Activation's last Action: a man in Unnatural Gloom cannot see it and
    Moves; a Zombi Shoots; in a Dust Storm both Move; with no Event both Shoot."""
    carbine = {"rank": "Veteran", "weapons": ["Carbine"]}
    target = advanced({"name": "E", "rank": "Novice", "weapons": ["Pistol"]})
    where = {(0, 0): (5, 10), (1, 0): (5 + R.BASE_INCHES + 14, 10)}
    man = advanced({**carbine, "name": "H"})
    zombi_ = congregation({**carbine, "name": "Z", "role": "Zombi"})
    for shooter, events, shoots in ((man, GLOOM, False), (zombi_, GLOOM, True), (man, 1, False), (zombi_, 1, False),
                                    (man, 0, True)):
        st = B.prepare(shooter, target, table_options(plan_a="gunline"), check=False)
        _, did, _ = _probe(st, "action", 0, 0, 1, where=where, trials=10, seed=35, turn_events=events)
        assert bool(did[2] == 10) is shoots and bool(did[1] == 10) is not shoots, (shooter.models[0].name, events,
                                                                                   list(did))


# ---------------------------------------------------------------------------- whole battles


def events_case(j: int):
    if j == 0:
        return B.prepare(P.sample_posse("congregation"), P.sample_posse("crossroads-cult"),
                         table_options(events="supernatural"))
    return B.prepare(P.sample_posse("red-hand-coven"), P.sample_posse(None),
                     table_options(plan_a="brawl", events="supernatural", terrain="light"))


@pytest.mark.parametrize("case", [quick_case("test_kernel_agrees_with_reference_with_supernatural_events[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in (0, 1)])
def test_kernel_agrees_with_reference_with_supernatural_events(case):
    if case == "quick":
        check_agreement(events_case(0), QUICK_TWIN_GAMES, 91)
    else:
        check_agreement(events_case(case), 800 if case == 0 else SLOW_REFERENCE_GAMES, 91 + case)


def test_the_events_table_is_in_the_output():
    r = B.battle(P.sample_posse("congregation"), P.sample_posse(None), table_options(events="supernatural"),
                 trials=2_000, seed=1)
    js = r.to_json()
    assert js["event_table"] == "supernatural" and set(js["events"]) == set(B.SUPERNATURAL_EVENT_EFFECTS)
    assert 0.1 < js["p_event_per_turn"] < 0.2   # the same cards decide when an Event comes
    none = B.battle(P.sample_posse("congregation"), P.sample_posse(None), table_options(events="none"), trials=500,
                    seed=1).to_json()
    assert none["p_event_per_turn"] == 0 and none["events"] == {}
