"""Vectorized five-card evaluator (with the joker, "bug"): one int strength per hand.

Design (additive keys, one table lookup). Each card has a 32-bit key::

    bits 13..31  rank key: 13 numbers chosen greedily so that every multiset of five
                 ranks (each rank at most four times) has a distinct sum
    bit  12      joker flag
    bits 0..11   four 3-bit suit counters

Summing the five keys gives the rank multiset, whether the joker is in, and the suit counts.
The joker adds 1 to every suit counter, so "four suited cards + joker" reads as five of a suit.
A counter of 5 (binary 101) is the only one with its top and bottom bits set, which is the flush
test. The index ``(rank sum, joker, flush)`` then reads the strength from one precomputed table.

Strengths run 1 (7-5-4-3-2 offsuit) to 7,462 (royal flush); 7,463 is five aces (joker deck).
Larger is better and two hands tie exactly when their strengths are equal.
"""

from __future__ import annotations

import functools
import itertools
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER, RANK_NAMES, RANK_PLURALS, RANKS, CardError
from drawodds.i18n import N_, Phrase

CATEGORIES = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
              "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind")
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, \
    FIVE_ACES = range(10)

# Greedy keys: every 5-multiset of ranks (multiplicity <= 4) has a distinct sum (tested).
RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
_SUIT_SHIFT = 3
_JOKER_BIT = 1 << 12
_RANK_SHIFT = 13
_SUIT_ONES = 0b001_001_001_001  # one in every suit counter
# Largest index: rank sum of A-A-A-A-K, joker bit, flush bit.
_TABLE_SIZE = ((4 * RANK_KEYS[12] + RANK_KEYS[11]) * 2 + 2) * 2
CHUNK = 1 << 15  # hands per block: temporaries stay in cache (measured fastest here)
ROYAL_FLUSH = 7462   # the strength of a royal flush, the best hand without the joker
N_STRENGTHS = 7464   # length of any per-strength array: strengths 1..7463 (0 unused; 7463 five aces)

Strengths = npt.NDArray[np.int16]


@dataclass(frozen=True)
class _Tables:
    card_keys: npt.NDArray[np.uint32]   # 53 keys (52 cards + joker)
    pair_keys: npt.NDArray[np.uint32]   # 65,536: key(a) + key(b) at the uint16 made of bytes (a, b)
    strength: npt.NDArray[np.int16]     # index -> strength
    category_floor: npt.NDArray[np.int16]  # lowest strength of each category (10)
    category: npt.NDArray[np.int8]      # strength -> category (-1 for strength 0)
    classes: npt.NDArray[np.int64]      # class code (see _class_codes) of strengths 1..7462, weakest first


# Tie-break ranks per category, as many as break ties (a class is coded as one integer below).
_TIE_LENGTHS = (5, 4, 3, 3, 1, 5, 2, 2, 1, 1)
_DIGIT = 13 ** np.arange(4, -1, -1)   # base-13 places of up to five tie ranks, high to low


def _class_codes(ranks: npt.NDArray[np.int64], flush: bool) -> npt.NDArray[np.int64]:
    """Class of each row of five ranks (0 = deuce ... 12 = ace), coded as one integer.

    The code is ``category * 13**5`` plus the tie-break ranks, high to low, as base-13 digits
    (unused places 0): codes order hands exactly as the game does, category first.
    """
    counts = (ranks[:, :, None] == np.arange(13)).sum(axis=1)          # (n, 13)
    # Ranks by (count, rank), high to low: the groups first, then the kickers.
    order = np.argsort(-(counts * 16 + np.arange(13)), axis=1, kind="stable")[:, :5]
    distinct = (counts > 0).sum(axis=1)
    order = np.where(np.arange(5) < distinct[:, None], order, 0)
    top = counts.max(axis=1)
    category = np.select(
        [top == 4, (top == 3) & (distinct == 2), top == 3, (top == 2) & (distinct == 3), top == 2],
        [QUADS, FULL_HOUSE, TRIPS, TWO_PAIR, ONE_PAIR], HIGH_CARD)
    tie = order @ _DIGIT
    high, low = ranks.max(axis=1), ranks.min(axis=1)
    wheel = (distinct == 5) & (high == 12) & (np.sort(ranks, axis=1)[:, 3] == 3)
    straight = (distinct == 5) & ((high - low == 4) | wheel)
    straight_top = np.where(wheel, 3, high)
    if flush:
        category = np.where(straight, STRAIGHT_FLUSH, FLUSH)
    else:
        category = np.where(straight, STRAIGHT, category)
    tie = np.where(straight, straight_top * _DIGIT[0], tie)
    return category * 13 ** 5 + tie


