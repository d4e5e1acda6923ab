"""Pulls: skill tests, Kung Fu tests, suit and value pulls, checked by hand and against a
plain card-by-card count; the `oddsmith pull` command."""
from __future__ import annotations

import json

import numpy as np
import pytest

from cli_run import cli_runner
from oddsmith.doomtown import pulls as P
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import JOKER_CODE, card_code, kung_fu_test_succeeds, skill_test_succeeds

STANDARD = list(range(52)) + [JOKER_CODE, JOKER_CODE]
VALUES = range(1, 14)


def C(v: int, s: int) -> int:
    return card_code(v, s)


# --------------------------------------------------------------------------
# Figures worked out by hand on a plain 52-card deck with two jokers
# --------------------------------------------------------------------------


def test_skill_test_by_hand():
    # rating 2, difficulty 8: a 6 or better (8 values x 4 suits) or a joker
    row = P.skill_test_odds(STANDARD, 2, 8).iloc[0]
    assert (row["successes"], row["cards"]) == (34, 54)
    assert row["p_success"] == pytest.approx(34 / 54)
    # difficulty 13 with no skill: kings and jokers (a joker counts as a king)
    assert P.skill_test_odds(STANDARD, 0, 13).iloc[0]["successes"] == 6
    # difficulty 14 with no skill: nothing passes, not even a joker
    assert P.skill_test_odds(STANDARD, 0, 14).iloc[0]["successes"] == 0
    # meeting the difficulty is enough: rating 4, difficulty 5 passes on an ace
    assert P.skill_test_odds(STANDARD, 4, 5).iloc[0]["successes"] == 54


def test_kung_fu_test_by_hand():
    # value 5 + Kung Fu 1 = 6: A..6 (24 cards) or a joker (its owner picks an ace)
    row = P.kung_fu_test_odds(STANDARD, 5, 1).iloc[0]
    assert (row["effective_value"], row["successes"]) == (6, 26)
    # value is held at 13 at most: a value 12 dude with Kung Fu 3 always succeeds
    row = P.kung_fu_test_odds(STANDARD, 12, 3).iloc[0]
    assert (row["effective_value"], row["successes"]) == (13, 54)
    assert P.kung_fu_test_odds(STANDARD, 1).iloc[0]["successes"] == 6  # aces and jokers


def test_suit_and_value_pulls_by_hand():
    assert P.pull_odds(STANDARD, suits="hearts").iloc[0]["successes"] == 15
    assert P.pull_odds(STANDARD, suits="red").iloc[0]["successes"] == 28
    assert P.pull_odds(STANDARD, values="8+").iloc[0]["successes"] == 26
    assert P.pull_odds(STANDARD, values="8+", suits="red").iloc[0]["successes"] == 14
    # cards already seen leave the deck: 8♥ 9♥ and a joker gone
    row = P.pull_odds(STANDARD, values="8+", suits="red", seen="8H 9H Joker").iloc[0]
    assert (row["successes"], row["cards"]) == (11, 51)


def test_value_table_by_hand():
    df = P.value_pull_table([C(1, 0), C(1, 1), C(5, 2), C(13, 3), JOKER_CODE])
    ace, five, king = df.iloc[0], df.iloc[4], df.iloc[12]
    assert (ace["cards_of_value"], ace["p_exactly"], ace["p_at_most"]) == (2, 3 / 5, 3 / 5)
    assert (five["p_at_least"], five["p_at_most"]) == (3 / 5, 4 / 5)
    assert (king["p_exactly"], king["p_at_least"]) == (2 / 5, 2 / 5)
    suits = P.suit_pull_table([C(1, 0), C(1, 0), C(5, 2), JOKER_CODE])
    assert suits["p_success"].tolist() == [3 / 4, 1 / 4, 2 / 4, 1 / 4]


def test_tables_cover_every_difficulty_and_fall():
    df = P.skill_test_odds(STANDARD, [0, 3])
    for rating, part in df.groupby("skill_rating"):
        p = part.sort_values("difficulty")["p_success"].to_numpy()
        assert p[0] == 1.0 and p[-1] == 0.0 and np.all(np.diff(p) <= 0)
    df = P.kung_fu_test_odds(STANDARD)
    assert df["dude_value"].tolist() == list(VALUES) and np.all(np.diff(df["p_success"]) >= 0)


# --------------------------------------------------------------------------
# Against a plain count of the cards left, on random decks and seen cards
# --------------------------------------------------------------------------


