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


def test_second_pistol_is_explained(result, capsys):
    t = result.table
    pistols = t[(t["item"] == "Pistol") & (t["why"] != "noise")]
    assert not pistols.empty and set(pistols["why"]) == {"spare-weapon"}
    noisy = t[t["why"] == "noise"]
    assert ((noisy["d_p_win"].abs() <= 2 * noisy["d_p_win_stderr"])).all()
    rc, out, _ = run(capsys, "unaligned", "--vs", "twilight-order", "-t", TRIALS, "--seed", "2")
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
