"""The execution layer: the same chunks and streams give the same answer on any runner."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from drawodds.execution import (
    STOP_GRACE,
    ExecutionError,
    Runner,
    available_cores,
    chunk_rng,
    chunk_sizes,
    local_cluster,
    resolve_workers,
)


def _chunk_sum(seed: int, index: int, size: int) -> float:
    return float(chunk_rng(seed, index).standard_normal(size).sum())


def _job(runner: Runner, seed: int = 7, total: int = 10_001, chunk: int = 1_000) -> list[float]:
    calls = [(seed, i, n) for i, n in enumerate(chunk_sizes(total, chunk))]
    return runner.map(_chunk_sum, calls).results


def test_chunks_cover_the_total_and_streams_differ_per_chunk():
    assert chunk_sizes(10_001, 1_000) == [1_000] * 10 + [1]
    assert chunk_sizes(3_000, 1_000) == [1_000] * 3
    assert chunk_rng(1, 0).random() != chunk_rng(1, 1).random()
    assert chunk_rng(1, 3).random() == chunk_rng(1, 3).random()


def test_one_worker_and_a_pool_give_identical_results():
    with Runner(1) as one:
        serial = _job(one)
    with Runner(min(2, available_cores())) as pool:
        parallel = _job(pool)
    assert serial == parallel and len(serial) == 11


@pytest.fixture(scope="module")
def cluster_address():
    """A Dask LocalCluster of two worker processes, shared by this module's tests (as ``--dask`` starts one)."""
    pytest.importorskip("dask.distributed")
    cluster = local_cluster(2)
    with cluster:
        yield cluster.scheduler_address


def test_a_dask_local_cluster_gives_identical_results(cluster_address):
    with Runner(1) as one:
        serial = _job(one)
    with Runner(scheduler=cluster_address) as dask:
        assert dask.spreads(1)
        assert _job(dask) == serial


def test_worker_counts_are_checked():
    assert resolve_workers(None) == available_cores()
    for bad in (0, -2, available_cores() + 1, 1_000_000):
        with pytest.raises(ExecutionError, match="^workers"):
            resolve_workers(bad)


def test_progress_counts_finished_chunks():
    seen: list[int] = []
    with Runner(1) as one:
        batch = one.map(_chunk_sum, [(1, i, 10) for i in range(4)], progress=seen.append)
    assert seen == [1, 2, 3, 4] and not batch.interrupted
    assert np.isfinite(batch.results).all()


def test_keep_and_simulate_give_the_same_answer_on_one_and_two_workers_and_on_dask(cluster_address):
    import drawodds
    from drawodds.engine.session import simulate
    from drawodds.rules import preset

    def keep_answer(**where):
        d = drawodds.keep("AsAhKs7s3s", opponents=2, trials=60_000, seed=3, **where).to_dict()
        d.pop("workers")
        return d

    def sim_answer(**where):
        return simulate(preset("morkpoker", players=3), deals=12_000, seed=2, players="station", **where).to_dict()

    one_keep, one_sim = keep_answer(workers=1), sim_answer(workers=1)
    assert keep_answer(workers=2) == one_keep and sim_answer(workers=2) == one_sim
    assert keep_answer(scheduler=cluster_address) == one_keep
    assert sim_answer(scheduler=cluster_address) == one_sim


def test_the_solver_abstraction_is_the_same_on_one_and_two_workers_and_on_dask(small_abstraction, cluster_address):
    from drawodds.rules import preset
    from drawodds.solver.abstraction import build_abstraction

    one = small_abstraction                      # 24 x 12 buckets, one field round, built on one process
    arrays = ("class_bucket", "class_holds", "class_natural", "prior", "transitions", "legal_draws", "openers",
              "pattern", "final_of_strength", "final_mass")
    for where in ({"workers": min(2, available_cores())}, {"scheduler": cluster_address}):
        other = build_abstraction(preset("morkpoker"), 24, 12, 1, **where)
        assert other.pattern_names == one.pattern_names
        for name in arrays:
            a, b = getattr(one, name), getattr(other, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), (where, name)


