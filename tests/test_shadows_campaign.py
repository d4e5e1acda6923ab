"""Campaign roll odds against a brute-force enumeration of every ordered roll, and the CLI commands."""
import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

from cli_run import cli_runner
from oddsmith.shadows import campaign as C

RANK_DIE = {"Novice": 6, "Veteran": 8, "Hero": 10}


# --- brute force references (every ordered roll, Fractions, nothing shared with the module) ------


def brute_income(n):
    sums, rolled, only, none, several = Counter(), Counter(), Counter(), 0, 0
    by_size = Counter()
    total = 0
    for roll in itertools.product(range(1, 7), repeat=n):
        total += 1
        sums[sum(roll)] += 1
        counts = Counter(roll)
        sets = set()
        for value, c in counts.items():
            if c == 2:
                sets.add((2, value))
            elif c == 3:
                sets.add((3, value))
            elif c >= 4:
                sets.add((4, value))
        for s in sets:
            rolled[s] += 1
        if len(sets) == 1:
            only[next(iter(sets))] += 1
        none += not sets
        several += len(sets) >= 2
        for size in {s for s, _ in sets}:
            by_size[size] += 1
    f = lambda c: Fraction(c, total)  # noqa: E731
    return ({k: f(v) for k, v in sums.items()}, {k: f(v) for k, v in rolled.items()},
            {k: f(v) for k, v in only.items()}, f(none), f(several), {k: f(v) for k, v in by_size.items()})


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_income_matches_brute_force(n):
    sums, rolled, only, none, several, by_size = brute_income(n)
    assert C.income_distribution(n) == dict(sorted(sums.items()))
    df = C.encounter_table(n_dice=n, exact=True)
    for row in df.itertuples():
        size = {"two of a kind": 2, "three of a kind": 3, "four of a kind": 4}[row.set]
        assert row.p_rolled_exact == rolled.get((size, row.value), 0)
        assert row.p_only_encounter_exact == only.get((size, row.value), 0)
        assert row.p_rolled == pytest.approx(float(row.p_rolled_exact))
    summary = C.income_summary(n_dice=n)
    assert summary["p_no_encounter"] == none
    assert summary["p_encounter"] == 1 - none
    assert summary["p_choice_of_encounters"] == several
    assert summary["p_two_of_a_kind"] == by_size.get(2, 0)
    assert summary["p_three_of_a_kind"] == by_size.get(3, 0)
    assert summary["p_four_of_a_kind"] == by_size.get(4, 0)
    assert summary["expected_dollars"] == Fraction(7 * n, 2)


def brute_marked_income(n):
    """Marked Cards on every ordered roll: the lowest die (any one of equals) re-rolled when it shows 3 or less; a new
    1 is caught cheating."""
    sums, rolled, caught, total = Counter(), Counter(), Fraction(0), Fraction(0)
    for roll in itertools.product(range(1, 7), repeat=n):
        low = min(roll)
        if low > 3:
            outcomes = [(roll, False)]
        else:
            i = roll.index(low)
            outcomes = [(roll[:i] + (face,) + roll[i + 1:], face == 1) for face in range(1, 7)]
        for final, is_caught in outcomes:
            w = Fraction(1, 6 ** n * len(outcomes))
            sums[sum(final)] += w
            caught += w if is_caught else 0
            counts = Counter(final)
            for value, c in counts.items():
                if c >= 2:
                    rolled[(min(c, 4), value)] += w
            total += w
    assert total == 1
    return dict(sums), dict(rolled), caught


@pytest.mark.parametrize("n", [1, 3, 4, 5])
def test_marked_cards_income_matches_brute_force(n):
    sums, rolled, caught = brute_marked_income(n)
    assert C.marked_income_distribution(n) == dict(sorted(sums.items()))
    summary = C.income_summary(n_dice=n, marked_cards=True)
    assert summary["p_caught_cheating"] == caught == (1 - Fraction(1, 2) ** n) / 6
    assert summary["expected_gain"] == sum(k * p for k, p in sums.items()) - Fraction(7 * n, 2) > 0
    df = C.encounter_table(n_dice=n, exact=True, marked_cards=True)
    for row in df.itertuples():
        size = {"two of a kind": 2, "three of a kind": 3, "four of a kind": 4}[row.set]
        assert row.p_rolled_exact == rolled.get((size, row.value), 0)
    assert C.income_table(n_dice=n, exact=True, marked_cards=True)["p_exactly_exact"].sum() == 1
    # without the Cards, nothing changes
    assert "p_caught_cheating" not in C.income_summary(n_dice=n)


