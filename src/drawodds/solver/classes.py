"""Suit classes: the 134,459 deals up to renaming suits, and a real hand's class and suit renaming."""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from drawodds.combinatorics import combinations
from drawodds.solver.subsets import N_CARDS, Ints


@functools.cache
def deal_classes() -> tuple[npt.NDArray[np.int8], Ints]:
    """One sorted representative per suit-isomorphism class of five-card deals and its weight.

    Hands are equal up to renaming suits iff their per-suit rank masks are the same multiset; the
    representative has the masks non-increasing from clubs to spades. 134,459 classes whose
    weights (24 over the permutations that fix the hand) sum to 2,598,960.
    """
    hands = combinations(N_CARDS, 5)
    bits = np.left_shift(1, np.arange(13).repeat(4) + 13 * np.tile(np.arange(4), 13)).astype(np.int64)
    packed = bits.take(hands).sum(axis=1)
    masks = [(packed >> (13 * s)) & 0x1FFF for s in range(4)]
    keep = (masks[0] >= masks[1]) & (masks[1] >= masks[2]) & (masks[2] >= masks[3])
    reps = np.ascontiguousarray(hands[keep])
    ms = [m[keep] for m in masks]
    stab = np.ones(len(reps), dtype=np.int64)
    run = np.ones(len(reps), dtype=np.int64)
    for a, b in ((0, 1), (1, 2), (2, 3)):
        eq = ms[a] == ms[b]
        run = np.where(eq, run + 1, 1)
        stab *= np.where(eq, run, 1)
    weights = 24 // stab
    reps.setflags(write=False)
    weights.setflags(write=False)
    return reps, weights


@functools.cache
def class_keys() -> tuple[Ints, Ints]:
    """Sorted suit-mask keys of the deal classes and the class of each key."""
    reps, _ = deal_classes()
    keys = _suit_keys(np.sort(_suit_masks(reps), axis=1)[:, ::-1])
    order = np.argsort(keys)
    return keys[order], order


def _suit_masks(hands: npt.NDArray[np.integer]) -> Ints:
    """(N, 4) 13-bit rank mask of each suit of each hand."""
    h = np.asarray(hands, dtype=np.int64)
    bits = np.left_shift(1, h // 4)
    return np.stack([np.where(h % 4 == s, bits, 0).sum(axis=1) for s in range(4)], axis=1)


def _suit_keys(masks: Ints) -> Ints:
    return (masks[:, 0] << 39) | (masks[:, 1] << 26) | (masks[:, 2] << 13) | masks[:, 3]


def classify(hands: npt.NDArray[np.integer]) -> tuple[Ints, Ints]:
    """Deal class of each hand and the suit renaming (hand suit -> class suit) that turns the hand
    into the class representative."""
    masks = _suit_masks(hands)
    order = np.argsort(-masks, axis=1, kind="stable")          # class suit j is hand suit order[j]
    keys, classes = class_keys()
    key = _suit_keys(np.take_along_axis(masks, order, axis=1))
    pos = np.searchsorted(keys, key)
    if (keys[np.minimum(pos, len(keys) - 1)] != key).any():
        raise ValueError("a hand matched no deal class (repeated cards?)")
    rename = np.empty_like(order)
    np.put_along_axis(rename, order, np.arange(4)[None, :], axis=1)
    return classes[pos], rename


def class_hold_cards(hands: npt.NDArray[np.integer], class_holds: npt.NDArray[np.integer],
                     column: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """(N, 5) which cards of each hand (in the order given) its deal class's hold in ``column``
    keeps: ``class_holds`` is (deal classes, columns) of hold masks over the class representative."""
    h = np.asarray(hands, dtype=np.int64)
    cls, rename = classify(h)
    mapped = (h // 4) * 4 + np.take_along_axis(rename, h % 4, axis=1)
    rep = deal_classes()[0][cls].astype(np.int64)
    position = (mapped[:, :, None] == rep[:, None, :]).argmax(axis=2)
    hold = np.asarray(class_holds)[cls, np.asarray(column)].astype(np.int64)
    return ((hold[:, None] >> position) & 1).astype(bool)
