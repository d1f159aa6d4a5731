"""Scalar access to the evaluator's tables, for the engine's per-deal showdowns.

A numpy call costs ~10-30 µs however small the array; one deal needs a handful of strengths.
This reads the *same* key and strength tables as ``drawodds.evaluate`` (built from its public
``key_sums`` / ``strength_from_keys``), so a hand costs ~1 µs from plain Python ints.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Sequence

import numpy as np

from drawodds.cards import JOKER
from drawodds.evaluate import jacks_or_better_floor, key_sums, strength_from_keys

_SUIT_FLUSH_MASK = 0x249  # top bit of each 3-bit suit counter


@functools.cache
def _scalar_tables() -> tuple[list[int], array]:
    keys = key_sums(np.arange(JOKER + 1, dtype=np.int64)[:, None]).tolist()
    biggest = sum(keys[c] for c in (48, 49, 50, 51, 47, JOKER))  # an upper bound on any key sum
    rest = np.arange((biggest >> 12) + 1, dtype=np.uint32)
    # An index is (rank sum, joker bit, flush bit); a suit counter of 5 (0b101) marks the flush.
    sums = np.stack([rest << 12, (rest << 12) | 5], axis=1).ravel()
    table = array("h", strength_from_keys(sums).astype(np.int16).tobytes())
    return keys, table


def hand_strength(cards: Sequence[int]) -> int:
    """Strength of five cards (same value as ``evaluate``), from plain ints."""
    keys, table = _scalar_tables()
    a, b, c, d, e = cards  # unpacked: cheaper than a loop on the engine's hot path
    s = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
    flush = 1 if (s >> 2) & s & _SUIT_FLUSH_MASK else 0
    return table[((s >> 11) & ~1) | flush]


@functools.cache
def openers_floor() -> int:
    """Lowest strength that may open under Jacks or Better (a pair of jacks)."""
    return jacks_or_better_floor()
