"""Seeding and chunking for every Monte Carlo figure.

One ``--seed`` reproduces every figure whatever the number of workers: the
trials are cut into fixed-size chunks, chunk ``i`` always draws from child
stream ``i`` of ``SeedSequence(seed)``, and results are combined in chunk
order. Workers are threads: the kernels release the GIL.

The chunks run on daemon threads even with one worker, so the main thread is
always free to take Ctrl-C (a kernel call can run for seconds without giving
Python a chance to run its signal handler); on an interrupt no new chunk
starts and the command stops at once. A run estimated, from its first
chunks, to take more than :data:`LONG_RUN_SECONDS` prints one warning line.
"""
from __future__ import annotations

import queue
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

import numpy as np

from oddsmith import interrupts
from oddsmith.errors import OddsmithError
from oddsmith.output import Progress, duration

CHUNK_TRIALS = 1 << 16
BIT_GENERATOR = "PCG64"

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
    if trials < 1:
        raise OddsmithError(f"--trials must be at least 1, got {trials}")
    return int(trials)


def check_workers(workers: int) -> int:
    if workers < 1:
        raise OddsmithError(f"--workers must be at least 1, got {workers}")
    return int(workers)


class _Chunks:
    """Chunk indices handed out to daemon threads; results come back on a queue."""

    def __init__(self, work: Callable[[np.random.PCG64, int], T], plan: SamplingPlan) -> None:
        self.work, self.plan = work, plan
        self.next = 0
        self.lock = threading.Lock()
        self.stopped = False
        self.results: queue.SimpleQueue = queue.SimpleQueue()

    def run(self) -> None:
        while True:
            with self.lock:
                i = self.next
                if self.stopped or i >= self.plan.n_chunks:
                    return
                self.next += 1
            try:
                self.results.put((i, self.work(self.plan.chunk_generator(i), self.plan.chunk_size(i)), None))
            except BaseException as exc:  # handed to the main thread, which raises it
                self.results.put((i, None, exc))
                return


def _estimate(progress: Progress, plan: SamplingPlan, workers: int) -> float:
    """Seconds the whole run should take, from the speed so far. Before any chunk is
    done, a lower bound: every running chunk already took as long as the run."""
    if progress.done:
        return progress.elapsed * plan.trials / progress.done
    return progress.elapsed * (plan.n_chunks // max(workers, 1))


def run_chunks(
    work: Callable[[np.random.PCG64, int], T],
    plan: SamplingPlan,
    *,
    workers: int = 1,
    label: str = "simulating",
) -> list[T]:
    """Run ``work(bit_generator, n_trials)`` once per chunk, results in chunk order.

    ``work`` runs on ``workers`` daemon threads while the main thread waits in
    short steps: Ctrl-C stops the run at once (the chunks being computed are
    abandoned, no new one starts).
    """
    chunks = _Chunks(work, plan)
    out: list[T | None] = [None] * plan.n_chunks
    warned = False
    threads = [threading.Thread(target=chunks.run, name=f"oddsmith-chunks-{k}", daemon=True)
               for k in range(min(workers, plan.n_chunks))]
    try:
        with Progress(plan.trials, label, clock=clock) as progress:
            for t in threads:
                t.start()
            left = plan.n_chunks
            while left:
                try:
                    i, result, exc = chunks.results.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    progress.draw()
                else:
                    if exc is not None:
                        raise exc
                    out[i] = result
                    left -= 1
                    progress.advance(plan.chunk_size(i))
                interrupts.check()
                if not warned and left and progress.elapsed >= ESTIMATE_AFTER:
                    total = _estimate(progress, plan, workers)
                    if total > LONG_RUN_SECONDS:
                        warned = True
                        progress.note(f"oddsmith: warning: {label}: {plan.trials:,} trials will take about "
                                      f"{duration(total)} at this speed (Ctrl-C stops the run)")
    finally:
        chunks.stopped = True
    return out  # type: ignore[return-value]


def binomial_stderr(p: np.ndarray | float, n: int) -> np.ndarray | float:
    """Standard error of a proportion estimated from ``n`` independent trials."""
    return np.sqrt(np.asarray(p) * (1 - np.asarray(p)) / max(n, 1))


def sum_counts(parts: Sequence[np.ndarray]) -> np.ndarray:
    return np.sum(np.stack(parts), axis=0)
