"""One way to run independent tasks: in this process, on local worker processes, or on a Dask cluster.

``oddsmith deck tune`` and ``oddsmith sweep`` cut their work into tasks, each a
module-level function and plain data (card counts as numpy arrays or tuples,
numbers, frozen option objects; never a Python deck object), and hand the list
to an :class:`Executor`. In the spirit of dask's ``Client.get_executor()`` the
same tasks run whichever executor runs them, and results come back in task
order, never in completion order. Every task draws its random numbers from a
stream keyed by what it computes (:func:`stream`: the seed, the deck, the
chunk), so the same seed gives the same bytes with one process, several, or a
cluster.

* :class:`InlineExecutor`: in this process (``--workers 1``);
* :class:`ProcessExecutor`: ``concurrent.futures.ProcessPoolExecutor``
  (``--workers N``, the default for ``sweep``: all cores);
* :class:`DaskExecutor`: a ``distributed.Client`` on a scheduler
  (``--scheduler tcp://HOST:PORT``) or on a ``distributed.LocalCluster`` of
  worker processes it starts (``--scheduler local``). Dask is optional:
  ``pip install "oddsmith[dask]"``.
"""
from __future__ import annotations

import hashlib
import os
from typing import Any, Callable, Iterable, Sequence

from oddsmith.errors import OddsmithError

#: Seconds to wait for a Dask scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 3.0
#: Seconds to wait for a scheduler's first worker.
WORKER_TIMEOUT = 10.0
DASK_HINT = 'Dask is not installed: pip install "oddsmith[dask]" (or pip install dask distributed)'

#: First spawn-key entry of each kind of stream, so that no two kinds ever share one.
STREAM_TUNE_HANDS = 1401
STREAM_TUNE_FULL = 1402
STREAM_SWEEP = 1403


def deck_key(counts: Sequence[int]) -> int:
    """A 32-bit key of a deck's card counts (53 entries): the deck part of a stream key, the
    same whichever position the deck has in a list or whichever worker runs it."""
    data = bytes(int(c) & 0xFF for c in counts)
    return int.from_bytes(hashlib.sha256(data).digest()[:4], "little")


def stream(seed: int, *key: int):
    """The PCG64 bit generator of the stream ``(seed, *key)``: ``SeedSequence(seed, spawn_key=key)``,
    as :mod:`oddsmith.sampling` keys its chunks (which it does by chunk index alone)."""
    import numpy as np

    return np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=tuple(int(k) for k in key)))


def stream_seed(seed: int, *key: int) -> int:
    """A 63-bit seed derived from the stream ``(seed, *key)``, for an analysis that takes a seed."""
    import numpy as np

    state = np.random.SeedSequence(int(seed), spawn_key=tuple(int(k) for k in key)).generate_state(2, np.uint64)
    return int(state[0] >> np.uint64(1))


class Executor:
    """Runs ``fn(*args)`` for each args tuple; results in task order. A context manager."""

    name = "executor"
    workers = 1

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> list[Any]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return self.name


class InlineExecutor(Executor):
    """Every task in this process, one after another."""

    name = "1 process"

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> list[Any]:
        from oddsmith import interrupts

        out = []
        for args in tasks:
            interrupts.check()
            out.append(fn(*args))
        return out


def _limit_threads() -> None:
    """Worker processes compute one task each: no nested BLAS threads competing for the cores."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


class ProcessExecutor(Executor):
    """Tasks on ``workers`` local processes (``concurrent.futures.ProcessPoolExecutor``)."""

    def __init__(self, workers: int) -> None:
        import concurrent.futures
        import multiprocessing

        self.workers = int(workers)
        self.name = f"{self.workers} local processes"
        # forkserver: no copy of the parent's threads or locks; the workers import oddsmith once
        ctx = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
        self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                                            initializer=_limit_threads)

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> list[Any]:
        futures = [self._pool.submit(fn, *args) for args in tasks]
        try:
            return [f.result() for f in futures]
        except BaseException:
            for f in futures:
                f.cancel()
            raise

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise OddsmithError(DASK_HINT) from None
    return distributed


class DaskExecutor(Executor):
    """Tasks on a Dask cluster: ``address`` ``tcp://HOST:PORT`` of a running scheduler, or
    ``local`` for a ``distributed.LocalCluster`` of ``workers`` single-threaded worker processes
    (started here and shut down by :meth:`close`)."""

    def __init__(self, address: str, workers: int = 2, *, timeout: float = CONNECT_TIMEOUT) -> None:
        distributed = _import_distributed()
        self.cluster = None
        self.address = address
        if address == "local":
            self.cluster = distributed.LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                                                    dashboard_address=None, silence_logs=40)
            self.client = distributed.Client(self.cluster, set_as_default=False)
            self.workers = int(workers)
            self.name = f"a Dask LocalCluster of {self.workers} worker processes"
            return
        if not address.startswith(("tcp://", "tls://", "ws://", "wss://", "inproc://")):
            raise OddsmithError(f"--scheduler {address!r}: use 'local' or a scheduler address tcp://HOST:PORT")
        try:
            self.client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise OddsmithError(f"--scheduler {address}: cannot reach the Dask scheduler within {timeout:g} s "
                                f"({type(exc).__name__}); is `dask scheduler` running there?") from None
        try:  # a scheduler without workers would leave every task waiting
            self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except (OSError, TimeoutError):
            self.client.close()
            raise OddsmithError(f"--scheduler {address}: the scheduler has no workers after {WORKER_TIMEOUT:g} s; "
                                f"start some with `dask worker {address}`") from None
        self.workers = max(len(self.client.scheduler_info().get("workers", {})), 1)
        self.name = f"the Dask scheduler at {address} ({self.workers} workers)"

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple]) -> list[Any]:
        # pure=False: a task is never skipped as a duplicate of another; keys are unique per call
        futures = [self.client.submit(fn, *args, pure=False) for args in tasks]
        try:
            return self.client.gather(futures)
        except (ModuleNotFoundError, RuntimeError) as exc:
            self.client.cancel(futures)
            if isinstance(exc, ModuleNotFoundError) or "deserializ" in str(exc):
                raise OddsmithError(f"the Dask cluster at {self.address} cannot run oddsmith's tasks "
                                    f"({str(exc).splitlines()[0]}): install the same oddsmith on the scheduler "
                                    f"and on every worker") from None
            raise
        except BaseException:
            self.client.cancel(futures)
            raise

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()


def make_executor(workers: int = 1, scheduler: str | None = None) -> Executor:
    """The executor for ``--workers`` and ``--scheduler``: a Dask one when a scheduler is named
    (``local`` or ``tcp://HOST:PORT``), local processes for ``workers`` > 1, else this process."""
    from oddsmith.sampling import check_workers

    workers = check_workers(workers)
    if scheduler is not None and str(scheduler).strip():
        return DaskExecutor(str(scheduler).strip(), workers)
    if workers > 1:
        return ProcessExecutor(workers)
    return InlineExecutor()


def batches(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    """``items`` in consecutive slices of at most ``size`` (a fixed cut, whatever runs the tasks)."""
    for start in range(0, len(items), max(int(size), 1)):
        yield items[start:start + size]
