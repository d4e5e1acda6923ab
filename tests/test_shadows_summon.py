"""Summon and Banish on the table (docs/shadows-battles.md section 12, "Summoned Models"): the reference's pieces
against the book's text ("Summoned Models", "Common Summoned Models Table", "Arcane Power Summary"), the policy's
numbers, the kernel against the reference, and the sanity the book implies."""
from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

import reference_table as RT
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_arcane import arcanist_posse
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, FakeSide, check_agreement,
                                model, p_win_diff, saves_of, table_options)

ALL = (True, True, True)


@dataclass
class SummonPlan(FakePlan):
    summon: tuple = ()
    banish: tuple = ()


def summoner(name="Caster", rank="Hero", summon=((1, ALL),), banish=()):
    """A hand-made Summoner (brawl style, no Weapon): ``summon`` its ranked Difficulties, ``banish`` its bits."""
    return SummonPlan(model(name, rank, weapons=()), summon=tuple(summon), banish=tuple(banish))


def game(a, b, rng, ents=(True, False)):
    """A TableGame of hand-made sides (lists of (plan, (x, y))); ``ents``: which sides have their Entities."""
    sides = []
    for side, has in zip((a, b), ents):
        fs = FakeSide(tuple(p for p, _ in side))
        fs.entities = B.entity_plans(B.battle_options().distance, False, True) if has else ()
        sides.append(fs)
    from types import SimpleNamespace
    g = RT.TableGame(SimpleNamespace(a=sides[0], b=sides[1], options=B.battle_options()), rng)
    for s, side in enumerate((a, b)):
        for m, (_, xy) in zip(g.sides[s], side):
            m.x, m.y = xy
    return g


def put(g, s, difficulty, owner, xy):
    """Bring side s's Entity of ``difficulty`` onto the table at ``xy`` (owned by ``owner``)."""
    e = g.entity(s, difficulty)
    g.bring_into_play(owner, e)
    e.x, e.y = xy
    return e


# ---------------------------------------------------------------------------
# The book's text
# ---------------------------------------------------------------------------


def test_entity_stat_lines():
    """Common Summoned Models Table: Lesser 25mm 4" D6, Minor 25mm 4" D8, Major 40mm 4" D10, each "Entity.
    Fearsome"; an Entity is a Supernatural Creature ("Where an effect pertains to a Supernatural model, it also
    applies to an Entity"): Silver Bullets; no Weapons; worth the VP of the Rank of its Grit Die."""
    book = {1: ("Lesser Entity", 25, 6, 1), 2: ("Minor Entity", 25, 8, 2), 3: ("Major Entity", 40, 10, 3)}
    for d, (name, base, die, vp) in book.items():
        e = R.SUMMONED_ENTITIES[R.SUMMON_DIFFICULTY[d]]
        assert (e.name, e.base_mm, e.move, e.grit) == (name, base, 4, die)
        m = B.entity_model(d)
        assert m.name == name and m.rank.die == die and m.rank.victory_points == vp
        assert m.supernatural and any(s.fearsome for s in m.all_skills) and not m.battle_weapons()
        assert m.move_inches == 4
    plans = B.entity_plans(B.battle_options().distance, False, True)
    assert [p.style for p in plans] == ["brawl"] * 3 and [p.summoned for p in plans] == [
        "Lesser Entity", "Minor Entity", "Major Entity"]
    assert R.arcane_power("Summon").difficulties == (1, 2, 3) and R.arcane_power("Banish").difficulty == 1
    assert R.ARCANE_BLAST_ENTITY_DICE == 4


