"""A printed list's answer for every deal class, kept in the cache: ``strategy --hand`` reads it
back in a second instead of solving the whole table again.

The file holds, for each suit class of deals, the line the list meets, the list's hold, the
table's best hold and both values, with the list's printed lines; its name is a hash of
everything that shapes the list (objective, rules, opponents, policy, lines, card removal, seed).
It is built once (the whole table, with a progress bar), rebuilt when damaged and evicted like
any other cache file (``paths.trim_cache``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds import paths
from drawodds.analyses.condensed import (
    HandCheck,
    StrategyReport,
    _instances,
    _play,
    hold_words,
    strategy_report,
)
from drawodds.analyses.removal import CLOSE
from drawodds.analyses.strategy import default_objective, default_opponents, default_rules, suit_class_of
from drawodds.cards import as_hand, format_cards
from drawodds.execution import Stage
from drawodds.holds import hold_masks
from drawodds.patterns import hold_pattern_codes
from drawodds.rules import RuleSet, preset
from drawodds.sim.equity import OpponentModel, hold_equities
from drawodds.solver.cache import store_in_cache

FORMAT = 3          # bump when the stored arrays or the lists change: older files are then built again
ARRAYS = ("deals", "line", "chosen", "best", "list_value", "best_value", "values")
HAND_TRIALS = 40_000    # simulated deals deciding between a hand's close holds (equity), as keep deals them


@dataclass(frozen=True)
class ListAnswers:
    """Every deal class's answer to one printed list (rows in suit-class order)."""

    deals: npt.NDArray[np.int8]            # (N, 5) the classes' sorted representatives
    line: npt.NDArray[np.int16]            # the printed line each class meets (0-based)
    chosen: npt.NDArray[np.int8]           # the list's hold
    best: npt.NDArray[np.int8]             # the table's best hold
    list_value: npt.NDArray[np.float64]
    best_value: npt.NDArray[np.float64]
    values: npt.NDArray[np.float32]        # (N, 32) every hold's value, NaN where illegal
    labels: tuple[str, ...]                # the printed lines (English pattern names)
    unit: str
    joker: bool

    def check(self, hand: str | Sequence[int] | npt.NDArray[np.integer], *, rules: RuleSet | None = None,
              model: OpponentModel | None = None, seed: int = 1) -> HandCheck:
        """Which line ``hand`` meets, what the list keeps, the best hold and their values.

        With ``model`` (equity), the holds within ``CLOSE`` of the table's best and the list's hold
        are played out by ``keep``'s simulation (the opponents dealt from the cards we do not
        hold, ``HAND_TRIALS`` deals, ``seed``), which then names the best hold and the cost."""
        cards = as_hand(hand, joker=self.joker)
        index, new = suit_class_of(cards, self.joker, keys=_keys(self.deals))
        rep = self.deals[index].astype(np.int64)
        kept = hold_words(cards, rep, new)
        line = int(self.line[index])
        chosen, best = int(self.chosen[index]), int(self.best[index])
        values = self.values[index].astype(np.float64)
        close = [int(h) for h in np.flatnonzero(values >= values[best] - CLOSE) if h != best]
        if model is not None and rules is not None and (close or chosen != best):
            holds = [best, *close, *([chosen] if chosen != best and chosen not in close else [])]
            sim = hold_equities(rep.astype(np.int8), hold_masks(np.array(holds)), rules, model,
                                trials=HAND_TRIALS, seed=seed, workers=1).complete()
            mine = holds.index(chosen)
            return HandCheck(tuple(format_cards(cards)), self.labels[line], line + 1, kept(chosen),
                             kept(holds[sim.best]), float(sim.equity[mine]), float(sim.equity[sim.best]), self.unit,
                             "simulation", sim.trials, seed, float(sim.diff_se[mine]))
        return HandCheck(tuple(format_cards(cards)), self.labels[line], line + 1, kept(chosen), kept(best),
                         float(self.list_value[index]), float(self.best_value[index]), self.unit)


