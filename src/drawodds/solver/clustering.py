"""Pre-draw buckets: weighted k-means of deal classes within each draw pattern, the budget shared out."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from drawodds.solver.spread import Shelved, Spread, _open
from drawodds.solver.subsets import Floats, Ints


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


SPLIT_CHUNK = 512         # buckets per chunk of ``split_buckets``


def split_buckets(features: Floats, weights: Floats, bucket: Ints, pattern: Ints, k: int,
                  spread: Spread | None = None, progress: Callable[[int], None] | None = None
                  ) -> tuple[Ints, Ints]:
    """Each bucket split in up to ``k`` by weighted k-means of its classes on ``features`` (a
    bucket of fewer classes into one each): (new bucket of each class, pattern of each new
    bucket), numbered by old bucket, then weakest first. Chunks of ``SPLIT_CHUNK`` buckets run
    on ``spread``; ``progress`` hears how many are done."""
    spread = spread or Spread()
    n = int(bucket.max()) + 1
    order = np.argsort(bucket, kind="stable")
    starts = np.searchsorted(bucket[order], np.arange(n + 1))
    shelved = spread.put(features)
    spans = [(starts[lo], starts[min(lo + SPLIT_CHUNK, n)]) for lo in range(0, n, SPLIT_CHUNK)]
    parts = spread.map(_split_chunk, [(shelved, order[a:b], bucket[order[a:b]], weights[order[a:b]], k)
                                      for a, b in spans], progress)
    labels = np.empty(len(bucket), dtype=np.int64)
    for (a, b), lab in zip(spans, parts, strict=True):
        labels[order[a:b]] = lab
    used, new = np.unique(bucket * k + labels, return_inverse=True)
    return new.astype(np.int64), pattern[used // k]


def _split_chunk(features: Shelved, sel: Ints, bucket: Ints, weights: Floats, k: int) -> Ints:
    """``split_buckets`` of the classes ``sel`` (grouped by ``bucket``, ascending): sub-labels."""
    x = np.asarray(_open(features)[sel], dtype=np.float64)
    out = np.zeros(len(sel), dtype=np.int64)
    edges = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1], True])
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        if b - a > 1:
            out[a:b] = weighted_kmeans(x[a:b], weights[a:b], k, -x[a:b].sum(axis=1))
    return out


def _pattern_kmeans(features: Shelved, sel: Ints, weights: Floats, k: int, strength: Floats) -> Ints:
    """``weighted_kmeans`` of the classes ``sel`` of one draw pattern (a chunk of ``predraw_buckets``)."""
    return weighted_kmeans(_open(features)[sel], weights, k, strength)
