"""Combinations as numpy arrays and the combinatorial number system (ranking k-subsets)."""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import numpy.typing as npt


@functools.cache
def combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    """All k-subsets of range(n) in lexicographic order, shape (C(n, k), k), read-only.

    Built from the subsets that start after each possible first element, so the work is a
    few dozen array copies rather than one Python tuple per subset.
    """
    if not 0 <= k <= n <= 127:
        raise ValueError(f"need 0 <= k <= n <= 127, got n={n}, k={k}")
    if k == 0:
        out = np.zeros((1, 0), dtype=np.int8)
    elif k == 1:
        out = np.arange(n, dtype=np.int8)[:, None]
    else:
        parts = []
        for first in range(n - k + 1):
            rest = combinations(n - first - 1, k - 1) + np.int8(first + 1)
            head = np.full((len(rest), 1), first, dtype=np.int8)
            parts.append(np.hstack([head, rest]))
        out = np.vstack(parts)
    out.setflags(write=False)
    return out


def all_hands() -> npt.NDArray[np.int8]:
    """Every five-card hand from 52 cards: 2,598,960 rows in lexicographic order."""
    return combinations(52, 5)


MAX_N = 127   # the largest set whose subsets are ranked here
MAX_K = 7     # the largest subset ranked here (hands have five cards)


@functools.cache
def binomials() -> npt.NDArray[np.int64]:
    """``B[j, c] = C(c, j)`` for j = 0..8 and c = 0..127, read-only: the table behind every rank.

    One row per subset position, so ``B[j].take(cards)`` reads a contiguous row."""
    out = np.array([[comb(c, j) for c in range(MAX_N + 1)] for j in range(MAX_K + 2)], dtype=np.int64)
    out.setflags(write=False)
    return out


def subset_rank(subsets: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Colex rank of each sorted k-subset (rows ascending): sum of C(c_i, i + 1).

    The combinatorial number system maps the k-subsets of range(n) onto 0 .. C(n, k) - 1
    without gaps, so the rank can index a flat array of per-subset values.
    """
    arr = np.asarray(subsets, dtype=np.int64)
    k = arr.shape[-1]
    if k > MAX_K:
        raise ValueError(f"ranks subsets of at most {MAX_K} elements, got {k}")
    b = binomials()
    out = np.zeros(arr.shape[:-1], dtype=np.int64)
    for i in range(k):
        out += b[i + 1].take(arr[..., i])
    return out


def ranks_without_each(subsets: npt.NDArray[np.integer]) -> list[npt.NDArray[np.int64]]:
    """For sorted k-subsets (rows), the colex ranks of the k (k-1)-subsets that drop one element:
    entry ``j`` drops element ``j``. Built from prefix and suffix sums, without re-sorting."""
    b = binomials()
    k = subsets.shape[1]
    # Element j keeps its position j before the dropped one and moves down one place after it.
    up = [b[j + 1].take(subsets[:, j]) for j in range(k)]
    down = [b[j].take(subsets[:, j]) for j in range(k)]
    prefix = [np.zeros(len(subsets), dtype=np.int64)]
    for j in range(k - 1):
        prefix.append(prefix[-1] + up[j])
    suffix = [np.zeros(len(subsets), dtype=np.int64)]
    for j in range(k - 1, 0, -1):
        suffix.append(suffix[-1] + down[j])
    return [prefix[drop] + suffix[k - 1 - drop] for drop in range(k)]
