"""Heads-up fixed-limit draw solved by CFR: abstraction, game tree, solution and strategy tables.

The abstract game (see docs/solve.md):

- Chance deals each seat a *pre-draw bucket*: a group of suit-isomorphic deal classes with the
  same draw pattern and a similar strength, found by k-means on their exact final-hand
  distributions. The two seats' buckets are dealt independently (card removal between the two
  hands is ignored).
- Betting before the draw with the rule set's antes, small bet, cap and (Jacks or Better) openers;
  a deal everybody checks is scored as a push where the rule set redeals it.
- The draw: each seat chooses how many cards to draw (standing pat included, whatever it holds);
  a bucket's option "draw d" means every class in it keeps its best d-card hold. The new private
  state is a *final-strength bucket*, drawn from the exact distribution of the hold, mixed over
  the bucket's classes.
- Betting after the draw with the big bet, the opener acting first (or the seat left of the
  dealer, as the rule set says); the final buckets are compared at the showdown.

Public state: the betting line and both draw counts; private state: the bucket.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import math
import os
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from drawodds import paths
from drawodds.analyses import cfr, solution_file
from drawodds.cards import RANKS
from drawodds.combinatorics import combinations
from drawodds.errors import FIELD_ROUNDS, FINAL_BUCKETS, PRE_BUCKETS, SOLVE_ITERATIONS, RequestError, check_positive
from drawodds.evaluate import (
    FLUSH,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    category_of,
    describe,
    evaluate,
    jacks_or_better_floor,
)
from drawodds.execution import LOCAL_DASK, Runner, Stage
from drawodds.rules import RuleError, RuleSet, preset, preset_names

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
Shelved = npt.NDArray | str             # an array a chunk reads: itself, or the .npy file that holds it


# --- spreading the build over workers ---------------------------------------------------------

class Spread:
    """Where the heavy passes of one abstraction build run, and the arrays their chunks read.

    The chunks are fixed (blocks of deal classes or hands, slabs of buckets, draw patterns) and
    their results are combined in chunk order with the same arithmetic as in one process, so the
    abstraction is the same, bit for bit, on one process, any number of workers or a Dask
    cluster. When chunks run elsewhere, the large arrays they read are .npy files in a temporary
    folder that each chunk opens memory-mapped (one copy in the page cache, nothing large sent
    per call); the workers of a remote Dask cluster must see that folder (set TMPDIR to a folder
    they share at the same path).
    """

    def __init__(self, runner: Runner | None = None) -> None:
        self.runner = runner if runner is not None else Runner(1)
        self.folder: Path | None = None
        self._count = 0
        if self.runner.spreads(2):
            self.folder = Path(tempfile.mkdtemp(prefix="drawodds-build-"))
            if self.runner.scheduler not in (None, LOCAL_DASK):
                self._check_workers_see_folder()

    def _check_workers_see_folder(self) -> None:
        assert self.folder is not None
        probe = self.put(np.zeros(1))
        if not self.map(_readable, [(probe,)])[0]:
            folder = self.folder
            self.close()
            raise RequestError(f"the Dask workers cannot read {folder}: set TMPDIR to a folder they share "
                               "with this machine")

    def __enter__(self) -> Spread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Delete the temporary folder (memory maps still open stay valid until dropped)."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def put(self, array: npt.NDArray) -> Shelved:
        """What a chunk needs to read ``array``: the array itself when chunks run here, else the
        file it is written to (once)."""
        if self.folder is None:
            return array
        self._count += 1
        path = self.folder / f"{self._count}.npy"
        np.save(path, array)
        return str(path)

    def map(self, fn: Callable[..., object], calls: Sequence[tuple[object, ...]],
            progress: Callable[[int], None] | None = None, each: Callable[[int, Any], None] | None = None
            ) -> list:
        """``[fn(*args) for args in calls]`` on the runner, in call order; ``each(i, result)`` as
        each one is in, in call order, while later ones still run (Ctrl-C stops the build)."""
        batch = self.runner.map(fn, calls, progress, each)
        if batch.interrupted:
            raise KeyboardInterrupt
        return batch.results


def _open(array: Shelved) -> npt.NDArray:
    """The array behind a ``Spread.put``: itself, or its file memory-mapped read-only."""
    return np.load(array, mmap_mode="r") if isinstance(array, str) else array


def _readable(array: Shelved) -> bool:
    """Whether the worker running this sees the file behind ``array`` (the probe of a remote cluster)."""
    return not isinstance(array, str) or os.path.exists(array)


# --- suit classes and subsets -----------------------------------------------------------------

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


# --- the abstraction ---------------------------------------------------------------------------

PATTERN_CATEGORIES = ("high card", "pair", "two pair", "trips", "straight", "flush", "full house", "quads",
                      "straight flush")
MADE_HAND_SLACK = 1e-3    # a hand that stands pat may draw only where that costs at most this much equity
COARSE_BUCKETS = 32       # final-strength resolution of the clustering features


@dataclass(frozen=True)
class Abstraction:
    """Pre-draw buckets of deal classes, their draw options as holds, and the exact transitions
    from (bucket, draw) to final-strength buckets."""

    rules: RuleSet
    options: tuple[int, ...]                                # draw counts offered: 0 = stand pat
    classes: npt.NDArray[np.int8] = field(repr=False)       # (N, 5) sorted representatives
    class_weights: Ints = field(repr=False)                 # deals each class stands for
    class_bucket: Ints = field(repr=False)                  # pre-draw bucket of each class
    class_holds: Ints = field(repr=False)                   # (N, options) hold mask, -1 illegal
    class_natural: Ints = field(repr=False)                 # option of the best hold (vs the field)
    prior: Floats = field(repr=False)                       # (P,) chance of each pre-draw bucket
    transitions: Floats = field(repr=False)                 # (options, P, F)
    legal_draws: npt.NDArray[np.bool_] = field(repr=False)  # (P, options)
    openers: npt.NDArray[np.bool_] = field(repr=False)      # (P,) may open (Jacks or Better)
    pattern: Ints = field(repr=False)                       # (P,) index into pattern_names
    pattern_names: tuple[str, ...]
    final_of_strength: Ints = field(repr=False)             # strength -> final bucket
    final_mass: Floats = field(repr=False)                  # reference mass of each final bucket
    seconds: float = 0.0
    settings: tuple[int, int, int] = (1024, 512, 2)         # the bucket budgets and field rounds asked for

    @property
    def pre_buckets(self) -> int:
        return len(self.prior)

    @property
    def final_buckets(self) -> int:
        return self.transitions.shape[2]

    @functools.cached_property
    def final_range(self) -> tuple[Ints, Ints]:
        """Lowest and highest strength of each final bucket."""
        s = np.arange(1, N_STRENGTHS)
        b = self.final_of_strength[1:]
        lo = np.full(self.final_buckets, N_STRENGTHS, dtype=np.int64)
        hi = np.zeros(self.final_buckets, dtype=np.int64)
        np.minimum.at(lo, b, s)
        np.maximum.at(hi, b, s)
        return lo, hi

    def final_labels(self) -> list[str]:
        """A final bucket as the range of hands it holds."""
        lo, hi = self.final_range
        return [describe(int(a)) if a == b else f"{describe(int(a))} .. {describe(int(b))}"
                for a, b in zip(lo, hi, strict=True)]

    def representatives(self) -> Ints:
        """The heaviest deal class of each pre-draw bucket (ties: the first; -1 if none)."""
        order = np.lexsort((-self.class_weights, self.class_bucket))
        first = np.searchsorted(self.class_bucket[order], np.arange(self.pre_buckets))
        out = np.full(self.pre_buckets, -1, dtype=np.int64)
        inside = first < len(order)
        cand = order[first[inside]]
        hit = self.class_bucket[cand] == np.flatnonzero(inside)
        out[np.flatnonzero(inside)[hit]] = cand[hit]
        return out

    def bucket_labels(self) -> list[str]:
        """Pattern and a typical hand of each pre-draw bucket, e.g. ``pair, draws 3: 8c 8d Kh 5s 2c``."""
        return [f"{self.pattern_names[self.pattern[b]]}" + (f": {_hand_text(self.classes[c])}" if c >= 0 else "")
                for b, c in enumerate(self.representatives())]

    def summary(self) -> dict[str, object]:
        return {"pre_draw_buckets": self.pre_buckets, "final_buckets": self.final_buckets,
                "draw_options": list(self.options), "deal_classes": len(self.classes),
                "patterns": len(self.pattern_names), "seconds": round(self.seconds, 2)}


def _hand_text(cards: npt.NDArray[np.integer]) -> str:
    return " ".join(RANKS[c // 4] + "cdhs"[c % 4] for c in sorted(cards.tolist(), reverse=True))


def draw_options(rules: RuleSet) -> tuple[int, ...]:
    """Draw counts a seat may choose: 0 (stand pat) up to the rule set's largest draw."""
    return tuple(range(rules.max_draw_cards + 1))


