"""The strategy table by Monte Carlo, with real card removal, for every deal class.

For each suit-isomorphism class of five-card deals, every legal hold is scored against
``opponents`` who draw by a policy, dealt from the deck less our cards (the exact strategy table
ignores that card removal). That is a long job: the classes are cut into parts, each part is
written as its own Parquet file (to a temporary name, then renamed), and a run that stops for
any reason resumes where it was: finished parts are never computed again. Each class draws from
its own ``(seed, class)`` stream, so the table does not depend on parts, workers or restarts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import polars as pl

from drawodds import i18n
from drawodds.analyses.strategy import suit_classes
from drawodds.cards import format_hand
from drawodds.errors import MC_TRIALS, RequestError, check_seed
from drawodds.execution import Runner, available_cores
from drawodds.holds import N_HOLDS, hold_numbers, legal_holds
from drawodds.paths import write_file, write_text
from drawodds.results import HIDDEN, Result
from drawodds.rules import RuleSet
from drawodds.sim.equity import CHUNK, OpponentModel, hold_equities

PART_CLASSES = 64                   # deal classes per Parquet part
BYTES_PER_TRIAL_AND_HOLD = 64       # working memory per trial and hold (about 27 measured, 5 opponents)


class TableError(RequestError):
    """An impossible table request (a folder of another run, a memory budget too small)."""


@dataclass(frozen=True, repr=False)
class EquityTableRun(Result):
    """Where the table is and how far it got."""

    path: str
    rules: str
    opponents: int
    policy: str
    trials: int
    seed: int
    classes: int
    classes_done: int
    parts: int
    interrupted: bool
    seconds: float = field(default=0.0, metadata=HIDDEN)

    @property
    def complete(self) -> bool:
        return self.classes_done == self.classes

    def read(self) -> pl.DataFrame:
        """The finished rows, one per deal class, in class order."""
        return read_table(self.path)


def read_table(path: str | Path) -> pl.DataFrame:
    """Every finished part of a table folder, in class order."""
    files = sorted(Path(path).glob("part-*.parquet"))
    if not files:
        return pl.DataFrame()
    return pl.concat([pl.read_parquet(f) for f in files]).sort("class")


def class_seed(seed: int, index: int) -> int:
    """The seed of one deal class: its own stream, whatever part or worker computes it."""
    return int(np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(1, np.uint64)[0] >> 1)


def _part(rules: RuleSet, hands: npt.NDArray[np.int8], first: int, model: OpponentModel, trials: int,
          seed: int) -> dict[str, list]:
    """Monte Carlo equities of every legal hold for the deal classes ``first, first + 1, ...``."""
    rows: dict[str, list] = {"class": [], "hand": [], "best_hold": [], "best_equity": [], "best_se": [],
                             "equity": [], "equity_se": [], "gap_se": []}
    for offset, hand in enumerate(hands):
        masks = legal_holds(hand, rules)
        result = hold_equities(hand, masks, rules, model, trials=trials, seed=class_seed(seed, first + offset))
        if result.interrupted:    # a class cut short by Ctrl-C is not written: the part stops here
            raise KeyboardInterrupt
        by_hold = np.full(N_HOLDS, np.nan)
        se_by_hold = np.full(N_HOLDS, np.nan)
        gap_by_hold = np.full(N_HOLDS, np.nan)
        bits = hold_numbers(masks)
        by_hold[bits], se_by_hold[bits], gap_by_hold[bits] = result.equity, result.equity_se, result.diff_se
        rows["class"].append(first + offset)
        rows["hand"].append(format_hand(hand))
        rows["best_hold"].append(int(bits[result.best]))
        rows["best_equity"].append(float(result.equity[result.best]))
        rows["best_se"].append(float(result.equity_se[result.best]))
        rows["equity"].append(by_hold.tolist())
        rows["equity_se"].append(se_by_hold.tolist())
        rows["gap_se"].append(gap_by_hold.tolist())
    return rows


def _check_memory(budget: int, workers: int) -> None:
    need = workers * CHUNK * N_HOLDS * BYTES_PER_TRIAL_AND_HOLD
    if need > budget:
        raise TableError("{value} workers need about {need} MiB; the memory budget is {budget} MiB: raise {memory} or "
                         "use fewer {workers}", "memory", "workers", value=workers,
                         need=i18n.local_number(f"{need / 2**20:,.0f}"),
                         budget=i18n.local_number(f"{budget / 2**20:,.0f}"))


def equity_table(rules: RuleSet, *, opponents: int, trials: int, out: str | Path, seed: int = 1,
                 policy: str = "standard", resume: bool = False, workers: int | None = None,
                 scheduler: str | None = None, memory: int = 2 * 2**30, limit: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> EquityTableRun:
    """Compute (or continue) the Monte Carlo equity table into the folder ``out``.

    ``trials`` per deal class; ``limit`` computes only the first classes (for a quick look or a
    test). Memory stays within ``memory`` bytes whatever ``trials``: trials run in fixed chunks.
    ``progress(classes done, classes)``. Ctrl-C stops after the parts that finished; run again
    with ``resume`` to continue.
    """
    if rules.draws != 1:
        raise TableError("strategy tables cover one draw; {rule_set} has {draws} draws", rule_set=rules.name,
                         draws=rules.draws)
    if not 1 <= opponents <= 5:
        raise TableError("{opponents} must be 1-5, got {value}", "opponents", value=opponents)
    MC_TRIALS.check(trials)
    check_seed(seed)
    if limit is not None and limit < 1:
        raise TableError("{limit} must be at least 1, got {value}", "limit", value=limit)
    reps, _ = suit_classes(rules.joker)
    if limit is not None:
        reps = reps[:limit]
    folder = Path(out)
    settings = {"rules": rules.name, "rule_set": repr(rules), "opponents": opponents, "policy": policy,
                "trials": trials, "seed": seed, "classes": len(reps), "part_classes": PART_CLASSES}
    meta = folder / "table.json"
    if meta.exists():
        if not resume:
            raise TableError("{folder} already holds a table: add {resume} to continue it, or choose another {out}",
                             "resume", "out", folder=folder)
        if json.loads(meta.read_text()) != settings:
            raise TableError("{folder} holds a table with other settings; {resume} continues only the same run",
                             "resume", folder=folder)
    starts = list(range(0, len(reps), PART_CLASSES))
    todo = [i for i, _ in enumerate(starts) if not _part_path(folder, i).exists()]
    done_classes = len(reps) - sum(min(PART_CLASSES, len(reps) - starts[i]) for i in todo)
    model = OpponentModel(opponents=opponents, policy=policy)
    clock = time.perf_counter()
    with Runner(workers, scheduler) as run:
        _check_memory(memory, run.workers if not scheduler else available_cores())
        if not meta.exists():      # made once the workers or cluster are up: a failed start leaves no folder
            folder.mkdir(parents=True, exist_ok=True)
            write_text(meta, json.dumps(settings, indent=2))
        calls = [(rules, reps[starts[i]:starts[i] + PART_CLASSES], starts[i], model, trials, seed) for i in todo]

        def write(k: int, rows: dict[str, list]) -> None:
            nonlocal done_classes
            write_file(_part_path(folder, todo[k]), pl.DataFrame(rows).write_parquet)
            done_classes += len(rows["class"])
            if progress is not None:
                progress(done_classes, len(reps))

        batch = run.map(_part, calls, each=write)
    return EquityTableRun(path=str(folder), rules=rules.name, opponents=opponents, policy=policy, trials=trials,
                          seed=seed, classes=len(reps), classes_done=done_classes, parts=len(starts),
                          interrupted=batch.interrupted, seconds=time.perf_counter() - clock)


def _part_path(folder: Path, index: int) -> Path:
    return folder / f"part-{index:05d}.parquet"
