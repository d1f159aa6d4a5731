"""Hold patterns: what a hold keeps, named as a player learns it.

Every hold of a deal gets a pattern code computed from the kept cards alone ("pair of jacks",
"4 to a flush, 1 high card", "KQ suited", ...): code = kind << 8 | x << 4 | y, where x and y say
which ranks or how many high cards. Strategy tables show them and condensed strategies are lists
of them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER, RANKS
from drawodds.evaluate import CATEGORIES, category_of, evaluate
from drawodds.holds import N_HOLDS

HIGH = 9          # jack: "high cards" are J, Q, K, A (the Jacks-or-Better paying ranks)
TEN = 8
ROYAL = 7462
PLURAL = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
          "jacks", "queens", "kings", "aces")
NAME = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "jack", "queen", "king", "ace")

# Pattern kinds (code = kind << 8 | x << 4 | y, 13 bits; x, y say which ranks / how many high cards).
(DISCARD, QUADS, QUADS_PAT, FULL_HOUSE, TRIPS, TRIPS_K, TRIPS_PAT, TWO_PAIR, TWO_PAIR_PAT,
 PAIR, PAIR_K, PAIR_KK, PAIR_PAT, PAT_SF, PAT_FLUSH, PAT_STRAIGHT, PAT_NOTHING, ROYAL_DRAW,
 SF_DRAW, FLUSH_DRAW, STRAIGHT_DRAW, UNRELATED, TWO_HIGH_SUITED, TWO_HIGH_OFFSUIT,
 CARD_PLUS_LOW, ONE_CARD, JOKER_PAT) = range(27)
JOKER_FLAG = 1 << 13
N_CODES = 1 << 14


def _hi(h: int) -> str:
    return f"{h} high card{'s' if h != 1 else ''}"


def pattern_label(code: int) -> str:
    """A pattern code in words, e.g. ``'4 to a flush, 2 high cards'``."""
    if code & JOKER_FLAG:
        rest = code & ~JOKER_FLAG
        if rest >> 8 == JOKER_PAT:
            return f"{CATEGORIES[rest & 0xF].replace('_', ' ')} with the joker (stand pat)"
        return "joker alone" if rest >> 8 == DISCARD else f"joker + {pattern_label(rest)}"
    kind, x, y = code >> 8, (code >> 4) & 0xF, code & 0xF
    kicker = {12: "ace", 11: "king", 10: "queen", 9: "jack"}
    labels = {
        DISCARD: "discard all five",
        QUADS: "four of a kind",
        QUADS_PAT: "four of a kind + kicker (stand pat)",
        FULL_HOUSE: "full house (stand pat)",
        TRIPS: "three of a kind",
        TRIPS_K: "three of a kind + kicker",
        TRIPS_PAT: "three of a kind + two kickers (stand pat)",
        TWO_PAIR: "two pair",
        TWO_PAIR_PAT: "two pair + kicker (stand pat)",
        PAT_FLUSH: "flush (stand pat)",
        PAT_STRAIGHT: "straight (stand pat)",
        PAT_NOTHING: "no pair (stand pat)",
    }
    if kind in labels:
        return labels[kind]
    if kind == PAIR:
        return f"pair of {PLURAL[x]}"
    if kind == PAIR_K:
        return f"pair of {PLURAL[x]} + {kicker.get(y, 'low')} kicker"
    if kind == PAIR_KK:
        return f"pair of {PLURAL[x]} + two kickers"
    if kind == PAIR_PAT:
        return f"pair of {PLURAL[x]} (stand pat)"
    if kind == PAT_SF:
        return "royal flush (stand pat)" if x else "straight flush (stand pat)"
    if kind == ROYAL_DRAW:
        return f"{x} to a royal flush"
    if kind == SF_DRAW:
        if x == 4:
            return f"4 to a straight flush ({'open' if y == 0 else 'inside'})"
        return f"3 to a straight flush, {_hi(y >> 2)}, {y & 3} gap{'s' if (y & 3) != 1 else ''}"
    if kind == FLUSH_DRAW:
        return f"{x} to a flush, {_hi(y)}"
    if kind == STRAIGHT_DRAW:
        if x == 4:
            return (f"4 to an open straight, {_hi(y & 7)}" if y >> 3 == 0
                    else f"4 to an inside straight, {_hi(y & 7)}")
        return f"3 to a straight, {_hi(y & 7)}"
    if kind == UNRELATED:
        return f"{x} unrelated cards, {_hi(y)}"
    if kind in (TWO_HIGH_SUITED, TWO_HIGH_OFFSUIT):
        return f"{RANKS[x]}{RANKS[y]} {'suited' if kind == TWO_HIGH_SUITED else 'offsuit'}"
    if kind == CARD_PLUS_LOW:
        return f"{NAME[x]} + a lower card{' of its suit' if y else ''}"
    if kind == ONE_CARD:
        return f"one card: {NAME[x]}"
    raise ValueError(f"unknown pattern code {code}")


def pattern_codes(deals: npt.NDArray[np.integer], joker: bool = False) -> npt.NDArray[np.int64]:
    """Pattern code of each of the 32 holds of each sorted deal, shape (N, 32)."""
    d = np.asarray(deals, dtype=np.int64)
    n = len(d)
    rank, suit = d // 4, d % 4
    has_joker = d[:, 4] == JOKER if joker else np.zeros(n, dtype=bool)
    strength = evaluate(d, joker=joker)
    out = np.zeros((n, N_HOLDS), dtype=np.int64)
    for m in range(N_HOLDS):
        pos = [i for i in range(5) if m >> i & 1]
        out[:, m] = _codes_for(rank[:, pos], suit[:, pos], strength)
    if joker and has_joker.any():
        # The joker sits last in a sorted deal: a hold with it is "joker + the rest".
        for m in range(16, N_HOLDS):
            out[has_joker, m] = out[has_joker, m - 16] | JOKER_FLAG
        # Standing pat with the joker: name the made hand (y = its category).
        out[has_joker, N_HOLDS - 1] = JOKER_FLAG | JOKER_PAT << 8 | category_of(strength[has_joker]).astype(np.int64)
    return out


def _codes_for(r: npt.NDArray[np.int64], s: npt.NDArray[np.int64], strength: npt.NDArray) -> npt.NDArray[np.int64]:
    """Codes for one hold shape: r, s are the kept ranks (ascending) and suits, (N, k)."""
    n, k = r.shape
    if k == 0:
        return np.full(n, DISCARD << 8, dtype=np.int64)
    if k == 1:
        return (ONE_CARD << 8 | r[:, 0] << 4).astype(np.int64)
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
        put(run4, QUADS_PAT)
        put(extra == 3, FULL_HOUSE)
        put(run3, TRIPS_PAT)
        put(extra == 2, TWO_PAIR_PAT)
        put(extra == 1, PAIR_PAT, pair_rank)
        cat_sf = suited & straightish
        put(cat_sf, PAT_SF, (strength == ROYAL).astype(np.int64))
        put(suited, PAT_FLUSH)
        put(straightish, PAT_STRAIGHT)
        put(np.ones(n, bool), PAT_NOTHING)
        return code
    if k == 4:
        put(run4, QUADS)
        put(run3, TRIPS_K)
        put(extra == 2, TWO_PAIR)
        put(extra == 1, PAIR_KK, pair_rank)
    if k == 3:
        put(run3, TRIPS)
        kick = np.where(top == pair_rank, low, top)
        put(extra == 1, PAIR_K, pair_rank, np.where(kick >= HIGH, kick, 0))
    if k == 2:
        put(extra == 1, PAIR, pair_rank)
        both_high = low >= TEN
        put(both_high & suited, TWO_HIGH_SUITED, top, low)
        put(both_high, TWO_HIGH_OFFSUIT, top, low)
        put(np.ones(n, bool), CARD_PLUS_LOW, top, suited.astype(np.int64))
        return code
    # Three or four distinct cards: draws.
    put(suited & straightish & (low >= TEN), ROYAL_DRAW, k)
    if k == 4:
        put(suited & straightish, SF_DRAW, 4, ((gaps > 0) | has_ace).astype(np.int64))
    else:
        put(suited & straightish, SF_DRAW, 3, np.minimum(high, 3) << 2 | gaps)
    put(suited, FLUSH_DRAW, k, high)
    open_ = (gaps == 0) & ~has_ace
    put(straightish, STRAIGHT_DRAW, k, np.where(open_, 0, 1) << 3 | high if k == 4 else high)
    put(np.ones(n, bool), UNRELATED, k, high)
    return code


def kept_cards(code: int) -> int:
    """How many cards a pattern keeps."""
    if code & JOKER_FLAG:
        return 5 if (code & ~JOKER_FLAG) >> 8 == JOKER_PAT else 1 + kept_cards(code & ~JOKER_FLAG)
    kind, x = code >> 8, (code >> 4) & 0xF
    fixed = {DISCARD: 0, QUADS: 4, TRIPS: 3, TRIPS_K: 4, TWO_PAIR: 4, PAIR: 2, PAIR_K: 3, PAIR_KK: 4,
             TWO_HIGH_SUITED: 2, TWO_HIGH_OFFSUIT: 2, CARD_PLUS_LOW: 2, ONE_CARD: 1}
    if kind in fixed:
        return fixed[kind]
    if kind in (ROYAL_DRAW, SF_DRAW, FLUSH_DRAW, STRAIGHT_DRAW, UNRELATED):
        return x
    return 5


def _rank_list(ranks: list[int], names: tuple[str, ...]) -> str:
    """'kings or aces', 'deuces to nines' (runs of three or more), 'any rank' (all thirteen)."""
    r = sorted(set(ranks))
    if len(r) == 13:
        return "any rank"
    runs: list[list[int]] = []
    for x in r:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    words: list[str] = []
    for run in runs:
        if len(run) >= 3:
            words.append(f"{names[run[0]]} to {names[run[-1]]}")
        else:
            words.extend(names[x] for x in run)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def merge_key(code: int) -> tuple[int, ...] | None:
    if code & JOKER_FLAG:
        return None
    kind, y = code >> 8, code & 0xF
    if kind in (PAIR, ONE_CARD, CARD_PLUS_LOW, PAIR_K, PAIR_KK):
        return (kind, y)
    if kind in (TWO_HIGH_SUITED, TWO_HIGH_OFFSUIT):
        return (kind,)
    return None


def merged_label(codes: list[int]) -> str:
    if len(codes) == 1:
        return pattern_label(codes[0])
    kind, y = codes[0] >> 8, codes[0] & 0xF
    xs = [(c >> 4) & 0xF for c in codes]
    if kind == PAIR:
        return f"pair of {_rank_list(xs, PLURAL)}" if len(set(xs)) < 13 else "any pair"
    if kind == PAIR_KK:
        return f"pair of {_rank_list(xs, PLURAL)} + two kickers"
    if kind == PAIR_K:
        kicker = {12: "ace", 11: "king", 10: "queen", 9: "jack"}.get(y, "low")
        return f"pair of {_rank_list(xs, PLURAL)} + {kicker} kicker"
    if kind == ONE_CARD:
        return f"one card: {_rank_list(xs, NAME)}"
    if kind == CARD_PLUS_LOW:
        return f"{_rank_list(xs, NAME)} + a lower card{' of its suit' if y else ''}"
    pairs = [f"{RANKS[(c >> 4) & 0xF]}{RANKS[c & 0xF]}" for c in codes]
    return f"{', '.join(pairs[:-1])} or {pairs[-1]} {'suited' if kind == TWO_HIGH_SUITED else 'offsuit'}"
