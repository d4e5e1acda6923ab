"""Issue 16, second round of trust and polish: the trial limit and flat memory, error text,
formats in any case, bonus ranges that name what was typed, output files, hands files,
walls of text and the uncertainty of every simulated figure."""
from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from oddsmith import sampling
from oddsmith.errors import OddsmithError, QUOTE_LIMIT, quote, shorten, shorten_quoted
from oddsmith.sampling import MAX_TRIALS, SamplingPlan, check_trials, run_chunks, sum_chunks
from cli_run import run

LONG = "Q" * 100


# ---------------------------------------------------------------- trials

@pytest.mark.parametrize("args", [
    ["lowball", "balanced", "--simulate"],
    ["lowball", "balanced", "--vs", "law-dogs", "--simulate"],
    ["tradeoff", "balanced"],
    ["shootout", "balanced", "--stud", "1"],
    ["shootout", "law-dogs", "--posse", "Allie Hensman; Ike Clanton", "--vs-posse", "Allie Hensman", "--full"],
    ["shootout", "law-dogs", "--posse", "Allie Hensman; Ike Clanton", "--vs-posse", "Allie Hensman", "--full",
     "--what-if"],
    ["shadows", "battle", "unaligned", "--vs", "twilight-order"],
    ["shadows", "value", "unaligned", "--vs", "twilight-order"],
    ["shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--weapon", "carbine", "--mc"],
])
@pytest.mark.parametrize("trials", [10 ** 30, 10 ** 15, MAX_TRIALS + 1])
def test_too_many_trials_is_one_line_that_says_the_limit(capsys, args, trials):
    rc, out, err = run(capsys, *args, "--trials", trials)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("oddsmith: error: --trials must be at most 100,000,000,000"), err


def test_the_limit_is_checked_in_every_plan():
    assert check_trials(MAX_TRIALS) == MAX_TRIALS
    with pytest.raises(OddsmithError, match="at most"):
        SamplingPlan(seed=1, trials=MAX_TRIALS + 1)
    with pytest.raises(OddsmithError, match="a 31-digit number"):
        check_trials(10 ** 30)
    plan = SamplingPlan(seed=1, trials=MAX_TRIALS)  # the largest run is planned at once
    assert plan.n_chunks == -(-MAX_TRIALS // plan.chunk_trials)


def test_sum_chunks_is_the_sum_of_the_chunks_in_order():
    def work(gen, n):
        g = np.random.Generator(gen)
        return np.array([n, int(g.integers(0, 1000))]), np.array([g.random()])

    plan = SamplingPlan(seed=11, trials=1000, chunk_trials=7)
    parts = run_chunks(work, plan, workers=3)
    counts, floats = sum_chunks(work, plan, workers=3)
    assert counts.tolist() == np.sum([p[0] for p in parts], axis=0).tolist() and counts[0] == 1000
    assert floats[0] == sum(float(p[1][0]) for p in parts)  # added in chunk order: bit for bit


def test_memory_is_flat_when_one_chunk_is_slow():
    """Threads never run more than a few chunks ahead of the fold, so a slow first chunk cannot
    make the results of all the others pile up (before: all 999 others finished and waited)."""
    release = threading.Event()
    finished: list[int] = []
    at_first_fold: list[int] = []

    plan = SamplingPlan(seed=1, trials=10_000, chunk_trials=10)
    first = plan.chunk_generator(0).state

    def work(gen, n):
        if gen.state == first:
            release.wait(5)
        finished.append(n)
        return n

    def fold(x):
        if not at_first_fold:
            at_first_fold.append(len(finished))

    timer = threading.Timer(0.5, release.set)
    timer.start()
    sampling.fold_chunks(work, plan, fold, workers=2)
    timer.cancel()
    assert len(finished) == 1000
    assert at_first_fold[0] <= 2 * sampling.AHEAD_PER_WORKER + 1


FIXED = [  # figures of a fixed seed, as printed before chunks were streamed
    (["lowball", "balanced", "--simulate", "-t", "200000", "--seed", "3", "-w", "2"], "mean_rank", 1.5717250000000003),
    (["shootout", "balanced", "-s", "1", "-d", "2", "-t", "150000", "--seed", "3"], "mean_rank", 3.3895666666666666),
]


@pytest.mark.parametrize("args,field,value", FIXED)
def test_a_seed_gives_the_figures_it_always_gave(capsys, args, field, value):
    rc, out, _ = run(capsys, *args, "-f", "json")
    assert rc == 0 and json.loads(out)[field] == value


# ---------------------------------------------------------------- error text

def test_a_long_item_is_quoted_once_and_shortened():
    assert quote("AX") == "'AX'"
    q = quote(LONG)
    assert q.count("'") == 2 and "…" in q and "(100 characters)" in q and len(q) < QUOTE_LIMIT + 30
    assert shorten("x" * QUOTE_LIMIT) == "x" * QUOTE_LIMIT
    assert shorten_quoted(f"bad {LONG!r}: dude's Gamblin' hand") == f"bad {q}: dude's Gamblin' hand"


@pytest.mark.parametrize("args", [
    ["hand", LONG], ["lowball", "balanced", "--without", LONG], ["pull", "balanced", "--suit", LONG],
    ["pull", "balanced", "--value", LONG], ["shootout", "balanced", "--policy", LONG],
    ["tradeoff", "balanced", "--studs", LONG], ["hand", "-f", LONG, "AS"],
    ["shootout", "balanced", "--discard", LONG],
])
def test_user_input_in_an_error_is_quoted_once_and_short(capsys, args):
    rc, _, err = run(capsys, *args)
    assert rc == 2 and err.count("\n") == 1
    assert LONG not in err and err.count("QQQQQQQQQQ…") == 1 and "(100 characters)" in err, err


def test_value_pull_of_one_item_does_not_quote_it_twice(capsys):
    rc, _, err = run(capsys, "pull", "balanced", "--value", "Z")
    assert rc == 2 and err.count("'Z'") == 1


# ---------------------------------------------------------------- flags

@pytest.mark.parametrize("fmt", ["JSON", "Json", "CSV", "MD", "Table"])
def test_formats_read_in_any_case(capsys, fmt):
    rc, out, err = run(capsys, "hand", "-f", fmt, "AS AC 8S 8C JD")
    assert rc == 0 and err == ""
    if fmt.lower() == "json":
        assert json.loads(out)["rank_name"] == "Dead Man's Hand"
    rc, out, _ = run(capsys, "shadows", "test", "--format", fmt)
    assert rc == 0


@pytest.mark.parametrize("typed", ["0-12", "12", "1,11", "99999999999999999999999"])
def test_a_bonus_past_the_limit_names_what_was_typed(capsys, typed):
    rc, _, err = run(capsys, "tradeoff", "balanced", "--studs", typed)
    assert rc == 2 and f"'{typed.split(',')[-1]}'" in err and "got 11" not in err, err


# ---------------------------------------------------------------- output files

import errno
import os
from pathlib import Path

from oddsmith import output
from oddsmith.output import NAME_MAX, atomic_paths, emit


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["hand", "AS AC 8S 8C JD"], ["lowball", "balanced"], ["shadows", "test"]])
def test_a_full_device_is_one_line_exit_2(capsys, args):
    rc, out, err = run(capsys, *args, "-o", "/dev/full")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("oddsmith: error: cannot write /dev/full: no space left on the device")


