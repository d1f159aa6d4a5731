"""Solving: build (or read) the abstraction and the tree, run CFR, and keep the equilibrium in the cache."""

from __future__ import annotations

import contextlib
import dataclasses
import warnings
from pathlib import Path

from drawodds import paths
from drawodds.errors import FIELD_ROUNDS, FINAL_BUCKETS, PRE_BUCKETS, SOLVE_ITERATIONS, RequestError, check_positive
from drawodds.execution import Runner, Stage
from drawodds.rules import RuleSet
from drawodds.solver import cfr, store
from drawodds.solver.abstraction import Abstraction, _no_stage, build_abstraction, check_rules
from drawodds.solver.cache import (
    cached_abstraction,
    equilibrium_path,
    store_in_cache,
)
from drawodds.solver.game import build_game
from drawodds.solver.settings import DEFAULT_EXPLOITABILITY, DEFAULT_SETTINGS
from drawodds.solver.solution import DrawSolution, load_solution, save_solution

MAX_ITERATIONS = 100_000      # the iteration limit when only an exploitability is given


def check_solve_options(*, schedule: str, iterations: int | None, exploitability: float | None,
                        seconds: float | None, pre_buckets: int, final_buckets: int, rounds: int) -> None:
    """The checks every solve makes of its options, heads-up or at a table, before any work."""
    if schedule not in cfr.SCHEDULES:
        raise RequestError("{schedule} must be one of {choices}, got {value}", "schedule",
                           choices=', '.join(cfr.SCHEDULES), value=repr(schedule))
    SOLVE_ITERATIONS.check(iterations)
    check_positive(exploitability, "exploitability")
    check_positive(seconds, "seconds")
    PRE_BUCKETS.check(pre_buckets)
    FINAL_BUCKETS.check(final_buckets)
    FIELD_ROUNDS.check(rounds)


def solve(rules: RuleSet, *, pre_buckets: int = DEFAULT_SETTINGS.pre_buckets,
          final_buckets: int = DEFAULT_SETTINGS.final_buckets, iterations: int | None = None,
          exploitability: float | None = None, seconds: float | None = None, schedule: str = "dcfr",
          raises: int | None = None, abstraction: Abstraction | None = None,
          progress: cfr.Progress | None = None, rounds: int = DEFAULT_SETTINGS.rounds, cache: bool = True,
          stage: Stage | None = None, workers: int | None = None, scheduler: str | None = None,
          runner: Runner | None = None) -> DrawSolution:
    """Solve heads-up draw under ``rules`` in the abstract game.

    Runs CFR (``schedule`` "cfr+" or "dcfr") for at most ``iterations`` (default 100,000),
    stopping early once the exploitability is at most ``exploitability`` antes per deal (with
    neither limit given, the default settings' 0.0002: 0.2 milli-antes) or after ``seconds`` (or at
    Ctrl-C, with what it has: ``interrupted``). An ``abstraction`` built earlier for the same rules
    can be passed in to skip building it; ``cache`` keeps the one built here in the cache directory
    (``cached_abstraction``) and reads it from there next time. ``stage`` hears the steps of the
    abstraction build, whose heavy passes run on ``workers`` (None: every core), ``scheduler`` or
    ``runner`` (``build_abstraction``; CFR runs here).
    """
    check_solve_options(schedule=schedule, iterations=iterations, exploitability=exploitability, seconds=seconds,
                        pre_buckets=pre_buckets, final_buckets=final_buckets, rounds=rounds)
    if iterations is None and exploitability is None:
        exploitability = DEFAULT_EXPLOITABILITY
    iterations = MAX_ITERATIONS if iterations is None else iterations
    check_rules(rules)
    if abstraction is None:
        build = cached_abstraction if cache else build_abstraction
        abstraction = build(rules, pre_buckets, final_buckets, rounds, stage=stage or _no_stage,
                            workers=workers, scheduler=scheduler, runner=runner)
    elif abstraction.rules != rules:
        raise ValueError("the abstraction was built for other rules")
    game = build_game(abstraction, raises)
    run = cfr.solve_tree(game.tree, iterations=iterations, exploitability=exploitability, seconds=seconds,
                         schedule=cfr.SCHEDULES[schedule], progress=progress or (lambda c: None))
    return DrawSolution(rules, abstraction, game, run.strategy, (run.value, -run.value), run.exploitability,
                        run.evaluation.nash_conv, run.iterations, run.seconds, abstraction.seconds, schedule,
                        game.max_bets - 1, run.curve, run.interrupted)


def equilibrium_solution(rules: RuleSet, *, exploitability: float = DEFAULT_EXPLOITABILITY,
                         pre_buckets: int = DEFAULT_SETTINGS.pre_buckets,
                         final_buckets: int = DEFAULT_SETTINGS.final_buckets, rounds: int = DEFAULT_SETTINGS.rounds,
                         directory: Path | None = None, progress: cfr.Progress | None = None,
                         stage: Stage = _no_stage, workers: int | None = 1, scheduler: str | None = None,
                         runner: Runner | None = None) -> DrawSolution:
    """The heads-up equilibrium of ``rules``, solved once to ``exploitability`` antes per deal and
    kept in the cache directory; later calls read the stored file (``equilibrium_cached`` tells
    which). A missing abstraction is built on ``workers``, ``scheduler`` or ``runner``; a damaged
    stored file is solved again, with a ``paths.CacheNote`` warning."""
    check_rules(rules)
    path = equilibrium_path(rules, exploitability=exploitability, pre_buckets=pre_buckets,
                            final_buckets=final_buckets, rounds=rounds, directory=directory)
    folder = path.parent
    if path.exists():
        try:
            stored = load_solution(path, directory=folder)
        except store.SolutionFileError:
            warnings.warn(paths.CacheNote(f"the cached {rules.name} equilibrium was damaged; solving it again"),
                          stacklevel=2)
            with contextlib.suppress(OSError):
                path.unlink()
        else:
            paths.touch_cached(path)
            return dataclasses.replace(stored, rules=rules)     # the same game, perhaps another table size
    a = cached_abstraction(rules, pre_buckets, final_buckets, rounds, directory=folder, stage=stage,
                           workers=workers, scheduler=scheduler, runner=runner)
    solution = solve(rules, abstraction=a, exploitability=exploitability, iterations=MAX_ITERATIONS,
                     progress=progress)
    if not solution.interrupted:
        folder.mkdir(parents=True, exist_ok=True)
        store_in_cache(path, lambda tmp: save_solution(solution, tmp))
    return solution


def store_equilibrium(solution: DrawSolution, *, exploitability: float = DEFAULT_EXPLOITABILITY,
                      directory: Path | None = None) -> Path | None:
    """Keep a solution from ``solve`` as the cached equilibrium when it is one that
    ``equilibrium_solution`` would look up (the same game, abstraction settings and raise cap,
    solved to ``exploitability`` or closer, not interrupted) and none is stored yet; returns the
    file, or None."""
    pre, final, rounds = solution.abstraction.settings
    default_cap = solution.rules.max_raises if solution.rules.max_raises is not None else 4
    if (solution.interrupted or solution.raises != default_cap
            or not solution.exploitability <= exploitability):
        return None
    path = equilibrium_path(solution.rules, exploitability=exploitability, pre_buckets=pre, final_buckets=final,
                            rounds=rounds, directory=directory)
    if path.exists():
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    store_in_cache(path, lambda tmp: save_solution(solution, tmp))
    return path