def _decode(strength: int) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks high to low) of a strength."""
    classes = _tables().classes
    if not 1 <= strength <= len(classes) + 1:
        raise ValueError(f"no hand has strength {strength}")
    if strength == len(classes) + 1:
        return FIVE_ACES, (12,)
    category, rest = divmod(int(classes[strength - 1]), 13 ** 5)
    digits = [rest // int(d) % 13 for d in _DIGIT]
    return category, tuple(digits[:_TIE_LENGTHS[category]])


@functools.cache
def _tables() -> _Tables:
    """Build the lookup tables once (a few ms, numpy throughout); a pure function of the constants above."""
    keys = np.array(RANK_KEYS, dtype=np.int64)
    multisets = np.array(list(itertools.combinations_with_replacement(range(13), 5)), dtype=np.int64)
    plain = multisets[~(multisets[:, :1] == multisets[:, 4:]).ravel()]        # no five of a kind
    suited = np.array(list(itertools.combinations(range(13), 5)), dtype=np.int64)
    plain_codes, suited_codes = _class_codes(plain, False), _class_codes(suited, True)
    ordered = np.sort(np.concatenate([plain_codes, suited_codes]))
    ordered = ordered[np.r_[True, ordered[1:] != ordered[:-1]]]            # every class once, weakest first
    five_aces = len(ordered) + 1

    table = np.zeros(_TABLE_SIZE, dtype=np.int16)
    table[keys[plain].sum(axis=1) * 4] = np.searchsorted(ordered, plain_codes) + 1
    table[keys[suited].sum(axis=1) * 4 + 1] = np.searchsorted(ordered, suited_codes) + 1
    # Joker hands: four real ranks; the joker is an ace, or any rank completing a straight
    # (unsuited) or a flush / straight flush (four suited cards).
    four = np.array(list(itertools.combinations_with_replacement(range(13), 4)), dtype=np.int64)
    four_sums = keys[four].sum(axis=1)
    four_aces = (four == 12).all(axis=1)
    best = np.where(four_aces, five_aces, table.take((four_sums + keys[12]) * 4, mode="clip"))
    distinct: npt.NDArray[np.bool_] = np.asarray((np.diff(four, axis=1) > 0).all(axis=1))
    fills = (four_sums[:, None] + keys[None, :]) * 4                         # (n, 13): each rank as the fifth
    free = distinct[:, None] & (four[:, :, None] != np.arange(13)).all(axis=1)
    completed = table.take(fills, mode="clip").astype(np.int64)
    floors = np.searchsorted(ordered, np.arange(10) * 13 ** 5) + 1          # lowest strength per category
    is_straight = (completed >= floors[STRAIGHT]) & (completed < floors[FLUSH])
    best = np.maximum(best, np.where(free & is_straight, completed, 0).max(axis=1))
    flush_best = np.where(free, table.take(fills + 1, mode="clip"), 0).max(axis=1)
    table[four_sums * 4 + 2] = best
    table[four_sums[distinct] * 4 + 3] = np.maximum(best, flush_best)[distinct]

    card_keys = np.zeros(53, dtype=np.uint32)
    card_keys[:52] = (keys[np.arange(52) // 4] << _RANK_SHIFT) | (1 << (_SUIT_SHIFT * (np.arange(52) % 4)))
    card_keys[JOKER] = _JOKER_BIT | _SUIT_ONES
    floors[FIVE_ACES] = five_aces
    codes = np.arange(53, dtype=np.uint8)
    pairs = np.stack(np.meshgrid(codes, codes, indexing="ij"), axis=-1)   # (53, 53, 2) bytes
    pair_keys = np.zeros(1 << 16, dtype=np.uint32)
    pair_keys[pairs.reshape(-1, 2).copy().view(np.uint16).ravel()] = \
        (card_keys[:, None] + card_keys[None, :]).ravel()
    floors16 = floors.astype(np.int16)
    category = (np.searchsorted(floors16, np.arange(N_STRENGTHS), side="right") - 1).astype(np.int8)
    return _Tables(card_keys, pair_keys, table, floors16, category, ordered)


def key_sums(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.uint32]:
    """Sum of the card keys over the last axis (any number of cards, at most five).

    Key sums add: the sum for kept cards plus the sum for drawn cards is the sum for the final
    hand, which lets the exact enumerations reuse one array of draw sums for many holds.
    """
    arr = np.asarray(cards)
    keys = _tables().card_keys
    flat = arr.reshape(-1, arr.shape[-1]) if arr.ndim else arr.reshape(1, 1)
    out = np.zeros(len(flat), dtype=np.uint32)
    for i in range(flat.shape[1]):
        out += keys.take(flat[:, i], mode="clip")
    return out.reshape(arr.shape[:-1]) if arr.ndim else out[0]


def strength_from_keys(sums: npt.NDArray[np.uint32], out: Strengths | None = None) -> Strengths:
    """Strength of five-card hands given their key sums (see ``key_sums``); consumes ``sums``."""
    s = sums
    # A suit counter equal to 5 (0b101) is the only value with its top and bottom bit set.
    flush = (s >> 2) & s
    flush &= np.uint32(0x249)
    flush += np.uint32(0x1FF)  # 0 -> 0, any of 1/8/64/512 -> 1 after the shift
    flush >>= 9
    s >>= _RANK_SHIFT - 2  # rank sum and joker bit, one place up for the flush bit
    s &= ~np.uint32(1)
    s |= flush
    return _tables().strength.take(s, mode="clip", out=out)


def _evaluate_block(block: npt.NDArray[np.uint8], t: _Tables, out: Strengths) -> None:
    # Two adjacent card bytes read as one uint16 index a table of pair sums: three gathers per
    # hand instead of five. ``block`` is C-contiguous (m, 5) bytes, so pairs sit 5 bytes apart.
    # mode="clip" skips numpy's per-element bounds check; evaluate() validated the cards.
    m = len(block)
    raw = block.reshape(-1)
    first = np.ndarray((m,), dtype=np.uint16, buffer=raw, offset=0, strides=(5,))
    second = np.ndarray((m,), dtype=np.uint16, buffer=raw, offset=2, strides=(5,))
    s = t.pair_keys.take(first, mode="clip")
    s += t.pair_keys.take(second, mode="clip")
    s += t.card_keys.take(block[:, 4], mode="clip")
    strength_from_keys(s, out=out)


def _check_codes(flat: npt.NDArray[np.integer], limit: int) -> None:
    """Raise ValueError unless every code is in 0..limit (one pass for byte-sized codes)."""
    if flat.dtype.itemsize == 1:
        # Seen as unsigned bytes, negative int8 codes become >= 128: one max() checks both ends.
        high = int(flat.view(np.uint8).max())
        if high <= limit:
            return
        bad = int(flat.ravel()[np.argmax(flat.view(np.uint8).ravel())])
    else:
        low, high = int(flat.min()), int(flat.max())
        if low >= 0 and high <= limit:
            return
        bad = low if low < 0 else high
    if bad == JOKER:
        raise CardError("card code {bad} is outside the deck (the joker needs joker=True)", bad=bad)
    raise CardError("card code {bad} is outside the deck", bad=bad)


def evaluate(hands: npt.ArrayLike, *, joker: bool = False) -> Strengths:
    """Strength of each five-card hand in an int array of shape (..., 5); larger is better.

    With ``joker=True`` card 52 is the bug: an ace, or the card that completes a straight or
    a flush, whichever is best. Large inputs are processed in blocks of ``CHUNK`` hands, so
    memory stays flat however many hands come in.

    >>> from drawodds.cards import parse_hand
    >>> int(evaluate(parse_hand("AsAhKs7s3s")))
    4094
    >>> evaluate([parse_hand("AsKsQsJsTs"), parse_hand("7h5d4c3s2h")]).tolist()   # royal flush, the worst hand
    [7462, 1]
    >>> int(evaluate(parse_hand("AsAhAdAcJk", joker=True), joker=True))   # five aces
    7463
    >>> evaluate(parse_hand("AsAhAdAcJk", joker=True))
    Traceback (most recent call last):
    ...
    drawodds.cards.CardError: card code 52 is outside the deck (the joker needs joker=True)
    """
    arr = np.asarray(hands)
    if arr.ndim == 0 or arr.shape[-1] != 5:
        raise CardError("hands must have shape (..., 5), got {shape}", shape=arr.shape)
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"hands must be integer card codes, got dtype {arr.dtype}")
    flat = arr.reshape(-1, 5)
    out = np.empty(len(flat), dtype=np.int16)
    if flat.size:
        _check_codes(flat, JOKER if joker else JOKER - 1)
    if flat.dtype.itemsize == 1 and flat.flags.c_contiguous:
        codes = flat.view(np.uint8)                       # no copy for the usual int8 hands
    else:
        codes = np.ascontiguousarray(flat, dtype=np.uint8)
    t = _tables()
    for start in range(0, len(codes), CHUNK):
        _evaluate_block(codes[start:start + CHUNK], t, out[start:start + CHUNK])
    return out.reshape(arr.shape[:-1])


@functools.cache
def _scalar_tables() -> tuple[list[int], array]:
    t = _tables()
    return t.card_keys.tolist(), array("h", t.strength.tobytes())


def evaluate_one(cards: Sequence[int]) -> int:
    """Strength of one five-card hand from plain ints (same value as ``evaluate``, joker allowed).

    For per-deal code such as the rules engine, where one numpy call (10-30 us) would cost more
    than the hand itself: the same keys and table, read from Python lists in about 1 us.
    """
    keys, table = _scalar_tables()
    a, b, c, d, e = cards  # exactly five; unpacking is cheaper than a loop
    s = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
    flush = 1 if (s >> 2) & s & 0x249 else 0   # a suit counter of 0b101, as in strength_from_keys
    return table[((s >> (_RANK_SHIFT - 2)) & ~1) | flush]


def category_of(strengths: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Category index (0 = high card ... 8 = straight flush, 9 = five aces) of each strength."""
    arr = np.asarray(strengths)
    t = _tables()
    if np.issubdtype(arr.dtype, np.integer):   # one lookup; out-of-range values clip to -1 / five aces
        return t.category.take(arr, mode="clip")
    return (np.searchsorted(t.category_floor, arr, side="right") - 1).astype(np.int8)


