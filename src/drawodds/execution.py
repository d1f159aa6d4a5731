"""One way to run Monte Carlo work: fixed chunks, each with its own random stream.

A job is cut into chunks of a fixed size; chunk ``i`` draws from
``SeedSequence(seed, spawn_key=(i,))`` and the chunks are combined in index order, so the answer
for a seed is the same, bit for bit, on one process, a local pool of any size, or a Dask
cluster. A ``Runner`` is started once per command and reused by every batch of chunks.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from drawodds.errors import DrawoddsError

if TYPE_CHECKING:   # the pool's modules load when a pool starts: the command line starts without them
    from concurrent.futures import Future, ProcessPoolExecutor

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
        raise ExecutionError("{workers} must be at least 1, got {value}", "workers", value=workers)
    if workers > cores:
        raise ExecutionError("{workers} can be at most {cores} (the cores available here), got {value}",
                             "workers", cores=cores, value=workers)
    return workers


@dataclass(frozen=True)
class Batch:
    """Results of the chunks that finished, in chunk order, and whether the run was interrupted."""

    results: list[Any]
    interrupted: bool


POOL_START = 0.3    # seconds a pool of workers costs to start and feed: it pays only for work that saves more
FORK_START = 0.02   # seconds one forked helper costs (the fork, its first page copies, its results sent back)
STOP_GRACE = 1.0    # seconds the workers get after Ctrl-C to hand back what they have; then they are killed

# In a worker process: the job's stop flag (set by the parent on Ctrl-C) and whether a chunk is running.
_stop: Any = None
_in_chunk = False


PR_SET_PDEATHSIG = 1    # Linux prctl option: the signal this process gets when its parent ends


def die_with_parent(parent: int) -> None:
    """In a child process: be killed when the parent ends, however it ends (even by SIGKILL), so no
    worker is ever left behind computing for nobody. Linux only (elsewhere the pool's pipes end it)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:      # the parent ended before the request was made
        os._exit(1)


def _worker_start(stop: Any, parent: int) -> None:
    """A worker's set-up: Ctrl-C (or SIGTERM) stops the chunk it is running, no chunk starts once the job
    is stopped, and the worker dies with its parent."""
    global _stop
    _stop = stop
    die_with_parent(parent)
    signal.signal(signal.SIGINT, _worker_interrupt)
    signal.signal(signal.SIGTERM, _worker_interrupt)


def _worker_interrupt(signum: int, frame: Any) -> None:
    """SIGINT in a worker: once per chunk, a KeyboardInterrupt inside it (a chunk may keep what it has done);
    between chunks it is ignored, so the worker itself carries on until the parent ends it."""
    global _in_chunk
    if _in_chunk:
        _in_chunk = False
        raise KeyboardInterrupt


def _worker_call(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    """Run one chunk in a worker, unless the job has been stopped while it waited."""
    global _in_chunk
    if _stop is not None and _stop.is_set():
        raise KeyboardInterrupt
    _in_chunk = True
    try:
        return fn(*args)
    finally:
        _in_chunk = False


class Runner:
    """Runs chunk functions in this process, a local process pool or on a Dask cluster.

    Use as a context manager; ``map`` returns results in chunk order whatever ran them. A job
    that one process finishes sooner than a pool (its first chunk tells) runs here. On Ctrl-C,
    ``map`` stops the workers within about ``STOP_GRACE`` seconds and returns the unbroken run of
    chunks that finished (a chunk may hand back the part it finished), flagged ``interrupted``.
    """

    def __init__(self, workers: int | None = 1, scheduler: str | None = None) -> None:
        self.scheduler = scheduler
        self.workers = 1 if scheduler else resolve_workers(workers)
        self._pool: ProcessPoolExecutor | None = None
        self._stop: Any = None
        self._client: Any = None
        self._cluster: Any = None
        self._interrupted = False

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
            if self._interrupted:   # its workers may be busy with chunks nobody waits for: end them now
                for nanny in list(getattr(self._cluster, "workers", {}).values()):
                    pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
                    if pid:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(pid, signal.SIGKILL)
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
                raise ExecutionError("cannot reach the Dask scheduler at {address}: {reason}", address=self.scheduler,
                                     reason=exc) from None

    def spreads(self, chunks: int) -> bool:
        """Whether ``chunks`` chunks may run outside this process (one chunk always runs here)."""
        return self._client is not None or (self.workers > 1 and chunks > 1)

    def _local_pool(self) -> ProcessPoolExecutor:
        """The process pool, started at its first use and kept for the rest of the command."""
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # fork: workers start with the tables this process already built, in milliseconds.
            context = multiprocessing.get_context("fork")
            self._stop = context.Event()
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_worker_start,
                                             initargs=(self._stop, os.getpid()))
        return self._pool

    def map(self, fn: Callable[..., T], calls: Sequence[tuple[Any, ...]],
            progress: Callable[[int], None] | None = None,
            each: Callable[[int, T], None] | None = None, long: bool = False) -> Batch:
        """``[fn(*args) for args in calls]``, in order; after each finished chunk ``each(i, result)``
        (e.g. to write it out, or raise ``KeyboardInterrupt`` to stop) and ``progress(k)`` with the
        number finished. After Ctrl-C, ``each`` also sees the chunks that finished after one that
        did not, though ``results`` holds only the unbroken run from the first chunk. ``long``: every
        call is known to be long, so a pool starts at once (the first one is not timed here first)."""
        done: list[Any] = []

        def take(result: Any) -> None:
            done.append(result)
            if each is not None:
                each(len(done) - 1, result)
            if progress is not None:
                progress(len(done))

        def late(index: int, result: Any) -> None:
            if each is not None:
                each(index, result)

        try:
            if self._client is not None:
                self._dask_map(fn, calls, take, late)
            elif self.spreads(len(calls)):
                self._pool_map(fn, calls, take, late, long)
            else:
                for args in calls:
                    take(fn(*args))
        except KeyboardInterrupt:
            return Batch(done, interrupted=True)
        return Batch(done, interrupted=False)

    def _pool_map(self, fn: Callable[..., T], calls: Sequence[tuple[Any, ...]],
                  take: Callable[[Any], None], late: Callable[[int, Any], None], long: bool) -> None:
        start = 0
        if self._pool is None and len(calls) > 2 * self.workers and not long:
            # The first chunk runs here and tells what the rest costs on one process (in CPU time:
            # other programs' load must not make a small job look big).
            clock = time.process_time()
            take(fn(*calls[0]))
            start = 1
            rest = (time.process_time() - clock) * (len(calls) - 1)     # seconds on this process
            if rest * (1 - 1 / self.workers) < POOL_START:
                if rest / 2 > FORK_START and hasattr(os, "fork"):
                    _helped(fn, calls[1:], take)
                else:
                    for args in calls[1:]:
                        take(fn(*args))
                return
        pool = self._local_pool()
        futures: list[Future[T]] = []
        handover = _Handover(take)
        try:
            futures += (pool.submit(_worker_call, fn, args) for args in calls[start:])
            handover.all(futures)
        except KeyboardInterrupt:
            self._halt_pool(futures, STOP_GRACE)
            finished = [not f.cancelled() and f.done() and f.exception() is None for f in futures]
            _wind_up([f.result() if ok else None for f, ok in zip(futures, finished, strict=True)],
                     finished, handover.taken, handover.taking, start, take, late)
            raise
        except BaseException:
            self._halt_pool(futures, 0.0)
            raise

    def _halt_pool(self, futures: Sequence[Future[Any]], grace: float) -> None:
        """Stop a job on the pool: nothing new starts, running chunks are interrupted and get ``grace``
        seconds to hand back what they have, then any worker still busy is killed. The pool is
        dropped; a later ``map`` starts a new one."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        self._stop.set()
        for future in futures:
            future.cancel()
        processes = list(getattr(pool, "_processes", {}).values())
        for process in processes:
            try:
                os.kill(process.pid, signal.SIGINT)
            except (ProcessLookupError, TypeError):
                pass
        from concurrent.futures import wait

        try:
            wait([f for f in futures if not f.done()], timeout=grace)
        except KeyboardInterrupt:   # a second Ctrl-C: no more waiting
            pass
        if not all(f.done() for f in futures):
            for process in processes:
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def _dask_map(self, fn: Callable[..., T], calls: Sequence[tuple[Any, ...]],
                  take: Callable[[Any], None], late: Callable[[int, Any], None]) -> None:
        futures = [self._client.submit(fn, *args, pure=False) for args in calls]
        handover = _Handover(take)
        try:
            handover.all(futures)
        except KeyboardInterrupt:
            # A task already running on a Dask worker cannot be stopped: a remote cluster is left to
            # end it; the workers of a cluster started here are killed when the runner closes.
            self._interrupted = True
            self._client.cancel(futures)
            finished = [f.status == "finished" for f in futures]
            _wind_up([f.result() if ok else None for f, ok in zip(futures, finished, strict=True)],
                     finished, handover.taken, handover.taking, 0, take, late)
            raise
        finally:
            self._client.cancel(futures)


def _helped(fn: Callable[..., T], calls: Sequence[tuple[Any, ...]], take: Callable[[Any], None]) -> None:
    """``take(fn(*args))`` for every call in order, the last half computed meanwhile by a forked helper.

    The fork starts in a millisecond with everything this process has built, so a job too short for
    a pool still gets a second core. The helper hands its results back through a pipe; if it fails,
    its chunks run here (the same answer). Ctrl-C ends it at once: a chunk is short here, so the
    run keeps the chunks this process finished."""
    import pickle

    half = len(calls) // 2
    mine, theirs = calls[:len(calls) - half], calls[len(calls) - half:]
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:    # the helper: compute, send, and leave without running the parent's exit handlers
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            die_with_parent(parent)
            data = pickle.dumps([fn(*args) for args in theirs], protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(data)
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as pipe:
            for args in mine:
                take(fn(*args))
            data = pipe.read()
        os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:     # interrupted or failed: the helper's work is not wanted
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    try:
        results = pickle.loads(data)
    except Exception:       # the helper failed (its error, if any, comes again here)
        results = [fn(*args) for args in theirs]
    for result in results:
        take(result)


WAKE = 0.1   # seconds between looks at a signal while waiting for a chunk


def _result(future: Any) -> Any:
    """``future.result()``, waited for in short steps: a signal sent to this process alone may be taken
    by one of the pool's threads, and the main thread acts on it only when its wait returns. The steps
    wait on an event the future sets when done, never on ``result(timeout=...)``: Dask's timed
    ``result`` can cancel the future it times out on."""
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    while not done.wait(WAKE):
        pass
    return future.result()


@dataclass
class _Handover:
    """Hands finished chunks to ``take`` in chunk order, and knows how far that got when Ctrl-C came:
    the chunks taken, and whether one was being taken at that moment."""

    take: Callable[[Any], None]
    taken: int = 0
    taking: bool = False

    def all(self, futures: Iterable[Any]) -> None:
        for future in futures:
            result = _result(future)
            self.taken, self.taking = self.taken + 1, True
            self.take(result)
            self.taking = False


def _wind_up(results: list[Any], finished: list[bool], taken: int, taking: bool, start: int,
             take: Callable[[Any], None], late: Callable[[int, Any], None]) -> None:
    """After Ctrl-C: the chunks after the ``taken`` ones that finished (or handed back a part) join
    the unbroken run while there is no gap (and Ctrl-C did not come while one was being taken);
    the ones after a gap go to ``late`` with their chunk index (``start`` + position). ``take`` or
    ``late`` may raise ``KeyboardInterrupt`` to stop."""
    unbroken = not taking
    try:
        for position in range(taken, len(results)):
            if not finished[position]:
                unbroken = False
            elif unbroken:
                take(results[position])
            else:
                late(start + position, results[position])
    except KeyboardInterrupt:
        pass


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
