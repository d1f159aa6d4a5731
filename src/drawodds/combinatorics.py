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


def subset_rank(subsets: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Colex rank of each sorted k-subset (rows ascending): sum of C(c_i, i + 1).

    The combinatorial number system maps the k-subsets of range(n) onto 0 .. C(n, k) - 1
    without gaps, so the rank can index a flat array of per-subset values.
    """
    arr = np.asarray(subsets, dtype=np.int64)
    k = arr.shape[-1]
    binom = np.array([[comb(c, i + 1) for i in range(max(k, 1))] for c in range(128)], dtype=np.int64)
    out = np.zeros(arr.shape[:-1], dtype=np.int64)
    for i in range(k):
        out += binom[arr[..., i], i]
    return out