def test_a_full_disk_leaves_the_old_file_and_no_temporary_file(capsys, tmp_path, monkeypatch):
    target = tmp_path / "odds.txt"
    target.write_text("old\n")
    real_write = Path.write_text

    def full(self, *a, **k):
        if self.name.endswith(".part"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, *a, **k)

    monkeypatch.setattr(Path, "write_text", full)
    rc, out, err = run(capsys, "lowball", "balanced", "-o", target)
    assert rc == 2 and err.count("\n") == 1 and "no space left on the device; the old file is left as it was" in err
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["odds.txt"]


def test_other_errors_in_the_writer_are_not_hidden(tmp_path):
    with pytest.raises(OSError, match="boom"):
        with atomic_paths([tmp_path / "x"]):
            raise OSError(errno.EACCES, "boom")


def test_bytes_reach_the_disk_before_the_rename(tmp_path, monkeypatch):
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(output.os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(output.os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    emit("x\n", tmp_path / "a.txt")
    assert calls[:2] == ["fsync", "replace"] and (tmp_path / "a.txt").read_text() == "x\n"


@pytest.mark.parametrize("length", [240, 241, 250, 255])
def test_long_file_names_get_a_temporary_file_that_fits(capsys, tmp_path, length):
    target = tmp_path / ("n" * length)
    rc, _, err = run(capsys, "hand", "AS AC 8S 8C JD", "-o", target)
    assert rc == 0 and err == "" and target.read_text().startswith("cards")
    wide = tmp_path / ("é" * (NAME_MAX // 2))  # 254 bytes: the cut must not split a character
    rc, _, err = run(capsys, "hand", "AS AC 8S 8C JD", "-o", wide)
    assert rc == 0 and wide.exists()


def test_a_name_too_long_for_the_folder_is_refused_before_any_work(capsys, tmp_path):
    rc, out, err = run(capsys, "lowball", "balanced", "--simulate", "-t", "1000", "-o", tmp_path / ("n" * 300))
    assert rc == 2 and out == "" and err.count("\n") == 1 and "the file name is 300 bytes long, more than the 255" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["hand", "AS AC 8S 8C JD"], ["lowball", "balanced"], ["tradeoff", "balanced"],
                                  ["shadows", "test"], ["deck", "show", "balanced"]])
def test_an_empty_output_name_is_called_empty(capsys, args):
    rc, out, err = run(capsys, *args, "-o", "")
    assert rc == 2 and out == "" and err == "oddsmith: error: --output is empty: give a file name ('-' for stdout)\n"


# ---------------------------------------------------------------- hand --input

from oddsmith.commands import hand as hand_cmd


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_hand_input_from_dev_zero_stops_at_the_stated_bound(capsys):
    rc, out, err = run(capsys, "hand", "--input", "/dev/zero")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "more than 67,108,864 bytes; hand --input reads at most 64 MiB and 1,000,000 lines" in err


def test_hand_input_bounds_bytes_and_lines(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(hand_cmd, "MAX_INPUT_LINES", 10)
    monkeypatch.setattr(hand_cmd, "MAX_INPUT_BYTES", 1024)
    f = tmp_path / "hands.txt"
    f.write_text("AS AC 8S 8C JD\n" * 11)
    rc, _, err = run(capsys, "hand", "--input", f)
    assert rc == 2 and "11 lines; hand --input reads at most 0.000976562 MiB and 10 lines" in err
    f.write_text("AS AC 8S 8C JD\n" * 10)
    assert run(capsys, "hand", "--input", f)[0] == 0
    f.write_text("AS AC 8S 8C JD" + " " * 2000 + "\n")
    rc, _, err = run(capsys, "hand", "--input", f)
    assert rc == 2 and "more than 1,024 bytes" in err


def test_hand_input_shows_progress_on_a_large_file(capsys, tmp_path, monkeypatch):
    class Quick(output.Progress):
        def __init__(self, *a, **k):
            super().__init__(*a, **{**k, "delay": 0.0})

    monkeypatch.setenv("ODDSMITH_PROGRESS", "1")
    monkeypatch.setattr(hand_cmd, "Progress", Quick)
    monkeypatch.setattr(hand_cmd, "PROGRESS_STEP", 5)
    monkeypatch.setattr(Quick, "REDRAW_SECONDS", 0.0)
    f = tmp_path / "hands.txt"
    f.write_text("AS AC 8S 8C JD\n2C 3D 4H 6S Joker\n" * 20)
    rc, out, err = run(capsys, "hand", "--input", f, "-f", "csv")
    assert rc == 0 and out.count("\n") == 41
    assert "hands [" in err and "100.0%" in err and " 33.3%" in err  # reading is a third of the work


def test_many_hands_are_formatted_as_before(capsys, tmp_path):
    """The fast formatting (a table of card texts) writes what format_hand writes."""
    from oddsmith.doomtown.cards import format_hand, format_cards
    from oddsmith.doomtown.evaluator import evaluate_codes, hand_records, hands_frame

    rng = np.random.default_rng(4)
    hands = [sorted(rng.choice(53, size=int(rng.integers(5, 16)), replace=False).tolist()) for _ in range(300)]
    hands = [h if h.count(52) <= 2 else h[:-1] for h in hands]
    ev = evaluate_codes(hands)
    for ascii in (False, True):
        df = hands_frame(hands, ev, ascii=ascii)
        assert df["cards"].tolist() == [format_hand(h, ascii=ascii) for h in hands]
        assert df["best_five"].tolist() == [format_hand(f, ascii=ascii) for f in ev.five]
        recs = hand_records(hands, ev, ascii=ascii)
        assert [r["counts_as"] for r in recs] == [format_cards(f, ascii=ascii) for f in ev.ident]


# ---------------------------------------------------------------- walls of text

def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("width", [80, 100])
def test_tradeoff_leads_with_a_one_screen_answer(capsys, monkeypatch, width):
    """Before: 152 lines at 100 columns (259 at 80) for three decks, the lowball columns on every
    stud/draw row. Now each deck's lowball figures once and a stud x draw grid."""
    monkeypatch.setenv("COLUMNS", str(width))
    args = ("tradeoff", "law-dogs", "outlaws", "balanced", "--trials", "2000", "--seed", "1")
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    assert _widest(out) <= width and len(out.splitlines()) <= (35 if width == 100 else 60)
    assert out.count("3.3938") == 1  # Law Dogs' lowball mean rank: once, not on 16 rows
    assert "--full-table" in out
    rc, full, _ = run(capsys, *args, "--full-table")
    assert rc == 0 and _widest(full) <= width and len(full.splitlines()) > len(out.splitlines())
    assert "P(cheatin')" in full and "mean rank" in full


@pytest.mark.parametrize("args,hidden", [
    (("shootout", "law-dogs", "--vs", "outlaws", "--trials", "2000", "--seed", "1"), "Kept hand ranks"),
    (("lowball", "law-dogs", "--vs", "outlaws"), "Lowball hand ranks"),
])
def test_head_to_head_keeps_its_distributions_behind_full_table(capsys, monkeypatch, args, hidden):
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, _ = run(capsys, *args)
    assert rc == 0 and hidden not in out and "--full-table" in out and _widest(out) <= 80
    assert len(out.splitlines()) <= 40
    rc, full, _ = run(capsys, *args, "--full-table")
    assert rc == 0 and hidden in full
    rc, js, _ = run(capsys, *args, "--format", "json")
    assert rc == 0 and json.loads(js)  # JSON keeps every field whatever the view


# ---------------------------------------------------------------- errors on every figure

from oddsmith.output import clopper_pearson, human_label, plus_minus, stderr_note


@pytest.mark.parametrize("n", [2, 7, 100, 2000, 123_456])
def test_clopper_pearson_matches_its_closed_form_at_0_and_n(n):
    lo, hi = clopper_pearson(0, n)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / n), rel=1e-9)
    lo, hi = clopper_pearson(n, n)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / n), rel=1e-9)


