"""Choosing a deal: a batch of random deals, weighed by how close their best two holds are and by how
often this player missed their pattern."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from drawodds import i18n
from drawodds.errors import RequestError
from drawodds.kinds import HoldType
from drawodds.patterns import hold_pattern_codes, hold_type
from drawodds.trainer.drills import TrainSetup, _solver

BATCH = 256               # candidate deals weighed for each keep question
FOCUS_BATCHES = 64        # batches searched for a deal of the focus pattern before giving up
CLOSE_WEIGHT = 3.0        # extra weight of a deal whose best two holds are level
# Gap between the best two holds at which a deal counts as a close call (objective units).
CLOSE_SCALE = {"equity": 0.01, "jacks": 0.01, "points": 0.05}


def _random_deals(rng: np.random.Generator, n: int, deck: int) -> npt.NDArray[np.int8]:
    """n random five-card deals, each sorted (rows independent, no card twice in a row)."""
    return np.sort(np.argsort(rng.random((n, deck)), axis=1)[:, :5], axis=1).astype(np.int8)


def candidate_weights(setup: TrainSetup, deals: npt.NDArray[np.int8],
                      weights: Mapping[str, float]) -> tuple[npt.NDArray[np.float64], list[str]]:
    """Each deal's weight (close calls and missed patterns count more) and its pattern."""
    hv = _solver(setup.rules, setup.objective, setup.opponents, setup.policy).hold_values(deals)
    gap = hv.best_value - hv.runner_up_value
    codes = hold_pattern_codes(hv.deals, setup.rules.joker)[np.arange(len(deals)), hv.best.astype(np.int64)]
    patterns = [HoldType(int(t)).slug for t in hold_type(codes)]
    close = 1.0 + CLOSE_WEIGHT * np.exp(-np.nan_to_num(gap, nan=1.0) / CLOSE_SCALE[setup.objective])
    missed = np.array([weights.get(p, 1.0) for p in patterns])
    # Variety: a pattern's deals weigh less the more common it is (no batch of junk hands alone).
    counts = {p: patterns.count(p) for p in set(patterns)}
    missed = missed / np.sqrt([counts[p] for p in patterns])
    if setup.focus is not None:
        missed = missed * np.array([p == setup.focus for p in patterns])
    return close * missed, patterns


def choose_deal(setup: TrainSetup, weights: Mapping[str, float], rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """One deal, drawn from a batch of random deals by weight (``candidate_weights``)."""
    for _ in range(FOCUS_BATCHES):
        deals = _random_deals(rng, BATCH, setup.rules.deck_size)
        w, _ = candidate_weights(setup, deals, weights)
        if w.sum() > 0:
            return deals[rng.choice(len(deals), p=w / w.sum())]
    raise RequestError("no deal in {deals} has '{value}' as its best hold under {rule_set} and the {objective} "
                       "objective: choose another {focus}", "focus",
                       deals=i18n.local_number(f"{FOCUS_BATCHES * BATCH:,}"), value=setup.focus,
                       rule_set=setup.rules.name, objective=setup.objective)
