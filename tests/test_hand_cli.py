"""`oddsmith hand`: output formats, --input, --lowball, and every bad input in the issue."""
from __future__ import annotations

import io
import json
import random

import pytest

from cli_run import cli_runner


run = cli_runner()


def assert_user_error(rc, out, err, *needles):
    assert rc == 2
    assert out == ""
    assert err.startswith("oddsmith: error:") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def test_single_hand_table(capsys):
    rc, out, err = run(capsys, "hand", "AS AC 8S 8C JD")
    assert rc == 0 and err == ""
    assert "Dead Man's Hand" in out and "A♠ A♣ 8♠ 8♣ J♦" in out


def test_single_hand_json_fields(capsys):
    rc, out, _ = run(capsys, "hand", "AS AC 8S 8C JD", "--format", "json")
    assert rc == 0
    obj = json.loads(out)
    assert obj["cards"] == ["A♠", "A♣", "8♠", "8♣", "J♦"]
    assert obj["rank"] == 11 and obj["rank_name"] == "Dead Man's Hand"
    assert obj["key"] == [11, 8, 8, 1, 1, 11]
    assert obj["cheatin"] is False
    assert sorted(obj["best_five"]) == sorted(obj["cards"])
    assert obj["legal"]["rank"] == 11 and obj["legal"]["key"] == obj["key"]
    assert set(obj["legal"]) >= {"rank", "rank_name", "key", "best_five"}


def test_unquoted_cards_and_more_than_five(capsys):
    rc, out, _ = run(capsys, "hand", "6D", "6C", "6S", "6S", "QD", "KD", "--format", "json")
    obj = json.loads(out)
    assert rc == 0 and obj["rank_name"] == "Four of a Kind" and obj["cheatin"] is True
    assert obj["legal"]["rank_name"] == "Three of a Kind"
    assert obj["key"] == [8, 6, 6, 6, 6, 13]
    assert len(obj["best_five"]) == 5


def test_no_legal_hand_is_null(capsys):
    rc, out, _ = run(capsys, "hand", "6D 6C 6S 6S QD", "-f", "json")
    obj = json.loads(out)
    assert rc == 0 and obj["legal"] is None and obj["cheatin"] is True


def test_ascii_and_joker_identity(capsys):
    rc, out, _ = run(capsys, "hand", "AS AC 8S 8C Joker", "-f", "json", "--ascii")
    obj = json.loads(out)
    assert obj["cards"] == ["AS", "AC", "8S", "8C", "Joker"]
    assert "JD" in obj["counts_as"] and "Joker" in obj["best_five"]


def test_lowball_mode(capsys):
    rc, out, _ = run(capsys, "hand", "--lowball", "AS 2C 3H 4D JK", "-f", "json")
    obj = json.loads(out)
    assert rc == 0 and obj["key"] == [1, 6, 4, 3, 2, 1] and obj["mode"] == "lowball"
    rc, out, _ = run(capsys, "hand", "AS 2C 3H 4D JK", "-f", "json")
    assert json.loads(out)["rank_name"] == "Straight"


def test_key_lists_order_hands(capsys):
    hands = ["7D 7C 7S 9S 9D", "7H 7C 7D 8S 8D", "2C 4C 7C 10C JC", "AS 2C 3H 4D 5S", "10C JC QH KD AH"]
    keys = []
    for lowball in (False, True):
        args = ["hand", "-f", "json"] + (["--lowball"] if lowball else [])
        keys.append([json.loads(run(capsys, *args, h)[1])["key"] for h in hands])
    shootout, lowball = keys
    order = sorted(range(len(hands)), key=lambda i: shootout[i], reverse=True)
    assert order == [0, 1, 2, 3, 4]  # full houses, flush, straight, king high
    assert sorted(range(len(hands)), key=lambda i: lowball[i]) == order[::-1]


@pytest.mark.parametrize("fmt, marker", [("csv", "cards,rank,rank_name,key"), ("md", "| cards |"), ("table", "cards")])
def test_other_formats(capsys, fmt, marker):
    rc, out, _ = run(capsys, "hand", "KS KH KD KC 2D", "--format", fmt)
    assert rc == 0 and marker in out and "Four of a Kind" in out