def test_clopper_pearson_covers_the_truth_as_often_as_it_says():
    """The exact interval covers the true p in at least 95% of binomial draws (it is conservative)."""
    rng = np.random.default_rng(16)
    for p, n in ((0.02, 50), (0.3, 40), (0.001, 2000)):
        hits = 0
        for k in rng.binomial(n, p, size=400):
            lo, hi = clopper_pearson(int(k), n)
            hits += lo <= p <= hi
        assert hits >= 0.93 * 400


def test_a_probability_seen_as_0_or_1_shows_an_honest_bound():
    assert plus_minus(0.0, 0.0, 4, trials=2000, proportion=True) == "< 0.0019 (95%)"
    assert plus_minus(1.0, 0.0, 4, trials=2000, proportion=True) == "> 0.9981 (95%)"
    assert plus_minus(0.0, 0.0, 4, trials=2000) == "0.0000 ± n/a"  # a mean of 0 is no probability
    assert plus_minus(0.0, 0.0, 4, trials=1, proportion=True) == "0.0000 ± n/a"  # one trial says nothing
    for n in (3, 50, 2000, 10 ** 6):  # the bound shown is never inside the exact interval
        shown = float(plus_minus(0.0, 0.0, 4, trials=n, proportion=True).split()[1])
        assert shown >= clopper_pearson(0, n)[1]
        shown = float(plus_minus(1.0, 0.0, 4, trials=n, proportion=True).split()[1])
        assert shown <= clopper_pearson(n, n)[0]
    text = plus_minus(0.0, 0.0, 4, trials=500, proportion=True)
    assert "Clopper-Pearson" in stderr_note(text, 500) and "500 trials" in stderr_note(text, 500)


def test_full_shootout_bounds_probabilities_and_what_if_has_every_error(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    base = ("shootout", "law-dogs", "--posse", "Philip Swinford; Tommy Harden", "--vs", "outlaws",
            "--vs-posse", "Allie Hensman; Ike Clanton", "--full", "--trials", "300", "--seed", "1")
    rc, out, err = run(capsys, *base)
    assert rc == 0, err
    assert "P(A fled)                           < 0.013 (95%)" in out and "± 0.0000" not in out
    rc, out, err = run(capsys, *base, "--what-if")
    assert rc == 0, err
    assert "p_a_wins ± se" in out and "dudes_lost_a ± se" in out
    rc, js, _ = run(capsys, *base, "--what-if", "--format", "json")
    row = json.loads(js)["rows"][1]
    assert row["p_a_wins_stderr"] == pytest.approx((row["p_a_wins"] * (1 - row["p_a_wins"]) / 299) ** 0.5)
    assert row["dudes_lost_a_stderr"] > 0


def test_field_names_get_human_labels_in_one_mapping():
    assert human_label("p_event_per_turn") == "P(an event in a Turn)"
    assert human_label("p_win ± se") == "P(win) ± se"
    assert human_label("no_such_field") == "no_such_field"