def category_name(strength: int) -> str:
    """Category name of one strength, e.g. ``'one_pair'``.

    >>> category_name(4094), category_name(7462)
    ('one_pair', 'straight_flush')
    """
    return CATEGORIES[int(category_of(strength))]


def category_floor(category: int) -> int:
    """The lowest strength in a category: ``strength >= category_floor(ONE_PAIR)`` is 'a pair or better'."""
    return int(_tables().category_floor[category])


def strength_of(category: int, tie_ranks: tuple[int, ...]) -> int:
    """Strength of a hand class from its category and tie-break ranks, high to low."""
    tie = tuple(tie_ranks)
    if category == FIVE_ACES and tie == (12,):
        return len(_tables().classes) + 1
    code = category * 13 ** 5 + sum(r * int(d) for r, d in zip(tie, _DIGIT, strict=False))
    strength = int(np.searchsorted(_tables().classes, code)) + 1
    if not 0 <= category < FIVE_ACES or len(tie) != _TIE_LENGTHS[category] or _decode(strength) != (category, tie):
        raise ValueError(f"no hand is {CATEGORIES[category] if 0 <= category < len(CATEGORIES) else category} "
                         f"with tie-break ranks {tie}")
    return strength


@functools.cache
def jacks_or_better_floor() -> int:
    """The lowest strength that opens under Jacks or Better: a pair of jacks, 4-3-2 kickers."""
    return strength_of(ONE_PAIR, (9, 2, 1, 0))


