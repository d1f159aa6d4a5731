"""Batched dealing from the unseen cards, laid out so that every hold sees the same deal.

Each trial is one shuffle of the stub (the cards we cannot see). Fixed slices of it play fixed
roles: the opponents' five cards, then our replacement cards, then each opponent's replacement
cards. The slices are assigned before any card is looked at, so by exchangeability the joint
distribution is exactly that of a real deal and draw, and because our replacement cards sit in
the same place for every hold, all holds are compared on common random numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds.errors import RequestError
from drawodds.rules import RuleError, RuleSet


@dataclass(frozen=True)
class DealLayout:
    """Where each role's cards sit in a shuffled stub: the opponents' hands (five each), then
    our replacement cards, then each opponent's replacement cards (``max_draw`` each)."""

    opponents: int
    max_draw: int

    def opponent_hand(self, i: int) -> slice:
        """Opponent ``i``'s dealt hand."""
        return slice(5 * i, 5 * i + 5)

    @property
    def cards_needed(self) -> int:
        """Cards one trial consumes at most."""
        return 5 * self.opponents + self.max_draw * (1 + self.opponents)


def layout_for(rules: RuleSet, opponents: int, stub_size: int) -> DealLayout:
    """The layout for this table, or a RuleError when the stub cannot serve every draw.

    (At the table the stub is rebuilt from discards; the Monte Carlo keeps draws from the
    untouched stub, which is exact whenever the stub suffices, and refuses otherwise.)
    """
    layout = DealLayout(opponents, rules.max_draw_cards)
    if layout.cards_needed > stub_size:
        most = max(n for n in range(0, 8) if DealLayout(n, rules.max_draw_cards).cards_needed <= stub_size)
        raise RuleError("{opponents} opponents drawing up to {max_draw} cards need {need} unseen cards but only "
                        "{left} remain; use at most {most} opponents with this draw limit", opponents=opponents,
                        max_draw=rules.max_draw_cards, need=layout.cards_needed, left=stub_size, most=most)
    return layout


def shuffled_stubs(stub: npt.NDArray[np.int8], trials: int, cards: int,
                   rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """The first ``cards`` cards of ``trials`` independent shuffles of ``stub``.

    A Fisher-Yates shuffle stopped after ``cards`` steps, run on all rows at once: step ``i``
    swaps position ``i`` with a uniform position in ``i..n-1``, so the first ``cards`` positions
    are a uniformly random ordered draw without replacement. Only ``cards`` of the ``n`` steps
    are needed, which is what makes this several times faster than a full shuffle per row.
    """
    n = len(stub)
    if not 0 <= cards <= n:
        raise RequestError("cannot take {cards} cards from a stub of {n}", cards=cards, n=n)
    deck = np.tile(np.asarray(stub, dtype=np.int8), (trials, 1))
    flat = deck.reshape(-1)
    row_starts = np.arange(trials, dtype=np.intp) * n
    for i in range(cards):
        j = rng.integers(i, n, size=trials)
        j += row_starts               # flat positions: half the cost of indexing by (row, column)
        picked = flat[j]
        flat[j] = deck[:, i]
        deck[:, i] = picked
    return deck[:, :cards]


def draws_avoiding(stub: npt.NDArray[np.int8], dealt: npt.NDArray[np.int8], cards: int,
                   rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """``cards`` replacement cards per row from ``stub`` less that row's ``dealt`` cards.

    Shuffle enough of the stub that, after dropping any dealt cards, ``cards`` remain; a stable
    sort moves the dealt ones to the back, so the rest keep their uniformly random order.
    """
    trials, m = dealt.shape
    perm = shuffled_stubs(stub, trials, min(len(stub), cards + m), rng)
    taken = np.zeros((trials, 53), dtype=bool)
    np.put_along_axis(taken, dealt.astype(np.intp), True, axis=1)
    in_hands = np.take_along_axis(taken, perm.astype(np.intp), axis=1)
    order = np.argsort(in_hands, axis=1, kind="stable")
    return np.take_along_axis(perm, order[:, :cards], axis=1)
