"""Unique Summonings on the table (docs/shadows-battles.md section 12, "Unique Summonings"): the profiles against
the book's table, the posse file's ``unique_summonings`` and its rule, the plan, the reference on scripted dice, the
kernel's Solo Activation step against the exact Casting Test, the kernel against the reference, and sanity."""
from __future__ import annotations

import json
import tomllib
from dataclasses import replace

import pytest

from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import battle_plan as BP
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from test_shadows_arcane import arcanist_posse
from test_shadows_table import (QUICK_TWIN_GAMES, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                p_win_diff, quick_case, table_options)

SERAPHIM_POSSE = """
[posse]
name = "The Seraphic Choir"
faction = "The Twilight Order"
method = "advanced"
dollar_limit = 100

[prices]
"Grimoire" = 10

[[model]]
name = "Brother-Captain Tobias Reyne"
rank = "Hero"
role = "Crusader"
weapons = ["Pistol", "Shotgun"]
boss = true

[[model]]
name = "Sister Agatha Moore"
rank = "Veteran"
role = "Crusader"
weapons = ["Pistol", "Carbine"]

[[model]]
name = "Mother Superior Ines"
rank = "Veteran"
weapons = ["Pistol"]
gear = ["Grimoire"]
arcanist = true
powers = ["Summon", "Bless", "Arcane Blast"]
unique_summonings = ["Seraphim"]

[[model]]
name = "Novitiate Paul"
rank = "Novice"
weapons = ["Pistol"]

[[model]]
name = "Novitiate Jonah"
rank = "Novice"
weapons = ["Pistol"]
"""


def _from_toml(text: str) -> P.Posse:
    return P.posse_from_dict(tomllib.loads(text), "choir.toml")


def choir() -> P.Posse:
    """A Twilight Order posse whose Veteran Arcanist Summons the Seraphim as its Major Entity."""
    return _from_toml(SERAPHIM_POSSE)


def hellhound_cult() -> P.Posse:
    """The sample Crossroads Cult whose Magister (a Hero Arcanist) Summons the Hellhound as its Lesser Entity; its
    Harbinger (Mr. Ash) knows Summon too but is no Arcanist."""
    cult = arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"])
    ms = list(cult.models)
    ms[0] = replace(ms[0], unique_summonings=(R.unique_summoning("Hellhound"),))
    p = replace(cult, models=tuple(ms))
    P.check_posse(p)
    return p


# ---------------------------------------------------------------------------
# The rules and the posse file
# ---------------------------------------------------------------------------


def test_profiles_are_the_books_table():
    """Unique Summonings table: Behemoth 40mm 4" D10 Major, Flying, Fearsome, a 4" Fire Corridor breath, Crossroads
    Cult; Hellhound 25mm 6" D6 Lesser, Fearsome, Crossroads Cult; Seraphim 25mm 6" D10 Major, Flying, Gunslinger,
    Fearsome, two Blessed Pistols (Silver Bullets, never Jam), Twilight Order; Swamp Baka 40mm 4" D8 Major, Fearsome,
    Hard to Kill, Lead-Belly, Tough, a Lasso, Congregation."""
    u = R.UNIQUE_SUMMONINGS
    assert [(e.name, e.base_mm, e.move, e.grit, e.difficulty, e.summoned_by) for e in u.values()] == [
        ("Behemoth", 40, 4, 10, 3, R.Faction.CROSSROADS_CULT.value),
        ("Hellhound", 25, 6, 6, 1, R.Faction.CROSSROADS_CULT.value),
        ("Seraphim", 25, 6, 10, 3, R.Faction.TWILIGHT_ORDER.value),
        ("Swamp Baka", 40, 4, 8, 3, R.Faction.CONGREGATION.value)]
    assert u["Seraphim"].weapons == ("Pistol", "Pistol") and u["Seraphim"].silver_bullets and u["Seraphim"].never_jams
    assert set(u["Seraphim"].skills) == {"Gunslinger", "Fearsome"}
    assert set(u["Swamp Baka"].skills) == {"Fearsome", "Hard to Kill", "Lead-Belly", "Tough"}
    assert u["Behemoth"].flying and u["Seraphim"].flying and u["Behemoth"].breath_inches == 4
    # its breath is played (fire corridors, section 4a) and its 40mm base (section 11d): nothing is left unplayed
    assert u["Behemoth"].not_played is None and u["Swamp Baka"].not_played == "rough ground: the table has none"
    assert R.UNIQUE_SUMMONING_DICE == -1
    # each die scores at most one Success: 2 Dice never reach Difficulty 3, a Concentrate's third die may
    assert not R.can_cast(2, 3) and R.can_cast(3, 3)
    assert E.cast("Hero", "Summon", difficulty=3, unique_summoning=True, fractions=False)["cast"] == 0
    with pytest.raises(Exception, match="unique Summoning"):
        R.unique_summoning("Wendigo")


