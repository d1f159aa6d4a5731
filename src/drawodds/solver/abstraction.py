"""The abstraction: deal classes in pre-draw buckets, their holds per draw count, and exact transitions
to final-strength buckets (see docs/solve.md for the abstract game)."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from drawodds.cards import RANKS
from drawodds.evaluate import QUADS, STRAIGHT, category_of, describe, evaluate, jacks_or_better_floor
from drawodds.execution import Runner, Stage
from drawodds.i18n import N_
from drawodds.rules import RuleError, RuleSet
from drawodds.solver.classes import class_hold_cards, deal_classes
from drawodds.solver.clustering import SPLIT_CHUNK, predraw_buckets, split_buckets
from drawodds.solver.settings import DEFAULT_SETTINGS
from drawodds.solver.spread import Shelved, Spread, _open
from drawodds.solver.subsets import (
    CLASS_BLOCK,
    N_MASKS,
    N_STRENGTHS,
    POPCOUNT,
    Floats,
    Ints,
    bucket_counts,
    draw_outcomes,
    final_distribution,
    hand_strengths,
    hold_numerators,
    hold_transitions,
    scalar_subset_sums,
)

PATTERN_CATEGORIES = ("high card", "pair", "two pair", "trips", "straight", "flush", "full house", "quads",
                      "straight flush")


MADE_HAND_SLACK = 1e-3    # a hand that stands pat may draw only where that costs at most this much equity


STRONG_POWER = 8          # the second hold's objective: the final hand's equity to this power (ending strong)


COARSE_BUCKETS = 32       # final-strength resolution of the clustering features


SPLIT = 5                 # each k-means bucket is split in up to this many by both holds of its classes


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
    settings: tuple[int, int, int] = DEFAULT_SETTINGS.abstraction     # the bucket budgets and field rounds asked for
    alt_holds: Ints | None = field(default=None, repr=False)       # (N, options) each class's second hold, -1 illegal
    alt_transitions: Floats | None = field(default=None, repr=False)  # (options, P, F) the buckets' second holds

    @functools.cached_property
    def choices(self) -> tuple[int, ...]:
        """The options whose draw count offers a second hold, a private choice of the seat."""
        return () if self.alt_holds is None else choice_options(self.class_holds, self.alt_holds)

    def hold_columns(self, k: int) -> tuple[Ints, ...]:
        """Each class's holds open to option ``k``: the first, and the second when there is a choice."""
        if self.alt_holds is None or k not in self.choices:
            return (self.class_holds[:, k],)
        return (self.class_holds[:, k], self.alt_holds[:, k])

    def hold_transitions(self, k: int) -> Floats:
        """(holds, P, F) the buckets' transitions for each hold of option ``k`` (``hold_columns``);
        one array per option, shared by every node of the game that reads it."""
        if self.alt_transitions is None or k not in self.choices:
            return self.transitions[k:k + 1]
        return self._choice_transitions[k]

    @functools.cached_property
    def all_holds(self) -> Ints:
        """(N, columns) each class's hold for every option, then (with second holds) each option's
        second hold: the columns a solution's draw and hold choices index."""
        if self.alt_holds is None:
            return self.class_holds
        return np.concatenate([self.class_holds, self.alt_holds], axis=1)

    def hold_legal(self, k: int) -> npt.NDArray[np.bool_] | None:
        """(P, holds) the holds of option ``k`` each bucket may take (None: all): a bucket dealt
        four of a kind and nothing else keeps its four, its first hold, by construction (the
        second hold of a count would break them)."""
        quads = self._quads_buckets
        if k not in self.choices or not quads.any():
            return None
        legal = np.ones((self.pre_buckets, len(self.hold_columns(k))), dtype=bool)
        legal[quads, 1:] = False
        return legal

    @functools.cached_property
    def _quads_buckets(self) -> npt.NDArray[np.bool_]:
        """(P,) the buckets whose every deal class is four of a kind."""
        quads = category_of(evaluate(self.classes)) == QUADS
        total = np.bincount(self.class_bucket, minlength=self.pre_buckets)
        return (np.bincount(self.class_bucket, weights=quads, minlength=self.pre_buckets) == total) & (total > 0)

    @functools.cached_property
    def _choice_transitions(self) -> dict[int, Floats]:
        assert self.alt_transitions is not None
        return {k: np.stack([self.transitions[k], self.alt_transitions[k]]) for k in self.choices}

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
               options: tuple[int, ...], spread: Spread | None = None, exclude: Ints | None = None
               ) -> tuple[Ints, Floats]:
    """Best hold of each draw count by an objective per strength: (N, options) masks (-1 when no
    hold of that size is legal) and their expected values; per block of deals (the chunks of
    ``spread``). With ``exclude`` (N, options) the best other than those holds (the runner-up)."""
    spread = spread or Spread()
    levels = tuple(spread.put(level) for level in scalar_subset_sums(values[hand_strengths()]))
    if exclude is None:
        exclude = np.full((len(deals), len(options)), -1, dtype=np.int64)
    parts = spread.map(_best_holds_block, [(deals[i:i + CLASS_BLOCK], legal[i:i + CLASS_BLOCK], values, levels,
                                            options, exclude[i:i + CLASS_BLOCK])
                                           for i in range(0, len(deals), CLASS_BLOCK)])
    if not parts:
        return np.zeros((0, len(options)), dtype=np.int64), np.zeros((0, len(options)))
    return np.concatenate([h for h, _ in parts]), np.concatenate([b for _, b in parts])


