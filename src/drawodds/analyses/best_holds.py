"""What the exact equity tables say hand by hand: the best hold type for each starting hand as the
table fills up, and the value of each option in classic dilemmas (the data of the strategy charts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds.analyses.strategy import Solver, StrategyTable, equity_objective, field_distribution, make_solver
from drawodds.cards import format_hand, parse_hand
from drawodds.holds import hold_masks
from drawodds.i18n import N_
from drawodds.patterns import HOLD_TYPES, STARTING_HANDS, hold_pattern_codes, hold_type, starting_hand
from drawodds.results import Result
from drawodds.rules import RuleSet
from drawodds.sim.equity import OpponentModel, hold_equities


def equity_solvers(rules: RuleSet, policy: str, opponents: Sequence[int]) -> dict[int, Solver]:
    """An equity solver for each opponent count, all against the same field drawing by ``policy``."""
    dist = field_distribution(rules, policy)
    return {n: make_solver(equity_objective(dist, n, policy), rules) for n in opponents}


@dataclass(frozen=True, repr=False)
class HoldGrid(Result):
    """For each starting hand (row, ``STARTING_HANDS``) and opponent count (column): the most
    common best hold type (``HOLD_TYPES``) and the share of the row's deals that play it."""

    opponents: tuple[int, ...]
    hold: npt.NDArray[np.int64]      # (rows, cols) index into HOLD_TYPES
    share: npt.NDArray[np.float64]   # (rows, cols)


def best_hold_grid(tables: dict[int, StrategyTable]) -> HoldGrid:
    """Tabulate the best hold types of equity tables keyed by the number of opponents."""
    ns = tuple(sorted(tables))
    hold = np.zeros((len(STARTING_HANDS), len(ns)), dtype=np.int64)
    share = np.zeros_like(hold, dtype=np.float64)
    for j, n in enumerate(ns):
        t = tables[n]
        deals = t.holds.deals
        codes = hold_pattern_codes(deals, t.rules.joker)
        best_type = hold_type(codes[np.arange(len(deals)), t.holds.best.astype(np.int64)])
        rows = starting_hand(deals)
        counts = np.zeros((len(STARTING_HANDS), len(HOLD_TYPES)))
        np.add.at(counts, (rows, best_type), t.weights)
        hold[:, j] = counts.argmax(axis=1)
        share[:, j] = counts.max(axis=1) / np.maximum(counts.sum(axis=1), 1)
    return HoldGrid(ns, hold, share)


# Titles and options are English (data keeps them); marked for the catalog, shown with ``_``.
DILEMMAS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    (N_("Small pair or four-flush?"), "7s 7h Ks 9s 3s",
     ((N_("keep 7-7"), "7s 7h"), (N_("keep the four spades"), "Ks 9s 7s 3s"), (N_("keep 7-7 + K"), "7s 7h Ks"))),
    (N_("Keep an ace kicker with a pair?"), "Qh Qd Ac 8s 4d",
     ((N_("keep Q-Q"), "Qh Qd"), (N_("keep Q-Q-A"), "Qh Qd Ac"))),
    (N_("Two pair: draw one or stand pat?"), "Js Jh 4c 4d Ks",
     ((N_("keep J-J-4-4, draw 1"), "Js Jh 4c 4d"), (N_("stand pat"), "Js Jh 4c 4d Ks"))),
    (N_("Break a pat straight for a straight flush?"), "8h 9h Th Jh Qc",
     ((N_("stand pat (straight)"), "8h 9h Th Jh Qc"), (N_("keep the four hearts"), "8h 9h Th Jh"))),
)


@dataclass(frozen=True, repr=False)
class Dilemma(Result):
    """One classic dilemma: the hand, and each option's exact value for every opponent count."""

    title: str
    hand: str                                             # pretty cards
    opponents: tuple[int, ...]
    options: tuple[tuple[str, tuple[float, ...]], ...]    # (label, value per opponent count)


def _hold_number(deal_sorted: npt.NDArray[np.int8], kept: str) -> int:
    keep = set(parse_hand(kept, size=len(kept.split())).tolist())
    return sum(1 << i for i, c in enumerate(deal_sorted) if int(c) in keep)


def dilemma_values(solvers: dict[int, Solver], *, trials: int = 0, seed: int = 1, policy: str = "standard"
                   ) -> list[Dilemma]:
    """Value of each option of each of the ``DILEMMAS`` for every opponent count: exact with the
    opponents independent of our cards, or with ``trials`` simulated deals (by ``policy``) where
    the opponents are dealt from the cards we do not hold, as ``keep`` deals them."""
    out = []
    ns = tuple(sorted(solvers))
    for title, hand, options in DILEMMAS:
        deal = np.sort(parse_hand(hand))
        holds = [_hold_number(deal, kept) for _, kept in options]
        if trials:
            values = []
            for n in ns:
                v = np.full(32, np.nan)
                rules = solvers[n].rules
                result = hold_equities(deal, hold_masks(np.array(holds)), rules,
                                       OpponentModel(opponents=n, policy=policy), trials=trials, seed=seed,
                                       workers=1).complete()
                v[holds] = result.equity
                values.append(v)
        else:
            values = [solvers[n].hold_values(deal[None, :]).values[0] for n in ns]
        out.append(Dilemma(title, format_hand(parse_hand(hand), pretty=True), ns,
                           tuple((label, tuple(float(v[m]) for v in values))
                                 for (label, _), m in zip(options, holds, strict=True))))
    return out
