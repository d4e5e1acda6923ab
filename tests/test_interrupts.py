"""Ctrl-C at any moment: exit status 130, the one line "oddsmith: interrupted", no traceback, no
output file and no temporary file left. Long runs: progress with the time left, and one warning line
when a run is estimated to take more than a minute.

The subprocess tests run the real ``python -m oddsmith`` and send SIGINT at chosen moments: while
the modules load, when a long simulation has started, while a report is being built, and while its
files are being written (spotted by the temporary file appearing)."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from oddsmith import interrupts, output, sampling
from oddsmith.cli import main
from oddsmith.sampling import SamplingPlan, run_chunks

REPO = Path(__file__).resolve().parents[1]
HUGE = "100000000000"


def _default_sigint() -> None:
    # A shell running the tests in the background may have SIGINT ignored, and children inherit that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Oddsmith:
    """``python -m oddsmith ARGS`` in the repository, its stderr read line by line as it comes."""

    def __init__(self, *args: str, cwd: Path, tmpdir: Path, env: dict | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "oddsmith", *args], cwd=REPO, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
            env={**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmpdir), **(env or {})})
        self.err: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.err.append(line)

    def wait_for(self, seen, timeout: float = 300) -> None:
        end = time.monotonic() + timeout
        while not seen():
            assert self.proc.poll() is None, f"finished before the moment: {''.join(self.err)}"
            assert time.monotonic() < end, "the moment never came"
            time.sleep(0.01)

    def interrupt(self, times: int = 1) -> tuple[int, str]:
        for _ in range(times):  # Ctrl-C pressed again and again while the command stops
            self.proc.send_signal(signal.SIGINT)
            time.sleep(0.005)
        rc = self.proc.wait(120)
        self._reader.join(10)
        return rc, "".join(self.err)


def assert_interrupted(rc: int, err: str, *, lines_before: int = 0) -> None:
    assert rc == 130, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = err.splitlines()
    assert len(lines) == lines_before + 1 and lines[-1] == "oddsmith: interrupted", err


@pytest.fixture
def dirs(tmp_path):
    out, tmp = tmp_path / "out", tmp_path / "tmp"
    out.mkdir()
    tmp.mkdir()
    return out, tmp


def catches_sigterm(pid: int) -> bool:
    """oddsmith's own handlers are in place (Python alone never catches SIGTERM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_interrupt_while_the_modules_load(dirs):
    """Once python -m oddsmith runs (before numpy, pandas and the commands load); a SIGINT while
    Python itself starts, before any of oddsmith's code, is Python's own."""
    out, tmp = dirs
    p = Oddsmith("lowball", "law-dogs", "--output", str(out / "x.txt"), cwd=out, tmpdir=tmp)
    p.wait_for(lambda: catches_sigterm(p.proc.pid))
    time.sleep(0.05)
    assert_interrupted(*p.interrupt())
    assert list(out.iterdir()) == []


def test_interrupt_during_a_long_simulation_after_its_warning(dirs):
    """10^11 trials: one warning line (the run would take hours), then Ctrl-C stops it at once."""
    out, tmp = dirs
    target = out / "x.json"
    target.write_text("keep\n")
    p = Oddsmith("shootout", "law-dogs", "--trials", HUGE, "--workers", "2", "--format", "json",
                 "--output", str(target), cwd=out, tmpdir=tmp)
    p.wait_for(lambda: p.err)
    rc, err = p.interrupt()
    assert err.startswith(f"oddsmith: warning: shootout hands: {int(HUGE):,} trials will take about ")
    assert "Ctrl-C stops the run" in err.splitlines()[0]
    assert_interrupted(rc, err, lines_before=1)
    assert target.read_text() == "keep\n" and [p.name for p in out.iterdir()] == ["x.json"]
    assert list(tmp.iterdir()) == []


def test_sigterm_also_leaves_no_temporary_file(dirs):
    """`timeout` and `kill` send SIGTERM: taken like Ctrl-C, with its own line and status 143."""
    out, tmp = dirs
    fifo = out / "pipe"
    os.mkfifo(fifo)
    p = Oddsmith("shadows", "advance", "--output", str(fifo), cwd=out, tmpdir=tmp)
    p.wait_for(lambda: list(tmp.iterdir()))
    p.proc.send_signal(signal.SIGTERM)
    assert p.proc.wait(120) == 143
    p._reader.join(10)
    assert "".join(p.err) == "oddsmith: terminated\n"
    assert [x.name for x in out.iterdir()] == ["pipe"] and list(tmp.iterdir()) == []