def _best_holds_block(deals: npt.NDArray[np.integer], legal: npt.NDArray[np.bool_], values: Floats,
                      levels: tuple[Shelved, ...], options: tuple[int, ...], exclude: Ints) -> tuple[Ints, Floats]:
    """``best_holds`` of one block of deals, from the subset sums of the objective."""
    num = hold_numerators(deals, values[evaluate(deals)], tuple(_open(level) for level in levels))
    value = num / draw_outcomes(5 - POPCOUNT)[None, :]
    holds = np.full((len(deals), len(options)), -1, dtype=np.int64)
    best = np.full((len(deals), len(options)), -np.inf)
    for j, d in enumerate(options):
        cand = np.where(legal & (5 - POPCOUNT == d)[None, :], value, -np.inf)
        cand[exclude[:, j] >= 0, exclude[exclude[:, j] >= 0, j]] = -np.inf
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


def second_holds(deals: npt.NDArray[np.int8], legal: npt.NDArray[np.bool_], holds: Ints, field_mass: Floats,
                 options: tuple[int, ...], spread: Spread | None = None) -> Ints:
    """Each class's other hold of every draw count it may take, the seat's second choice for that
    count: the one most likely to end strong (by the ``STRONG_POWER``-th power of the final hand's
    showdown equity against the field) other than the first; the first where there is no other
    (and for standing pat)."""
    alt, _ = best_holds(deals, legal, equity_values(field_mass) ** STRONG_POWER, options, spread, exclude=holds)
    keep = (holds < 0) | (alt < 0) | (np.asarray(options) == 0)[None, :]
    return np.where(keep, holds, alt)


def choice_options(holds: Ints, alt: Ints) -> tuple[int, ...]:
    """The options (columns) where some class's second hold differs from its first: a choice."""
    return tuple(int(k) for k in np.flatnonzero((alt != holds).any(axis=0)))


def _no_stage(stage: str, done: float) -> None:
    return None


