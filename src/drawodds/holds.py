"""Holds: the 32 ways to keep cards from five, their legality, and exact draw enumeration.

A hold is a boolean mask over the five dealt cards (True = kept), or the same as a *hold number*
0..31 whose bit i keeps card i (``hold_numbers`` and ``hold_masks`` convert); whole-table code
indexes arrays by hold number. Which holds a rule set allows is decided here once, from
``RuleSet.draw_limit`` and ``RuleSet.draw_aces``, for keep, reading, strategy tables and the draw
policies alike. Drawing ``d`` cards from the ``m`` unseen cards has C(m, d) equally likely
outcomes; over all 32 holds of a 52-card hand that is exactly the 2,598,960 five-card hands once,
so every hold is solved exactly.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER, format_cards, unseen
from drawodds.combinatorics import combinations
from drawodds.evaluate import (
    CATEGORIES,
    N_STRENGTHS,
    category_floor,
    evaluate,
    jacks_or_better_floor,
    key_sums,
    strength_from_keys,
)
from drawodds.results import Result, shown_as
from drawodds.rules import RuleSet

N_HOLDS = 32        # holds of a five-card hand; bit i of a hold number keeps card i
HOLD_SIZES = np.array([bin(m).count("1") for m in range(N_HOLDS)], dtype=np.int64)   # cards kept
HOLD_SIZES.setflags(write=False)
HOLD_POSITIONS = tuple(tuple(i for i in range(5) if m >> i & 1) for m in range(N_HOLDS))   # kept cards
CHUNK = 1 << 15


def hold_numbers(keep: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Keep masks (..., 5) as hold numbers (...): bit i keeps card i."""
    return (np.asarray(keep, dtype=np.int64) << np.arange(5)).sum(axis=-1)


