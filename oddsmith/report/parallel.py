"""A PDF's pages drawn in several processes at once, then joined into one file.

Drawing (Matplotlib laying out and embedding text) is most of a report's time
and runs on one core; the pages do not depend on each other. So the pages are
dealt to ``processes`` workers in turn (page 1 to the first, page 2 to the
second, ...), each draws its pages into a PDF of its own, and
:func:`oddsmith.report.pdf_merge.merge` joins them in page order. Every page is
drawn by the same :func:`oddsmith.report.document.render_page`, so the file
holds the same pages as one drawn in one process.

Workers are forked where the system can (they start at once, with the
document and the report style already loaded), else spawned. They ignore
Ctrl-C: the parent alone answers it, stops them and leaves no file behind
(docs/output-and-interrupts.md).
"""
from __future__ import annotations

import multiprocessing
import queue as queue_mod
import signal
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from oddsmith import interrupts

POLL_SECONDS = 0.1

# What a forked worker draws from: set by the parent just before the workers start.
_JOB: dict = {}


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _start_worker(job: dict | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if job is not None:  # spawned: the job came pickled
        _JOB.update(job)


def _draw_part(task: tuple[int, list[int], str]) -> str:
    from oddsmith.report import document, style

    part, which, path = task
    done = _JOB["done"]

    def on_page(k: int, total: int) -> None:
        done.put(1)

    with style.report_style():
        document._draw_pdf_pages(_JOB["doc"], _JOB["pages"], which, _JOB["paper"], Path(path), on_page)
    return path


def draw_pdf(doc, pages: Sequence, paper: str, target: Path, processes: int,
             on_page: Callable[[int, int], None] | None = None) -> None:
    """Draw ``pages`` of ``doc`` into the PDF ``target`` with ``processes`` worker processes."""
    from oddsmith.report.pdf_merge import merge

    ctx = _context()
    forked = ctx.get_start_method() == "fork"
    manager = None if forked else ctx.Manager()
    done = ctx.SimpleQueue() if forked else manager.Queue()
    job = {"doc": doc, "pages": list(pages), "paper": paper, "done": done}
    _JOB.clear()
    _JOB.update(job)
    n = len(pages)
    with tempfile.TemporaryDirectory(prefix="oddsmith-pages-") as folder:
        tasks = [(k, list(range(k, n, processes)), str(Path(folder) / f"part-{k}.pdf")) for k in range(processes)]
        pool = ctx.Pool(processes, initializer=_start_worker, initargs=(None if forked else job,))
        try:
            result = pool.map_async(_draw_part, tasks, chunksize=1)
            finished = 0
            while True:
                interrupts.check()
                ready = result.ready()
                while True:  # every page drawn since the last look
                    try:
                        if forked:
                            if done.empty():
                                break
                            done.get()
                        else:
                            done.get_nowait()
                    except queue_mod.Empty:
                        break
                    finished += 1
                    if on_page is not None:
                        on_page(finished, n)
                if ready:
                    break
                result.wait(POLL_SECONDS)
            paths = result.get()
        finally:
            pool.terminate()  # at once, on an interrupt or an error; the work is done otherwise
            pool.join()
            _JOB.clear()
            if manager is not None:
                manager.shutdown()
        merge([Path(p) for p in paths], [(i % processes, i // processes) for i in range(n)], target)