def describe(strength: int) -> str:
    """A human description of a hand class, e.g. ``'pair of aces, K-7-3'``.

    >>> describe(4094), describe(1), describe(7462)
    ('pair of aces, K-7-3', 'seven high, 5-4-3-2', 'royal flush')
    >>> describe(9000)
    Traceback (most recent call last):
    ...
    ValueError: no hand has strength 9000
    """
    category, tie = _decode(int(strength))
    names = [RANKS[r] for r in tie]
    if category == HIGH_CARD:
        return Phrase(N_("{rank} high, {kickers}"), rank=RANK_NAMES[tie[0]], kickers="-".join(names[1:]))
    if category == ONE_PAIR:
        return Phrase(N_("pair of {ranks}, {kickers}"), ranks=RANK_PLURALS[tie[0]], kickers="-".join(names[1:]))
    if category == TWO_PAIR:
        return Phrase(N_("two pair, {high} and {low}, {kicker} kicker"), high=RANK_PLURALS[tie[0]],
                      low=RANK_PLURALS[tie[1]], kicker=names[2])
    if category == TRIPS:
        return Phrase(N_("three {ranks}, {kickers}"), ranks=RANK_PLURALS[tie[0]], kickers="-".join(names[1:]))
    if category == STRAIGHT:
        return Phrase(N_("straight, {rank} high"), rank=RANK_NAMES[tie[0]])
    if category == FLUSH:
        return Phrase(N_("flush, {cards}"), cards="-".join(names))
    if category == FULL_HOUSE:
        return Phrase(N_("full house, {high} over {low}"), high=RANK_PLURALS[tie[0]], low=RANK_PLURALS[tie[1]])
    if category == QUADS:
        return Phrase(N_("four {ranks}, {kicker} kicker"), ranks=RANK_PLURALS[tie[0]], kicker=names[1])
    if category == STRAIGHT_FLUSH:
        return N_("royal flush") if tie[0] == 12 else Phrase(N_("straight flush, {rank} high"),
                                                             rank=RANK_NAMES[tie[0]])
    return N_("five aces")