def plain_successes(cards, passes) -> int:
    """Count cards that pass; a joker passes when some value would (its owner picks)."""
    return sum(any(passes(v, s) for v in VALUES for s in range(4)) if c == JOKER_CODE
               else passes(c // 4 + 1, c % 4) for c in cards)


def test_against_plain_count_random_decks():
    rng = np.random.default_rng(9)
    for _ in range(25):
        deck = [int(x) for x in rng.integers(0, 52, size=int(rng.integers(10, 40)))] + [JOKER_CODE] * int(rng.integers(0, 3))
        order = rng.permutation(len(deck))
        seen = [deck[i] for i in order[: int(rng.integers(0, 6))]]
        left = list(deck)
        for c in seen:
            left.remove(c)
        r, d = int(rng.integers(0, 5)), int(rng.integers(1, 19))
        got = P.skill_test_odds(deck, r, d, seen=seen).iloc[0]
        assert got["successes"] == plain_successes(left, lambda v, s: skill_test_succeeds(v, r, d))
        assert got["cards"] == len(left)
        dv, kf = int(rng.integers(1, 14)), int(rng.integers(0, 4))
        got = P.kung_fu_test_odds(deck, dv, kf, seen=seen).iloc[0]
        assert got["successes"] == plain_successes(left, lambda v, s: kung_fu_test_succeeds(v, min(13, dv + kf)))
        suits = sorted({int(x) for x in rng.integers(0, 4, size=2)})
        lo, hi = sorted(int(x) for x in rng.integers(1, 14, size=2))
        got = P.pull_odds(deck, suits=[("spades", "hearts", "diamonds", "clubs")[s] for s in suits],
                          values=f"{lo}-{hi}", seen=seen).iloc[0]
        assert got["successes"] == plain_successes(left, lambda v, s: lo <= v <= hi and s in suits)


# --------------------------------------------------------------------------
# Reading conditions
# --------------------------------------------------------------------------


@pytest.mark.parametrize("spec,values", [
    ("8", (8,)), ("8+", tuple(range(8, 14))), (">=8", tuple(range(8, 14))), ("<=5", (1, 2, 3, 4, 5)),
    ("5-", (1, 2, 3, 4, 5)), ("3-7", (3, 4, 5, 6, 7)), ("J-K", (11, 12, 13)), (">Q", (13,)),
    ("<2", (1,)), ("A,K", (1, 13)), ("a, 10", (1, 10)),
])
def test_value_conditions(spec, values):
    assert P.parse_value_condition(spec) == values


@pytest.mark.parametrize("spec", ["14", "8++", "", "7-3", "<A", "eight", ">=8+"])
def test_bad_value_conditions(spec):
    with pytest.raises(OddsmithError):
        P.parse_value_condition(spec)


def test_suits_and_errors():
    assert [s.name for s in P.parse_suits("red")] == ["HEARTS", "DIAMONDS"]
    assert [s.name for s in P.parse_suits("♠, c")] == ["SPADES", "CLUBS"]
    with pytest.raises(OddsmithError, match="purple"):
        P.parse_suits("purple")
    with pytest.raises(OddsmithError, match="no cards"):
        P.skill_test_odds([C(2, 0)], 1, 4, seen="2S")
    with pytest.raises(OddsmithError, match="not .*in the deck"):
        P.skill_test_odds(STANDARD, 1, 4, seen="2S 2S")
    with pytest.raises(OddsmithError, match="rating"):
        P.skill_test_odds(STANDARD, -1, 4)
    with pytest.raises(OddsmithError, match="dude value"):
        P.kung_fu_test_odds(STANDARD, 14)


# --------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------


run = cli_runner()


def test_cli_skill_test_json(capsys):
    rc, out, err = run(capsys, "pull", "balanced", "--skill", "2", "--difficulty", "8", "-f", "json")
    assert rc == 0 and err == ""
    data = json.loads(out)
    assert data["exact"] is True and data["trials"] == 0 and data["test"] == "skill test"
    assert data["p_success"] == pytest.approx(34 / 54) and data["cards"] == 54


def test_cli_seen_and_without(capsys):
    rc, out, _ = run(capsys, "pull", "balanced", "--suit", "red", "--value", "8+", "--seen", "8H 9H Joker", "-f", "json")
    assert rc == 0
    data = json.loads(out)
    assert data["rows"][0]["successes"] == 11 and data["cards"] == 51
    for args in (["law-dogs"], ["law-dogs", "--with-gang", "--without", "gang"]):
        rc, out, _ = run(capsys, "pull", *args, "--kung-fu", "1", "-f", "csv")
        assert rc == 0
        lines = out.strip().splitlines()
        assert lines[0] == "dude_value,kung_fu_rating,effective_value,successes,cards,p_success,deck_state"
        assert len(lines) == 14 and all(line.split(",")[4] == "49" for line in lines[1:])
        assert all('after set-up (starting gang in play: Philip Swinford' in line for line in lines[1:])
    rc, out, _ = run(capsys, "pull", "law-dogs", "--with-gang", "--kung-fu", "1", "-f", "csv")
    assert rc == 0 and all(line.split(",")[4] == "54" for line in out.strip().splitlines()[1:])


def test_cli_default_table_and_markdown(capsys):
    rc, out, _ = run(capsys, "pull", "balanced")
    assert rc == 0 and "p_at_least" in out and "54 cards left" in out
    rc, out, _ = run(capsys, "pull", "balanced", "--difficulty", "9", "-f", "md")
    assert rc == 0 and out.startswith("## Skill test") and "| 0 | 9 |" in out


@pytest.mark.parametrize("args,message", [
    (["--skill", "2", "--suit", "red"], "one kind"),
    (["--seen", "ZZ", "--skill", "1"], "--seen.*ZZ"),
    (["--seen", "8S 8S", "--skill", "1"], "--seen"),
    (["--value", "14"], "card value"),
    (["--suit", "purple"], "purple"),
])
def test_cli_bad_pull_input(capsys, args, message):
    import re

    rc, out, err = run(capsys, "pull", "balanced", *args)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:") and re.search(message, err)


def test_cli_pull_output_missing_folder(capsys, tmp_path):
    target = tmp_path / "missing" / "pull.json"
    rc, out, err = run(capsys, "pull", "balanced", "--skill", "1", "-o", str(target), "-f", "json")
    assert rc == 2 and out == "" and "does not exist" in err
    assert not (tmp_path / "missing").exists()
