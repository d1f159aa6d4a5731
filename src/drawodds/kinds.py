"""The kinds of hands, named once: every list of hand kinds the library shows or stores comes from here.

Each kind is an enum member carrying its numeric code (the member's value, the index arrays use),
its ``slug`` (the stable name in JSON, history files and typed answers) and its ``label`` (the
words shown to a player). Different questions sort hands differently, so they are different enums:

* ``Category``: the final hand's category, as the evaluator ranks it (codes are ``evaluate``'s).
* ``PolicyPattern``: how a draw policy reads a dealt hand before the draw (``policies``).
* ``DrawKind``: the draws a typed hand range names (``handrange``); each is a ``PolicyPattern``.
* ``StartingHand``: the rows of the strategy chart, a coarse sorting of dealt hands (``patterns``).
* ``HoldType``: the coarse type of a hold, the chart's colours and the trainer's drills (``patterns``).
* ``ReadClass``: what a player may answer a draw count says: a policy pattern (pairs merged), or a
  made hand by category (``ReadClass.of_pattern``).
* ``FinalGroup``: final categories grouped for the guide's reading table.
* ``FinalKind``: the solved game's final hands (pairs cut at jacks).
* ``SolvedKind``: the solved game's dealt hands (pairs cut 2-6, 7-T, then by rank; a
  different cut from ``StartingHand``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Self

from drawodds.evaluate import (
    CATEGORIES,
    FIVE_ACES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)


class _Kind(IntEnum):
    """A kind of hand: the value is its code; ``slug`` and ``label`` are its names."""

    slug: str
    label: str

    # Defining a member passes (code, slug, label); looking one up by its code, ``Category(3)``, passes the code.
    def __new__(cls, code: int, slug: str = "", label: str = "") -> _Kind:
        member = int.__new__(cls, code)
        member._value_ = code
        member.slug = slug
        member.label = label
        return member

    @classmethod
    def slugs(cls) -> tuple[str, ...]:
        """Every member's slug, in code order."""
        return tuple(m.slug for m in cls)

    @classmethod
    def labels(cls) -> tuple[str, ...]:
        """Every member's label, in code order."""
        return tuple(m.label for m in cls)

    @classmethod
    def from_slug(cls, slug: str) -> Self:
        """The member of this slug; KeyError for an unknown one."""
        for m in cls:
            if m.slug == slug:
                return m
        raise KeyError(slug)


class Category(_Kind):
    """The category of a five-card hand (codes: ``evaluate.HIGH_CARD`` ... ``evaluate.FIVE_ACES``)."""

    HIGH_CARD = HIGH_CARD, CATEGORIES[HIGH_CARD], "high card"
    ONE_PAIR = ONE_PAIR, CATEGORIES[ONE_PAIR], "one pair"
    TWO_PAIR = TWO_PAIR, CATEGORIES[TWO_PAIR], "two pair"
    TRIPS = TRIPS, CATEGORIES[TRIPS], "three of a kind"
    STRAIGHT = STRAIGHT, CATEGORIES[STRAIGHT], "straight"
    FLUSH = FLUSH, CATEGORIES[FLUSH], "flush"
    FULL_HOUSE = FULL_HOUSE, CATEGORIES[FULL_HOUSE], "full house"
    QUADS = QUADS, CATEGORIES[QUADS], "four of a kind"
    STRAIGHT_FLUSH = STRAIGHT_FLUSH, CATEGORIES[STRAIGHT_FLUSH], "straight flush"
    FIVE_ACES = FIVE_ACES, CATEGORIES[FIVE_ACES], "five of a kind"

    @property
    def short(self) -> str:
        """The label in a narrow column: ``pair``, ``trips``, ``quads``."""
        return _CATEGORY_SHORT.get(self, self.label)

    @property
    def token(self) -> str:
        """The category as a hand range names it: ``HC``, ``1P``, ... ``5K``."""
        return _CATEGORY_TOKEN[self]

    @property
    def abbreviation(self) -> str:
        """The two characters the keep table writes the category with: ``HC``, ``St``, ``5A``."""
        return _CATEGORY_ABBREVIATION[self]


_CATEGORY_SHORT = {Category.ONE_PAIR: "pair", Category.TRIPS: "trips", Category.QUADS: "quads"}
_CATEGORY_TOKEN = dict(zip(Category, ("HC", "1P", "2P", "3K", "ST", "FL", "FH", "4K", "SF", "5K"), strict=True))
_CATEGORY_ABBREVIATION = dict(zip(Category, ("HC", "1P", "2P", "3K", "St", "Fl", "FH", "4K", "SF", "5A"),
                                  strict=True))


