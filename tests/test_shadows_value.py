"""`shadows value`: the budget (what the posse has left, or --budget), purchases over it listed apart, and the
explanations of surprising values (issue 16)."""
import json
import re

import pytest

from cli_run import cli_runner
from oddsmith.shadows import posse as P
from oddsmith.shadows import value as V

run = cli_runner("shadows", "value")
TRIALS = "300"


@pytest.fixture(scope="module")
def result():
    return V.value(P.sample_posse("unaligned"), P.sample_posse("twilight-order"), trials=300, seed=2)


def test_remaining_dollars():
    unaligned = P.sample_posse("unaligned")
    assert V.remaining_dollars(unaligned) == 100 - 94
    basic = P.resolve_posse('[posse]\nname = "B"\nmethod = "basic"\n[[model]]\nname = "H"\nrank = "Hero"\n'
                            'weapons = ["Pistol"]\n[[model]]\nname = "N"\nrank = "Novice"\nweapons = ["Pistol"]\n')
    assert V.remaining_dollars(basic) is None


def test_default_budget_is_what_the_posse_has_left(result):
    assert result.budget == 6
    assert (result.affordable["cost"] <= 6).all() and (result.over_budget["cost"] > 6).all()
    assert len(result.affordable) + len(result.over_budget) == len(result.table)
    assert not result.affordable["over_limit"].any()
    for part in (result.affordable, result.over_budget):  # each part keeps the ranking
        assert list(part["d_p_win_per_dollar"]) == sorted(part["d_p_win_per_dollar"], reverse=True)


