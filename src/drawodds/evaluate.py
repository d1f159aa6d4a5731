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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER, RANK_NAMES, RANK_PLURALS, RANKS, CardError

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
    # For descriptions: strength -> (category, ranks high to low as they break ties)
    decode: tuple[tuple[int, tuple[int, ...]], ...]


def _classify(rank_multiset: tuple[int, ...], flush: bool) -> tuple[int, tuple[int, ...]]:
    """Category and tie-break ranks of five ranks (rank 0 = deuce ... 12 = ace)."""
    counts = Counter(rank_multiset)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    distinct = sorted(counts, reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:  # the wheel, A-2-3-4-5: five high
            straight_top = 3
    if shape[0] == 5:
        return FIVE_ACES, (rank_multiset[0],)
    if straight_top is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT), (straight_top,)
    if flush:
        return FLUSH, tuple(distinct)
    category = {(4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR,
                (2, 1, 1, 1): ONE_PAIR, (1, 1, 1, 1, 1): HIGH_CARD}[tuple(shape)]
    return category, tuple(order)


@functools.cache
def _tables() -> _Tables:
    """Build the lookup tables once (a few tens of ms); a pure function of the constants above."""
    five: list[tuple[int, ...]] = [m for m in itertools.combinations_with_replacement(range(13), 5)
                                   if max(Counter(m).values()) <= 4]
    plain: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {m: _classify(m, False) for m in five}
    suited: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {
        m: _classify(m, True) for m in itertools.combinations(range(13), 5)}
    ordered = sorted(set(plain.values()) | set(suited.values()))
    value = {c: i + 1 for i, c in enumerate(ordered)}
    five_aces = len(ordered) + 1
    decode = ((HIGH_CARD, ()), *ordered, (FIVE_ACES, (12,)))

    table = np.zeros(_TABLE_SIZE, dtype=np.int16)

    def index(ranks_: tuple[int, ...], joker: int, flush: int) -> int:
        return (sum(RANK_KEYS[r] for r in ranks_) * 2 + joker) * 2 + flush

    for m, c in plain.items():
        table[index(m, 0, 0)] = value[c]
    for m, c in suited.items():
        table[index(m, 0, 1)] = value[c]
    # Joker hands: four real ranks; the joker is an ace, or any rank completing a straight
    # (unsuited) or a flush / straight flush (four suited cards).
    for m in itertools.combinations_with_replacement(range(13), 4):
        best = five_aces if m == (12, 12, 12, 12) else value[plain[(*m, 12)]]
        if len(set(m)) == 4:
            flush_best = 0
            for r in set(range(13)) - set(m):
                full = tuple(sorted(m + (r,)))
                if plain[full][0] == STRAIGHT:
                    best = max(best, value[plain[full]])
                flush_best = max(flush_best, value[suited[full]])
            table[index(m, 1, 1)] = max(best, flush_best)
        table[index(m, 1, 0)] = best

    card_keys = np.zeros(53, dtype=np.uint32)
    for card in range(52):
        card_keys[card] = (RANK_KEYS[card // 4] << _RANK_SHIFT) | (1 << (_SUIT_SHIFT * (card % 4)))
    card_keys[JOKER] = _JOKER_BIT | _SUIT_ONES
    floors = np.array([next(i for i, (c, _) in enumerate(decode) if c == cat and i > 0)
                       for cat in range(len(CATEGORIES))], dtype=np.int16)
    codes = np.arange(53, dtype=np.uint8)
    pairs = np.stack(np.meshgrid(codes, codes, indexing="ij"), axis=-1)   # (53, 53, 2) bytes
    pair_keys = np.zeros(1 << 16, dtype=np.uint32)
    pair_keys[pairs.reshape(-1, 2).copy().view(np.uint16).ravel()] = \
        (card_keys[:, None] + card_keys[None, :]).ravel()
    return _Tables(card_keys, pair_keys, table, floors, decode)


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
    hint = " (the joker needs joker=True)" if bad == JOKER else ""
    raise CardError(f"card code {bad} is outside the deck{hint}")


def evaluate(hands: npt.ArrayLike, *, joker: bool = False) -> Strengths:
    """Strength of each five-card hand in an int array of shape (..., 5); larger is better.

    With ``joker=True`` card 52 is the bug: an ace, or the card that completes a straight or
    a flush, whichever is best. Large inputs are processed in blocks of ``CHUNK`` hands, so
    memory stays flat however many hands come in.
    """
    arr = np.asarray(hands)
    if arr.ndim == 0 or arr.shape[-1] != 5:
        raise CardError(f"hands must have shape (..., 5), got {arr.shape}")
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
    floors = _tables().category_floor
    return (np.searchsorted(floors, np.asarray(strengths), side="right") - 1).astype(np.int8)


def category_name(strength: int) -> str:
    """Category name of one strength, e.g. ``'one_pair'``."""
    return CATEGORIES[int(category_of(strength))]


def category_floor(category: int) -> int:
    """The lowest strength in a category: ``strength >= category_floor(ONE_PAIR)`` is 'a pair or better'."""
    return int(_tables().category_floor[category])


def strength_of(category: int, tie_ranks: tuple[int, ...]) -> int:
    """Strength of a hand class from its category and tie-break ranks, high to low."""
    return _tables().decode.index((category, tuple(tie_ranks)))


@functools.cache
def jacks_or_better_floor() -> int:
    """The lowest strength that opens under Jacks or Better: a pair of jacks, 4-3-2 kickers."""
    return strength_of(ONE_PAIR, (9, 2, 1, 0))


def describe(strength: int) -> str:
    """A human description of a hand class, e.g. ``'pair of aces, K-7-3'``."""
    category, tie = _tables().decode[int(strength)]
    names = [RANKS[r] for r in tie]
    if category == HIGH_CARD:
        return f"{RANK_NAMES[tie[0]]} high, {'-'.join(names[1:])}"
    if category == ONE_PAIR:
        return f"pair of {RANK_PLURALS[tie[0]]}, {'-'.join(names[1:])}"
    if category == TWO_PAIR:
        return f"two pair, {RANK_PLURALS[tie[0]]} and {RANK_PLURALS[tie[1]]}, {names[2]} kicker"
    if category == TRIPS:
        return f"three {RANK_PLURALS[tie[0]]}, {'-'.join(names[1:])}"
    if category == STRAIGHT:
        return f"straight, {RANK_NAMES[tie[0]]} high"
    if category == FLUSH:
        return f"flush, {'-'.join(names)}"
    if category == FULL_HOUSE:
        return f"full house, {RANK_PLURALS[tie[0]]} over {RANK_PLURALS[tie[1]]}"
    if category == QUADS:
        return f"four {RANK_PLURALS[tie[0]]}, {names[1]} kicker"
    if category == STRAIGHT_FLUSH:
        return "royal flush" if tie[0] == 12 else f"straight flush, {RANK_NAMES[tie[0]]} high"
    return "five aces"
