"""Reading draw counts: what an opponent's public draw says about their hand, and what it becomes.

Every possible five-card holding of the opponent (the deck less our own cards: C(52, 5) or
C(47, 5) rows) is weighted by the exact probability that the way it is played draws ``d``
cards with it and by whether it is in the player's pre-draw range: a ``Holdings`` table, built
by a *source*. A draw policy is one (``holdings``: the snow/break deviations mixed in
analytically, ``PolicyRange`` adding a typed hand range from ``drawodds.handrange``); a solved
strategy, built in ``drawodds.analyses``, is another. That gives the exact posterior of the
holding, with no sampling. The final hand after the draw is enumerated exactly where that is
cheap (standing pat, drawing one, and larger draws while the enumeration stays within
``EXACT_BUDGET`` evaluations), and otherwise sampled from the exact posterior with standard errors.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

from drawodds import i18n
from drawodds.cards import JOKER, RANK_PLURALS, unseen
from drawodds.combinatorics import combinations
from drawodds.errors import RequestError
from drawodds.evaluate import (
    CATEGORIES,
    FLUSH,
    N_STRENGTHS,
    RANK_KEYS,
    STRAIGHT,
    category_of,
    key_sums,
    strength_from_keys,
)
from drawodds.handrange import parse_range
from drawodds.holds import final_strengths
from drawodds.kinds import Category, PolicyPattern
from drawodds.patterns import dealt_features
from drawodds.policies import (
    FOUR_FLUSH,
    HIGH_CARDS,
    INSIDE,
    OPEN_ENDED,
    PAIR,
    PAIR_KICKER,
    SNOW,
    TRIPS_P,
    TWO_PAIR_P,
    DrawPolicy,
    HoldPlan,
    hold_plan,
    in_range,
)
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleSet
from drawodds.sim.sampler import draws_avoiding

EXACT_BUDGET = 30_000_000   # most five-card evaluations an exact final-hand enumeration may cost
FINAL_TRIALS = 200_000      # Monte Carlo samples of the final hand when enumeration is too big
MAX_ROUNDS = 20_000         # redraw rounds before sample_conditioned gives up

# Posterior labels: 13 pair sizes, 13 pair + ace kicker sizes, then the other policy patterns, the made
# hands by category, and the two deviations (the slugs of ``kinds.PolicyPattern`` and ``kinds.Category``).
_PAIR_LABELS = tuple(f"pair_of_{p}" for p in RANK_PLURALS)
_KICKER_LABELS = tuple(f"pair_of_{p}_ace_kicker" for p in RANK_PLURALS)
_OTHER = (TWO_PAIR_P, TRIPS_P, FOUR_FLUSH, OPEN_ENDED, INSIDE, HIGH_CARDS)
_PAT_LABELS = tuple(f"{PolicyPattern.PAT.slug}_{c.slug}" for c in Category)        # indexed by category
LABELS = (*_PAIR_LABELS, *_KICKER_LABELS, *(PolicyPattern(p).slug for p in _OTHER), *_PAT_LABELS,
          PolicyPattern.SNOW.slug, PolicyPattern.BROKEN.slug)
_OTHER_BASE = 26
_PAT_BASE = _OTHER_BASE + len(_OTHER)
_SNOW_LABEL = _PAT_BASE + len(Category)
_BROKEN_LABEL = _SNOW_LABEL + 1


class HoldRule(Protocol):
    """How holdings are played: the keep mask of each hand for the listed way of playing it."""

    def keep(self, cards: npt.NDArray[np.int8], columns: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
        """(M, 5) the cards kept from each hand (M, 5) when it is played as its column (M,)."""
        ...


class HoldingsSource(Protocol):
    """Anything that weights every holding by how it is played (a draw policy, a solved strategy):
    hashable, so that its holdings are built once per set of known cards."""

    @property
    def name(self) -> str: ...

    def holdings(self, rules: RuleSet, known: tuple[int, ...]) -> Holdings: ...

    def __hash__(self) -> int: ...


class SolvedPlay(HoldingsSource, Protocol):
    """A source that plays a betting line from a seat (``solver.solved_range.SolvedRange``)."""

    @property
    def seat_name(self) -> str: ...

    @property
    def line_text(self) -> str: ...

    @property
    def our_draw(self) -> int | None: ...

    @property
    def seats(self) -> int: ...

    @property
    def before(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class PolicyHolds:
    """The hold rule of a draw policy: column 0 is its usual hold, column 1 the snow/break deviation."""

    policy: DrawPolicy
    rules: RuleSet

    def keep(self, cards: npt.NDArray[np.int8], columns: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
        plan = hold_plan(self.policy, cards, self.rules)
        return np.where((np.asarray(columns) == 0)[:, None], plan.keep, plan.alt_keep)


@dataclass(frozen=True, repr=False)
class Holdings(Result):
    """Every holding an opponent can have given the cards we know, and the ways it is played.

    Row ``i`` is one dealt hand; column ``k`` one way of playing it (a policy's usual hold and its
    deviation; a solved strategy's draw options) with the prior mass ``weight[i, k]`` of being
    dealt the hand *and* playing it that way, the cards it then draws and the posterior label it
    is reported under. ``holds`` gives the kept cards of any (row, column). A range restricts
    the holdings by multiplying the weights (``restricted``).
    """

    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    source: str                                                   # what plays them, e.g. "standard"
    cards: npt.NDArray[np.int8] = field(metadata=HIDDEN)          # (N, 5)
    draw: npt.NDArray[np.int8] = field(metadata=HIDDEN)           # (N, K) cards drawn in each column
    weight: npt.NDArray[np.float64] = field(metadata=HIDDEN)      # (N, K) prior mass (0: out of range)
    label: npt.NDArray[np.int16] = field(metadata=HIDDEN)         # (N, K) posterior label (index into LABELS)
    category: npt.NDArray[np.int8] = field(metadata=HIDDEN)       # (N,) category of the dealt hand
    known: tuple[int, ...]
    holds: HoldRule = field(metadata=HIDDEN)

    def weights(self, draw: int) -> npt.NDArray[np.float64]:
        """(N, K) prior mass of each way of playing each holding that ends up drawing ``draw``."""
        return np.where(self.draw == draw, self.weight, 0.0)

    def mass(self, draw: int | None) -> npt.NDArray[np.float64]:
        """(N,) prior mass of each holding drawing ``draw`` (None: any number)."""
        w = self.weight if draw is None else self.weights(draw)
        return w.sum(axis=1)

    def restricted(self, mask: npt.NDArray[np.bool_], source: str | None = None) -> Holdings:
        """The holdings with the rows outside ``mask`` (N,) given no weight."""
        return dataclasses.replace(self, weight=self.weight * mask[:, None], source=source or self.source)

    def columns_for(self, rows: npt.NDArray[np.intp], draw: int) -> npt.NDArray[np.intp]:
        """The way each listed holding is played when it draws ``draw`` (the first such column
        with weight; holdings are sampled in proportion to the weights, so there is one)."""
        match = self.draw[rows] == draw
        ok = match & (self.weight[rows] > 0)
        return np.where(ok.any(axis=1), ok.argmax(axis=1), match.argmax(axis=1))

    def hold_for(self, rows: npt.NDArray[np.intp], draw: int) -> npt.NDArray[np.bool_]:
        """The hold of each listed holding that is consistent with the draw count."""
        return self.holds.keep(self.cards[rows], self.columns_for(rows, draw))


def _representatives(joker: bool) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """One hand per (rank multiset, flush state) that exists, and its table index.

    Flush state: 0 = at most three cards of a suit, 1 = four (a four-flush), 2 = five (a flush),
    counting the joker in every suit. Within one such class a policy's pattern, draw count and
    label do not depend on the suits (the break deviation does, and is handled separately).
    """
    k = 4 if joker else 5
    m = np.array(list(itertools.combinations_with_replacement(range(13), k)), dtype=np.int64)
    m = m[(m[:, :1] != m[:, 4:5]).ravel()] if k == 5 else m        # at most four of a rank
    first = np.ones(m.shape, dtype=bool)
    first[:, 1:] = m[:, 1:] != m[:, :-1]
    occurrence = np.zeros(m.shape, dtype=np.int64)                  # copies of the rank before it
    for i in range(1, k):
        occurrence[:, i] = np.where(first[:, i], 0, occurrence[:, i - 1] + 1)
    distinct_index = np.cumsum(first, axis=1) - 1
    distinct = first.sum(1)
    key = np.asarray(RANK_KEYS, dtype=np.int64)[m].sum(1)
    extra = np.full((len(m), 5 - k), JOKER, dtype=np.int64)
    # State 0: suits dealt round-robin over the sorted ranks (equal ranks get distinct suits).
    hands = [np.hstack([m * 4 + np.arange(k) % 4, extra])]
    index = [key * 3]
    for state, n_suited in ((1, k - 1), (2, k)):
        ok = distinct >= n_suited
        # The first n_suited distinct ranks in suit 0; further copies and other ranks in suits 1-3.
        suit = np.where(distinct_index < n_suited, occurrence, occurrence + 1)
        hands.append(np.hstack([m * 4 + suit, extra])[ok])
        index.append(key[ok] * 3 + state)
    return np.vstack(hands).astype(np.int8), np.concatenate(index)


_TABLE_KEYS = (4 * RANK_KEYS[12] + RANK_KEYS[11] + 1) * 3


@functools.lru_cache(maxsize=8)
def _pattern_table(policy: DrawPolicy, rules: RuleSet, joker: bool) -> tuple[npt.NDArray[np.integer], ...]:
    """(usual draw, label, snow-eligible) for every (rank multiset, flush state), from hold_plan."""
    reps, index = _representatives(joker)
    plan = hold_plan(policy, reps, rules)
    draw = np.full(_TABLE_KEYS, -1, dtype=np.int8)
    label = np.zeros(_TABLE_KEYS, dtype=np.int16)
    snow = np.zeros(_TABLE_KEYS, dtype=np.int8)
    draw[index] = 5 - plan.keep.sum(1)
    label[index] = _labels(plan)
    snow[index] = (plan.alt_rate > 0) & (plan.alt_pattern == SNOW)
    return draw, label, snow


def _classify(policy: DrawPolicy, rules: RuleSet, cards: npt.NDArray[np.int8]) -> tuple[npt.NDArray, ...]:
    """Usual draw, label, alt rate, alt draw, alt label and category of every hand, by table lookup.

    Equivalent to ``hold_plan`` on every row (tested) but ~5x faster: the rank-key sum and the
    suit counts of each hand index a table built from one representative hand per class; only the
    pat straights and flushes, whose break deviation depends on the suits, go through hold_plan.
    """
    # The evaluator's key sums carry the rank-key sum (bits 13+), the joker flag (bit 12) and four
    # 3-bit suit counters in which the joker counts for every suit (see evaluate.py).
    sums = key_sums(cards)
    jok = ((sums >> 12) & 1).astype(bool)
    suit_max = np.maximum(np.maximum(sums & 7, (sums >> 3) & 7), np.maximum((sums >> 6) & 7, (sums >> 9) & 7))
    state = np.clip(suit_max.astype(np.int64) - 3, 0, 2)
    idx = (sums >> 13).astype(np.int64) * 3 + state
    category = category_of(strength_from_keys(sums))      # consumes sums
    t_draw, t_label, t_snow = _pattern_table(policy, rules, False)
    usual_draw, label, snow_ok = t_draw[idx], t_label[idx], t_snow[idx].astype(bool)
    if jok.any():
        rows = np.flatnonzero(jok)
        t_draw, t_label, t_snow = _pattern_table(policy, rules, True)
        usual_draw[rows], label[rows], snow_ok[rows] = t_draw[idx[rows]], t_label[idx[rows]], t_snow[idx[rows]]
    alt_rate = np.where(snow_ok, policy.snow, 0.0)
    alt_draw = np.where(snow_ok, 0, usual_draw).astype(np.int8)
    alt_label = np.full(len(cards), _SNOW_LABEL, dtype=np.int16)
    if policy.break_rate > 0:
        rows = np.flatnonzero(np.isin(category, (STRAIGHT, FLUSH)))
        plan = hold_plan(policy, cards[rows], rules)
        breaks = plan.alt_rate > 0
        alt_rate[rows] = plan.alt_rate
        alt_draw[rows[breaks]] = 5 - plan.alt_keep[breaks].sum(1)
        alt_label[rows[breaks]] = _BROKEN_LABEL
    return usual_draw, label, alt_rate, alt_draw, alt_label, category


def _labels(plan: HoldPlan) -> npt.NDArray[np.int16]:
    """Posterior label (index into LABELS) of each usual hold: the policy pattern, with pairs split
    by the pair's rank and made hands by category -- a refinement of the policy's own reading of
    the dealt hand, not another classifier."""
    label = np.full(len(plan.pattern), _PAT_BASE, dtype=np.int16) + plan.category
    label = np.where(plan.pattern == PAIR, plan.pair_rank, label)
    label = np.where(plan.pattern == PAIR_KICKER, 13 + plan.pair_rank, label)
    for i, code in enumerate(_OTHER):
        label = np.where(plan.pattern == code, _OTHER_BASE + i, label)
    return label.astype(np.int16)


def hand_labels(cards: npt.NDArray[np.int8], draws: Sequence[int]
                ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """(N, K) posterior label of each hand played by drawing ``draws[k]``, read from the hand
    alone (for sources without policy patterns, such as a solved strategy), and (N,) its category.

    A made hand (straight or better) standing pat is ``pat_<category>`` and drawing is a broken
    pat; any other hand standing pat is a snow. Otherwise: trips, two pair, a four-flush or
    straight draw when drawing one to it, a pair by rank, a four-flush, straight draw, or high cards.
    """
    f = dealt_features(cards)
    made = f.category >= STRAIGHT
    flush_draw = f.has_flush4 & ~made
    pair = np.where(f.pair_rank >= 0, f.pair_rank, 0)
    out = np.empty((len(cards), len(draws)), dtype=np.int16)
    other = {code: _OTHER_BASE + i for i, code in enumerate(_OTHER)}
    for k, d in enumerate(draws):
        one = d == 1
        out[:, k] = np.select(
            [made & (d == 0), made, d == 0, f.max_count >= 3, f.pairs >= 2, one & flush_draw,
             one & f.open_ended, one & f.inside, f.pairs == 1, flush_draw, f.open_ended, f.inside],
            [_PAT_BASE + f.category, _BROKEN_LABEL, _SNOW_LABEL, other[TRIPS_P], other[TWO_PAIR_P],
             other[FOUR_FLUSH], other[OPEN_ENDED], other[INSIDE], pair, other[FOUR_FLUSH],
             other[OPEN_ENDED], other[INSIDE]], other[HIGH_CARDS])
    return out, f.category


@functools.lru_cache(maxsize=3)
def holdings(rules: RuleSet, policy: DrawPolicy, known: tuple[int, ...] = ()) -> Holdings:
    """All opponent holdings from the deck less ``known``, classified (cached; ~0.3 s to build)."""
    stub = unseen(known, joker=rules.joker)
    if len(stub) < 5:
        raise RequestError("too few unseen cards for an opponent's hand")
    cards = stub[combinations(len(stub), 5)]
    usual_draw, label, alt_rate, alt_draw, alt_label, category = _classify(policy, rules, cards)
    weight = in_range(policy, cards, rules).astype(np.float64)
    return Holdings(rules, policy.name, cards, np.stack([usual_draw, alt_draw], axis=1),
                    np.stack([weight * (1.0 - alt_rate), weight * alt_rate], axis=1),
                    np.stack([label, alt_label], axis=1), category, tuple(int(c) for c in known),
                    PolicyHolds(policy, rules))


@functools.lru_cache(maxsize=8)
def _range_table(text: str, joker_hands: bool, joker_deck: bool) -> npt.NDArray[np.bool_]:
    """Whether each (rank multiset, flush state) is in the range: every range term reads only the
    ranks and how many cards share a suit, so one representative hand per class decides.
    ``joker_hands``: the classes of hands holding the joker; ``joker_deck``: the range is read for
    a deck with the joker (where terms such as five of a kind exist)."""
    reps, index = _representatives(joker_hands)
    table = np.zeros(_TABLE_KEYS, dtype=bool)
    table[index] = parse_range(text, joker=joker_deck).mask(reps)
    return table


@functools.lru_cache(maxsize=4)
def range_mask(text: str, rules: RuleSet, known: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Which holdings (rows of ``holdings(rules, ..., known)``) are in the typed hand range."""
    stub = unseen(known, joker=rules.joker)
    sums = key_sums(stub[combinations(len(stub), 5)])
    jok = ((sums >> 12) & 1).astype(bool)
    suit_max = np.maximum(np.maximum(sums & 7, (sums >> 3) & 7), np.maximum((sums >> 6) & 7, (sums >> 9) & 7))
    idx = (sums >> 13).astype(np.int64) * 3 + np.clip(suit_max.astype(np.int64) - 3, 0, 2)
    out = _range_table(text, False, rules.joker)[idx]
    if jok.any():
        out[jok] = _range_table(text, True, True)[idx[jok]]
    return out


@dataclass(frozen=True)
class PolicyRange:
    """A draw policy's player dealt from a typed hand range (``drawodds.handrange``; None: any)."""

    policy: DrawPolicy
    hand_range: str | None = None

    @property
    def name(self) -> str:
        return self.policy.name

    def holdings(self, rules: RuleSet, known: tuple[int, ...]) -> Holdings:
        held = holdings(rules, self.policy, known)
        if self.hand_range is None:
            return held
        return held.restricted(range_mask(self.hand_range, rules, known))


def as_source(policy: DrawPolicy | HoldingsSource, hand_range: str | None = None) -> HoldingsSource:
    """A policy (with an optional typed range) or any other holdings source, as a source."""
    if isinstance(policy, DrawPolicy):
        return PolicyRange(policy, hand_range)
    if hand_range is not None:
        return RangedSource(policy, hand_range)
    return policy


def ranged(play: DrawPolicy | HoldingsSource | tuple[HoldingsSource, ...], hand_range: str | None
           ) -> HoldingsSource | tuple[HoldingsSource, ...]:
    """``play`` as a holdings source narrowed to a typed range (``as_source``): for a tuple of
    sources (one per opponent, e.g. the seats of a solved table), each of them."""
    if isinstance(play, tuple):
        return tuple(as_source(s, hand_range) for s in play)
    return as_source(play, hand_range)


@dataclass(frozen=True)
class RangedSource:
    """Another source's holdings restricted to a typed hand range."""

    inner: HoldingsSource
    hand_range: str

    @property
    def name(self) -> str:
        return self.inner.name

    def holdings(self, rules: RuleSet, known: tuple[int, ...]) -> Holdings:
        return source_holdings(self.inner, rules, known).restricted(range_mask(self.hand_range, rules, known))


def opponent_sources(policy: DrawPolicy | HoldingsSource | tuple[HoldingsSource, ...], opponents: int
                     ) -> tuple[HoldingsSource, ...]:
    """One source per opponent: a tuple as given (one per opponent, e.g. the seats of a solved table),
    else the one policy or source for every opponent."""
    if isinstance(policy, tuple):
        if len(policy) != opponents:
            raise RequestError("{count} ways of play given for {opponents} opponents", count=len(policy),
                               opponents=opponents)
        return tuple(as_source(p) for p in policy)
    return (as_source(policy),) * opponents


@functools.lru_cache(maxsize=4)
def source_holdings(source: HoldingsSource, rules: RuleSet, known: tuple[int, ...] = ()) -> Holdings:
    """A source's holdings from the deck less ``known`` (cached)."""
    return source.holdings(rules, known)


@functools.lru_cache(maxsize=4)
def _draw_cdf(source: HoldingsSource, rules: RuleSet, known: tuple[int, ...], draw: int | None
              ) -> npt.NDArray[np.float64]:
    """Cumulative prior mass of the holdings that draw ``draw`` (None: any; for sampling by search)."""
    cdf = np.cumsum(source_holdings(source, rules, known).mass(draw))
    if cdf[-1] <= 0:
        if draw is None:
            raise RequestError("no holding is in this range (with the cards we hold)")
        if getattr(source, "hand_range", None):
            raise RequestError("no holding draws {draw} under the {play} play with these rules and this range",
                               draw=draw, play=source.name)
        raise RequestError("no holding draws {draw} under the {play} play with these rules", draw=draw,
                           play=source.name)
    return cdf


def check_conditions(rules: RuleSet, policy: DrawPolicy | HoldingsSource | tuple[HoldingsSource, ...],
                     draw_counts: Sequence[int | None], our_cards: Sequence[int] | npt.NDArray[np.integer]) -> None:
    """RequestError (one line) unless some holding plays each draw count (None: any) with our
    cards out of the deck, and the opponents' holdings can be dealt together without sharing a
    card (``dealable``); builds the holdings sampling will use (cached). ``policy``: as
    ``sample_conditioned``."""
    known = tuple(sorted(int(c) for c in np.asarray(our_cards).ravel()))
    sources = opponent_sources(policy, len(draw_counts))
    for source, d in dict.fromkeys(zip(sources, draw_counts, strict=True)):
        _draw_cdf(source, rules, known, d)
    dealable(sources, rules, known, tuple(None if d is None else int(d) for d in draw_counts))


PROBE_CHAINS = (1_000, 20_000)  # sequential deals tried by ``dealable``: a quick look, then a thorough one
PROBE_TRIES = 64           # tries per opponent and chain before that chain counts as stuck
EASY_DEALS = 0.05          # a quick look completing this share of its deals is enough
MIN_DEALABLE = 0.001       # fewer chains than this fraction completing: too rare to sample


def _probe(helds: Sequence[Holdings], cdfs: list[npt.NDArray[np.float64]], chains: int, rng: np.random.Generator
           ) -> tuple[int, int]:
    """Deal ``chains`` tables one opponent after another, each avoiding the cards of the earlier
    ones (at most ``PROBE_TRIES`` tries each): (opponents the furthest chain reached, chains done)."""
    taken = np.zeros(chains, dtype=np.uint64)
    alive = np.arange(chains)
    reached = 0
    for held, cdf in zip(helds, cdfs, strict=True):
        pending, placed = alive, []
        for _ in range(PROBE_TRIES):
            if not len(pending):
                break
            cb = _card_bits(held.cards[_sample_rows(cdf, len(pending), rng)])
            ok = (taken[pending] & cb) == 0
            taken[pending[ok]] |= cb[ok]
            placed.append(pending[ok])
            pending = pending[~ok]
        alive = np.sort(np.concatenate(placed)) if placed else alive[:0]
        if len(alive) == 0:
            break
        reached += 1
    return reached, len(alive)


@functools.lru_cache(maxsize=8)
def dealable(sources: tuple[HoldingsSource, ...], rules: RuleSet, known: tuple[int, ...],
             counts: tuple[int | None, ...]) -> float:
    """The fraction of sequential deals (each opponent dealt from its holdings, avoiding the
    earlier ones) that give every opponent a holding: a RequestError, at once, when none or
    almost none does (three opponents cannot all hold an ace when one ace is left), rather than a
    sampler that never finishes. Uses its own fixed random stream, so answers are unchanged."""
    if len(counts) < 2:
        return 1.0
    rng = np.random.default_rng(0x5EED)
    helds = [source_holdings(s, rules, known) for s in sources]
    cdfs = [_draw_cdf(s, rules, known, d) for s, d in zip(sources, counts, strict=True)]
    for chains in PROBE_CHAINS:
        reached, done = _probe(helds, cdfs, chains, rng)
        if done >= EASY_DEALS * chains:
            break
    m = len(counts)
    what = ("hands" + (" in this range" if any(getattr(s, "hand_range", None) for s in sources) else "")
            + (" that draw as given" if any(d is not None for d in counts) else ""))
    if reached < m:
        raise RequestError("{opponents} opponents cannot all be dealt {what} with these cards out of the deck: at "
                           "most {reached} can", opponents=m, what=what, reached=reached)
    rate = done / chains
    if rate < MIN_DEALABLE:
        raise RequestError("almost no deal gives all {opponents} opponents {what} with these cards out of the deck "
                           "(about 1 in {odds}): widen the range or seat fewer", opponents=m, what=what,
                           odds=i18n.local_number(f"{round(1 / rate):,}"))
    return rate


def _sample_rows(cdf: npt.NDArray[np.float64], n: int, rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """Row indices drawn in proportion to the weights whose cumulative sum is ``cdf``."""
    # Sorted queries walk the table in order (several times faster than random probes); the
    # permutation restores independent rows.
    u = np.sort(rng.random(n)) * cdf[-1]
    idx = np.minimum(np.searchsorted(cdf, u, side="right"), len(cdf) - 1)
    return idx[rng.permutation(n)]


def _card_bits(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.uint64]:
    """A 64-bit set of the cards in each row (joker = bit 52)."""
    out = np.zeros(cards.shape[:-1], dtype=np.uint64)
    for i in range(cards.shape[-1]):
        out |= np.left_shift(np.uint64(1), cards[..., i].astype(np.uint64))
    return out


def sample_conditioned(rules: RuleSet, policy: DrawPolicy | HoldingsSource | tuple[HoldingsSource, ...],
                       draw_counts: Sequence[int | None],
                       our_cards: Sequence[int] | npt.NDArray[np.integer], n: int, rng: np.random.Generator, *,
                       method: Literal["auto", "joint", "gibbs"] = "auto", sweeps: int = 2,
                       ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """Opponents' dealt hands and holds, each conditioned on its public draw count.

    ``policy`` is a draw policy or any ``HoldingsSource`` (a policy dealt from a range, a solved
    strategy), or a tuple of sources, one per opponent (the seats of a solved table, each playing
    its own strategy); a draw count of None leaves that opponent's draw free (dealt from the
    source's whole range, played as it plays it).

    Returns hands ``(n, len(draw_counts), 5)`` int8 (from the deck less ``our_cards``, no card shared)
    and keep masks of the same shape consistent with each draw count. Each opponent's holding is
    drawn from the exact posterior weights (a binary search in the cumulative weights, so rare
    counts such as pat cost the same as common ones). Shared cards are then resolved:

    - ``joint``: a row whose opponents share a card is redrawn in full. Exact. Expected draws per
      row = 1 / P(disjoint): about 1.8 with two opponents, 6 with three, 50 with four, ~900 with five.
    - ``gibbs``: a sequential deal (each opponent redrawn until it avoids the earlier ones), then
      ``sweeps`` Gibbs passes redrawing each opponent given the others. Each row is its own short
      chain, so rows stay independent. The sequential start alone is biased (it ignores how much
      room an early hand leaves the later ones: the first of three pat opponents shows ~3 points
      more straights); one sweep already removes that to within Monte Carlo noise (tested against
      ``joint``). Cost with two sweeps: 0.5 s CPU per 20,000 rows of four opponents (joint: 1.2 s).
    - ``auto`` (default): joint for up to three opponents, gibbs beyond.

    Cost: the first call per (rules, policy, our cards) builds the weights of all C(47, 5)
    holdings, about a second; later calls reuse them (cached) and cost ~1 us per opponent-hand.
    """
    counts = [None if d is None else int(d) for d in draw_counts]
    m = len(counts)
    if m == 0 or n < 0:
        raise RequestError("need at least one draw count and n >= 0")
    for d in counts:
        if d is not None and not 0 <= d <= rules.max_draw_cards:
            raise RequestError("draw count {draw} is impossible: these rules allow 0-{max_draw}", draw=d,
                               max_draw=rules.max_draw_cards)
    known = tuple(sorted(int(c) for c in np.asarray(our_cards).ravel()))
    sources = opponent_sources(policy, m)
    helds = [source_holdings(s, rules, known) for s in sources]
    cdfs = [_draw_cdf(s, rules, known, d) for s, d in zip(sources, counts, strict=True)]
    dealable(sources, rules, known, tuple(counts))
    if method == "auto":
        method = "joint" if m <= 3 else "gibbs"
    if method not in ("joint", "gibbs"):
        raise RequestError("method must be auto, joint or gibbs, got {method}", method=repr(method))
    rows = np.zeros((n, m), dtype=np.intp)
    rounds = 0
    if method == "joint":
        pending = np.arange(n)
        while len(pending):
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise RequestError("these draw counts leave almost no deals without shared cards")
            for j in range(m):
                rows[pending, j] = _sample_rows(cdfs[j], len(pending), rng)
            bits = np.stack([_card_bits(helds[j].cards[rows[pending, j]]) for j in range(m)], axis=1)  # (p, m)
            clash = np.zeros(len(pending), dtype=bool)
            seen = bits[:, 0].copy()
            for j in range(1, m):
                clash |= (seen & bits[:, j]) != 0
                seen |= bits[:, j]
            pending = pending[clash]
    else:
        # Start from a sequential deal (each opponent avoids the earlier ones), then Gibbs sweeps:
        # each opponent is redrawn from its weights given the others' cards.
        bits = np.zeros((n, m), dtype=np.uint64)
        for _sweep in range(sweeps + 1):
            for j in range(m):
                others = np.bitwise_or.reduce(np.delete(bits, j, axis=1), axis=1) if m > 1 else np.zeros(n, np.uint64)
                pending = np.arange(n)
                while len(pending):
                    rounds += 1
                    if rounds > MAX_ROUNDS:
                        raise RequestError("these draw counts leave almost no deals without shared cards")
                    cand = _sample_rows(cdfs[j], len(pending), rng)
                    cb = _card_bits(helds[j].cards[cand])
                    ok = (others[pending] & cb) == 0
                    rows[pending[ok], j] = cand[ok]
                    bits[pending[ok], j] = cb[ok]
                    pending = pending[~ok]
    hands = np.stack([helds[j].cards[rows[:, j]] for j in range(m)], axis=1)
    keeps = np.stack([_holds(helds[j], rows[:, j], counts[j], rng) for j in range(m)], axis=1)
    return hands, keeps


def _holds(held: Holdings, rows: npt.NDArray[np.intp], draw: int | None, rng: np.random.Generator
           ) -> npt.NDArray[np.bool_]:
    """The holds of sampled holdings: the one that draws ``draw``, or (None) a way of playing
    each drawn in proportion to its weight."""
    if draw is not None:
        return held.hold_for(rows, draw)
    w = held.weight[rows]
    u = rng.random(len(rows)) * w.sum(axis=1)
    columns = np.minimum((np.cumsum(w, axis=1) <= u[:, None]).sum(axis=1), w.shape[1] - 1)
    return held.holds.keep(held.cards[rows], columns)


@functools.lru_cache(maxsize=32)
def final_strength_distribution(rules: RuleSet, policy: DrawPolicy, draw: int, *,
                                trials: int = 200_000, seed: int = 1) -> npt.NDArray[np.float64]:
    """Probability of each final strength (index 0..7463) of a player seen drawing ``draw`` cards.

    Monte Carlo (``trials``, ``seed``) from the exact posterior of the holding, knowing no other
    card: what the draw count alone says. Players who read draws compare their hand with it.
    """

    rng = np.random.default_rng(seed)
    hands, keeps = sample_conditioned(rules, policy, [draw], (), trials, rng)
    deck = np.arange(rules.deck_size, dtype=np.int8)
    fill = draws_avoiding(deck, hands[:, 0], max(draw, 1), rng)
    strengths = final_strengths(hands[:, 0], keeps[:, 0], fill)
    return np.bincount(strengths, minlength=N_STRENGTHS) / trials


def posterior(held: Holdings, draw: int) -> tuple[dict[str, float], float]:
    """Exact posterior over LABELS of the holding given the draw count, and P(draw count)."""
    w = held.weights(draw)
    total = sum(float(w[:, k].sum()) for k in range(w.shape[1]))
    prior = float(held.weight.sum())
    if total <= 0:
        if prior > 0:
            raise RequestError("no holding draws {draw} under the {play} play in this range", draw=draw,
                               play=held.source)
        raise RequestError("no holding draws {draw} under the {play} play: the range is empty", draw=draw,
                           play=held.source)
    mass = np.zeros(len(LABELS))
    for k in range(w.shape[1]):
        mass += np.bincount(held.label[:, k], weights=w[:, k], minlength=len(LABELS))
    order = np.argsort(-mass, kind="stable")
    return {LABELS[i]: float(mass[i] / total) for i in order if mass[i] > 0}, float(total / prior)


def final_exact(held: Holdings, draw: int, rules: RuleSet,
                where: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.float64]:
    """Exact distribution over categories (10) of the final hand by enumerating every draw.

    ``where`` restricts the holdings (e.g. to one posterior label); weights stay the posterior's.
    """
    w = held.mass(draw)
    rows = np.flatnonzero(w if where is None else w * where)
    out = np.zeros(len(CATEGORIES))
    if draw == 0:
        np.add.at(out, held.category[rows], w[rows])
        return out / w[rows].sum()
    deck = rules.deck_size
    combos = combinations(deck, draw)
    combo_keys = key_sums(combos)
    combo_bits = _card_bits(combos)
    stub = deck - 5 - len(held.known)
    known_bits = _card_bits(np.asarray(held.known, dtype=np.int64)[None]) if held.known else np.uint64(0)
    block = max(1, 4_000_000 // len(combos))
    for start in range(0, len(rows), block):
        r = rows[start:start + block]
        keep = held.hold_for(r, draw)
        cards = held.cards[r]
        kept = (key_sums(cards[..., None]) * keep).sum(1, dtype=np.uint32)
        dead = _card_bits(cards) | known_bits
        ok = (dead[:, None] & combo_bits[None, :]) == 0
        sums = kept[:, None] + combo_keys[None, :]
        cats = category_of(strength_from_keys(sums[ok]))
        per = np.broadcast_to((w[r] / comb(stub, draw))[:, None], ok.shape)[ok]
        out += np.bincount(cats, weights=per, minlength=len(CATEGORIES))
    return out / w[rows].sum()


def final_sampled(rules: RuleSet, held: Holdings, draw: int, trials: int,
                  rng: np.random.Generator) -> npt.NDArray[np.float64]:
    """Category counts (10) of ``trials`` final hands sampled from the exact posterior."""
    rows = _sample_rows(np.cumsum(held.mass(draw)), trials, rng)
    cards = held.cards[rows]
    keep = held.hold_for(rows, draw)
    dead = _card_bits(cards)
    if held.known:
        dead |= _card_bits(np.asarray(held.known, dtype=np.int64)[None])
    drawn = np.zeros((trials, draw), dtype=np.int64)
    for j in range(draw):   # uniform without replacement: reject dead or already drawn cards
        pending = np.arange(trials)
        while len(pending):
            c = rng.integers(0, rules.deck_size, len(pending))
            bit = np.left_shift(np.uint64(1), c.astype(np.uint64))
            ok = (dead[pending] & bit) == 0
            drawn[pending[ok], j] = c[ok]
            dead[pending[ok]] |= bit[ok]
            pending = pending[~ok]
    sums = (key_sums(cards[..., None]) * keep).sum(1, dtype=np.uint32) + key_sums(drawn)
    return np.bincount(category_of(strength_from_keys(sums)), minlength=len(CATEGORIES)).astype(np.float64)
