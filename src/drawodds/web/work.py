"""Work of minutes (solving the heads-up game, writing the guide) in a child process of its own.

A child process can be stopped anywhere: cancelling sends it SIGINT, the Ctrl-C that the library
answers everywhere (a solve keeps what it finished, the guide writes nothing), and ends it if it
has not stopped within ``GRACE`` seconds (a long numpy step only sees the Ctrl-C when it ends), so
a cancelled job is over in two seconds at most. Its progress comes back over a queue as
``(stage words, fraction)``; the child speaks the language of the request that started it.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import queue
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drawodds import i18n
from drawodds.cli.errors import message
from drawodds.cli.options import build_rules
from drawodds.errors import DrawoddsError, RequestError
from drawodds.execution import die_with_parent
from drawodds.web.jobs import Job

GRACE = 1.0         # seconds a cancelled child has to stop before it is ended
Report = Callable[[str, float], None]


def _solve_progress(report: Report, target: float) -> tuple[Callable[[Any], None], Report]:
    """A solve's checkpoint and stage callbacks as a job's report: the iteration, and how far the
    exploitability has come down towards ``target`` on a log scale."""
    first: list[float] = []

    def checkpoint(point: Any) -> None:
        done = 0.0
        if math.isfinite(point.exploitability) and point.exploitability > 0:
            first.append(point.exploitability)
            if first[0] > target:
                done = math.log(first[0] / point.exploitability) / math.log(first[0] / target)
        report(i18n.gettext("CFR: iteration {n}").format(n=i18n.number(point.iteration, grouped=True)),
               min(max(done, 0.0), 1.0))

    def stage(text: str, done: float) -> None:
        report(i18n.gettext(text), done)

    return checkpoint, stage


def solve_equilibrium(report: Report, rules: str) -> None:
    """Solve and cache the heads-up equilibrium of ``rules`` (as ``keep --policy equilibrium`` would)."""
    from drawodds.solver.settings import DEFAULT_EXPLOITABILITY
    from drawodds.solver.solve import equilibrium_solution

    checkpoint, stage = _solve_progress(report, DEFAULT_EXPLOITABILITY)
    solution = equilibrium_solution(build_rules(rules), progress=checkpoint, stage=stage)
    if solution.interrupted:
        raise KeyboardInterrupt


def solve_table_equilibrium(report: Report, rules: str) -> None:
    """Solve and cache the three-handed solution of ``rules`` (as ``solve --players 3`` would)."""
    from drawodds.solver.table import TABLE_SETTINGS, table_equilibrium

    checkpoint, stage = _solve_progress(report, TABLE_SETTINGS.exploitability)
    solution = table_equilibrium(build_rules(rules), progress=checkpoint, stage=stage)
    if solution.interrupted:
        raise KeyboardInterrupt


def write_guide(report: Report, folder: str, quick: bool) -> None:
    """Write the player's guide into ``folder`` (the server's own)."""
    from drawodds.charts.report import report as write

    write(Path(folder), quick=quick, progress=report, force=True)


def _child(target: Callable[..., None], args: tuple[Any, ...], lang: str, out: Any, parent: int) -> None:
    """The child process: run ``target(report, *args)`` and say how it ended; it dies with the server."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def report(stage: str, fraction: float) -> None:
        out.put(("progress", str(stage), float(fraction)))

    try:
        with i18n.use(lang):
            try:
                target(report, *args)
            except DrawoddsError as exc:
                out.put(("error", message(exc), 0.0))
                return
        out.put(("done", "", 1.0))
    except KeyboardInterrupt:
        out.put(("cancelled", "", 0.0))
    except Exception as exc:       # a bug: the parent logs it
        out.put(("bug", f"{type(exc).__name__}: {exc}", 0.0))


def run_in_child(job: Job, target: Callable[..., None], *args: Any) -> None:
    """Run ``target`` in a child process for ``job`` (on the job's thread): progress, cancel, outcome."""
    context = multiprocessing.get_context("spawn")      # a fresh interpreter: the server's threads stay behind
    out = context.Queue()
    # not daemonic: the guide starts a worker pool of its own, which a daemonic process may not do
    child = context.Process(target=_child, args=(target, args, i18n.language(), out, os.getpid()), daemon=False)
    child.start()
    stopped_at: float | None = None
    outcome = ("bug", "the work ended without a word", 0.0)
    try:
        while True:
            if job.cancel_event.is_set() and stopped_at is None and child.pid is not None:
                stopped_at = time.monotonic()
                os.kill(child.pid, signal.SIGINT)
            if stopped_at is not None and time.monotonic() - stopped_at > GRACE:
                child.terminate()
                outcome = ("cancelled", "", 0.0)
                break
            try:
                kind, text, fraction = out.get(timeout=0.1)
            except queue.Empty:
                if not child.is_alive():
                    if stopped_at is not None:
                        outcome = ("cancelled", "", 0.0)
                    break
                continue
            if kind == "progress":
                job.stage, job.progress = text, fraction
            else:
                outcome = (kind, text, fraction)
                break
    finally:
        child.join(GRACE)
        if child.is_alive():
            child.kill()
            child.join(GRACE)
    kind, text, _ = outcome
    if kind == "cancelled":
        raise KeyboardInterrupt
    if kind == "error":
        raise RequestError(text)
    if kind == "bug":
        raise RuntimeError(text)