def build_abstraction(rules: RuleSet, pre_buckets: int = DEFAULT_SETTINGS.pre_buckets,
                      final_buckets: int = DEFAULT_SETTINGS.final_buckets,
                      rounds: int = DEFAULT_SETTINGS.rounds, stage: Stage = _no_stage, *, workers: int | None = 1,
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

    stage(N_("abstraction: deal classes"), 0.0)
    deals, weights = deal_classes()
    w = weights.astype(np.float64)
    options = draw_options(rules)
    stage(N_("abstraction: best holds against the field"), 0.05)
    holds, value, field_mass = field_holds(deals, w, legal_hold_table(deals, rules), options, rounds, spread)
    natural = value.argmax(axis=1)
    holds = keep_made_hands(deals, holds, value, natural)
    stage(N_("abstraction: second holds"), 0.3)
    alt = second_holds(deals, legal_hold_table(deals, rules), holds, field_mass, options, spread)
    of_final = equal_mass_buckets(field_mass, final_buckets, categories=True)
    n_final = int(of_final.max()) + 1
    stage(N_("abstraction: final-hand counts"), 0.35)
    counts = bucket_counts(of_final[hand_strengths()].astype(np.int64), n_final,
                           needed_levels(np.concatenate([holds, alt], axis=1)), spread)
    # Clustering features: cumulative distributions over coarse buckets (runs of final buckets).
    fine_mass = np.bincount(of_final[1:], weights=field_mass[1:], minlength=n_final)
    coarse_of_final = equal_mass_buckets(np.r_[0.0, fine_mass], min(COARSE_BUCKETS, n_final))[1:]
    coarse = (coarse_of_final[of_final], int(coarse_of_final.max()) + 1, merge_columns(counts, coarse_of_final))
    blocks = -(-len(deals) // CLASS_BLOCK)
    features = _cumulative(class_transitions(deals, holds, *coarse, spread=spread, progress=part(
        N_("abstraction: clustering features"), 0.5, 0.65, blocks)))
    group, names = pattern_groups(deals, natural, options, rules, holds >= 0)
    bucket, pattern = predraw_buckets(features, w, group, value.max(axis=1), pre_buckets, spread,
                                      part(N_("abstraction: pre-draw buckets (k-means)"), 0.65, 0.75,
                                           int(group.max()) + 1))
    choices = choice_options(holds, alt)
    if choices and SPLIT > 1:
        second = class_transitions(deals, alt[:, list(choices)], *coarse, spread=spread, progress=part(
            N_("abstraction: features of the second holds"), 0.75, 0.78, blocks))
        features = np.concatenate([features, _cumulative(second)], axis=1)
        del second
        bucket, pattern = split_buckets(features, w, bucket, pattern, SPLIT, spread,
                                        part(N_("abstraction: buckets split by their second holds"), 0.78, 0.8,
                                             -(-len(pattern) // SPLIT_CHUNK)))
    del features, coarse
    n_pre = len(pattern)
    sums = class_transitions(deals, holds, of_final, n_final, counts, reduce=(bucket, w), spread=spread,
                             progress=part(N_("abstraction: exact transitions"), 0.8, 0.9, blocks))
    alt_sums = class_transitions(deals, alt, of_final, n_final, counts, reduce=(bucket, w), spread=spread,
                                 progress=part(N_("abstraction: exact transitions of the second holds"), 0.9, 1.0,
                                               blocks))
    del counts
    bucket_mass = np.bincount(bucket, weights=w, minlength=n_pre)
    transitions = np.transpose(sums / bucket_mass[:, None, None], (1, 0, 2))
    alt_transitions = np.transpose(alt_sums / bucket_mass[:, None, None], (1, 0, 2))
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
                       (pre_buckets, final_buckets, rounds), alt, alt_transitions)


def _cumulative(distributions: npt.NDArray) -> Floats:
    """(N, options, coarse) distributions as clustering features: each option's cumulative
    distribution without its last (always 1) column, options side by side."""
    return np.cumsum(distributions, axis=2)[:, :, :-1].reshape(len(distributions), -1).astype(np.float64)


def _count_true(group: Ints, flags: npt.NDArray[np.bool_], n: int) -> Ints:
    """(n, columns) number of True flags per group."""
    out = np.zeros((n, flags.shape[1]), dtype=np.int64)
    np.add.at(out, group, flags.astype(np.int64))
    return out


def check_rules(rules: RuleSet) -> None:
    """Raise ``RuleError`` for a rule set the solver does not cover (before any work): it covers
    one-draw fixed-limit draw with antes and a 52-card deck."""
    if rules.game != "draw":
        raise RuleError("the solver plays the draw game, not {game}", game=rules.game)
    if rules.joker:
        raise RuleError("the solver uses a 52-card deck; the joker is not supported")
    if rules.draws != 1:
        raise RuleError("the solver covers one draw; {rule_set} has {draws}", rule_set=rules.name, draws=rules.draws)
    if rules.blinds or rules.ante <= 0:
        raise RuleError("the solver needs an ante (blinds are not supported)")


def hand_keep(hands: npt.NDArray[np.integer], a: Abstraction, option: Ints) -> npt.NDArray[np.bool_]:
    """(N, 5) which cards of each hand its bucket's hold for ``option`` keeps."""
    return class_hold_cards(hands, a.class_holds, option)