def test_interrupt_while_waiting_for_a_fifo_reader(dirs):
    out, tmp = dirs
    fifo = out / "pipe"
    os.mkfifo(fifo)
    p = Oddsmith("shadows", "advance", "--output", str(fifo), cwd=out, tmpdir=tmp)
    p.wait_for(lambda: list(tmp.iterdir()))  # the output is staged: now it waits for a reader
    time.sleep(0.3)
    assert_interrupted(*p.interrupt())
    assert [x.name for x in out.iterdir()] == ["pipe"] and list(tmp.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("moment, times", [(1.0, 1), (2.5, 1), ("writing", 1), ("writing", 20)])
def test_interrupt_during_a_report(dirs, moment, times):
    """`report deck law-dogs outlaws -o r.md` (a page, 16 charts): at 1 s and 2.5 s (simulating or
    drawing), and once its files are being written, with one Ctrl-C or a burst of them. An
    existing r.md stays as it was."""
    out, tmp = dirs
    target = out / "r.md"
    target.write_text("keep\n")
    p = Oddsmith("report", "deck", "law-dogs", "outlaws", "--trials", "20000", "--seed", "1", "--output", str(target),
                 cwd=out, tmpdir=tmp)
    if moment == "writing":
        p.wait_for(lambda: any(x.name.endswith(".part") for x in out.iterdir()))
    else:
        time.sleep(moment)
        if p.proc.poll() is not None:
            pytest.skip("the report finished before the moment")
    assert_interrupted(*p.interrupt(times))
    assert target.read_text() == "keep\n" and [x.name for x in out.iterdir()] == ["r.md"]


@pytest.mark.slow
def test_interrupt_while_worker_processes_draw_the_pages(dirs):
    """A PDF's pages are drawn by several processes (oddsmith.report.parallel): Ctrl-C while they
    draw ends the command with the one line and status 130, stops the workers, and leaves the old
    file, no partial file and no part file of the workers behind."""
    out, tmp = dirs
    target = out / "r.pdf"
    target.write_text("keep\n")
    p = Oddsmith("report", "deck", "law-dogs", "outlaws", "--trials", "500", "--seed", "1", "--no-cache",
                 "--output", str(target), cwd=out, tmpdir=tmp, env={"ODDSMITH_RENDER_PROCESSES": "2"})
    p.wait_for(lambda: any(x.name.startswith("oddsmith-pages-") and any(x.iterdir()) for x in tmp.iterdir()))
    workers = [int(x) for x in os.listdir("/proc") if x.isdigit() and _parent(int(x)) == p.proc.pid]
    assert workers  # the pages are being drawn by worker processes
    assert_interrupted(*p.interrupt())
    assert target.read_text() == "keep\n" and [x.name for x in out.iterdir()] == ["r.pdf"]
    assert list(tmp.iterdir()) == []
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ---------------------------------------------------------------------------- in-process

@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler for the test (it may run with SIGINT ignored), as the CLI expects."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_interrupt_cancels_the_chunks_not_yet_started(python_sigint):
    """SIGINT while chunks run: run_chunks raises KeyboardInterrupt at once and starts no new chunk."""
    started = []

    def work(gen, n):
        started.append(n)
        if len(started) == 3:
            os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        return n

    with interrupts.latching():
        with pytest.raises(KeyboardInterrupt):
            run_chunks(work, SamplingPlan(seed=1, trials=1000, chunk_trials=10), workers=2)
    time.sleep(0.1)
    assert len(started) < 10


def test_an_interrupt_between_chunks_run_on_this_thread(python_sigint):
    """Under chunks_on_this_thread the chunks run on the caller's thread, and an interrupt stops the run before the
    next chunk, even when the KeyboardInterrupt it raised inside a chunk was swallowed (the latch)."""
    started = []

    def work(gen, n):
        assert threading.current_thread() is threading.main_thread()
        started.append(n)
        if len(started) == 3:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.1)
            except KeyboardInterrupt:
                pass
        return n

    with interrupts.latching(), sampling.chunks_on_this_thread():
        with pytest.raises(KeyboardInterrupt):
            run_chunks(work, SamplingPlan(seed=1, trials=1000, chunk_trials=10))
        assert interrupts.interrupted()
    assert len(started) == 3


def test_chunks_on_this_thread_change_where_they_run_not_what_they_give():
    """One worker's chunks run on the calling thread inside the block (nested blocks too) and on a thread of their
    own outside it; two workers always use threads. The results, in chunk order, are the same everywhere."""
    plan = SamplingPlan(seed=3, trials=1000, chunk_trials=100)

    def draw(gen, n):
        return threading.get_ident(), int(np.random.Generator(gen).integers(1 << 30)), n

    away = run_chunks(draw, plan)
    with sampling.chunks_on_this_thread():
        here = run_chunks(draw, plan)
        two = run_chunks(draw, plan, workers=2)
        with sampling.chunks_on_this_thread():
            nested = run_chunks(draw, plan)
        again = run_chunks(draw, plan)
    after = run_chunks(draw, plan)
    me = threading.get_ident()
    assert {t for t, _, _ in here + nested + again} == {me}
    assert me not in {t for t, _, _ in away + two + after}
    figures = [x[1:] for x in away]
    assert len(set(figures)) == plan.n_chunks
    assert all([x[1:] for x in run] == figures for run in (here, two, nested, again, after))