def test_income_hand_values():
    # no two dice alike among 4D6: 6*5*4*3 / 6**4
    assert C.income_summary(False)["p_no_encounter"] == Fraction(360, 1296)
    assert C.income_summary(True)["p_no_encounter"] == Fraction(720, 7776)
    table = C.income_table(True, exact=True)
    assert table["dice"].unique().tolist() == ["5D6"]
    assert table["p_exactly_exact"].sum() == 1
    assert table.iloc[0]["dollars"] == 5 and table.iloc[0]["p_exactly_exact"] == Fraction(1, 7776)
    assert table.iloc[-1]["p_at_least_exact"] == Fraction(1, 7776)
    names = C.encounter_table(False).set_index(["set", "value"])["encounter"]
    assert names[("two of a kind", 3)] == "Forgotten Cabin"
    assert names[("two of a kind", 6)] == ""  # the text lists no entry for a pair of 6s
    supernatural = C.encounter_table(False, supernatural=True).set_index(["set", "value"])["encounter"]
    assert supernatural[("two of a kind", 3)] == "Forsaken Cabin"


def test_advance_matches_brute_force():
    df = C.advance_table(exact=True)
    for row in df.itertuples():
        faces = RANK_DIE[row.rank]
        target = {6: 6, 8: 8, 10: 10}[faces]
        outcomes = Counter()
        for roll in range(1, faces + 1):
            if roll + row.exp >= target:
                for d6 in range(1, 7):
                    if d6 == 1:
                        outcomes["preferred"] += 1
                    elif d6 == 6 and row.rank != "Hero":
                        outcomes["rank_up"] += 1
                    else:
                        outcomes["random"] += 1
            else:
                outcomes["exp"] += 6
        total = faces * 6
        assert row.p_preferred_skill_exact == Fraction(outcomes["preferred"], total)
        assert row.p_random_skill_exact == Fraction(outcomes["random"], total)
        assert row.p_rank_up_exact == Fraction(outcomes["rank_up"], total)
        assert row.p_gain_exp_exact == Fraction(outcomes["exp"], total)
        assert row.p_advance_exact == 1 - row.p_gain_exp_exact


def test_expected_games_to_advance():
    # a Novice at 5 EXP advances for sure; at 4 EXP: 5/6 now, else certainly next game
    assert C.expected_games_to_advance("Novice", 5) == 1
    assert C.expected_games_to_advance("Novice", 4) == 1 + Fraction(1, 6)
    # brute force over the chain of games for a Veteran from 0 EXP
    expected, still = Fraction(0), Fraction(1)
    for exp in range(8):
        expected += still
        still *= 1 - Fraction(exp + 1, 8)
    assert C.expected_games_to_advance("Veteran", 0) == expected
    assert C.advance_table("Hero", 0).iloc[0]["p_advance"] == pytest.approx(0.1)


def test_injury_matches_brute_force():
    df = C.injury_table(exact=True)
    for row in df.itertuples():
        faces = RANK_DIE[row.rank]
        fate = Counter()
        grit_rolls = range(1, faces + 1) if row.cause == "Downed" else [None]
        for grit in grit_rolls:
            for d10 in range(1, 11):
                weight = Fraction(1, 10) * (Fraction(1, faces) if grit is not None else 1)
                if grit is not None and grit >= 5:
                    fate["recovery"] += weight
                else:
                    fate[{1: "dead", 2: "old", 3: "eye", 4: "limp", 5: "weak", 6: "laid"}.get(d10, "none")] += weight
        assert row.p_full_recovery_exact == fate["recovery"]
        assert row.p_dead_exact == fate["dead"]
        assert row.p_old_wound_exact == fate["old"] and row.p_one_eyed_exact == fate["eye"]
        assert row.p_limp_exact == fate["limp"] and row.p_weakened_exact == fate["weak"]
        assert row.p_laid_up_exact == fate["laid"] and row.p_no_injury_7_10_exact == fate["none"]
        assert row.p_lasting_injury_exact == fate["old"] + fate["eye"] + fate["limp"] + fate["weak"]
        assert sum(fate.values()) == 1


def test_doc_table():
    df = C.doc_table(exact=True).set_index("doc_rank")
    assert df.loc["Novice", "p_cured_exact"] == Fraction(1, 6)
    assert df.loc["Hero", "p_no_effect_exact"] == Fraction(8, 10)


@pytest.mark.parametrize("rank", ["Novice", "Veteran", "Hero"])
@pytest.mark.parametrize("won", [False, True])
def test_recruitment_matches_brute_force(rank, won):
    faces = RANK_DIE[rank]
    table = {1: (0, 0), 2: (1, 0), 3: (2, 0), 4: (3, 0), 5: (4, 0), 6: (4, 1), 7: (4, 2)}
    novices, veterans = Counter(), Counter()
    for face in range(1, faces + 1):
        score = face + (1 if won else 0)
        n, v = table.get(score, (4, 3))
        novices[n] += Fraction(1, faces)
        veterans[v] += Fraction(1, faces)
    df = C.recruitment_table(rank, won, exact=True)
    got_n, got_v = Counter(), Counter()
    for row in df.itertuples():
        got_n[row.novices] += row.p_exactly_exact
        got_v[row.veterans] += row.p_exactly_exact
    assert got_n == novices and got_v == veterans
    summary = C.recruitment_summary(rank, won, exact=True).iloc[0]
    assert summary["expected_veterans_exact"] == sum(k * p for k, p in veterans.items())
    assert summary["p_veterans_exact"] == sum(p for k, p in veterans.items() if k >= 1)


