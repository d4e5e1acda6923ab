"""--output never clobbers what it should not: regular files are replaced atomically and keep their
mode (and owner), symlinks are written through to their final target, character devices and FIFOs
are written into (never replaced), and a place that cannot be written is one line and exit 2 before
any work. Each case runs the real commands."""
from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from oddsmith import output
from oddsmith.errors import OddsmithError
from oddsmith.report import document, shadows_sheets
from cli_run import run

REPO = Path(__file__).resolve().parents[1]
# A quick exact command whose whole output is known: the Advance roll table.
COMMAND = ("shadows", "advance", "--format", "csv")


def expected_text(capsys) -> str:
    rc, out, _ = run(capsys, *COMMAND)
    assert rc == 0 and out.startswith("rank,die,exp,p_advance")
    return out


def write(capsys, target: os.PathLike | str) -> tuple[int, str]:
    rc, out, err = run(capsys, *COMMAND, "--output", target)
    assert out == ""
    return rc, err


def one_line_error(err: str, words: str) -> None:
    assert err.count("\n") == 1 and err.startswith("oddsmith: error: cannot write"), err
    assert words in err, err


@pytest.fixture
def own_tempdir(tmp_path, monkeypatch):
    """The folder where temporary files of streamed outputs go, to look for leftovers."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_new_file_gets_the_umask_mode_and_no_temporary_is_left(tmp_path, capsys):
    expected = expected_text(capsys)
    mask = os.umask(0o027)
    try:
        rc, err = write(capsys, tmp_path / "new.csv")
    finally:
        os.umask(mask)
    assert (rc, err) == (0, "")
    assert (tmp_path / "new.csv").read_text() == expected
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["new.csv"]


def test_replaced_file_keeps_its_mode(tmp_path, capsys):
    expected = expected_text(capsys)
    target = tmp_path / "secret.csv"
    target.write_text("old\n")
    target.chmod(0o600)
    assert write(capsys, target) == (0, "")
    assert target.read_text() == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.chmod(0o640)
    assert write(capsys, target) == (0, "")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["secret.csv"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_replaced_file_keeps_its_owner(tmp_path, capsys):
    target = tmp_path / "theirs.csv"
    target.write_text("old\n")
    os.chown(target, 4321, 4322)
    target.chmod(0o640)
    assert write(capsys, target) == (0, "")
    st = target.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (4321, 4322, 0o640)


def test_symlink_chain_is_written_through_to_its_final_target(tmp_path, capsys):
    expected = expected_text(capsys)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "real.csv"
    real.write_text("old\n")
    real.chmod(0o600)
    (tmp_path / "link1.csv").symlink_to(Path("elsewhere") / "real.csv")
    (tmp_path / "link2.csv").symlink_to("link1.csv")
    assert write(capsys, tmp_path / "link2.csv") == (0, "")
    assert os.readlink(tmp_path / "link2.csv") == "link1.csv"
    assert os.readlink(tmp_path / "link1.csv") == str(Path("elsewhere") / "real.csv")
    assert real.read_text() == expected and stat.S_IMODE(real.stat().st_mode) == 0o600
    # the temporary file went beside the real target, and nothing is left of it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "link1.csv", "link2.csv"]
    assert [p.name for p in elsewhere.iterdir()] == ["real.csv"]


def test_dangling_symlink_creates_its_target(tmp_path, capsys):
    expected = expected_text(capsys)
    link = tmp_path / "out.csv"
    link.symlink_to("sub/made.csv")
    rc, err = write(capsys, link)
    assert rc == 2
    one_line_error(err, f"folder {tmp_path / 'sub'} does not exist")
    assert not (tmp_path / "sub").exists() and link.is_symlink()
    (tmp_path / "sub").mkdir()
    assert write(capsys, link) == (0, "")
    assert link.is_symlink() and (tmp_path / "sub" / "made.csv").read_text() == expected


def test_symlink_loop_is_one_line(tmp_path, capsys):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    rc, err = write(capsys, tmp_path / "a")
    assert rc == 2
    one_line_error(err, "symbolic links")


def test_dev_null_stays_a_device(capsys, own_tempdir):
    before = os.stat("/dev/null")
    assert stat.S_ISCHR(before.st_mode)
    assert write(capsys, "/dev/null") == (0, "")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino
    assert list(own_tempdir.iterdir()) == []


def read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    def reader() -> None:
        with open(path, "rb") as f:
            into.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    return t


def test_fifo_reader_gets_the_whole_output(tmp_path, capsys, own_tempdir):
    expected = expected_text(capsys)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = read_fifo(fifo, got)
    assert write(capsys, fifo) == (0, "")
    reader.join(10)
    assert got == [expected.encode()]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe", "tmp"] and list(own_tempdir.iterdir()) == []


def test_pdf_document_through_a_fifo(tmp_path, own_tempdir):
    """The PDF writer needs to seek, which a FIFO cannot: it still arrives whole."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = read_fifo(fifo, got)
    doc = document.Document("advance", [shadows_sheets.advance_page()], seed=None)
    assert document.write_document(doc, fifo, fmt="pdf", dpi=30) == [fifo]
    reader.join(10)
    assert got[0].startswith(b"%PDF") and got[0].rstrip().endswith(b"%%EOF")
    assert stat.S_ISFIFO(fifo.stat().st_mode) and list(own_tempdir.iterdir()) == []