def test_posse_file_reads_and_checks_unique_summonings():
    posse = choir()
    ines = posse.models[2]
    assert [e.name for e in ines.unique_summonings] == ["Seraphim"]
    P.check_posse(posse)
    rules = lambda p: [v.rule for v in P.validate(p)]  # noqa: E731
    # a Twilight Order Seraphim in a Crossroads Cult posse; a Hellhound in the Twilight Order
    assert "unique-summoning" in rules(replace(posse, faction=R.Faction.CROSSROADS_CULT))
    wrong = replace(ines, unique_summonings=(R.unique_summoning("Hellhound"),))
    assert "unique-summoning" in rules(replace(posse, models=posse.models[:2] + (wrong,) + posse.models[3:]))
    # not an Arcanist who knows Summon
    no_summon = replace(ines, powers=tuple(R.arcane_power(n) for n in ("Scry", "Bless", "Arcane Blast")))
    assert "unique-summoning" in rules(replace(posse, models=posse.models[:2] + (no_summon,) + posse.models[3:]))
    # two Major Entities
    two = replace(ines, unique_summonings=(R.unique_summoning("Seraphim"), R.unique_summoning("Seraphim")))
    assert "unique-summoning" in rules(replace(posse, models=posse.models[:2] + (two,) + posse.models[3:]))


@pytest.mark.parametrize("change, message", [
    ('unique_summonings = ["Seraphim"]', None),
    ('unique_summonings = ["Hellhound"]', "the Hellhound can be Summoned by The Crossroads Cult Arcanists only"),
    ('unique_summonings = ["Wendigo"]', "Wendigo"),
])
def test_cli_one_line_exit_2_for_a_broken_unique_summoning(tmp_path, capsys, change, message):
    from oddsmith.cli import main
    path = tmp_path / "choir.toml"
    path.write_text(SERAPHIM_POSSE.replace('unique_summonings = ["Seraphim"]', change))
    out_file = tmp_path / "out.json"
    rc = main(["shadows", "battle", str(path), "--vs", "unaligned", "-t", "2000", "--seed", "4", "--format", "json",
               "-o", str(out_file)])
    out, err = capsys.readouterr()
    if message is None:
        assert rc == 0
        notes = json.loads(out_file.read_text())["notes"]
        assert any("Difficulty 3: the Seraphim, at -1 Die" in n for n in notes)
        assert not any("not played for the Seraphim" in n for n in notes)   # Flying is played (section 2)
        return
    assert rc == 2 and err.count("\n") == 1 and message in err, err
    assert not out_file.exists()


# ---------------------------------------------------------------------------
# The plan and the kernel's rows
# ---------------------------------------------------------------------------


