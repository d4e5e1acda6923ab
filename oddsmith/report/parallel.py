"""A PDF's pages drawn in several processes at once, then joined into one file.

Drawing (Matplotlib laying out and embedding text) is most of a report's time
and runs on one core; the pages do not depend on each other. So ``processes``
workers each draw pages into a PDF of its own, claiming the next page not yet
taken whenever they finish one (a shared counter): pages cost from a twentieth
of a second to half a second, so a fixed deal left one worker drawing alone
for most of a second, and claiming leaves it at most the last page.
:func:`oddsmith.report.pdf_merge.merge` joins the parts in page order. Every
page is drawn by the same :func:`oddsmith.report.document.render_page`, so the
file holds the same pages as one drawn in one process.

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
from typing import Callable, Iterator, Sequence

from oddsmith import interrupts

POLL_SECONDS = 0.1

# What a forked worker draws from: set by the parent just before the workers start.
_JOB: dict = {}


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _start_worker(job: dict | None) -> None:
    from oddsmith.output import Progress

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    Progress.silence()  # the parent draws the progress bar
    if job is not None:  # spawned: the job came pickled
        _JOB.update(job)


def claimed(counter, n: int, taken: list[int] | None = None) -> Iterator[int]:
    """Indices below ``n`` (pages, what-if pages), each claimed from the shared ``counter`` (a
    ``multiprocessing.Value``) when this process is ready for it, so no other process gets it; noted in ``taken``."""
    while True:
        with counter.get_lock():
            i = counter.value
            if i >= n:
                return
            counter.value = i + 1
        if taken is not None:
            taken.append(i)
        yield i


def _draw_part(path: str) -> tuple[str, list[int]]:
    """Draw pages into the PDF ``path`` while any is left; returns it with the pages it holds, in order (none: no
    file)."""
    from oddsmith.report import document, style

    done, taken = _JOB["done"], []

    def on_page(k: int, total: int) -> None:
        done.put(1)

    with style.report_style():
        document._draw_pdf_pages(_JOB["doc"], _JOB["pages"], claimed(_JOB["next"], len(_JOB["pages"]), taken),
                                 _JOB["paper"], Path(path), on_page)
    return path, taken


def draw_pdf(doc, pages: Sequence, paper: str, target: Path, processes: int,
             on_page: Callable[[int, int], None] | None = None) -> None:
    """Draw ``pages`` of ``doc`` into the PDF ``target`` with ``processes`` worker processes."""
    from oddsmith.report.pdf_merge import merge

    ctx = _context()
    forked = ctx.get_start_method() == "fork"
    manager = None if forked else ctx.Manager()
    done = ctx.SimpleQueue() if forked else manager.Queue()
    job = {"doc": doc, "pages": list(pages), "paper": paper, "done": done, "next": ctx.Value("i", 0)}
    _JOB.clear()
    _JOB.update(job)
    n = len(pages)
    with tempfile.TemporaryDirectory(prefix="oddsmith-pages-") as folder:
        tasks = [str(Path(folder) / f"part-{k}.pdf") for k in range(processes)]
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
            parts = [(path, taken) for path, taken in result.get() if taken]
        finally:
            pool.terminate()  # at once, on an interrupt or an error; the work is done otherwise
            pool.join()
            _JOB.clear()
            if manager is not None:
                manager.shutdown()
        where = {i: (k, j) for k, (_, taken) in enumerate(parts) for j, i in enumerate(taken)}
        merge([Path(path) for path, _ in parts], [where[i] for i in range(n)], target)
