"""Hand ranges as players type them: ``"JJ+, 2P+, 4F, OESD"`` -> which dealt hands are in it.

A range is a list of terms separated by commas (or spaces); a hand is in the range when it
matches any term (the union). Case does not matter. The terms:

==============  ===============================================================================
term            dealt hands it matches
==============  ===============================================================================
``77``          exactly one pair, of sevens (two pair, trips and better are not "77")
``JJ+``         exactly one pair, of jacks or a higher rank: jacks, queens, kings or aces.
                ``+`` climbs the pairs only: jacks or better *including* two pair and up is
                ``JJ+, 2P+``
``22-66``       exactly one pair, of deuces up to sixes (either order)
``HC``          high card: no pair, no straight, no flush (``nothing``)
``1P``          exactly one pair, any rank (``pair``)
``2P``          two pair
``3K``          three of a kind (``trips``)
``ST``          a straight (not a straight flush)
``FL``          a flush (not a straight flush)
``FH``          a full house
``4K``          four of a kind (``quads``)
``SF``          a straight flush, royal included
``5K``          five aces (the joker deck only)
``2P+``         that category or better, in the order above: ``ST+`` is every pat hand
``4F``          four cards of one suit, in a hand below a straight (a pair may come with it)
``OESD``        an open-ended straight draw: four consecutive ranks that two ranks complete
                (A-2-3-4 and J-Q-K-A are inside draws), in a hand below a straight
``GS``          a gutshot: only an inside straight draw (one rank completes it), below a straight
``AK``          high card (as ``HC``) with an ace and a king as the two highest cards
``AQ+``         high card, an ace on top and a queen or higher second: ``AQ`` or ``AK``
``Kx``          high card, king high; ``Kx+``: king or ace high
``any``         every hand (also ``*``)
==============  ===============================================================================

The draws are those the draw policies read (``patterns.dealt_features``): a straight draw is
open-ended when two ranks complete it, inside when one does. A made straight or flush is not a
draw. With the joker (the "bug") a hand reads as the evaluator reads it: the joker is an ace, or
completes a straight or a flush; so joker + ace is a pair of aces (``AA``), joker + four of a
suit a flush (``FL``), joker + three of a suit a four-flush (``4F``) and the joker fills a gap
of a straight draw; ``5K`` is four aces and the joker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from drawodds.cards import RANK_PLURALS, RANKS
from drawodds.errors import RequestError
from drawodds.evaluate import (
    FIVE_ACES,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
)
from drawodds.kinds import Category, DrawKind
from drawodds.patterns import DealtFeatures, dealt_features

CATEGORY_TOKENS = {**{c.token: c for c in Category}, "NOTHING": Category.HIGH_CARD, "PAIR": Category.ONE_PAIR,
                   "TRIPS": Category.TRIPS, "QUADS": Category.QUADS}
DRAW_TOKENS = {"4F": DrawKind.FOUR_FLUSH, "OESD": DrawKind.OPEN_ENDED, "GS": DrawKind.GUTSHOT}
ACCEPTED = ("pairs (77, JJ+, 22-66), categories (HC 1P 2P 3K ST FL FH 4K SF 5K, + for that or "
            "better), draws (4F OESD GS), high cards (AK, AQ+, Kx, Kx+) or any")
CHUNK = 1 << 18   # hands per block of dealt_features

_PAIR = re.compile(r"^([2-9TJQKA])\1(\+)?$")
_PAIRS = re.compile(r"^([2-9TJQKA])\1-([2-9TJQKA])\2$")
_HIGH = re.compile(r"^([2-9TJQKA])([2-9TJQKA]|X)(\+)?$")


class Term(NamedTuple):
    """One term of a range: ``kind`` is "cat", "pair", "high", "draw" or "any"; ``lo``..``hi``
    the categories, pair ranks, or second-card ranks (high cards, ``top`` the top rank range
    start; ``top_hi`` its end) it allows."""

    kind: str
    lo: int = 0
    hi: int = 0
    top: int = 0
    top_hi: int = 0


def _term(token: str) -> Term:
    """One token (upper case) as a term; RequestError naming it when it is not one."""
    if token in ("ANY", "*"):
        return Term("any")
    plus = token.endswith("+")
    base = token[:-1] if plus else token
    if base in CATEGORY_TOKENS:
        c = int(CATEGORY_TOKENS[base])
        return Term("cat", c, FIVE_ACES if plus else c)
    if base in DRAW_TOKENS:
        if plus:
            raise RequestError("range term {token}: '+' follows a pair, a category or high cards, not a draw",
                               token=repr(token))
        return Term("draw", int(DRAW_TOKENS[base]))
    if m := _PAIR.match(token):
        r = RANKS.index(m[1])
        return Term("pair", r, 12 if plus else r)
    if m := _PAIRS.match(token):
        a, b = sorted((RANKS.index(m[1]), RANKS.index(m[2])))
        return Term("pair", a, b)
    if m := _HIGH.match(token):
        top = RANKS.index(m[1])
        if m[2] == "X":   # X high: the top card's rank (or higher, with +)
            return Term("high", 0, 12, top, 12 if m[3] else top)
        second = RANKS.index(m[2])
        if second < top:
            return Term("high", second, top - 1 if m[3] else second, top, top)
        if second > top:
            raise RequestError("range term {token}: write the higher card first ({written})", token=repr(token),
                               written=m[2] + m[1] + (m[3] or ""))
    raise RequestError("unknown range term {token}; use {accepted}", token=repr(token), accepted=ACCEPTED)


def _typed_term(token: str) -> Term:
    """``_term`` of a term as typed; an error names it as typed, and says that a range names kinds
    of hands when it looks like cards (``AsAh``)."""
    try:
        return _term(token.upper())
    except RequestError as exc:
        cards = re.fullmatch(r"(?:[2-9TJQKA][cdhs]){1,5}", token, flags=re.IGNORECASE) is not None
        values = {**exc.values, "token": repr(token)} if "token" in exc.values else exc.values
        typed = RequestError(exc.template, *exc.parameters, **values)
        if cards:
            raise RequestError("{reason}; a range names kinds of hands (AA, 2P+), not single cards",
                               *exc.parameters, reason=typed) from None
        raise typed from None


def _describe(term: Term) -> str:
    """A term in words (for summaries and the reading's header)."""
    if term.kind == "any":
        return "any hand"
    if term.kind == "cat":
        name = Category(term.lo).label
        return name + (" or better" if term.hi > term.lo else "")
    if term.kind == "pair":
        if term.lo == term.hi:
            return f"pair of {RANK_PLURALS[term.lo]}"
        return f"pair of {RANK_PLURALS[term.lo]} to {RANK_PLURALS[term.hi]}"
    if term.kind == "draw":
        return DrawKind(term.lo).label
    if term.lo == 0 and term.hi == 12:
        return f"{RANKS[term.top]} high" + (" or better" if term.top_hi > term.top else "")
    top = RANKS[term.top]
    if term.lo == term.hi:
        return f"{top}{RANKS[term.lo]} high"
    return f"{top}{RANKS[term.lo]} to {top}{RANKS[term.hi]} high"


@dataclass(frozen=True)
class HandRange:
    """A parsed range: its terms and the text they were read from (normalized: upper case,
    one comma and a space between terms)."""

    text: str
    terms: tuple[Term, ...]

    def describe(self) -> str:
        """The range in words, e.g. ``pair of jacks to aces, two pair or better``."""
        return ", ".join(_describe(t) for t in self.terms)

    def matches(self, f: DealtFeatures) -> npt.NDArray[np.bool_]:
        """Whether each hand of precomputed features is in the range."""
        n = len(f.category)
        out = np.zeros(n, dtype=bool)
        category = f.category
        below_straight = category < STRAIGHT
        top = second = None
        for t in self.terms:
            if t.kind == "any":
                out[:] = True
            elif t.kind == "cat":
                out |= (category >= t.lo) & (category <= t.hi)
            elif t.kind == "pair":
                out |= (category == ONE_PAIR) & (f.pair_rank >= t.lo) & (f.pair_rank <= t.hi)
            elif t.kind == "draw":
                draw = (f.has_flush4, f.open_ended, f.inside)[t.lo]
                out |= draw & below_straight
            else:
                if top is None:
                    ranks = np.sort(f.rank, axis=1)   # the joker counts as an ace, as for pairs
                    top, second = ranks[:, 4], ranks[:, 3]
                assert second is not None
                out |= ((category == HIGH_CARD) & (top >= t.top) & (top <= t.top_hi)
                        & (second >= t.lo) & (second <= t.hi))
        return out

    def mask(self, cards: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Whether each dealt hand (rows of five card codes) is in the range (vectorized)."""
        h = np.asarray(cards)
        if h.ndim != 2 or h.shape[1] != 5:
            raise RequestError("hands must have shape (N, 5), got {shape}", shape=h.shape)
        if len(h) == 0:
            return np.zeros(0, dtype=bool)
        return np.concatenate([self.matches(dealt_features(h[i:i + CHUNK])) for i in range(0, len(h), CHUNK)])


def parse_range(text: str, *, joker: bool = False) -> HandRange:
    """Read a range typed as ``"JJ+, 2P+, 4F, OESD"`` (grammar in the module docstring).

    An unknown term raises a one-line ``RequestError`` naming it and listing what is accepted;
    ``5K`` (five aces) needs ``joker=True``.

    >>> jacks_up = parse_range("jj+, 2p+, 4f")
    >>> jacks_up.text
    'JJ+, 2P+, 4F'
    >>> jacks_up.describe()
    'pair of jacks to aces, two pair or better, four-flush'
    >>> from drawodds.cards import parse_hand
    >>> hands = [parse_hand("JsJh4c3d2s"), parse_hand("TsTh4c3d2s"), parse_hand("As9s6s2s3h")]
    >>> jacks_up.mask(hands).tolist()
    [True, False, True]
    >>> parse_range("QQ, pairs")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    drawodds.errors.RequestError: unknown range term 'pairs'; use pairs (77, JJ+, 22-66), ...
    """
    typed = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if not typed:
        raise RequestError("the range is empty; use {accepted}", accepted=ACCEPTED)
    terms = tuple(_typed_term(t) for t in typed)
    if not joker and any(t.kind == "cat" and t.lo == FIVE_ACES for t in terms):
        raise RequestError("range term '5K' (five aces) needs the joker deck")
    tokens = [t.upper() for t in typed]
    return HandRange(", ".join(t[:-1] + "x" if t.endswith("X") else t.replace("X+", "x+") for t in tokens), terms)