def _slow_chunk(kind: str, marker: str) -> str:
    """A test chunk: 'quick' returns at once; 'slow' works for a minute; 'partial' works until Ctrl-C
    and hands back what it has; 'stubborn' ignores Ctrl-C (as a long call into C would); 'late'
    records that it started."""
    if kind == "quick":
        return kind
    if kind == "late":
        Path(marker).write_text("started")
        return kind
    if kind == "slow":
        time.sleep(60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            time.sleep(0.01)
        except KeyboardInterrupt:
            if kind == "partial":
                return "partial"
    return kind


@pytest.fixture
def ctrl_c():
    """Ctrl-C for this process after a delay, as a terminal would send it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timers: list[threading.Timer] = []

    def after(seconds: float) -> None:
        timers.append(threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT)))
        timers[-1].start()

    yield after
    for t in timers:
        t.cancel()
    signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_ctrl_c_stops_the_pool_at_once_and_keeps_what_finished(ctrl_c, tmp_path):
    marker = str(tmp_path / "late")
    calls = [("quick", marker), ("partial", marker), ("stubborn", marker), ("late", marker)]   # all on the pool
    with Runner(2) as pool:
        ctrl_c(1.0)
        start = time.monotonic()
        batch = pool.map(_slow_chunk, calls)
        stopped = time.monotonic() - start
        assert pool._pool is None            # the workers are gone; a later map starts new ones
        assert pool.map(_chunk_sum, [(1, i, 10) for i in range(2)]).results == [_chunk_sum(1, i, 10) for i in range(2)]
    assert batch.interrupted
    assert batch.results == ["quick", "partial"]     # the part the running chunk handed back is kept
    assert stopped < 1.0 + STOP_GRACE + 1.0          # the stubborn worker was killed after the grace
    assert not Path(marker).exists()                 # no chunk started after Ctrl-C


def test_ctrl_c_on_one_process_keeps_the_chunks_that_finished(ctrl_c):
    with Runner(1) as one:
        ctrl_c(0.5)
        batch = one.map(_slow_chunk, [("quick", ""), ("quick", ""), ("slow", ""), ("quick", "")])
    assert batch.interrupted and batch.results == ["quick", "quick"]


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_small_jobs_stay_in_this_process_and_give_the_same_answer():
    with Runner(2) as pool:
        small = _job(pool, total=10_000, chunk=1_000)     # ten tiny chunks: no pool pays for them
        assert pool._pool is None
    with Runner(1) as one:
        assert small == _job(one, total=10_000, chunk=1_000)


def _busy_sum(seed: int, index: int, size: int) -> float:
    start = time.process_time()
    while time.process_time() - start < 0.2:   # a fifth of a second of work
        pass
    return _chunk_sum(seed, index, size)


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_a_job_that_pays_for_a_pool_gets_one_after_its_first_chunk_with_the_same_answer():
    calls = [(5, i, 100) for i in range(6)]   # 0.2 s a chunk: the other five would take 1 s on one process
    with Runner(2) as pool:
        spread = pool.map(_busy_sum, calls).results
        assert pool._pool is not None
    assert spread == [_chunk_sum(*c) for c in calls]


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_after_ctrl_c_each_also_sees_the_chunks_that_finished_after_a_gap(ctrl_c):
    seen: list[tuple[int, str]] = []
    with Runner(2) as pool:
        ctrl_c(1.0)
        batch = pool.map(_slow_chunk, [("stubborn", ""), ("quick", ""), ("partial", "")],
                         each=lambda i, result: seen.append((i, result)))
    assert batch.interrupted and batch.results == []      # the first chunk never finished
    assert seen == [(1, "quick"), (2, "partial")]          # e.g. to write out every part that is done


def _helped_chunk(seed: int, index: int, kind: str, parent: int, marker: str) -> tuple[float, bool]:
    """A test chunk of a job short enough for a forked helper: 'busy' works 0.05 CPU seconds; 'slow'
    sleeps a minute (until Ctrl-C); 'fragile' fails outside the parent process. Returns its value
    and whether the helper computed it."""
    helper = os.getpid() != parent
    if kind == "busy":
        start = time.process_time()
        while time.process_time() - start < 0.05:
            pass
    elif kind == "slow":
        if helper:
            Path(marker).write_text(str(os.getpid()))
        time.sleep(60)
    elif kind == "fragile" and helper:
        raise RuntimeError("a helper failed")
    return _chunk_sum(seed, index, 10), helper


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_a_job_too_short_for_a_pool_gets_a_forked_helper_with_the_same_answer():
    calls = [(4, i, "busy", os.getpid(), "") for i in range(7)]   # 0.3 s left after the first chunk
    with Runner(2) as two:
        batch = two.map(_helped_chunk, calls)
        assert two._pool is None
    assert [value for value, _ in batch.results] == [_chunk_sum(4, i, 10) for i in range(7)]
    assert [helper for _, helper in batch.results] == [False] * 4 + [True] * 3   # the last half was helped


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_a_failing_helper_leaves_its_chunks_to_this_process():
    calls = [(4, i, "busy" if i < 4 else "fragile", os.getpid(), "") for i in range(7)]
    with Runner(2) as two:
        batch = two.map(_helped_chunk, calls)
    assert batch.results == [(_chunk_sum(4, i, 10), False) for i in range(7)]


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores")
def test_ctrl_c_stops_a_helped_job_and_its_helper_at_once(ctrl_c, tmp_path):
    marker = tmp_path / "helper"
    kinds = ["busy", "busy", "slow", "busy", "busy", "slow"]   # this process stops in its third chunk
    calls = [(4, i, kind, os.getpid(), str(marker)) for i, kind in enumerate(kinds)]
    with Runner(2) as two:
        ctrl_c(1.0)
        start = time.monotonic()
        batch = two.map(_helped_chunk, calls)
        stopped = time.monotonic() - start
    assert batch.interrupted and batch.results == [(_chunk_sum(4, i, 10), False) for i in range(2)]
    assert stopped < 3.0
    helper = int(marker.read_text())          # the helper had reached its sleeping chunk: it is gone
    with pytest.raises(ProcessLookupError):
        os.kill(helper, 0)
