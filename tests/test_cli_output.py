"""Output that says what each figure is: labelled round results, "± n/a" instead of a zero
standard error, pull's jokers-wild note, Trigger-Happy as two Shoot Actions in one Activation,
shots fired apart from probabilities, and text tables folded to the terminal width."""
from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from oddsmith.output import Format, format_frame, label_columns, plus_minus, stderr_note
from cli_run import run


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch):
    """Text output depends on the terminal width: fix it (tests may set another)."""
    monkeypatch.setenv("COLUMNS", "100")


def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


# --- standard errors ---------------------------------------------------------------------------

def test_plus_minus_never_prints_a_zero_standard_error():
    assert plus_minus(0.5, 0.0123456, 4) == "0.5000 ± 0.0123"
    assert plus_minus(0.0, 0.0, 6) == "0.000000 ± n/a"
    assert plus_minus(1.0, 1e-15, 6) == "1.000000 ± n/a"  # rounding noise of an exact 1
    assert plus_minus(0.3, float("nan"), 4) == "0.3000 ± n/a"
    tiny = plus_minus(0.25, 4e-8, 6)
    assert "0.000000" not in tiny.split("±")[1] and tiny.endswith("4e-08")


def test_stderr_note_only_when_needed():
    assert stderr_note("0.5 ± 0.01", 1000) == ""
    one = stderr_note("1.0 ± n/a", 1)
    assert "one trial" in one
    many = " ".join(stderr_note("0.0 ± n/a", 20_000).split())
    assert "20,000 trials" in many and "0.00015" in many


@pytest.mark.parametrize("args", [
    ("shootout", "law-dogs", "--trials", "1", "--seed", "3"),
    ("shootout", "law-dogs", "--vs", "outlaws", "--trials", "1", "--seed", "3"),
    ("lowball", "law-dogs", "--simulate", "--trials", "1", "--seed", "3"),
    ("lowball", "law-dogs", "--vs", "outlaws", "--trials", "1", "--seed", "3"),
    ("shadows", "test", "--mc", "--trials", "1", "--seed", "3"),
    ("shadows", "shoot", "--shooter", "Hero", "--target", "Novice", "--weapon", "Sixgun", "--mc",
     "--trials", "1", "--seed", "3"),
])
def test_one_trial_does_not_look_certain(capsys, args):
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    assert not re.search(r"± 0\.0+\b(?!\d)", out), out
    assert "± n/a" in out and "one trial" in out


def test_simulated_zero_gets_n_a_and_its_bound(capsys):
    """A probability seen in no trial shows the top of its exact 95% interval (Clopper-Pearson:
    1 - 0.025^(1/n) for none in n), with the note that says so."""
    rc, out, _ = run(capsys, "shootout", "law-dogs", "--vs", "outlaws", "--trials", "2000", "--seed", "1",
                     "--full-table")
    assert rc == 0
    assert "Dead Man's Hand  < 0.0019 (95%)" in out and 1 - 0.025 ** (1 / 2000) < 0.0019
    assert "seen in none of the 2,000 trials" in " ".join(out.split()) and "± n/a" not in out


def test_exact_tradeoff_cells_show_no_standard_error(capsys):
    rc, out, _ = run(capsys, "tradeoff", "law-dogs", "--studs", "0", "--draws", "0-1", "--trials", "2000",
                     "--seed", "1", "--full-table")
    assert rc == 0
    assert "± n/a" not in out  # stud 0 draw 0 is exact; stud 0 draw 1 simulated with real errors
    assert re.search(r"\d\.\d{4} ± 0\.\d{3}[1-9]", out)


# --- labels ------------------------------------------------------------------------------------

