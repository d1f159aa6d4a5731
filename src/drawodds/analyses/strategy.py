"""Whole strategy tables: the exact value of all 32 holds of every deal, for any objective that
depends only on the final hand.

Method (subset sums + inclusion-exclusion). Give every final five-card hand ``F`` a value
``v(F)``. For each k-subset ``U`` of the deck let ``S_k[U] = sum of v(F) over the hands F that
contain U`` (indexed by the colex rank of U, the combinatorial number system). Keeping ``H``
from deal ``D`` and drawing ``5-|H|`` of the ``n-5`` unseen cards reaches exactly the hands
``F`` with ``F ∩ D = H``, so

    value(H | D) = sum over T ⊆ D∖H of (-1)^|T| S[H ∪ T]  /  C(n-5, 5-|H|).

Every term is an ``S`` value at a subset of ``D``: per deal that is 32 gathers and a 5-pass
superset Möbius transform. ``S_4`` comes from one scatter over all hands and each lower level
from the one above (each (k-1)-subset of a hand lies in ``5-(k-1)`` of its k-subsets). Deals are
reduced to suit classes (134,459 for 52 cards), each weighted by the deals it stands for.

Integer objectives (pay tables, points, category indicators) are summed in int64 and compared
on a common denominator, so ties between holds are exact; the equity objective is float64.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb, lcm

import numpy as np
import numpy.typing as npt

from drawodds import i18n
from drawodds.cards import JOKER, RANKS
from drawodds.combinatorics import binomials, combinations, ranks_without_each, subset_rank
from drawodds.errors import RequestError
from drawodds.evaluate import (
    CATEGORIES,
    N_STRENGTHS,
    ONE_PAIR,
    ROYAL_FLUSH,
    category_floor,
    category_of,
    evaluate,
    jacks_or_better_floor,
)
from drawodds.execution import Stage
from drawodds.holds import HOLD_POSITIONS, HOLD_SIZES, N_HOLDS, hold_masks, hold_numbers, legal_hold_table
from drawodds.paths import write_file
from drawodds.patterns import hold_pattern_codes, hold_pattern_label
from drawodds.policies import DrawPolicy, choose_holds, draw_policy, hold_plan, in_range
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleSet, preset
from drawodds.sim.stats import se_of_mean

SCATTER_BLOCK = 1 << 16       # subsets per scatter block in subset_sums
JOB_96 = (800, 50, 25, 9, 6, 4, 3, 2, 1)   # royal, SF, quads, FH, flush, straight, trips, 2P, JJ+
MAX_PAY = 100_000                          # keeps every integer sum far inside int64 / float64
OBJECTIVE_NAMES = ("vp96", "vp:<pay table>", "jacks", "points", "equity", "at_least:<category>",
                   "category:<category>")



def _no_progress(stage: str, done: float) -> None:
    return None


# --- objectives -------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Objective(Result):
    """A value for every final hand strength (index = evaluate()'s strength, 1..7463)."""

    name: str
    description: str
    values: npt.NDArray[np.float64] = field(metadata=HIDDEN)
    integer: bool                  # all values whole numbers: exact int64 arithmetic and ties
    unit: str = "probability"


def _category_vector() -> npt.NDArray[np.int8]:
    cats = np.zeros(N_STRENGTHS, dtype=np.int8)
    cats[1:] = category_of(np.arange(1, N_STRENGTHS))
    return cats


def paytable_objective(pays: tuple[int, ...] = JOB_96, name: str = "vp96") -> Objective:
    """Video poker: coins returned per coin bet for royal, SF, quads, FH, flush, straight, trips,
    two pair, jacks or better (nine whole numbers, best line first)."""
    if len(pays) != 9 or any(int(p) != p or not 0 <= p <= MAX_PAY for p in pays):
        raise RequestError("a pay table is nine whole numbers 0..{most}: royal/SF/quads/FH/flush/straight/trips/two "
                           "pair/jacks or better, e.g. vp:800/50/25/9/6/4/3/2/1",
                           most=i18n.local_number(f"{MAX_PAY:,}"))
    royal, sf, quads, fh, fl, st, trips, two, jacks = (int(p) for p in pays)
    cats = _category_vector()
    by_cat = np.array([0, 0, two, trips, st, fl, fh, quads, sf, royal], dtype=np.float64)
    values = by_cat[cats]
    values[0] = 0.0
    strengths = np.arange(N_STRENGTHS)
    values[(cats == ONE_PAIR) & (strengths >= jacks_or_better_floor())] = jacks
    values[ROYAL_FLUSH] = royal
    values[N_STRENGTHS - 1] = royal          # five aces (joker decks only) pays as the royal
    return Objective(name, f"video poker pay table {'/'.join(map(str, pays))} (return per coin)",
                     values, True, "coins per coin bet")


def at_least_objective(category: int) -> Objective:
    """1 when the final hand is at least the category (e.g. at least a flush)."""
    values = np.zeros(N_STRENGTHS)
    values[category_floor(category):] = 1.0
    return Objective(f"at_least:{CATEGORIES[category]}",
                     f"probability of finishing with at least {CATEGORIES[category].replace('_', ' ')}",
                     values, True)


def category_objective(category: int) -> Objective:
    """1 when the final hand is exactly the category (e.g. a flush, not better)."""
    values = (_category_vector() == category).astype(np.float64)
    values[0] = 0.0
    return Objective(f"category:{CATEGORIES[category]}",
                     f"probability of finishing with exactly {CATEGORIES[category].replace('_', ' ')}",
                     values, True)


def jacks_objective() -> Objective:
    """1 when the final hand is at least a pair of jacks (the Jacks-or-Better opening line)."""
    values = np.zeros(N_STRENGTHS)
    values[jacks_or_better_floor():] = 1.0
    return Objective("jacks", "probability of finishing with at least a pair of jacks", values, True)


def points_objective(rules: RuleSet) -> Objective:
    """Poengpoker table points of the final hand (8 straight flush ... 0 high card).

    Only the single best hand at the table scores in the game; this is the points of one's own
    final hand, the quantity a player drawing alone maximises."""
    table = np.array([*rules.hand_points, rules.hand_points[-1]], dtype=np.float64)  # five aces = SF
    values = table[_category_vector()]
    values[0] = 0.0
    scale = "/".join(map(str, rules.hand_points[::-1]))
    return Objective("points", f"Poengpoker table points of the final hand ({scale})", values, True, "points")


def equity_values(field_distribution: npt.NDArray[np.float64], opponents: int) -> npt.NDArray[np.float64]:
    """Showdown equity of each final strength against ``opponents`` independent hands drawn from
    ``field_distribution`` (probability per strength), ties split evenly."""
    dist = np.asarray(field_distribution, dtype=np.float64)
    dist = dist / dist.sum()
    below = np.concatenate([[0.0], np.cumsum(dist)[:-1]])   # P(opponent strength < s)
    equal = dist
    n = opponents
    # E = sum_j C(n, j) equal^j below^(n-j) / (j + 1): j opponents tie, the rest are beaten.
    total = np.zeros_like(dist)
    for j in range(n + 1):
        total += comb(n, j) * equal**j * below**(n - j) / (j + 1)
    total[0] = 0.0
    return total


def equity_objective(field_distribution: npt.NDArray[np.float64], opponents: int,
                     policy: str = "field") -> Objective:
    """Equity against N opponents whose final hands follow ``field_distribution``.

    Card removal between our cards and theirs is ignored: the opponents' final hands are taken
    as independent draws from the field's distribution (its size is measured by
    ``equity_card_removal_error``)."""
    if not 1 <= opponents <= 7:
        raise RequestError("opponents must be 1..7, got {opponents}", opponents=opponents)
    return Objective(f"equity:{opponents}", f"showdown equity against {opponents} opponent(s) "
                     f"drawing by the '{policy}' policy (card removal between us and them ignored)",
                     equity_values(field_distribution, opponents), False, "share of the pot")


def parse_objective(text: str, rules: RuleSet, *, opponents: int = 1, policy: str = "standard") -> Objective:
    """An objective from its CLI name: vp96, vp:800/50/25/9/6/4/3/2/1, jacks, points, equity,
    at_least:<category>."""
    name = text.strip().lower()
    if name == "vp96":
        return paytable_objective(JOB_96)
    if name.startswith("vp:"):
        parts = re.split(r"[/,]", name[3:])
        try:
            pays = tuple(int(p) for p in parts)
        except ValueError:
            raise RequestError("bad pay table {text}: nine whole numbers separated by '/'",
                               text=repr(text[3:])) from None
        return paytable_objective(pays, name=name)
    if name == "jacks":
        return jacks_objective()
    if name == "points":
        return points_objective(rules)
    if name.startswith(("at_least:", "category:")):
        kind, cat = name.split(":", 1)
        allowed = CATEGORIES[1:9] if kind == "at_least" else CATEGORIES[:9]
        if cat not in allowed:
            raise RequestError("unknown category {cat}; choose one of {choices}", cat=repr(cat),
                               choices=', '.join(allowed))
        make = at_least_objective if kind == "at_least" else category_objective
        return make(CATEGORIES.index(cat))
    if name == "equity":
        dist = field_distribution(rules, policy)
        return equity_objective(dist, opponents, policy)
    raise RequestError("unknown objective {text}; choose one of: {choices}", text=repr(text),
                       choices=', '.join(OBJECTIVE_NAMES))


def default_rules(objective: str) -> RuleSet:
    """The rule set an objective is usually played under: video poker draws any number of cards,
    Poengpoker is its own preset, everything else the home game (draw at most 3)."""
    name = objective.strip().lower()
    if name.startswith("vp"):
        return preset("morkpoker", max_draw="any")
    if name == "points":
        return preset("poengpoker")
    return preset("morkpoker")


# --- subset sums and inclusion-exclusion ------------------------------------------------------

@dataclass(frozen=True, repr=False)
class SubsetSums(Result):
    """``S_k[rank(U)]`` = total value of the five-card hands containing U, for k = 0..4."""

    n: int                                   # deck size
    levels: tuple[npt.NDArray, ...] = field(metadata=HIDDEN)   # levels[k], length C(n, k)
    integer: bool

    @property
    def total(self) -> float:
        """Sum of the value over all C(n, 5) hands (S_0)."""
        return float(self.levels[0][0])


def subset_sums(hand_values: npt.NDArray, n: int, *, integer: bool = True,
                progress: Stage = _no_progress) -> SubsetSums:
    """Subset sums from a value per hand, hands in ``combinations(n, 5)`` (lexicographic) order."""
    hands = combinations(n, 5)
    vals = np.asarray(hand_values, dtype=np.float64)
    if vals.shape != (len(hands),):
        raise RequestError("need one value per hand of combinations({n}, 5), got shape {shape}", n=n, shape=vals.shape)
    levels: list[npt.NDArray] = [np.empty(0)] * 5
    nonzero = vals != 0                  # most hands pay nothing in a pay table: skip them
    current, weights = hands[nonzero], vals[nonzero]
    for k in (4, 3, 2, 1, 0):
        progress(f"subset sums, {k}-card subsets", (4 - k) / 5)
        acc = np.zeros(comb(n, k), dtype=np.float64)
        if k == 0:
            acc[0] = weights.sum()
        else:
            for start in range(0, len(current), SCATTER_BLOCK):   # blocks keep temporaries small
                block = current[start:start + SCATTER_BLOCK]
                wb = weights[start:start + SCATTER_BLOCK]
                for ranks in ranks_without_each(block):
                    acc += np.bincount(ranks, weights=wb, minlength=comb(n, k))
        # Each hand containing a k-subset U contains 5-k of the (k+1)-subsets above U.
        acc /= 5 - k
        levels[k] = np.rint(acc).astype(np.int64) if integer else acc
        if k > 0:
            current = combinations(n, k)
            weights = acc[subset_rank(current)]
            nonzero = weights != 0
            current, weights = current[nonzero], weights[nonzero]
    return SubsetSums(n, tuple(levels), integer)


def hold_numerators(deals: npt.NDArray[np.integer], own_values: npt.NDArray, sums: SubsetSums
                    ) -> npt.NDArray:
    """Total value over all draws of each of the 32 holds of each deal, shape (N, 32).

    ``deals`` are sorted rows (ascending card codes); ``own_values`` the value of each deal as
    dealt (the hold that keeps all five). Hold mask bit i keeps the deal's i-th card.
    """
    d = np.asarray(deals)
    b = binomials()
    dtype = np.int64 if sums.integer else np.float64
    f = np.empty((N_HOLDS, len(d)), dtype=dtype)      # hold-major: each hold a contiguous row
    f[0] = sums.levels[0][0]
    f[N_HOLDS - 1] = own_values
    ranks: list[npt.NDArray[np.int64]] = [np.zeros(len(d), dtype=np.int64)] * N_HOLDS
    for m in range(1, N_HOLDS - 1):
        top = m.bit_length() - 1                       # the subset's largest card is its last
        k = int(HOLD_SIZES[m])
        ranks[m] = ranks[m ^ (1 << top)] + b[k].take(d[:, top])
        sums.levels[k].take(ranks[m], out=f[m])
    # Superset Möbius transform: f[H] <- sum over T ⊇ H within the deal of (-1)^|T∖H| f[T].
    for bit in range(5):
        for m in range(N_HOLDS):
            if not m >> bit & 1:
                f[m] -= f[m | (1 << bit)]
    return np.ascontiguousarray(f.T)


def draw_denominators(n: int) -> npt.NDArray[np.int64]:
    """C(n-5, cards drawn) for each hold mask: how many equally likely draws it has."""
    return np.array([comb(n - 5, 5 - int(HOLD_SIZES[m])) for m in range(N_HOLDS)], dtype=np.int64)


# --- suit classes ----------------------------------------------------------------------------

@functools.cache
def suit_classes(joker: bool = False) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """One sorted representative hand per suit-isomorphism class and the deals it stands for.

    Two hands are the same up to renaming suits iff they have the same multiset of per-suit
    rank masks. Exactly one hand of each class has its masks non-increasing from clubs to spades
    (equal masks swapped give the same hand), so a filter finds the representatives; a class's
    weight is 24 / (permutations among equal masks). 52 cards: 134,459 classes, weights summing
    to C(52, 5) = 2,598,960.
    """
    n = 52 + int(joker)
    hands = combinations(n, 5)
    card_bits = np.zeros(53, dtype=np.int64)
    card_bits[:52] = np.left_shift(1, np.arange(13).repeat(4) + 13 * np.tile(np.arange(4), 13))
    packed = card_bits.take(hands[:, 0])
    for i in range(1, 5):
        packed += card_bits.take(hands[:, i])
    m = [((packed >> (13 * s)) & 0x1FFF).astype(np.int16) for s in range(4)]
    del packed
    canonical = (m[0] >= m[1]) & (m[1] >= m[2]) & (m[2] >= m[3])
    reps = np.ascontiguousarray(hands[canonical])
    reps.setflags(write=False)
    ms = [x[canonical] for x in m]
    # Stabiliser size: product of factorials of the runs of equal masks (masks are sorted).
    e01, e12, e23 = ms[0] == ms[1], ms[1] == ms[2], ms[2] == ms[3]
    stab = np.ones(len(reps), dtype=np.int64)
    run = np.ones(len(reps), dtype=np.int64)  # length of the current run of equal masks
    for eq in (e01, e12, e23):
        run = np.where(eq, run + 1, 1)
        stab *= np.where(eq, run, 1)
    weights = 24 // stab
    weights.setflags(write=False)
    return reps, weights


@functools.cache
def _class_keys(joker: bool) -> npt.NDArray[np.int64]:
    reps, _ = suit_classes(joker)
    return reps.astype(np.int64) @ (53 ** np.arange(4, -1, -1))


def suit_class_of(hand: npt.ArrayLike, joker: bool = False, *, keys: npt.NDArray[np.int64] | None = None
                  ) -> tuple[int, npt.NDArray[np.int64]]:
    """The suit class (index into ``suit_classes``) of a five-card hand, and each suit's new
    name in the class's representative (``new[old suit]``). ``keys``: the classes' representatives
    as numbers (base 53, sorted), when the caller has them (finding them takes a second)."""
    cards = np.asarray(hand, dtype=np.int64)
    real = cards[cards != JOKER]
    masks = [sum(1 << int(r) for r in real[real % 4 == s] // 4) for s in range(4)]
    order = sorted(range(4), key=lambda s: -masks[s])
    new = np.empty(4, dtype=np.int64)
    new[order] = np.arange(4)
    rep = np.sort(np.where(cards == JOKER, JOKER, cards // 4 * 4 + new[cards % 4]))
    keys = _class_keys(joker) if keys is None else keys
    key = int(rep @ (53 ** np.arange(4, -1, -1)))
    index = int(np.searchsorted(keys, key))
    if index >= len(keys) or keys[index] != key:
        raise RequestError("not a five-card hand of this deck")
    return index, new


def suit_orbit_sizes(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Number of distinct hands each hand becomes under the 24 suit permutations (a check on
    ``suit_classes``'s weights, computed independently)."""
    import itertools
    h = np.asarray(hands, dtype=np.int64)
    images = []
    for perm in itertools.permutations(range(4)):
        p = np.array(perm)
        moved = np.where(h == JOKER, JOKER, (h // 4) * 4 + p[h % 4])
        images.append(np.sort(moved, axis=1) @ (53 ** np.arange(5)))
    stacked = np.sort(np.stack(images, axis=1), axis=1)
    return 1 + (np.diff(stacked, axis=1) != 0).sum(axis=1)


# --- the solver ------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class HoldValues(Result):
    """Exact values of the 32 holds of some deals (sorted rows), with legality and the best two."""

    deals: npt.NDArray[np.int8]            # (N, 5) sorted
    values: npt.NDArray[np.float64]        # (N, 32), NaN where illegal
    legal: npt.NDArray[np.bool_]
    numerators: npt.NDArray                # (N, 32) totals over the draws
    best: npt.NDArray[np.int8]             # hold number of the best legal hold
    runner_up: npt.NDArray[np.int8]        # the best other legal hold

    @property
    def best_value(self) -> npt.NDArray[np.float64]:
        return np.take_along_axis(self.values, self.best[:, None].astype(np.int64), axis=1)[:, 0]

    @property
    def runner_up_value(self) -> npt.NDArray[np.float64]:
        return np.take_along_axis(self.values, self.runner_up[:, None].astype(np.int64), axis=1)[:, 0]


def _rank_holds(numerators: npt.NDArray, legal: npt.NDArray[np.bool_], n: int, integer: bool
                ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Values, best and runner-up holds; exact comparisons for integer objectives.

    Ties go to the lowest hold mask (a fixed, documented order)."""
    den = draw_denominators(n)
    score: npt.NDArray[np.int64] | npt.NDArray[np.float64]
    worst: float
    if integer:
        common = lcm(*(int(x) for x in den))
        score = numerators * (common // den)[None, :]          # same denominator: exact order
        worst = np.iinfo(np.int64).min
    else:
        score = numerators / den[None, :]
        worst = -np.inf
    score[~legal] = worst                                      # in place: tables are large
    best = np.argmax(score, axis=1)
    rows = np.arange(len(score))
    score[rows, best] = worst
    runner = np.argmax(score, axis=1)
    del score
    values = numerators / den[None, :]
    values[~legal] = np.nan
    return values, best.astype(np.int8), runner.astype(np.int8)


@dataclass(frozen=True, repr=False)
class Solver(Result):
    """An objective's subset sums, ready to value the holds of any deals under a rule set."""

    objective: Objective
    rules: RuleSet
    sums: SubsetSums = field(metadata=HIDDEN)

    def hold_values(self, deals: npt.NDArray[np.integer]) -> HoldValues:
        """Exact value of every hold of each deal (rows are sorted first; masks refer to the
        sorted cards)."""
        d = np.sort(np.asarray(deals, dtype=np.int8), axis=-1).reshape(-1, 5)
        own = self.objective.values[evaluate(d, joker=self.rules.joker)]
        if self.objective.integer:
            own = np.rint(own).astype(np.int64)
        num = hold_numerators(d, own, self.sums)
        legal = legal_hold_table(d, self.rules)
        values, best, runner = _rank_holds(num, legal, self.sums.n, self.objective.integer)
        return HoldValues(d, values, legal, num, best, runner)


def make_solver(objective: Objective, rules: RuleSet, progress: Stage = _no_progress) -> Solver:
    """Build the subset sums of an objective over the rule set's deck (one pass over all hands)."""
    if rules.draws != 1:
        raise RequestError("strategy tables cover one draw; {rule_set} has {draws} (use a single-draw game)",
                           rule_set=rules.name, draws=rules.draws)
    n = rules.deck_size
    progress("evaluating every hand", 0.0)
    strengths = evaluate(combinations(n, 5), joker=rules.joker)
    hand_values = objective.values[strengths]
    sums = subset_sums(hand_values, n, integer=objective.integer,
                       progress=lambda s, f: progress(s, 0.1 + 0.6 * f))
    return Solver(objective, rules, sums)


@dataclass(frozen=True, repr=False)
class StrategyTable(Result):
    """Best hold of every suit class of deals for one objective under one rule set."""

    objective: Objective = field(metadata=shown_as(lambda o: o.name))
    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    holds: HoldValues = field(metadata=HIDDEN)
    weights: npt.NDArray[np.int64] = field(metadata=HIDDEN)     # deals each class stands for

    @property
    def deals(self) -> int:
        return int(self.weights.sum())

    @property
    def classes(self) -> int:
        return len(self.weights)

    @property
    def value(self) -> float:
        """Average value of optimal play over all deals."""
        if self.objective.integer:
            den = draw_denominators(self.rules.deck_size)
            common = lcm(*(int(x) for x in den))
            best = self.holds.best.astype(np.int64)
            num = np.take_along_axis(self.holds.numerators, best[:, None], axis=1)[:, 0]
            scaled = (num * (common // den[best])).tolist()         # Python ints: no overflow
            exact = sum(x * int(w) for x, w in zip(scaled, self.weights.tolist(), strict=False))
            return exact / (common * self.deals)
        return float((self.holds.best_value * self.weights).sum() / self.deals)

    def to_frame(self):  # -> polars.DataFrame
        """One row per deal class: hand, class weight, best hold, its value, runner-up and gap."""
        import polars as pl

        h = self.holds
        best_v, run_v = h.best_value, h.runner_up_value
        codes = hold_pattern_codes(h.deals, self.rules.joker)[np.arange(len(h.best)), h.best.astype(np.int64)]
        uniq, inv = np.unique(codes, return_inverse=True)
        return pl.DataFrame({
            "hand": hand_strings(h.deals),
            "weight": self.weights,
            "best_hold": hold_strings(h.deals, h.best),
            "best_pattern": np.array([hold_pattern_label(int(c)) for c in uniq], dtype=object)[inv].tolist(),
            "best_cards_kept": HOLD_SIZES[h.best.astype(np.int64)],
            "value": best_v,
            "runner_up": hold_strings(h.deals, h.runner_up),
            "runner_up_value": run_v,
            "gap": best_v - run_v,
        })

    def write(self, path: str) -> None:
        """Write the table to Parquet or CSV (chosen by the file extension)."""
        frame = self.to_frame()
        if path.endswith(".parquet"):
            write_file(path, frame.write_parquet)
        elif path.endswith(".csv"):
            write_file(path, frame.write_csv)
        else:
            raise RequestError("output must end in .parquet or .csv, got {path}", path=repr(path))

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "max_draw": self.rules.max_draw, "value": self.value,
                "deals": self.deals, "classes": self.classes}


def solve(objective: Objective, rules: RuleSet, progress: Stage = _no_progress) -> StrategyTable:
    """The exact strategy table over every deal (as suit classes) for an objective."""
    solver = make_solver(objective, rules, progress)
    progress("suit classes", 0.7)
    reps, weights = suit_classes(rules.joker)
    progress("valuing the 32 holds of every class", 0.85)
    holds = solver.hold_values(reps)
    progress("done", 1.0)
    return StrategyTable(objective, rules, holds, weights)


# --- the field: final-hand distribution of opponents drawing by a policy ------------------------

HoldChooser = Callable[[npt.NDArray[np.int8]], npt.NDArray[np.bool_]]   # hands (T, 5) -> keep (T, 5)


def final_hand_distribution(deals: npt.NDArray[np.integer], holds: npt.NDArray[np.integer],
                            weights: npt.NDArray, *, joker: bool = False,
                            dead: npt.ArrayLike = ()) -> npt.NDArray[np.float64]:
    """Probability of each final strength when deal ``i`` (weight ``weights[i]``) keeps hold
    ``holds[i]`` (mask over its sorted cards) and draws the rest from the other cards.
    ``dead`` cards (a player's own hand) are in no deal and never drawn.

    The transpose of ``hold_numerators``: each deal spreads +-w / C(n-5, drawn) over the
    supersets U of its hold within the deal (inclusion-exclusion), and a final hand's
    probability is the sum over its 32 subsets.
    """
    n = 52 + int(joker)
    out = np.asarray(dead, dtype=np.int64).ravel()
    d = np.sort(np.asarray(deals, dtype=np.int64), axis=1)
    h = np.asarray(holds, dtype=np.int64)
    w = np.asarray(weights, dtype=np.float64)
    b = binomials()
    den = draw_denominators(n - len(out)).astype(np.float64)
    base = w / den[h]
    levels = [np.zeros(comb(n, k)) for k in range(6)]
    ranks: list[npt.NDArray[np.int64]] = [np.zeros(len(d), dtype=np.int64)] * N_HOLDS
    for u in range(1, N_HOLDS):
        top = u.bit_length() - 1
        ranks[u] = ranks[u ^ (1 << top)] + b[int(HOLD_SIZES[u])].take(d[:, top])
    for u in range(N_HOLDS):
        sel = (u & h) == h
        if not sel.any():
            continue
        sign = np.where((HOLD_SIZES[u] - HOLD_SIZES[h[sel]]) % 2 == 0, 1.0, -1.0)
        k = int(HOLD_SIZES[u])
        levels[k] += np.bincount(ranks[u][sel], weights=sign * base[sel], minlength=comb(n, k))
    all_hands = combinations(n, 5)
    if len(out):
        all_hands = all_hands[~np.isin(all_hands, out).any(axis=1)]
    dist = np.zeros(N_STRENGTHS)
    for start in range(0, len(all_hands), SCATTER_BLOCK):     # blocks keep the 31 rank arrays small
        hands = all_hands[start:start + SCATTER_BLOCK]
        prob = np.full(len(hands), levels[0][0])
        hr: list[npt.NDArray[np.int64]] = [np.zeros(len(hands), dtype=np.int64)] * N_HOLDS
        for u in range(1, N_HOLDS):
            top = u.bit_length() - 1
            k = int(HOLD_SIZES[u])
            hr[u] = hr[u ^ (1 << top)] + b[k].take(hands[:, top])
            prob += levels[k].take(hr[u])
        dist += np.bincount(evaluate(hands, joker=joker), weights=prob, minlength=N_STRENGTHS)
    return np.clip(dist / w.sum(), 0.0, None)


def policy_chooser(rules: RuleSet, policy: str, rng: np.random.Generator) -> HoldChooser:
    """The hold choice of a named draw policy (``drawodds.policies``), deviations drawn with rng."""
    pol = draw_policy(policy)
    return lambda hands: np.asarray(choose_holds(pol, hands, rules, rng), dtype=bool)


def field_distribution(rules: RuleSet, policy: object = "standard", dead: npt.ArrayLike = ()
                       ) -> npt.NDArray[np.float64]:
    """Final-hand distribution (per strength) of a player dealt a random hand who draws by ``policy``.

    ``dead`` cards (our own hand) are out of the player's deal and draw: the field of a table
    where we hold them (every deal of the other cards is enumerated, no suit classes).

    ``policy`` is a policy name or ``DrawPolicy`` (``drawodds.policies``): its usual hold and its
    rare deviation (snowing, breaking) are mixed at their exact rates, and a known pre-draw range
    (``min_hand``) restricts the deals. Or any callable hands (T, 5) -> keep mask (T, 5). The policy
    is asked once per suit class, weighted by the class size, so it should treat suits alike.
    """
    out = np.asarray(dead, dtype=np.int64).ravel()
    if len(out):
        every = combinations(rules.deck_size, 5)
        reps = every[~np.isin(every, out).any(axis=1)]
        weights = np.ones(len(reps), dtype=np.int64)
    else:
        reps, weights = suit_classes(rules.joker)
    deals = np.asarray(reps)
    w: npt.NDArray[np.float64]
    if callable(policy):
        holds = hold_numbers(policy(deals))
        w = weights.astype(np.float64)
    else:
        pol = policy if isinstance(policy, DrawPolicy) else draw_policy(str(policy))
        plan = hold_plan(pol, deals, rules)
        w = weights.astype(np.float64) * in_range(pol, deals, rules)
        if not w.any():
            raise RequestError("no deal is in the policy's pre-draw range")
        holds = np.concatenate([hold_numbers(plan.keep), hold_numbers(plan.alt_keep)])
        w = np.concatenate([w * (1.0 - plan.alt_rate), w * plan.alt_rate])
        deals = np.concatenate([deals, deals])
    draws = 5 - HOLD_SIZES[holds]
    if (draws > rules.max_draw_cards).any():
        raise RequestError("the policy draws {draws} cards; the rules allow {max_draw}", draws=int(draws.max()),
                           max_draw=rules.max_draw_cards)
    return final_hand_distribution(deals, holds, w, joker=rules.joker, dead=out)


@dataclass(frozen=True, repr=False)
class CardRemovalCheck(Result):
    """Table equity (field independent of our cards) vs a Monte Carlo that deals the opponents
    from the cards we do not hold, per sampled deal, for the table's best and runner-up holds
    (the two share every simulated deal: common random numbers). The JSON gives the summary."""

    deals: npt.NDArray[np.int8] = field(metadata=HIDDEN)
    holds: npt.NDArray[np.int64] = field(metadata=HIDDEN)            # table's best hold
    table: npt.NDArray[np.float64] = field(metadata=HIDDEN)          # its table value
    monte_carlo: npt.NDArray[np.float64] = field(metadata=HIDDEN)    # its simulated equity
    standard_error: npt.NDArray[np.float64] = field(metadata=HIDDEN)
    table_gap: npt.NDArray[np.float64] = field(metadata=HIDDEN)      # best - runner-up, table
    mc_gap: npt.NDArray[np.float64] = field(metadata=HIDDEN)         # best - runner-up, simulated
    mc_gap_se: npt.NDArray[np.float64] = field(metadata=HIDDEN)
    trials: int = field(metadata=shown_as(name="trials_per_deal"))
    seed: int | None

    @property
    def mean_error(self) -> float:
        """Average of table minus Monte Carlo over the sampled deals."""
        return float((self.table - self.monte_carlo).mean())

    @property
    def mean_error_se(self) -> float:
        return float(np.sqrt((self.standard_error**2).sum()) / len(self.table))

    @property
    def mean_abs_error(self) -> float:
        """Mean |table - Monte Carlo| (includes the simulation noise, see ``rms_error``)."""
        return float(np.abs(self.table - self.monte_carlo).mean())

    @property
    def rms_error(self) -> float:
        """Root mean square of table - Monte Carlo with the simulation noise (SE^2) taken out."""
        excess = ((self.table - self.monte_carlo) ** 2 - self.standard_error**2).mean()
        return float(np.sqrt(max(excess, 0.0)))

    @property
    def flips(self) -> int:
        """Deals where the simulation puts the runner-up ahead of the table's best hold by more
        than two standard errors: card removal changes the decision."""
        return int((self.mc_gap < -2 * self.mc_gap_se).sum())

    @property
    def gap_error_rms(self) -> float:
        """RMS of the table's best-vs-runner-up gap minus the simulated gap, noise removed."""
        excess = ((self.table_gap - self.mc_gap) ** 2 - self.mc_gap_se**2).mean()
        return float(np.sqrt(max(excess, 0.0)))

    def to_dict(self) -> dict[str, object]:
        return {"deals": len(self.table), **super().to_dict(),
                "mean_error": self.mean_error, "mean_error_se": self.mean_error_se,
                "mean_abs_error": self.mean_abs_error, "rms_error_noise_removed": self.rms_error,
                "max_abs_error": float(np.abs(self.table - self.monte_carlo).max()),
                "gap_error_rms_noise_removed": self.gap_error_rms,
                "decision_flips": self.flips}


def simulate_equities(deal: npt.NDArray[np.integer], holds: list[int], opponents: int, chooser: HoldChooser,
                      trials: int, rng: np.random.Generator, *, joker: bool = False,
                      dealt: Callable[[npt.NDArray[np.int8]], npt.NDArray[np.bool_]] | None = None
                      ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Monte Carlo equity of each of ``holds`` (masks over the sorted ``deal``) against opponents
    dealt from the remaining cards, who choose holds by ``chooser`` and draw from the same stub
    (no card-removal approximation). The opponents draw first, so every hold of ours meets the
    same opponents' final hands: returns means, standard errors, and the standard error of each
    hold's difference to the first. ``dealt`` (hands -> whether each is in the opponents'
    range, e.g. an opener's jacks or better) keeps only the deals where every opponent's is."""
    d = np.sort(np.asarray(deal, dtype=np.int8))
    n = 52 + int(joker)
    stub = np.setdiff1d(np.arange(n, dtype=np.int8), d)
    perm = rng.permuted(np.tile(stub, (trials, 1)), axis=1)
    if dealt is not None:
        batches, found = [], 0
        for _ in range(1000):
            ok = np.logical_and.reduce([dealt(perm[:, 5 * i:5 * i + 5]) for i in range(opponents)])
            batches.append(perm[ok])
            found += int(ok.sum())
            if found >= trials:
                break
            perm = rng.permuted(np.tile(stub, (trials, 1)), axis=1)
        else:
            raise RequestError("the opponents' range is almost never dealt")
        perm = np.concatenate(batches)[:trials]
    rest = perm[:, 5 * opponents:]

    def draw(hands: npt.NDArray[np.int8], keep: npt.NDArray[np.bool_], ptr: npt.NDArray[np.int64]
             ) -> npt.NDArray[np.int8]:
        order = np.argsort(~keep, axis=1, kind="stable")
        kept_first = np.take_along_axis(hands, order, axis=1)
        slot = np.arange(5)[None, :] - keep.sum(axis=1)[:, None]     # >= 0: a drawn card
        if (ptr + 5 - keep.sum(axis=1) > rest.shape[1]).any():
            raise RequestError("the stub runs out: too many opponents for these draw limits")
        idx = np.clip(ptr[:, None] + slot, 0, rest.shape[1] - 1)
        return np.where(slot >= 0, np.take_along_axis(rest, idx, axis=1), kept_first)

    ptr = np.zeros(trials, dtype=np.int64)
    theirs = []
    for i in range(opponents):
        hands = perm[:, 5 * i:5 * i + 5]
        keep = np.asarray(chooser(hands), dtype=bool)
        theirs.append(draw(hands, keep, ptr))
        ptr = ptr + 5 - keep.sum(axis=1)
    their_strength = evaluate(np.stack(theirs, axis=1), joker=joker)
    best = their_strength.max(axis=1)
    shares = []
    for hold in holds:
        keep = np.broadcast_to(hold_masks(hold), (trials, 5))
        ours = evaluate(draw(np.broadcast_to(d, (trials, 5)).copy(), keep, ptr), joker=joker)
        ties = (their_strength == ours[:, None]).sum(axis=1)
        shares.append(np.where(ours > best, 1.0, np.where(ours == best, 1.0 / (1 + ties), 0.0)))
    s = np.stack(shares)
    return s.mean(axis=1), se_of_mean(s, axis=1), se_of_mean(s - s[0], axis=1)


def simulate_equity(deal: npt.NDArray[np.integer], hold: int, opponents: int, chooser: HoldChooser,
                    trials: int, rng: np.random.Generator, *, joker: bool = False) -> tuple[float, float]:
    """Monte Carlo equity (mean, standard error) of one hold; see ``simulate_equities``."""
    mean, se, _ = simulate_equities(deal, [hold], opponents, chooser, trials, rng, joker=joker)
    return float(mean[0]), float(se[0])


def equity_card_removal_error(solver: Solver, opponents: int, chooser: HoldChooser, *, deals: int = 40,
                              trials: int = 4000, seed: int = 1) -> CardRemovalCheck:
    """Measure what ignoring card removal costs: the table's values of its best and runner-up
    holds on random deals against a Monte Carlo where the opponents are dealt from the cards we
    do not hold."""
    rng = np.random.default_rng(seed)
    n = solver.rules.deck_size
    sample = np.sort(np.stack([rng.choice(n, 5, replace=False) for _ in range(deals)]), axis=1).astype(np.int8)
    hv = solver.hold_values(sample)
    mc, se, gap, gap_se = (np.zeros(deals) for _ in range(4))
    for i in range(deals):
        m, e, de = simulate_equities(sample[i], [int(hv.best[i]), int(hv.runner_up[i])], opponents,
                                     chooser, trials, rng, joker=solver.rules.joker)
        mc[i], se[i], gap[i], gap_se[i] = m[0], e[0], m[0] - m[1], de[1]
    return CardRemovalCheck(sample, hv.best.astype(np.int64), hv.best_value, mc, se,
                            hv.best_value - hv.runner_up_value, gap, gap_se, trials, seed)


# --- formatting -------------------------------------------------------------------------------

_CARD_NAMES = [f"{RANKS[c // 4]}{'cdhs'[c % 4]}" for c in range(52)] + ["Jk"]
_KEPT_DESC = [positions[::-1] for positions in HOLD_POSITIONS]   # kept cards, highest first


def hand_strings(deals: npt.NDArray[np.integer]) -> list[str]:
    """Sorted deals as text, highest card first (``As Ks 7h 3d 2c``)."""
    return [" ".join(_CARD_NAMES[c] for c in row[::-1]) for row in np.asarray(deals).tolist()]


def hold_strings(deals: npt.NDArray[np.integer], masks: npt.NDArray[np.integer]) -> list[str]:
    """The kept cards of each hold as text, highest first; '-' for discarding everything."""
    return [" ".join(_CARD_NAMES[row[i]] for i in _KEPT_DESC[m]) or "-"
            for row, m in zip(np.asarray(deals).tolist(), np.asarray(masks).tolist(), strict=False)]


# --- the objective a rule set is played for ------------------------------------------------------

def default_objective(rules: RuleSet) -> str:
    """The objective of a rule set's own game: showdown equity in the draw games.

    Poengpoker and Chicago score the last trick as well as the best hand, and a strategy table
    values the final hand alone, so they have no default: ``keep`` plays their tricks out."""
    if rules.game != "draw":
        raise RequestError("{rule_set} scores the last trick as well as the best hand, and a strategy table values "
                           "the final hand alone: use {keep} for a hand, or {objective} points for the table of hand "
                           "points alone", "objective", "keep", rule_set=rules.name)
    return "equity"


def default_opponents(rules: RuleSet) -> int:
    """Opponents for the equity objective: everybody else at the table (1 to 7)."""
    return min(max(rules.players - 1, 1), 7)
