"""The job registry: long simulations run off the request thread.

A job is one answer being computed on its own daemon thread. Its progress
comes from the chunk loops of :mod:`oddsmith.sampling` (through
:func:`oddsmith.output.observe_progress`, which also keeps the server's
terminal free of progress bars); cancelling it makes the next progress report
raise, so the run stops at the next chunk, as Ctrl-C does on the command line.

Jobs are keyed by the question (the page and its canonical query string): a
second tab asking the same question shares the job, and a finished answer is
kept for a while so a reload or a shared link answers at once. At most
``max_running`` jobs run at a time; one more gets :class:`Busy`, a clear
message rather than a server that slows to a halt.
"""
from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from oddsmith.errors import OddsmithError
from oddsmith.output import observe_progress


class Cancelled(Exception):
    """Raised inside a job's thread at its next progress report once it is cancelled."""


class Busy(OddsmithError):
    """Too many simulations are running; the request is refused (HTTP 503)."""


@dataclass
class Job:
    """One answer being computed: its state, progress and result (or error)."""

    key: str
    run: Callable[[], Any]
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    state: str = "running"  # running, done, failed, cancelled
    label: str = "starting"
    done: int = 0
    total: int = 0
    result: Any = None
    error: str = ""
    internal: bool = False  # failed on a bug rather than on the user's input
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    _cancel: threading.Event = field(default_factory=threading.Event)
    _over: threading.Event = field(default_factory=threading.Event)

    def _progress(self, label: str, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise Cancelled
        self.label, self.done, self.total = label, done, total

    def _main(self) -> None:
        try:
            with observe_progress(self._progress):
                self.result = self.run()
            self.state = "done"
        except Cancelled:
            self.state = "cancelled"
        except OddsmithError as exc:
            self.state, self.error = "failed", str(exc)
        except Exception as exc:  # a bug: the page says so (HTTP 500) and the server keeps serving
            self.state, self.error = "failed", f"internal error: {type(exc).__name__}: {exc}"
            self.internal = True
        finally:
            self.finished = time.monotonic()
            self._over.set()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the job to end; True when it has."""
        return self._over.wait(seconds)

    def status(self) -> dict[str, Any]:
        return {"id": self.id, "state": self.state, "label": self.label, "done": self.done,
                "total": self.total, "fraction": (self.done / self.total) if self.total else 0.0,
                "error": self.error}


class JobRegistry:
    """Start, find, poll and cancel jobs; keeps the last ``keep`` ended jobs' answers."""

    def __init__(self, max_running: int = 3, keep: int = 32) -> None:
        self.max_running, self.keep = max_running, keep
        self._jobs: "OrderedDict[str, Job]" = OrderedDict()  # by id, oldest first
        self._by_key: dict[str, str] = {}
        self._lock = threading.Lock()
        self._names = itertools.count(1)

    def running(self) -> int:
        return sum(1 for j in self._jobs.values() if j.state == "running")

    def start(self, key: str, run: Callable[[], Any]) -> Job:
        """The job answering ``key``: the running or finished one, else a new one (a cancelled or
        failed job is started afresh)."""
        with self._lock:
            old = self._jobs.get(self._by_key.get(key, ""))
            if old is not None and old.state in ("running", "done"):
                self._jobs.move_to_end(old.id)
                return old
            if self.running() >= self.max_running:
                raise Busy(f"the server is busy: {self.running()} simulations are running already; "
                           "try again when one has finished, or cancel one")
            job = Job(key, run)
            self._jobs[job.id] = job
            self._by_key[key] = job.id
            self._trim()
        threading.Thread(target=job._main, name=f"oddsmith-web-job-{next(self._names)}", daemon=True).start()
        return job

    def _trim(self) -> None:
        ended = [j for j in self._jobs.values() if j.state != "running"]
        for j in ended[: max(0, len(ended) - self.keep)]:
            del self._jobs[j.id]
            if self._by_key.get(j.key) == j.id:
                del self._by_key[j.key]

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self._jobs.get(job_id)
        if job is not None:
            job.cancel()
        return job

    def cancel_all(self) -> None:
        for j in list(self._jobs.values()):
            j.cancel()
