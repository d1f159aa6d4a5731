"""Hand patterns: the one place hands are classified into the patterns a player learns.

Two different things are classified, so they carry different names:

* the **dealt hand**, five cards before the draw. ``dealt_features`` measures what a player
  deciding a hold looks at -- the made category, pairs and their rank, a four-flush, straight
  draws (the joker counting as an ace for pairs and as any suit or rank for draws). The draw
  policies (``drawodds.policies``) choose their holds from these features, and ``starting_hand``
  sorts deals into the coarse rows of ``STARTING_HANDS`` (``kinds.StartingHand``).
* a **hold**, the cards kept from a deal. ``hold_pattern_codes`` names every one of the 32 holds
  by its kept cards alone ("pair of jacks", "4 to a flush, 1 high card", "KQ suited"): code =
  kind << 8 | x << 4 | y, where the kind is a ``HoldKind`` and x and y say which ranks or how
  many high cards. Strategy tables show these and condensed strategies are lists of them;
  ``hold_type`` groups them into the coarse ``HOLD_TYPES`` (``kinds.HoldType``) of the strategy charts.
  Some patterns have fine forms (``fine=True``: which lower card, which three to a royal, the
  kind and high cards of a four-straight-flush, a four-flush's ace and middle cards); a printed
  list uses them only where the coarse pattern would cost a hand too much.
"""

from __future__ import annotations

import functools
import itertools
from enum import IntEnum
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER, RANK_NAMES, RANK_PLURALS, RANKS
from drawodds.combinatorics import combinations
from drawodds.evaluate import (
    ONE_PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    TRIPS,
    TWO_PAIR,
    category_of,
    evaluate,
)
from drawodds.holds import HOLD_POSITIONS, N_HOLDS
from drawodds.i18n import N_, Phrase
from drawodds.kinds import Category, HoldType, StartingHand

HIGH = 9          # jack: "high cards" are J, Q, K, A (the Jacks-or-Better paying ranks)
TEN = 8
PLURAL = RANK_PLURALS
NAME = RANK_NAMES


class HoldKind(IntEnum):
    """The kinds of hold pattern (bits 8-12 of a hold pattern code)."""

    DISCARD = 0
    QUADS = 1
    QUADS_PAT = 2
    FULL_HOUSE = 3
    TRIPS = 4
    TRIPS_K = 5
    TRIPS_PAT = 6
    TWO_PAIR = 7
    TWO_PAIR_PAT = 8
    PAIR = 9
    PAIR_K = 10
    PAIR_KK = 11
    PAIR_PAT = 12
    PAT_SF = 13
    PAT_FLUSH = 14
    PAT_STRAIGHT = 15
    PAT_NOTHING = 16
    ROYAL_DRAW = 17
    SF_DRAW = 18
    FLUSH_DRAW = 19
    STRAIGHT_DRAW = 20
    UNRELATED = 21
    TWO_HIGH_SUITED = 22
    TWO_HIGH_OFFSUIT = 23
    CARD_PLUS_LOW = 24
    ONE_CARD = 25
    JOKER_PAT = 26
    CARD_PLUS_CARD = 27      # fine form of CARD_PLUS_LOW: y = the lower card's rank << 1 | suited
    FLUSH_FOUR = 28          # fine form of 4 to a flush: x = high cards, y = king beside the ace << 2 | ace << 1
                             # | a ten, nine or eight (``_FLUSH_FORMS``)
    SF_FOUR = 29             # fine form of 4 to a straight flush: x = high cards, y = 0 open, 2 ace low, 3 gap,
                             # + 4 when the fifth card (thrown away) is an ace
    SF_THREE = 30            # fine form of 3 to a straight flush: x = high cards << 2 | gaps, y = where (_SF_ENDS)


# The kinds as plain ints for numpy expressions: numpy looks for array attributes on an IntEnum's
# class through Python code (``EnumType.__getattr__``), and a Ctrl-C that lands there is lost
# inside numpy, so a long strategy run went on after it.
K = SimpleNamespace(**{kind.name: int(kind) for kind in HoldKind})
JOKER_FLAG = 1 << 13
_BESIDE_ACE = 4     # y bit of ``SF_FOUR``: the card thrown away is an ace
N_CODES = 1 << 14


# --- the dealt hand -----------------------------------------------------------------------------

# The ten straights as 13-bit rank masks (rank 0 = deuce ... 12 = ace); the first is A-2-3-4-5.
_STRAIGHTS = np.array([(1 << 12) | 0b1111] + [0b11111 << k for k in range(9)], dtype=np.int32)


@functools.cache
def _popcount_table() -> npt.NDArray[np.int8]:
    table = np.zeros(1 << 13, dtype=np.int8)
    for bit in range(13):
        table[(np.arange(1 << 13) >> bit) & 1 == 1] += 1
    return table


