"""One way to run Monte Carlo work: fixed chunks, each with its own random stream.

A job is cut into chunks of a fixed size; chunk ``i`` draws from
``SeedSequence(seed, spawn_key=(i,))`` and the chunks are combined in index order, so the answer
for a seed is the same, bit for bit, on one process, a local pool of any size, or a Dask
cluster. A ``Runner`` is started once per command and reused by every batch of chunks.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from drawodds.errors import DrawoddsError

T = TypeVar("T")
Progress = Callable[[int, int], None]   # progress(done, total): called as long work advances
Stage = Callable[[str, float], None]     # (what is being done, fraction done 0..1)
LOCAL_DASK = "local"        # scheduler value that starts a Dask LocalCluster on this machine


class ExecutionError(DrawoddsError):
    """An impossible execution request (worker count, scheduler address); one sentence."""


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1


def chunk_rng(seed: int, index: int) -> np.random.Generator:
    """The random generator of chunk ``index`` of a job seeded with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def chunk_sizes(total: int, chunk: int) -> list[int]:
    """``total`` items cut into chunks of ``chunk`` (the last one shorter)."""
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


def resolve_workers(workers: int | None) -> int:
    """The worker count to use: ``None`` means every available core; more than that is refused."""
    cores = available_cores()
    if workers is None:
        return cores
    if workers < 1:
        raise ExecutionError(f"--workers must be at least 1, got {workers}")
    if workers > cores:
        raise ExecutionError(f"--workers can be at most {cores} (the cores available here), got {workers}")
    return workers


@dataclass(frozen=True)
class Batch:
    """Results of the chunks that finished, in chunk order, and whether the run was interrupted."""

    results: list[Any]
    interrupted: bool


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the parent, which stops the job and keeps what finished."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Runner:
    """Runs chunk functions in this process, a local process pool or on a Dask cluster.

    Use as a context manager; ``map`` returns results in chunk order whatever ran them. On
    Ctrl-C, ``map`` returns the unbroken run of chunks that finished, flagged ``interrupted``.
    """

    def __init__(self, workers: int | None = 1, scheduler: str | None = None) -> None:
        self.scheduler = scheduler
        self.workers = 1 if scheduler else resolve_workers(workers)
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> Runner:
        if self.scheduler:
            self._start_dask()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def _start_dask(self) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise ExecutionError('a Dask scheduler needs the dist extra: pip install "drawodds[dist]"') from None
        if self.scheduler == LOCAL_DASK:
            self._cluster = local_cluster(available_cores())
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(self.scheduler, timeout="10s")
            except OSError as exc:
                raise ExecutionError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None

    def spreads(self, chunks: int) -> bool:
        """Whether ``chunks`` chunks run outside this process (one chunk always runs here)."""
        return self._client is not None or (self.workers > 1 and chunks > 1)

    def _local_pool(self) -> ProcessPoolExecutor:
        """The process pool, started at its first use and kept for the rest of the command."""
        if self._pool is None:
            # fork: workers start with the tables this process already built, in milliseconds.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                             initializer=_ignore_interrupt)
        return self._pool

    def map(self, fn: Callable[..., T], calls: Sequence[tuple[Any, ...]],
            progress: Callable[[int], None] | None = None,
            each: Callable[[int, T], None] | None = None) -> Batch:
        """``[fn(*args) for args in calls]``, in order; after each finished chunk ``each(i, result)``
        (e.g. to write it out) and ``progress(k)`` with the number finished."""
        done: list[Any] = []
        try:
            for result in self._run(fn, calls):
                done.append(result)
                if each is not None:
                    each(len(done) - 1, result)
                if progress is not None:
                    progress(len(done))
        except KeyboardInterrupt:
            return Batch(done, interrupted=True)
        return Batch(done, interrupted=False)

    def _run(self, fn: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> Iterator[T]:
        if self._client is not None:
            futures = [self._client.submit(fn, *args, pure=False) for args in calls]
            try:
                for future in futures:
                    yield future.result()
            finally:
                self._client.cancel(futures)
        elif self.spreads(len(calls)):
            pool = self._local_pool()
            pending: list[Future[T]] = [pool.submit(fn, *args) for args in calls]
            try:
                for future in pending:
                    yield future.result()
            finally:
                for future in pending:
                    future.cancel()
        else:
            for args in calls:
                yield fn(*args)


def local_cluster(workers: int) -> Any:
    """A Dask LocalCluster of single-threaded worker processes on this machine.

    Its workers keep glibc's adaptive malloc: Dask's default ``MALLOC_TRIM_THRESHOLD_`` turns every
    large numpy temporary into fresh pages, which makes array-heavy chunks about three times slower."""
    import dask
    from dask.distributed import LocalCluster

    environ = {k: v for k, v in dask.config.get("distributed.nanny.pre-spawn-environ").items()
               if k != "MALLOC_TRIM_THRESHOLD_"}
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")
