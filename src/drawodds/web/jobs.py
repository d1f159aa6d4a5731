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
QUEUED = 16          # jobs waiting or running at once; another is refused until one ends
PER_CLIENT = 4       # jobs waiting or running at once for one browser (or one address without cookies)
KEPT = 256           # finished jobs remembered (their results), oldest forgotten first
LEASE = 5.0          # seconds a page's job runs on after its page last asked about it


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
    waiters: int = 0                 # requests waiting for it; the last to go away cancels it
    lease: float = field(default_factory=lambda: time.monotonic() + LEASE)   # until when it runs with nobody waiting
    owner: str = ""                  # the browser (or address) that asked for it
    long: bool = False               # work of minutes in a child process (a solve, the guide): one at a time
    key: str | None = None           # the same call asked again shares this job (and its result)
    body: bytes | None = None        # its result's JSON, once an API request has asked for it

    @property
    def done(self) -> bool:
        return self.finished.is_set()

    def cancel(self) -> None:
        self.cancel_event.set()

    def release(self) -> None:
        """A waiting request went away: cancel the work once nobody waits for it or asks about it."""
        self.waiters -= 1
        if self.abandoned:
            self.cancel()

    def renew(self, seconds: float = LEASE) -> None:
        """A page asked about this job: let it run on ``seconds`` more with nobody waiting."""
        self.lease = max(self.lease, time.monotonic() + seconds)

    @property
    def abandoned(self) -> bool:
        """Unfinished, and nobody waits for it or has asked about it lately (long work runs on its own)."""
        return not self.long and not self.done and self.waiters <= 0 and time.monotonic() >= self.lease

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
        self._watcher: threading.Thread | None = None
        self._closed = threading.Event()

    def start(self, kind: str, work: Callable[[Job], Any], key: str | None = None, long: bool = False,
              owner: str = "") -> Job:
        """Run ``work(job)`` on the pool in the caller's context (its language); refuse when too many wait.

        A ``key`` names the call (its options): the same call asked while it runs, or after it
        finished whole, shares that job, since a seeded result is the same every time. Work of
        minutes (a solve, the guide) is ``long``: it runs on a thread of its own, so the pool stays
        free for the pages, and one at a time for the whole server. ``owner`` (a browser) may have
        ``PER_CLIENT`` jobs unfinished at once."""
        with self._lock:
            same = self._keyed.get(key) if key is not None else None
            if same is not None and same.reusable:
                same.renew()
                self._jobs.move_to_end(same.id)
                return same
            unfinished = [j for j in self._jobs.values() if not j.done]
            if long and any(j.long for j in unfinished):
                raise Busy("the server is already solving or writing the guide: wait for it or cancel it")
            if len(unfinished) >= QUEUED:
                raise Busy("the server is busy with {count} pieces of work: try again in a moment", count=QUEUED)
            if owner and sum(j.owner == owner for j in unfinished) >= PER_CLIENT:
                raise Busy("this page already has {count} pieces of work running: wait for them or cancel one",
                           count=PER_CLIENT)
            job = Job(kind, key=key, owner=owner, long=long)
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
        self._watch()
        if long:
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

    def _watch(self) -> None:
        """Start the thread that cancels the jobs nobody asks about any more (if it is not running)."""
        with self._lock:
            if self._watcher is not None and self._watcher.is_alive():
                return
            self._watcher = threading.Thread(target=self._cancel_abandoned, name="drawodds-jobs", daemon=True)
            self._watcher.start()

    def _cancel_abandoned(self) -> None:
        while not self._closed.wait(0.25):
            with self._lock:
                unfinished = [j for j in self._jobs.values() if not j.done]
                if not unfinished:
                    self._watcher = None
                    return
            for job in unfinished:
                if job.abandoned:
                    job.cancel()

    def busy(self) -> list[Job]:
        """The jobs not finished yet."""
        with self._lock:
            return [j for j in self._jobs.values() if not j.done]

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def running(self, kind: str) -> Job | None:
        """The unfinished job of ``kind``, if any (the one solve or guide at a time)."""
        with self._lock:
            return next((j for j in reversed(self._jobs.values()) if j.kind == kind and not j.done), None)

    def running_long(self) -> Job | None:
        """The long job running (a solve or the guide), if any."""
        with self._lock:
            return next((j for j in self._jobs.values() if j.long and not j.done), None)

    def shutdown(self) -> None:
        self._closed.set()
        with self._lock:
            for job in self._jobs.values():
                job.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
