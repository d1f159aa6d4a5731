"""Exact expectations over the draw: a value per final strength, averaged over every draw of every hold
of every deal class, by subset sums grouped by suit pattern and inclusion-exclusion over the discards."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from math import comb

import numpy as np
import numpy.typing as npt

from drawodds.combinatorics import combinations
from drawodds.evaluate import evaluate
from drawodds.solver.classes import deal_classes
from drawodds.solver.subsets import N_CARDS, N_MASKS, N_STRENGTHS, POPCOUNT, Floats, Ints, hand_strengths


@dataclass(frozen=True)
class SubsetTables:
    """Completions of every k-card subset of the deal classes, by suit pattern.

    ``ids[c, m]`` is the suit pattern of the cards of class ``c`` kept by hold mask ``m`` among
    the patterns of its size; ``dense[k]`` counts, for each k-card pattern (k = 0..3), the
    five-card hands of each strength that contain it; ``four[p]`` lists the strengths of the 48
    hands that contain a 4-card pattern; ``own`` is each class's strength."""

    ids: npt.NDArray[np.int32] = field(repr=False)
    own: Ints = field(repr=False)
    dense: tuple[Floats, ...] = field(repr=False)
    four: npt.NDArray[np.int16] = field(repr=False)


def _pattern_keys(masks: Ints) -> Ints:
    """Key of per-suit rank masks (N, 4) up to renaming suits."""
    s = -np.sort(-masks, axis=1)
    return (s[:, 0] << 39) | (s[:, 1] << 26) | (s[:, 2] << 13) | s[:, 3]


