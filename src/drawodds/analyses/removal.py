"""Card removal in the equity lists: where the exact table's two best holds are close, the
choice between them is decided by the simulation ``keep`` uses.

The exact equity table treats the opponents' final hands as independent of our cards. That moves
a hold's share of the pot by about a percentage point, and the gap between two close holds by as
much: enough to reverse "pair of aces + king kicker" against "pair of aces". So, for every deal
class whose best hold and another hold are within ``close`` of each other, the gap between the
two is corrected by Monte Carlo with real card removal (the opponents are dealt from the cards we
do not hold, both holds meet the same deals: common random numbers). The correction is pooled
over the classes whose two holds have the same patterns (the same pair of printed lines), from
``per_group`` simulated classes each: one pooled figure per pattern pair is far more precise than
a simulation of every class, and the list only ever chooses between patterns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from drawodds.analyses.equity_table import class_seed
from drawodds.analyses.strategy import HoldValues, StrategyTable, policy_chooser, simulate_equities
from drawodds.holds import hold_masks
from drawodds.patterns import hold_pattern_codes, hold_pattern_label
from drawodds.policies import DrawPolicy, in_range
from drawodds.results import HIDDEN, Result
from drawodds.rules import RuleSet
from drawodds.sim.equity import EquityResult, OpponentModel, hold_equities

CLOSE = 0.035           # holds within 3.5% of the pot are decided with card removal
OPENER_CLOSE = 0.045    # against a Jacks-or-Better opener the correction runs larger
CANDIDATES = 2          # holds beside the best that are checked (the second and third best)


@dataclass(frozen=True)
class PairCorrection:
    """The pooled card-removal correction for one pair of patterns (best under the table, other)."""

    first: str                  # pattern the table prefers on most of the group's deals
    second: str
    classes: int                # deal classes where the two are close
    simulated: int              # of them simulated
    correction: float           # added to (second - first) by card removal
    se: float
    share_changed: float        # share of all deals whose best hold changes to the other one


@dataclass(frozen=True, repr=False)
class RemovalFix(Result):
    """What correcting an equity table for card removal did."""

    close: float
    trials: int                 # per simulated class
    per_group: int              # simulated classes per pattern pair
    seed: int
    groups: int                 # pattern pairs corrected
    simulated: int              # deal classes simulated
    classes_changed: int        # classes whose best hold changed
    share_changed: float        # share of all deals whose best hold changed
    pairs: tuple[PairCorrection, ...] = field(default=(), metadata=HIDDEN)   # by deals changed


def _quiet(done: int, total: int) -> None:
    return None


Simulation = Callable[[npt.NDArray[np.int8], list[int], int], tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]


def keep_simulation(rules: RuleSet, model: OpponentModel, trials: int) -> Simulation:
    """The simulation of ``drawodds keep``: (deal, holds, seed) -> each hold's equity minus the
    first hold's, and that difference's standard error."""
    def run(deal: npt.NDArray[np.int8], holds: list[int], seed: int
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        result = hold_equities(deal, hold_masks(np.array(holds)), rules, model, trials=trials, seed=seed,
                               workers=1).complete()
        return result.equity - result.equity[0], _diff_se_to_first(result)
    return run


def range_simulation(rules: RuleSet, policy: DrawPolicy, opponents: int, trials: int) -> Simulation:
    """As ``keep_simulation``, against opponents dealt only hands in the policy's range (an
    opener's jacks or better), by rejection: fast where a typed range would classify every hand."""
    def run(deal: npt.NDArray[np.int8], holds: list[int], seed: int
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        rng = np.random.default_rng(seed)
        mean, _, diff_se = simulate_equities(deal, holds, opponents, policy_chooser(rules, policy.name, rng), trials,
                                             rng, joker=rules.joker, dealt=lambda h: in_range(policy, h, rules))
        return mean - mean[0], diff_se
    return run


def card_removal_table(table: StrategyTable, simulate: Simulation, *, close: float = CLOSE, trials: int = 0,
                       per_group: int = 6, seed: int = 1,
                       progress: Callable[[int, int], None] = _quiet) -> tuple[StrategyTable, RemovalFix]:
    """The equity table with the gaps between close holds corrected for card removal by
    ``simulate`` (``keep_simulation``; ``trials`` is its size, for the record).

    Only the values of the holds within ``close`` of a class's best move; every other figure is
    the exact table's. ``progress(classes simulated, classes to simulate)``."""
    h = table.holds
    n = len(h.deals)
    rows = np.arange(n)
    v = np.where(h.legal, h.values, -np.inf)
    codes = hold_pattern_codes(h.deals, table.rules.joker)
    best = h.best.astype(np.int64)
    order = np.argsort(-v, axis=1, kind="stable")
    cls_list, hold_list = [], []
    for k in range(1, CANDIDATES + 1):
        other = order[:, k]
        near = (v[rows, best] - v[rows, other] < close) & (codes[rows, other] != codes[rows, best]) & (other != best)
        cls_list.append(rows[near])
        hold_list.append(other[near])
    cls = np.concatenate(cls_list)
    other = np.concatenate(hold_list)
    a, b = codes[cls, best[cls]], codes[cls, other]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    sign = np.where(b == hi, 1.0, -1.0)             # +1: the other hold has the higher code
    keys, group = np.unique(lo << 16 | hi, return_inverse=True)
    rng = np.random.default_rng(seed)
    w = table.weights.astype(np.float64)
    picked: list[npt.NDArray[np.int64]] = []
    for g in range(len(keys)):
        members = np.flatnonzero(group == g)
        if len(members) > per_group:
            p = w[cls[members]] / w[cls[members]].sum()
            members = rng.choice(members, size=per_group, replace=False, p=p)
        picked.append(members)
    to_simulate = np.unique(cls[np.concatenate(picked)]) if picked else np.zeros(0, dtype=np.int64)
    simulated: dict[int, dict[int, tuple[float, float]]] = {}   # class -> hold -> (gap to best, its se)
    for i, c in enumerate(to_simulate.tolist()):
        holds = [int(best[c]), *sorted({int(x) for x in other[cls == c]})]
        gaps, gap_se = simulate(h.deals[c], holds, class_seed(seed, c))
        simulated[c] = {hold: (float(gaps[j]), float(gap_se[j])) for j, hold in enumerate(holds)}
        progress(i + 1, len(to_simulate))
    values = h.values.copy()
    pairs = []
    shift = np.zeros(len(cls))
    for g, members in enumerate(picked):
        corr, var, wt = [], [], []
        for m in members.tolist():
            c, o = int(cls[m]), int(other[m])
            gap_mc, se = simulated[c][o]
            gap_table = float(h.values[c, o] - h.values[c, best[c]])
            corr.append(sign[m] * (gap_mc - gap_table))
            var.append(se**2)
            wt.append(w[c])
        weights = np.array(wt) / np.sum(wt)
        mean = float(np.dot(weights, corr))
        se_mc = float(np.sqrt(np.dot(weights**2, var)))
        spread = float(np.std(corr, ddof=1) / np.sqrt(len(corr))) if len(corr) > 1 else 0.0
        in_group = group == g
        shift[in_group] = sign[in_group] * mean
        first_is_lo = w[cls[in_group & (sign > 0)]].sum() >= w[cls[in_group & (sign < 0)]].sum()
        names = (hold_pattern_label(int(keys[g] >> 16)), hold_pattern_label(int(keys[g] & 0xFFFF)))
        pairs.append((names if first_is_lo else names[::-1], int(in_group.sum()), len(corr),
                      mean if first_is_lo else -mean, max(se_mc, spread)))
    np.add.at(values, (cls, other), shift)
    fixed = _ranked(h, values)
    moved = fixed.best.astype(np.int64) != best
    changed_by_group = np.zeros(len(keys))
    new_best = fixed.best.astype(np.int64)
    hit = new_best[cls] == other
    np.add.at(changed_by_group, group[hit], w[cls[hit]])
    corrections = tuple(sorted((PairCorrection(nm[0], nm[1], k, s, corr, se, float(changed_by_group[g] / w.sum()))
                                for g, (nm, k, s, corr, se) in enumerate(pairs)),
                               key=lambda p: -p.share_changed))
    fix = RemovalFix(close, trials, per_group, seed, len(keys), len(to_simulate), int(moved.sum()),
                     float(w[moved].sum() / w.sum()), corrections)
    return StrategyTable(table.objective, table.rules, fixed, table.weights), fix


def _diff_se_to_first(result: EquityResult) -> npt.NDArray[np.float64]:
    """SE of each hold's difference to the first hold (the table's best). ``diff_se`` is to the
    simulated best; when that is another hold, the sum of the two is a safe bound."""
    se = np.asarray(result.diff_se, dtype=np.float64)
    return se if result.best == 0 else se + se[0]


def _ranked(h: HoldValues, values: npt.NDArray[np.float64]) -> HoldValues:
    """The holds ranked again on corrected values (ties to the lowest hold mask)."""
    score = np.where(h.legal, values, -np.inf)
    best = np.argmax(score, axis=1)
    score[np.arange(len(score)), best] = -np.inf
    runner = np.argmax(score, axis=1)
    return HoldValues(h.deals, values, h.legal, h.numerators, best.astype(np.int8), runner.astype(np.int8))
