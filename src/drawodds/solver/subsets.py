"""Exact draws by subset sums: every hold's outcomes over the 2,598,960 hands, without dealing them."""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import numpy.typing as npt

from drawodds.combinatorics import combinations
from drawodds.evaluate import evaluate
from drawodds.solver.spread import Shelved, Spread, _open

N_CARDS = 52
N_STRENGTHS = 7463                      # strengths 1..7462 (0 unused), no joker
N_MASKS = 32                            # hold masks: bit i keeps the i-th card of the sorted deal
POPCOUNT = np.array([bin(m).count("1") for m in range(N_MASKS)], dtype=np.int64)
BLOCK = 1 << 16                         # hands per block in the passes over all 2,598,960 hands
CLASS_BLOCK = 4096                      # deal classes per block (and per chunk of work) in the class passes
SLAB = 1 << 21                          # subset x bucket bins per bincount in bucket_counts
SLAB_HANDS = 8 * BLOCK                  # hands per chunk of a slab in bucket_counts
BINOM = np.array([[comb(c, j) for j in range(6)] for c in range(N_CARDS + 1)], dtype=np.int64)


Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def subset_ranks(cards: npt.NDArray[np.integer]) -> Ints:
    """(N, 32) colex rank of every subset of each sorted five-card row, by hold mask (stored
    column by column: each mask's ranks are contiguous)."""
    cols = np.ascontiguousarray(np.asarray(cards, dtype=np.intp).T)
    out = np.zeros((N_MASKS, len(cards)), dtype=np.int64)
    for m in range(1, N_MASKS):
        top = m.bit_length() - 1
        np.add(out[m ^ (1 << top)], BINOM[:, POPCOUNT[m]].take(cols[top]), out=out[m])
    return out.T


@functools.cache
def hand_strengths() -> npt.NDArray[np.int16]:
    """Strength of every hand of ``combinations(52, 5)``."""
    out = evaluate(combinations(N_CARDS, 5))
    out.setflags(write=False)
    return out


def scalar_subset_sums(values: Floats) -> tuple[Floats, ...]:
    """S_k[U] = sum of a per-hand value over the hands containing the k-subset U, k = 0..4."""
    hands = combinations(N_CARDS, 5)
    levels = [np.zeros(comb(N_CARDS, k)) for k in range(5)]
    levels[0][0] = values.sum()
    for start in range(0, len(hands), BLOCK):
        ranks, v = subset_ranks(hands[start:start + BLOCK]), values[start:start + BLOCK]
        for m in range(1, N_MASKS - 1):
            k = int(POPCOUNT[m])
            levels[k] += np.bincount(ranks[:, m], weights=v, minlength=len(levels[k]))
    return tuple(levels)


def hold_numerators(deals: npt.NDArray[np.integer], own: Floats, levels: tuple[Floats, ...]) -> Floats:
    """(N, 32) total value over every draw of each hold (inclusion-exclusion over the discards)."""
    ranks = subset_ranks(deals)
    f = np.empty((N_MASKS, len(deals)))
    for m in range(N_MASKS - 1):
        f[m] = levels[POPCOUNT[m]].take(ranks[:, m])
    f[N_MASKS - 1] = own
    for bit in range(5):
        for m in range(N_MASKS):
            if not m >> bit & 1:
                f[m] -= f[m | (1 << bit)]
    return f.T


OUTCOMES = np.array([comb(N_CARDS - 5, d) for d in range(6)], dtype=np.int64)


def draw_outcomes(draws: npt.ArrayLike) -> Ints:
    """C(47, d): equally likely draws of d cards from the 47 unseen."""
    return OUTCOMES[np.asarray(draws, dtype=np.int64)]


def final_distribution(deals: npt.NDArray[np.integer], holds: Ints, weights: Floats,
                       spread: Spread | None = None) -> Floats:
    """Probability of each final strength when deal i (weight w_i) keeps hold i and draws.

    Each deal spreads +-w / C(47, d) over the subsets of its cards that contain the hold; a final
    hand's probability is the sum over its 32 subsets (the transpose of ``hold_numerators``),
    gathered per block of hands (the chunks of ``spread``).
    """
    spread = spread or Spread()
    ranks = subset_ranks(deals)
    base = weights / draw_outcomes(5 - POPCOUNT[holds])
    levels = [np.zeros(comb(N_CARDS, k)) for k in range(6)]
    for m in range(N_MASKS):
        sel = (m & holds) == holds
        if sel.any():
            sign = np.where((POPCOUNT[m] - POPCOUNT[holds[sel]]) % 2 == 0, 1.0, -1.0)
            k = int(POPCOUNT[m])
            levels[k] += np.bincount(ranks[sel, m], weights=sign * base[sel], minlength=len(levels[k]))
    shelved = tuple(spread.put(level) for level in levels)
    dist = np.zeros(N_STRENGTHS)
    for part in spread.map(_final_block, [(shelved, start) for start in range(0, comb(N_CARDS, 5), BLOCK)]):
        dist += part
    return np.clip(dist, 0.0, None) / weights.sum()


