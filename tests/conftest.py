"""Shared test helpers: a deliberately simple reference evaluator (sort and count, per hand)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest


def reference_key(cards: list[int]) -> tuple:
    """(category 0-8, tie-break ranks) of five distinct cards: slow, obvious, independent."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    by_group = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    groups = [r for r, _ in by_group]
    shape = [n for _, n in by_group]
    flush = len(suits) == 1
    straight_high = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_high = 3
    if straight_high is not None and flush:
        return (8, (straight_high,))
    if shape == [4, 1]:
        return (7, tuple(groups))
    if shape == [3, 2]:
        return (6, tuple(groups))
    if flush:
        return (5, tuple(ranks))
    if straight_high is not None:
        return (4, (straight_high,))
    if shape == [3, 1, 1]:
        return (3, tuple(groups))
    if shape == [2, 2, 1]:
        return (2, tuple(groups))
    if shape == [2, 1, 1, 1]:
        return (1, tuple(groups))
    return (0, tuple(ranks))


@pytest.fixture(scope="session")
def fresh_python():
    """Run Python code in a fresh interpreter that sees only this checkout's package (no other
    environment than the variables given) and return what it printed: ``run(code, *argv, **env)``."""
    src = str(Path(__file__).resolve().parents[1] / "src")

    def run(code: str, *argv: str, **env: str) -> str:
        return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True,
                              env={"PYTHONPATH": src, "PATH": "", **env}).stdout

    return run


@pytest.fixture(scope="session", autouse=True)
def cache_directory(tmp_path_factory):
    """Solutions, abstractions and tables the tests build are kept in one temporary cache, never the
    home: one for the whole run, so a table one test process built is read by the other (a cache
    file is written whole and renamed into place, so a process never reads half of one; the run's
    files take about 50 MB, far below the cache's bound, so none is evicted while another reads it)."""
    import os

    base = tmp_path_factory.getbasetemp()
    path = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "cache"
    path.mkdir(exist_ok=True)
    old = os.environ.get("DRAWODDS_CACHE")
    os.environ["DRAWODDS_CACHE"] = str(path)
    yield path
    if old is None:
        del os.environ["DRAWODDS_CACHE"]
    else:
        os.environ["DRAWODDS_CACHE"] = old


@contextlib.contextmanager
def one_at_a_time(folder: Path, name: str):
    """Hold a lock that the other test processes wait for (where the system offers one): what one
    builds into the shared cache, the next reads back instead of building it again."""
    try:
        import fcntl
    except ImportError:                       # no flock here: each process builds its own
        yield
        return
    with open(folder / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session")
def small_abstraction(cache_directory):
    """A coarse abstraction of heads-up Mørkpoker (24 pre-draw, 12 final buckets), built once for
    the run into the test cache (about six seconds); the other test process reads it back, so
    both hold the same one (the stored file and its build time included)."""
    from drawodds.rules import preset
    from drawodds.solver.cache import cached_abstraction

    with one_at_a_time(cache_directory, "small-abstraction"):
        return cached_abstraction(preset("morkpoker"), 24, 12, 1)


@pytest.fixture(scope="session")
def small_solution(small_abstraction):
    """The equilibrium of that abstraction after 120 iterations of discounted CFR."""
    from drawodds.solver.solve import solve

    return solve(small_abstraction.rules, abstraction=small_abstraction, iterations=120, schedule="dcfr")


@pytest.fixture(scope="session")
def small_table(small_abstraction):
    """A three-handed solution of that abstraction: 30 iterations, one raise a round."""
    from drawodds.solver.table import solve_table

    return solve_table(small_abstraction.rules, abstraction=small_abstraction, iterations=30, raises=1)


@pytest.fixture(scope="session")
def hands_all():
    from drawodds.combinatorics import all_hands

    return all_hands()


@pytest.fixture(scope="session")
def nine_six_plan():
    """The exact 9/6 Jacks-or-Better table (any number of cards drawn) and its printed list,
    condensed once per session (a few seconds)."""
    from drawodds.analyses.condensed import condense
    from drawodds.analyses.strategy import paytable_objective, solve
    from drawodds.rules import preset

    table = solve(paytable_objective(), preset("morkpoker", max_draw="any"))
    return table, condense(table)


# The files whose tests or shared fixtures take longest (measured with --durations): run first, so
# that the two test processes end together instead of one waiting on a long file dealt last.
LONGEST_FIRST = ("test_docs_examples.py", "test_teaching.py", "test_report.py", "test_execution.py",
                 "test_best_response.py", "test_cli_defaults.py", "test_cli_terminal.py", "test_report_languages.py")


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))      # stable: the rest keep their order