@functools.cache
def subset_tables() -> SubsetTables:
    """The ``SubsetTables`` of the 134,459 deal classes (a few seconds, kept for the process)."""
    reps, _ = deal_classes()
    r = reps.astype(np.int64)
    n = len(r)
    bits = np.zeros((n, 5, 4), dtype=np.int64)
    for p in range(5):
        bits[np.arange(n), p, r[:, p] % 4] = 1 << (r[:, p] // 4)
    ids = np.zeros((n, N_MASKS), dtype=np.int32)
    dense: list[Floats] = []
    four = np.zeros((0, 48), dtype=np.int16)
    for k in range(5):
        masks = [m for m in range(N_MASKS) if POPCOUNT[m] == k]
        keys = np.stack([_pattern_keys(bits[:, [p for p in range(5) if m >> p & 1], :].sum(axis=1)) for m in masks],
                        axis=1)
        uniq, first = np.unique(keys, return_index=True)
        for j, m in enumerate(masks):
            ids[:, m] = np.searchsorted(uniq, keys[:, j])
        cls, col = np.divmod(first, len(masks))
        positions = np.array([[p for p in range(5) if m >> p & 1] for m in masks],
                             dtype=np.int64).reshape(len(masks), k)
        subsets = r[cls[:, None], positions[col]]
        strengths = _completion_strengths(subsets)
        if k < 4:
            rows = np.repeat(np.arange(len(uniq)), strengths.shape[1])
            dense.append(np.bincount(rows * N_STRENGTHS + strengths.ravel(), minlength=len(uniq) * N_STRENGTHS)
                         .reshape(len(uniq), N_STRENGTHS).astype(np.float64))
        else:
            four = strengths.astype(np.int16)
    return SubsetTables(ids, evaluate(reps).astype(np.int64), tuple(dense), four)


def _completion_strengths(subsets: Ints) -> Ints:
    """(patterns, C(52 - k, 5 - k)) strengths of every five-card hand containing each k-subset."""
    k = subsets.shape[1]
    if k == 0:
        return hand_strengths().astype(np.int64)[None, :]
    rest = combinations(N_CARDS - k, 5 - k).astype(np.int64)
    taken = np.zeros((len(subsets), N_CARDS), dtype=bool)
    taken[np.arange(len(subsets))[:, None], subsets] = True
    others = np.nonzero(~taken)[1].reshape(len(subsets), N_CARDS - k)
    out = np.empty((len(subsets), len(rest)), dtype=np.int64)
    step = max(1, (1 << 21) // len(rest))
    for i in range(0, len(subsets), step):
        sub, oth = subsets[i:i + step], others[i:i + step]
        hands = np.concatenate([np.broadcast_to(sub[:, None, :], (len(sub), len(rest), k)), oth[:, rest]], axis=2)
        out[i:i + step] = evaluate(hands.reshape(-1, 5)).reshape(len(sub), len(rest))
    return out


def _levels(t: SubsetTables, vt: Floats, needed: set[int]) -> dict[int, Floats]:
    """Sum of a value per strength (``vt``: strengths x vectors) over the hands containing each
    pattern of the needed sizes: level k -> (patterns, vectors)."""
    out: dict[int, Floats] = {}
    for k in needed:
        if k < 4:
            out[k] = t.dense[k] @ vt
        else:
            acc = np.zeros((len(t.four), vt.shape[1]))
            for j in range(t.four.shape[1]):
                acc += vt[t.four[:, j]]
            out[k] = acc
    return out


def _terms(holds: Ints, d: int) -> list[tuple[Ints, int, float]]:
    """Inclusion-exclusion over the discards of each hold (all holds draw ``d``): per term the
    mask of each class, its size and its sign."""
    bits = (holds[:, None] >> np.arange(5)) & 1
    free = np.argsort(bits, axis=1, kind="stable")[:, :d]
    out = []
    for j in range(1 << d):
        m = holds.copy()
        for i in range(d):
            if j >> i & 1:
                m |= 1 << free[:, i]
        size = 5 - d + bin(j).count("1")
        out.append((m, size, 1.0 if (size - (5 - d)) % 2 == 0 else -1.0))
    return out


def hold_expectations(t: SubsetTables, vt: Floats, holds: Ints, d: int, classes: Ints | None = None,
                      levels: dict[int, Floats] | None = None) -> Floats:
    """(classes, vectors) expected value per strength (``vt``: strengths x vectors) when each
    class keeps ``holds`` (masks, all drawing ``d``) and draws from the 47 unseen cards; the
    holds are those of ``classes`` (default: every deal class in order)."""
    terms = _terms(holds, d)
    if levels is None:
        levels = _levels(t, vt, {s for _, s, _ in terms if s < 5})
    rows = np.arange(len(holds)) if classes is None else classes
    out = np.zeros((len(holds), vt.shape[1]))
    for m, size, sign in terms:
        part = vt[t.own[rows]] if size == 5 else levels[size][t.ids[rows, m]]
        if sign > 0:
            out += part
        else:
            out -= part
    out /= comb(N_CARDS - 5, d)
    return out


def strength_spread(t: SubsetTables, weights: Floats, holds: Ints, d: int, classes: Ints | None = None) -> Floats:
    """(vectors, strengths) probability of each final strength when the classes, weighted by
    each row of ``weights`` (vectors x classes), keep ``holds`` (all drawing ``d``): the
    transpose of ``hold_expectations``, with the same ``classes``."""
    wt = np.ascontiguousarray(weights.T)                    # classes x vectors
    out = np.zeros((N_STRENGTHS, len(weights)))
    coef: dict[int, Floats] = {}
    rows = np.arange(len(holds)) if classes is None else classes
    for m, size, sign in _terms(holds, d):
        ids = t.own[rows] if size == 5 else t.ids[rows, m].astype(np.int64)
        n = N_STRENGTHS if size == 5 else len(t.dense[size]) if size < 4 else len(t.four)
        c = out if size == 5 else coef.setdefault(size, np.zeros((n, len(weights))))
        _add_rows(c, ids, wt, sign)
    for size, c in coef.items():
        if size < 4:
            out += t.dense[size].T @ c
        else:
            for j in range(t.four.shape[1]):
                np.add.at(out, t.four[:, j], c)
    out /= comb(N_CARDS - 5, d)
    return np.ascontiguousarray(out.T)


def group_spread(t: SubsetTables, groups: Ints, shares: Floats, n_groups: int, holds: Ints, d: int,
                 classes: Ints) -> Floats:
    """(groups, strengths) ``strength_spread`` when each class of ``classes`` (keeping ``holds``,
    drawing ``d``) weighs ``shares`` in one group of ``groups`` alone (a bucket, say): one count
    per class and term instead of a row per group."""
    out = np.zeros((N_STRENGTHS, n_groups))
    coef: dict[int, Floats] = {}
    for m, size, sign in _terms(holds, d):
        ids = t.own[classes] if size == 5 else t.ids[classes, m].astype(np.int64)
        n = N_STRENGTHS if size == 5 else len(t.dense[size]) if size < 4 else len(t.four)
        part = np.bincount(ids * n_groups + groups, weights=sign * shares,
                           minlength=n * n_groups).astype(np.float64, copy=False).reshape(n, n_groups)
        if size == 5:
            out += part
        elif size in coef:
            coef[size] += part
        else:
            coef[size] = part
    for size, c in coef.items():
        if size < 4:
            out += t.dense[size].T @ c
            continue
        pattern, group = np.nonzero(c)                  # the 48 completions of each four-card pattern
        index = t.four[pattern].astype(np.int64) * n_groups + group[:, None]
        out += np.bincount(index.ravel(), weights=np.repeat(c[pattern, group], t.four.shape[1]),
                           minlength=N_STRENGTHS * n_groups).reshape(N_STRENGTHS, n_groups)
    out /= comb(N_CARDS - 5, d)
    return np.ascontiguousarray(out.T)


def _add_rows(target: Floats, index: Ints, rows: Floats, sign: float) -> None:
    """``target[index[i]] += sign * rows[i]`` for every i, repeated indices included."""
    order = np.argsort(index, kind="stable")
    keys = index[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    part = np.add.reduceat(rows[order], starts, axis=0)
    target[keys[starts]] += part if sign > 0 else -part


def best_hold_expectations(t: SubsetTables, vt: Floats, d: int, legal: npt.NDArray[np.bool_],
                           block: int = 16384) -> tuple[Floats, Ints]:
    """(classes, vectors) the largest ``hold_expectations`` over the legal holds drawing ``d``
    (-inf where none is legal) and the hold masks that give it: one gather per mask and
    inclusion-exclusion over all of them."""
    n = len(t.own)
    out = np.full((n, vt.shape[1]), -np.inf)
    arg = np.zeros((n, vt.shape[1]), dtype=np.int64)
    for rows, sums in hold_sums(t, vt, d, block):
        view, best = out[rows[0]:rows[-1] + 1], arg[rows[0]:rows[-1] + 1]
        for m, values in sums.items():
            better = legal[rows, m][:, None] & (values > view)
            view[better] = values[better]
            best[better] = m
    out /= comb(N_CARDS - 5, d)
    return out, arg


def hold_sums(t: SubsetTables, vt: Floats, d: int, block: int = 16384) -> Iterator[tuple[Ints, dict[int, Floats]]]:
    """For each block of classes (its row numbers), each hold mask drawing ``d`` and the sum of ``vt``
    over its draws (divide by C(47, d) for the mean): one gather per mask and inclusion-exclusion."""
    masks = [m for m in range(N_MASKS) if POPCOUNT[m] >= 5 - d]
    levels = _levels(t, vt, set(range(5 - d, 5)))
    n = len(t.own)
    for lo in range(0, n, block):
        rows = np.arange(lo, min(lo + block, n))
        f = {m: (vt[t.own[rows]] if m == N_MASKS - 1 else levels[int(POPCOUNT[m])][t.ids[rows, m]]) for m in masks}
        for bit in range(5):
            for m in masks:
                if not m >> bit & 1 and (m | 1 << bit) in f:
                    f[m] = f[m] - f[m | 1 << bit]
        yield rows, {m: f[m] for m in masks if POPCOUNT[m] == 5 - d}