def hold_masks(numbers: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Hold numbers (...) as keep masks (..., 5)."""
    return (np.asarray(numbers, dtype=np.int64)[..., None] >> np.arange(5)) & 1 == 1


@functools.cache
def all_hold_masks() -> npt.NDArray[np.bool_]:
    """The 32 keep-masks, most cards kept first (pat, then draw 1, ...), read-only."""
    masks = hold_masks(np.arange(N_HOLDS))
    order = np.lexsort((np.arange(N_HOLDS), -masks.sum(axis=1)))
    out = masks[order]
    out.setflags(write=False)
    return out


def draw_limits(keeps_ace: npt.NDArray[np.bool_], rules: RuleSet) -> npt.NDArray[np.int64]:
    """Cards each hold may draw, given whether it keeps a draw ace (``RuleSet.draw_limit``, vectorized)."""
    return np.where(keeps_ace, rules.draw_limit(True), rules.draw_limit(False))


def legal_hold_table(hands: npt.NDArray[np.integer], rules: RuleSet) -> npt.NDArray[np.bool_]:
    """(N, 32) whether each hold number of each hand (N, 5) is legal: it draws no more than the
    rule set's limit, which under "4 with an ace" depends on keeping a card ``RuleSet.draw_aces``
    counts as the ace."""
    ace_bits = hold_numbers(rules.draw_aces(np.asarray(hands)))
    keeps_ace = (ace_bits[:, None] & np.arange(N_HOLDS)[None, :]) != 0
    return (5 - HOLD_SIZES)[None, :] <= draw_limits(keeps_ace, rules)


def legal_holds(hand: npt.NDArray[np.integer], rules: RuleSet) -> npt.NDArray[np.bool_]:
    """Keep-masks of the holds this rule set allows for the hand (draw limit, 4 with an ace),
    most cards kept first (the order of ``all_hold_masks``)."""
    masks = all_hold_masks()
    legal = legal_hold_table(np.asarray(hand)[None, :], rules)[0]
    return masks[legal[hold_numbers(masks)]]


def hold_openers_split(hand: npt.NDArray[np.integer], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Whether each hold discards part of the openers (Jacks or Better), for a hand that opens.

    A hold keeps its openers when the kept cards alone still show them: all five cards, or a
    pair of jacks or better / two pair / trips / quads among the kept ranks. The joker pairs only
    as an ace (it fills a straight or flush, which needs all five cards anyway).
    """
    hand = np.asarray(hand)
    if evaluate(hand, joker=True) < jacks_or_better_floor():
        return np.zeros(len(masks), dtype=bool)
    ranks = np.where(hand == JOKER, 12, hand // 4)
    kept_counts = np.stack([((ranks == r) & masks).sum(axis=1) for r in range(13)], axis=1)
    big = (kept_counts[:, 9:] >= 2).any(axis=1)   # a pair of jacks or better
    pairs = (kept_counts >= 2).sum(axis=1)
    trips = (kept_counts >= 3).any(axis=1)
    keeps = masks.all(axis=1) | big | (pairs >= 2) | trips
    return ~keeps


def proves_openers(cards: Sequence[int]) -> bool:
    """Whether these cards (at most four of a hand) alone show Jacks-or-Better openers.

    The scalar twin of ``hold_openers_split`` for one hold, for the engine's draw: a pair of
    jacks or better, two pair, trips or quads; the joker pairs as an ace."""
    counts: dict[int, int] = {}
    for c in cards:
        r = 12 if c == JOKER else c >> 2
        counts[r] = counts.get(r, 0) + 1
    pairs = 0
    for r, k in counts.items():
        if k >= 3 or (k == 2 and r >= 9):
            return True
        pairs += k == 2
    return pairs >= 2


def openers_aside(kept: Sequence[int], discards: Sequence[int]) -> tuple[int, ...]:
    """The fewest discards an opener must keep aside so that they and the kept cards prove the
    opening: () when the kept cards alone prove it (nothing to announce).

    The rule page says showing the cards that prove the opening is enough, so only those are set
    aside; all five (a straight, flush or full house) when nothing smaller proves it."""
    if len(kept) == 5 or proves_openers(kept):
        return ()
    for size in range(1, len(discards) + 1):
        for extra in itertools.combinations(discards, size):
            if len(kept) + size == 5 or proves_openers((*kept, *extra)):
                return extra
    return tuple(discards)


@dataclass(frozen=True, repr=False)
class ExactHolds(Result):
    """Exact final-strength counts of each hold: ``counts[i, s]`` draws end at strength ``s``."""

    hand: npt.NDArray[np.int8] = field(metadata=shown_as(format_cards))
    masks: npt.NDArray[np.bool_]
    counts: npt.NDArray[np.int64]      # (holds, N_STRENGTHS)
    totals: npt.NDArray[np.int64]      # C(unseen, draws) per hold

    @property
    def draws(self) -> npt.NDArray[np.int64]:
        """Cards drawn by each hold."""
        return 5 - self.masks.sum(axis=1)

    def category_probabilities(self) -> npt.NDArray[np.float64]:
        """(holds, 10) probability of each final category (five aces last, joker decks only)."""
        floors = np.array([category_floor(c) for c in range(len(CATEGORIES))])
        per_cat = np.add.reduceat(self.counts, floors, axis=1)
        return per_cat / self.totals[:, None]

    def p_at_least(self, strength: int) -> npt.NDArray[np.float64]:
        """Probability that each hold finishes at ``strength`` or better."""
        return self.counts[:, strength:].sum(axis=1) / self.totals

    def p_jacks_or_better(self) -> npt.NDArray[np.float64]:
        """Probability of finishing with at least a pair of jacks."""
        return self.p_at_least(jacks_or_better_floor())

    def p_improve(self, dealt_strength: int) -> npt.NDArray[np.float64]:
        """Probability of finishing in a higher category than the dealt hand."""
        dealt_cat = int(np.searchsorted([category_floor(c) for c in range(len(CATEGORIES))],
                                        dealt_strength, side="right")) - 1
        if dealt_cat + 1 >= len(CATEGORIES):
            return np.zeros(len(self.masks))
        return self.p_at_least(category_floor(dealt_cat + 1))

    def expected_points(self, hand_points: tuple[int, ...]) -> npt.NDArray[np.float64]:
        """Expected table points (Poengpoker: 0..8 by category; five aces score as a straight flush)."""
        pts = np.array(list(hand_points) + [hand_points[-1]], dtype=np.float64)
        return self.category_probabilities() @ pts

    def value(self, per_strength: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Expected value of any objective given as a value per final strength (length N_STRENGTHS)."""
        return (self.counts @ per_strength) / self.totals


def exact_holds(hand: npt.NDArray[np.integer], rules: RuleSet, *,
                masks: npt.NDArray[np.bool_] | None = None,
                dead: npt.ArrayLike = ()) -> ExactHolds:
    """Enumerate every draw of every legal hold (or the given masks) exactly.

    Card keys add, so the key sums of all C(m, d) draw sets are computed once per draw size and
    shared by every hold that draws ``d`` cards; a hold then costs one add and one table lookup
    per outcome. ``dead`` cards (known to be out of the deck: an opponent's known hand, seen
    discards) leave the stub, so every count and total is over the cards nobody was seen holding.
    """
    hand = np.asarray(hand, dtype=np.int8)
    if masks is None:
        masks = legal_holds(hand, rules)
    stub = unseen([*hand.tolist(), *np.asarray(dead, dtype=np.int64).ravel().tolist()], joker=rules.joker)
    stub_keys = key_sums(stub[:, None])
    draws = 5 - masks.sum(axis=1)
    kept_sums = (masks * key_sums(hand[:, None])).sum(axis=1, dtype=np.uint32)
    counts = np.zeros((len(masks), N_STRENGTHS), dtype=np.int64)
    sums = np.empty(CHUNK, dtype=np.uint32)
    for d in sorted(set(draws.tolist())):   # not np.unique: it loads numpy.ma (10-25 ms) on first use
        combo = combinations(len(stub), int(d))
        holds_d = np.flatnonzero(draws == d)
        # Blocks of CHUNK draws keep every temporary in cache (3-4x faster than whole arrays).
        for start in range(0, len(combo), CHUNK):
            block = combo[start:start + CHUNK]
            ds = sums[:len(block)]
            ds[:] = 0
            for j in range(int(d)):
                ds += stub_keys.take(block[:, j], mode="clip")
            for i in holds_d:
                counts[i] += np.bincount(strength_from_keys(ds + kept_sums[i]), minlength=N_STRENGTHS)
    totals = np.array([comb(len(stub), int(d)) for d in draws], dtype=np.int64)
    return ExactHolds(hand.astype(np.int8, copy=False), masks, counts, totals)


def final_strengths(hands: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_],
                    draw_cards: npt.NDArray[np.int8]) -> npt.NDArray[np.int16]:
    """Strengths after each hand (..., 5) keeps ``masks`` and fills up from ``draw_cards`` in order.

    ``draw_cards`` (..., k) must hold at least as many cards as any hand draws; the hand that
    draws ``d`` takes the first ``d`` of its row (prefix sums of the card keys).
    """
    kept = (key_sums(hands[..., None]) * masks).sum(axis=-1, dtype=np.uint32)
    drawn = 5 - masks.sum(axis=-1)
    prefix = np.zeros((*draw_cards.shape[:-1], draw_cards.shape[-1] + 1), dtype=np.uint32)
    np.cumsum(key_sums(draw_cards[..., None]), axis=-1, out=prefix[..., 1:])
    sums = kept + np.take_along_axis(prefix, drawn[..., None], axis=-1)[..., 0]
    return strength_from_keys(sums.ravel()).reshape(sums.shape)
