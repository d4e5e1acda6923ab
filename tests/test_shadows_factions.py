"""Faction rules at posse level ("The Factions") and house Weapons ([house_weapons] in a posse file)."""
import json
import textwrap

import pytest

from cli_run import run
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P

CONGREGATION = P.sample_posse_text("congregation")[1]


def write(tmp_path, text, name="posse.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def broken(tmp_path, text):
    with pytest.raises(OddsmithError) as info:
        P.load_posse(write(tmp_path, text))
    return str(info.value)


def without_vessel(text=CONGREGATION):
    assert text.count('role = "Vessel"\n') == 1
    return text.replace('role = "Vessel"\n', "")


# --- the Vessel -----------------------------------------------------------------------------------


def test_vessel_loses_weapons_gear_and_horse_in_a_game(tmp_path):
    text = CONGREGATION.replace('role = "Vessel"\nweapons = ["Pistol"]',
                                'role = "Vessel"\nweapons = ["Pistol"]\ngear = ["Boilerplate"]\nhorse = "Horse"')
    text = text.replace('dollar_limit = 100', 'dollar_limit = 200')
    posse = P.load_posse(write(tmp_path, text))
    vessel = next(m for m in posse.models if m.role is not None and m.role.name == "Vessel")
    # listed and priced (the model's own again after the game) ...
    assert vessel.weapons == (R.weapon("Pistol"),) and vessel.gear == (R.gear("Boilerplate"),)
    assert {"Pistol", "Boilerplate", "Horse"} <= {r["item"] for r in P.cost_rows(posse) if r["model"] == vessel.name}
    # ... but not used in the game
    assert vessel.is_vessel and vessel.battle_weapons() == () and vessel.battle_gear() == ()
    assert vessel.battle_horse is None and not vessel.boilerplate
    assert vessel.unused_weapons() == ((R.weapon("Pistol"), "the Vessel loses its Weapons, Gear and Horse for the "
                                                             "game (The Congregation)"),)
    assert vessel.name not in set(P.shooting_table(posse)["model"])
    assert (vessel.name, "Pistol", vessel.unused_weapons()[0][1]) in P.untabulated_weapons(posse)
    # it keeps its Skills and gains Tough and Fearsome
    assert {"Tough", "Fearsome"} <= {s.name for s in vessel.all_skills}
    others = [m for m in posse.models if not m.is_vessel]
    assert all(m.battle_weapons() == tuple(dict.fromkeys(m.weapons)) for m in others)


def test_vessel_with_holy_symbol_is_legal(tmp_path):
    # non-Supernatural outside the game; it has no Gear while possessed
    text = CONGREGATION.replace('role = "Vessel"\nweapons = ["Pistol"]',
                                'role = "Vessel"\nweapons = ["Pistol"]\ngear = ["Holy Symbol"]')
    text = text.replace("dollar_limit = 100\n", 'dollar_limit = 100\n\n[prices]\n"Holy Symbol" = 1\n')
    assert P.validate(P.read_posse(write(tmp_path, text))) == []
    zombi = text.replace('role = "Zombi"\nweapons = ["Pistol", "Carbine"]',
                         'role = "Zombi"\nweapons = ["Pistol", "Carbine"]\ngear = ["Holy Symbol"]')
    assert "Holy Symbol can only be taken by a non-Supernatural model" in broken(tmp_path, zombi)


def test_congregation_needs_exactly_one_vessel(tmp_path):
    msg = broken(tmp_path, without_vessel())
    assert 'The Congregation needs exactly 1 Vessel(s), found 0 (give one model role = "Vessel")' in msg
    two = CONGREGATION.replace('name = "Odette"\n', 'name = "Odette"\nrole = "Vessel"\n')
    assert "The Congregation needs exactly 1 Vessel(s), found 2 (keep only that many)" in broken(tmp_path, two)
    hired = CONGREGATION.replace('hired_gun = "Preacher"\n', 'hired_gun = "Preacher"\nrole = "Zombi"\n')
    assert "a Hired Gun cannot be a Zombi" in broken(tmp_path, hired)


def test_faction_needs_the_dracula_rules(tmp_path):
    text = CONGREGATION.replace('faction = "The Congregation"', 'faction = "The Congregation"\ndracula = false')
    assert "it joins The Congregation but sets dracula = false (leave dracula out, or drop the faction) (rule dracula-factions" in broken(tmp_path, text)


@pytest.mark.parametrize("args", [
    ["shadows", "posse", "{path}"],
    ["shadows", "battle", "{path}", "--vs", "unaligned", "-t", "10"],
    ["shadows", "battle", "unaligned", "--vs", "{path}", "-t", "10"],
    ["shadows", "value", "{path}", "--vs", "unaligned", "-t", "10"],
    ["report", "shadows", "{path}"],
])
def test_congregation_without_vessel_is_one_line_exit_2(tmp_path, capsys, args):
    path = write(tmp_path, without_vessel())
    out_file = tmp_path / ("out.pdf" if args[0] == "report" else "out.txt")
    rc, out, err = run(capsys, *[a.replace("{path}", str(path)) for a in args], "-o", str(out_file))
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert "The Congregation needs exactly 1 Vessel(s), found 0" in err
    assert not out_file.exists()


def test_every_sample_is_still_legal_and_the_congregation_has_its_vessel():
    for slug in P.sample_posse_names():
        assert P.validate(P.sample_posse(slug)) == []
    posse = P.sample_posse("congregation")
    assert sum(m.is_vessel for m in posse.models) == 1


# --- house Weapons ----------------------------------------------------------------------------------

HOUSE_RIFLE = """
[house_weapons."Rifle"]
short = 8
medium = 16
long = 24
jam_die = "D8"
long_dice_mod = -1
medium_save_mod = 1
"""

RIFLE_POSSE = """
[posse]
name = "Long Guns"
method = "advanced"
{house}
[[model]]
name = "Boss"
rank = "Hero"
weapons = ["Pistol", "Rifle"]

[[model]]
name = "Hand"
rank = "Novice"
weapons = ["Pistol"]

[[model]]
name = "Other Hand"
rank = "Novice"
weapons = ["Pistol"]
"""


def test_house_rifle_is_used_and_tabulated(tmp_path):
    posse = P.load_posse(write(tmp_path, RIFLE_POSSE.format(house=HOUSE_RIFLE)))
    rifle = posse.house_weapons["Rifle"]
    assert (rifle.short, rifle.medium, rifle.long, rifle.jam_die, rifle.shots_per_action) == (8, 16, 24, 8, 1)
    assert rifle.band_dice == {R.RangeBand.LONG: -1} and rifle.band_save == {R.RangeBand.MEDIUM: 1}
    assert rifle.weapon_class is R.WeaponClass.RIFLE and rifle.cost == 5 and rifle.house_stats
    boss = posse.models[0]
    assert boss.weapons == (R.weapon("Pistol"), R.weapon("Rifle"))  # the book's Weapon, as carried
    assert boss.battle_weapons() == (R.weapon("Pistol"), rifle) and boss.unused_weapons() == ()
    assert P.untabulated_weapons(posse) == []
    df = P.shooting_table(posse)
    rows = df[(df.weapon == "Rifle") & (df.target == "Veteran")].set_index("range_band")
    assert list(rows["dice"]) == [4, 3, 1]  # 3 Dice, Short +1, Long -1 and the house -1
    assert list(rows["save_modifier"]) == [0, 1, 0]
    odds = E.shoot(E.Shooter.of("Hero"), "Veteran", rifle, range_band="long")
    assert rows.loc["long", "casualty"] == pytest.approx(odds["casualty"])
    assert rows.loc["long", "jammed"] == pytest.approx(odds["jammed"])
    assert P.total_cost(posse) == 2 + 5 + 4 + 2 + 4 + 2


def test_rifle_without_house_stats_is_reported_not_dropped(tmp_path, capsys):
    path = write(tmp_path, RIFLE_POSSE.format(house=""))
    posse = P.load_posse(path)
    assert posse.models[0].battle_weapons() == (R.weapon("Pistol"),)
    (_, why), = posse.models[0].unused_weapons()
    assert why.endswith('give house stats under [house_weapons."Rifle"]')
    rc, out, _ = run(capsys, "shadows", "posse", str(path), "--format", "json")
    assert rc == 0
    assert json.loads(out)["not_tabulated"] == [{"model": "Boss", "weapon": "Rifle", "reason": why}]


@pytest.mark.parametrize("house,needle", [
    ('[house_weapons."Pistol"]\nshort = 4\nmedium = 8\nlong = 12\njam_die = "D10"\n',
     "no house stats for the Pistol: the Weapons tables give its stats; house stats are for Rifle, Buffalo Gun"),
    ('[house_weapons."Sawn-Off"]\nshort = 4\nmedium = 8\nlong = 12\njam_die = "D10"\n',
     "fires a fire corridor"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 6\nlong = 24\njam_die = "D8"\n', "range bands must grow"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 60\njam_die = "D8"\n', "long <= 48 inches"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\njam_die = "D7"\n', "jam_die must be D6, D8 or D10"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\njam_die = "big"\n', "jam_die must be D6, D8"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\n', "missing jam_die"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\njam_die = 8\nrange = 3\n', "unknown key 'range'"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\njam_die = 8\nshots = 3\n', "shots must be 1 or 2"),
    ('[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\njam_die = 8\nlong_dice_mod = 5\n',
     "the long dice modifier must be a whole number from -3 to +3, got 5"),
    ('[house_weapons."Rifle"]\nshort = 8.5\nmedium = 16\nlong = 24\njam_die = 8\n', "short must be a whole number"),
    ('[house_weapons."Rilfe"]\nshort = 8\nmedium = 16\nlong = 24\njam_die = 8\n', "unknown weapon 'Rilfe'"),
    ('[house_weapons]\nRifle = 3\n', '[house_weapons."Rifle"] must be a table, got 3'),
])
def test_bad_house_weapons_are_refused(tmp_path, house, needle):
    msg = broken(tmp_path, RIFLE_POSSE.format(house=house))
    assert needle in msg and "house_weapons" in msg, msg


def test_posse_json_lists_the_house_weapons(tmp_path, capsys):
    path = write(tmp_path, RIFLE_POSSE.format(house=HOUSE_RIFLE))
    rc, out, _ = run(capsys, "shadows", "posse", str(path), "--format", "json")
    d = json.loads(out)
    assert rc == 0 and d["not_tabulated"] == []
    assert d["house_weapons"] == {"Rifle": {"short": 8, "medium": 16, "long": 24, "jam_die": "D8", "shots": 1,
                                            "dice_mods": {"long": -1}, "save_mods": {"medium": 1}}}
    assert {r["weapon"] for r in d["shooting"] if r["model"] == "Boss"} == {"Pistol", "Rifle"}


def test_shoot_with_a_posse_uses_its_house_rifle(tmp_path, capsys):
    """`shadows shoot --weapon rifle --posse FILE` shoots the posse file's house Rifle; without house stats it is
    one line naming the missing table, exit 2."""
    path = write(tmp_path, RIFLE_POSSE.format(house=HOUSE_RIFLE))
    rifle = P.load_posse(path).house_weapons["Rifle"]
    rc, out, err = run(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--weapon", "rifle",
                       "--range", "20", "--posse", str(path), "-f", "json")
    assert rc == 0, err
    d = json.loads(out)
    want = E.shoot(E.Shooter.of("Hero"), "Veteran", rifle, range_band="long")
    assert d["setup"]["range_band"] == "long" and d["setup"]["jam_die"] == "D8"
    assert d["outcomes"]["casualty"] == pytest.approx(float(want["casualty"]))
    rc, out, err = run(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--weapon", "rifle",
                       "--posse", str(write(tmp_path, RIFLE_POSSE.format(house=""), "plain.toml")))
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert 'gives the Rifle no house stats (add [house_weapons."Rifle"]' in err
    rc, _, err = run(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--weapon", "carbine",
                     "--posse", str(path), "-f", "json")
    assert rc == 0, err  # a book Weapon is the book's, posse or not


def test_broodkin_move_six_inches_and_skinwalkers_stay_in_human_form():
    """"This makes them Supernatural and Move 6"" (the Broodkin); a Skinwalker "must begin each game in Human Form"
    and the battle does not change its Form, so it Moves 4" (its Wolf Form's 6" is not played)."""
    from oddsmith.shadows import battle as B

    coven = P.sample_posse("red-hand-coven")
    brood = [m for m in coven.models if m.role and m.role.name == "Broodkin"]
    assert len(brood) == 2 and all(m.move_inches == 6 for m in brood)
    assert all(m.move_inches == R.MOVE_INCHES for m in coven.models if m.role is None)
    wolf = next(m for m in P.sample_posse("skinwalker-tribes").models if m.role and m.role.name == "Skinwalker (Wolf)")
    assert wolf.role.move == 6 and wolf.role.beast_form and wolf.move_inches == R.MOVE_INCHES
    st = B.prepare(coven, P.sample_posse(None), B.battle_options())
    col = list(B._K.MODEL_COLUMNS).index("move")
    assert [st.models[0, i, col] for i in range(len(coven.models))] == [
        6000 if m in brood else 4000 for m in coven.models]