def test_round_result_is_a_labelled_table(capsys):
    rc, out, _ = run(capsys, "shootout", "law-dogs", "--vs", "outlaws", "--trials", "5000", "--seed", "2")
    assert rc == 0
    block = out.split("Result of the round\n", 1)[1].split("\n\n", 1)[0]
    rows = block.splitlines()[2:6]  # the note under the table follows
    assert [r.split("  ")[0] for r in rows] == ["A wins (A's kept hand higher)", "B wins (B's kept hand higher)",
                                               "identical hands (no winner)",
                                               "equal ranks (1 casualty each)"]
    assert all("±" in r or "(95%)" in r for r in rows)
    assert "they are the tie-breaks won (counted in A wins and B wins) plus the identical hands" in " ".join(out.split())
    assert "identical hands 0." not in out  # the old unlabelled run-on line
    # what the equal-ranks row counts: the identical hands and the tie-breaks won inside A wins / B wins
    rc, js, _ = run(capsys, "shootout", "law-dogs", "--vs", "outlaws", "--trials", "5000", "--seed", "2",
                    "--format", "json")
    j = json.loads(js)
    assert j["p_tie"] <= j["p_equal_ranks"] <= j["p_tie"] + j["p_win"] + j["p_lose"]
    assert j["p_equal_ranks"] > 10 * j["p_tie"]  # most equal ranks are tie-breaks won, not identical hands


def test_round_json_keeps_its_fields(capsys):
    rc, out, _ = run(capsys, "shootout", "law-dogs", "--vs", "outlaws", "--trials", "2000", "--seed", "2",
                     "--format", "json")
    d = json.loads(out)
    for key in ("p_win", "p_lose", "p_tie", "p_equal_ranks", "p_win_stderr", "p_tie_stderr", "casualties",
                "distribution", "trials", "exact"):
        assert key in d


def test_pull_value_table_says_why_p_exactly_sums_above_one(capsys):
    rc, out, _ = run(capsys, "pull", "law-dogs")
    assert rc == 0
    total = re.search(r"sums to (\d\.\d{4}), not 1", " ".join(out.split()))
    assert total and float(total.group(1)) > 1
    rc, js, _ = run(capsys, "pull", "law-dogs", "--format", "json")
    d = json.loads(js)
    assert d["jokers"] == 2
    assert float(total.group(1)) == pytest.approx(sum(r["p_exactly"] for r in d["rows"]), abs=1e-4)
    rc, csv, _ = run(capsys, "pull", "law-dogs", "--format", "csv")
    assert "sums to" not in csv and csv.splitlines()[0].startswith("value,label,cards_of_value")


def test_posse_roster_shows_modifiers_as_modifiers(capsys):
    rc, out, _ = run(capsys, "shadows", "posse", "--view", "roster")
    assert rc == 0
    assert "shooting_dice_mod" in out and "shoot_dice" not in out
    assert re.search(r"Marshal Ezra Cole .*\+1", out)
    rc, js, _ = run(capsys, "shadows", "posse", "--view", "roster", "--format", "json")
    assert "shoot_dice" in json.loads(js)["roster"][0]  # JSON keeps its field names


def _section(out: str, start: str) -> str:
    return out.split(start, 1)[1]


def test_trigger_happy_is_two_shoot_actions_in_one_activation(capsys):
    rc, out, _ = run(capsys, "shadows", "shoot", "--shooter", "Hero", "--target", "Veteran",
                     "--skill", "Trigger-Happy")
    assert rc == 0
    flat = " ".join(out.split())
    assert "Whole Activation: 2 Shoot Actions with the same Weapon (Trigger-Happy; Action 1: Pistol; " \
           "Action 2: Pistol)" in flat
    assert "Whole Action" not in flat and "Shots fired in the Activation" in flat
    rc, js, _ = run(capsys, "shadows", "shoot", "--shooter", "Hero", "--target", "Veteran",
                    "--skill", "Trigger-Happy", "--weapon", "Sixgun", "--format", "json")
    d = json.loads(js)
    assert d["shoot_actions"] == 2 and d["action_scope"] == "activation"
    assert d["action_weapons"] == ["Sixgun"] * 4 and "shots_fired" in d["action"]