class PolicyPattern(_Kind):
    """How a draw policy reads a dealt hand (first match in the policy's precedence list); SNOW and
    BROKEN are its two deviations (standing pat with a drawing hand, breaking a pat hand)."""

    PAT = 0, "pat", "made hand, stand pat"
    TRIPS = 1, "trips", "three of a kind"
    TWO_PAIR = 2, "two_pair", "two pair"
    PAIR = 3, "pair", "one pair"
    PAIR_KICKER = 4, "pair_with_kicker", "pair + ace kicker"
    FOUR_FLUSH = 5, "four_flush", "four-flush"
    OPEN_ENDED = 6, "open_ended", "open-ended straight draw"
    INSIDE = 7, "inside_straight", "inside straight draw"
    HIGH_CARDS = 8, "high_cards", "high cards only"
    SNOW = 9, "snow", "snow (pat bluff)"
    BROKEN = 10, "broken_pat", "broken straight/flush (to a straight flush)"


class DrawKind(_Kind):
    """A draw a hand range names (in a hand below a straight); its slug is its ``PolicyPattern``'s."""

    FOUR_FLUSH = 0, PolicyPattern.FOUR_FLUSH.slug, "four-flush"
    OPEN_ENDED = 1, PolicyPattern.OPEN_ENDED.slug, "open-ended straight draw"
    GUTSHOT = 2, PolicyPattern.INSIDE.slug, "gutshot"

    @property
    def pattern(self) -> PolicyPattern:
        """The policy pattern of the same draw."""
        return PolicyPattern.from_slug(self.slug)


class StartingHand(_Kind):
    """A row of the strategy chart: the best thing a dealt hand starts with (pairs by rank down to
    tens, then 7-9 and 2-6; nothing by its top card)."""

    STRAIGHT_OR_BETTER = 0, "straight_or_better", "straight or better"
    TRIPS = 1, "trips", "three of a kind"
    TWO_PAIR = 2, "two_pair", "two pair"
    ACES = 3, "pair_of_aces", "pair of aces"
    KINGS = 4, "pair_of_kings", "pair of kings"
    QUEENS = 5, "pair_of_queens", "pair of queens"
    JACKS = 6, "pair_of_jacks", "pair of jacks"
    TENS = 7, "pair_of_tens", "pair of tens"
    SEVENS_TO_NINES = 8, "pair_7_9", "pair 7s-9s"
    DEUCES_TO_SIXES = 9, "pair_2_6", "pair 2s-6s"
    FOUR_FLUSH = 10, "four_flush", "four-flush"
    OPEN_ENDED = 11, "open_ended", "open-ended straight draw"
    ACE_HIGH = 12, "ace_high", "ace high"
    KING_HIGH = 13, "king_high", "king high"
    QUEEN_HIGH_OR_LESS = 14, "queen_high_or_less", "queen high or less"


class HoldType(_Kind):
    """The coarse type of a hold (a group of ``patterns.HoldKind``); the slug is the trainer's name
    of the drill."""

    PAT = 0, "pat", "stand pat"
    MADE = 1, "made", "keep trips / two pair / quads"
    PAIR = 2, "pair", "keep the pair"
    KICKER = 3, "kicker", "pair + kicker"
    FLUSH_DRAW = 4, "flush-draw", "flush draw"
    STRAIGHT_DRAW = 5, "straight-draw", "straight draw"
    SF_DRAW = 6, "sf-draw", "straight-flush draw"
    TWO_CARDS = 7, "two-cards", "two cards"
    ONE_CARD = 8, "one-card", "one card"
    DRAW_FIVE = 9, "draw-five", "draw five"
    OTHER = 10, "other", "other"


class ReadClass(_Kind):
    """What a player may answer when asked what a draw count says: a policy pattern (pairs with
    or without a kicker merged), a made hand by category, a bluff (snow) or a broken pat."""

    PAIR = 0, "pair", "pair"
    TWO_PAIR = 1, "two pair", "two pair"
    TRIPS = 2, "trips", "trips"
    FOUR_FLUSH = 3, "four flush", "four flush"
    OPEN_ENDED = 4, "open-ended", "open-ended"
    INSIDE = 5, "inside straight", "inside straight"
    HIGH_CARDS = 6, "high cards", "high cards"
    STRAIGHT = 7, "straight", "straight"
    FLUSH = 8, "flush", "flush"
    FULL_HOUSE = 9, "full house", "full house"
    QUADS = 10, "four of a kind", "four of a kind"
    STRAIGHT_FLUSH = 11, "straight flush", "straight flush"
    BLUFF = 12, "bluff", "bluff"
    BROKEN = 13, "broken pat", "broken pat"
    FIVE_ACES = 14, "five of a kind", "five of a kind"

    @classmethod
    def of_pattern(cls, pattern: PolicyPattern, category: Category = Category.HIGH_CARD) -> ReadClass:
        """The class of a holding read as ``pattern`` (a pat hand: by its ``category``)."""
        if pattern is PolicyPattern.PAT:
            return _READ_OF_CATEGORY[category]
        return _READ_OF_PATTERN[pattern]