def test_the_side_plays_the_seraphim_in_its_major_slot():
    st = B.prepare(choir(), P.sample_posse(None), table_options())
    sera = st.a.entities[2]
    assert sera.summoned == "Seraphim" and sera.style == "gun"  # armed: its side's (balanced) plan
    assert sera.model.rank is R.Rank.HERO and sera.model.move_inches == 6 and sera.model.supernatural
    assert [w.name for w in sera.weapons] == ["Pistol", "Pistol"]
    silver = R.gear("Silver Bullets").save_modifier_vs_supernatural
    assert all(w.silver == silver and w.jam_die == 0 for w in sera.weapons)  # Blessed Pistols: Silver, never Jam
    col = {c: i for i, c in enumerate(B._K.MODEL_COLUMNS)}
    assert st.models[0, B._K.ENTITY_SLOT + 2, col["unique_summoning"]] == 1
    assert st.models[0, B._K.ENTITY_SLOT + 1, col["unique_summoning"]] == 0
    assert st.models[0, B._K.ENTITY_SLOT + 2, col["move"]] == 6000
    ines = st.a.models[2]
    assert ines.summon[0][0] == 3  # the named unique Summoning first
    assert BP.needs_concentrate(ines.model, 3) and not BP.needs_concentrate(ines.model, 2)
    assert all(("Summon", 3) in keys for keys in ines.concentrate)  # only ever Summoned after a Concentrate
    vals = dict(BP.summon_values(ines.model, concentrate=True))
    pc = E.cast("Veteran", "Summon", difficulty=3, unique_summoning=True, concentrate=True, fractions=False)
    assert vals[3] == pytest.approx(pc["cast"] * 9 - pc["miscast"])


def test_only_its_arcanist_summons_a_unique_type():
    """"Can be Summoned by Crossroads Cult Arcanists only": the Harbinger (not an Arcanist) no longer Summons the
    Lesser type, which the Magister plays as the Hellhound."""
    st = B.prepare(hellhound_cult(), P.sample_posse(None), table_options())
    magister, ash = st.a.models[0], st.a.models[1]
    assert 1 in [d for d, _ in magister.summon] and 1 not in [d for d, _ in ash.summon]
    assert st.a.entities[0].summoned == "Hellhound" and st.a.entities[0].model.move_inches == 6
    assert st.a.entities[0].style == "brawl"  # unarmed
    plain = B.prepare(arcanist_posse("crossroads-cult", ["Summon", "Transfix", "Immolate"]), P.sample_posse(None),
                      table_options())
    assert 1 in [d for d, _ in plain.a.models[1].summon]


# ---------------------------------------------------------------------------
# The reference on scripted dice
# ---------------------------------------------------------------------------


def test_reference_unique_summon_rolls_one_die_fewer_and_the_seraphim_never_jams():
    import reference_battle as RB
    import reference_table as RT
    st = B.prepare(hellhound_cult(), P.sample_posse(None), table_options(activation="dual"))
    g = RT.TableGame(st, Dice([]))
    magister = g.sides[0][0]
    hound = g.entity(0, 1)
    assert hound.summoned == "Hellhound" and hound.profile.summoned_by
    magister.x, magister.y = 10.0, 10.0
    g.sides[0][1].x, g.sides[0][1].y = 1.0, 30.0  # the Harbinger far away: no +1 Die
    for i, e in enumerate(g.sides[1]):
        e.x, e.y = 30.0, 10.0 + 1.2 * i
    g.rng = Dice([5, 2])  # 2 Dice (3 - 1): one Success, Difficulty 1: Cast
    fired: set = set()
    assert g.one_action(magister, fired, [], late=True, after_move=False) == "cast"
    assert g.rng.asked == [10, 10] and hound.on_table
    # a Blessed Pistol never Jams; a plain one rolls its Jam Die
    sera = BP.entity_model(3, R.unique_summoning("Seraphim"))
    shooter = RB.Model(0, FakePlan(sera))
    g.rng = Dice([])
    assert g.jams(shooter, 6) is False
    g.rng = Dice([1])
    assert g.jams(RB.Model(0, FakePlan(model("Kid", "Novice"))), 6) is True


