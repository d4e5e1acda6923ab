"""Seeding and chunking for every Monte Carlo figure.

One ``--seed`` reproduces every figure whatever the number of workers: the
trials are cut into fixed-size chunks, chunk ``i`` always draws from child
stream ``i`` of ``SeedSequence(seed)``, and results are combined in chunk
order. Workers are threads: the kernels release the GIL.

The chunks run on daemon threads even with one worker, so the main thread is
always free to take Ctrl-C (a kernel call can run for seconds without giving
Python a chance to run its signal handler); on an interrupt no new chunk
starts and the command stops at once. A report, whose every chunk is short,
runs them on its own thread instead (:func:`chunks_on_this_thread`). A run
estimated, from its first chunks, to take more than :data:`LONG_RUN_SECONDS`
prints one warning line.

Memory stays flat in the number of trials: chunk results are folded in chunk
order as they arrive (:func:`sum_chunks`), and the threads never run more
than a few chunks ahead of the fold. ``--trials`` above :data:`MAX_TRIALS`
is refused before any work (docs/cli-conventions.md, "Trials").
"""
from __future__ import annotations

import contextlib
import queue
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence, TypeVar

from oddsmith import lazy

np = lazy.module("numpy")  # light at start-up: docs/design.md, 'Start-up'

from oddsmith import interrupts
from oddsmith.errors import OddsmithError
from oddsmith.output import Progress, duration, thread_setting

CHUNK_TRIALS = 1 << 16
BIT_GENERATOR = "PCG64"

#: The most trials one figure may ask for. The fastest simulation (lowball deals,
#: about 5 million a second per core) takes hours at this size, a whole shootout
#: weeks; more cannot finish in a sane time (and 10**30 overflowed the chunk count).
MAX_TRIALS = 10 ** 11
#: How many chunks the threads may run ahead of the chunk being folded, per worker:
#: what bounds the memory of a run (a slow chunk holds back the others' results).
AHEAD_PER_WORKER = 4

#: A run estimated to take longer than this (seconds) prints one warning line.
LONG_RUN_SECONDS = 60.0
#: Seconds of running before that estimate is made (the first chunks' speed).
ESTIMATE_AFTER = 0.5
#: How often the main thread wakes while it waits for chunks (to take Ctrl-C, redraw).
POLL_SECONDS = 0.1
#: The clock of the progress bar and the estimate (tests replace it).
clock: Callable[[], float] = time.monotonic

T = TypeVar("T")


@dataclass(frozen=True)
class SamplingPlan:
    """What a report records so that a figure can be reproduced."""

    seed: int
    trials: int
    chunk_trials: int = CHUNK_TRIALS
    bit_generator: str = BIT_GENERATOR
    stream: tuple[int, ...] = ()
    """Spawn-key prefix of one named stage of a figure (:func:`stream_key`); () for a single-stage figure."""

    def __post_init__(self) -> None:
        check_trials(self.trials)  # every simulation makes a plan: no run past the limit
        if self.chunk_trials < 1:
            raise ValueError(f"chunk_trials must be at least 1, got {self.chunk_trials}")

    @property
    def n_chunks(self) -> int:
        return -(-self.trials // self.chunk_trials)

    def chunk_sizes(self) -> list[int]:
        sizes = [self.chunk_trials] * (self.trials // self.chunk_trials)
        if self.trials % self.chunk_trials:
            sizes.append(self.trials % self.chunk_trials)
        return sizes

    def chunk_size(self, i: int) -> int:
        return min(self.chunk_trials, self.trials - i * self.chunk_trials)

    def chunk_generator(self, i: int) -> np.random.PCG64:
        """Chunk ``i``'s generator: child ``i`` of ``SeedSequence(seed)``, made only when
        needed (a run of 10^11 trials has 1.5 million chunks)."""
        return np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(*self.stream, i)))

    def bit_generators(self) -> list[np.random.PCG64]:
        return [self.chunk_generator(i) for i in range(self.n_chunks)]


def stream_key(name: str) -> tuple[int, ...]:
    """The spawn-key prefix of a named stage ("shot", "action", ...): a figure made of several simulated
    stages draws each from its own stream of the one seed, so that no stage of ``--seed 5`` reuses the
    numbers of any stage of another seed (chunk ``i`` of stage ``name`` is spawn key ``(crc32(name), i)``)."""
    return (zlib.crc32(name.encode("utf-8")),)


