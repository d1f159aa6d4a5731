"""Cards as small integers: parsing every way a person writes a hand, and formatting back.

Encoding: ``card = rank * 4 + suit`` with rank 0 = deuce ... 12 = ace and suit
0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades (alphabetical, as most libraries do).
The joker ("bug") is 52. Hands are numpy arrays of shape ``(..., 5)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds import i18n
from drawodds.errors import DrawoddsError
from drawodds.i18n import N_

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER = 52
DECK_SIZE = 52
# The ranks' names in English (catalog entries: ``i18n.worded`` gives them in the reader's language).
RANK_NAMES = (N_("deuce"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"),
              N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"), N_("ace"))
RANK_PLURALS = (N_("deuces"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"), N_("sevens"), N_("eights"),
                N_("nines"), N_("tens"), N_("jacks"), N_("queens"), N_("kings"), N_("aces"))
SUIT_GLYPHS = "♣♦♥♠"
_SUIT_ALIASES = {"c": 0, "d": 1, "h": 2, "s": 3,
                 "♣": 0, "♦": 1, "♥": 2, "♠": 3,
                 "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 8}
_JOKER_WORDS = ("jk", "joker", "jo", "🃏")
_SHOWN_TOKEN = 12   # longest piece of the user's input echoed back in an error

# One card: a rank (10, 1-9, T J Q K A) then a suit letter or symbol, or the joker "Jk"/"Joker"/🃏.
_TOKEN = re.compile(r"(joker|jk|🃏|10|[1-9tjqka])([cdhs♣♦♥♠♧♢♡♤]?)", re.IGNORECASE)


@dataclass(frozen=True)
class _Notation:
    """The ranks, suits and joker words one way of writing cards accepts."""

    ranks: Mapping[str, int]
    suits: Mapping[str, int]
    jokers: tuple[str, ...]
    token: re.Pattern[str]


_ENGLISH = _Notation(_RANK_ALIASES, _SUIT_ALIASES, _JOKER_WORDS, _TOKEN)
# Swedish and Norwegian players write E (ess), K, D (dam/dame), Kn (knekt), 10 and the suits s h r k
# (spader/spar, hjärter/hjerter, ruter, klöver/kløver), the joker X; the English notation works too.
# "Jk" would be the joker in English and the jack of clubs (J + k) here: it is refused as ambiguous.
_NORDIC = _Notation(_RANK_ALIASES | {"E": 12, "D": 10, "KN": 9},
                    _SUIT_ALIASES | {"r": 1, "k": 0},
                    ("joker", "jo", "x", "🃏"),
                    re.compile(r"(joker|🃏|x|10|kn|[1-9tjqkaed])([cdhsrk♣♦♥♠♧♢♡♤]?)", re.IGNORECASE))
_AMBIGUOUS = "jk"
_NORDIC_LANGUAGES = frozenset({"sv", "nb"})


def _notation() -> _Notation:
    """The notation of the current language: Swedish and Norwegian add theirs to the English one."""
    return _NORDIC if i18n.language() in _NORDIC_LANGUAGES else _ENGLISH


Hand = npt.NDArray[np.int8]


class CardError(DrawoddsError):
    """Bad card input: names the offending token and its 1-based position in the hand."""


def shown(text: str) -> str:
    """User input made safe to echo in one line: control characters escaped, long input cut."""
    safe = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return safe if len(safe) <= _SHOWN_TOKEN else safe[:_SHOWN_TOKEN - 3] + "..."


def card_from_text(token: str, position: int = 1, *, joker: bool = False) -> int:
    """Parse one card token such as ``As``, ``10h``, ``t♠``, ``Jk`` or ``🃏`` (under Swedish or
    Norwegian also ``Es``, ``Kns``, ``Dr``, ``10k`` or ``X``)."""
    notation = _notation()
    text = shown(token.strip())
    low = token.strip().lower()
    if low in notation.jokers:
        if not joker:
            raise CardError("card {position} '{text}': a joker, but this deck has none (use a rule set with the "
                            "joker, e.g. {joker})", "joker", position=position, text=text)
        return JOKER
    if low == _AMBIGUOUS and notation is _NORDIC:
        raise CardError("card {position} '{text}': the joker or the jack of clubs? Write the joker as X or Joker, "
                        "the jack of clubs as Knk or Jc", position=position, text=text)
    if len(text) < 2 or (notation is _NORDIC and low.upper() in notation.ranks):
        raise CardError("card {position} '{text}': a card is a rank and a suit, like 'As' or '10h'",
                        position=position, text=text)
    rank_text, suit_text = low[:-1], low[-1]
    if rank_text == "1" and suit_text in notation.suits:
        raise CardError("card {position} '{text}': no rank '1'; did you mean 10{suit} or A{suit}?",
                        position=position, text=text, suit=suit_text)
    if rank_text.upper() not in notation.ranks:
        raise CardError("card {position} '{text}': unknown rank '{rank}' (use 2-9, T or 10, J, Q, K, A)",
                        position=position, text=text, rank=shown(rank_text))
    if suit_text not in notation.suits:
        raise CardError("card {position} '{text}': unknown suit '{suit}' (use c d h s or ♣ ♦ ♥ ♠)",
                        position=position, text=text, suit=shown(suit_text))
    return notation.ranks[rank_text.upper()] * 4 + notation.suits[suit_text]


def split_tokens(text: str) -> list[str]:
    """Split hand text into card tokens, with or without separators (``AsKh``, ``As Kh``, ``as,kh``)."""
    notation = _notation()
    tokens: list[str] = []
    for chunk in re.split(r"[\s,;/|]+", text.strip()):
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            m = notation.token.match(chunk, pos)
            if m is None or (not m.group(2) and m.group(1).lower() not in notation.jokers):
                # Not a card: report the rest of the chunk (up to the next plausible card).
                bad = chunk[pos:pos + 3] if m is None else chunk[pos:m.end() + 1]
                tokens.append(bad)
                break
            tokens.append(m.group(0))
            pos = m.end()
    return tokens


def parse_cards(text: str | Iterable[str], *, joker: bool = False) -> list[int]:
    """Parse any number of distinct cards (a hand, dead cards, a hold)."""
    tokens = split_tokens(text) if isinstance(text, str) else [str(t) for t in text]
    cards: list[int] = []
    for i, token in enumerate(tokens, start=1):
        _add_distinct(cards, card_from_text(token, i, joker=joker), i, token)
    return cards


def _add_distinct(cards: list[int], card: int, i: int, written: str) -> None:
    """Append the ``i``-th card (``written`` as the user gave it), refusing one already in ``cards``."""
    if card in cards:
        raise CardError("card {position} '{text}': duplicate of card {first}", position=i, text=written,
                        first=cards.index(card) + 1)
    cards.append(card)


def _sized_hand(cards: list[int], size: int) -> Hand:
    """The hand of ``cards`` as an int8 array, refused unless it has exactly ``size`` of them."""
    if len(cards) != size:
        if not cards:
            raise CardError("a hand has {size} cards; got {count}", size=size, count=0)
        raise CardError("a hand has {size} cards; got {count} ({cards})", size=size, count=len(cards),
                        cards=" ".join(card_str(c) for c in cards))
    return np.asarray(cards, dtype=np.int8)


def parse_hand(text: str | Iterable[str], *, joker: bool = False, size: int = 5) -> Hand:
    """Parse a hand of exactly ``size`` distinct cards into an int8 array of shape (size,).

    >>> parse_hand("AsAhKs7s3s").tolist()
    [51, 50, 47, 23, 7]
    >>> parse_hand("10h j♠ Q♦ kc jk", joker=True).tolist()
    [34, 39, 41, 44, 52]
    >>> parse_hand("As Ah Ks 7s 1s")
    Traceback (most recent call last):
    ...
    drawodds.cards.CardError: card 5 '1s': no rank '1'; did you mean 10s or As?
    >>> parse_hand("As Ah As 7s 3s")
    Traceback (most recent call last):
    ...
    drawodds.cards.CardError: card 3 'As': duplicate of card 1
    """
    return _sized_hand(parse_cards(text, joker=joker), size)


def as_hand(hand: str | Iterable[str] | Sequence[int] | npt.NDArray[np.integer], *, joker: bool = False,
            size: int = 5) -> Hand:
    """A hand as the layers below the entry functions take it: text is parsed (``parse_hand``),
    card codes are checked as they are (each a card of the deck, no card twice, ``size`` of them)."""
    if isinstance(hand, str) or (not isinstance(hand, np.ndarray) and any(isinstance(c, str) for c in hand)):
        return parse_hand(hand, joker=joker, size=size)       # type: ignore[arg-type]
    codes = np.asarray(hand).ravel()
    if codes.dtype.kind not in "iu":
        raise CardError("a hand is text or card numbers, got {kind} values", kind=codes.dtype)
    cards: list[int] = []
    for i, code in enumerate(codes.tolist(), start=1):
        if not 0 <= code < DECK_SIZE + int(joker):
            if code == JOKER and not joker:
                raise CardError("card {position}: {code} is not a card number (0-{last}); the joker needs a rule "
                                "set with it", position=i, code=code, last=DECK_SIZE - 1)
            raise CardError("card {position}: {code} is not a card number (0-{last})", position=i, code=code,
                            last=DECK_SIZE - 1 + int(joker))
        _add_distinct(cards, code, i, card_str(code))
    return _sized_hand(cards, size)


def card_str(card: int, *, pretty: bool = False) -> str:
    """One card as ``As`` (canonical) or ``A♠`` (pretty); the joker is ``Jk`` / ``🃏``."""
    card = int(card)
    if card == JOKER:
        return "🃏" if pretty else "Jk"
    if not 0 <= card < DECK_SIZE:
        raise CardError("{card} is not a card number (0-52)", card=card)
    return RANKS[card // 4] + (SUIT_GLYPHS if pretty else SUITS)[card % 4]


def format_cards(cards: Sequence[int] | npt.NDArray[np.integer], *, pretty: bool = False) -> list[str]:
    """Cards as a list of canonical strings, e.g. ``['As', 'Ah']``."""
    return [card_str(int(c), pretty=pretty) for c in np.asarray(cards).ravel()]


def format_hand(cards: Sequence[int] | npt.NDArray[np.integer], *, pretty: bool = False) -> str:
    """A hand as ``As Ah Ks 7s 3s`` (or ``A♠ A♥ K♠ 7♠ 3♠`` with ``pretty``).

    >>> format_hand([51, 50, 47, 23, 7])
    'As Ah Ks 7s 3s'
    >>> format_hand([51, 52], pretty=True)
    'A♠ 🃏'
    """
    return " ".join(format_cards(cards, pretty=pretty))


def unseen(known: Iterable[int], *, joker: bool = False) -> npt.NDArray[np.int8]:
    """The deck less the known cards, in card order."""
    mask = np.ones(DECK_SIZE + int(joker), dtype=bool)
    mask[np.fromiter((int(c) for c in known), dtype=np.int64)] = False
    return np.flatnonzero(mask).astype(np.int8)