def test_dev_stdout_as_output():
    """`-o /dev/stdout` writes what the command prints without it (stdout a pipe here)."""
    cmd = [sys.executable, "-m", "oddsmith", *COMMAND]
    plain = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    through = subprocess.run(cmd + ["--output", "/dev/stdout"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert plain.returncode == through.returncode == 0
    assert through.stdout == plain.stdout and through.stderr == ""


def test_folder_and_socket_are_refused_before_any_work(tmp_path, capsys):
    rc, err = write(capsys, tmp_path)
    assert rc == 2
    one_line_error(err, "it is a folder")
    sock_path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        rc, err = write(capsys, sock_path)
    assert rc == 2
    one_line_error(err, "it is a socket")
    rc, err = write(capsys, tmp_path / "s" / "x.csv")
    assert rc == 2
    one_line_error(err, "not a folder")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_folder_and_read_only_file(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "x.csv").write_text("keep\n")
    (ro / "x.csv").chmod(0o444)
    rc, err = write(capsys, ro / "x.csv")
    assert rc == 2
    one_line_error(err, "read-only")
    ro.chmod(0o555)
    try:
        rc, err = write(capsys, ro / "y.csv")
        assert rc == 2
        one_line_error(err, "is not writable")
    finally:
        ro.chmod(0o755)
    assert (ro / "x.csv").read_text() == "keep\n"


@pytest.mark.parametrize("make", ["folder", "loop", "missing", "socket", "file-as-folder"])
def test_early_check_and_writer_agree(tmp_path, make):
    """check_output_path (before any work) and atomic_paths (when writing) refuse the same paths
    with the same line, and accept the same ones."""
    target = tmp_path / "t"
    keep = []
    if make == "folder":
        target.mkdir()
    elif make == "loop":
        target.symlink_to("t")
    elif make == "missing":
        target = tmp_path / "no" / "t"
    elif make == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(target))
        keep.append(sock)
    else:
        (tmp_path / "f").write_text("")
        target = tmp_path / "f" / "t"
    with pytest.raises(OddsmithError) as early:
        output.check_output_path(target)
    with pytest.raises(OddsmithError) as late:
        with output.atomic_paths([target]):
            raise AssertionError("not reached")
    assert str(early.value) == str(late.value)
    for sock in keep:
        sock.close()


def test_report_with_charts_follows_the_same_rules(tmp_path):
    """A Markdown report writes the page and one PNG per chart: the page through its symlink,
    an existing chart keeping its mode."""
    doc = document.Document("advance", [shadows_sheets.advance_page()], seed=None)
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "real.md").write_text("old\n")
    (out / "r.md").symlink_to(tmp_path / "real.md")
    chart = out / "r-chart-01.png"
    chart.write_bytes(b"old")
    chart.chmod(0o600)
    written = document.write_document(doc, out / "r.md", dpi=30)
    assert written[0] == out / "r.md" and written[1] == chart
    assert (out / "r.md").is_symlink() and (tmp_path / "real.md").read_text().startswith("# ")
    assert chart.read_bytes().startswith(b"\x89PNG") and stat.S_IMODE(chart.stat().st_mode) == 0o600
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written)


def test_several_file_reports_refuse_a_device_before_any_work(capsys):
    for fmt in ("md", "html", "png", "svg"):
        rc, out, err = run(capsys, "report", "shadows", "--format", fmt, "--output", "/dev/null")
        assert rc == 2 and out == ""
        one_line_error(err, "several files")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [n for n in os.listdir("/dev") if n.startswith("null-")]


def test_failure_while_writing_leaves_target_and_symlink_untouched(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("keep\n")
    real.chmod(0o600)
    (tmp_path / "link.txt").symlink_to("real.txt")
    with pytest.raises(RuntimeError):
        with output.atomic_path(tmp_path / "link.txt") as tmp:
            tmp.write_text("half")
            raise RuntimeError("disk full")
    assert real.read_text() == "keep\n" and stat.S_IMODE(real.stat().st_mode) == 0o600
    assert (tmp_path / "link.txt").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


@pytest.mark.parametrize("args", [
    ("shadows", "test", "--mc", "--trials", "1000"),
    ("shadows", "shoot", "--mc", "--shooter", "novice", "--trials", "1000"),
    ("lowball", "law-dogs", "--trials", "1000"),
    ("shootout", "law-dogs", "--trials", "1000"),
    ("hand", "AS AC 8S 8C JD"),
    ("report", "deck", "law-dogs", "--trials", "1000"),
])
def test_bad_output_fails_before_any_simulation(tmp_path, monkeypatch, capsys, args):
    from oddsmith.doomtown import lowball, shootout
    from oddsmith.shadows import engine

    def no_work(*a, **k):
        raise AssertionError("simulated before checking --output")

    for module in (engine, lowball, shootout):
        for name in ("run_chunks", "sum_chunks"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, no_work)
    rc, out, err = run(capsys, *args, "--output", tmp_path)
    assert rc == 2 and out == ""
    one_line_error(err, "it is a folder")
