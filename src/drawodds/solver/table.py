"""Three at the table: draw solved for three seats by CFR, measured by each seat's best response.

With three players CFR has no guarantee of reaching a Nash equilibrium, so a solution is what its
measure says: each seat's exact gain in the abstract game from deviating alone (a best response
against the other two held fixed), the largest of them the stop criterion.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from drawodds import paths
from drawodds.errors import (
    TABLE_PLAYERS,
)
from drawodds.execution import Runner, Stage
from drawodds.i18n import N_
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleError, RuleSet
from drawodds.solver import cfr, store
from drawodds.solver.abstraction import Abstraction, _no_stage, build_abstraction, check_rules
from drawodds.solver.cache import cache_directory, cached_abstraction, store_in_cache
from drawodds.solver.game import TableGame, build_table_game
from drawodds.solver.settings import SolverSettings, settings_key
from drawodds.solver.solution import seat_draw_summary
from drawodds.solver.solve import check_solve_options
from drawodds.solver.subsets import Floats

# The three-handed default: a coarse abstraction (2.8 million information sets per seat, under 3 GB)
# and two raises a round (the betting tree grows about fivefold with each raise at three seats),
# stopped at 2 milli-antes of the largest seat gain or after 30 minutes of CFR (docs/solve.md).
TABLE_SETTINGS = SolverSettings(pre_buckets=128, final_buckets=64, rounds=1, exploitability=0.002)
TABLE_RAISES = 2
TABLE_SECONDS = 1800.0
MAX_ITERATIONS = 100_000

MODEL = N_("Hands are dealt independently per seat: each seat is dealt from its own deck and draws from "
           "its own 47-card stub, with no card removal between the seats.")


def _curve(points: tuple[cfr.Checkpoint, ...]) -> list[dict[str, float]]:
    return [{"iteration": c.iteration, "seconds": round(c.seconds, 3), "value": c.value,
             "exploitability": c.exploitability} for c in points]


@dataclass(frozen=True, repr=False)
class TableSolution(Result):
    """A three-handed solution of the abstract game. Seat 0 sits left of the dealer (acts first
    before the draw), the last seat is the dealer. ``value`` and ``seat_gains`` are in antes per
    deal, one per seat; ``exploitability`` is the largest seat gain (no two-player
    exploitability: two seats changing together may gain more)."""

    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    players: int
    value: tuple[float, ...]
    seat_gains: tuple[float, ...]
    exploitability: float
    iterations: int
    seconds: float = field(metadata=shown_as(lambda s: round(s, 3)))     # CFR time, gain checks excluded
    buckets: dict[str, int]
    model: str
    raises: int
    schedule: str
    abstraction_seconds: float = field(metadata=shown_as(lambda s: round(s, 3)))
    infosets_per_seat: tuple[int, ...]
    interrupted: bool
    curve: tuple[cfr.Checkpoint, ...] = field(metadata=shown_as(_curve))
    abstraction: Abstraction = field(metadata=HIDDEN, compare=False)
    game: TableGame = field(metadata=HIDDEN, compare=False)
    strategy: tuple[Floats | None, ...] = field(metadata=HIDDEN, compare=False)

    @property
    def exploitability_milli_antes(self) -> float:
        """The largest seat gain in milli-antes per deal."""
        return 1000 * self.exploitability

    def to_dict(self) -> dict[str, Any]:
        """The fields, with the largest seat gain also in milli-antes (as the heads-up JSON)."""
        out = super().to_dict()
        out["exploitability_milli_antes"] = self.exploitability_milli_antes
        return out

    @functools.cached_property
    def _reach(self) -> tuple[list[Floats], ...]:
        strategy = list(self.strategy)
        return tuple(cfr.reach_probabilities(self.game.tree, strategy, p) for p in range(self.players))

    def draw_summary(self) -> pd.DataFrame:
        """How each kind of dealt hand draws in each seat (0 left of the dealer, 2 the dealer), over
        every line that reaches the draw and every draw before it; as the heads-up ``draw_summary``."""
        return seat_draw_summary(self.abstraction, self.game, self.strategy, self._reach)


def table_raises(rules: RuleSet, raises: int | None) -> int:
    """Raises a round in the three-handed game: ``raises``, or the rule set's cap but at most
    ``TABLE_RAISES``."""
    if raises is not None:
        return raises
    cap = rules.max_raises if rules.max_raises is not None else 4
    return min(cap, TABLE_RAISES)


def solve_table(rules: RuleSet, players: int = 3, *, pre_buckets: int = TABLE_SETTINGS.pre_buckets,
                final_buckets: int = TABLE_SETTINGS.final_buckets, rounds: int = TABLE_SETTINGS.rounds,
                iterations: int | None = None, exploitability: float | None = None, seconds: float | None = None,
                schedule: str = "dcfr", raises: int | None = None, abstraction: Abstraction | None = None,
                progress: cfr.Progress | None = None, cache: bool = True, stage: Stage | None = None,
                workers: int | None = None, scheduler: str | None = None, runner: Runner | None = None
                ) -> TableSolution:
    """Solve draw under ``rules`` for a table of ``players`` (three) in the abstract game.

    Builds (or reads from the cache) the abstraction of ``pre_buckets`` and ``final_buckets``,
    builds the three-seat table game (``raises`` a round, default ``table_raises``) and runs CFR
    (``schedule``) until the largest seat gain is at most ``exploitability`` antes per deal, or
    ``iterations`` or ``seconds`` of CFR are spent (with no limit given: 0.002 antes or 30
    minutes), or Ctrl-C (``interrupted``). The heads-up game is ``solve.solve``.
    """
    TABLE_PLAYERS.check(players)
    check_solve_options(schedule=schedule, iterations=iterations, exploitability=exploitability, seconds=seconds,
                        pre_buckets=pre_buckets, final_buckets=final_buckets, rounds=rounds)
    check_rules(rules)
    if iterations is None and exploitability is None and seconds is None:
        exploitability, seconds = TABLE_SETTINGS.exploitability, TABLE_SECONDS
    cap = table_raises(rules, raises)
    if abstraction is None:
        build = cached_abstraction if cache else build_abstraction
        abstraction = build(rules, pre_buckets, final_buckets, rounds, stage=stage or _no_stage,
                            workers=workers, scheduler=scheduler, runner=runner)
    elif abstraction.rules != rules:
        raise ValueError("the abstraction was built for other rules")
    game = build_table_game(abstraction, players, cap)
    run = cfr.solve_tree(game.tree, iterations=MAX_ITERATIONS if iterations is None else iterations,
                         exploitability=exploitability, seconds=seconds, schedule=cfr.SCHEDULES[schedule],
                         progress=progress or (lambda c: None))
    evaluation = run.evaluation
    asked = abstraction.settings
    buckets = {"pre_draw": abstraction.pre_buckets, "final": abstraction.final_buckets,
               "pre_draw_asked": asked[0], "final_asked": asked[1], "field_rounds": asked[2]}
    return TableSolution(rules, players, evaluation.values, evaluation.seat_gains, evaluation.exploitability,
                         run.iterations, run.seconds, buckets, MODEL, game.max_bets - 1, schedule,
                         abstraction.seconds, game.tree.infosets, run.interrupted, run.curve, abstraction, game,
                         run.strategy)



# --- the cache ------------------------------------------------------------------------------------

def table_path(rules: RuleSet, players: int = 3, *, exploitability: float = TABLE_SETTINGS.exploitability,
               pre_buckets: int = TABLE_SETTINGS.pre_buckets, final_buckets: int = TABLE_SETTINGS.final_buckets,
               rounds: int = TABLE_SETTINGS.rounds, raises: int | None = None, directory: Path | None = None) -> Path:
    """The file in which ``table_equilibrium`` keeps the table solution of these settings (its own
    key: the players and the raise cap are in it, so it is never the heads-up file)."""
    key = settings_key(rules, pre=pre_buckets, final=final_buckets, rounds=rounds, exploitability=exploitability,
                       players=players, raises=table_raises(rules, raises))
    return (directory or cache_directory()) / f"solution-{players}-handed-{key}.parquet"


def save_table_solution(solution: TableSolution, path: str | Path) -> Path:
    """Write a table solution to a Parquet file, as the heads-up ``save_solution`` (its record also
    holds the players and each seat's gain)."""
    a = solution.abstraction
    record = store.StoredSolution(solution.rules, a.settings, a.pre_buckets, a.final_buckets, solution.raises,
                                  solution.value, solution.exploitability, sum(solution.seat_gains),
                                  solution.iterations, solution.seconds, solution.abstraction_seconds,
                                  solution.schedule, solution.interrupted, solution.curve, players=solution.players,
                                  seat_gains=solution.seat_gains)
    return store.write_solution(path, solution.game, solution.strategy, record)


def load_table_solution(path: str | Path, *, directory: Path | None = None) -> TableSolution:
    """Read a file written by ``save_table_solution``, checked in full first (a damaged or
    heads-up file is a ``SolutionFileError``); its abstraction is rebuilt from the stored settings."""
    stored = store.read_solution(path)
    if stored.players != 3:
        raise store.unusable(path, "it is not a solution for three players")
    a = cached_abstraction(stored.rules, *stored.settings, directory=directory)
    if (a.pre_buckets, a.final_buckets) != (stored.pre_draw_buckets, stored.final_buckets):
        raise store.unusable(path, "its bucket counts do not match its settings")
    try:
        game = build_table_game(a, stored.players, stored.raises)
    except RuleError as exc:
        raise store.unusable(path, "its raise cap does not fit its rules") from exc
    strategy = store.strategy_of(stored, game, path)
    buckets = {"pre_draw": a.pre_buckets, "final": a.final_buckets, "pre_draw_asked": a.settings[0],
               "final_asked": a.settings[1], "field_rounds": a.settings[2]}
    return TableSolution(stored.rules, stored.players, stored.value, stored.seat_gains, stored.exploitability,
                         stored.iterations, stored.seconds, buckets, MODEL, stored.raises, stored.schedule,
                         stored.abstraction_seconds, game.tree.infosets, stored.interrupted, stored.curve, a, game,
                         strategy)


def table_equilibrium(rules: RuleSet, *, exploitability: float = TABLE_SETTINGS.exploitability,
                      pre_buckets: int = TABLE_SETTINGS.pre_buckets, final_buckets: int = TABLE_SETTINGS.final_buckets,
                      rounds: int = TABLE_SETTINGS.rounds, raises: int | None = None, directory: Path | None = None,
                      progress: cfr.Progress | None = None, stage: Stage = _no_stage) -> TableSolution:
    """The three-handed solution of ``rules``, solved once to a largest seat gain of
    ``exploitability`` (or for ``TABLE_SECONDS`` of CFR, whichever comes first) and kept in the cache;
    later calls read the stored file. ``raises``: as ``solve_table``. A damaged stored file is
    solved again, with a note."""
    check_rules(rules)
    path = table_path(rules, exploitability=exploitability, pre_buckets=pre_buckets, final_buckets=final_buckets,
                      rounds=rounds, raises=raises, directory=directory)
    if path.exists():
        try:
            stored = load_table_solution(path, directory=path.parent)
        except store.SolutionFileError:
            warnings.warn(paths.CacheNote(f"the cached three-handed {rules.name} solution was damaged; "
                                          "solving it again"), stacklevel=2)
            with contextlib.suppress(OSError):
                path.unlink()
        else:
            paths.touch_cached(path)
            return dataclasses.replace(stored, rules=rules)
    a = cached_abstraction(rules, pre_buckets, final_buckets, rounds, directory=path.parent, stage=stage)
    solution = solve_table(rules, abstraction=a, exploitability=exploitability, seconds=TABLE_SECONDS,
                           raises=raises, progress=progress)
    if not solution.interrupted:
        path.parent.mkdir(parents=True, exist_ok=True)
        store_in_cache(path, lambda tmp: save_table_solution(solution, tmp))
    return solution


def store_table_equilibrium(solution: TableSolution, *, exploitability: float = TABLE_SETTINGS.exploitability,
                            directory: Path | None = None) -> Path | None:
    """Keep a solution from ``solve_table`` as the cached one ``table_equilibrium`` reads (with the
    same settings and raise cap), when it reached ``exploitability`` and none is stored yet;
    returns the file, or None."""
    pre, final, rounds = solution.abstraction.settings
    if solution.interrupted or not solution.exploitability <= exploitability:
        return None
    path = table_path(solution.rules, solution.players, exploitability=exploitability, pre_buckets=pre,
                      final_buckets=final, rounds=rounds, raises=solution.raises, directory=directory)
    if path.exists():
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    store_in_cache(path, lambda tmp: save_table_solution(solution, tmp))
    return path