def test_input_file_json_list(tmp_path, capsys):
    f = tmp_path / "hands.txt"
    f.write_text("# shootout hands\nAS AC 8S 8C JD\n\n6d,6c,6s,6h,joker\n10H TH Th 1S 2S 3S 4D\n", encoding="utf-8")
    rc, out, _ = run(capsys, "hand", "--input", str(f), "--format", "json")
    data = json.loads(out)
    assert rc == 0 and isinstance(data, list) and len(data) == 3
    assert [d["rank_name"] for d in data] == ["Dead Man's Hand", "Five of a Kind", "Three of a Kind"]
    assert data[2]["cheatin"] is True and data[2]["legal"]["rank_name"] == "High Card"


def test_input_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("AS 2S 3S 4S 5S\nKC KD KH 2C 2D\n"))
    rc, out, _ = run(capsys, "hand", "-i", "-", "-f", "csv")
    assert rc == 0 and out.count("\n") == 3 and "Straight Flush" in out and "Full House" in out


def test_output_file(tmp_path, capsys):
    target = tmp_path / "out.json"
    rc, out, _ = run(capsys, "hand", "AS 2S 3S 4S 5S", "-f", "json", "-o", str(target))
    assert rc == 0 and out == "" and json.loads(target.read_text(encoding="utf-8"))["rank"] == 9


# --- bad input: one line on stderr, exit 2, no traceback ---------------------------


def test_unknown_card_token_named_with_position(capsys):
    assert_user_error(*run(capsys, "hand", "AS KH XZ 3C 4D"), "'XZ'", "card 3")


def test_fewer_than_five_cards(capsys):
    assert_user_error(*run(capsys, "hand", "AS KH 3C 4D"), "4 cards", "at least 5")


def test_more_than_fifteen_cards(capsys):
    assert_user_error(*run(capsys, "hand", " ".join(["AS"] * 16)), "16 cards", "at most 15")


def test_three_jokers(capsys):
    assert_user_error(*run(capsys, "hand", "AS KH Joker JK joker"), "3 jokers")


def test_empty_input_file(tmp_path, capsys):
    f = tmp_path / "empty.txt"
    f.write_text("\n# nothing here\n\n", encoding="utf-8")
    assert_user_error(*run(capsys, "hand", "--input", str(f)), "holds no hands")


def test_missing_input_file(tmp_path, capsys):
    assert_user_error(*run(capsys, "hand", "--input", str(tmp_path / "nope.txt")), "does not exist")


def test_bad_line_in_ten_thousand_line_file(tmp_path, capsys):
    rng = random.Random(5)
    values = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    lines = [" ".join(rng.choice(values) + rng.choice("SHDC") for _ in range(rng.randint(5, 9))) for _ in range(10_000)]
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc, out, _ = run(capsys, "hand", "--input", str(f), "-f", "csv")
    assert rc == 0 and out.count("\n") == 10_001
    for bad_line, bad_text, needle in (
        (7_321, "AS KH QQ 3C 4D", "'QQ'"),
        (9_999, "AS KH 3C 4D", "4 cards"),
        (2, "AS KH JK JK Joker 4D", "3 jokers"),
    ):
        broken = list(lines)
        broken[bad_line - 1] = bad_text
        f.write_text("\n".join(broken) + "\n", encoding="utf-8")
        assert_user_error(*run(capsys, "hand", "--input", str(f)), f"line {bad_line}", needle)


def test_bad_format(capsys):
    assert_user_error(*run(capsys, "hand", "AS 2S 3S 4S 5S", "--format", "xml"), "xml")


def test_hand_and_input_together(tmp_path, capsys):
    f = tmp_path / "h.txt"
    f.write_text("AS 2S 3S 4S 5S\n", encoding="utf-8")
    assert_user_error(*run(capsys, "hand", "AS 2S 3S 4S 5S", "--input", str(f)), "not both")


def test_no_hand_given(capsys):
    assert_user_error(*run(capsys, "hand"), "give a hand")


def test_failed_output_leaves_no_file(tmp_path, capsys):
    target = tmp_path / "out.csv"
    assert_user_error(*run(capsys, "hand", "AS KH XZ 3C 4D", "-o", str(target)), "'XZ'")
    assert not target.exists()