def test_summon_places_the_entity_within_3_and_not_within_1_of_an_enemy():
    """"Choose a Difficulty before rolling to Cast. If successful, place the appropriate Entity within LOS and 3" of
    the Caster, and no closer than 1" to an enemy." Difficulty 2 Summons a Minor Entity."""
    kid = FakePlan(model("Kid", "Novice"))
    g = game([(summoner(summon=((2, ALL),)), (10, 10))], [(kid, (20, 10))], Dice([5, 6, 1]))
    m = g.sides[0][0]
    assert g.summon_or_banish(m, set(), []) is True
    e = g.entity(0, 2)
    assert e.on_table and e.owner is m and not e.done and g.entity(0, 1).on_table is False
    assert abs(RT.gap(m, e) - 3) < 1e-9 and RT.gap(e, g.sides[1][0]) >= 1 - 1e-9
    # an enemy 4" away: the Entity stops 1" from it
    g = game([(summoner(), (10, 10))], [(kid, (15, 10))], Dice([5, 2, 3]))
    assert g.summon_or_banish(g.sides[0][0], set(), [])
    assert abs(RT.gap(g.entity(0, 1), g.sides[1][0]) - 1) < 1e-9 and abs(RT.gap(g.sides[0][0], g.entity(0, 1)) - 2) < 1e-9
    # one Success is not enough for Difficulty 2; no Successes and a 1 is a Miscast
    g = game([(summoner(summon=((2, ALL),)), (10, 10))], [(kid, (20, 10))], Dice([5, 2, 3]))
    assert g.summon_or_banish(g.sides[0][0], set(), []) and not g.entity(0, 2).on_table
    g = game([(summoner(), (10, 10))], [(kid, (20, 10))], Dice([1, 2, 3]))
    assert g.summon_or_banish(g.sides[0][0], set(), []) and g.sides[0][0].shaken and not g.entity(0, 1).on_table
    # an enemy within 1" of the Caster, or none standing: no Summon (nothing rolled)
    g = game([(summoner(), (10, 10))], [(kid, (11.5, 10))], Dice([]))
    assert g.summon_or_banish(g.sides[0][0], set(), []) is False


def test_one_summoned_model_per_summoner_and_one_of_each_type():
    """"A Posse can only have one Summoned model in play per Summoner at any time, and may only have one of each type
    of Entity at a time ... If the same Summoner brings a new model into play that would not otherwise be allowed, an
    existing Summoned model (of your choice) is immediately removed from the table"."""
    kid = FakePlan(model("Kid", "Novice"))
    g = game([(summoner("One", summon=((1, ALL), (2, ALL))), (10, 10)),
              (summoner("Two", summon=((1, ALL), (2, ALL))), (6, 10))], [(kid, (30, 30))], Dice([5, 6, 2]))
    one, two = g.sides[0][0], g.sides[0][1]
    lesser = put(g, 0, 1, one, (12, 12))
    # its own Summoned model is in play: the policy does not Summon again (nothing rolled)
    assert g.summon_or_banish(one, set(), []) is False
    # another Summoner: the Lesser type is in play, so it Summons at its next Difficulty (a Minor Entity)
    assert g.summon_or_banish(two, set(), []) and g.entity(0, 2).on_table and g.entity(0, 2).owner is two
    # the rule itself: the same Summoner bringing a second model removes its first
    put(g, 0, 3, one, (14, 14))
    assert not lesser.on_table and not lesser.casualty and g.entity(0, 3).on_table


def test_only_summoned_models_left_are_removed():
    """"If you only have Summoned models left on the table at any point, they are removed immediately"; "Should the
    Caster be Downed or become a Casualty ... Any Summoned Entities they brought into play will, however, remain."
    A Summoned model "is worth VPs to the model that caused it to become a Casualty, as normal"."""
    kid = FakePlan(model("Kid", "Novice"))
    g = game([(summoner("Caster"), (10, 10)), (FakePlan(model("Friend", "Novice")), (5, 5))], [(kid, (30, 30))], Dice())
    caster, friend = g.sides[0][:2]
    e = put(g, 0, 2, caster, (12, 12))
    g.remove_casualty(caster, 1)
    assert e.on_table and g.vp[1] == R.Rank.HERO.victory_points  # a friend is still on the table
    g.remove_casualty(friend, 1)
    assert not e.on_table and not e.casualty  # removed, not a Casualty
    g = game([(summoner("Caster"), (10, 10))], [(kid, (30, 30))], Dice())
    e = put(g, 0, 2, g.sides[0][0], (12, 12))
    g.remove_casualty(e, 1)
    assert e.casualty and g.vp[1] == 2  # a Minor Entity (D8) is worth a Veteran's 2 VP


