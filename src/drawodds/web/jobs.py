"""Work off the request thread: a job runs one library call on a small pool of threads, reports its
progress, and stops when cancelled (its progress callback raises ``KeyboardInterrupt``, which every
long library call answers by returning what it finished or by stopping)."""

from __future__ import annotations

import contextvars
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from drawodds.errors import DrawoddsError

log = logging.getLogger("drawodds.web")
THREADS = 2          # jobs running at once (the machine's cores do the work; more threads only queue)
QUEUED = 64          # jobs waiting or running at once; another is refused until one ends
KEPT = 256           # finished jobs remembered (their results), oldest forgotten first


class Busy(DrawoddsError):
    """Too many jobs waiting: try again in a moment."""


class Cancelled(KeyboardInterrupt):
    """Raised inside a job's progress callback once the job is cancelled."""


@dataclass
class Job:
    """One library call in the background: its state, progress (0-1), stage words, result or error."""

    kind: str
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    state: str = "queued"            # queued, running, done, failed, cancelled
    progress: float = 0.0
    stage: str = ""
    result: Any = None
    error: Exception | None = None
    started: float = field(default_factory=time.monotonic)
    cancel_event: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    waiters: int = 1                 # requests waiting for it; the last to go away cancels it
    key: str | None = None           # the same call asked again shares this job (and its result)
    body: bytes | None = None        # its result's JSON, once an API request has asked for it

    @property
    def done(self) -> bool:
        return self.finished.is_set()

    def cancel(self) -> None:
        self.cancel_event.set()

    def release(self) -> None:
        """A waiting request went away: cancel the work once nobody waits for it."""
        self.waiters -= 1
        if self.waiters <= 0:
            self.cancel()

    @property
    def reusable(self) -> bool:
        """Running, or finished whole: a request for the same call can take this job's result."""
        if self.cancel_event.is_set() or self.state in ("failed", "cancelled"):
            return False
        return not self.done or not getattr(self.result, "interrupted", False)

    def check(self) -> None:
        """Stop the work here if the job was cancelled."""
        if self.cancel_event.is_set():
            raise Cancelled

    def update(self, done: float, total: float = 1.0) -> None:
        """A progress callback: ``done`` of ``total`` (stops the work if cancelled)."""
        self.check()
        if total > 0:
            self.progress = max(0.0, min(1.0, done / total))


class Jobs:
    """The server's jobs: started, looked up by id, cancelled; a bounded number at a time."""

    def __init__(self, threads: int = THREADS) -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="drawodds-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._keyed: dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(self, kind: str, work: Callable[[Job], Any], key: str | None = None, own_thread: bool = False) -> Job:
        """Run ``work(job)`` on the pool in the caller's context (its language); refuse when too many wait.

        A ``key`` names the call (its options): the same call asked while it runs, or after it
        finished whole, shares that job, since a seeded result is the same every time. Work of
        minutes (a solve, the guide) runs on ``own_thread``, so the pool stays free for the pages."""
        with self._lock:
            same = self._keyed.get(key) if key is not None else None
            if same is not None and same.reusable:
                same.waiters += 1
                self._jobs.move_to_end(same.id)
                return same
            if sum(not j.done for j in self._jobs.values()) >= QUEUED:
                raise Busy("the server is busy with {count} pieces of work: try again in a moment", count=QUEUED)
            job = Job(kind, key=key)
            self._jobs[job.id] = job
            if key is not None:
                self._keyed[key] = job
            while len(self._jobs) > KEPT:
                oldest = next(iter(self._jobs.values()))
                if not oldest.done:
                    break
                del self._jobs[oldest.id]
                if oldest.key is not None and self._keyed.get(oldest.key) is oldest:
                    del self._keyed[oldest.key]
        context = contextvars.copy_context()
        if own_thread:
            threading.Thread(target=context.run, args=(self._run, job, work), name=f"drawodds-{kind}",
                             daemon=True).start()
        else:
            self._pool.submit(context.run, self._run, job, work)
        return job

    @staticmethod
    def _run(job: Job, work: Callable[[Job], Any]) -> None:
        try:
            job.check()
            job.state = "running"
            job.result = work(job)
            job.progress = 1.0
            job.state = "cancelled" if job.cancel_event.is_set() else "done"
        except KeyboardInterrupt:
            job.state = "cancelled"
        except Exception as exc:     # kept for the request that asks; a DrawoddsError is the user's
            job.error = exc
            job.state = "failed"
            if not isinstance(exc, DrawoddsError):
                log.error("drawodds serve: %s failed: %s: %s", job.kind, type(exc).__name__, exc)
        finally:
            job.finished.set()

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def running(self, kind: str) -> Job | None:
        """The unfinished job of ``kind``, if any (the one solve or guide at a time)."""
        with self._lock:
            return next((j for j in reversed(self._jobs.values()) if j.kind == kind and not j.done), None)

    def shutdown(self) -> None:
        with self._lock:
            for job in self._jobs.values():
                job.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
