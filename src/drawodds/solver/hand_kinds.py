"""Plain-words kinds of dealt hands: the rows of the solver's summaries."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from drawodds.evaluate import FLUSH, HIGH_CARD, ONE_PAIR, STRAIGHT, category_of, evaluate
from drawodds.kinds import SolvedKind
from drawodds.solver.subsets import Ints

HAND_KINDS = SolvedKind.labels()      # the summaries' rows, weakest first
K = SolvedKind


def hand_kinds(deals: npt.NDArray[np.integer], natural_draw: Ints) -> npt.NDArray[np.object_]:
    """A plain-words kind for each dealt hand (one of ``HAND_KINDS``): nothing by its top card, a
    three- or four-card draw (no pair, best kept with three or four cards), pairs by rank, two
    pair and better by category."""
    s = evaluate(deals)
    cat = category_of(s)
    top = np.asarray(deals).max(axis=1) // 4
    kind = np.empty(len(s), dtype=object)
    kind[:] = K.QUEEN_HIGH_OR_LESS.label
    kind[top == 11] = K.KING_HIGH.label
    kind[top == 12] = K.ACE_HIGH.label
    kind[(cat == HIGH_CARD) & (natural_draw == 2)] = K.THREE_CARD_DRAW.label
    kind[(cat == HIGH_CARD) & (natural_draw == 1)] = K.FOUR_CARD_DRAW.label
    ranks = np.asarray(deals) // 4
    pair_rank = np.where((ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) == 2, ranks, -1).max(axis=1)
    for name, lo, hi in ((K.DEUCES_TO_SIXES.label, 0, 4), (K.SEVENS_TO_TENS.label, 5, 8), (K.JACKS.label, 9, 9),
                         (K.QUEENS.label, 10, 10), (K.KINGS.label, 11, 11), (K.ACES.label, 12, 12)):
        kind[(cat == ONE_PAIR) & (pair_rank >= lo) & (pair_rank <= hi)] = name
    for name, c in ((K.TWO_PAIR.label, ONE_PAIR + 1), (K.TRIPS.label, ONE_PAIR + 2), (K.STRAIGHT.label, STRAIGHT),
                    (K.FLUSH.label, FLUSH)):
        kind[cat == c] = name
    kind[cat > FLUSH] = K.FULL_HOUSE_OR_BETTER.label
    return kind