def test_banish_removes_on_a_higher_roll_only():
    """Banish: "Roll one Grit Die on behalf of the Caster — a visible Target enemy Entity model within 6" does the same.
    If the Caster rolls higher, the Target is immediately removed from play, otherwise there is no effect." Removed
    from play: not a Casualty, no VP."""
    banisher = summoner("Banisher", "Veteran", summon=(), banish=((True, *ALL),) * 3)
    owner = FakePlan(model("Owner", "Novice"))
    for faces, gone in (([5, 1, 2, 4, 4], False), ([5, 1, 2, 5, 4], True), ([5, 1, 2, 3, 6], False)):
        g = game([(banisher, (10, 10))], [(owner, (30, 30))], Dice(faces), ents=(False, True))
        e = put(g, 1, 3, g.sides[1][0], (17, 10))  # a Major Entity 6" away (edge to edge)
        assert g.summon_or_banish(g.sides[0][0], set(), []) is True
        assert e.on_table is not gone and not e.casualty and g.vp == [0, 0]
        assert g.rng.asked[-2:] == [8, 10]  # the Caster's D8 against the Major Entity's D10
    g = game([(banisher, (10, 10))], [(owner, (30, 30))], Dice([]), ents=(False, True))
    put(g, 1, 3, g.sides[1][0], (17.5, 10))  # 6.5" away: out of reach
    assert g.summon_or_banish(g.sides[0][0], set(), []) is False


def test_arcane_blast_rolls_four_dice_at_an_entity_and_transfix_never_targets_one():
    """Arcane Blast: "Roll four Dice if the Target is an Entity"; Transfix: "Target any one visible non-Entity enemy"."""
    caster = FakePlan(model("Caster", "Hero"), casts=("Arcane Blast",))
    owner = FakePlan(model("Owner", "Novice"))
    g = game([(caster, (10, 10))], [(owner, (30, 30))], Dice([5, 6, 1, 5, 5, 1, 5]), ents=(False, True))
    put(g, 1, 1, g.sides[1][0], (15, 10))
    asked = saves_of(g)
    assert g.cast(g.sides[0][0], set(), []) and g.rng.asked == [10] * 7
    assert asked == [("Lesser Entity", R.save_target(3), 0, 0)]
    transfix = FakePlan(model("Caster", "Hero"), casts=("Transfix",))
    g = game([(transfix, (10, 10))], [(owner, (30, 30))], Dice([]), ents=(False, True))
    put(g, 1, 1, g.sides[1][0], (15, 10))
    assert g.power_target(g.sides[0][0], "Transfix") is None


def test_policy_numbers():
    """Summon's value at Difficulty d: P(Cast) x 3 Damage steps per VP of the Entity - P(Miscast); Banish's: P(Cast) x
    P(the Caster's die rolls higher) x the Entity's worth - P(Miscast); the Difficulties ranked by value."""
    hero = model("H", "Hero")
    vals = dict(B.summon_values(hero))
    pc, pm = B.cast_chance_at(R.Rank.HERO, "Summon", 2)
    assert vals[2] == pytest.approx(pc * 6 - pm) and B.entity_worth(3) == 9
    assert B.p_higher(8, 6) == pytest.approx(27 / 48) and B.p_higher(6, 6) == pytest.approx(15 / 36)
    ban = B.banish_values(hero)
    pc1, pm1 = B.cast_chance_at(R.Rank.HERO, "Banish", 1)
    assert ban[2] == pytest.approx(pc1 * B.p_higher(10, 10) * 9 - pm1)
    mp = B.plan_model(P.sample_posse("crossroads-cult").models[0], True, B.battle_options().distance, False, table=True)
    assert [d for d, _ in mp.summon] == sorted(vals, key=lambda d: (-vals[d], d))
    assert dict(mp.cast_values)["Summon"] == pytest.approx(max(vals.values()))