@functools.cache
def straight_draw_tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """For every set of distinct ranks (13-bit mask) without / with the joker: the best straight draw.

    Returns (out-ranks, kept ranks), each indexed [joker, mask]: the draw keeps 4 cards (the joker
    plus 3 ranks when it is there) and out-ranks counts the ranks whose arrival makes a straight
    (2 = open-ended, 1 = inside; the joker fills one gap). The draw with most outs wins, then the
    highest ranks. Built once from the 715 four-rank (286 three-rank) subsets.
    """
    pop = _popcount_table()
    out_ranks = np.zeros((2, 1 << 13), dtype=np.int8)
    kept = np.zeros((2, 1 << 13), dtype=np.int32)
    for joker in (0, 1):
        subsets = np.bitwise_or.reduce(np.left_shift(1, combinations(13, 4 - joker).astype(np.int32)), axis=1)
        outs = np.zeros_like(subsets)
        for straight in _STRAIGHTS:
            outs |= np.where((subsets & ~straight) == 0, straight & ~subsets, 0)
        n_outs = pop[outs].astype(np.int32)
        # Scores are distinct (they end in the subset's bits); each mask takes the best score of
        # the subsets it contains: a running maximum over one rank bit at a time.
        best = np.full(1 << 13, -1, dtype=np.int32)
        best[subsets] = np.where(n_outs > 0, n_outs * (1 << 13) + subsets, -1)
        for bit in range(13):
            halves = best.reshape(-1, 2, 1 << bit)
            np.maximum(halves[:, 1], halves[:, 0], out=halves[:, 1])
        ok = best >= 0
        out_ranks[joker] = np.where(ok, best >> 13, 0)
        kept[joker] = np.where(ok, best & ((1 << 13) - 1), 0)
    out_ranks.setflags(write=False)
    kept.setflags(write=False)
    return out_ranks, kept


def or_columns(a: npt.NDArray[np.integer]) -> npt.NDArray[np.integer]:
    """Bitwise OR across the five columns (numpy's reduce over a short last axis is slow)."""
    out = a[:, 0].copy()
    for i in range(1, a.shape[1]):
        out |= a[:, i]
    return out


