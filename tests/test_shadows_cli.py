"""`oddsmith shadows` dice commands: JSON contracts, every format, bad input."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from cli_run import cli_runner
from oddsmith.shadows import engine as E

FINAL = ("miss", "cancelled", "saved", "shaken", "downed", "casualty")
KEYS = ("miss", "jam_check", "cancelled", "saved", "shaken", "downed", "casualty")


run = cli_runner()


def run_json(capsys, *args):
    rc, out, err = run(capsys, *args, "--format", "json")
    assert rc == 0, err
    return json.loads(out)


def test_test_contract(capsys):
    d = run_json(capsys, "shadows", "test", "--die", "d8", "--dice", "3")
    dist = d["distribution"]
    assert set(dist) == {"0", "1", "2", "3"}
    assert sum(dist.values()) == pytest.approx(1)
    assert dist["0"] == 0.125
    assert d["exact"] is True


def test_test_exact_fractions_and_ranks(capsys):
    d = run_json(capsys, "shadows", "test", "--rank", "HERO", "--dice", "2", "--exact-fractions")
    assert d["setup"]["die"] == "D10"
    fr = {k: Fraction(v) for k, v in d["fractions"].items()}
    assert sum(fr.values()) == 1
    for k, v in d["distribution"].items():
        assert float(fr[k]) == pytest.approx(v)


@pytest.mark.parametrize("extra", [[], ["--dice-mod", "2"], ["--save-mod", "-1"], ["--boilerplate"],
                                   ["--target-shaken"], ["--reroll", "a"],
                                   ["--dice-mod", "-1", "--save-mod", "2", "--boilerplate", "--target-shaken",
                                    "--reroll", "b"]])
def test_shoot_contract(capsys, extra):
    d = run_json(capsys, "shadows", "shoot", "--shooter", "veteran", "--target", "novice", *extra)
    out = d["outcomes"]
    for k in KEYS:
        assert k in out and 0.0 <= out[k] <= 1.0
    assert sum(out[k] for k in FINAL) == pytest.approx(1, abs=1e-12)
    assert out["jam_check"] <= out["miss"]
    assert d["exact"] is True
    assert "fractions" not in d


def test_shoot_exact_fractions(capsys):
    d = run_json(capsys, "shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--exact-fractions")
    fr = {k: Fraction(v) for k, v in d["fractions"].items()}
    assert set(KEYS) <= set(fr)
    assert sum(fr[k] for k in FINAL) == 1
    for k in KEYS:
        assert float(fr[k]) == pytest.approx(d["outcomes"][k])
    assert fr["miss"] == Fraction(1, 8)   # three D8 all failing


def test_shoot_matches_engine_and_options(capsys):
    d = run_json(capsys, "shadows", "shoot", "--shooter", "D10", "--target", "d8", "--weapon", "repeater rifle",
                 "--range", "long", "--cover", "--skill", "trick shooter", "--tough", "--silver-bullets",
                 "--supernatural")
    assert d["setup"]["dice"] == 2 and d["setup"]["save_modifier"] == 0
    assert "action" in d and d["action_weapons"] == ["Repeater Rifle", "Repeater Rifle"]
    want = E.shoot(E.Shooter.of("hero", skills=["Trick Shooter"]),
                   E.Target.of("veteran", skills=["Tough"], supernatural=True), "repeater rifle",
                   range_band="long", cover=True, silver_bullets=True)
    assert d["outcomes"] == pytest.approx(want.outcomes)


def test_shoot_mc_reports_stderr(capsys):
    d = run_json(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "hero", "--mc", "--trials", "50000",
                 "--seed", "4")
    assert d["exact"] is False and d["trials"] == 50000 and d["seed"] == 4
    exact = E.shoot("hero", "hero").outcomes
    for k, v in d["outcomes"].items():
        assert abs(v - exact[k]) <= 5 * max(d["stderr"][k], 1 / 50000)


@pytest.mark.parametrize("fmt", ["table", "csv", "md", "json"])
@pytest.mark.parametrize("cmd", [
    ["test", "--rank", "novice"],
    ["shoot", "--shooter", "novice", "--target", "hero", "--weapon", "sixgun"],
    ["fight", "--attacker", "hero", "--defender", "novice", "--charging"],
    ["recover", "--rank", "veteran", "--friend"],
    ["bottle", "--rank", "hero", "--stand-in"],
    ["cast", "--rank", "veteran", "--power", "bless"],
    ["dynamite", "--rank", "veteran"],
    ["table", "recovery"],
])
def test_every_command_every_format(capsys, cmd, fmt):
    rc, out, err = run(capsys, "shadows", *cmd, "--format", fmt)
    assert rc == 0, err
    assert out.strip() and not err
    if fmt == "json":
        json.loads(out)


def test_output_file(tmp_path, capsys):
    target = tmp_path / "fight.csv"
    rc, out, _ = run(capsys, "shadows", "table", "fight", "--format", "csv", "--output", str(target))
    assert rc == 0 and out == ""
    lines = target.read_text().splitlines()
    assert lines[0].startswith("attacker,defender,charging") and len(lines) == 19


def test_table_contracts(capsys):
    d = run_json(capsys, "shadows", "table", "shooting-full")
    assert len(d["rows"]) == 2160 and d["exact"] is True
    for row in d["rows"][:50]:
        assert sum(row[k] for k in FINAL) == pytest.approx(1)
    d = run_json(capsys, "shadows", "table", "success", "--exact-fractions")
    row = d["rows"][0]
    assert row["die"] == "D6" and row["dice"] == 1 and row["1_exact"] == "1/3"
    d = run_json(capsys, "shadows", "table", "shooting", "--reroll", "a")
    assert {r["reading"] for r in d["rows"]} == {"a"} and len(d["rows"]) == 3 * 3 * 6
    for name in ("fight", "bottle", "cast", "dynamite", "blast"):
        assert run_json(capsys, "shadows", "table", name)["rows"]


def test_fight_contract(capsys):
    d = run_json(capsys, "shadows", "fight", "--attacker", "veteran", "--defender", "veteran", "--exact-fractions")
    out = d["outcomes"]
    assert out["attacker_wins"] == pytest.approx(out["defender_wins"])
    fr = {k: Fraction(v) for k, v in d["fractions"].items()}
    assert fr["draw"] + sum(fr[f"{s}_{k}"] for s in ("attacker", "defender") for k in E.STATES) == 1
    assert set(d["margins"]) == {"attacker", "defender"}


@pytest.mark.parametrize("args,needle", [
    (["test", "--die", "d8", "--dice", "0"], "at least 1"),
    (["test", "--die", "d12"], "--die"),
    (["test", "--rank", "sheriff"], "--rank"),
    (["test", "--die", "d8", "--rank", "hero"], "not both"),
    (["test", "--die", "d8", "--dice", "3", "--dice-mod", "30"], "more than"),
    (["test", "--die", "d8", "--reroll", "c"], "--reroll"),
    (["shoot", "--shooter", "vet", "--target", "novice"], "--shooter"),
    (["shoot", "--shooter", "veteran", "--target", "greenhorn"], "--target"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--weapon", "gatling"], "weapon"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--range", "extreme"], "range band"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--skill", "quickshot"], "skill"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--target-skill", "ironhide"], "skill"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--save-mod", "9"], "save modifier"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--save-mod", "-7"], "save modifier"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--mc", "--exact-fractions"], "exact"),
    (["shoot", "--shooter", "veteran", "--target", "novice", "--mc", "--trials", "0"], "trials"),
    (["shoot", "--shooter", "veteran", "--target", "novice"], None),
    (["fight", "--attacker", "hero", "--defender", "novice", "--attacker-form", "hawk"], "Beast Form"),
    (["fight", "--attacker", "hero", "--defender", "novice", "--defender-save-mod", "12"], "save modifier"),
    (["cast", "--rank", "hero", "--power", "teleport"], "Arcane Power"),
    (["cast", "--rank", "hero"], "Difficulty"),
    (["table", "nonsense"], "unknown table"),
    (["recover", "--rank", "legend"], "--rank"),
])
def test_bad_input_one_line_exit_2(capsys, args, needle):
    rc, out, err = run(capsys, "shadows", *args)
    if needle is None:
        assert rc == 0
        return
    assert rc == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:")
    assert needle.lower() in err.lower()
    assert "Traceback" not in err


def test_bad_output_leaves_no_file(tmp_path, capsys):
    rc, _out, err = run(capsys, "shadows", "test", "--die", "d6", "--output", str(tmp_path / "missing" / "x.json"))
    assert rc == 2 and "does not exist" in err
    rc, _out, _err = run(capsys, "shadows", "test", "--die", "d6", "--dice", "0", "--output", str(tmp_path / "x.json"))
    assert rc == 2 and list(tmp_path.iterdir()) == []


# --- shoot: --range in inches, and what each outcome row counts (issue 16) ----------------------------


def test_shoot_range_in_inches_picks_the_weapons_band(capsys):
    by_inches = run_json(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--weapon", "carbine",
                         "--range", "13")
    by_band = run_json(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--weapon", "carbine",
                       "--range", "long")
    assert by_inches["outcomes"] == by_band["outcomes"]
    assert by_inches["setup"]["range_band"] == "long" and by_inches["setup"]["range_inches"] == 13.0
    assert "range_inches" not in by_band["setup"]
    rc, out, _ = run(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--weapon", "carbine",
                     "--range", "13")
    assert rc == 0 and '13" is Long Range for the Carbine (over 12", up to 18")' in out
    rc, out, err = run(capsys, "shadows", "shoot", "--shooter", "hero", "--target", "veteran", "--range", "13")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "13\" is beyond the Pistol's Long Range (up to 12\")" in err


def test_shoot_says_which_rows_are_nested(capsys):
    rc, out, _ = run(capsys, "shadows", "shoot", "--shooter", "veteran", "--target", "novice")
    assert rc == 0
    rows = {line.strip().split("  ")[0]: line for line in out.splitlines()}
    assert "of which jam_check (a die showed 1)" in rows and "of which jammed (the Jamming Check failed)" in rows
    assert 'the rows not marked "of which" are every way the shot can end: they sum to 1' in " ".join(out.split())
    d = run_json(capsys, "shadows", "shoot", "--shooter", "veteran", "--target", "novice")
    assert list(d["outcomes"]) == ["miss", "jam_check", "jammed", "cancelled", "saved", "shaken", "downed", "casualty"]
    assert sum(d["outcomes"][k] for k in FINAL) == pytest.approx(1)
    rc, out, _ = run(capsys, "shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--format", "csv")
    assert [line.split(",")[0] for line in out.splitlines()[1:4]] == ["miss", "jam_check", "jammed"]


# --- `shadows battle` / `shadows value`: the table battle's options (issue 13) -------------------------------

BATTLE = ("shadows", "battle", "unaligned", "--vs", "twilight-order", "--trials", "500", "--seed", "3")


@pytest.mark.parametrize("command", ["battle", "value"])
@pytest.mark.parametrize("args,needles", [
    (["--plan", "rush"], ["--plan", "gunline", "brawl", "balanced"]),
    (["--vs-plan", "camp"], ["--vs-plan", "gunline", "brawl", "balanced"]),
    (["--terrain", "jungle"], ["--terrain", "open", "light", "dense"]),
    (["--terrain", "1.5"], ["--terrain", "1.5"]),
    (["--terrain", "-0.1"], ["--terrain"]),
    (["--terrain", "nan"], ["--terrain"]),
    (["--movement", "fly"], ["--movement", "table", "none"]),
    (["--targets", "nearest"], ["--targets", "closest", "most-dangerous"]),
    (["--range", "8"], ["--range applies to --movement none only", "players' moves"]),
    (["--range", "short"], ["--range applies to --movement none only"]),
    (["--cover"], ["--cover applies to --movement none only", "--terrain decides Cover"]),
    (["--vs-cover"], ["--vs-cover applies to --movement none only"]),
    (["--cover", "--vs-cover"], ["--cover and --vs-cover apply to --movement none only"]),
])
def test_battle_options_bad_input_one_line_exit_2(capsys, tmp_path, command, args, needles):
    out_file = tmp_path / "out.json"
    rc, out, err = run(capsys, "shadows", command, "unaligned", "--vs", "twilight-order", "--trials", "100", *args,
                       "-o", out_file)
    assert rc == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    assert not out_file.exists()


def test_cli_choices_are_the_battles():
    from oddsmith.commands import shadows_battle as SB
    from oddsmith.shadows import battle as B
    from oddsmith.web.pages import posse as W

    assert {m.value for m in SB.MovementOption} == set(B.MOVEMENT_MODES) == set(W.MOVEMENTS)
    assert {p.value for p in SB.PlanOption} == set(B.PLANS) == set(W.PLANS)
    assert {t.value for t in SB.TargetsOption} == set(B.TARGET_POLICIES) == set(W.TARGETS)
    assert {e.value for e in SB.EventsOption} == set(B.EVENT_TABLES) == set(W.EVENTS)
    assert "closest" in B.TARGET_POLICIES


def test_battle_table_names_movement_terrain_plans_and_fight_figures(capsys):
    rc, out, err = run(capsys, *BATTLE, "--terrain", "light", "--plan", "brawl", "--vs-plan", "gunline")
    assert rc == 0, err
    text = " ".join(out.split())
    assert "plan brawl" in text and "plan gunline" in text and "movement table" in text
    assert "terrain light (a Line of Fire in Cover with chance 0.25)" in text
    for words in ("fights_mean", "Fights per battle", "p_a_fight_casualties", "Casualties from Fights",
                  "turns_mean", "Game Turns played", "p_fought ± se"):
        assert words in text, words
    rc, out, err = run(capsys, *BATTLE, "--movement", "none", "--range", "8", "--cover")
    assert rc == 0, err
    text = " ".join(out.split())
    assert "movement none" in text and "at 8\"" in text and "in Cover" in text and "plan brawl" not in text


def test_battle_json_keeps_todays_fields_and_adds_the_tables(capsys):
    old = ("p_a_wins", "p_b_wins", "p_draw", "p_a_bottles", "p_b_bottles", "turns_mean", "casualties_a",
           "casualties_b", "p_event_per_turn")
    new = ("fights_mean", "p_a_fight_casualties", "p_b_fight_casualties")
    d = run_json(capsys, *BATTLE, "--terrain", "0.3", "--plan", "brawl", "--targets", "closest")
    for key in old + new:
        assert d[key] >= 0 and key in d["stderr"], key
    assert d["movement"] == "table" and d["terrain"] == pytest.approx(0.3)
    assert d["plan_a"] == "brawl" and d["plan_b"] == "balanced" and d["targets"] == "closest"
    assert {"p_casualty", "p_downed_at_end", "p_fought"} <= set(d["models"][0]["stderr"])
    assert d["fights_mean"] > 0 and any(m["p_fought"] > 0 for m in d["models"])  # brawlers close and Fight
    none = run_json(capsys, *BATTLE, "--movement", "none", "--range", "8")
    for key in old + new:
        assert key in none and key in none["stderr"], key
    assert none["movement"] == "none" and none["fights_mean"] == 0
    assert none["p_a_fight_casualties"] == none["p_b_fight_casualties"] == 0
    assert all(m["p_fought"] == 0 for m in none["models"])


def test_battle_csv_has_p_fought_rows(capsys):
    rc, out, err = run(capsys, *BATTLE, "-f", "csv")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "side,model,figure,value,stderr"
    assert any(",fights_mean," in line for line in lines) and any(",p_fought," in line for line in lines)
