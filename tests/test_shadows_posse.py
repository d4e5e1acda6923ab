"""Posse files: reading, the posse-building rules, costs, sample posses, `oddsmith shadows posse`."""
import json
import textwrap

import pandas as pd
import pytest

from cli_run import cli_runner
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import posse as P

FACTION_SLUGS = ["congregation", "crossroads-cult", "dark-confederacy", "red-hand-coven", "skinwalker-tribes",
                 "twilight-order", "unaligned"]


def write(tmp_path, text, name="posse.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def posse_text(models: str, head: str = 'method = "advanced"\ndollar_limit = 100', prices: str = "") -> str:
    return f'[posse]\nname = "Test Posse"\n{head}\n{prices}\n{textwrap.dedent(models)}'


HERO = """
[[model]]
name = "Boss Hogg"
rank = "Hero"
weapons = ["Pistol"]
"""


def novices(k, weapons='["Pistol"]', start=1):
    return "".join(f'\n[[model]]\nname = "Hand {i}"\nrank = "Novice"\nweapons = {weapons}\n' for i in range(start, start + k))


def broken(tmp_path, text):
    """The OddsmithError message of loading ``text`` as a posse file."""
    with pytest.raises(OddsmithError) as info:
        P.load_posse(write(tmp_path, text))
    return str(info.value)


# --- samples ----------------------------------------------------------------------------------


def test_one_sample_per_faction():
    assert P.sample_posse_names() == FACTION_SLUGS
    assert sorted(f.slug for f in R.Faction) == FACTION_SLUGS


@pytest.mark.parametrize("slug", FACTION_SLUGS)
def test_every_sample_posse_is_legal(slug):
    posse = P.sample_posse(slug)
    assert P.validate(posse) == []
    assert posse.faction.slug == slug
    assert posse.boss is not None and posse.boss.rank is R.Rank.HERO
    assert P.total_cost(posse) <= posse.dollar_limit
    # the priced lines add up to the total, and each line uses the book's prices
    costs = P.cost_table(posse)
    assert costs["cost"].sum() == P.total_cost(posse)
    for row in costs.itertuples():
        if row.kind == "weapon" and "Hired Gun" not in row.item:
            assert row.cost == R.price(row.item)


def test_sample_costs_by_hand():
    posse = P.sample_posse(None)  # The Silver Creek Regulators
    # Hero free + Pistol 2 + Carbine 3 + Horse 10 + Deadeye 6 = 21
    # Veteran 10 + Pistol 2 + Shotgun 5 + Mean 4 = 21; Veteran 10 + 2 + 3 + Lasso 3 = 18
    # Novice 4 + 2 + 5 = 11; Novice 4 + 2 + Lasso 3 = 9; Novice 4 + 2 + Tough 2 = 8; Preacher 6 (Pistol included)
    assert P.total_cost(posse) == 21 + 21 + 18 + 11 + 9 + 8 + 6


def test_sample_models_dice_effects():
    order = P.sample_posse("Twilight Order")
    tobias = order.models[0]
    assert tobias.boilerplate and tobias.silver_bullets and tobias.has_skill("Nerves of Steel")
    assert tobias.shoot_dice == 1
    congregation = P.sample_posse("congregation")
    zombi = next(m for m in congregation.models if m.role and m.role.name == "Zombi")
    assert zombi.lead_belly and zombi.save_modifier == 1 and zombi.supernatural


# --- the posse-building rules -----------------------------------------------------------------


def test_skill_cost_example_in_a_posse(tmp_path):
    text = posse_text(HERO + """
    [[model]]
    name = "Marksman"
    rank = "Veteran"
    weapons = ["Pistol"]
    skills = ["Trick-Shooter", "Hawkeye", "Deadeye"]
    """ + novices(1))
    posse = P.load_posse(write(tmp_path, text))
    costs = P.cost_table(posse)
    skills = costs[(costs.model == "Marksman") & (costs.kind == "skill")]["cost"].tolist()
    assert skills == [4, 6, 7]
    assert P.total_cost(posse) == 2 + (10 + 2 + 17) + (4 + 2)


def test_over_dollar_limit(tmp_path):
    text = posse_text(HERO + novices(2) + """
    [[model]]
    name = "Rich Kid"
    rank = "Veteran"
    weapons = ["Pistol", "Shotgun"]
    gear = ["Boilerplate", "Dynamite"]
    horse = "Appaloosa Horse"
    """, head='method = "advanced"\ndollar_limit = 50')
    msg = broken(tmp_path, text)
    assert "costs $81, over its $50 Dollar Limit" in msg and "rule dollar-limit" in msg


@pytest.mark.parametrize("models,needle", [
    (HERO + novices(1) + '\n[[model]]\nname = "Packer"\nrank = "Novice"\nweapons = ["Pistol", "Carbine", "Shotgun", "Bow"]\n',
     "model 3 'Packer': has 4 Weapons, at most 3 (rule three-weapons"),
    (HERO + novices(3, '["Shotgun"]'), "model 4 'Hand 3': 3 models have a Shotgun (Hand 1, Hand 2, Hand 3); at most two (rule two-per-weapon"),
    (HERO + '\n[[model]]\nname = "Mule"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Lasso", "Lasso", "Dynamite"]\nhorse = "Horse"\n'
     + novices(1), "model 2 'Mule': has 4 items of Gear and horses, at most 3 (rule three-gear"),
    (HERO + '\n[[model]]\nname = "Centaur"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Horse"]\nhorse = "Appaloosa"\n' + novices(1),
     "model 2 'Centaur': has 2 horses (rule one-horse"),
    (HERO + '\n[[model]]\nname = "Unarmed"\nrank = "Novice"\n' + novices(1), "model 2 'Unarmed': has no Weapon (rule one-weapon"),
    (HERO + novices(1), "2 models; an Advanced posse has 3 to 10 (rule posse-size"),
    (HERO + novices(10), "11 models"),
    (HERO.replace("Hero", "Veteran") + novices(2), "needs exactly one Hero (the Boss), found 0 (rule one-hero-boss"),
    (HERO + HERO.replace("Boss Hogg", "Second Hero") + novices(1), "needs exactly one Hero (the Boss), found 2"),
    (HERO + novices(2) + '\n[[model]]\nname = "Rev"\nhired_gun = "Preacher"\nweapons = ["Pistol"]\n'
     '\n[[model]]\nname = "Doc"\nhired_gun = "Doc"\nweapons = ["Pistol"]\n', "2 Hired Guns among 5 models; at most 1 (rule hired-gun-third"),
    (HERO + novices(4) + '\n[[model]]\nname = "Rev"\nhired_gun = "Preacher"\nweapons = ["Pistol"]\n'
     '\n[[model]]\nname = "Rev 2"\nhired_gun = "Preacher"\nweapons = ["Pistol"]\n', "model 7 'Rev 2': Preacher is already in the posse"),
    (HERO + novices(1) + '\n[[model]]\nname = "Brave"\nrank = "Novice"\nweapons = ["Bow"]\n',
     "model 3 'Brave': the Bow is for Native Americans only"),
    (HERO + novices(1) + '\n[[model]]\nname = "Twice"\nrank = "Novice"\nweapons = ["Pistol"]\nskills = ["Tough", "tough"]\n',
     "model 3 'Twice': knows Tough 2 times (rule skill-once"),
    (HERO + novices(1) + '\n[[model]]\nname = "Gunny"\nrank = "Novice"\nweapons = ["Sixgun"]\n',
     "model 3 'Gunny': the Item Price List of this rulebook text gives no price for the Sixgun; give one under [prices] (rule no-price"),
    (HERO + novices(1) + '\n[[model]]\nname = "Sniper"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Lasso"]\n'
     '\n[[model]]\nname = "Wizard"\nrank = "Novice"\nweapons = ["Pistol"]\narcanist = true\npowers = ["Bless", "Curse", "Scry"]\n',
     "model 4 'Wizard': becomes an Arcanist only by being given a Grimoire"),
    (HERO + novices(2) + '\n[[model]]\nname = "Cards"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Marked Cards"]\n'
     '\n[[model]]\nname = "Cards 2"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Marked Cards"]\n',
     "model 5 'Cards 2': a posse may only have one Marked Cards"),
    (HERO + novices(1) + '\n[[model]]\nname = "Scope"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Telescopic Sight"]\n',
     "model 3 'Scope': 1 Telescopic Sight(s) need as many Rifle-Class Weapons, it has 0"),
])
def test_broken_rules_name_model_and_rule(tmp_path, models, needle):
    msg = broken(tmp_path, posse_text(models))
    assert needle in msg, msg


def test_house_prices_fill_the_gaps(tmp_path):
    models = HERO + novices(1) + '\n[[model]]\nname = "Gunny"\nrank = "Novice"\nweapons = ["Sixgun"]\n'
    posse = P.load_posse(write(tmp_path, posse_text(models, prices='[prices]\n"sixgun" = 7\n')))
    assert P.total_cost(posse) == 2 + 6 + 4 + 7


def test_basic_method(tmp_path):
    head = 'method = "basic"\nmax_models = 6'
    vets = '\n[[model]]\nname = "Vet 1"\nrank = "Veteran"\nweapons = ["Pistol", "Carbine"]\n' \
           '\n[[model]]\nname = "Vet 2"\nrank = "Veteran"\nweapons = ["Pistol"]\ngear = ["Dynamite"]\n'
    # the book's example: in a six-model game, four Novices traded for two Veterans: 1 Hero, 2 Veterans, 1 Novice
    ok = P.load_posse(write(tmp_path, posse_text(HERO + vets + novices(1), head=head)))
    assert len(ok.models) == 4 and P.spent(ok) is None
    msg = broken(tmp_path, posse_text(HERO + vets + novices(2), head=head))
    assert "2 Veteran(s) and 2 Novice(s) take 6 Novice places, but a posse of at most 6 has 5 besides its Hero" in msg
    two_sticks = vets.replace('weapons = ["Pistol", "Carbine"]', 'weapons = ["Pistol", "Carbine"]\ngear = ["Dynamite"]')
    msg = broken(tmp_path, posse_text(HERO + two_sticks + novices(1), head=head))
    assert "2 sticks of Dynamite; a Basic posse may have one (rule one-dynamite" in msg


def test_campaign_method(tmp_path):
    head = 'method = "campaign"'
    boss = '\n[[model]]\nname = "Boss"\nrank = "Veteran"\nweapons = ["Pistol", "Carbine"]\n'
    posse = P.load_posse(write(tmp_path, posse_text(boss + novices(5), head=head)))
    assert posse.boss.name == "Boss" and P.spent(posse) == 5 + 10
    msg = broken(tmp_path, posse_text(boss + novices(5, '["Pistol", "Shotgun"]'), head=head))
    assert "over its $22 Dollar Limit" in msg
    msg = broken(tmp_path, posse_text(boss.replace('"Carbine"', '"Sixgun"') + novices(5), head=head))
    assert "the Sixgun is a Special Weapon (rule basic-weapons-only" in msg


def test_faction_rules(tmp_path):
    head = 'faction = "Twilight Order"'
    msg = broken(tmp_path, posse_text(HERO + novices(2), head=head))
    assert 'The Twilight Order needs exactly 2 Crusader(s), found 0 (give 2 models role = "Crusader") (rule faction-roles' in msg
    crusaders = HERO.replace('rank = "Hero"', 'rank = "Hero"\nrole = "Crusader"') + \
        novices(1) + '\n[[model]]\nname = "Sister"\nrank = "Novice"\nrole = "Crusader"\nweapons = ["Pistol"]\n'
    assert P.load_posse(write(tmp_path, posse_text(crusaders, head=head))).faction is R.Faction.TWILIGHT_ORDER
    msg = broken(tmp_path, posse_text(crusaders))
    assert "a Crusader belongs to The Twilight Order, the posse is unaligned" in msg
    msg = broken(tmp_path, posse_text(HERO + novices(2), head='faction = "Skinwalker Tribes"'))
    assert "only Native American Posses may join The Skinwalker Tribes" in msg
    magister = HERO.replace('rank = "Hero"', 'rank = "Hero"\nrole = "Magister"\npowers = ["Bless", "Curse", "Scry"]')
    harbinger = '\n[[model]]\nname = "Ash"\nrank = "Novice"\nrole = "Harbinger"\nweapons = ["Pistol"]\n'
    msg = broken(tmp_path, posse_text(magister + harbinger + novices(1), head='faction = "Crossroads Cult"'))
    assert "a Magister must take Summon as one of its Powers" in msg


def test_supernatural_gear_needs_dracula(tmp_path):
    models = HERO + novices(1) + '\n[[model]]\nname = "Holy"\nrank = "Novice"\nweapons = ["Pistol"]\ngear = ["Holy Symbol"]\n'
    msg = broken(tmp_path, posse_text(models, prices='[prices]\n"Holy Symbol" = 5\n'))
    assert "Holy Symbol is Supernatural Gear (Dracula's America rules only)" in msg
    ok = P.load_posse(write(tmp_path, posse_text(models, head='dracula = true', prices='[prices]\n"Holy Symbol" = 5\n')))
    assert P.total_cost(ok) == 2 + 6 + 6 + 5


def test_unknown_names_in_posse_file(tmp_path):
    msg = broken(tmp_path, posse_text(HERO + '\n[[model]]\nname = "Typo"\nrank = "Novice"\nweapons = ["Pistl"]\n'))
    assert "model 2 'Typo': unknown weapon 'Pistl' (did you mean 'Pistol'?)" in msg
    msg = broken(tmp_path, posse_text(HERO + '\n[[model]]\nname = "Typo"\nrank = "Rookie"\nweapons = ["Pistol"]\n'))
    assert "model 2 'Typo': unknown rank 'Rookie'" in msg
    msg = broken(tmp_path, posse_text(HERO + '\n[[model]]\nname = "Typo"\nrank = "Novice"\nweapons = ["Pistol"]\nskills = ["Deadeyes"]\n'))
    assert "unknown skill 'Deadeyes' (did you mean 'Deadeye'?)" in msg
    msg = broken(tmp_path, posse_text(HERO + '\n[[model]]\nname = "Typo"\nrank = "Novice"\nweapns = ["Pistol"]\n'))
    assert "model 2 'Typo': unknown key 'weapns'" in msg
    msg = broken(tmp_path, posse_text(HERO + novices(2), head='method = "freestyle"'))
    assert "unknown posse-building method 'freestyle'" in msg


def test_malformed_toml_gives_line_and_column(tmp_path):
    msg = broken(tmp_path, '[posse]\nname = "Broken"\n\n[[model]]\nname = "A"\nrank = Hero\n')
    assert "malformed TOML at line 6, column 8" in msg
    msg = broken(tmp_path, '[posse\nname = "x"\n')
    assert "malformed TOML at line 1" in msg


def test_missing_and_wrong_files(tmp_path):
    with pytest.raises(OddsmithError, match="does not exist"):
        P.load_posse(tmp_path / "nope.toml")
    with pytest.raises(OddsmithError, match="no \\[\\[model\\]\\] entries"):
        P.load_posse(write(tmp_path, '[posse]\nname = "Empty"\n'))
    with pytest.raises(OddsmithError, match="weapons must be list"):
        P.load_posse(write(tmp_path, posse_text('[[model]]\nname = "X"\nrank = "Hero"\nweapons = 3\n')))


# --- CLI --------------------------------------------------------------------------------------


run = cli_runner("shadows", "posse")


def test_cli_posse_default_roster_and_costs(capsys):
    rc, out, err = run(capsys, "--view", "roster", "--format", "json")
    assert rc == 0 and err == ""
    data = json.loads(out)
    assert data["posse"] == "The Silver Creek Regulators" and data["legal"] is True
    assert data["cost"] == 94 and data["dollar_limit"] == 100 and len(data["roster"]) == 7
    rc, out, _ = run(capsys, "--faction", "red hand coven", "--view", "costs", "--format", "csv")
    assert rc == 0 and out.splitlines()[0] == "model,item,kind,cost"
    assert "Hired Gun: Carpathian Guard,model,18" in out


@pytest.mark.parametrize("text,needle", [
    (posse_text(HERO + novices(2), head='method = "advanced"\ndollar_limit = 5'), "over its $5 Dollar Limit"),
    (posse_text(HERO + novices(3, '["Carbine"]')), "model 4 'Hand 3': 3 models have a Carbine"),
    ('[posse]\nname = "x"\n[[model]]\nrank = = "Hero"\n', "malformed TOML at line 4, column 8"),
    (posse_text(HERO + '\n[[model]]\nname = "Typo"\nrank = "Novice"\nweapons = ["Repeater"]\ngear = ["Whisky"]\n'),
     "unknown gear 'Whisky' (did you mean 'Whiskey'?)"),
])
def test_cli_posse_bad_input(tmp_path, capsys, text, needle):
    path = write(tmp_path, text)
    target = tmp_path / "out.json"
    rc, out, err = run(capsys, str(path), "--format", "json", "--output", str(target))
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:") and needle in err, err
    assert not target.exists()


@pytest.mark.parametrize("args,needle", [
    (["--faction", "Illuminati"], "unknown faction 'Illuminati'"),
    (["missing.toml"], "posse file missing.toml does not exist"),
    (["--format", "csv", "--view", "all"], "CSV holds one table"),
    (["--reroll", "c", "--view", "roster"], "unknown re-roll reading 'c'"),
])
def test_cli_posse_bad_options(capsys, args, needle):
    rc, out, err = run(capsys, *args)
    assert rc == 2 and err.count("\n") == 1 and needle in err, err


# --- odds per model ---------------------------------------------------------------------------

from fractions import Fraction  # noqa: E402

from oddsmith.shadows import engine as E  # noqa: E402


def test_shooting_table_hand_values():
    posse = P.sample_posse(None)
    df = P.shooting_table(posse, fractions=True)
    cole = df[(df.model == "Marshal Ezra Cole") & (df.weapon == "Pistol") & (df.target == "Novice")].set_index("range_band")
    # Deadeye: 3 + 1 Dice at Medium, 5 at Short, 3 at Long
    assert cole["dice"].to_dict() == {"short": 5, "medium": 4, "long": 3}
    # a miss needs every D10 to show 1-4 (a 10 is a Success, so no re-roll happens): (4/10)**4 at Medium
    assert cole.loc["medium", "hit_exact"] == 1 - Fraction(4, 10) ** 4
    # a Jamming Check: missed with at least one 1
    assert cole.loc["medium", "jam_check_exact"] == Fraction(4, 10) ** 4 - Fraction(3, 10) ** 4
    # every row's final states sum to 1 (plain targets: nothing is cancelled)
    total = 1 - df["hit"] + df["saved"] + df["shaken"] + df["downed"] + df["casualty"]
    assert (abs(total - 1) < 1e-12).all()
    assert len(df) == sum(3 * 3 * len(set(m.weapons)) for m in posse.models)


def test_shooting_table_matches_engine_and_multi_shot(tmp_path):
    models = HERO.replace('weapons = ["Pistol"]', 'weapons = ["Sixgun"]\nskills = ["Gunsmith"]') + novices(2)
    posse = P.load_posse(write(tmp_path, posse_text(models, prices='[prices]\n"Sixgun" = 8\n')))
    df = P.shooting_table(posse)
    row = df[(df.weapon == "Sixgun") & (df.range_band == "long") & (df.target == "Veteran")].iloc[0]
    odds = E.shoot(E.Shooter.of("Hero", skills=["Gunsmith"]), "Veteran", "Sixgun", range_band="long")
    assert row["casualty"] == pytest.approx(odds["casualty"]) and row["jammed"] == pytest.approx(odds["jammed"])
    assert row["action_casualty"] == pytest.approx(odds.extra["action"]["casualty"])
    assert 1 < row["action_shots_fired"] < 2
    pistol = df[df.weapon == "Pistol"]
    assert pistol["action_casualty"].isna().all()


def test_rifle_without_stats_is_named_not_tabulated(tmp_path):
    models = HERO.replace('weapons = ["Pistol"]', 'weapons = ["Pistol", "Rifle"]') + novices(2)
    posse = P.load_posse(write(tmp_path, posse_text(models)))
    assert P.untabulated_weapons(posse) == [("Boss Hogg", "Rifle", "the rulebook text gives no ranges or Jam Die for "
                                                                   'it; give house stats under [house_weapons."Rifle"]')]
    assert set(P.shooting_table(posse)["weapon"]) == {"Pistol"}


def test_fight_table():
    posse = P.sample_posse("skinwalker tribes")
    df = P.fight_table(posse, fractions=True)
    elk = df[df.model == "Running Elk"]
    assert set(elk["form"]) == {"", "Wolf Form"}
    human = elk[(elk.form == "") & (elk.defender == "Hero") & (~elk.charging)].iloc[0]
    wolf = elk[(elk.form == "Wolf Form") & (elk.defender == "Hero") & (~elk.charging)].iloc[0]
    assert human["attacker_dice"] == 4 and wolf["attacker_dice"] == 6  # Mean +1, Wolf Form attacking +2
    odds = E.fight(E.Fighter.of("Hero", skills=["Mean"]), "Hero")
    assert human["attacker_wins"] == pytest.approx(odds["attacker_wins"])
    assert human["attacker_wins_exact"] == odds.fractions["attacker_wins"]
    bear = df[(df.model == "Stands Like Stone") & (df.form == "Bear Form")]
    assert len(bear) == 6
    sums = df["draw"] + df["defender_saved"] + df["defender_shaken"] + df["defender_downed"] + df["defender_casualty"] \
        + df["attacker_saved"] + df["attacker_shaken"] + df["attacker_downed"] + df["attacker_casualty"]
    assert (abs(sums - 1) < 1e-12).all()


def test_cli_posse_all_views(capsys):
    rc, out, err = run(capsys, "--faction", "twilight order", "--view", "all")
    assert rc == 0 and err == ""
    # the heading line is wrapped to the terminal width
    assert " ".join(out.split()).startswith(
        "The Order of the Silver Nail — The Twilight Order, advanced method, 7 models, $81 of $100")
    for section in ("Roster", "Costs", "Shooting", "Fight as the Attacker"):
        assert section in out
    rc, out, _ = run(capsys, "--faction", "red-hand-coven", "--format", "json")
    data = json.loads(out)
    assert rc == 0 and set(data) >= {"roster", "costs", "shooting", "fight", "not_tabulated"}
    assert data["not_tabulated"] == [{"model": "Old Bogdan", "weapon": "Woodsman's Axe", "reason": "a Fight weapon"}]
    assert all(0.0 <= r["hit"] <= 1.0 for r in data["shooting"])
    rc, out, _ = run(capsys, "--view", "fight", "--format", "csv", "--reroll", "a")
    assert rc == 0 and out.splitlines()[0].startswith("model,rank,form,defender,charging")


# --- a new user's posse file: help, template, summary, nesting, names ----------------------------------

root = cli_runner()


def test_posse_help_describes_the_file_format(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and max(len(line) for line in out.splitlines()) <= 80
    for needle in ("[posse]", "[[model]]", 'rank = "Hero"', "weapons = [", "[prices]", "[house_weapons.",
                   "--template"):
        assert needle in out, needle


def test_template_is_written_commented_and_legal(tmp_path, capsys):
    target = tmp_path / "mine.toml"
    rc, out, err = run(capsys, "--template", "-o", str(target))
    assert rc == 0 and out == "" and err == ""
    text = target.read_text(encoding="utf-8")
    assert text == P.template_text() and text.count("#") > 20
    posse = P.load_posse(target)
    assert P.validate(posse) == [] and P.total_cost(posse) == 57 and len(posse.models) == 4
    rc, out, _ = run(capsys, "--template")
    assert rc == 0 and out == text
    rc, _, err = run(capsys, "--template", "--faction", "twilight")
    assert rc == 2 and "--template writes the template only" in err


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("slug", ["unaligned", "congregation", "skinwalker-tribes"])
def test_summary_leads_and_fits_the_terminal(capsys, monkeypatch, columns, slug):
    monkeypatch.setenv("COLUMNS", str(columns))
    rc, out, _ = run(capsys, slug)
    lines = out.splitlines()
    assert rc == 0 and len(lines) <= 40 and max(len(line) for line in lines) <= columns
    assert lines[0].startswith(P.sample_posse(slug).name) and "--view all" in out
    for name in (m.name for m in P.sample_posse(slug).models):
        assert name in out
    rc, full, _ = run(capsys, slug, "--view", "all")
    assert rc == 0 and max(len(line) for line in full.splitlines()) <= columns
    assert len(full.splitlines()) > 10 * len(lines)


def test_summary_table_figures_are_the_full_tables():
    posse = P.sample_posse("congregation")
    df = P.summary_table(posse)
    shots, fights = P.shooting_table(posse), P.fight_table(posse)
    for row in df.itertuples():
        mine = shots[(shots.model == row.model) & (shots.target == "Veteran") & (shots.range_band == "medium")]
        if mine.empty:  # the Vessel: no Weapon this game
            assert row.model == "Baptiste" and row.weapons == "none this game" and pd.isna(row.p_hurt)
        else:
            assert row.p_hurt == pytest.approx(mine["hurt"].max())
        f = fights[(fights.model == row.model) & (fights.defender == "Veteran") & (~fights.charging)]
        assert row.p_fight_win == pytest.approx(f["attacker_wins"].iloc[0])
    assert dict(zip(df.model, df.cost)) == {m: sum(r["cost"] for r in P.cost_rows(posse) if r["model"] == m)
                                            for m in df.model}


def test_json_default_keeps_every_table(capsys):
    rc, out, _ = run(capsys, "--format", "json")
    assert rc == 0 and set(json.loads(out)) >= {"roster", "costs", "shooting", "fight", "not_tabulated"}


def deep(tmp_path, kind):
    n = 600
    head = '[posse]\nname = "Deep"\n[[model]]\nname = "A"\nrank = "Hero"\n'
    body = {"array": "weapons = " + "[" * n + "]" * n,
            "inline": 'weapons = ["Pistol"]\nskills = ' + "{a = " * n + "1" + "}" * n,
            "dotted": "weapons." + ".".join(["a"] * n) + " = 1"}[kind]
    return write(tmp_path, head + body + "\n", name=f"deep-{kind}.toml")


@pytest.mark.parametrize("kind", ["array", "inline", "dotted"])
@pytest.mark.parametrize("args", [["shadows", "posse"], ["shadows", "battle", "--vs", "unaligned", "-t", "10"],
                                  ["shadows", "value", "--vs", "unaligned", "-t", "10"], ["report", "shadows"]])
def test_deeply_nested_posse_is_one_line(tmp_path, capsys, kind, args):
    path = deep(tmp_path, kind)
    rc, out, err = root(capsys, *args[:2], str(path), *args[2:])
    assert rc == 2 and out == "" and err.count("\n") == 1, err[-300:]
    assert "nested" in err and "a posse file nests at most 8" in err


def test_nesting_scan_ignores_brackets_in_strings_and_comments(tmp_path):
    text = posse_text(HERO.replace('"Boss Hogg"', '"Boss [[[[[[[[[[[[[[[[[[[[["  # [[[[[[[[[[[[[[[[[[[[[[[[')
                      + novices(2))
    text = text.replace('name = "Test Posse"', 'name = """Test [[[[[[[[[[[[[[\n{{{{{{{{{{{{{{{{{ Posse"""')
    posse = P.load_posse(write(tmp_path, text))
    assert posse.models[0].name == "Boss [[[[[[[[[[[[[[[[[[[[[" and posse.name.startswith("Test [[[[")


@pytest.mark.parametrize("spec", ["twilight", "Twilight Order", "twilight-order", "TWILIGHT_ORDER"])
def test_one_resolver_takes_file_sample_faction_and_alias(spec):
    assert P.load_posse_spec(spec).name == P.sample_posse("twilight-order").name


def test_unknown_posse_name_suggests(capsys):
    rc, _, err = root(capsys, "shadows", "battle", "unaligned", "--vs", "twilite", "-t", "10")
    assert rc == 2 and err.count("\n") == 1
    assert "--vs: no posse file 'twilite' and no sample posse or Faction by that name (did you mean 'twilight'?)" in err
    rc, _, err = run(capsys, "twilite")
    assert rc == 2 and "POSSE: no posse file 'twilite'" in err


def test_battle_takes_a_faction_name_as_posse_does(capsys):
    rc, out, err = root(capsys, "shadows", "battle", "unaligned", "--vs", "twilight", "-t", "50", "--seed", "1",
                        "-f", "json")
    assert rc == 0, err
    assert json.loads(out)["posse_b"] == P.sample_posse("twilight-order").name


def test_a_huge_wrong_value_is_shortened_in_the_error(tmp_path):
    msg = broken(tmp_path, posse_text(HERO.replace('rank = "Hero"', f'rank = "Hero"\nexp = "{"x" * 5000}"')))
    assert "exp must be whole number, got 'xxxx" in msg and len(msg) < 300 and msg.endswith("...")