def test_a_sixgun_without_trigger_happy_is_one_action(capsys):
    rc, out, _ = run(capsys, "shadows", "shoot", "--shooter", "Hero", "--target", "Veteran", "--weapon", "Sixgun")
    flat = " ".join(out.split())
    assert "Whole Shoot Action: Sixgun then Sixgun" in flat and "Activation" not in flat
    rc, js, _ = run(capsys, "shadows", "shoot", "--shooter", "Hero", "--target", "Veteran", "--weapon", "Sixgun",
                    "--format", "json")
    d = json.loads(js)
    assert d["shoot_actions"] == 1 and d["action_scope"] == "action"


@pytest.mark.parametrize("mc", [False, True])
def test_shots_fired_is_not_under_the_probability_column(capsys, mc):
    extra = ["--mc", "--trials", "20000", "--seed", "4"] if mc else []
    rc, out, _ = run(capsys, "shadows", "shoot", "--shooter", "Hero", "--target", "Veteran", "--weapon", "Sixgun",
                     *extra)
    table = _section(out, "Whole Shoot Action").split("\n\n", 1)[0]
    assert "shots_fired" not in table
    m = re.search(r"Shots fired in the Action: (\d\.\d{4})", out)
    assert m and 1 < float(m.group(1)) < 2
    assert ("±" in out.split("Shots fired", 1)[1].split("\n")[0]) is mc
    rc, csv, _ = run(capsys, "shadows", "shoot", "--shooter", "Hero", "--target", "Veteran", "--weapon", "Sixgun",
                     "--format", "csv", *extra)
    assert "shots_fired," in csv  # CSV unchanged


# --- folding -----------------------------------------------------------------------------------

def _wide_frame() -> pd.DataFrame:
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"model": ["Marshal Ezra Cole", "Jed Tolliver", "Billy Crane"],
                       "rank": ["Hero", "Novice", "Novice"], "dice": [3, 4, 5]})
    for i in range(14):
        df[f"probability_column_{i}"] = rng.random(3)
    return df


@pytest.mark.parametrize("width", [60, 80, 100])
def test_wide_tables_fold_into_blocks_that_fit(width):
    df = _wide_frame()
    text = format_frame(df, Format.table, width=width, title="A wide table")
    assert _widest(text) <= width
    blocks = text.split("A wide table\n", 1)[1].split("\n\n")
    assert len(blocks) > 1
    for block in blocks:  # every block repeats the labels that name a row
        lines = block.splitlines()
        assert lines[0].split()[:3] == ["model", "rank", "dice"]
        assert [ln.split("  ")[0] for ln in lines[2:]] == list(df["model"])
    shown = [h for b in blocks for h in b.splitlines()[0].split()]
    for col in df.columns[3:]:  # every figure column once, in order
        assert shown.count(col) == 1
    for i, col in enumerate(df.columns[3:]):
        assert f"{df[col].iloc[0]:.4f}" in text


def test_narrow_tables_and_other_formats_do_not_fold():
    df = _wide_frame()
    small = df.iloc[:, :4]
    assert "\n\n" not in format_frame(small, Format.table, width=100)
    assert format_frame(df, Format.table, width=10_000).count("model") == 1
    for fmt in (Format.csv, Format.md):
        assert format_frame(df, fmt, width=60).count("model") == 1
    assert format_frame(df, Format.csv) == df.to_csv(index=False, lineterminator="\n")


# Long posse names make long headings: they wrap like every other note, at any width.
SHADOWS_BATTLES = [
    ("shadows", "battle", "twilight-order", "--vs", "dark-confederacy", "--movement", "none", "--cover",
     "--trials", "1000", "--seed", "1"),
    ("shadows", "value", "twilight-order", "--vs", "dark-confederacy", "--movement", "none", "--vs-cover",
     "--trials", "100", "--seed", "1"),
]


def _blocks(text: str) -> list[list[str]]:
    """The blocks of a folded table: lists of lines (header, rule, rows)."""
    return [b.splitlines() for b in text.strip("\n").split("\n\n")]