def test_no_summoner_no_entity_slots():
    """A posse without a Summoner has no Entity rows, and its kernel rows for the Entity slots stay empty."""
    s = B.prepare(P.sample_posse(None), P.sample_posse("congregation"), table_options())
    assert s.a.entities == () and s.b.entities == ()
    assert not s.models[:, B._K.ENTITY_SLOT:, :].any()
    s = B.prepare(P.sample_posse("crossroads-cult"), P.sample_posse(None), table_options())
    assert len(s.a.entities) == 3 and s.models[0, B._K.ENTITY_SLOT:, 0].tolist() == [1, 1, 1]


# ---------------------------------------------------------------------------
# The kernel against the reference (quick), sanity
# ---------------------------------------------------------------------------


def summon_cases() -> list:
    return [
        # two Summoners (the Magister and the Harbinger): one of each type
        B.prepare(P.sample_posse("crossroads-cult"), P.sample_posse(None), table_options(plan_b="brawl")),
        # Summon and Revenants against a Banisher with Arcane Blast (four Dice at an Entity)
        B.prepare(P.sample_posse("dark-confederacy"),
                  arcanist_posse("crossroads-cult", ["Summon", "Banish", "Arcane Blast"]),
                  table_options(plan_a="brawl", activation="solo")),
        B.prepare(arcanist_posse("dark-confederacy", ["Faith Healing", "Banish", "Arcane Blast"]),
                  P.sample_posse("crossroads-cult"), table_options(plan_a="brawl", plan_b="gunline", turns=4)),
    ]


@pytest.mark.quick_twin("test_summon_kernel_agrees_with_reference[2]")
def test_summon_kernel_agrees_with_reference_quick():
    """A Banisher with Arcane Blast (four Dice at an Entity) against two Summoners, four Turns (the quick twin of
    case 2); the sample Summoners of tests/test_shadows_arcane.py and the Dark Confederacy case of
    tests/test_shadows_table.py play Summon in the quick set too."""
    check_agreement(summon_cases()[2], QUICK_TWIN_GAMES, 2702)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(3))
def test_summon_kernel_agrees_with_reference(case):
    """Case 2 on 700 reference games: about 28 ms each, near 20 s of one core."""
    check_agreement(summon_cases()[case], (SLOW_REFERENCE_GAMES, SLOW_REFERENCE_GAMES, 700)[case], 2700 + case)


def test_a_summoner_helps_its_side():
    """The Dark Confederacy's General Summoning (Faith Healing, Scry, Summon) wins more than the same General
    knowing Warding Circle instead of Summon (a Power the battle does not cast). Bless is left out of both: its
    token is cast whenever Summon is not (docs/shadows-battles.md section 12), which would measure Summon against
    Bless, not against nothing."""
    enemy = P.sample_posse(None)
    opts = table_options()
    summoning = B.battle(arcanist_posse("dark-confederacy", ["Faith Healing", "Scry", "Summon"]), enemy, opts,
                         trials=30_000, seed=71)
    plain = B.battle(arcanist_posse("dark-confederacy", ["Faith Healing", "Scry", "Warding Circle"]), enemy, opts,
                     trials=30_000, seed=72)
    d, se = p_win_diff(summoning, plain)
    assert d > 3 * se, (d, se)
    rows = summoning.models
    assert rows[rows["summoned"]]["p_fought"].max() > 0


def test_banish_with_no_entity_to_target_draws_no_die():
    """A Banisher facing a posse without a Summoner never casts: the very same battles as with Scry (a Power that
    changes nothing) in its place, game for game (the Entity slots and hooks draw no die unless used)."""
    enemy = P.sample_posse(None)
    banish = B.prepare(arcanist_posse("dark-confederacy", ["Faith Healing", "Banish", "Bless"]), enemy, table_options())
    scry = B.prepare(arcanist_posse("dark-confederacy", ["Faith Healing", "Scry", "Bless"]), enemy, table_options())
    assert banish.a.models[0].banish and not scry.a.models[0].banish
    assert (B.run_counts(banish, 4_000, 5) == B.run_counts(scry, 4_000, 5)).all()
