"""The one vocabulary of hand kinds: each enum's codes are the ones its classifier returns, and the
relationships between the enums hold on real hands."""

from __future__ import annotations

import numpy as np
import pytest

from drawodds.cards import parse_hand
from drawodds.evaluate import CATEGORIES, category_of, evaluate
from drawodds.handrange import parse_range
from drawodds.kinds import (
    Category,
    DrawKind,
    FinalGroup,
    FinalKind,
    HoldType,
    PolicyPattern,
    ReadClass,
    SolvedKind,
    StartingHand,
)
from drawodds.patterns import dealt_features, hold_pattern_codes, hold_type, starting_hand
from drawodds.policies import draw_policy, hold_plan
from drawodds.rules import preset
from drawodds.sim.ranges import LABELS
from drawodds.solver.abstraction import PATTERN_CATEGORIES
from drawodds.solver.hand_kinds import HAND_KINDS, hand_kinds
from drawodds.solver.summary import FINAL_KINDS
from drawodds.trainer.answers import READ_CLASSES, _parse_read
from drawodds.trainer.questions import read_class

ENUMS = (Category, DrawKind, FinalGroup, FinalKind, HoldType, PolicyPattern, ReadClass, SolvedKind, StartingHand)

HANDS = {   # a dealt hand, its category, the standard policy's pattern, its starting-hand row
    "AsKsQsJsTs": (Category.STRAIGHT_FLUSH, PolicyPattern.PAT, StartingHand.STRAIGHT_OR_BETTER),
    "7c7d7h2s3d": (Category.TRIPS, PolicyPattern.TRIPS, StartingHand.TRIPS),
    "AsAhKd7c2s": (Category.ONE_PAIR, PolicyPattern.PAIR, StartingHand.ACES),
    "8s8h2s5s9s": (Category.ONE_PAIR, PolicyPattern.FOUR_FLUSH, StartingHand.SEVENS_TO_NINES),
    "9c8d7h6s2c": (Category.HIGH_CARD, PolicyPattern.OPEN_ENDED, StartingHand.OPEN_ENDED),
    "AsKd9h5c2s": (Category.HIGH_CARD, PolicyPattern.HIGH_CARDS, StartingHand.ACE_HIGH),
}


@pytest.mark.parametrize("kind", ENUMS)
def test_codes_count_from_zero_and_names_are_unique(kind):
    assert [int(m) for m in kind] == list(range(len(kind)))
    assert len(set(kind.slugs())) == len(kind) and len(set(kind.labels())) == len(kind)
    assert all(kind.from_slug(m.slug) is m for m in kind)
    with pytest.raises(KeyError):
        kind.from_slug("no such kind")


def test_each_classifier_returns_the_codes_of_its_enum():
    deals = np.array([parse_hand(h) for h in HANDS])
    rules = preset("morkpoker")
    plan = hold_plan(draw_policy("standard"), deals, rules)
    rows = starting_hand(deals)
    for i, (hand, (category, pattern, row)) in enumerate(HANDS.items()):
        assert Category(int(category_of(evaluate(deals[i])))) is category, hand
        assert PolicyPattern(int(plan.pattern[i])) is pattern, hand
        assert StartingHand(int(rows[i])) is row, hand
    # The hold type of keeping the pair of aces, of standing pat, of drawing five.
    codes = hold_pattern_codes(deals[2:3])[0]
    assert HoldType(int(hold_type(codes[0b00011]))) is HoldType.PAIR        # A♠ A♥ kept
    assert HoldType(int(hold_type(codes[0b00111]))) is HoldType.KICKER      # A♠ A♥ K♦ kept
    assert HoldType(int(hold_type(codes[31]))) is HoldType.PAT
    assert HoldType(int(hold_type(codes[0]))) is HoldType.DRAW_FIVE


def test_a_range_draw_is_the_policy_pattern_of_the_same_name():
    assert [d.pattern for d in DrawKind] == [PolicyPattern.FOUR_FLUSH, PolicyPattern.OPEN_ENDED, PolicyPattern.INSIDE]
    f = dealt_features(np.array([parse_hand(h) for h in ("8s8h2s5s9s", "9c8d7h6s2c", "9c8d6h5s2c")]))
    for draw, flag in zip(DrawKind, (f.has_flush4, f.open_ended, f.inside), strict=True):
        r = parse_range(next(t for t in ("4F", "OESD", "GS") if parse_range(t).terms[0].lo == draw))
        assert r.describe() == draw.label
        assert (r.matches(f) == flag).all()


def test_final_groups_split_every_category_once_in_order():
    grouped = [c for g in FinalGroup for c in g.categories]
    assert grouped == list(Category)
    assert FinalGroup.STRAIGHT_OR_FLUSH.categories == (Category.STRAIGHT, Category.FLUSH)


def test_category_names_are_the_evaluators():
    assert Category(int(category_of(evaluate(parse_hand("KsKh7d7c2s"))))).label == "two pair"
    assert [c.slug for c in Category] == list(CATEGORIES)


def test_the_solved_games_kinds_are_these_enums():
    """The solver's dealt and final kinds and its category names are the ones named here."""
    deals = np.array([parse_hand(h) for h in HANDS])
    natural_draw = np.array([0, 2, 3, 1, 1, 3])
    assert list(hand_kinds(deals, natural_draw)) == [SolvedKind.FULL_HOUSE_OR_BETTER.label, SolvedKind.TRIPS.label,
                                                     SolvedKind.ACES.label, SolvedKind.SEVENS_TO_TENS.label,
                                                     SolvedKind.FOUR_CARD_DRAW.label, SolvedKind.ACE_HIGH.label]
    assert HAND_KINDS == SolvedKind.labels() and FINAL_KINDS == FinalKind.labels()
    assert PATTERN_CATEGORIES == tuple(c.short for c in Category if c < Category.FIVE_ACES)


def test_every_reading_class_can_be_answered_as_the_trainer_grades_it():
    """Each posterior label becomes a ``ReadClass``, and typing that class's name (or its pattern's
    own words) is read back as the same class: 'open-ended' is right for an open-ended holding."""
    for label in LABELS:
        cls = read_class(label)
        assert cls in READ_CLASSES, label
        assert _parse_read(f"{cls} 40").read_class == cls, label
    assert read_class("open_ended") == _parse_read("open-ended 40").read_class == ReadClass.OPEN_ENDED.slug
    assert read_class("pat_three_of_a_kind") == read_class("trips") == ReadClass.TRIPS.slug
    assert read_class("snow") == ReadClass.of_pattern(PolicyPattern.SNOW).slug == "bluff"