_READ_OF_PATTERN = {PolicyPattern.TRIPS: ReadClass.TRIPS, PolicyPattern.TWO_PAIR: ReadClass.TWO_PAIR,
                    PolicyPattern.PAIR: ReadClass.PAIR, PolicyPattern.PAIR_KICKER: ReadClass.PAIR,
                    PolicyPattern.FOUR_FLUSH: ReadClass.FOUR_FLUSH, PolicyPattern.OPEN_ENDED: ReadClass.OPEN_ENDED,
                    PolicyPattern.INSIDE: ReadClass.INSIDE, PolicyPattern.HIGH_CARDS: ReadClass.HIGH_CARDS,
                    PolicyPattern.SNOW: ReadClass.BLUFF, PolicyPattern.BROKEN: ReadClass.BROKEN}
_READ_OF_CATEGORY = {Category.HIGH_CARD: ReadClass.HIGH_CARDS, Category.ONE_PAIR: ReadClass.PAIR,
                     Category.TWO_PAIR: ReadClass.TWO_PAIR, Category.TRIPS: ReadClass.TRIPS,
                     Category.STRAIGHT: ReadClass.STRAIGHT, Category.FLUSH: ReadClass.FLUSH,
                     Category.FULL_HOUSE: ReadClass.FULL_HOUSE, Category.QUADS: ReadClass.QUADS,
                     Category.STRAIGHT_FLUSH: ReadClass.STRAIGHT_FLUSH, Category.FIVE_ACES: ReadClass.FIVE_ACES}


class FinalGroup(_Kind):
    """Final categories grouped into the guide's columns (``categories`` lists the members)."""

    HIGH_CARD = 0, "high_card", "high card"
    ONE_PAIR = 1, "one_pair", "one pair"
    TWO_PAIR = 2, "two_pair", "two pair"
    TRIPS = 3, "three_of_a_kind", "three of a kind"
    STRAIGHT_OR_FLUSH = 4, "straight_or_flush", "straight or flush"
    FULL_HOUSE_OR_BETTER = 5, "full_house_or_better", "full house or better"

    @property
    def categories(self) -> tuple[Category, ...]:
        """The categories this group holds."""
        return tuple(c for c in Category if _FINAL_GROUP_OF[c] is self)


_FINAL_GROUP_OF = {Category.HIGH_CARD: FinalGroup.HIGH_CARD, Category.ONE_PAIR: FinalGroup.ONE_PAIR,
                   Category.TWO_PAIR: FinalGroup.TWO_PAIR, Category.TRIPS: FinalGroup.TRIPS,
                   Category.STRAIGHT: FinalGroup.STRAIGHT_OR_FLUSH, Category.FLUSH: FinalGroup.STRAIGHT_OR_FLUSH,
                   **{c: FinalGroup.FULL_HOUSE_OR_BETTER for c in Category if c >= Category.FULL_HOUSE}}


class FinalKind(_Kind):
    """The solved game's final hands: categories, one pair cut at jacks, full house and up merged."""

    HIGH_CARD = 0, "high_card", "high card"
    PAIR_BELOW_JACKS = 1, "pair_below_jacks", "pair below jacks"
    JACKS_OR_BETTER = 2, "jacks_or_better", "jacks or better"
    TWO_PAIR = 3, "two_pair", "two pair"
    TRIPS = 4, "trips", "trips"
    STRAIGHT = 5, "straight", "straight"
    FLUSH = 6, "flush", "flush"
    FULL_HOUSE_OR_BETTER = 7, "full_house_or_better", "full house or better"


class SolvedKind(_Kind):
    """The solved game's dealt hands: nothing by its top card, three- and four-card draws, pairs
    (2-6, 7-T, then jacks to aces one by one), two pair and up by category."""

    QUEEN_HIGH_OR_LESS = 0, "queen_high_or_less", "nothing, queen high or less"
    KING_HIGH = 1, "king_high", "nothing, king high"
    ACE_HIGH = 2, "ace_high", "nothing, ace high"
    THREE_CARD_DRAW = 3, "three_card_draw", "three-card draw"
    FOUR_CARD_DRAW = 4, "four_card_draw", "four-card draw"
    DEUCES_TO_SIXES = 5, "pair_2_6", "pair of deuces to sixes"
    SEVENS_TO_TENS = 6, "pair_7_10", "pair of sevens to tens"
    JACKS = 7, "pair_of_jacks", "pair of jacks"
    QUEENS = 8, "pair_of_queens", "pair of queens"
    KINGS = 9, "pair_of_kings", "pair of kings"
    ACES = 10, "pair_of_aces", "pair of aces"
    TWO_PAIR = 11, "two_pair", "two pair"
    TRIPS = 12, "trips", "trips"
    STRAIGHT = 13, "straight", "straight"
    FLUSH = 14, "flush", "flush"
    FULL_HOUSE_OR_BETTER = 15, "full_house_or_better", "full house or better"
