"""The session's summary: its score, mistakes by pattern and progress over sessions, and each history line."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from drawodds.results import Result, shown_as
from drawodds.trainer.drills import PATTERN_NAMES, PATTERNS, TrainSetup
from drawodds.trainer.grading import Grade, ReadGrade, _rounded
from drawodds.trainer.history import _same_game, pattern_weights


def history_record(item: Grade | ReadGrade, setup: TrainSetup, session: int) -> dict[str, Any]:
    """The history line of one graded question (the time is added when it is written)."""
    base = {"session": session, "kind": item.kind, "rules": setup.rules.name, "objective": setup.objective,
            "opponents": setup.opponents, "mistake": item.mistake}
    if isinstance(item, Grade):
        return base | {"pattern": item.pattern, "hand": item.hand, "answer": item.answer, "best": item.best,
                       "chosen": item.chosen, "cost": item.cost, "cost_se": item.cost_se}
    return base | {"hand": item.hand, "draw": item.draw, "answer": item.answer, "likely": item.likely,
                   "equity": item.equity, "class_right": item.class_right, "equity_right": item.equity_right}


@dataclass(frozen=True, repr=False)
class PatternRow(Result):
    """Mistakes on one pattern: this session, all sessions, and its weight in the next deals."""

    pattern: str
    name: str
    decisions: int
    mistakes: int
    cost: float
    all_decisions: int
    all_mistakes: int
    weight: float

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict())


@dataclass(frozen=True, repr=False)
class SessionRow(Result):
    """One session's keep decisions and mistakes (under the same rules and objective)."""

    session: int
    decisions: int
    mistakes: int

    @property
    def rate(self) -> float:
        return self.mistakes / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict() | {"mistake_rate": self.rate})


@dataclass(frozen=True, repr=False)
class TrainingSummary(Result):
    """A session's score, its mistakes by pattern, progress over sessions and every graded answer."""

    rules: str
    objective: str
    opponents: int
    unit: str
    seed: int
    session: int
    decisions: int
    mistakes: int
    cost: float
    cost_se: float
    reads: int
    reads_right: int
    all_decisions: int           # every session under these rules and objective, this one included
    all_mistakes: int
    patterns: tuple[PatternRow, ...] = field(metadata=shown_as(list))
    sessions: tuple[SessionRow, ...] = field(metadata=shown_as(list))
    grades: tuple[Grade, ...] = field(metadata=shown_as(list))
    readings: tuple[ReadGrade, ...] = field(metadata=shown_as(list))
    history: str | None = None
    stopped: str = "end"         # quit, hands (--hands reached), end (no more answers)

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict())


def summarise(setup: TrainSetup, items: Sequence[Grade | ReadGrade], records: Sequence[Mapping[str, Any]],
              session: int, seed: int, history: str | None = None, stopped: str = "end") -> TrainingSummary:
    """The session's score and tables; ``records`` is the history before this session."""
    grades = tuple(g for g in items if isinstance(g, Grade))
    reads = tuple(g for g in items if isinstance(g, ReadGrade))
    now = [history_record(g, setup, session) for g in items]
    every = [r for r in (*records, *now) if r.get("kind") == "keep" and _same_game(r, setup)]
    weights = pattern_weights(every, setup)
    rows = []
    for slug in PATTERNS:
        mine = [g for g in grades if g.pattern == slug]
        ever = [r for r in every if r.get("pattern") == slug]
        if ever:
            rows.append(PatternRow(slug, PATTERN_NAMES[slug], len(mine), sum(g.mistake for g in mine),
                                   sum(g.cost for g in mine), len(ever), sum(bool(r.get("mistake")) for r in ever),
                                   weights.get(slug, 1.0)))
    sessions: dict[int, list[int]] = {}
    for r in every:
        tally = sessions.setdefault(int(r["session"]), [0, 0])
        tally[0] += 1
        tally[1] += bool(r.get("mistake"))
    return TrainingSummary(
        setup.rules.name, setup.objective, setup.opponents, setup.unit, seed, session, len(grades),
        sum(g.mistake for g in grades), sum(g.cost for g in grades),
        math.sqrt(sum(g.cost_se**2 for g in grades)), len(reads), sum(not r.mistake for r in reads),
        len(every), sum(bool(r.get("mistake")) for r in every), tuple(rows),
        tuple(SessionRow(s, n, m) for s, (n, m) in sorted(sessions.items())), grades, reads, history, stopped)
