"""The kinds of hands, named once: every list of hand kinds the library shows or stores comes from here.

Each kind is an enum member carrying its numeric code (the member's value, the index arrays use),
its ``slug`` (the stable name in JSON, history files and typed answers) and its ``label`` (the
words shown to a player, in English as data keeps it; ``words`` is it in the reader's language).
Different questions sort hands differently, so they are different enums:

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
from drawodds.i18n import N_, _, pgettext


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

    @property
    def words(self) -> str:
        """The label in the reader's language (``label`` is the English one, which data keeps)."""
        return _(self.label)

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

    HIGH_CARD = HIGH_CARD, CATEGORIES[HIGH_CARD], N_("high card")
    ONE_PAIR = ONE_PAIR, CATEGORIES[ONE_PAIR], N_("one pair")
    TWO_PAIR = TWO_PAIR, CATEGORIES[TWO_PAIR], N_("two pair")
    TRIPS = TRIPS, CATEGORIES[TRIPS], N_("three of a kind")
    STRAIGHT = STRAIGHT, CATEGORIES[STRAIGHT], N_("straight")
    FLUSH = FLUSH, CATEGORIES[FLUSH], N_("flush")
    FULL_HOUSE = FULL_HOUSE, CATEGORIES[FULL_HOUSE], N_("full house")
    QUADS = QUADS, CATEGORIES[QUADS], N_("four of a kind")
    STRAIGHT_FLUSH = STRAIGHT_FLUSH, CATEGORIES[STRAIGHT_FLUSH], N_("straight flush")
    FIVE_ACES = FIVE_ACES, CATEGORIES[FIVE_ACES], N_("five of a kind")

    @property
    def short(self) -> str:
        """The label in a narrow column, in the reader's language: ``pair``, ``trips``, ``quads``."""
        return _(_CATEGORY_SHORT.get(self, self.label))

    @property
    def token(self) -> str:
        """The category as a hand range names it: ``HC``, ``1P``, ... ``5K``."""
        return _CATEGORY_TOKEN[self]

    @property
    def abbreviation(self) -> str:
        """The two characters the keep table writes the category with: ``HC``, ``St``, ``5A`` (in the
        reader's language)."""
        return _category_abbreviations()[self]


_CATEGORY_SHORT = {Category.ONE_PAIR: N_("pair"), Category.TRIPS: N_("trips"), Category.QUADS: N_("quads")}
_CATEGORY_TOKEN = dict(zip(Category, ("HC", "1P", "2P", "3K", "ST", "FL", "FH", "4K", "SF", "5K"), strict=True))


def _category_abbreviations() -> dict[Category, str]:
    """The keep table's two-character names of the categories, in the reader's language."""
    return dict(zip(Category, (pgettext("hand abbreviation", "HC"), pgettext("hand abbreviation", "1P"),
                               pgettext("hand abbreviation", "2P"), pgettext("hand abbreviation", "3K"),
                               pgettext("hand abbreviation", "St"), pgettext("hand abbreviation", "Fl"),
                               pgettext("hand abbreviation", "FH"), pgettext("hand abbreviation", "4K"),
                               pgettext("hand abbreviation", "SF"), pgettext("hand abbreviation", "5A")),
                    strict=True))


class PolicyPattern(_Kind):
    """How a draw policy reads a dealt hand (first match in the policy's precedence list); SNOW and
    BROKEN are its two deviations (standing pat with a drawing hand, breaking a pat hand)."""

    PAT = 0, "pat", N_("made hand, stand pat")
    TRIPS = 1, "trips", N_("three of a kind")
    TWO_PAIR = 2, "two_pair", N_("two pair")
    PAIR = 3, "pair", N_("one pair")
    PAIR_KICKER = 4, "pair_with_kicker", N_("pair + ace kicker")
    FOUR_FLUSH = 5, "four_flush", N_("four-flush")
    OPEN_ENDED = 6, "open_ended", N_("open-ended straight draw")
    INSIDE = 7, "inside_straight", N_("inside straight draw")
    HIGH_CARDS = 8, "high_cards", N_("high cards only")
    SNOW = 9, "snow", N_("snow (pat bluff)")
    BROKEN = 10, "broken_pat", N_("broken straight/flush (to a straight flush)")


class DrawKind(_Kind):
    """A draw a hand range names (in a hand below a straight); its slug is its ``PolicyPattern``'s."""

    FOUR_FLUSH = 0, PolicyPattern.FOUR_FLUSH.slug, N_("four-flush")
    OPEN_ENDED = 1, PolicyPattern.OPEN_ENDED.slug, N_("open-ended straight draw")
    GUTSHOT = 2, PolicyPattern.INSIDE.slug, N_("gutshot")

    @property
    def pattern(self) -> PolicyPattern:
        """The policy pattern of the same draw."""
        return PolicyPattern.from_slug(self.slug)


