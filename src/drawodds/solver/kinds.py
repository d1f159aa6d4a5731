"""Plain-words kinds of dealt hands: the rows of the solver's summaries."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from drawodds.evaluate import FLUSH, HIGH_CARD, ONE_PAIR, STRAIGHT, category_of, evaluate
from drawodds.kinds import SolvedKind
from drawodds.solver.subsets import Ints

HAND_KINDS = SolvedKind.labels()      # the summaries' rows, weakest first


def hand_kinds(deals: npt.NDArray[np.integer], natural_draw: Ints) -> npt.NDArray[np.object_]:
    """A plain-words kind for each dealt hand (one of ``HAND_KINDS``): nothing by its top card, a
    three- or four-card draw (no pair, best kept with three or four cards), pairs by rank, two
    pair and better by category."""
    s = evaluate(deals)
    cat = category_of(s)
    top = np.asarray(deals).max(axis=1) // 4
    kind = np.empty(len(s), dtype=object)
    kind[:] = HAND_KINDS[0]
    kind[top == 11] = HAND_KINDS[1]
    kind[top == 12] = HAND_KINDS[2]
    kind[(cat == HIGH_CARD) & (natural_draw == 2)] = HAND_KINDS[3]
    kind[(cat == HIGH_CARD) & (natural_draw == 1)] = HAND_KINDS[4]
    ranks = np.asarray(deals) // 4
    pair_rank = np.where((ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) == 2, ranks, -1).max(axis=1)
    for name, lo, hi in ((HAND_KINDS[5], 0, 4), (HAND_KINDS[6], 5, 8), (HAND_KINDS[7], 9, 9),
                         (HAND_KINDS[8], 10, 10), (HAND_KINDS[9], 11, 11), (HAND_KINDS[10], 12, 12)):
        kind[(cat == ONE_PAIR) & (pair_rank >= lo) & (pair_rank <= hi)] = name
    for name, c in ((HAND_KINDS[11], ONE_PAIR + 1), (HAND_KINDS[12], ONE_PAIR + 2), (HAND_KINDS[13], STRAIGHT),
                    (HAND_KINDS[14], FLUSH)):
        kind[cat == c] = name
    kind[cat > FLUSH] = HAND_KINDS[15]
    return kind
