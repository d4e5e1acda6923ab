"""`oddsmith sweep` and the executor: the same bytes with 1 process, 2 processes and a real Dask
LocalCluster; figures against the one-deck analyses; resuming from the journal; bad input."""
from __future__ import annotations

import json
import math
import sys

import numpy as np
import pandas as pd
import pytest

from cli_run import run
from oddsmith import sweep as W
from oddsmith.doomtown import tune as T
from oddsmith.doomtown.deck import load_deck
from oddsmith.doomtown.lowball import gamblin_odds
from oddsmith.doomtown.shootout import shootout_odds
from oddsmith.errors import OddsmithError
from oddsmith.executor import DASK_HINT, InlineExecutor, ProcessExecutor, make_executor

GRID = W.SweepGrid(studs=(0, 1), draws=(0, 1), trials=3_000)
NAMES = ("law-dogs", "stack-16-16-16", "outlaws")


@pytest.fixture(scope="module")
def decks():
    return [W.sweep_deck(load_deck(n), source=n) for n in NAMES]


@pytest.fixture(scope="module")
def opponent():
    return W.sweep_deck(load_deck("outlaws"), source="outlaws")


@pytest.fixture(scope="module")
def inline_table(decks, opponent):
    return W.sweep(decks, opponent, GRID, seed=9)


def _csv(df: pd.DataFrame) -> bytes:
    return df.to_csv(index=False, lineterminator="\n", float_format="%.17g").encode()


def test_one_row_per_deck_and_question_with_version_seed_trials(inline_table):
    df = inline_table
    assert len(df) == len(NAMES) * (1 + 4)
    assert list(df.columns) == list(W.SWEEP_COLUMNS)
    assert (df["seed"] == 9).all() and df["version"].notna().all()
    assert set(df.loc[~df["exact"], "trials"]) == {3_000} and set(df.loc[df["exact"], "trials"]) == {0}


def test_figures_agree_with_the_one_deck_analyses(inline_table):
    df = inline_table
    deck, opp = load_deck("law-dogs"), load_deck("outlaws")
    rows = df[df["source"] == "law-dogs"].set_index(["question", "stud", "draw"])
    assert rows.loc[("gamblin", 0, 0), "p"] == gamblin_odds(deck, opp).p_win
    exact = shootout_odds(deck, 1, 0)
    assert rows.loc[("shootout", 1, 0), "p"] == pytest.approx(exact.p_at_least(7), abs=1e-15)
    assert rows.loc[("shootout", 1, 0), "mean_rank"] == pytest.approx(exact.mean_rank, abs=1e-12)
    direct = shootout_odds(deck, 1, 1, trials=100_000, seed=4)
    r = rows.loc[("shootout", 1, 1)]
    assert abs(r["p"] - direct.p_at_least(7)) < 5 * math.hypot(r["p_stderr"], direct.p_at_least_stderr(7))
    assert abs(r["mean_rank"] - direct.mean_rank) < 5 * math.hypot(r["mean_rank_stderr"], direct.mean_rank_stderr)


def test_rows_do_not_depend_on_the_order_of_the_decks(decks, opponent, inline_table):
    again = W.sweep(decks[::-1], opponent, GRID, seed=9)
    key = ["source", "question", "stud", "draw"]
    a = inline_table.sort_values(key).reset_index(drop=True)
    b = again.sort_values(key).reset_index(drop=True)
    assert _csv(a) == _csv(b)


def test_two_processes_give_the_same_bytes(decks, opponent, inline_table):
    with ProcessExecutor(2) as ex:
        df = W.sweep(decks, opponent, GRID, seed=9, executor=ex)
    assert _csv(df) == _csv(inline_table)


@pytest.mark.slow
def test_a_real_dask_local_cluster_gives_the_same_bytes(decks, opponent, inline_table, tmp_path):
    pytest.importorskip("distributed")
    with make_executor(2, "local") as ex:
        assert "LocalCluster" in ex.describe()
        df = W.sweep(decks, opponent, GRID, seed=9, executor=ex)
        tuned = T.tune("law-dogs", "outlaws", question=T.TuneQuestion(draw=1, trials=2_000),
                       search=T.TuneSearch(pool="Tusk", swaps=1), seed=3, executor=ex)
    assert _csv(df) == _csv(inline_table)
    local = T.tune("law-dogs", "outlaws", question=T.TuneQuestion(draw=1, trials=2_000),
                   search=T.TuneSearch(pool="Tusk", swaps=1), seed=3)
    assert _csv(tuned.swaps) == _csv(local.swaps)
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    W.write_table(df, a, "parquet")
    W.write_table(inline_table, b, "parquet")
    assert a.read_bytes() == b.read_bytes()


def test_tune_is_the_same_on_two_processes():
    kw = dict(question=T.TuneQuestion(draw=1, trials=3_000), search=T.TuneSearch(pool="Tusk; Flame-Thrower", swaps=2),
              seed=5)
    local = T.tune("law-dogs", "outlaws", **kw)
    with ProcessExecutor(2) as ex:
        other = T.tune("law-dogs", "outlaws", executor=ex, **kw)
    assert _csv(local.swaps) == _csv(other.swaps)
    assert json.dumps(local.to_json()["sequences"]) == json.dumps(other.to_json()["sequences"])