def test_cli_ranks_only_what_the_posse_can_afford_first(capsys):
    rc, out, err = run(capsys, "unaligned", "--vs", "twilight-order", "-t", TRIALS, "--seed", "2", "-f", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["budget"] == 6 and d["purchases"] and all(p["cost"] <= 6 for p in d["purchases"])
    assert d["over_budget"] and all(p["cost"] > 6 for p in d["over_budget"])
    rc, out, _ = run(capsys, "unaligned", "--vs", "twilight-order", "-t", TRIALS, "--seed", "2", "--top", "3")
    assert rc == 0
    text = " ".join(out.split())
    assert "Purchases costing at most $6 (what the posse has left)" in text
    assert "Over the budget: the best 3 of" in text and "Each row: the posse as it is plus that one purchase" in text
    first = out.split("-----\n", 1)[1].splitlines()[0]  # the first ranked row costs what the posse can pay
    assert int(re.split(r"\s{2,}", first)[2].rstrip("*")) <= 6, first


def test_budget_option(capsys):
    rc, out, _ = run(capsys, "unaligned", "--vs", "twilight-order", "-t", TRIALS, "--seed", "2", "--budget", "100",
                     "-f", "json")
    d = json.loads(out)
    assert rc == 0 and d["budget"] == 100 and d["over_budget"] == []
    assert any(p["over_limit"] for p in d["purchases"])  # within the budget but over the Dollar Limit: flagged
    for bad in ("-1", "x"):
        rc, out, err = run(capsys, "unaligned", "--vs", "twilight-order", "-t", TRIALS, "--budget", bad)
        assert rc == 2 and out == "" and err.count("\n") == 1 and "--budget" in err


def test_second_pistol_is_explained(capsys):
    # the spare-Weapon explanation is the fixed-range firefight's: there a Jam leaves a model nothing to do
    fixed = V.value(P.sample_posse("unaligned"), P.sample_posse("twilight-order"),
                    B.battle_options(movement="none"), trials=300, seed=2)
    t = fixed.table
    pistols = t[(t["item"] == "Pistol") & (t["why"] != "noise")]
    assert not pistols.empty and set(pistols["why"]) == {"spare-weapon"}
    noisy = t[t["why"] == "noise"]
    assert ((noisy["d_p_win"].abs() <= 2 * noisy["d_p_win_stderr"])).all()
    rc, out, _ = run(capsys, "unaligned", "--vs", "twilight-order", "--movement", "none", "-t", TRIALS, "--seed", "2")
    assert rc == 0
    text = " ".join(out.split())
    if "Pistol†" in out:
        assert "† a second Weapon of a kind the model carries is a spare: when the first Jams" in text


def test_house_rifle_is_a_candidate():
    text = P.sample_posse_text("unaligned")[1] + ('\n[house_weapons."Rifle"]\nshort = 8\nmedium = 16\nlong = 24\n'
                                                    'jam_die = "D10"\n')
    posse = P.resolve_posse(text)
    cands, skipped = V.candidates(posse)
    assert any(c.item == "Rifle" for c in cands)
    assert not any(s["item"] == "Rifle" and "no Shooting Test" in s["reason"] for s in skipped)
    plain, skipped = V.candidates(P.sample_posse("unaligned"))
    assert not any(c.item == "Rifle" for c in plain)


def test_the_vessel_buys_no_weapon_or_gear_for_the_game():
    posse = P.sample_posse("congregation")
    cands, skipped = V.candidates(posse)
    vessel = next(m.name for m in posse.models if m.is_vessel)
    mine = [c for c in cands if posse.models[c.model_index].name == vessel]
    assert mine and {c.kind for c in mine} == {"skill"}  # its Skills still count while possessed
    reasons = {s["reason"] for s in skipped if s["model"] == vessel and s["kind"] in ("weapon", "gear")}
    assert V.VESSEL in reasons


# --- the table battle (issue 13): what is valued, and which battle the values hold for --------------------------

from oddsmith.shadows import battle as B  # noqa: E402

FIGHT_ITEMS = ("Mean", "Close Work", "Fearsome", "'Ornery", "Bull-Rush", "Derringer")


def _with_derringer_price(slug="unaligned", price=2):
    """A sample posse with a house price for the Derringer (the rulebook text gives it none)."""
    return P.resolve_posse(P.sample_posse_text(slug)[1] + f'\n[prices]\n"Derringer" = {price}\n')


def test_fighting_skills_and_the_derringer_are_valued_on_the_table():
    posse = _with_derringer_price()
    cands, skipped = V.candidates(posse, B.battle_options())
    for item in FIGHT_ITEMS + ("Hawkeye",):
        assert any(c.item == item for c in cands), item
        reasons = {s["reason"] for s in skipped if s["item"] == item}
        assert not any(r.startswith("no effect") for r in reasons), (item, reasons)
    # the reasons left say what the table battle does not play
    table_reasons = {s["item"]: s["reason"] for s in skipped}
    # Slick's extra Action is played on the table (docs/shadows-battles.md section 10): valued there
    assert "Slick" in {c.item for c in cands} and "Slick" not in table_reasons
    # Quickdraw and Bushwhacker make a gun model play Lookout on the table (docs/shadows-battles.md section 11)
    assert {"Quickdraw", "Bushwhacker"} <= {c.item for c in cands} and "Quickdraw" not in table_reasons
    # the Lasso drags riders off their horses on the table (docs/shadows-battles.md section 11c), thrown by brawl-style
    # models: this posse's are all gun style under balanced, under brawl it is valued
    assert table_reasons["Lasso"] == V.GUN_LASSO and "Lasso" not in {c.item for c in cands}
    assert "Lasso" in {c.item for c in V.candidates(posse, B.battle_options(plan="brawl"))[0]}
    # the fixed-range firefight plays no Fights or Spotting Tests: listed, not simulated
    cands, skipped = V.candidates(posse, B.battle_options(movement="none"))
    assert not any(c.item in FIGHT_ITEMS + ("Hawkeye",) for c in cands)
    none_reasons = {s["item"]: s["reason"] for s in skipped}
    for item in FIGHT_ITEMS + ("Hawkeye", "Quickdraw", "Bushwhacker", "Slick", "Lasso"):
        assert none_reasons[item] == V.NO_EFFECT, item
    # --targets closest: never a Spotting Test, so Hawkeye changes nothing
    cands, skipped = V.candidates(posse, B.battle_options(targets="closest"))
    assert not any(c.item == "Hawkeye" for c in cands) and any(c.item == "Mean" for c in cands)
    assert {s["reason"] for s in skipped if s["item"] == "Hawkeye"} == {V.NO_SPOTTING}
    # without a house price the Derringer is listed as unpriced, in both battles
    _, skipped = V.candidates(P.sample_posse("unaligned"), B.battle_options())
    assert {s["reason"] for s in skipped if s["item"] == "Derringer"} == {V.NO_PRICE}


def test_value_says_which_plan_and_terrain_its_values_hold_for(capsys):
    rc, out, err = run(capsys, "unaligned", "--vs", "twilight-order", "-t", "200", "--seed", "2", "--plan", "brawl",
                       "--vs-plan", "gunline", "--terrain", "light", "-f", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["movement"] == "table" and d["plan"] == "brawl" and d["vs_plan"] == "gunline"
    assert d["terrain"] == pytest.approx(0.25)
    assert d["values_hold_for"] == "the table battle (movement table), plan brawl against plan gunline, terrain light"
    rc, out, err = run(capsys, "unaligned", "--vs", "twilight-order", "-t", "200", "--seed", "2", "--plan", "brawl",
                       "--terrain", "0.4", "--top", "3")
    assert rc == 0, err
    text = " ".join(out.split())
    assert ("the values hold for the table battle (movement table), plan brawl against plan balanced, terrain "
            "cover density 0.4") in text
    rc, out, err = run(capsys, "unaligned", "--vs", "twilight-order", "-t", "200", "--seed", "2", "--movement", "none",
                       "--range", "8", "--vs-cover", "--top", "3", "-f", "md")
    assert rc == 0, err
    assert "the values hold for the fixed-range firefight (movement none) at 8\", posse B in Cover" in out
    assert "Mean" not in out.split("Not valued", 1)[0]  # no Fights at a fixed range: Mean is not ranked


@pytest.mark.slow
def test_mean_is_worth_something_to_a_brawler_in_a_brawl():
    """The table battle plays Fights, so +1 Die in every Fight Test (Mean) changes a brawling posse's chances:
    a change beyond 3 paired standard errors on a few thousand battles, positive."""
    posse = P.sample_posse("unaligned")
    res = V.value(posse, P.sample_posse("twilight-order"), B.battle_options(plan="brawl", vs_plan="brawl"),
                  trials=3000, seed=5)
    boss = posse.models[0].name
    mean = res.table[(res.table["item"] == "Mean") & (res.table["model"] == boss)]
    assert len(mean) == 1, res.skipped[res.skipped["item"] == "Mean"]
    d, se = float(mean["d_p_win"].iloc[0]), float(mean["d_p_win_stderr"].iloc[0])
    assert d > 3 * se > 0, (d, se)
    assert res.options.plan_a == "brawl" and res.options.movement == "table"
