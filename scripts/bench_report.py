"""`oddsmith report` now against the version before issue 17 (commit 7bb4efd), side by side in one run.

    python scripts/bench_report.py [--baseline 7bb4efd] [--seed 20240601] [--repeat 1] [--keep DIR]

Builds the baseline from its commit in a temporary folder (``git archive`` of this repository, its
kernels built with ``setup.py build_ext --inplace``), byte-compiles both versions' modules, then makes
the sample report (same seed) with each version in a fresh process (the baseline on ``PYTHONPATH``; the
result cache off in every version that has one), and prints wall time and CPU time (the process and its
children: resource.getrusage) of both, their ratios, and the CPU of each part:

* simulations: building the pages (every figure computed, the battle pages' worker included);
* drawing: laying out and drawing the pages into PDF, in every process, split into
  - charts: building and drawing the chart blocks;
  - text and tables: building and drawing the table, notes and glossary blocks;
  - page, layout, PDF: the rest (titles and footers, the baseline's layout engine, the PDF backend);
* joining and writing: merging the parts drawn in parallel, the bookmarks, the atomic rename.

The table is the best run of each side by wall time; with ``--repeat`` above one, every run's wall and
CPU follow, and the medians, so that the machine's noise shows beside the best.

Each version's process starts and ends as its ``oddsmith report`` command does: today's asks numpy's OpenBLAS
for one thread before numpy loads (``oddsmith.__main__.single_threaded_blas``) and collects cyclic garbage seldom
(``oddsmith.__main__.collect_seldom``), and both leave with ``os._exit`` once the files are written, without
Python's shutdown (both versions' ``oddsmith/__main__.py``).

The parts are timed by the same wrapper for both versions (scripts/bench_report.py --part-runner),
around functions both have: ``document.write_document`` and, where present, ``pdf_merge.merge`` and
``pdf_outline.add_outline``; the blocks by wrapping ``document._draw_block`` and
``SubFigure.draw`` (each block is a subfigure in both). Run it on an otherwise idle machine: wall times share its cores.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "7bb4efd"
#: Seconds of CPU below which a part's ratio is not printed: the parts are differences of clocks read in
#: several processes, and the remainder ('page, layout, PDF') can come out at a few hundredths either way.
RESOLUTION = 0.05


def _cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def part_runner(output: str, seed: int) -> None:
    """In the measured process: make the report, timing the parts; print them as JSON on the last line, and leave
    as the command does."""
    started_cpu, started = _cpu(), time.perf_counter()
    # as the version's `oddsmith` command starts, before anything loads numpy (the baseline's has no such steps)
    from oddsmith import __main__ as command

    for step in ("single_threaded_blas", "collect_seldom"):
        if hasattr(command, step):
            getattr(command, step)()
    from oddsmith.report import build, document

    marks: dict[str, float] = {}
    joined = [0.0]

    def timed(fn):
        def wrapper(*a, **k):
            at = _cpu()
            try:
                return fn(*a, **k)
            finally:
                joined[0] += _cpu() - at
        return wrapper

    try:
        from oddsmith.report import pdf_merge

        pdf_merge.merge = timed(pdf_merge.merge)
    except ImportError:  # the baseline draws in one process: nothing to join
        pass
    from oddsmith.report import pdf_outline

    pdf_outline.add_outline = timed(pdf_outline.add_outline)
    write = document.write_document

    def write_document(*a, **k):
        marks["write_start"] = _cpu()
        try:
            return write(*a, **k)
        finally:
            marks["write_end"] = _cpu()

    document.write_document = write_document
    split_dir = tempfile.mkdtemp(prefix="oddsmith-bench-split-")
    _time_blocks(document, split_dir)
    import inspect

    # a version with the result cache (issue 17 on) must compute, not copy an earlier run's file
    kwargs = {"cache": False} if "cache" in inspect.signature(build.ReportSettings.from_options).parameters else {}
    settings = build.ReportSettings.from_options(output=output, seed=seed, **kwargs)
    _, pages = build.make_report("full", settings)
    total_cpu, wall = _cpu() - started_cpu, time.perf_counter() - started
    writing = marks["write_end"] - marks["write_start"]
    _dump_split(split_dir)
    split = {"charts": 0.0, "text": 0.0}
    for f in Path(split_dir).iterdir():
        for k, v in json.loads(f.read_text()).items():
            split[k] += v
    drawing = writing - joined[0]
    print(json.dumps({"pages": pages, "wall": wall, "cpu": total_cpu,
                      "simulations": marks["write_start"] - started_cpu,
                      "drawing": drawing, "charts": split["charts"], "text": split["text"],
                      "furniture": drawing - split["charts"] - split["text"], "joining": joined[0]}), flush=True)
    # Leave as `oddsmith report` does, in both versions (oddsmith/__main__.py: os._exit once the work is written),
    # not through Python's shutdown, whose garbage collections walk every object still alive (about 0.25 s here).
    sys.stderr.flush()
    os._exit(0)


_SPLIT = {"charts": 0.0, "text": 0.0}


def _dump_split(folder: str) -> None:
    (Path(folder) / f"{os.getpid()}.json").write_text(json.dumps(_SPLIT))


def _time_blocks(document, folder: str) -> None:
    """Count the CPU of drawing each page's chart blocks and its table, notes and glossary blocks, in every
    process that draws pages (forked workers inherit these wrappers and write their sums to ``folder``).

    A block's CPU is building it (``document._draw_block``, with today's placing by hand) plus drawing its
    subfigure into the PDF (``SubFigure.draw``); what is left of the drawing is the page itself: headers and
    footers, the baseline's layout engine, the PDF backend writing the file.

    Matplotlib is not imported here: ``SubFigure.draw`` is wrapped at the first block drawn, once the version has
    loaded Matplotlib itself. Today's report loads it while its second process simulates; imported here, before the
    report starts, it cost today's version about 0.34 s of CPU before its second process forked, which the command
    does not pay."""
    import weakref

    kind_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    draw_block = document._draw_block

    def kind(block) -> str:
        return "charts" if isinstance(block, document.Chart) else "text"

    def wrap_subfigure() -> None:
        from matplotlib.figure import SubFigure

        if getattr(SubFigure.draw, "_bench_timed", False):
            return
        sub_draw = SubFigure.draw

        def timed_draw(self, renderer):
            which = kind_of.get(self)
            if which is None:
                return sub_draw(self, renderer)
            at = time.process_time()
            try:
                return sub_draw(self, renderer)
            finally:
                _SPLIT[which] += time.process_time() - at

        timed_draw._bench_timed = True
        SubFigure.draw = timed_draw

    def timed_block(sub, block, *a, **k):
        wrap_subfigure()  # before any subfigure is drawn: a block is built into it first
        if isinstance(block, document.Row):  # its blocks are timed one by one
            return draw_block(sub, block, *a, **k)
        kind_of[sub] = kind(block)
        at = time.process_time()
        try:
            return draw_block(sub, block, *a, **k)
        finally:
            _SPLIT[kind(block)] += time.process_time() - at

    document._draw_block = timed_block
    pages = getattr(document, "_draw_pdf_pages", None)
    if pages is not None:  # today's: the pages are drawn in worker processes, a part each
        def timed_pages(*a, **k):
            try:
                return pages(*a, **k)
            finally:
                _dump_split(folder)

        document._draw_pdf_pages = timed_pages


def build_baseline(commit: str, folder: Path) -> Path:
    src = folder / f"oddsmith-{commit}"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j", "2"], cwd=src, check=True,
                   capture_output=True)
    return src


def byte_compile(tree: Path) -> None:
    """Byte-compile the package in ``tree``, as pip does when it installs one: where PYTHONDONTWRITEBYTECODE is
    set (as on the project's machines), a tree without .pyc files would compile every module again in every run
    (about 0.3 s), and only one side might pay it."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "oddsmith")], check=True, capture_output=True)


def measure(path: Path, out: Path, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path), MPLBACKEND="Agg")
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--part-runner", str(out), str(seed)],
                          env=env, cwd=path, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(f"bench_report: the run in {path} failed:\n{proc.stderr[-2000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall_outside"] = time.perf_counter() - started  # with the interpreter's start-up
    result["cpu_outside"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return result


def main(argv: list[str]) -> int:
    if argv[:1] == ["--part-runner"]:
        part_runner(argv[1], int(argv[2]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="keep both PDFs in this folder")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="oddsmith-bench-report-") as tmp:
        folder = Path(tmp)
        print(f"building the baseline {args.baseline} in {folder} ...", flush=True)
        base_src = build_baseline(args.baseline, folder)
        for tree in (base_src, ROOT):
            byte_compile(tree)
        out = args.keep or folder
        out.mkdir(parents=True, exist_ok=True)
        runs: dict[str, list[dict]] = {"baseline": [], "today": []}
        for _ in range(args.repeat):  # alternate, so both meet the same machine load
            runs["baseline"].append(measure(base_src, out / "baseline.pdf", args.seed))
            runs["today"].append(measure(ROOT, out / "today.pdf", args.seed))
    best = {k: min(v, key=lambda r: r["wall_outside"]) for k, v in runs.items()}
    b, t = best["baseline"], best["today"]
    print(f"\noddsmith report --seed {args.seed} (sample report), best of {args.repeat}, {os.cpu_count()} cores")
    print(f"{'':26s}{'baseline ' + args.baseline:>18s}{'today':>12s}{'ratio':>9s}")
    rows = [("pages", "pages"), ("wall (s)", "wall_outside"), ("CPU, children too (s)", "cpu_outside"),
            ("  simulations (s)", "simulations"), ("  drawing (s)", "drawing"),
            ("    charts (s)", "charts"), ("    text and tables (s)", "text"),
            ("    page, layout, PDF (s)", "furniture"), ("  joining, writing (s)", "joining")]
    for label, key in rows:
        fmt = "{:18.0f}{:12.0f}" if key == "pages" else "{:18.2f}{:12.2f}"
        # a part under RESOLUTION s is within what these CPU clocks resolve: no ratio
        ratio = "" if key == "pages" else (f"{b[key] / t[key]:8.2f}x" if t[key] >= RESOLUTION else f"{'-':>9s}")
        print(f"{label:26s}" + fmt.format(b[key], t[key]) + ratio)
    if args.repeat > 1:
        # every run, so the machine's noise shows next to the best: a change smaller than the spread of one
        # side's runs is not shown by this script
        print("\nevery run, wall / CPU (s), in the order made")
        for side, made in runs.items():
            print(f"  {side:10s}" + "  ".join(f"{r['wall_outside']:6.2f} / {r['cpu_outside']:6.2f}" for r in made))
        med = {side: {key: statistics.median(r[key] for r in made) for key in ("wall_outside", "cpu_outside")}
               for side, made in runs.items()}
        mb, mt = med["baseline"], med["today"]
        print(f"  median    wall {mb['wall_outside']:.2f} / {mt['wall_outside']:.2f} "
              f"({mb['wall_outside'] / mt['wall_outside']:.2f}x), CPU {mb['cpu_outside']:.2f} / "
              f"{mt['cpu_outside']:.2f} ({mb['cpu_outside'] / mt['cpu_outside']:.2f}x)")
    print("\ntargets: wall >= 5x less, CPU >= 2.5x less (issue 17)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
