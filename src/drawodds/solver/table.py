"""Three at the table: draw solved for three seats by CFR, measured by each seat's best response.

With three players CFR has no guarantee of reaching a Nash equilibrium, so a solution is what its
measure says: each seat's exact gain in the abstract game from deviating alone (a best response
against the other two held fixed), the largest of them the stop criterion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from drawodds.errors import (
    FIELD_ROUNDS,
    FINAL_BUCKETS,
    PRE_BUCKETS,
    SOLVE_ITERATIONS,
    TABLE_PLAYERS,
    RequestError,
    check_positive,
)
from drawodds.execution import Runner, Stage
from drawodds.i18n import N_
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleSet
from drawodds.solver import cfr
from drawodds.solver.abstraction import Abstraction, _no_stage, build_abstraction, check_rules
from drawodds.solver.cache import cached_abstraction
from drawodds.solver.game import TableGame, build_table_game
from drawodds.solver.settings import SolverSettings
from drawodds.solver.subsets import Floats

# The three-handed default: a coarse abstraction and two raises a round (the betting tree grows
# about fivefold with each raise at three seats; docs/solve.md), stopped at 5 milli-antes of the
# largest seat gain or after 30 minutes of CFR, whichever comes first.
TABLE_SETTINGS = SolverSettings(pre_buckets=24, final_buckets=12, rounds=1, exploitability=0.005)
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
    ``iterations`` or ``seconds`` of CFR are spent (with no limit given: 0.005 antes or 30
    minutes), or Ctrl-C (``interrupted``). The heads-up game is ``solve.solve``.
    """
    TABLE_PLAYERS.check(players)
    if schedule not in cfr.SCHEDULES:
        raise RequestError("{schedule} must be one of {choices}, got {value}", "schedule",
                           choices=', '.join(cfr.SCHEDULES), value=repr(schedule))
    SOLVE_ITERATIONS.check(iterations)
    check_positive(exploitability, "exploitability")
    check_positive(seconds, "seconds")
    PRE_BUCKETS.check(pre_buckets)
    FINAL_BUCKETS.check(final_buckets)
    FIELD_ROUNDS.check(rounds)
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

