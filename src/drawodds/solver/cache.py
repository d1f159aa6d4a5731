"""The cache: where abstractions and equilibria are kept between runs, named by the game and the settings."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

from drawodds import paths
from drawodds.execution import Runner, Stage
from drawodds.rules import RuleSet
from drawodds.solver import store
from drawodds.solver.abstraction import Abstraction, _no_stage, build_abstraction
from drawodds.solver.settings import DEFAULT_EXPLOITABILITY, DEFAULT_SETTINGS, SolverSettings


def cache_directory() -> Path:
    """Where solutions and abstractions are kept between runs (``drawodds.paths.cache_dir``)."""
    return paths.cache_dir()


def store_in_cache(path: Path, write: Callable[[Path], object]) -> None:
    """Write a cache file safely, then keep the cache within its bound (notes say what was evicted)."""
    paths.write_file(path, write)
    for gone in paths.trim_cache(path):
        warnings.warn(paths.CacheNote(f"the cache is over its bound ({paths.CACHE_LIMIT_ENV}); removed "
                                      f"{gone.path.name}"), stacklevel=3)


def cached_abstraction(rules: RuleSet, pre_buckets: int = DEFAULT_SETTINGS.pre_buckets,
                       final_buckets: int = DEFAULT_SETTINGS.final_buckets, rounds: int = DEFAULT_SETTINGS.rounds,
                       *, directory: Path | None = None, stage: Stage = _no_stage, workers: int | None = 1,
                       scheduler: str | None = None, runner: Runner | None = None) -> Abstraction:
    """``build_abstraction``, kept on disk: the first call builds and stores it (tens of seconds,
    on ``workers``, ``scheduler`` or ``runner``), later calls with the same rules and sizes read
    it back (a second). Where it was built does not change it, so it is not part of the key.
    A damaged stored file is built again, with a ``paths.CacheNote`` warning."""
    folder = directory or cache_directory()
    path = folder / f"abstraction-{SolverSettings(pre_buckets, final_buckets, rounds).key(rules, solution=False)}.npz"
    if path.exists():
        stored = store.read_abstraction(path, rules, (pre_buckets, final_buckets, rounds))
        if stored is not None:
            return stored
    a = build_abstraction(rules, pre_buckets, final_buckets, rounds, stage, workers=workers, scheduler=scheduler,
                          runner=runner)
    folder.mkdir(parents=True, exist_ok=True)
    store_in_cache(path, lambda tmp: store.write_abstraction(a, tmp))
    return a


def equilibrium_path(rules: RuleSet, *, exploitability: float = DEFAULT_EXPLOITABILITY,
                     pre_buckets: int = DEFAULT_SETTINGS.pre_buckets,
                     final_buckets: int = DEFAULT_SETTINGS.final_buckets, rounds: int = DEFAULT_SETTINGS.rounds,
                     directory: Path | None = None) -> Path:
    """The file in which ``equilibrium_solution`` keeps (or will keep) the solution of these settings."""
    key = SolverSettings(pre_buckets, final_buckets, rounds, exploitability).key(rules)
    return (directory or cache_directory()) / f"solution-{key}.parquet"


def equilibrium_cached(rules: RuleSet, *, exploitability: float = DEFAULT_EXPLOITABILITY,
                       pre_buckets: int = DEFAULT_SETTINGS.pre_buckets,
                       final_buckets: int = DEFAULT_SETTINGS.final_buckets, rounds: int = DEFAULT_SETTINGS.rounds,
                       directory: Path | None = None) -> bool:
    """Whether ``equilibrium_solution`` with these settings would read a stored file (no solve)."""
    return equilibrium_path(rules, exploitability=exploitability, pre_buckets=pre_buckets,
                            final_buckets=final_buckets, rounds=rounds, directory=directory).exists()