def test_label_columns_are_the_columns_before_the_first_figure_or_the_declared_ones():
    df = _wide_frame()
    assert label_columns(df) == ["model", "rank", "dice"]
    df["flag"] = [True, False, True]
    assert label_columns(df[["model", "flag", "probability_column_0", "dice"]]) == ["model", "flag"]
    assert label_columns(df[["model", "rank", "flag"]]) == ["model"]  # no figures: the first column
    assert label_columns(df, ["model"]) == ["model"]
    with pytest.raises(ValueError, match="nope"):
        label_columns(df, ["nope"])
    text = format_frame(df, Format.table, width=80, keys=["model", "rank"])
    for block in _blocks(text):
        assert block[0].split()[:2] == ["model", "rank"]
    assert sum(block[0].split().count("dice") for block in _blocks(text)) == 1  # shown once, as a figure


@pytest.mark.parametrize("width", ["80", "100"])
def test_posse_fight_blocks_repeat_every_column_that_tells_rows_apart(capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", width)
    rc, out, _ = run(capsys, "shadows", "posse", "--faction", "twilight", "--view", "fight")
    assert rc == 0
    table = out.split("other columns: probabilities\n", 1)[1]
    blocks = _blocks(table)
    assert len(blocks) > 1
    keys = ["model", "rank", "form", "defender", "charging"]
    for block in blocks:
        assert block[0].split()[:5] == keys
        spans = [m.span() for m in re.finditer(r"-+", block[1])][:5]
        labels = {tuple(ln[a:b].strip() for a, b in spans) for ln in block[2:]}
        assert len(labels) == len(block) - 2 == 42  # no two rows look alike
    assert all(b[0].split().count("attacker_dice") == 0 for b in blocks[1:])  # dice counts are figures


def test_hand_blocks_repeat_the_hand_and_nothing_else(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "100")
    hands = tmp_path / "hands.txt"
    hands.write_text("AS AC 8S 8C JD\n6D 6C 6S 6S QD KD 2H\n")
    for args in (["AS", "AC", "8S", "8C", "JD"], ["6D", "6C", "6S", "6S", "QD", "KD", "2H"], ["--input", str(hands)]):
        rc, out, _ = run(capsys, "hand", *args)
        blocks = _blocks(out)
        assert len(blocks) == 2
        assert blocks[1][0].split()[0] == "cards" and "cheatin" not in blocks[1][0] and "hand" not in blocks[1][0].split()
        shown = [h for b in blocks for h in b[0].split()]
        assert shown.count("cheatin") == 1 and shown.count("cards") == 2


@pytest.mark.parametrize("args", [
    ("shadows", "posse"),
    ("shadows", "posse", "--view", "fight"),
    ("shootout", "law-dogs", "--vs", "outlaws", "--trials", "2000", "--seed", "1"),
    ("tradeoff", "law-dogs", "--studs", "0-1", "--draws", "0-1", "--trials", "2000", "--seed", "1"),
    ("lowball", "law-dogs", "--players", "4", "--trials", "2000", "--seed", "1"),
    ("lowball", "law-dogs", "--vs", "outlaws", "--trials", "2000", "--seed", "1"),
    ("pull", "law-dogs"),
    ("shadows", "shoot", "--shooter", "Hero", "--target", "Veteran", "--skill", "Trigger-Happy", "--mc",
     "--trials", "2000", "--seed", "1"),
    *SHADOWS_BATTLES,
])
def test_commands_fit_a_100_column_terminal(capsys, monkeypatch, args):
    monkeypatch.setenv("COLUMNS", "100")
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    assert _widest(out) <= 100, max(out.splitlines(), key=len)


@pytest.mark.parametrize("args", SHADOWS_BATTLES, ids=lambda a: a[1])
def test_shadows_battles_fit_an_80_column_terminal(capsys, monkeypatch, args):
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    assert _widest(out) <= 80, max(out.splitlines(), key=len)
    assert out.startswith(("Battle: A The Order of the Silver Nail", "Value per $: A The Order of the Silver Nail"))
    assert "\n  " in out.split("\n\n", 1)[0]  # the heading wrapped, its continuation indented


# --- key/value facts ---------------------------------------------------------------------------

def test_fact_lines_wrap_under_their_value_column(monkeypatch):
    from oddsmith.output import fact_lines
    monkeypatch.setenv("COLUMNS", "60")
    text = fact_lines([("deck", "Law Dogs"), ("deck used", "after set-up (starting gang in play: " + "; ".join(
        f"Dude Number-{i}" for i in range(8)) + "), 49 cards")])
    lines = text.splitlines()
    assert lines[0] == "deck       Law Dogs" and lines[1].startswith("deck used  after set-up")
    assert len(lines) > 3 and all(len(x) <= 60 for x in lines)
    assert all(x.startswith(" " * 11) and x[11] != " " for x in lines[2:])
    assert "Number-7)," in text.split()  # hyphenated names stay whole


@pytest.mark.parametrize("width", [80, 100])
def test_deck_show_fits_the_terminal(capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    rc, out, _ = run(capsys, "deck", "show", "law-dogs")
    assert rc == 0
    assert _widest(out) <= width, max(out.splitlines(), key=len)
    head = out.split("\n\n", 1)[0]
    used = head.split("deck used", 1)[1].split("\noutfit", 1)[0]
    assert " ".join(used.split()) == ('after set-up (starting gang in play: Philip Swinford; Rob Wilby; Tommy Harden; '
                                      '"Thunder Boy" Nabbe; Hattie DeLorre), 49 cards')


# --- which deck was used -----------------------------------------------------------------------

def test_deck_state_lines_list_each_deck_once_by_what_it_is():
    from oddsmith.commands._common import deck_state_lines
    from oddsmith.doomtown.deck import load_deck
    a, again = load_deck("balanced"), load_deck("balanced")  # two objects, the same deck
    assert a is not again
    assert deck_state_lines([a, again]).count("Deck used:") == 1
    fewer = load_deck("balanced", without=["8H"])
    assert deck_state_lines([a, fewer, again]).count("Deck used:") == 2  # other cards: another deck
    full, set_up = load_deck("law-dogs", with_gang=True), load_deck("law-dogs")
    assert deck_state_lines([full, set_up]).count("Deck used:") == 2  # another state


def test_tradeoff_against_itself_says_deck_used_once_after_a_blank_line(capsys):
    rc, out, _ = run(capsys, "tradeoff", "balanced", "--vs", "balanced", "--studs", "0", "--draws", "0",
                     "--trials", "2000", "--seed", "1")
    assert rc == 0
    assert out.count("Deck used:") == 1
    assert "\n\nDeck used: balanced deck, 54 cards" in out


def test_tradeoff_blocks_repeat_deck_vs_stud_draw_and_explain_n_a(capsys, monkeypatch):
    """The default leads with the answer (lowball figures once per deck, then a stud x draw grid);
    --full-table adds every cell, its blocks repeating stud and draw, and explains the bounds."""
    monkeypatch.setenv("COLUMNS", "80")
    args = ("tradeoff", "balanced", "--studs", "1-2", "--draws", "1", "--trials", "2000", "--seed", "1")
    rc, out, _ = run(capsys, *args)
    assert rc == 0 and _widest(out) <= 80 and len(out.splitlines()) <= 24
    assert out.count("1.5674") == 1  # the deck's lowball mean rank, once
    rc, out, _ = run(capsys, *args, "--full-table")
    assert rc == 0 and _widest(out) <= 80
    table = out.split("every cell", 1)[1].split("\n", 2)[2].split("\n< x (95%)", 1)[0]
    blocks = _blocks(table)
    assert blocks and all(block[0].split()[:2] == ["stud", "draw"] for block in blocks)
    assert sum(b[0].split().count("exact") for b in blocks) == 1
    assert "< 0.0019 (95%)" in out and "seen in none of the 2,000 trials" in " ".join(out.split())
