"""The CLI frame: version, usage errors, atomic output."""
import pytest

from oddsmith import __version__
from oddsmith.cli import main
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, atomic_path, emit, format_frame
from oddsmith.sampling import SamplingPlan

import pandas as pd


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"oddsmith {__version__}"


def test_unknown_option_is_one_line_exit_2(capsys):
    assert main(["--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:")
    assert "--no-such-option" in err


def test_emit_to_missing_folder_fails_cleanly(tmp_path):
    with pytest.raises(OddsmithError, match="does not exist"):
        emit("x", tmp_path / "nope" / "out.txt")


def test_atomic_path_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []


def test_format_frame_all_formats():
    df = pd.DataFrame({"rank": [1, 2], "p": [0.25, 0.75]})
    assert "0.2500" in format_frame(df, Format.table)
    assert format_frame(df, "csv").splitlines()[0] == "rank,p"
    assert format_frame(df, "md").splitlines()[1] == "|---|---|"
    assert '"p": 0.75' in format_frame(df, "json")


def test_chunks_do_not_depend_on_trials_split():
    plan = SamplingPlan(seed=7, trials=150_000, chunk_trials=65_536)
    assert plan.chunk_sizes() == [65_536, 65_536, 18_928]
    a = [g.random_raw() for g in plan.bit_generators()]
    b = [g.random_raw() for g in plan.bit_generators()]
    assert a == b and len(set(a)) == 3


def test_written_files_get_the_umask_mode(tmp_path):
    import os

    mask = os.umask(0o022)
    try:
        emit("x", tmp_path / "out.txt")
    finally:
        os.umask(mask)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o644


def test_a_missing_kernel_says_how_to_build_it():
    from oddsmith import _ext

    assert _ext.load("hand_eval").__name__ == "oddsmith._ext.hand_eval"
    with pytest.raises(_ext.KernelsNotBuilt, match="no_such_kernel.*build_ext --inplace"):
        _ext.load("no_such_kernel")