def _final_block(levels: tuple[Shelved, ...], start: int) -> Floats:
    """Mass of each final strength among the hands of one block (a chunk of ``final_distribution``)."""
    tables = [_open(level) for level in levels]
    ranks = subset_ranks(combinations(N_CARDS, 5)[start:start + BLOCK])
    prob = np.full(len(ranks), tables[0][0])
    for m in range(1, N_MASKS):
        prob += tables[int(POPCOUNT[m])].take(ranks[:, m])
    return np.bincount(hand_strengths()[start:start + BLOCK], weights=prob, minlength=N_STRENGTHS).astype(np.float64)


def bucket_counts(labels: Ints, n_buckets: int, levels: tuple[int, ...], spread: Spread | None = None
                  ) -> dict[int, npt.NDArray]:
    """S_k[U, f]: how many hands with final bucket f contain the k-subset U, for the given k.

    Counts are gathered in slabs of buckets (one bincount over subset x bucket per slab) so that
    the level-4 table (270,725 subsets x buckets) never needs a larger temporary. The chunks of
    ``spread`` are slabs, cut further into runs of ``SLAB_HANDS`` hands (whole numbers: the sum
    is exact in any order)."""
    spread = spread or Spread()
    out: dict[int, npt.NDArray] = {}
    calls: list[tuple[object, ...]] = []
    where: list[tuple[int, int, int]] = []          # (k, lo, hi) of each call
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    shelved = (spread.put(order), spread.put(sorted_labels))
    for k in levels:
        n_sub = comb(N_CARDS, k)
        out[k] = np.zeros((n_sub, n_buckets), dtype=np.int16 if k >= 2 else np.int64)
        width = max(1, min(n_buckets, SLAB // n_sub))
        if k > 0:
            for lo in range(0, n_buckets, width):
                hi = min(lo + width, n_buckets)
                i0, i1 = (int(i) for i in np.searchsorted(sorted_labels, [lo, hi]))
                for i in range(i0, i1, SLAB_HANDS):
                    calls.append((*shelved, k, lo, hi, i, min(i + SLAB_HANDS, i1), out[k].dtype))
                    where.append((k, lo, hi))
    if 0 in out:
        out[0][0] = np.bincount(labels, minlength=n_buckets)

    def add(i: int, part: npt.NDArray) -> None:
        k, lo, hi = where[i]
        out[k][:, lo:hi] += part

    spread.map(_count_slab, calls, each=add)
    return out


def _count_slab(order: Shelved, sorted_labels: Shelved, k: int, lo: int, hi: int, i0: int, i1: int,
                dtype: np.dtype) -> npt.NDArray:
    """Counts of subsets of size ``k`` in hands ``order[i0:i1]``, all of buckets ``lo`` to ``hi``
    (``sorted_labels[i0:i1]``): one chunk of a slab of ``bucket_counts``."""
    hands, order_, labels_ = combinations(N_CARDS, 5), _open(order), _open(sorted_labels)
    n_sub = comb(N_CARDS, k)
    masks = [m for m in range(1, N_MASKS - 1) if POPCOUNT[m] == k]
    acc = np.zeros(n_sub * (hi - lo), dtype=np.int64)
    for part in range(i0, i1, BLOCK):
        stop = min(part + BLOCK, i1)
        ranks = subset_ranks(hands[order_[part:stop]])
        bins = ranks[:, masks] * (hi - lo) + (labels_[part:stop] - lo)[:, None]
        acc += np.bincount(bins.ravel(), minlength=len(acc))       # one pass over the slab per block
    return acc.reshape(n_sub, hi - lo).astype(dtype)


def hold_transitions(deals: npt.NDArray[np.integer], holds: Ints, own: Ints, counts: dict[int, npt.NDArray],
                     n_buckets: int) -> npt.NDArray[np.float32]:
    """(N, buckets) exact distribution of the final bucket when deal i keeps hold i.

    ``own`` is each deal's bucket as dealt (the 5-card term of the inclusion-exclusion)."""
    ranks = subset_ranks(deals)
    kept = POPCOUNT[holds]
    out = np.zeros((len(deals), n_buckets), dtype=np.float32)
    for d in np.unique(5 - kept):
        sel = np.flatnonzero(5 - kept == d)
        h = holds[sel]
        bits = (h[:, None] >> np.arange(5)) & 1
        free = np.argsort(bits, axis=1, kind="stable")[:, :d]        # the discarded positions
        acc = np.zeros((len(sel), n_buckets), dtype=np.float32)
        for j in range(1 << int(d)):
            m = h.copy()
            for i in range(int(d)):
                if j >> i & 1:
                    m |= 1 << free[:, i]
            level = 5 - int(d) + bin(j).count("1")
            sign = 1.0 if (level - (5 - d)) % 2 == 0 else -1.0
            if level == 5:
                acc[np.arange(len(sel)), own[sel]] += sign
            elif sign > 0:        # whole numbers below 2**24: exact in float32, no float64 temporary
                acc += counts[level][ranks[sel, m]]
            else:
                acc -= counts[level][ranks[sel, m]]
        out[sel] = acc / float(comb(N_CARDS - 5, int(d)))
    return out