def test_an_interrupt_a_library_swallows_or_rewrites_still_ends_the_command(python_sigint, monkeypatch, capsys):
    """A KeyboardInterrupt raised inside a __del__ is dropped by Python ("Exception ignored"); one
    raised inside matplotlib's C++ comes back as ValueError("Invalid bounding box"). Both end the
    command with the one line."""
    from oddsmith.report import build

    class Finalised:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs here: its KeyboardInterrupt is swallowed
                pass

    def make_report(kind, settings, **what):
        Finalised()
        assert interrupts.interrupted()
        raise ValueError("Invalid bounding box")

    monkeypatch.setattr(build, "make_report", make_report)
    assert main(["report", "shadows", "--output", os.devnull]) == 130
    err = capsys.readouterr().err
    assert err == "oddsmith: interrupted\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_atomic_write_interrupted_before_the_rename_leaves_nothing(python_sigint, tmp_path):
    with interrupts.latching():
        with pytest.raises(KeyboardInterrupt):
            with output.atomic_paths([tmp_path / "a.txt", tmp_path / "b.txt"]) as (a, b):
                a.write_text("a")
                b.write_text("b")
                try:
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(0.5)
                except KeyboardInterrupt:
                    pass  # swallowed by some library: the latch still stops the rename
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------- long runs

class FakeClock:
    """One second passes each time the clock is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def count(gen, n):
    return n


def test_long_run_warning_from_the_first_chunks_speed(monkeypatch, capsys):
    monkeypatch.setattr(sampling, "clock", FakeClock())
    monkeypatch.delenv("ODDSMITH_PROGRESS", raising=False)
    parts = run_chunks(count, SamplingPlan(seed=1, trials=1000, chunk_trials=10), label="testing")
    assert sum(parts) == 1000
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("oddsmith: warning: testing: 1,000 trials will take about ")


def test_long_run_warning_for_chunks_run_on_this_thread(monkeypatch, capsys):
    monkeypatch.setattr(sampling, "clock", FakeClock())
    monkeypatch.delenv("ODDSMITH_PROGRESS", raising=False)
    with sampling.chunks_on_this_thread():
        parts = run_chunks(count, SamplingPlan(seed=1, trials=1000, chunk_trials=10), label="testing")
        assert sum(parts) == 1000
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith("oddsmith: warning: testing: 1,000 trials will take about ")
        run_chunks(count, SamplingPlan(seed=1, trials=10, chunk_trials=10), label="testing")  # one chunk: done
    assert capsys.readouterr().err == ""


def test_no_warning_under_the_threshold(monkeypatch, capsys):
    monkeypatch.setattr(sampling, "clock", FakeClock())
    monkeypatch.setattr(sampling, "LONG_RUN_SECONDS", 1e9)
    run_chunks(count, SamplingPlan(seed=1, trials=1000, chunk_trials=10), workers=2)
    assert capsys.readouterr().err == ""


def test_no_warning_for_a_quick_run(capsys):
    run_chunks(count, SamplingPlan(seed=1, trials=1000, chunk_trials=100))
    assert capsys.readouterr().err == ""


def test_progress_shows_the_time_left(monkeypatch):
    monkeypatch.setenv("ODDSMITH_PROGRESS", "1")
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buf)
    with output.Progress(100, "work", clock=FakeClock()) as bar:
        bar.advance(25)
        bar.note("a line")
        bar.advance(25)
    text = buf.getvalue()
    assert "work [#######" in text and " 25.0%" in text and " 50.0%" in text
    assert "left" in text and "a line\n" in text and text.endswith("\n")


def test_duration_words():
    assert [output.duration(s) for s in (4.4, 65, 7500, 3 * 86400 + 7200, 400 * 86400)] == \
        ["4 s", "1 min 05 s", "2 h 05 min", "3 days 2 h", "400 days"]


def test_huge_run_starts_at_once_with_the_same_streams():
    """10^11 trials are 1.5 million chunks: each generator is made when its chunk runs, and is the
    child the seed sequence would spawn."""
    plan = SamplingPlan(seed=5, trials=int(HUGE))
    assert plan.n_chunks == 1_525_879 and plan.chunk_size(plan.n_chunks - 1) == int(HUGE) % plan.chunk_trials
    small = SamplingPlan(seed=5, trials=300_000)
    spawned = [np.random.PCG64(c).random_raw() for c in np.random.SeedSequence(5).spawn(small.n_chunks)]
    assert [small.chunk_generator(i).random_raw() for i in range(small.n_chunks)] == spawned
