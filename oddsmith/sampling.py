"""Seeding and chunking for every Monte Carlo figure.

One ``--seed`` reproduces every figure whatever the number of workers: the
trials are cut into fixed-size chunks, chunk ``i`` always draws from child
stream ``i`` of ``SeedSequence(seed)``, and results are combined in chunk
order. Workers are threads: the kernels release the GIL.
"""
from __future__ import annotations

import concurrent.futures as cf
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

import numpy as np

from oddsmith.errors import OddsmithError
from oddsmith.output import Progress

CHUNK_TRIALS = 1 << 16
BIT_GENERATOR = "PCG64"

T = TypeVar("T")


@dataclass(frozen=True)
class SamplingPlan:
    """What a report records so that a figure can be reproduced."""

    seed: int
    trials: int
    chunk_trials: int = CHUNK_TRIALS
    bit_generator: str = BIT_GENERATOR

    @property
    def n_chunks(self) -> int:
        return -(-self.trials // self.chunk_trials)

    def chunk_sizes(self) -> list[int]:
        sizes = [self.chunk_trials] * (self.trials // self.chunk_trials)
        if self.trials % self.chunk_trials:
            sizes.append(self.trials % self.chunk_trials)
        return sizes

    def bit_generators(self) -> list[np.random.PCG64]:
        children = np.random.SeedSequence(self.seed).spawn(self.n_chunks)
        return [np.random.PCG64(child) for child in children]


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


def run_chunks(
    work: Callable[[np.random.PCG64, int], T],
    plan: SamplingPlan,
    *,
    workers: int = 1,
    label: str = "simulating",
) -> list[T]:
    """Run ``work(bit_generator, n_trials)`` once per chunk, results in chunk order."""
    sizes = plan.chunk_sizes()
    gens = plan.bit_generators()
    with Progress(plan.trials, label) as progress:
        if workers <= 1 or len(sizes) == 1:
            results: list[T] = []
            for gen, n in zip(gens, sizes):
                results.append(work(gen, n))
                progress.advance(n)
            return results
        out: list[T | None] = [None] * len(sizes)
        with cf.ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(work, g, n): i for i, (g, n) in enumerate(zip(gens, sizes))}
            for fut in cf.as_completed(futures):
                i = futures[fut]
                out[i] = fut.result()
                progress.advance(sizes[i])
        return out  # type: ignore[return-value]


def binomial_stderr(p: np.ndarray | float, n: int) -> np.ndarray | float:
    """Standard error of a proportion estimated from ``n`` independent trials."""
    return np.sqrt(np.asarray(p) * (1 - np.asarray(p)) / max(n, 1))


def sum_counts(parts: Sequence[np.ndarray]) -> np.ndarray:
    return np.sum(np.stack(parts), axis=0)