def test_uncommon_search_matches_brute_force():
    df = C.uncommon_search_table(exact=True)
    for rank, sides in (("Novice", 3), ("Veteran", 4), ("Hero", 5)):
        faces = sides * 2
        items = Counter()
        for face in range(1, faces + 1):
            items[-(-face // 2) - 1] += Fraction(1, faces)
        got = {r.items: r.p_exactly_exact for r in df[df.boss_rank == rank].itertuples()}
        assert got == dict(items)


# --- CLI --------------------------------------------------------------------------------------


run = cli_runner("shadows")


def test_cli_advance_json(capsys):
    rc, out, err = run(capsys, "advance", "--rank", "veteran", "--exp", "1", "--format", "json", "--exact-fractions")
    assert rc == 0 and err == ""
    data = json.loads(out)
    assert data["exact"] is True and data["command"] == "advance"
    (row,) = data["rows"]
    assert row["rank"] == "Veteran" and row["p_advance"] == 0.25 and row["p_advance_exact"] == "1/4"


def test_cli_advance_ranks_as_dice(capsys):
    rc, out, _ = run(capsys, "advance", "-r", "d6", "-r", "D10", "--format", "csv")
    assert rc == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith("rank,die,exp,p_advance")
    assert len(lines) == 1 + 6 + 10


def test_cli_income(capsys):
    rc, out, _ = run(capsys, "income", "--format", "json")
    data = json.loads(out)
    assert rc == 0 and data["dice"] == 4 and data["expected_dollars"] == 14.0
    assert sum(r["p_exactly"] for r in data["rows"]) == pytest.approx(1.0)
    assert data["p_no_encounter"] == pytest.approx(360 / 1296)
    rc, out, _ = run(capsys, "income", "--won", "--encounters", "--format", "md")
    assert rc == 0 and "| 5D6 | two of a kind | 3 | Forgotten Cabin |" in out
    rc, out, _ = run(capsys, "income", "--format", "table")
    assert rc == 0 and "expected $14.00" in out
    rc, out, _ = run(capsys, "income", "--marked-cards", "--format", "json")
    data = json.loads(out)
    assert rc == 0 and data["marked_cards"] is True and data["p_caught_cheating"] == pytest.approx(15 / 16 / 6)
    assert data["expected_dollars"] == pytest.approx(14 + data["expected_gain"]) and data["expected_gain"] > 1.5
    rc, out, _ = run(capsys, "income", "--marked-cards", "--encounters", "--format", "table")
    assert rc == 0 and "with Marked Cards" in out and "P(caught" in out


def test_cli_injury_recruit_search(capsys):
    rc, out, _ = run(capsys, "injury", "--rank", "hero", "--cause", "downed", "--format", "json")
    (row,) = json.loads(out)["rows"]
    assert rc == 0 and row["p_full_recovery"] == pytest.approx(0.6) and row["p_dead"] == pytest.approx(0.04)
    rc, out, _ = run(capsys, "recruit", "--boss", "Hero", "--won", "--format", "json")
    data = json.loads(out)
    assert rc == 0 and data["boss"] == "Hero" and data["won"] is True
    assert [r["score"] for r in data["rows"]] == list(range(2, 12))
    rc, out, _ = run(capsys, "recruit", "--format", "csv")
    assert rc == 0 and len(out.strip().splitlines()) == 1 + 6
    rc, out, _ = run(capsys, "search", "--boss", "veteran", "--format", "json")
    rows = json.loads(out)["rows"]
    assert rc == 0 and [r["items"] for r in rows] == [0, 1, 2, 3]


def test_cli_output_file(tmp_path, capsys):
    target = tmp_path / "advance.csv"
    rc, out, _ = run(capsys, "advance", "--format", "csv", "--output", str(target))
    assert rc == 0 and out == ""
    assert target.read_text().startswith("rank,die,exp")


@pytest.mark.parametrize("args,needle", [
    (["advance", "--rank", "Vetran"], "unknown rank 'Vetran' (did you mean 'Veteran'?)"),
    (["advance", "--exp", "-1"], "--exp must not be negative"),
    (["injury", "--rank", "D12"], "unknown rank 'D12'"),
    (["injury", "--cause", "exploded"], "exploded"),
    (["recruit", "--boss", "sheriff"], "unknown rank 'sheriff'"),
    (["search", "--boss", "legend"], "unknown rank 'legend'"),
    (["income", "--format", "xml"], "xml"),
])
def test_cli_bad_input_one_line_exit_2(capsys, tmp_path, args, needle):
    target = tmp_path / "out.txt"
    rc, out, err = run(capsys, *args, "--output", str(target))
    assert rc == 2
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:")
    assert needle in err
    assert not target.exists() and list(tmp_path.iterdir()) == []