def _keys(deals: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    return deals.astype(np.int64) @ (53 ** np.arange(4, -1, -1))


def answers_of(report: StrategyReport) -> ListAnswers:
    """Play ``report``'s printed list over every deal class of its table."""
    table, plan = report.table, report.condensed
    play = _play(table, _instances(table, hold_pattern_codes(table.holds.deals, table.rules.joker, fine=True)),
                 plan.line_codes)
    rows = np.arange(len(play.chosen))
    h = table.holds
    return ListAnswers(h.deals, play.line.astype(np.int16), play.chosen.astype(np.int8), h.best,
                       h.values[rows, play.chosen], h.best_value, h.values.astype(np.float32), plan.labels,
                       table.objective.unit, table.rules.joker)


def answers_path(objective: str, rules: RuleSet, *, opponents: int | None, policy: str, lines: int,
                 card_removal: bool, seed: int, directory: Path | None = None) -> Path:
    """The cache file of a list's answers: named by everything that shapes the list."""
    text = json.dumps({"format": FORMAT, "objective": objective.strip().lower(), "rules": rules.to_dict(),
                       "opponents": opponents, "policy": policy, "lines": lines, "card_removal": card_removal,
                       "seed": seed}, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return (directory or paths.cache_dir()) / f"strategy-{rules.name}-{digest}.npz"


def write_answers(answers: ListAnswers, path: Path) -> None:
    """Write a list's answers to an .npz file."""
    np.savez(path, labels=np.array(answers.labels), unit=np.array(answers.unit), joker=np.array(answers.joker),
             **{k: getattr(answers, k) for k in ARRAYS})


def read_answers(path: Path) -> ListAnswers | None:
    """The answers stored at ``path``, or None (with a note, and the file removed) when it is damaged."""
    return paths.read_cached(path, _answers, "strategy list")


def _answers(path: Path) -> ListAnswers | None:
    """The answers in the file, or None when they do not hang together."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in ARRAYS}
        answers = ListAnswers(labels=tuple(str(x) for x in z["labels"].tolist()), unit=str(z["unit"]),
                              joker=bool(z["joker"]), **arrays)
    n = len(answers.deals)
    whole = (answers.deals.shape == (n, 5) and all(len(arrays[k]) == n for k in ARRAYS)
             and n > 0 and int(answers.line.max()) < len(answers.labels) and int(answers.line.min()) >= 0
             and answers.values.shape == (n, 32) and np.isfinite(answers.list_value).all()
             and bool(np.all(np.diff(_keys(answers.deals)) > 0)))
    return answers if whole else None


def _quiet(stage: str, done: float) -> None:
    return None


def check_hand_cached(hand: str | Sequence[int] | npt.NDArray[np.integer], objective: str | None = None,
                      rules: RuleSet | str | None = None, *, opponents: int | None = None, policy: str = "standard",
                      lines: int = 60, card_removal: bool = True, seed: int = 1, directory: Path | None = None,
                      progress: Stage = _quiet, overrides: Mapping[str, Any] | None = None) -> HandCheck:
    """``check_hand`` for the list ``strategy_report`` would print with these options, from the
    cache: the first call builds the whole table (``progress`` follows it) and stores every deal
    class's answer; later calls read them back. For the equity objective the holds within
    ``CLOSE`` of the best are played out as ``keep`` plays them (``ListAnswers.check``).
    ``overrides`` change single rule options (``{"max_draw": "any"}``)."""
    base = (preset(rules) if isinstance(rules, str) else rules) if rules is not None else (
        default_rules(objective) if objective is not None else preset("morkpoker"))
    rule_set = base.replace(**overrides) if overrides else base
    name = objective if objective is not None else default_objective(rule_set)
    who = (opponents or default_opponents(rule_set)) if name.strip().lower() == "equity" else None
    path = answers_path(name, rule_set, opponents=who, policy=policy, lines=lines, card_removal=card_removal,
                        seed=seed, directory=directory)
    answers = read_answers(path) if path.exists() else None
    if answers is None:
        report = strategy_report(name, rule_set, opponents=opponents, policy=policy, lines=lines, seed=seed,
                                 card_removal=card_removal, progress=progress)
        answers = answers_of(report)
        path.parent.mkdir(parents=True, exist_ok=True)
        store_in_cache(path, lambda tmp: write_answers(answers, tmp))
    if who is None:
        return answers.check(hand)
    return answers.check(hand, rules=rule_set, model=OpponentModel(opponents=who, policy=policy), seed=seed)