class StartingHand(_Kind):
    """A row of the strategy chart: the best thing a dealt hand starts with (pairs by rank down to
    tens, then 7-9 and 2-6; nothing by its top card)."""

    STRAIGHT_OR_BETTER = 0, "straight_or_better", N_("straight or better")
    TRIPS = 1, "trips", N_("three of a kind")
    TWO_PAIR = 2, "two_pair", N_("two pair")
    ACES = 3, "pair_of_aces", N_("pair of aces")
    KINGS = 4, "pair_of_kings", N_("pair of kings")
    QUEENS = 5, "pair_of_queens", N_("pair of queens")
    JACKS = 6, "pair_of_jacks", N_("pair of jacks")
    TENS = 7, "pair_of_tens", N_("pair of tens")
    SEVENS_TO_NINES = 8, "pair_7_9", N_("pair 7s-9s")
    DEUCES_TO_SIXES = 9, "pair_2_6", N_("pair 2s-6s")
    FOUR_FLUSH = 10, "four_flush", N_("four-flush")
    OPEN_ENDED = 11, "open_ended", N_("open-ended straight draw")
    ACE_HIGH = 12, "ace_high", N_("ace high")
    KING_HIGH = 13, "king_high", N_("king high")
    QUEEN_HIGH_OR_LESS = 14, "queen_high_or_less", N_("queen high or less")


class HoldType(_Kind):
    """The coarse type of a hold (a group of ``patterns.HoldKind``); the slug is the trainer's name
    of the drill."""

    PAT = 0, "pat", N_("stand pat")
    MADE = 1, "made", N_("keep trips / two pair / quads")
    PAIR = 2, "pair", N_("keep the pair")
    KICKER = 3, "kicker", N_("pair + kicker")
    FLUSH_DRAW = 4, "flush-draw", N_("flush draw")
    STRAIGHT_DRAW = 5, "straight-draw", N_("straight draw")
    SF_DRAW = 6, "sf-draw", N_("straight-flush draw")
    TWO_CARDS = 7, "two-cards", N_("two cards")
    ONE_CARD = 8, "one-card", N_("one card")
    DRAW_FIVE = 9, "draw-five", N_("draw five")
    OTHER = 10, "other", N_("other")


class ReadClass(_Kind):
    """What a player may answer when asked what a draw count says: a policy pattern (pairs with
    or without a kicker merged), a made hand by category, a bluff (snow) or a broken pat."""

    PAIR = 0, "pair", N_("pair")
    TWO_PAIR = 1, "two pair", N_("two pair")
    TRIPS = 2, "trips", N_("trips")
    FOUR_FLUSH = 3, "four flush", N_("four flush")
    OPEN_ENDED = 4, "open-ended", N_("open-ended")
    INSIDE = 5, "inside straight", N_("inside straight")
    HIGH_CARDS = 6, "high cards", N_("high cards")
    STRAIGHT = 7, "straight", N_("straight")
    FLUSH = 8, "flush", N_("flush")
    FULL_HOUSE = 9, "full house", N_("full house")
    QUADS = 10, "four of a kind", N_("four of a kind")
    STRAIGHT_FLUSH = 11, "straight flush", N_("straight flush")
    BLUFF = 12, "bluff", N_("bluff")
    BROKEN = 13, "broken pat", N_("broken pat")
    FIVE_ACES = 14, "five of a kind", N_("five of a kind")

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

    HIGH_CARD = 0, "high_card", N_("high card")
    ONE_PAIR = 1, "one_pair", N_("one pair")
    TWO_PAIR = 2, "two_pair", N_("two pair")
    TRIPS = 3, "three_of_a_kind", N_("three of a kind")
    STRAIGHT_OR_FLUSH = 4, "straight_or_flush", N_("straight or flush")
    FULL_HOUSE_OR_BETTER = 5, "full_house_or_better", N_("full house or better")

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

    HIGH_CARD = 0, "high_card", N_("high card")
    PAIR_BELOW_JACKS = 1, "pair_below_jacks", N_("pair below jacks")
    JACKS_OR_BETTER = 2, "jacks_or_better", N_("jacks or better")
    TWO_PAIR = 3, "two_pair", N_("two pair")
    TRIPS = 4, "trips", N_("trips")
    STRAIGHT = 5, "straight", N_("straight")
    FLUSH = 6, "flush", N_("flush")
    FULL_HOUSE_OR_BETTER = 7, "full_house_or_better", N_("full house or better")


class SolvedKind(_Kind):
    """The solved game's dealt hands: nothing by its top card, three- and four-card draws, pairs
    (2-6, 7-T, then jacks to aces one by one), two pair and up by category."""

    QUEEN_HIGH_OR_LESS = 0, "queen_high_or_less", N_("nothing, queen high or less")
    KING_HIGH = 1, "king_high", N_("nothing, king high")
    ACE_HIGH = 2, "ace_high", N_("nothing, ace high")
    THREE_CARD_DRAW = 3, "three_card_draw", N_("three-card draw")
    FOUR_CARD_DRAW = 4, "four_card_draw", N_("four-card draw")
    DEUCES_TO_SIXES = 5, "pair_2_6", N_("pair of deuces to sixes")
    SEVENS_TO_TENS = 6, "pair_7_10", N_("pair of sevens to tens")
    JACKS = 7, "pair_of_jacks", N_("pair of jacks")
    QUEENS = 8, "pair_of_queens", N_("pair of queens")
    KINGS = 9, "pair_of_kings", N_("pair of kings")
    ACES = 10, "pair_of_aces", N_("pair of aces")
    TWO_PAIR = 11, "two_pair", N_("two pair")
    TRIPS = 12, "trips", N_("trips")
    STRAIGHT = 13, "straight", N_("straight")
    FLUSH = 14, "flush", N_("flush")
    FULL_HOUSE_OR_BETTER = 15, "full_house_or_better", N_("full house or better")