# ---------------------------------------------------------------------------
# The kernel's step, the kernel against the reference, sanity
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["seraphim", "hellhound"])
def test_kernel_solo_activation_summons_as_often_as_the_exact_casting_test(who):
    """A Solo Activation's two Actions in the kernel: the Veteran Arcanist Concentrates and Summons the Seraphim on
    3 Dice (2 + 1); the Hero Magister at Short Range Summons the Hellhound at once on 2 Dice."""
    import test_shadows_table_kernel as TK
    if who == "seraphim":
        st = B.prepare(choir(), P.sample_posse(None), table_options(activation="solo"))
        caster, slot, rank, d, conc, enemy_x = 2, 2, "Veteran", 3, True, 30
    else:
        st = B.prepare(hellhound_cult(), P.sample_posse(None), table_options(activation="solo"))
        caster, slot, rank, d, conc, enemy_x = 0, 0, "Hero", 1, False, 9
    trials = 20_000
    out, did, _ = TK._probe(st, "solo", 0, caster, where={(0, caster): (5, 5), (1, 0): (enemy_x, 5)}, trials=trials,
                            seed=5)
    p = E.cast(rank, "Summon", difficulty=d, unique_summoning=True, concentrate=conc, fractions=False)["cast"]
    on = out[0, B._K.ENTITY_SLOT + slot, 0] / trials
    assert abs(on - p) < 5 * (p * (1 - p) / trials) ** 0.5, (on, p)


def test_kernel_weapon_with_jam_die_0_never_jams():
    """The kernel reads a Jam Die of 0 as a Weapon that never Jams (the Seraphim's Blessed Pistols): a Veteran's
    Pistol, in a Solo Activation's two Actions, clears a Jam on the second some 3 % of the time; with Jam Die 0
    never."""
    import test_shadows_table_kernel as TK
    st = TK._setup([TK.VET], [TK.NOV], plan="gunline", activation="solo")
    jam = list(B._K.WEAPON_COLUMNS).index("jam_die")
    weapons = st.weapons.copy()
    weapons[0, 0, :, jam] = 0
    where = {(0, 0): (10, 10), (1, 0): (18, 10)}
    _, did, _ = TK._probe(st, "solo", 0, 0, where=where, trials=20_000, seed=2)
    assert did[6] > 300  # DID_CLEAR
    _, did, _ = TK._probe(replace(st, weapons=weapons), "solo", 0, 0, where=where, trials=20_000, seed=2)
    assert did[6] == 0


def unique_cases() -> list:
    return [
        B.prepare(choir(), P.sample_posse(None), table_options(activation="solo")),
        B.prepare(hellhound_cult(), choir(), table_options(plan_a="brawl", plan_b="gunline", terrain="light")),
    ]


# The quick twin of case 0; both at full size are slow.
@pytest.mark.parametrize("case", [quick_case("test_unique_summonings_kernel_agrees_with_reference[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in range(2)])
def test_unique_summonings_kernel_agrees_with_reference(case):
    if case == "quick":
        check_agreement(unique_cases()[0], QUICK_TWIN_GAMES, 3300)
    else:
        check_agreement(unique_cases()[case], SLOW_REFERENCE_GAMES, 3300 + case)


def test_the_seraphim_wins_more_than_the_minor_entity():
    """The Veteran Arcanist naming the Seraphim (Summoned after a Concentrate, D10, two Blessed Pistols) wins more
    than the same posse Summoning the common Entities."""
    plain = _from_toml(SERAPHIM_POSSE.replace('unique_summonings = ["Seraphim"]', ""))
    opts = table_options()
    with_it = B.battle(choir(), P.sample_posse(None), opts, trials=10_000, seed=17)
    without = B.battle(plain, P.sample_posse(None), opts, trials=10_000, seed=17)
    d, se = p_win_diff(with_it, without)
    assert d > 5 * se, (d, se)