def legal_hold_table(deals: npt.NDArray[np.integer], rules: RuleSet) -> npt.NDArray[np.bool_]:
    """(N, 32) holds the draw limit allows (four only when keeping an ace under "4-ace")."""
    draws = 5 - POPCOUNT
    ace_bits = ((deals // 4 == 12).astype(np.int64) << np.arange(5)).sum(axis=1)
    keeps_ace = (ace_bits[:, None] & np.arange(N_MASKS)[None, :]) != 0
    limit = np.where(keeps_ace, rules.draw_limit(True), rules.draw_limit(False))
    return draws[None, :] <= limit


def equity_values(distribution: Floats) -> Floats:
    """Showdown equity of each strength against one hand drawn from ``distribution``."""
    p = distribution / distribution.sum()
    below = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    return below + 0.5 * p


def best_holds(deals: npt.NDArray[np.integer], legal: npt.NDArray[np.bool_], values: Floats,
               options: tuple[int, ...], spread: Spread | None = None) -> tuple[Ints, Floats]:
    """Best hold of each draw count by an objective per strength: (N, options) masks (-1 when no
    hold of that size is legal) and their expected values; per block of deals (the chunks of
    ``spread``)."""
    spread = spread or Spread()
    levels = tuple(spread.put(level) for level in scalar_subset_sums(values[hand_strengths()]))
    parts = spread.map(_best_holds_block, [(deals[i:i + CLASS_BLOCK], legal[i:i + CLASS_BLOCK], values, levels,
                                            options) for i in range(0, len(deals), CLASS_BLOCK)])
    if not parts:
        return np.zeros((0, len(options)), dtype=np.int64), np.zeros((0, len(options)))
    return np.concatenate([h for h, _ in parts]), np.concatenate([b for _, b in parts])


def _best_holds_block(deals: npt.NDArray[np.integer], legal: npt.NDArray[np.bool_], values: Floats,
                      levels: tuple[Shelved, ...], options: tuple[int, ...]) -> tuple[Ints, Floats]:
    """``best_holds`` of one block of deals, from the subset sums of the objective."""
    num = hold_numerators(deals, values[evaluate(deals)], tuple(_open(level) for level in levels))
    value = num / draw_outcomes(5 - POPCOUNT)[None, :]
    holds = np.full((len(deals), len(options)), -1, dtype=np.int64)
    best = np.full((len(deals), len(options)), -np.inf)
    for j, d in enumerate(options):
        cand = np.where(legal & (5 - POPCOUNT == d)[None, :], value, -np.inf)
        pick = cand.argmax(axis=1)
        ok = np.isfinite(cand[np.arange(len(deals)), pick])
        holds[ok, j] = pick[ok]
        best[ok, j] = cand[np.arange(len(deals)), pick][ok]
    return holds, best


def equal_mass_buckets(mass: Floats, n: int, categories: bool = False) -> Ints:
    """Strength -> bucket (index 0 unused), cutting strengths in order into ``n`` runs of (about)
    equal mass; with ``categories`` also at every category floor, so that no bucket mixes, say,
    flushes and full houses (a few more buckets)."""
    p = mass / mass.sum()
    mid = np.cumsum(p) - p / 2
    labels = np.minimum((mid * n).astype(np.int64), n - 1)
    labels[0] = 0
    if categories:
        labels = labels * 16 + category_of(np.arange(len(mass))).astype(np.int64)
    _, dense = np.unique(labels[1:], return_inverse=True)       # drop empty buckets
    out = np.zeros(len(mass), dtype=np.int64)
    out[1:] = dense
    return out


def needed_levels(holds: Ints) -> tuple[int, ...]:
    """Subset sizes whose bucket counts the holds' inclusion-exclusion reads."""
    draws_needed = {5 - int(POPCOUNT[h]) for h in np.unique(holds[holds >= 0])}
    return tuple(sorted({k for d in draws_needed for k in range(5 - d, 5)}))


def merge_columns(counts: dict[int, npt.NDArray], groups: Ints) -> dict[int, npt.NDArray]:
    """Bucket counts for coarser buckets that are runs of the given ones (``groups`` ascending)."""
    starts = np.flatnonzero(np.r_[True, np.diff(groups) != 0])
    return {k: np.add.reduceat(table, starts, axis=1, dtype=np.int64 if k < 2 else np.int32)
            for k, table in counts.items()}


def class_transitions(deals: npt.NDArray[np.integer], holds: Ints, of_strength: Ints, n: int,
                      counts: dict[int, npt.NDArray], reduce: tuple[Ints, Floats] | None = None,
                      spread: Spread | None = None, progress: Callable[[int], None] | None = None) -> npt.NDArray:
    """Exact final-bucket distribution of every (deal, option): (N, options, n), or, with
    ``reduce = (group, weight)``, weighted sums per group (groups, options, n). ``counts`` are
    the ``bucket_counts`` of the same buckets. Deals go in blocks of ``CLASS_BLOCK`` (the chunks
    of ``spread``; ``progress`` hears how many are done), added up in block order."""
    spread = spread or Spread()
    own = of_strength[evaluate(deals)].astype(np.int64)
    opts = holds.shape[1]
    tables = {k: spread.put(table) for k, table in counts.items()}
    out: npt.NDArray
    if reduce is None:
        out = np.zeros((len(deals), opts, n), dtype=np.float32)
        blocks = [np.arange(start, min(start + CLASS_BLOCK, len(deals))) for start in range(0, len(deals), CLASS_BLOCK)]
        calls: list[tuple[object, ...]] = [(deals[sel], holds[sel], own[sel], tables, n, None, None) for sel in blocks]

        def place(i: int, rows: npt.NDArray) -> None:
            out[blocks[i]] = rows

        spread.map(_transition_block, calls, progress, place)
        return out
    group, weight = reduce
    out = np.zeros((int(group.max()) + 1, opts, n))
    order = np.argsort(group, kind="stable")
    blocks = [order[start:start + CLASS_BLOCK] for start in range(0, len(deals), CLASS_BLOCK)]
    calls = [(deals[sel], holds[sel], own[sel], tables, n, group[sel], weight[sel]) for sel in blocks]

    def add(i: int, part: tuple[Ints, Floats]) -> None:
        out[part[0]] += part[1]

    spread.map(_transition_block, calls, progress, add)
    return out


def _transition_block(deals: npt.NDArray[np.integer], holds: Ints, own: Ints, counts: dict[int, Shelved], n: int,
                      group: Ints | None, weight: Floats | None) -> npt.NDArray | tuple[Ints, Floats]:
    """One block of ``class_transitions``: the rows (block, options, n), or, given the deals'
    ``group`` (ascending) and ``weight``, the groups present and their weighted sums."""
    tables = {k: _open(table) for k, table in counts.items()}
    opts = holds.shape[1]
    if group is None:
        out = np.zeros((len(deals), opts, n), dtype=np.float32)
    else:
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        sums = np.zeros((len(starts), opts, n))
    for j in range(opts):
        h = holds[:, j]
        ok = h >= 0
        rows = np.zeros((len(h), n), dtype=np.float32)
        if ok.any():
            rows[ok] = hold_transitions(deals[ok], h[ok], own[ok], tables, n)
        if group is None:
            out[:, j] = rows
        else:
            assert weight is not None
            sums[:, j] = np.add.reduceat(rows * weight[:, None], starts, axis=0)
    return out if group is None else (group[starts], sums)


def pattern_groups(deals: npt.NDArray[np.integer], natural: Ints, options: tuple[int, ...], rules: RuleSet,
                   legal: npt.NDArray[np.bool_] | None = None) -> tuple[Ints, tuple[str, ...]]:
    """Each class's draw pattern: what it holds as dealt and how many cards its best hold draws,
    split further by openers (Jacks or Better), a kept ace (four with an ace) and the draw
    counts open to it (``legal``, classes x options: made hands that may not break)."""
    strength = evaluate(deals)
    cat = np.minimum(category_of(strength).astype(np.int64), len(PATTERN_CATEGORIES) - 1)
    key = cat * 16 + np.asarray(options)[natural] * 2
    if rules.opener == "jacks":
        key = key * 2 + (strength >= jacks_or_better_floor())
    if rules.max_draw == "4-ace":
        key = key * 2 + (deals // 4 == 12).any(axis=1)
    signature = np.zeros(len(deals), dtype=np.int64)
    if legal is not None:
        signature = (legal.astype(np.int64) << np.arange(legal.shape[1])).sum(axis=1)
    n_sig = 1 << len(options)
    uniq, inv = np.unique(key * n_sig + signature, return_inverse=True)
    names = []
    for k in uniq.tolist():
        k, sig = divmod(k, n_sig)
        ace = rules.max_draw == "4-ace" and k % 2
        k = k // 2 if rules.max_draw == "4-ace" else k
        opens = rules.opener == "jacks" and k % 2
        k = k // 2 if rules.opener == "jacks" else k
        c, d = divmod(k, 16)
        d //= 2
        name = f"{PATTERN_CATEGORIES[c]}, {'pat' if d == 0 else f'draws {d}'}"
        name += ", openers" if opens else ""
        name += ", ace" if ace else ""
        if legal is not None and d == 0 and sig != n_sig - 1:
            name += ", never breaks" if sig == 1 else ", breaks only to " + " or ".join(
                f"draw {options[o]}" for o in range(1, len(options)) if sig >> o & 1)
        names.append(name)
    return inv.astype(np.int64), tuple(names)


def keep_made_hands(deals: npt.NDArray[np.integer], holds: Ints, value: Floats, natural: Ints,
                    slack: float = MADE_HAND_SLACK) -> Ints:
    """The holds with a draw taken away from every made hand (a straight or better, or any class
    whose best hold by exact equity against the field is to stand pat) where that draw costs more
    than ``slack`` of equity against its best hold: a straight, flush, full house, quads or straight
    flush never breaks unless the exact values say it is no worse."""
    out = holds.copy()
    made = (natural == 0) | (category_of(evaluate(deals)) >= STRAIGHT)
    costly = (value.max(axis=1, keepdims=True) - value) > slack
    out[made[:, None] & costly & (holds >= 0)] = -1
    return out


def weighted_kmeans(x: Floats, w: Floats, k: int, order: Floats, rounds: int = 30, settle: float = 1e-3) -> Ints:
    """Weighted Lloyd k-means from ``k`` weighted quantiles of a scalar ``order`` (deterministic).

    A cluster left empty is reseeded at the point that adds most to the weighted error. Stops
    when fewer than ``settle`` of the points change cluster. Distances in float32 (only their
    order matters). Labels come back renumbered by mean ``order`` (weakest first)."""
    k = min(k, len(x))
    if k <= 1:
        return np.zeros(len(x), dtype=np.int64)
    srt = np.argsort(order, kind="stable")
    cum = np.cumsum(w[srt])
    labels = np.empty(len(x), dtype=np.int64)
    labels[srt] = np.minimum((cum - w[srt] / 2) / cum[-1] * k, k - 1).astype(np.int64)
    x32 = x.astype(np.float32)
    xx = (x32 * x32).sum(axis=1)
    for _ in range(rounds):
        srt = np.argsort(labels, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(labels[srt]) != 0])
        sums = np.zeros((k, x.shape[1]))
        sums[labels[srt][starts]] = np.add.reduceat(x[srt] * w[srt, None], starts, axis=0)
        mass = np.bincount(labels, weights=w, minlength=k)
        centers = (sums / np.maximum(mass, 1e-300)[:, None]).astype(np.float32)
        dist = x32 @ centers.T
        dist *= -2
        dist += xx[:, None]
        dist += (centers * centers).sum(axis=1)[None, :]
        dist[:, mass == 0] = np.inf
        new = dist.argmin(axis=1)
        new_mass = np.bincount(new, weights=w, minlength=k)
        empty = np.flatnonzero(new_mass == 0)
        if len(empty):
            err = w * np.maximum(dist[np.arange(len(x)), new], 0.0)
            new[np.argsort(-err, kind="stable")[:len(empty)]] = empty
        changed = np.count_nonzero(new != labels)
        labels = new
        if changed <= settle * len(x) and not len(empty):
            break
    mean_order = np.bincount(labels, weights=w * order, minlength=k) / np.maximum(
        np.bincount(labels, weights=w, minlength=k), 1e-300)
    used = np.unique(labels)
    rank = np.zeros(k, dtype=np.int64)
    rank[used[np.argsort(mean_order[used], kind="stable")]] = np.arange(len(used))
    return rank[labels]


def allocate(budget: int, score: Floats, cap: Ints) -> Ints:
    """Split ``budget`` buckets among groups in proportion to ``score`` (largest remainders),
    at least one and at most ``cap`` each."""
    n = np.ones(len(score), dtype=np.int64)
    for _ in range(64):
        spare = budget - n.sum()
        open_ = n < cap
        if spare <= 0 or not open_.any():
            break
        share = np.where(open_, score, 0.0)
        want = share / share.sum() * (budget - n[~open_].sum())
        new = np.where(open_, np.maximum(np.floor(want).astype(np.int64), 1), n)
        new = np.minimum(new, cap)
        if (new == n).all():
            order = np.argsort(-(want - np.floor(want)) * open_)
            for g in order[:spare]:
                if n[g] < cap[g]:
                    n[g] += 1
            break
        n = new
    return n


def field_holds(deals: npt.NDArray[np.int8], weights: Floats, legal: npt.NDArray[np.bool_],
                options: tuple[int, ...], rounds: int, spread: Spread | None = None) -> tuple[Ints, Floats, Floats]:
    """Best hold of each size by showdown equity against a field that draws the same way, from
    ``rounds`` fixed-point passes starting at the dealt distribution: (holds, their equities,
    the field's final-strength mass)."""
    field_mass = np.bincount(hand_strengths(), minlength=N_STRENGTHS).astype(np.float64)
    for _ in range(rounds):
        holds, value = best_holds(deals, legal, equity_values(field_mass), options, spread)
        natural = value.argmax(axis=1)
        field_mass = final_distribution(deals, holds[np.arange(len(deals)), natural], weights, spread)
    holds, value = best_holds(deals, legal, equity_values(field_mass), options, spread)
    return holds, value, field_mass


def predraw_buckets(features: Floats, weights: Floats, group: Ints, strength: Floats, budget: int,
                    spread: Spread | None = None, progress: Callable[[int], None] | None = None
                    ) -> tuple[Ints, Ints]:
    """k-means within each draw pattern, ``budget`` clusters shared in proportion to each
    pattern's weight times its spread: (bucket of each class, pattern of each bucket); buckets
    numbered by pattern (weakest pattern first), then by strength. Each pattern is a chunk of
    ``spread`` (the largest first); ``progress`` hears how many are done."""
    spread = spread or Spread()
    n_groups = int(group.max()) + 1
    mass = np.bincount(group, weights=weights, minlength=n_groups).astype(np.float64)
    width = np.zeros(n_groups)
    for g in range(n_groups):
        sel = group == g
        mean = (features[sel] * weights[sel, None]).sum(axis=0) / mass[g]
        width[g] = np.sqrt((((features[sel] - mean) ** 2).sum(axis=1) * weights[sel]).sum() / mass[g])
    per_group = allocate(max(budget, n_groups), mass * np.maximum(width, 1e-9),
                         np.bincount(group, minlength=n_groups))
    bucket = np.zeros(len(features), dtype=np.int64)
    pattern: list[int] = []
    means = [np.average(strength[group == g], weights=weights[group == g]) for g in range(n_groups)]
    members = [np.flatnonzero(group == g) for g in range(n_groups)]
    shelved = spread.put(features)
    first = np.argsort([-len(sel) for sel in members], kind="stable")      # the longest k-means first
    labels = dict(zip(first.tolist(), spread.map(_pattern_kmeans, [
        (shelved, members[g], weights[members[g]], int(per_group[g]), strength[members[g]]) for g in first],
        progress), strict=True))
    for g in np.argsort(means):
        lab = labels[int(g)]
        bucket[members[g]] = len(pattern) + lab
        pattern.extend([int(g)] * (int(lab.max()) + 1))
    return bucket, np.asarray(pattern, dtype=np.int64)


def _pattern_kmeans(features: Shelved, sel: Ints, weights: Floats, k: int, strength: Floats) -> Ints:
    """``weighted_kmeans`` of the classes ``sel`` of one draw pattern (a chunk of ``predraw_buckets``)."""
    return weighted_kmeans(_open(features)[sel], weights, k, strength)




def _no_stage(stage: str, done: float) -> None:
    return None


def build_abstraction(rules: RuleSet, pre_buckets: int = 1024, final_buckets: int = 512,
                      rounds: int = 2, stage: Stage = _no_stage, *, workers: int | None = 1,
                      scheduler: str | None = None, runner: Runner | None = None) -> Abstraction:
    """Buckets and exact transitions for heads-up play under ``rules`` (pure; a few tens of s).

    1. The field (``field_holds``): each class's best hold of every size.
    2. Final buckets: strengths cut into ``final_buckets`` runs of equal mass in that field, and
       at every category floor.
    3. Pre-draw buckets (``predraw_buckets``): classes grouped by draw pattern, then k-means
       within each pattern on the cumulative final-bucket distributions of all draw options.
    4. Transitions: exact, per class, mixed by class weight within each bucket.

    ``stage`` hears what is being done and the fraction of the build done so far. The heavy
    passes run in fixed chunks on ``workers`` processes (None: every core), the Dask cluster at
    ``scheduler`` (``"local"``: one started on this machine) or a ``runner`` already started;
    the abstraction is the same, bit for bit, wherever they run (see ``Spread``).
    """
    check_rules(rules)
    with contextlib.ExitStack() as stack:
        if runner is None:
            runner = stack.enter_context(Runner(workers, scheduler))
        spread = stack.enter_context(Spread(runner))
        return _build(rules, pre_buckets, final_buckets, rounds, stage, spread)


def _build(rules: RuleSet, pre_buckets: int, final_buckets: int, rounds: int, stage: Stage, spread: Spread
           ) -> Abstraction:
    """``build_abstraction`` with its chunks of work on ``spread``."""
    t0 = time.perf_counter()

    def part(text: str, start: float, end: float, total: int) -> Callable[[int], None]:
        stage(text, start)
        return lambda done: stage(text, start + (end - start) * done / total)

    stage("abstraction: deal classes", 0.0)
    deals, weights = deal_classes()
    w = weights.astype(np.float64)
    options = draw_options(rules)
    stage("abstraction: best holds against the field", 0.05)
    holds, value, field_mass = field_holds(deals, w, legal_hold_table(deals, rules), options, rounds, spread)
    natural = value.argmax(axis=1)
    holds = keep_made_hands(deals, holds, value, natural)
    of_final = equal_mass_buckets(field_mass, final_buckets, categories=True)
    n_final = int(of_final.max()) + 1
    stage("abstraction: final-hand counts", 0.35)
    counts = bucket_counts(of_final[hand_strengths()].astype(np.int64), n_final, needed_levels(holds), spread)
    # Clustering features: cumulative distributions over coarse buckets (runs of final buckets).
    fine_mass = np.bincount(of_final[1:], weights=field_mass[1:], minlength=n_final)
    coarse_of_final = equal_mass_buckets(np.r_[0.0, fine_mass], min(COARSE_BUCKETS, n_final))[1:]
    blocks = -(-len(deals) // CLASS_BLOCK)
    coarse = class_transitions(deals, holds, coarse_of_final[of_final], int(coarse_of_final.max()) + 1,
                               merge_columns(counts, coarse_of_final), spread=spread,
                               progress=part("abstraction: clustering features", 0.5, 0.65, blocks))
    features = np.cumsum(coarse, axis=2)[:, :, :-1].reshape(len(deals), -1).astype(np.float64)
    del coarse
    group, names = pattern_groups(deals, natural, options, rules, holds >= 0)
    bucket, pattern = predraw_buckets(features, w, group, value.max(axis=1), pre_buckets, spread,
                                      part("abstraction: pre-draw buckets (k-means)", 0.65, 0.8,
                                           int(group.max()) + 1))
    del features
    n_pre = len(pattern)
    sums = class_transitions(deals, holds, of_final, n_final, counts, reduce=(bucket, w), spread=spread,
                             progress=part("abstraction: exact transitions", 0.8, 1.0, blocks))
    del counts
    bucket_mass = np.bincount(bucket, weights=w, minlength=n_pre)
    transitions = np.transpose(sums / bucket_mass[:, None, None], (1, 0, 2))
    legal_count = _count_true(bucket, holds >= 0, n_pre)
    if ((legal_count != 0) & (legal_count != np.bincount(bucket, minlength=n_pre)[:, None])).any():
        raise AssertionError("a bucket mixes classes with different legal draws")
    opens = np.ones(n_pre, dtype=bool)
    if rules.opener == "jacks":
        opens[:] = False
        np.logical_or.at(opens, bucket, evaluate(deals) >= jacks_or_better_floor())
    final_mass = np.bincount(of_final[1:], weights=field_mass[1:], minlength=n_final)
    return Abstraction(rules, options, deals, weights, bucket, holds, natural, bucket_mass / w.sum(),
                       transitions, legal_count > 0, opens, pattern, names,
                       of_final, final_mass / final_mass.sum(), time.perf_counter() - t0,
                       (pre_buckets, final_buckets, rounds))


def _count_true(group: Ints, flags: npt.NDArray[np.bool_], n: int) -> Ints:
    """(n, columns) number of True flags per group."""
    out = np.zeros((n, flags.shape[1]), dtype=np.int64)
    np.add.at(out, group, flags.astype(np.int64))
    return out


def check_rules(rules: RuleSet) -> None:
    """Raise ``RuleError`` for a rule set the solver does not cover (before any work): it covers
    one-draw fixed-limit draw with antes and a 52-card deck."""
    if rules.game != "draw":
        raise RuleError(f"the solver plays the draw game, not {rules.game}")
    if rules.joker:
        raise RuleError("the solver uses a 52-card deck; the joker is not supported")
    if rules.draws != 1:
        raise RuleError(f"the solver covers one draw; {rules.name} has {rules.draws}")
    if rules.blinds or rules.ante <= 0:
        raise RuleError("the solver needs an ante (blinds are not supported)")


# --- the betting tree ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RoundNode:
    """A point in one limit betting round of two seats: who acts (None at the end), the actions
    open to them, how the round ended, and the bets each seat has put in (in bets)."""

    history: str                     # x check, b bet, r raise, c call, f fold
    actor: int | None
    actions: tuple[str, ...]
    end: str | None                  # "fold", "call" or "checked" when the round is over
    put: tuple[int, int]


def betting_round(first: int, max_bets: int) -> dict[str, RoundNode]:
    """Every history of a fixed-limit round between two seats, ``first`` acting first, with at
    most ``max_bets`` bets (the bet and its raises)."""
    out: dict[str, RoundNode] = {}

    def visit(history: str, actor: int, level: int, put: tuple[int, int]) -> None:
        if level == 0:
            out[history] = RoundNode(history, actor, ("x", "b"), None, put)
            if history == "x":
                out[history + "x"] = RoundNode(history + "x", None, (), "checked", put)
            else:
                visit(history + "x", 1 - actor, 0, put)
            visit(history + "b", 1 - actor, 1, _add(put, actor, 1))
            return
        acts = ("f", "c", "r") if level < max_bets else ("f", "c")
        out[history] = RoundNode(history, actor, acts, None, put)
        out[history + "f"] = RoundNode(history + "f", None, (), "fold", put)
        out[history + "c"] = RoundNode(history + "c", None, (), "call", _add(put, actor, level - put[actor]))
        if level < max_bets:
            visit(history + "r", 1 - actor, level + 1, _add(put, actor, level + 1 - put[actor]))

    visit("", first, 0, (0, 0))
    return out


def _add(put: tuple[int, int], seat: int, n: int) -> tuple[int, int]:
    return (put[0] + n, put[1]) if seat == 0 else (put[0], put[1] + n)


ACTION_NAMES = {"x": "check", "b": "bet", "r": "raise", "c": "call", "f": "fold"}


@dataclass(frozen=True)
class Line:
    """A pre-draw betting line that reaches the draw: its history, the chips each seat has in
    (antes, ante included), the opener and the seat that acts first after the draw."""

    history: str
    stake: float
    opener: int | None
    first_after: int


@dataclass(frozen=True)
class GameTree:
    """The abstract game as a public tree, with the indices that map its nodes back to play."""

    tree: cfr.Tree = field(repr=False)
    lines: tuple[Line, ...]
    pre_nodes: dict[str, int] = field(repr=False)          # pre-draw history -> node, in play order
    draw_nodes: dict[tuple[int, int], int] = field(repr=False)   # (first after, seat) -> node
    post_nodes: dict[tuple[int, str], int] = field(repr=False)   # (first after, history) -> node
    groups: dict[int, tuple[int, ...]] = field(repr=False)       # first after -> line indices
    max_bets: int
    small: float
    big: float


def _opener(history: str, first: int) -> int | None:
    """The seat that made the first bet of a round, if any."""
    for i, a in enumerate(history):
        if a == "b":
            return (first + i) % 2
    return None


def build_game(abstraction: Abstraction, raises: int | None = None) -> GameTree:
    """The public tree of heads-up draw under the abstraction's rule set.

    Seat 0 sits left of the dealer: it acts first before the draw and draws first. ``raises``
    caps the raises per round (default: the rule set's cap, also heads-up; see docs/solve.md).
    A round everybody checks before the draw is a push when the rule set redeals.
    """
    rules = abstraction.rules
    cap = raises if raises is not None else (rules.max_raises if rules.max_raises is not None else 4)
    max_bets = 1 + cap
    small, big = rules.small_bet / rules.ante, rules.big_bet / rules.ante
    if 1 + max_bets * (small + big) > rules.stack / rules.ante:
        raise RuleError(f"with {cap} raises a round the stacks of {rules.stack} could run out; "
                        "choose fewer raises")
    pre = betting_round(0, max_bets)
    n_opt, n_pre, n_fin = len(abstraction.options), abstraction.pre_buckets, abstraction.final_buckets
    spaces = (cfr.Space(n_pre, None, "pre-draw bucket"),
              cfr.Space(n_fin, np.arange(n_fin, dtype=np.float64), "final bucket"))
    lines: list[Line] = []
    for h, node in pre.items():
        if node.end == "call" or (node.end == "checked" and not rules.all_check_redeal):
            opener = _opener(h, 0)
            first = opener if (rules.first_after_draw == "opener" and opener is not None) else 0
            lines.append(Line(h, 1 + node.put[0] * small, opener, first))
    nodes: list[cfr.Node] = []

    def add(node: cfr.Node) -> int:
        nodes.append(node)
        return len(nodes) - 1

    groups = {q: tuple(i for i, ln in enumerate(lines) if ln.first_after == q) for q in (0, 1)}
    groups = {q: g for q, g in groups.items() if g}
    draw_nodes: dict[tuple[int, int], int] = {}
    post_nodes: dict[tuple[int, str], int] = {}
    entry: dict[str, tuple[int, int]] = {}             # pre-draw history -> (draw node, row)
    for q, members in groups.items():
        n = len(members)
        base = np.array([lines[i].stake for i in members])
        rows = n_opt * n_opt * n
        stake = np.tile(base, n_opt * n_opt)
        post = betting_round(q, max_bets)
        post_root = _build_round(post, "", rows, stake, big, add, post_nodes, q, None).child
        x1 = add(cfr.Transition(1, rows, abstraction.transitions, np.repeat(np.arange(n_opt), n_opt * n),
                                1, cfr.Edge(post_root, np.arange(rows)), "draw, seat 1"))
        d1 = add(cfr.Decision(1, n_opt * n, tuple(cfr.Edge(x1, a * n_opt * n + np.arange(n_opt * n))
                                                  for a in range(n_opt)),
                              abstraction.legal_draws, "draw choice, seat 1", _draw_names(abstraction)))
        x0 = add(cfr.Transition(0, n_opt * n, abstraction.transitions, np.repeat(np.arange(n_opt), n),
                                1, cfr.Edge(d1, np.arange(n_opt * n)), "draw, seat 0"))
        d0 = add(cfr.Decision(0, n, tuple(cfr.Edge(x0, a * n + np.arange(n)) for a in range(n_opt)),
                              abstraction.legal_draws, "draw choice, seat 0", _draw_names(abstraction)))
        draw_nodes[(q, 0)], draw_nodes[(q, 1)] = d0, d1
        for row, i in enumerate(members):
            entry[lines[i].history] = (d0, row)
    pre_nodes: dict[str, int] = {}
    openers = np.stack([np.ones(n_pre, dtype=bool), abstraction.openers], axis=1)
    root = _build_round(pre, "", 1, np.ones(1), small, add, pre_nodes, 0,
                        (entry, rules.all_check_redeal, openers)).child
    tree = cfr.build_tree(nodes, root, spaces, (0, 0), (abstraction.prior, abstraction.prior))
    # build_tree renumbers nodes root first: translate the recorded indices.
    renum = _renumbering(nodes, root, tree)
    pre_sorted = {h: int(renum[pre_nodes[h]]) for h in sorted(pre_nodes, key=lambda h: (len(h), h))}
    post_sorted = {k: int(renum[post_nodes[k]]) for k in sorted(post_nodes, key=lambda k: (k[0], len(k[1]), k[1]))}
    return GameTree(tree, tuple(lines), pre_sorted, {k: int(renum[i]) for k, i in sorted(draw_nodes.items())},
                    post_sorted, groups, max_bets, small, big)


def _draw_names(abstraction: Abstraction) -> tuple[str, ...]:
    return tuple("pat" if d == 0 else f"draw {d}" for d in abstraction.options)


def _build_round(round_: dict[str, RoundNode], history: str, rows: int, stake: Floats, bet: float, add,
                 record: dict, first: int, predraw: tuple[dict, bool, npt.NDArray[np.bool_]] | None
                 ) -> cfr.Edge:
    """Nodes of one betting round below ``history`` (children first); returns the edge into it.

    ``stake`` is what each seat already has in per row; after the draw a check-through or a call
    is a showdown. Before the draw (``predraw``) they lead into the draw nodes, a check-through to
    a push when the rule set redeals, and the opening bet is limited to openers.
    """
    node = round_[history]
    every = np.arange(rows)
    if node.end == "fold":
        folder = (first + len(history) - 1) % 2
        loss = stake + node.put[folder] * bet
        return cfr.Edge(add(cfr.Terminal(rows, "fixed", -loss if folder == 0 else loss, label=history)), every)
    if node.end is not None and predraw is None:
        return cfr.Edge(add(cfr.Terminal(rows, "showdown", stake + node.put[0] * bet, label=history)), every)
    if node.end is not None:
        assert predraw is not None
        entry, redeal, _ = predraw
        if node.end == "checked" and redeal:
            return cfr.Edge(add(cfr.Terminal(rows, "fixed", np.zeros(rows), label="all check: redeal")), every)
        d0, row = entry[history]
        return cfr.Edge(d0, np.array([row]))
    kids = tuple(_build_round(round_, history + a, rows, stake, bet, add, record, first, predraw)
                 for a in node.actions)
    legal = None
    if predraw is not None and node.actions == ("x", "b") and not predraw[2][:, 1].all():
        legal = predraw[2]
    assert node.actor is not None
    idx = add(cfr.Decision(node.actor, rows, kids, legal, history or "root",
                           tuple(ACTION_NAMES[a] for a in node.actions)))
    record[(first, history) if predraw is None else history] = idx
    return cfr.Edge(idx, every)


def _renumbering(nodes: list[cfr.Node], root: int, tree: cfr.Tree) -> Ints:
    """Old node index -> index in the built tree (build_tree orders nodes topologically)."""
    order = cfr.topological_order(nodes, root)
    new = np.empty(len(nodes), dtype=np.int64)
    new[order] = np.arange(len(nodes))
    return new


# --- solving -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawSolution:
    """An approximate equilibrium of heads-up draw in the abstract game, with its exact
    evaluation. Seat 0 sits left of the dealer (acts and draws first); seat 1 is the dealer.
    Values and exploitability are in antes per deal."""

    rules: RuleSet
    abstraction: Abstraction = field(repr=False)
    game: GameTree = field(repr=False)
    strategy: tuple[Floats | None, ...] = field(repr=False)     # per tree node (rows, states, actions)
    value: tuple[float, float]
    exploitability: float
    nash_conv: float
    iterations: int
    seconds: float                       # CFR time (exploitability checks excluded)
    abstraction_seconds: float
    schedule: str
    raises: int
    curve: tuple[cfr.Checkpoint, ...] = field(repr=False)
    interrupted: bool = False            # stopped by Ctrl-C before its limits

    @property
    def infosets(self) -> int:
        """Information sets of both seats in the abstract game."""
        return sum(self.game.tree.infosets)

    # playing one hand ----------------------------------------------------------------------

    def _bucket(self, hand: npt.ArrayLike) -> int:
        cls, _ = classify(np.sort(np.asarray(hand, dtype=np.int64)).reshape(1, 5))
        return int(self.abstraction.class_bucket[cls[0]])

    def predraw_probabilities(self, hand: npt.ArrayLike, history: str) -> dict[str, float]:
        """Before the draw: the action probabilities of the seat to act after ``history`` (x b r
        c f letters from seat 0's first action) holding ``hand`` (five card codes)."""
        node = self.game.pre_nodes[history]
        decision = self.game.tree.nodes[node]
        assert isinstance(decision, cfr.Decision)
        s = self.strategy[node]
        assert s is not None
        return dict(zip(decision.actions, s[0, self._bucket(hand)].tolist(), strict=True))

    def _group_row(self, predraw: str) -> tuple[int, int]:
        g = self.game
        line = next(i for i, ln in enumerate(g.lines) if ln.history == predraw)
        q = g.lines[line].first_after
        return q, g.groups[q].index(line)

    def draw_probabilities(self, hand: npt.ArrayLike, predraw: str, seat: int,
                           opponent_draw: int | None = None) -> dict[int, float]:
        """The draw: probability of each draw count for ``seat`` holding ``hand`` after the
        pre-draw line ``predraw``; seat 1 draws second and sees seat 0's ``opponent_draw``."""
        q, row = self._group_row(predraw)
        if seat == 1:
            assert opponent_draw is not None, "seat 1 draws after seeing seat 0's draw"
            row += self.abstraction.options.index(opponent_draw) * len(self.game.groups[q])
        s = self.strategy[self.game.draw_nodes[(q, seat)]]
        assert s is not None
        return dict(zip(self.abstraction.options, s[row, self._bucket(hand)].tolist(), strict=True))

    def keep(self, hand: npt.ArrayLike, draw: int) -> npt.NDArray[np.bool_]:
        """Which of ``hand``'s cards (in the order given) the solution keeps when drawing ``draw``."""
        cards = np.asarray(hand, dtype=np.int64)
        order = np.argsort(cards)
        option = np.array([self.abstraction.options.index(draw)])
        kept_sorted = hand_keep(cards[order].reshape(1, 5), self.abstraction, option)[0]
        out = np.empty(5, dtype=bool)
        out[order] = kept_sorted
        return out

    def postdraw_probabilities(self, hand: npt.ArrayLike, predraw: str, draws: tuple[int, int],
                               history: str) -> dict[str, float]:
        """After the draw: the action probabilities of the seat to act after ``history`` (from the
        first action after the draw) holding the final ``hand``, when seat 0 drew ``draws[0]``
        and seat 1 ``draws[1]`` cards after the pre-draw line ``predraw``."""
        a, g = self.abstraction, self.game
        q, line = self._group_row(predraw)
        n, n_opt = len(g.groups[q]), len(a.options)
        row = (a.options.index(draws[1]) * n_opt + a.options.index(draws[0])) * n + line
        node = g.post_nodes[(q, history)]
        decision = g.tree.nodes[node]
        assert isinstance(decision, cfr.Decision)
        s = self.strategy[node]
        assert s is not None
        final = int(a.final_of_strength[int(evaluate(np.asarray(hand).reshape(1, 5))[0])])
        return dict(zip(decision.actions, s[row, final].tolist(), strict=True))

    def save(self, path: str | Path) -> Path:
        """Write the solution to a Parquet file (see ``save_solution``)."""
        return save_solution(self, path)

    def curve_frame(self) -> pd.DataFrame:
        """Exploitability (antes and milli-antes per deal) after each checkpoint."""
        return pd.DataFrame({"iteration": [c.iteration for c in self.curve],
                             "seconds": [c.seconds for c in self.curve],
                             "value_seat0": [c.value for c in self.curve],
                             "exploitability": [c.exploitability for c in self.curve],
                             "milli_antes": [1000 * c.exploitability for c in self.curve]})

    def to_dict(self) -> dict[str, object]:
        """The summary a program reads (field names are a contract)."""
        return {"rules": self.rules.name, "value": [self.value[0], self.value[1]],
                "exploitability": self.exploitability,
                "exploitability_milli_antes": 1000 * self.exploitability, "nash_conv": self.nash_conv,
                "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "infosets": self.infosets, "infosets_per_seat": list(self.game.tree.infosets),
                "abstraction_seconds": round(self.abstraction_seconds, 3), "schedule": self.schedule,
                "raises": self.raises, "interrupted": self.interrupted, "abstraction": self.abstraction.summary(),
                "curve": [{"iteration": c.iteration, "seconds": round(c.seconds, 3), "value": c.value,
                           "exploitability": c.exploitability} for c in self.curve]}

    # tables ------------------------------------------------------------------------------

    @functools.cached_property
    def _reach(self) -> tuple[list[Floats], list[Floats]]:
        tree, strategy = self.game.tree, list(self.strategy)
        return (cfr.reach_probabilities(tree, strategy, 0), cfr.reach_probabilities(tree, strategy, 1))

    def _joint(self, seat: int, node: int) -> Floats:
        """(rows, states) probability that a deal gives ``seat`` each private state and play
        reaches each row of ``node`` (chance and both seats' strategies)."""
        reach = self._reach
        return reach[seat][node] * reach[1 - seat][node].sum(axis=1, keepdims=True)

    def predraw_table(self) -> pd.DataFrame:
        """Before the draw: each seat's action probabilities at every point of the betting, by
        pre-draw bucket; ``reach`` is the chance that play gets there when dealt the bucket."""
        a, g = self.abstraction, self.game
        labels = a.bucket_labels()
        frames = []
        for history, i in g.pre_nodes.items():
            node = g.tree.nodes[i]
            assert isinstance(node, cfr.Decision)
            seat = node.player
            s = self.strategy[i]
            assert s is not None
            reach = self._joint(seat, i)[0] / a.prior
            cols = {"seat": seat, "line": _line_words(history), "bucket": np.arange(a.pre_buckets),
                    "hand": labels, "pattern": [a.pattern_names[p] for p in a.pattern],
                    "chance": a.prior, "reach": reach}
            for k, name in enumerate(node.actions):
                cols[name] = s[0, :, k]
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def draw_table(self) -> pd.DataFrame:
        """The draw: probability of each draw count by pre-draw bucket, betting line and (for
        seat 1, who draws second) seat 0's draw count."""
        a, g = self.abstraction, self.game
        labels = np.asarray(a.bucket_labels(), dtype=object)
        patterns = np.asarray([a.pattern_names[p] for p in a.pattern], dtype=object)
        frames = []
        for (q, seat), i in g.draw_nodes.items():
            members = np.asarray(g.groups[q])
            s = self.strategy[i]
            assert s is not None
            rows, n_b = s.shape[0], a.pre_buckets
            n = len(members)
            row = np.repeat(np.arange(rows), n_b)
            cols = {"seat": seat,
                    "line": np.asarray([_line_words(g.lines[m].history) for m in members], dtype=object)[row % n],
                    "opponent_draw": -1 if seat == 0 else np.asarray(a.options)[row // n],
                    "bucket": np.tile(np.arange(n_b), rows), "hand": np.tile(labels, rows),
                    "pattern": np.tile(patterns, rows), "chance": np.tile(a.prior, rows),
                    "reach": (self._joint(seat, i) / a.prior).ravel()}
            for k, name in enumerate(_draw_names(a)):
                cols[name] = s[:, :, k].ravel()
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def postdraw_table(self) -> pd.DataFrame:
        """After the draw: action probabilities by final bucket at every point of the betting,
        for every pre-draw line and pair of draw counts; ``reach`` is the chance per deal of
        getting there with that final bucket."""
        a, g = self.abstraction, self.game
        final = np.asarray(a.final_labels(), dtype=object)
        n_opt, n_f = len(a.options), a.final_buckets
        options = np.asarray(a.options)
        frames = []
        for (q, history), i in g.post_nodes.items():
            node = g.tree.nodes[i]
            assert isinstance(node, cfr.Decision)
            seat = node.player
            members = np.asarray(g.groups[q])
            n = len(members)
            s = self.strategy[i]
            assert s is not None
            row = np.repeat(np.arange(node.rows), n_f)
            d0, d1 = options[(row // n) % n_opt], options[row // (n * n_opt)]
            cols = {"seat": seat,
                    "predraw": np.asarray([_line_words(g.lines[m].history) for m in members], dtype=object)[row % n],
                    "line": _line_words(history), "first": q == seat,
                    "own_draw": d0 if seat == 0 else d1, "opponent_draw": d1 if seat == 0 else d0,
                    "final": np.tile(np.arange(n_f), node.rows), "hand": np.tile(final, node.rows),
                    "reach": self._joint(seat, i).ravel()}
            for k, name in enumerate(node.actions):
                cols[name] = s[:, :, k].ravel()
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def predraw_summary(self) -> pd.DataFrame:
        """Before the draw, by seat, betting so far and kind of dealt hand: how often each action
        is taken when the hand gets there, and how often it does."""
        a, g = self.abstraction, self.game
        kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
        w = a.class_weights.astype(np.float64)
        b = a.class_bucket
        rows = []
        for history, i in g.pre_nodes.items():
            node = g.tree.nodes[i]
            assert isinstance(node, cfr.Decision)
            s = self.strategy[i]
            assert s is not None
            reach = self._joint(node.player, i)[0] / a.prior
            for name in HAND_KINDS:
                sel = kind == name
                wr = w[sel] * reach[b[sel]]
                row: dict[str, object] = {"seat": node.player, "line": _line_words(history), "hand": name,
                                          "reaches": wr.sum() / w[sel].sum()}
                for k, act in enumerate(node.actions):
                    row[act] = (wr * s[0, b[sel], k]).sum() / max(wr.sum(), 1e-300)
                rows.append(row)
        return pd.DataFrame(rows)

    def draw_summary(self) -> pd.DataFrame:
        """How each kind of dealt hand draws, over every line that reaches the draw: the share
        of deals, how often the hand gets to the draw, and then how often it stands pat (snows,
        with nothing) or draws 1, 2, 3 cards. Rows: the ``HAND_KINDS``."""
        a, g = self.abstraction, self.game
        rows = []
        for seat in (0, 1):
            mix = np.zeros((a.pre_buckets, len(a.options)))
            got = np.zeros(a.pre_buckets)
            for (_, s_), i in g.draw_nodes.items():
                if s_ != seat:
                    continue
                r = self._joint(seat, i)
                s = self.strategy[i]
                assert s is not None
                mix += (r[:, :, None] * s).sum(axis=0)
                got += r.sum(axis=0)
            probs = mix / np.maximum(got, 1e-300)[:, None]
            reach = got / a.prior
            cls_weight = a.class_weights.astype(np.float64)
            b = a.class_bucket
            kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
            for name in HAND_KINDS:
                sel = kind == name
                w = cls_weight[sel]
                wr = w * reach[b[sel]]
                row = {"seat": seat, "hand": name, "share": w.sum() / cls_weight.sum(),
                       "reaches_draw": wr.sum() / w.sum()}
                for k, d in enumerate(a.options):
                    row["pat" if d == 0 else f"draw {d}"] = (wr * probs[b[sel], k]).sum() / max(wr.sum(), 1e-300)
                rows.append(row)
        return pd.DataFrame(rows)

    def postdraw_summary(self) -> pd.DataFrame:
        """After the draw, by situation (betting so far), final bucket and the opponent's draw
        count: action probabilities averaged over the lines and own draws that reach them."""
        table = self.postdraw_table()
        actions = [c for c in ("check", "bet", "fold", "call", "raise") if c in table]
        weighted = table[actions].mul(table["reach"], axis=0).fillna(0.0)
        weighted[["line", "first", "opponent_draw", "final", "hand", "reach"]] = \
            table[["line", "first", "opponent_draw", "final", "hand", "reach"]]
        grouped = weighted.groupby(["line", "first", "opponent_draw", "final", "hand"], sort=False).sum()
        out = grouped[actions].div(grouped["reach"].where(grouped["reach"] > 0), axis=0)
        out["reach"] = grouped["reach"]
        return out.reset_index()


def _line_words(history: str) -> str:
    """A betting history in words from the first actor, e.g. ``check, bet, call``."""
    return ", ".join(ACTION_NAMES[a] for a in history) or "first to act"


HAND_KINDS = ("nothing, queen high or less", "nothing, king high", "nothing, ace high", "three-card draw",
              "four-card draw", "pair of deuces to sixes", "pair of sevens to tens", "pair of jacks",
              "pair of queens", "pair of kings", "pair of aces", "two pair", "trips", "straight", "flush",
              "full house or better")


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


def solve(rules: RuleSet, *, pre_buckets: int = 1024, final_buckets: int = 512, iterations: int | None = None,
          exploitability: float | None = None, seconds: float | None = None, schedule: str = "dcfr",
          raises: int | None = None, abstraction: Abstraction | None = None,
          progress: cfr.Progress | None = None, rounds: int = 2, cache: bool = True,
          stage: Stage | None = None, workers: int | None = None, scheduler: str | None = None,
          runner: Runner | None = None) -> DrawSolution:
    """Solve heads-up draw under ``rules`` in the abstract game.

    Runs CFR (``schedule`` "cfr+" or "dcfr") for at most ``iterations`` (default 100,000),
    stopping early once the exploitability is at most ``exploitability`` antes per deal (with
    neither limit given, 0.001: one milli-ante) or after ``seconds`` (or at Ctrl-C, with what it
    has: ``interrupted``). An ``abstraction`` built earlier for the same rules can be passed in to
    skip building it; ``cache`` keeps the one built here in the cache directory
    (``cached_abstraction``) and reads it from there next time. ``stage`` hears the steps of the
    abstraction build, whose heavy passes run on ``workers`` (None: every core), ``scheduler`` or
    ``runner`` (``build_abstraction``; CFR runs here).
    """
    if schedule not in cfr.SCHEDULES:
        raise RequestError(f"{{schedule}} must be one of {', '.join(cfr.SCHEDULES)}, got {schedule!r}", "schedule")
    SOLVE_ITERATIONS.check(iterations)
    check_positive(exploitability, "exploitability")
    check_positive(seconds, "seconds")
    PRE_BUCKETS.check(pre_buckets)
    FINAL_BUCKETS.check(final_buckets)
    FIELD_ROUNDS.check(rounds)
    if iterations is None and exploitability is None:
        exploitability = DEFAULT_EXPLOITABILITY
    iterations = MAX_ITERATIONS if iterations is None else iterations
    check_rules(rules)
    if abstraction is None:
        build = cached_abstraction if cache else build_abstraction
        abstraction = build(rules, pre_buckets, final_buckets, rounds, stage=stage or _no_stage,
                            workers=workers, scheduler=scheduler, runner=runner)
    elif abstraction.rules != rules:
        raise ValueError("the abstraction was built for other rules")
    game = build_game(abstraction, raises)
    run = cfr.solve_tree(game.tree, iterations=iterations, exploitability=exploitability, seconds=seconds,
                         schedule=cfr.SCHEDULES[schedule], progress=progress or (lambda c: None))
    return DrawSolution(rules, abstraction, game, run.strategy, (run.value, -run.value), run.exploitability,
                        run.evaluation.nash_conv, run.iterations, run.seconds, abstraction.seconds, schedule,
                        game.max_bets - 1, run.curve, run.interrupted)


# --- storing solutions ---------------------------------------------------------------------------

MAX_ITERATIONS = 100_000      # the iteration limit when only an exploitability is given
SOLUTION_FORMAT = 2          # bump when the stored layout or the abstraction changes; older files are refused
DEFAULT_EXPLOITABILITY = 0.001   # the cached equilibrium's stopping point: 1 milli-ante per deal


def cache_directory() -> Path:
    """Where solutions and abstractions are kept between runs (``drawodds.paths.cache_dir``)."""
    return paths.cache_dir()


def _rules_fields(rules: RuleSet) -> dict[str, object]:
    return {f.name: (list(v) if isinstance(v := getattr(rules, f.name), tuple) else v)
            for f in dataclasses.fields(rules) if f.name != "sources"}


def _rules_from(fields_: dict[str, object]) -> RuleSet:
    base = preset(str(fields_["name"])) if str(fields_["name"]) in preset_names() else RuleSet()
    changes = {k: (tuple(v) if isinstance(v, list) else v) for k, v in fields_.items()}
    return base.replace(**changes)


# The options that shape the heads-up game the solver plays; the table size, stacks and session
# length do not, so rule sets that differ only there share one stored solution.
GAME_OPTIONS = ("game", "joker", "draws", "blinds", "ante", "small_bet", "big_bet", "max_raises", "opener",
                "first_after_draw", "all_check_redeal", "max_draw")


def _settings_key(rules: RuleSet, **settings: object) -> str:
    """A short stable name for a rule set and solver settings (file names in the cache)."""
    game = {k: v for k, v in _rules_fields(rules).items() if k in GAME_OPTIONS}
    text = json.dumps({"format": SOLUTION_FORMAT, "rules": game, **settings}, sort_keys=True)
    return f"{rules.name}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


_ABSTRACTION_ARRAYS = ("classes", "class_weights", "class_bucket", "class_holds", "class_natural", "prior",
                       "transitions", "legal_draws", "openers", "pattern", "final_of_strength", "final_mass")


def _read_abstraction(path: Path, rules: RuleSet, settings: tuple[int, int, int]) -> Abstraction | None:
    """The abstraction stored at ``path``, or None (with a note) when the file is damaged."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in _ABSTRACTION_ARRAYS}
            a = Abstraction(rules, tuple(int(o) for o in z["options"]),
                            pattern_names=tuple(str(n) for n in z["pattern_names"].tolist()),
                            seconds=float(z["seconds"]), settings=settings, **arrays)
        p, f = len(a.prior), a.transitions.shape[2] if a.transitions.ndim == 3 else -1
        whole = (a.transitions.shape == (len(a.options), p, f) and a.legal_draws.shape == (p, len(a.options))
                 and a.openers.shape == (p,) and a.pattern.shape == (p,) and len(a.class_bucket) == len(a.classes)
                 and a.class_holds.shape == (len(a.classes), len(a.options)) and len(a.final_mass) == f
                 and len(a.final_of_strength) == N_STRENGTHS and int(a.class_bucket.max(initial=0)) < p
                 and int(a.final_of_strength.max(initial=0)) < f
                 and int(a.pattern.max(initial=0)) < len(a.pattern_names))
    except Exception:   # noqa: BLE001 - any fault in a cache file (truncated, edited) means: build it again
        whole = False
    if whole:
        paths.touch_cached(path)
        return a
    warnings.warn(paths.CacheNote(f"the cached abstraction {path.name} was damaged; building it again"),
                  stacklevel=3)
    with contextlib.suppress(OSError):
        path.unlink()
    return None


def _store_in_cache(path: Path, write: Callable[[Path], object]) -> None:
    """Write a cache file safely, then keep the cache within its bound (notes say what was evicted)."""
    paths.write_file(path, write)
    for gone in paths.trim_cache(path):
        warnings.warn(paths.CacheNote(f"the cache is over its bound ({paths.CACHE_LIMIT_ENV}); removed "
                                      f"{gone.path.name}"), stacklevel=3)


def cached_abstraction(rules: RuleSet, pre_buckets: int = 1024, final_buckets: int = 512, rounds: int = 2,
                       *, directory: Path | None = None, stage: Stage = _no_stage, workers: int | None = 1,
                       scheduler: str | None = None, runner: Runner | None = None) -> Abstraction:
    """``build_abstraction``, kept on disk: the first call builds and stores it (tens of seconds,
    on ``workers``, ``scheduler`` or ``runner``), later calls with the same rules and sizes read
    it back (a second). Where it was built does not change it, so it is not part of the key.
    A damaged stored file is built again, with a ``paths.CacheNote`` warning."""
    folder = directory or cache_directory()
    path = folder / f"abstraction-{_settings_key(rules, pre=pre_buckets, final=final_buckets, rounds=rounds)}.npz"
    if path.exists():
        stored = _read_abstraction(path, rules, (pre_buckets, final_buckets, rounds))
        if stored is not None:
            return stored
    a = build_abstraction(rules, pre_buckets, final_buckets, rounds, stage, workers=workers, scheduler=scheduler,
                          runner=runner)
    folder.mkdir(parents=True, exist_ok=True)
    _store_in_cache(path, lambda tmp: np.savez(tmp, options=np.array(a.options),
                                               pattern_names=np.array(a.pattern_names), seconds=a.seconds,
                                               **{k: getattr(a, k) for k in _ABSTRACTION_ARRAYS}))
    return a


def save_solution(solution: DrawSolution, path: str | Path) -> Path:
    """Write the solution's strategy to a Parquet file, one row per (decision, row, private state,
    action), with the settings that rebuild its abstraction in the file's metadata."""
    g, a = solution.game, solution.abstraction
    parts: dict[str, list[npt.NDArray]] = {k: [] for k in solution_file.COLUMNS}
    streets = {**{n: "pre-draw" for n in g.pre_nodes.values()}, **{n: "draw" for n in g.draw_nodes.values()},
               **{n: "post-draw" for n in g.post_nodes.values()}}
    for i in g.tree.decisions:
        d = g.tree.nodes[i]
        s = solution.strategy[i]
        assert isinstance(d, cfr.Decision) and s is not None
        rows, states, acts = s.shape
        size = rows * states * acts
        parts["node"].append(np.full(size, i, dtype=np.int32))
        parts["seat"].append(np.full(size, d.player, dtype=np.int8))
        parts["street"].append(np.full(size, streets.get(i, ""), dtype=object))
        parts["line"].append(np.full(size, d.label, dtype=object))
        grid = np.indices((rows, states, acts)).reshape(3, -1)
        parts["row"].append(grid[0].astype(np.int32))
        parts["state"].append(grid[1].astype(np.int32))
        parts["action"].append(np.asarray(d.actions, dtype=object)[grid[2]])
        parts["probability"].append(s.reshape(-1))
    import polars as pl  # only here: importing polars would slow every command's start

    frame = pl.DataFrame({k: np.concatenate(v) for k, v in parts.items()}).with_columns(
        pl.col("street", "line", "action").cast(pl.Categorical))
    meta = {"format": SOLUTION_FORMAT, "rules": _rules_fields(solution.rules),
            "settings": list(a.settings),
            "summary": solution.to_dict()}
    return paths.write_file(path, lambda tmp: frame.write_parquet(tmp, metadata={"drawodds": json.dumps(meta)}))


def load_solution(path: str | Path, *, directory: Path | None = None) -> DrawSolution:
    """Read a solution written by ``save_solution``, checked in full first (``solution_file``):
    a damaged or edited file is a ``SolutionFileError`` before anything is built from it. Its
    abstraction is rebuilt from the stored settings (or read from the cache)."""
    import polars as pl  # only here: importing polars would slow every command's start

    try:
        meta = json.loads(pl.read_parquet_metadata(path)["drawodds"])
    except FileNotFoundError as exc:
        raise RequestError(f"no such solution file: {path}") from exc
    except (OSError, KeyError, ValueError, pl.exceptions.PolarsError) as exc:
        raise solution_file.SolutionFileError(f"{path} is not a solution file written by drawodds solve") from exc
    stored = solution_file.check_metadata(meta, path, SOLUTION_FORMAT)
    try:
        rules = _rules_from(stored.rules)
        check_rules(rules)
    except (ValueError, TypeError, KeyError) as exc:
        raise solution_file.unusable(path, "its rules are not a game the solver plays") from exc
    try:
        frame = pl.read_parquet(path, columns=list(solution_file.COLUMNS))
        if not (frame["probability"].dtype.is_float() and frame["state"].dtype.is_integer()
                and frame["node"].dtype.is_integer()):
            raise ValueError("a column has the wrong type")
        street = frame["street"].cast(pl.String).to_numpy()
    except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
        raise solution_file.unusable(path, "a column is missing or damaged") from exc
    solution_file.check_states(stored, street, frame["state"].to_numpy(), path)
    a = cached_abstraction(rules, *stored.settings, directory=directory)
    if (a.pre_buckets, a.final_buckets) != (stored.pre_draw_buckets, stored.final_buckets):
        raise solution_file.unusable(path, "its bucket counts do not match its settings")
    try:
        game = build_game(a, stored.raises)
    except RuleError as exc:
        raise solution_file.unusable(path, "its raise cap does not fit its rules") from exc
    probability = frame["probability"].to_numpy()
    nodes = frame["node"].to_numpy()
    strategy: list[Floats | None] = [None] * len(game.tree.nodes)
    at = 0
    for i in game.tree.decisions:
        d = game.tree.nodes[i]
        assert isinstance(d, cfr.Decision)
        states = game.tree.spaces[int(game.tree.node_spaces[i, d.player])].size
        size = d.rows * states * len(d.actions)
        if at + size > len(probability) or not (nodes[at:at + size] == i).all():
            raise solution_file.unusable(path, "its rows do not match the game its settings describe")
        strategy[i] = probability[at:at + size].reshape(d.rows, states, len(d.actions))
        at += size
    if at != len(probability):
        raise solution_file.unusable(path, "its rows do not match the game its settings describe")
    solution_file.check_strategy(strategy, path)
    summary = stored.summary
    curve = tuple(cfr.Checkpoint(c["iteration"], c["seconds"], c.get("value", math.nan), c["exploitability"])
                  for c in summary["curve"])
    return DrawSolution(rules, a, game, tuple(strategy), (summary["value"][0], summary["value"][1]),
                        summary["exploitability"], summary.get("nash_conv", math.nan), summary["iterations"],
                        summary["seconds"], summary["abstraction_seconds"], summary["schedule"],
                        stored.raises, curve, bool(summary.get("interrupted", False)))


def equilibrium_solution(rules: RuleSet, *, exploitability: float = DEFAULT_EXPLOITABILITY,
                         pre_buckets: int = 1024, final_buckets: int = 512, rounds: int = 2,
                         directory: Path | None = None, progress: cfr.Progress | None = None,
                         stage: Stage = _no_stage, workers: int | None = 1, scheduler: str | None = None,
                         runner: Runner | None = None) -> DrawSolution:
    """The heads-up equilibrium of ``rules``, solved once to ``exploitability`` antes per deal and
    kept in the cache directory; later calls read the stored file (``equilibrium_cached`` tells
    which). A missing abstraction is built on ``workers``, ``scheduler`` or ``runner``; a damaged
    stored file is solved again, with a ``paths.CacheNote`` warning."""
    check_rules(rules)
    folder = directory or cache_directory()
    path = equilibrium_path(rules, exploitability=exploitability, pre_buckets=pre_buckets,
                            final_buckets=final_buckets, rounds=rounds, directory=folder)
    if path.exists():
        try:
            stored = load_solution(path, directory=folder)
        except solution_file.SolutionFileError:
            warnings.warn(paths.CacheNote(f"the cached {rules.name} equilibrium was damaged; solving it again"),
                          stacklevel=2)
            with contextlib.suppress(OSError):
                path.unlink()
        else:
            paths.touch_cached(path)
            return dataclasses.replace(stored, rules=rules)     # the same game, perhaps another table size
    a = cached_abstraction(rules, pre_buckets, final_buckets, rounds, directory=folder, stage=stage,
                           workers=workers, scheduler=scheduler, runner=runner)
    solution = solve(rules, abstraction=a, exploitability=exploitability, iterations=100_000, progress=progress)
    if not solution.interrupted:
        folder.mkdir(parents=True, exist_ok=True)
        _store_in_cache(path, lambda tmp: save_solution(solution, tmp))
    return solution


def store_equilibrium(solution: DrawSolution, *, exploitability: float = DEFAULT_EXPLOITABILITY,
                      directory: Path | None = None) -> Path | None:
    """Keep a solution from ``solve`` as the cached equilibrium when it is one that
    ``equilibrium_solution`` would look up (the same game, abstraction settings and raise cap,
    solved to ``exploitability`` or closer, not interrupted) and none is stored yet; returns the
    file, or None."""
    pre, final, rounds = solution.abstraction.settings
    default_cap = solution.rules.max_raises if solution.rules.max_raises is not None else 4
    if (solution.interrupted or solution.raises != default_cap
            or not solution.exploitability <= exploitability):
        return None
    path = equilibrium_path(solution.rules, exploitability=exploitability, pre_buckets=pre, final_buckets=final,
                            rounds=rounds, directory=directory)
    if path.exists():
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    _store_in_cache(path, lambda tmp: save_solution(solution, tmp))
    return path


def equilibrium_path(rules: RuleSet, *, exploitability: float = DEFAULT_EXPLOITABILITY, pre_buckets: int = 1024,
                     final_buckets: int = 512, rounds: int = 2, directory: Path | None = None) -> Path:
    """The file in which ``equilibrium_solution`` keeps (or will keep) the solution of these settings."""
    key = _settings_key(rules, pre=pre_buckets, final=final_buckets, rounds=rounds, exploitability=exploitability)
    return (directory or cache_directory()) / f"solution-{key}.parquet"


def equilibrium_cached(rules: RuleSet, *, exploitability: float = DEFAULT_EXPLOITABILITY, pre_buckets: int = 1024,
                       final_buckets: int = 512, rounds: int = 2, directory: Path | None = None) -> bool:
    """Whether ``equilibrium_solution`` with these settings would read a stored file (no solve)."""
    return equilibrium_path(rules, exploitability=exploitability, pre_buckets=pre_buckets,
                            final_buckets=final_buckets, rounds=rounds, directory=directory).exists()


# --- playing the solution with real cards ------------------------------------------------------

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


def hand_keep(hands: npt.NDArray[np.integer], a: Abstraction, option: Ints) -> npt.NDArray[np.bool_]:
    """(N, 5) which cards of each hand its bucket's hold for ``option`` keeps."""
    return class_hold_cards(hands, a.class_holds, option)


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


def _draw(hands: Ints, keep: npt.NDArray[np.bool_], stub: Ints, start: Ints) -> tuple[Ints, Ints]:
    """Final hands after keeping ``keep`` and filling up from ``stub`` at ``start`` (per row)."""
    order = np.argsort(~keep, axis=1, kind="stable")
    kept_first = np.take_along_axis(hands, order, axis=1)
    slot = np.arange(5)[None, :] - keep.sum(axis=1)[:, None]
    idx = np.clip(start[:, None] + slot, 0, stub.shape[1] - 1)
    final = np.where(slot >= 0, np.take_along_axis(stub, idx, axis=1), kept_first)
    return final, start + 5 - keep.sum(axis=1)


def _sample(probs: Floats, u: Floats) -> Ints:
    """Index of the action each row picks, given uniform draws ``u``."""
    return np.minimum((np.cumsum(probs, axis=1) < u[:, None]).sum(axis=1), probs.shape[1] - 1)


@dataclass(frozen=True)
class Playout:
    """The solution played by both seats with real cards, by Monte Carlo: seat 0's result in
    antes per deal (standard error), next to its exact value in the abstract game."""

    deals: int
    shared_deck: bool
    value: float
    standard_error: float
    abstract_value: float

    @property
    def difference(self) -> float:
        """Real-card value minus abstract value (card removal and ties inside final buckets)."""
        return self.value - self.abstract_value

    def to_dict(self) -> dict[str, object]:
        return {"deals": self.deals, "shared_deck": self.shared_deck, "value": self.value,
                "standard_error": self.standard_error, "abstract_value": self.abstract_value,
                "difference": self.difference}


def play_out(solution: DrawSolution, deals: int, rng: np.random.Generator, *, shared_deck: bool = True,
             by_bucket: bool = False, block: int = 50_000) -> Playout:
    """Deal real cards and let both seats play the solution: buckets from their hands, holds from
    their buckets, draws from the stub, the showdown by true strength.

    With ``shared_deck`` both hands and both draws come from one deck, as at the table (card
    removal between the hands counts); without it each seat has its own deck, which is the
    abstract game's assumption, so the difference isolates what card removal does. With
    ``by_bucket`` the showdown compares final buckets (equal buckets split), as the abstract game
    does: with separate decks that reproduces the abstract value, a check on the whole chain.
    """
    total = total_sq = 0.0
    done = 0
    while done < deals:
        n = min(block, deals - done)
        pay = _play_block(solution, n, rng, shared_deck, by_bucket)
        total += float(pay.sum())
        total_sq += float((pay * pay).sum())
        done += n
    mean = total / deals
    se = float(np.sqrt(max(total_sq / deals - mean * mean, 0.0) / deals))
    return Playout(deals, shared_deck, mean, se, solution.value[0])


def _play_block(sol: DrawSolution, n: int, rng: np.random.Generator, shared: bool, by_bucket: bool) -> Floats:
    """Seat 0's payoff (antes) in ``n`` deals played by the solution."""
    a, g = sol.abstraction, sol.game
    decks = [rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1)]
    if not shared:
        decks.append(rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1))
    hands = [np.sort(decks[0][:, :5], axis=1), np.sort(decks[-1][:, 5:10], axis=1)]
    stubs = [decks[0][:, 10:], decks[-1][:, 10:]]
    classes = [classify(h)[0] for h in hands]
    buckets = [a.class_bucket[c] for c in classes]
    pay = np.zeros(n)
    line_of = np.full(n, -1, dtype=np.int64)
    pre = betting_round(0, g.max_bets)
    where = np.zeros(n, dtype=np.int64)
    names = list(pre)
    index = {h: k for k, h in enumerate(names)}
    line_index = {ln.history: k for k, ln in enumerate(g.lines)}
    for h in names:
        node = pre[h]
        sel = np.flatnonzero(where == index[h])
        if len(sel) == 0:
            continue
        if node.end is not None:
            if node.end == "fold":
                folder = (len(h) - 1) % 2
                loss = 1 + node.put[folder] * g.small
                pay[sel] = -loss if folder == 0 else loss
            elif h in line_index:
                line_of[sel] = line_index[h]
            continue                                      # all check and redealt: a push
        seat = node.actor
        assert seat is not None
        s = sol.strategy[g.pre_nodes[h]]
        assert s is not None
        act = _sample(s[0, buckets[seat][sel]], rng.random(len(sel)))
        for k, x in enumerate(node.actions):
            where[sel[act == k]] = index[h + x]
    n_opt = len(a.options)
    for q, members in g.groups.items():
        pos_in_group = {m: k for k, m in enumerate(members)}
        sel = np.flatnonzero(np.isin(line_of, members))
        if len(sel) == 0:
            continue
        ln = np.array([pos_in_group[m] for m in line_of[sel]])
        n_q = len(members)
        finals: list[npt.NDArray[np.int16]] = []
        draws: list[Ints] = []
        stub_ptr = [np.zeros(len(sel), dtype=np.int64), np.zeros(len(sel), dtype=np.int64)]
        for seat in (0, 1):
            s = sol.strategy[g.draw_nodes[(q, seat)]]
            assert s is not None
            row = ln if seat == 0 else draws[0] * n_q + ln
            option = _sample(s[row, buckets[seat][sel]], rng.random(len(sel)))
            keep = hand_keep(hands[seat][sel], a, option)
            if shared and seat == 1:
                stub_ptr[1] = stub_ptr[0]                  # seat 1 draws after seat 0 from one stub
            final, stub_ptr[seat] = _draw(hands[seat][sel], keep, stubs[seat][sel], stub_ptr[seat])
            finals.append(evaluate(final))
            draws.append(option)
        fb = [a.final_of_strength[f] for f in finals]
        row = (draws[1] * n_opt + draws[0]) * n_q + ln
        stake = np.array([g.lines[m].stake for m in members])[ln]
        post = betting_round(q, g.max_bets)
        where = np.zeros(len(sel), dtype=np.int64)
        names = list(post)
        index = {h: k for k, h in enumerate(names)}
        for h in names:
            node = post[h]
            at = np.flatnonzero(where == index[h])
            if len(at) == 0:
                continue
            if node.end == "fold":
                folder = (q + len(h) - 1) % 2
                loss = stake[at] + node.put[folder] * g.big
                pay[sel[at]] = -loss if folder == 0 else loss
                continue
            if node.end is not None:
                ours, theirs = (fb if by_bucket else finals)
                diff = np.sign(ours[at].astype(np.int64) - theirs[at])
                pay[sel[at]] = diff * (stake[at] + node.put[0] * g.big)
                continue
            seat = node.actor
            assert seat is not None
            s = sol.strategy[g.post_nodes[(q, h)]]
            assert s is not None
            act = _sample(s[row[at], fb[seat][at]], rng.random(len(at)))
            for k, x in enumerate(node.actions):
                where[at[act == k]] = index[h + x]
    return pay