def resolve_seed(seed: int | None) -> int:
    """The seed to use and record: the given one, or fresh entropy."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % (1 << 63))
    if seed < 0:
        raise OddsmithError(f"--seed must be 0 or more, got {seed}")
    return int(seed)


def check_trials(trials: int) -> int:
    """``trials`` if it is 1..:data:`MAX_TRIALS`, else the one-line error that says the limit."""
    if trials < 1:
        raise OddsmithError(f"--trials must be at least 1, got {trials}")
    if trials > MAX_TRIALS:
        raise OddsmithError(f"--trials must be at most {MAX_TRIALS:,} (10^{len(str(MAX_TRIALS)) - 1}; more cannot "
                            f"finish in a sane time), got {_typed(trials)}")
    return int(trials)


def _typed(n: int) -> str:
    """A too-large number as the user typed it, or its size when it would fill the line."""
    digits = str(n)
    return f"{n:,}" if len(digits) <= 24 else f"a {len(digits)}-digit number"


def check_workers(workers: int) -> int:
    if workers < 1:
        raise OddsmithError(f"--workers must be at least 1, got {workers}")
    return int(workers)


class _Chunks:
    """Chunk indices handed out to daemon threads; results come back on a queue.

    A thread takes chunk ``i`` only once chunk ``i - ahead`` is folded, so that at
    most ``ahead`` results wait for an earlier, slower chunk: memory stays flat
    however many chunks the run has."""

    def __init__(self, work: Callable[[np.random.PCG64, int], T], plan: SamplingPlan, ahead: int) -> None:
        self.work, self.plan, self.ahead = work, plan, ahead
        self.next = 0
        self.folded = 0
        self.lock = threading.Condition()
        self.stopped = False
        self.results: queue.SimpleQueue = queue.SimpleQueue()

    def run(self) -> None:
        while True:
            with self.lock:
                while not self.stopped and self.next < self.plan.n_chunks and self.next >= self.folded + self.ahead:
                    self.lock.wait(POLL_SECONDS)
                i = self.next
                if self.stopped or i >= self.plan.n_chunks:
                    return
                self.next += 1
            try:
                self.results.put((i, self.work(self.plan.chunk_generator(i), self.plan.chunk_size(i)), None))
            except BaseException as exc:  # handed to the main thread, which raises it
                self.results.put((i, None, exc))
                return

    def fold_done(self, folded: int) -> None:
        with self.lock:
            self.folded = folded
            self.lock.notify_all()

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            self.lock.notify_all()


def _estimate(progress: Progress, plan: SamplingPlan, workers: int) -> float:
    """Seconds the whole run should take, from the speed so far. Before any chunk is
    done, a lower bound: every running chunk already took as long as the run."""
    if progress.done:
        return progress.elapsed * plan.trials / progress.done
    return progress.elapsed * (plan.n_chunks // max(workers, 1))


def fold_chunks(
    work: Callable[[np.random.PCG64, int], T],
    plan: SamplingPlan,
    fold: Callable[[T], None],
    *,
    workers: int = 1,
    label: str = "simulating",
) -> None:
    """Run ``work(bit_generator, n_trials)`` once per chunk and hand each result to ``fold``,
    in chunk order, as soon as it and every earlier chunk are done.

    ``work`` runs on ``workers`` daemon threads while the main thread waits in
    short steps: Ctrl-C stops the run at once (the chunks being computed are
    abandoned, no new one starts). At most ``AHEAD_PER_WORKER * workers``
    results are held at any moment. One worker under :func:`chunks_on_this_thread`:
    on the calling thread.
    """
    workers = max(1, min(workers, plan.n_chunks))
    if workers == 1 and getattr(_here, "on", False):
        _fold_here(work, plan, fold, label)
        return
    chunks = _Chunks(work, plan, ahead=AHEAD_PER_WORKER * workers)
    waiting: dict[int, T] = {}
    folded = 0
    warned = False
    threads = [threading.Thread(target=chunks.run, name=f"oddsmith-chunks-{k}", daemon=True)
               for k in range(workers)]
    try:
        with Progress(plan.trials, label, clock=clock) as progress:
            for t in threads:
                t.start()
            while folded < plan.n_chunks:
                try:
                    i, result, exc = chunks.results.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    progress.draw()
                else:
                    if exc is not None:
                        raise exc
                    waiting[i] = result
                    while folded in waiting:
                        fold(waiting.pop(folded))
                        folded += 1
                    chunks.fold_done(folded)
                    progress.advance(plan.chunk_size(i))
                interrupts.check()
                if not warned and folded < plan.n_chunks:
                    warned = _warned(progress, plan, workers, label)
    finally:
        chunks.stop()


def _warned(progress: Progress, plan: SamplingPlan, workers: int, label: str) -> bool:
    """Print the one warning line of a long run, once its first chunks have run long enough to tell; whether
    it is printed."""
    if progress.elapsed < ESTIMATE_AFTER:
        return False
    total = _estimate(progress, plan, workers)
    if total <= LONG_RUN_SECONDS:
        return False
    progress.note(f"oddsmith: warning: {label}: {plan.trials:,} trials will take about "
                  f"{duration(total)} at this speed (Ctrl-C stops the run)")
    return True


#: Whether this thread runs a one-worker run's chunks itself (:func:`chunks_on_this_thread`).
_here = threading.local()


@contextlib.contextmanager
def chunks_on_this_thread() -> Iterator[None]:
    """For the duration, a one-worker run on this thread runs its chunks here, one after another, instead of on a
    thread of its own; Ctrl-C is then taken between two chunks.

    For a report: each of its two processes makes hundreds of short runs in a row (a chunk there takes at most
    about 0.1 s, a matchup's 2,500 battles). With both cores busy, a thread started for a run was often put on the
    other core, behind the other process, while this one idled until the scheduler moved it: about a tenth of
    the two cores went idle while both processes simulated (docs/speed.md, 'Reports')."""
    with thread_setting(_here, "on", True):
        yield


def _fold_here(work: Callable[[np.random.PCG64, int], T], plan: SamplingPlan, fold: Callable[[T], None],
               label: str) -> None:
    """:func:`fold_chunks` with one worker, on this thread (:func:`chunks_on_this_thread`)."""
    warned = False
    with Progress(plan.trials, label, clock=clock) as progress:
        for i in range(plan.n_chunks):
            interrupts.check()
            fold(work(plan.chunk_generator(i), plan.chunk_size(i)))
            progress.advance(plan.chunk_size(i))
            if not warned and i + 1 < plan.n_chunks:
                warned = _warned(progress, plan, 1, label)


def run_chunks(
    work: Callable[[np.random.PCG64, int], T],
    plan: SamplingPlan,
    *,
    workers: int = 1,
    label: str = "simulating",
) -> list[T]:
    """Every chunk's result of :func:`fold_chunks`, in chunk order: for results that cannot
    be summed (per-trial arrays). A sum of counts should use :func:`sum_chunks`, whose
    memory does not grow with the number of trials."""
    out: list[T] = []
    fold_chunks(work, plan, out.append, workers=workers, label=label)
    return out


def _add(total: Any, part: Any) -> Any:
    if isinstance(part, tuple):
        return tuple(_add(t, p) for t, p in zip(total, part))
    return total + part


def sum_chunks(
    work: Callable[[np.random.PCG64, int], T],
    plan: SamplingPlan,
    *,
    workers: int = 1,
    label: str = "simulating",
) -> T:
    """The element-wise sum of every chunk's result (an array of counts, or a tuple of them),
    added up in chunk order as the chunks finish: the same figures as summing
    :func:`run_chunks`' list, in memory that does not grow with the trials."""
    total: list[Any] = []

    def fold(part: T) -> None:
        total[:] = [part if not total else _add(total[0], part)]

    fold_chunks(work, plan, fold, workers=workers, label=label)
    return total[0]


def binomial_stderr(p: np.ndarray | float, n: int) -> np.ndarray | float:
    """Standard error of a proportion estimated from ``n`` independent trials."""
    return np.sqrt(np.asarray(p) * (1 - np.asarray(p)) / max(n, 1))


def sum_counts(parts: Sequence[np.ndarray]) -> np.ndarray:
    return np.sum(np.stack(parts), axis=0)