# ---------------------------------------------------------------- resuming


class _StopAfter(InlineExecutor):
    """Runs ``n`` map calls, then is interrupted (what Ctrl-C does to a long sweep)."""

    def __init__(self, n: int) -> None:
        self.left, self.calls = n, 0

    def map(self, fn, tasks):
        self.calls += 1
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().map(fn, tasks)


def test_an_interrupted_sweep_resumes_from_its_journal(tmp_path, opponent):
    decks = [W.sweep_deck(load_deck(n), source=n) for n in ("law-dogs", "outlaws", "balanced", "anarchists",
                                                             "stack-16-16-16", "fearmongers")]
    journal = tmp_path / "t.csv.journal"
    with pytest.raises(KeyboardInterrupt):
        W.sweep(decks, opponent, GRID, seed=2, executor=_StopAfter(2), journal=journal)  # the first batch only
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + W.DECKS_PER_BATCH
    # a half-written last line (the run stopped while writing it) is not counted as done
    journal.write_text("\n".join(lines) + '\n{"deck_index": 4, "ro')
    ex = _StopAfter(99)
    resumed = W.sweep(decks, opponent, GRID, seed=2, executor=ex, journal=journal)
    assert ex.calls == 2  # one batch left: the exact tasks and the simulated ones
    whole = W.sweep(decks, opponent, GRID, seed=2)
    assert _csv(resumed) == _csv(whole)


def test_a_corrupted_or_foreign_journal_is_one_line_exit_2(capsys, tmp_path):
    out = tmp_path / "t.csv"
    journal = tmp_path / "t.csv.journal"
    args = ("sweep", "law-dogs", "--vs", "outlaws", "-w", "1", "-t", "2000", "--seed", "1", "-o", out)
    journal.write_text('{"oddsmith_sweep": 1, "version": "0.1.0"\nnot json\n')
    rc, _, err = run(capsys, *args)
    assert rc == 2 and "corrupted" in err and err.count("\n") == 1 and not out.exists()
    journal.write_bytes(b"\xff\xfe\x00garbage\n")
    rc, _, err = run(capsys, *args)
    assert rc == 2 and "journal" in err and err.count("\n") == 1 and not out.exists()
    journal.unlink()
    rc, _, err = run(capsys, *args[:-6], "-t", "2000", "--seed", "2", "-o", out)  # a finished run leaves no journal
    assert rc == 0 and out.exists() and not journal.exists()
    with pytest.raises(OddsmithError, match="another sweep"):
        d = [W.sweep_deck(load_deck("law-dogs"))]
        opp = W.sweep_deck(load_deck("outlaws"))
        W.sweep(d, opp, GRID, seed=1, journal=journal)
        W.sweep(d, opp, GRID, seed=2, journal=journal)


# ---------------------------------------------------------------- the CLI and its bad input


def test_cli_writes_csv_and_parquet_with_the_same_rows(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    csv, pq = tmp_path / "s.csv", tmp_path / "s.parquet"
    base = ("sweep", "law-dogs", "outlaws", "--vs", "outlaws", "--studs", "0", "--draws", "0-1", "-t", "2000",
            "--seed", "3", "-w", "1")
    assert run(capsys, *base, "-o", csv)[0] == 0
    assert run(capsys, *base, "-o", pq)[0] == 0
    a, b = pd.read_csv(csv), pd.read_parquet(pq)
    assert len(a) == len(b) == 2 * 3
    assert np.allclose(a["p"], b["p"], rtol=0, atol=1e-15)


def test_cli_sweeps_a_folder_and_tune_candidates(capsys, tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    for n in ("law-dogs", "outlaws"):
        (folder / f"{n}.txt").write_text(
            __import__("importlib.resources", fromlist=["files"]).files("oddsmith.data").joinpath(
                f"decks/{n}.txt").read_text(encoding="utf-8"), encoding="utf-8")
    rc, out, err = run(capsys, "sweep", folder, "--vs", "outlaws", "--studs", "0", "--draws", "0", "-f", "json",
                       "-w", "1", "--seed", "1")
    assert rc == 0, err
    assert {r["source"] for r in json.loads(out)["rows"]} == {str(folder / "law-dogs.txt"), str(folder / "outlaws.txt")}
    rc, out, err = run(capsys, "sweep", "law-dogs", "--vs", "outlaws", "--tune-candidates", "--pool", "Tusk",
                       "--studs", "0", "--draws", "0", "-f", "csv", "-w", "1", "--seed", "1")
    assert rc == 0, err
    df = pd.read_csv(__import__("io").StringIO(out))
    assert df["source"].str.contains("current deck").any() and df["source"].str.contains(r"\+Tusk").any()


@pytest.mark.parametrize("args, message", [
    (["--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
    (["--scheduler", "somewhere"], "tcp://HOST:PORT"),
    (["-f", "parquet"], "-o FILE.parquet"),
    (["-w", "0"], "--workers"),
    (["--studs", "0-12"], "--studs"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, message):
    rc, out, err = run(capsys, "sweep", "law-dogs", "--vs", "outlaws", "-t", "1000", *args)
    assert rc == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_without_dask_the_scheduler_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(OddsmithError) as err:
        make_executor(2, "local")
    assert str(err.value) == DASK_HINT and "oddsmith[dask]" in DASK_HINT