def count_columns(a: npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
    """Count of True across the columns, as int8."""
    out = a[:, 0].astype(np.int8)
    for i in range(1, a.shape[1]):
        out += a[:, i]
    return out


class DealtFeatures(NamedTuple):
    """What matters about each dealt hand (T rows) when choosing a hold; per-card arrays are (T, 5)."""

    category: npt.NDArray[np.int8]        # made category of the five cards
    joker: npt.NDArray[np.bool_]          # per card: the joker
    jok: npt.NDArray[np.intp]             # 1 where the hand holds the joker (indexes the draw tables)
    rank: npt.NDArray[np.int16]           # per card: 0 = deuce .. 12 = ace; the joker counts as an ace
    bits: npt.NDArray[np.int32]           # per card: its rank as a 13-bit mask (0 for the joker)
    card_count: npt.NDArray[np.int8]      # per card: cards sharing its rank
    max_count: npt.NDArray[np.int8]       # most cards of one rank
    pairs: npt.NDArray[np.int8]           # ranks held exactly twice
    pair_rank: npt.NDArray[np.int16]      # the highest rank held exactly twice, -1 for none
    aces: npt.NDArray[np.int8]            # aces, the joker included
    has_flush4: npt.NDArray[np.bool_]     # four (or five) of a suit, the joker counting as any suit
    in_flush_suit: npt.NDArray[np.bool_]  # per card: of the hand's longest suit (not the joker)
    open_ended: npt.NDArray[np.bool_]     # an open-ended straight draw (two ranks fill it)
    inside: npt.NDArray[np.bool_]         # only an inside straight draw (one rank fills it)
    keep_straight: npt.NDArray[np.bool_]  # per card: kept for the best straight draw


def dealt_features(cards: npt.NDArray[np.integer]) -> DealtFeatures:
    """The features of each dealt hand (T, 5), vectorized; validates the card codes."""
    n = len(cards)
    has_joker = bool((cards == JOKER).any())
    category = category_of(evaluate(cards, joker=has_joker))
    h = cards.astype(np.int16)
    joker = h == JOKER
    jok = (count_columns(joker) > 0).astype(np.intp)
    rank = np.where(joker, 12, h // 4)          # the joker counts as an ace for pairs
    suit = np.where(joker, 4, h % 4)            # suit 4: no real suit
    # Per card: how many cards share its rank / its suit (pairwise column compares beat
    # bincount + reductions over (T, 13) by ~2x), and whether it is the first of its rank.
    rc = [np.ascontiguousarray(rank[:, i]) for i in range(5)]
    sc = [np.ascontiguousarray(suit[:, i]) for i in range(5)]
    rank_n = [np.ones(n, dtype=np.int8) for _ in range(5)]
    suit_n = [np.ones(n, dtype=np.int8) for _ in range(5)]
    first = [np.ones(n, dtype=bool) for _ in range(5)]
    for i in range(5):
        for j in range(i + 1, 5):
            same = rc[i] == rc[j]
            rank_n[i] += same
            rank_n[j] += same
            first[j] &= ~same
            same = sc[i] == sc[j]
            suit_n[i] += same
            suit_n[j] += same
    max_count = np.maximum.reduce(rank_n)
    pairs = sum((c == 2).astype(np.int8) for c in rank_n) // 2
    pair_rank = np.where(rank_n[0] == 2, rc[0], -1)
    for c, r in zip(rank_n[1:], rc[1:], strict=True):
        np.maximum(pair_rank, np.where(c == 2, r, -1), out=pair_rank)
    aces = sum((r == 12).astype(np.int8) for r in rc)

    # Four-flush: four cards of one suit, the joker counting as any suit.
    real_suit_n = np.where(joker, 0, np.stack(suit_n, axis=1))
    suited_max = np.maximum.reduce([real_suit_n[:, i] for i in range(5)])
    has_flush4 = suited_max + jok >= 4
    in_flush_suit = (real_suit_n == suited_max[:, None]) & ~joker   # unique suit wherever has_flush4
    # Straight draws from the table of distinct real ranks; keep one card of each kept rank.
    bits = np.where(joker, 0, np.left_shift(1, rank, dtype=np.int32))
    out_table, kept_table = straight_draw_tables()
    at = jok * (1 << 13) + or_columns(bits)    # flat index into the [joker, mask] tables
    best_outs = out_table.take(at)
    first_of_rank = np.stack(first, axis=1)
    keep_straight = (first_of_rank & ~joker & ((kept_table.take(at)[:, None] & bits) != 0)) | joker
    return DealtFeatures(category, joker, jok, rank, bits, np.stack(rank_n, axis=1), max_count, pairs,
                         pair_rank, aces, has_flush4, in_flush_suit, best_outs >= 2, best_outs == 1,
                         keep_straight)


STARTING_HANDS = StartingHand.labels()   # the rows of the strategy chart, by ``StartingHand`` code


def starting_hand(deals: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Row (index into STARTING_HANDS) of each dealt hand: the best thing it starts with."""
    f = dealt_features(np.asarray(deals))
    top = f.rank.max(axis=1)
    S = StartingHand
    pair_row = np.select([f.pair_rank == r for r in (12, 11, 10, 9, 8)], [S.ACES, S.KINGS, S.QUEENS, S.JACKS, S.TENS],
                         np.where(f.pair_rank >= 5, S.SEVENS_TO_NINES, S.DEUCES_TO_SIXES))
    return np.select(
        [f.category >= STRAIGHT, f.category == TRIPS, f.category == TWO_PAIR, f.category == ONE_PAIR,
         f.has_flush4, f.open_ended, top == 12, top == 11],
        [S.STRAIGHT_OR_BETTER, S.TRIPS, S.TWO_PAIR, pair_row, S.FOUR_FLUSH, S.OPEN_ENDED, S.ACE_HIGH, S.KING_HIGH],
        S.QUEEN_HIGH_OR_LESS).astype(np.int64)


# --- holds --------------------------------------------------------------------------------------

def _hi(h: int) -> str:
    return Phrase(N_("{n} high card"), n=h) if h == 1 else Phrase(N_("{n} high cards"), n=h)


_KICKERS = {12: N_("ace"), 11: N_("king"), 10: N_("queen"), 9: N_("jack")}


def hold_pattern_label(code: int) -> str:
    """A pattern code in words, e.g. ``'4 to a flush, 2 high cards'`` (English, which data keeps;
    ``i18n.worded`` words it in the reader's language)."""
    if code & JOKER_FLAG:
        rest = code & ~JOKER_FLAG
        if rest >> 8 == K.JOKER_PAT:
            return Phrase(N_("{category} with the joker (stand pat)"), category=Category(rest & 0xF).label)
        return N_("joker alone") if rest >> 8 == K.DISCARD else Phrase(N_("joker + {hold}"),
                                                                        hold=hold_pattern_label(rest))
    kind, x, y = code >> 8, (code >> 4) & 0xF, code & 0xF
    labels: dict[int, str] = {
        K.DISCARD: N_("discard all five"),
        K.QUADS: N_("four of a kind"),
        K.QUADS_PAT: N_("four of a kind + kicker (stand pat)"),
        K.FULL_HOUSE: N_("full house (stand pat)"),
        K.TRIPS: N_("three of a kind"),
        K.TRIPS_K: N_("three of a kind + kicker"),
        K.TRIPS_PAT: N_("three of a kind + two kickers (stand pat)"),
        K.TWO_PAIR: N_("two pair"),
        K.TWO_PAIR_PAT: N_("two pair + kicker (stand pat)"),
        K.PAT_FLUSH: N_("flush (stand pat)"),
        K.PAT_STRAIGHT: N_("straight (stand pat)"),
        K.PAT_NOTHING: N_("no pair (stand pat)"),
    }
    if kind in labels:
        return labels[kind]
    if kind == K.PAIR:
        return Phrase(N_("pair of {ranks}"), ranks=PLURAL[x])
    if kind == K.PAIR_K:
        return Phrase(N_("pair of {ranks} + low kicker"), ranks=PLURAL[x]) if y not in _KICKERS else \
            Phrase(N_("pair of {ranks} + {kicker} kicker"), ranks=PLURAL[x], kicker=_KICKERS[y])
    if kind == K.PAIR_KK:
        return Phrase(N_("pair of {ranks} + two kickers"), ranks=PLURAL[x])
    if kind == K.PAIR_PAT:
        return Phrase(N_("pair of {ranks} (stand pat)"), ranks=PLURAL[x])
    if kind == K.PAT_SF:
        return N_("royal flush (stand pat)") if x else N_("straight flush (stand pat)")
    if kind == K.ROYAL_DRAW:
        if x == 4 and y:
            return N_("4 to a royal flush (open)") if y == 1 else N_("4 to a royal flush (inside)")
        if y:
            ranks = [b + TEN for b in range(5) if _ROYAL_MASKS[y - 1] >> b & 1][::-1]
            return Phrase(N_("{cards} suited"), cards="".join(RANKS[r] for r in ranks))
        return Phrase(N_("{n} to a royal flush"), n=x)
    if kind == K.SF_DRAW:
        if x == 4:
            return N_("4 to a straight flush (open)") if y == 0 else N_("4 to a straight flush (inside)")
        gaps = y & 3
        return Phrase(N_("3 to a straight flush, {high}, {n} gap") if gaps == 1
                      else N_("3 to a straight flush, {high}, {n} gaps"), high=_hi(y >> 2), n=gaps)
    if kind == K.FLUSH_DRAW:
        return Phrase(N_("{n} to a flush, {high}"), n=x, high=_hi(y))
    if kind == K.FLUSH_FOUR:
        return _flush_four_label(x, {(y >> 1) & 1}, {y & 1}, {y >> 2})
    if kind == K.SF_THREE:
        return Phrase(_SF_ENDS[y], hold=hold_pattern_label(K.SF_DRAW << 8 | 3 << 4 | x))
    if kind == K.SF_FOUR:
        return _sf_four_label(x, y & 3, {y & _BESIDE_ACE > 0})
    if kind == K.STRAIGHT_DRAW:
        if x == 4:
            return (Phrase(N_("4 to an open straight, {high}"), high=_hi(y & 7)) if y >> 3 == 0
                    else Phrase(N_("4 to an inside straight, {high}"), high=_hi(y & 7)))
        return Phrase(N_("3 to a straight, {high}"), high=_hi(y & 7))
    if kind == K.UNRELATED:
        return Phrase(N_("{n} unrelated cards, {high}"), n=x, high=_hi(y))
    if kind in (K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT):
        return Phrase(N_("{cards} suited") if kind == K.TWO_HIGH_SUITED else N_("{cards} offsuit"),
                      cards=f"{RANKS[x]}{RANKS[y]}")
    if kind == K.CARD_PLUS_LOW:
        return Phrase(N_("{rank} + a lower card of its suit") if y else N_("{rank} + a lower card"), rank=NAME[x])
    if kind == K.CARD_PLUS_CARD:
        return Phrase(N_("{rank} + {low} of its suit") if y & 1 else N_("{rank} + {low}"), rank=NAME[x],
                      low=NAME[y >> 1])
    if kind == K.ONE_CARD:
        return Phrase(N_("one card: {rank}"), rank=NAME[x])
    raise ValueError(f"unknown pattern code {code}")


def hold_pattern_codes(deals: npt.NDArray[np.integer], joker: bool = False, fine: bool = False
                       ) -> npt.NDArray[np.int64]:
    """Hold pattern code of each of the 32 holds (by hold number) of each sorted deal, shape (N, 32).

    ``fine``: name the lower card of a high card and a lower card ('ten + nine', not 'ten + a lower
    card'), and say whether a four-straight-flush needing one rank has a gap or the ace low; the
    printed lists split a coarse pattern into these only where a hand would lose much otherwise.
    A four-straight-flush also says whether the card it throws away is an ace."""
    d = np.asarray(deals, dtype=np.int64)
    n = len(d)
    rank, suit = d // 4, d % 4
    has_joker = d[:, 4] == JOKER if joker else np.zeros(n, dtype=bool)
    strength = evaluate(d, joker=joker)
    out = np.zeros((n, N_HOLDS), dtype=np.int64)
    for m in range(N_HOLDS):
        pos = list(HOLD_POSITIONS[m])
        out[:, m] = _codes_for(rank[:, pos], suit[:, pos], strength)
        if len(pos) == 4:    # a four-straight-flush thrown beside an ace: the ace may be the better keep
            ace = rank[:, next(i for i in range(5) if i not in pos)] == 12
            out[:, m] |= np.where((out[:, m] >> 8 == K.SF_FOUR) & ace, _BESIDE_ACE, 0)
    if joker and has_joker.any():
        # The joker sits last in a sorted deal: a hold with it is "joker + the rest".
        for m in range(16, N_HOLDS):
            out[has_joker, m] = out[has_joker, m - 16] | JOKER_FLAG
        # Standing pat with the joker: name the made hand (y = its category).
        out[has_joker, N_HOLDS - 1] = JOKER_FLAG | K.JOKER_PAT << 8 | category_of(strength[has_joker]).astype(np.int64)
    return out if fine else coarse_codes(out)


def coarse_codes(codes: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The coarse pattern of each (fine) pattern code: 'ten + nine' is 'ten + a lower card', an
    ace-low or gapped four-straight-flush is 'inside' (the joker flag kept)."""
    c = np.asarray(codes, dtype=np.int64)
    kind, x, y = (c >> 8) & 31, (c >> 4) & 0xF, c & 0xF
    plain = np.where(kind == K.CARD_PLUS_CARD, K.CARD_PLUS_LOW << 8 | x << 4 | (y & 1), c & ~JOKER_FLAG)
    plain = np.where(kind == K.SF_FOUR, K.SF_DRAW << 8 | 4 << 4 | ((y & 3) > 0), plain)
    plain = np.where(kind == K.SF_THREE, K.SF_DRAW << 8 | 3 << 4 | x, plain)
    plain = np.where(kind == K.ROYAL_DRAW, plain & ~0xF, plain)
    plain = np.where(kind == K.FLUSH_FOUR, K.FLUSH_DRAW << 8 | 4 << 4 | x, plain)
    return plain | (c & JOKER_FLAG)


def fine_codes(code: int) -> tuple[int, ...]:
    """Every fine pattern code of a coarse one (itself when it has no finer form)."""
    kind, x, y, flag = (code >> 8) & 31, (code >> 4) & 0xF, code & 0xF, code & JOKER_FLAG
    if kind == K.CARD_PLUS_LOW:
        return tuple(flag | K.CARD_PLUS_CARD << 8 | x << 4 | low << 1 | y for low in sorted(_lows(x)))
    if kind == K.SF_DRAW and x == 3:
        return tuple(flag | f for f in _sf_three_forms().get(y, ()))
    if kind == K.SF_DRAW and x == 4:     # the kinds and high cards that can occur
        forms = [(h, 0) for h in range(3)] if y == 0 else [(1, 2), *((h, 3) for h in range(4))]
        return tuple(flag | K.SF_FOUR << 8 | h << 4 | f | ace for h, f in forms for ace in (0, _BESIDE_ACE))
    if kind == K.ROYAL_DRAW and y == 0:
        return tuple(flag | K.ROYAL_DRAW << 8 | x << 4 | i for i in (range(1, 11) if x == 3 else (1, 2)))
    if kind == K.FLUSH_DRAW and x == 4:
        return tuple(flag | K.FLUSH_FOUR << 8 | y << 4 | king << 2 | ace << 1 | mid
                     for ace, mid, king in _FLUSH_FORMS[y])
    return (code,)


def _codes_for(r: npt.NDArray[np.int64], s: npt.NDArray[np.int64], strength: npt.NDArray) -> npt.NDArray[np.int64]:
    """Codes for one hold shape: r, s are the kept ranks (ascending) and suits, (N, k)."""
    n, k = r.shape
    if k == 0:
        return np.full(n, K.DISCARD << 8, dtype=np.int64)
    if k == 1:
        return (K.ONE_CARD << 8 | r[:, 0] << 4).astype(np.int64)
    eq = r[:, 1:] == r[:, :-1]                       # adjacent equal ranks (sorted)
    extra = eq.sum(axis=1)                           # k - distinct ranks
    run3 = (r[:, 2:] == r[:, :-2]).any(axis=1) if k >= 3 else np.zeros(n, bool)
    run4 = (r[:, 3:] == r[:, :-3]).any(axis=1) if k >= 4 else np.zeros(n, bool)
    pair_rank = (r[:, 1:] * eq).sum(axis=1) // np.maximum(extra, 1)
    suited = (s == s[:, :1]).all(axis=1)
    high = (r >= HIGH).sum(axis=1)
    top, low = r[:, -1], r[:, 0]
    span = top - low
    ace_low_span = np.where(top == 12, r[:, -2] + 1, 99) if k >= 2 else span
    min_span = np.minimum(span, ace_low_span)
    straightish = (extra == 0) & (min_span <= 4)
    gaps = np.clip(min_span - (k - 1), 0, 3)
    has_ace = top == 12
    code = np.zeros(n, dtype=np.int64)

    def put(cond: npt.NDArray[np.bool_], kind: int, x: npt.NDArray | int = 0, y: npt.NDArray | int = 0) -> None:
        todo = cond & (code == 0)
        val = (kind << 8) | (np.asarray(x, dtype=np.int64) << 4) | np.asarray(y, dtype=np.int64)
        code[todo] = np.broadcast_to(val, (n,))[todo]

    # Made hands among the kept cards.
    if k == 5:
        put(run4, K.QUADS_PAT)
        put(extra == 3, K.FULL_HOUSE)
        put(run3, K.TRIPS_PAT)
        put(extra == 2, K.TWO_PAIR_PAT)
        put(extra == 1, K.PAIR_PAT, pair_rank)
        cat_sf = suited & straightish
        put(cat_sf, K.PAT_SF, (strength == ROYAL_FLUSH).astype(np.int64))
        put(suited, K.PAT_FLUSH)
        put(straightish, K.PAT_STRAIGHT)
        put(np.ones(n, bool), K.PAT_NOTHING)
        return code
    if k == 4:
        put(run4, K.QUADS)
        put(run3, K.TRIPS_K)
        put(extra == 2, K.TWO_PAIR)
        put(extra == 1, K.PAIR_KK, pair_rank)
    if k == 3:
        put(run3, K.TRIPS)
        kick = np.where(top == pair_rank, low, top)
        put(extra == 1, K.PAIR_K, pair_rank, np.where(kick >= HIGH, kick, 0))
    if k == 2:
        put(extra == 1, K.PAIR, pair_rank)
        both_high = low >= TEN
        put(both_high & suited, K.TWO_HIGH_SUITED, top, low)
        put(both_high, K.TWO_HIGH_OFFSUIT, top, low)
        put(np.ones(n, bool), K.CARD_PLUS_CARD, top, low << 1 | suited.astype(np.int64))   # low < ten
        return code
    # Three or four distinct cards: draws.
    # Fine forms (``coarse_codes`` undoes them): three to a royal says which three (y: 1-10), four
    # to a royal whether it is open (y: 1, T-J-Q-K) or not (2); four to a straight flush and four
    # to a flush have kinds of their own (``SF_FOUR``, ``FLUSH_FOUR``).
    royal_mask = np.clip(r - TEN, 0, 4).astype(np.int64)   # only read where every kept rank is ten to ace
    which = np.zeros(n, dtype=np.int64)
    for j in range(k):
        which |= 1 << royal_mask[:, j]
    royal_open = np.where(top == 11, 1, 2)            # four to a royal: T-J-Q-K is open, the rest inside
    put(suited & straightish & (low >= TEN), K.ROYAL_DRAW, k, _ROYAL_THREE[which] if k == 3 else royal_open)
    if k == 4:
        put(suited & straightish, K.SF_FOUR, high, np.where(has_ace, 2, np.where(gaps > 0, 3, 0)))
    else:
        low_end = has_ace | (low == 0)            # straights only upward (from the deuce or the ace low)
        where = np.where(low_end, 1, np.where(top == TEN, 2, 0))
        put(suited & straightish, K.SF_THREE, np.minimum(high, 3) << 2 | gaps, where)
    if k == 4:
        mid = ((r >= TEN - 2) & (r < HIGH)).any(axis=1).astype(np.int64)
        king = has_ace & ((high == 2) | (high == 3)) & (r == 11).any(axis=1)
        put(suited, K.FLUSH_FOUR, high, king.astype(np.int64) << 2 | has_ace.astype(np.int64) << 1 | mid)
    put(suited, K.FLUSH_DRAW, k, high)
    open_ = (gaps == 0) & ~has_ace
    put(straightish, K.STRAIGHT_DRAW, k, np.where(open_, 0, 1) << 3 | high if k == 4 else high)
    put(np.ones(n, bool), K.UNRELATED, k, high)
    return code


# Four to a flush by its high cards: the (ace, a ten, nine or eight, a king beside the ace) that
# can go with them. The king is told only where it may or may not sit beside the ace (two or three
# high cards): ace-king-ten to a flush is a better draw than ace-jack-eight.
_FLUSH_FORMS = {0: ((0, 0, 0), (0, 1, 0)), 1: ((0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)),
                **{h: ((0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1)) for h in (2, 3)},
                4: ((1, 0, 0),)}


def _flush_four_label(high: int, aces: set[int], mids: set[int], kings: set[int]) -> str:
    """Four to a flush with ``high`` high cards, the ace among them or not (``aces``), a ten,
    nine or eight among the others or not (``mids``), a king beside the ace or not (``kings``,
    read only where the ace is); a side both ways goes unsaid."""
    text = Phrase(N_("{n} to a flush, {high}"), n=4, high=_hi(high))
    if aces == {1} and len(kings) == 1 and high in (2, 3):
        text = Phrase(N_("{hold}, ace and king among them") if 1 in kings else N_("{hold}, ace among them, no king"),
                      hold=text)
    elif len(aces) == 1 and len(_FLUSH_FORMS[high]) > 2:
        text = Phrase(N_("{hold}, ace among them") if 1 in aces else N_("{hold}, no ace"), hold=text)
    if len(mids) == 1 and high < 4:
        text = Phrase(N_("{hold}, with a ten, nine or eight") if 1 in mids else N_("{hold}, no ten, nine or eight"),
                      hold=text)
    return text


def _sf_four_label(high: int, form: int, aces: set[bool]) -> str:
    """Four to a straight flush of a ``form`` (0 open, 2 ace low, 3 gap) with ``high`` high cards,
    the card thrown away an ace or not (``aces``); both ways goes unsaid."""
    text = Phrase({0: N_("4 to a straight flush (open), {high}"), 2: N_("4 to a straight flush (ace low)"),
                   3: N_("4 to a straight flush (gap inside), {high}")}[form], high=_hi(high))
    if len(aces) == 1:
        text = Phrase(N_("{hold}, the fifth card an ace") if True in aces else N_("{hold}, the fifth card not an ace"),
                      hold=text)
    return text


def _sf_four_both(fine: list[int]) -> bool:
    """Fine four-straight-flush codes of one form, whatever the card thrown away."""
    return (len(fine) == 2 and all(f >> 8 == K.SF_FOUR for f in fine)
            and {f & ~_BESIDE_ACE for f in fine} == {fine[0] & ~_BESIDE_ACE} and fine[0] != fine[1])


# Where three to a straight flush sits: in the middle, at the low end (from the deuce or the ace
# low: straights only one way) or up to the ten (with no high card).
_SF_ENDS = {0: N_("{hold}, in the middle"), 1: N_("{hold}, low end"), 2: N_("{hold}, ten high")}


@functools.cache
def _sf_three_forms() -> dict[int, tuple[int, ...]]:
    """The fine codes of three to a straight flush that occur, by their coarse y (high << 2 | gaps)."""
    ranks = combinations(13, 3).astype(np.int64)
    codes = _codes_for(ranks, np.zeros_like(ranks), np.zeros(len(ranks), dtype=np.int64))
    out: dict[int, set[int]] = {}
    for c in codes[codes >> 8 == K.SF_THREE].tolist():
        out.setdefault((c >> 4) & 0xF, set()).add(c)
    return {y: tuple(sorted(v)) for y, v in out.items()}


# Three to a royal flush: the 5-bit mask of its ranks (ten = bit 0 .. ace = bit 4) -> 1..10.
_ROYAL_MASKS = tuple(sum(1 << b for b in c) for c in itertools.combinations(range(5), 3))
_ROYAL_THREE = np.zeros(32, dtype=np.int64)
_ROYAL_THREE[list(_ROYAL_MASKS)] = np.arange(1, 11)


def kept_cards(code: int) -> int:
    """How many cards a pattern keeps."""
    if code & JOKER_FLAG:
        return 5 if (code & ~JOKER_FLAG) >> 8 == K.JOKER_PAT else 1 + kept_cards(code & ~JOKER_FLAG)
    kind, x = code >> 8, (code >> 4) & 0xF
    fixed: dict[int, int] = {K.DISCARD: 0, K.QUADS: 4, K.TRIPS: 3, K.TRIPS_K: 4, K.TWO_PAIR: 4, K.PAIR: 2,
                             K.PAIR_K: 3, K.PAIR_KK: 4, K.TWO_HIGH_SUITED: 2, K.TWO_HIGH_OFFSUIT: 2,
                             K.CARD_PLUS_LOW: 2, K.CARD_PLUS_CARD: 2, K.FLUSH_FOUR: 4, K.SF_FOUR: 4, K.SF_THREE: 3,
                             K.ONE_CARD: 1}
    if kind in fixed:
        return fixed[kind]
    if kind in (K.ROYAL_DRAW, K.SF_DRAW, K.FLUSH_DRAW, K.STRAIGHT_DRAW, K.UNRELATED):
        return x
    return 5


def _rank_list(ranks: list[int], names: tuple[str, ...]) -> str:
    """'kings or aces', 'deuces to nines' (runs of three or more), 'any rank' (all thirteen)."""
    r = sorted(set(ranks))
    if len(r) == 13:
        return N_("any rank")
    runs: list[list[int]] = []
    for x in r:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    words: list[str] = []
    for run in runs:
        if len(run) >= 3:
            words.append(Phrase(N_("{low} to {high}"), low=names[run[0]], high=names[run[-1]]))
        else:
            words.extend(names[x] for x in run)
    return _or_list(words)


def _or_list(words: list[str]) -> str:
    """``a, b or c``: a list of alternatives (a ``Phrase`` the reader's language words)."""
    if len(words) == 1:
        return words[0]
    first = Phrase(", ".join(f"{{w{i}}}" for i in range(len(words) - 1)),
                   **{f"w{i}": w for i, w in enumerate(words[:-1])})
    return Phrase(N_("{ranks} or {last}"), ranks=first, last=words[-1])


def _lows(top: int) -> set[int]:
    """The ranks a card below ``top`` may have in a 'card + a lower card' hold (below ten)."""
    return set(range(min(top, TEN)))


def _consecutive(ranks: list[int]) -> bool:
    r = sorted(set(ranks))
    return len(r) == len(ranks) and r[-1] - r[0] == len(r) - 1


def _coarsened(codes: list[int]) -> tuple[list[int], list[int]]:
    """The patterns as coarse codes wherever all of a coarse code's fine forms are there, and
    the fine codes left over."""
    fine = sorted({f for c in codes for f in fine_codes(c)})
    groups: dict[int, set[int]] = {}
    for f in fine:
        groups.setdefault(int(coarse_codes(f)), set()).add(f)
    whole = [k for k, v in groups.items() if v == set(fine_codes(k))]
    return whole, [f for k, v in groups.items() if k not in whole for f in sorted(v)]


def pattern_count(codes: list[int] | tuple[int, ...]) -> int:
    """How many patterns a line names, a coarse pattern whose fine forms are all there counting once."""
    whole, rest = _coarsened(list(codes))
    return len(whole) + len(rest)


def two_card_cells(codes: list[int] | tuple[int, ...]) -> set[tuple[int, int, int]]:
    """The (high rank, lower rank, suited) a line's 'card + a lower card' patterns hold."""
    cells = set()
    for c in codes:
        for f in fine_codes(c):
            if f >> 8 == K.CARD_PLUS_CARD:
                cells.add(((f >> 4) & 0xF, (f & 0xF) >> 1, f & 1))
    return cells


def _one_card_run(fine: list[int]) -> bool:
    """Fine 'card + a lower card' codes of one high card and one suitedness (any lower cards)."""
    return (all(f >> 8 == K.CARD_PLUS_CARD for f in fine) and len({f >> 4 for f in fine}) == 1
            and len({f & 1 for f in fine}) == 1)


def _flush_product(fine: list[int]) -> tuple[int, set[int], set[int], set[int]] | None:
    """Fine four-to-a-flush codes of one high-card count that are every form with some aces,
    some middle cards and (beside an ace only) some kings (so one phrase names them): (high cards,
    aces, middles, kings), else None."""
    if any(f >> 8 != K.FLUSH_FOUR for f in fine) or len({(f >> 4) & 0xF for f in fine}) > 1:
        return None
    high = (fine[0] >> 4) & 0xF
    forms = {((f >> 1) & 1, f & 1, (f >> 2) & 1) for f in fine}
    aces, mids = {a for a, _, _ in forms}, {m for _, m, _ in forms}
    kings = {k for a, _, k in forms if a} or {0, 1}
    if len(aces) == 2 and {k for a, _, k in _FLUSH_FORMS[high] if a} - kings:
        return None     # "no ace, or the ace with a king" has no short phrase
    named = {f for f in _FLUSH_FORMS[high] if f[0] in aces and f[1] in mids and (not f[0] or f[2] in kings)}
    return (high, aces, mids, kings) if forms == named else None


def mergeable(codes: list[int] | tuple[int, ...]) -> bool:
    """Whether one printed line can name these patterns together, exactly: a run of ranks of one
    kind of pair, kicker or card ('pair of deuces to tens'), any set of two high cards of one
    suitedness, a run of cards each with any lower card ('queen to ace + a lower card'), or one
    card with some lower cards ('ten + six to nine')."""
    whole, rest = _coarsened(list(codes))
    if rest:
        return not whole and (len(rest) == 1 or _one_card_run(rest) or _flush_product(rest) is not None
                              or _sf_four_both(rest))
    if len(whole) == 1:
        return True
    if any(c & JOKER_FLAG for c in whole) or len({c >> 8 for c in whole}) > 1:
        return False
    kind = whole[0] >> 8
    if kind in (K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT):
        return True
    if kind in (K.PAIR, K.ONE_CARD, K.PAIR_K, K.PAIR_KK, K.CARD_PLUS_LOW):
        return len({c & 0xF for c in whole}) == 1 and _consecutive([(c >> 4) & 0xF for c in whole])
    return False


def split_line(codes: list[int] | tuple[int, ...]) -> list[tuple[int, ...]]:
    """A set of patterns as printed lines that each ``mergeable`` names and that, read in order,
    play as the set does (the highest card first): by high card, highest first. Coarse patterns
    give coarse ones, fine give fine."""
    if mergeable(codes):
        return [tuple(codes)]
    fine = sorted({f for c in codes for f in fine_codes(c)}, key=lambda f: (-((f >> 4) & 0xF), f))
    parts: list[list[int]] = []
    for f in fine:
        if parts and mergeable(parts[-1] + [f]):
            parts[-1].append(f)
        else:
            parts.append([f])
    merged = [parts[0]]
    for part in parts[1:]:
        if mergeable(merged[-1] + part):
            merged[-1] += part
        else:
            merged.append(part)
    if any(int(coarse_codes(c)) != c for c in codes):
        return [tuple(p) for p in merged]
    return [tuple(whole + rest) for whole, rest in map(_coarsened, merged)]    # coarse codes in, coarse out


def merged_label(codes: list[int] | tuple[int, ...]) -> str:
    """The printed text of a line of patterns (``mergeable``)."""
    whole, rest = _coarsened(list(codes))
    if rest:
        if len(rest) == 1:
            return hold_pattern_label(rest[0])
        if (product := _flush_product(rest)) is not None:
            return _flush_four_label(*product)
        if _sf_four_both(rest):
            return _sf_four_label((rest[0] >> 4) & 0xF, rest[0] & 3, {False, True})
        top, suited = (rest[0] >> 4) & 0xF, rest[0] & 1
        return Phrase(N_("{rank} + {low} of its suit") if suited else N_("{rank} + {low}"), rank=NAME[top],
                      low=_rank_list([(f & 0xF) >> 1 for f in rest], NAME))
    codes = whole
    if len(codes) == 1:
        return hold_pattern_label(codes[0])
    kind, y = codes[0] >> 8, codes[0] & 0xF
    xs = [(c >> 4) & 0xF for c in codes]
    if kind == K.PAIR:
        return Phrase(N_("pair of {ranks}"), ranks=_rank_list(xs, PLURAL)) if len(set(xs)) < 13 else N_("any pair")
    if kind == K.PAIR_KK:
        return Phrase(N_("pair of {ranks} + two kickers"), ranks=_rank_list(xs, PLURAL))
    if kind == K.PAIR_K:
        return Phrase(N_("pair of {ranks} + low kicker"), ranks=_rank_list(xs, PLURAL)) if y not in _KICKERS else \
            Phrase(N_("pair of {ranks} + {kicker} kicker"), ranks=_rank_list(xs, PLURAL), kicker=_KICKERS[y])
    if kind == K.ONE_CARD:
        return Phrase(N_("one card: {rank}"), rank=_rank_list(xs, NAME))
    if kind == K.CARD_PLUS_LOW:
        return Phrase(N_("{rank} + a lower card of its suit") if y else N_("{rank} + a lower card"),
                      rank=_rank_list(xs, NAME))
    pairs = [f"{RANKS[(c >> 4) & 0xF]}{RANKS[c & 0xF]}" for c in codes]
    return Phrase(N_("{cards} suited") if kind == K.TWO_HIGH_SUITED else N_("{cards} offsuit"),
                  cards=_or_list(pairs))


HOLD_TYPES = HoldType.labels()   # the coarse types of hold, by ``HoldType`` code


@functools.cache
def _hold_type_table() -> npt.NDArray[np.int64]:
    H = HoldType
    table = np.full(32, H.OTHER, dtype=np.int64)
    table[[K.QUADS_PAT, K.FULL_HOUSE, K.TRIPS_PAT, K.TWO_PAIR_PAT, K.PAIR_PAT, K.PAT_SF, K.PAT_FLUSH,
           K.PAT_STRAIGHT, K.PAT_NOTHING, K.JOKER_PAT]] = H.PAT
    table[[K.QUADS, K.TRIPS, K.TRIPS_K, K.TWO_PAIR]] = H.MADE
    table[K.PAIR] = H.PAIR
    table[[K.PAIR_K, K.PAIR_KK]] = H.KICKER
    table[[K.FLUSH_DRAW, K.FLUSH_FOUR]] = H.FLUSH_DRAW
    table[K.STRAIGHT_DRAW] = H.STRAIGHT_DRAW
    table[[K.SF_DRAW, K.SF_FOUR, K.SF_THREE, K.ROYAL_DRAW]] = H.SF_DRAW
    table[[K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW, K.CARD_PLUS_CARD]] = H.TWO_CARDS
    table[K.ONE_CARD] = H.ONE_CARD
    table[K.DISCARD] = H.DRAW_FIVE
    table[K.UNRELATED] = H.OTHER
    table.setflags(write=False)
    return table


def hold_type(codes: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Coarse type (index into HOLD_TYPES) of each hold pattern code (the joker flag ignored)."""
    return _hold_type_table()[(np.asarray(codes) >> 8) & 31]
