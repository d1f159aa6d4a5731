"""Draw policies: legal holds under every draw limit, the documented holds, exact draw-count odds."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from drawodds.cards import JOKER, format_cards, parse_hand
from drawodds.combinatorics import all_hands
from drawodds.evaluate import STRAIGHT, category_of, evaluate
from drawodds.policies import (
    PATTERNS,
    choose_holds,
    describe_policy,
    draw_count_probabilities,
    draw_policy,
    hold_plan,
    in_range,
    policy_names,
)
from drawodds.rules import preset

RULE_SETS = [preset(), preset(max_draw="4-ace"), preset(max_draw="4"), preset("poengpoker"),
             preset(joker=True), preset(joker=True, max_draw="4-ace")]


def _random_hands(n: int, joker: bool, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52 + int(joker))), axis=1)[:, :5].astype(np.int8)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.name}-{r.max_draw}-{'joker' if r.joker else '52'}")
@pytest.mark.parametrize("name", ["standard", "loose", "tight"])
def test_every_hold_is_legal(rules, name):
    hands = _random_hands(20_000, rules.joker, seed=1)
    policy = draw_policy(name, snow=0.2, break_rate=0.5, snow_hands="any")
    keep = choose_holds(policy, hands, rules, np.random.default_rng(2))
    drawn = 5 - keep.sum(1)
    keeps_ace = (keep & rules.draw_aces(hands)).any(1)   # the rule set says whether the joker counts
    limit = np.where(keeps_ace, rules.draw_limit(True), rules.draw_limit(False))
    assert (drawn <= limit).all()
    assert keep[hands == JOKER].all(), "the joker is always kept"


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.name}-{r.max_draw}-{'joker' if r.joker else '52'}")
def test_a_policy_that_never_deviates_holds_what_its_plan_says(rules):
    """choose_holds skips the deviations of a policy whose snow and break rates are 0: the same holds."""
    hands = _random_hands(40_000, rules.joker, seed=3)
    for name in policy_names():
        policy = draw_policy(name)
        assert policy.snow == policy.break_rate == 0
        keep = choose_holds(policy, hands, rules, np.random.default_rng(4))
        assert np.array_equal(keep, hold_plan(policy, hands, rules).keep), name


HOLDS = [  # policy, rule set max_draw, hand, kept cards
    ("standard", "3", "As Kd 9c 6h 2s", "As Kd"),
    ("standard", "3", "Qs 9d 6c 4h 2s", "Qs 9d"),        # one high card: the draw limit forces a second
    ("standard", "3", "As Ah Ks 7s 3s", "As Ah"),        # pair of aces over the four-flush
    ("standard", "3", "2s 2h 9s 7s Ks", "2s 9s 7s Ks"),  # four-flush over a small pair
    ("tight", "3", "2s 2h 9s 7s Ks", "2s 2h"),           # tight keeps the pair
    ("standard", "3", "5s 6d 7c 8h Ks", "5s 6d 7c 8h"),  # open-ended
    ("tight", "3", "5s 6d 7c 8h Ks", "8h Ks"),           # tight never draws to straights
    ("standard", "3", "5s 6d 7c 9h Ks", "9h Ks"),        # no gutshots in standard
    ("loose", "3", "5s 6d 7c 9h Ks", "5s 6d 7c 9h"),     # loose draws to the gutshot
    ("standard", "3", "5s 5d 6c 7h 8s", "5s 5d"),        # pair over the open-ender
    ("loose", "3", "5s 5d 6c 7h 8s", "5s 6c 7h 8s"),     # loose: open-ender over a small pair
    ("loose", "3", "7s 7h Ad 9c 2s", "7s 7h Ad"),        # pair + ace kicker
    ("standard", "3", "9c 9d 9h Ks 2c", "9c 9d 9h"),
    ("standard", "3", "9c 9d 4h 4s 2c", "9c 9d 4h 4s"),
    ("standard", "3", "Ah Kh Qh Jh Tc", "Ah Kh Qh Jh Tc"),  # pat straight
    ("standard", "4-ace", "As 9d 6c 4h 2s", "As"),       # four to an ace allowed
    ("standard", "4-ace", "As Kd 9c 6h 2s", "As Kd"),
    ("loose", "4-ace", "As Kd 9c 6h 2s", "As"),          # loose: an ace alone
    ("loose", "3", "As Kd 9c 6h 2s", "As Kd"),           # ...but not when only 3 may be drawn
    ("standard", "any", "9s 7d 5c 4h 2s", ""),           # nothing at all: draw five
    ("standard", "3", "9s 7d 5c 4h 2s", "9s 7d"),
    ("standard", "3", "Jk 7s 7h 4d 2c", "Jk 7s 7h"),     # the joker is kept (an ace kicker)
    ("standard", "3", "Jk 7s 8s 4s 2d", "Jk 7s 8s 4s"),  # the joker completes a four-flush
    ("standard", "3", "Jk Ad 9c 6h 2s", "Jk Ad"),        # joker + ace = a pair of aces
    ("loose", "4-ace", "Jk Td 7c 4h 2s", "Jk"),          # the joker counts as the ace: draw four
]


def test_joker_alone_is_no_ace_when_the_rules_say_so():
    rules = preset(max_draw="4-ace", joker=True, joker_is_ace_for_draw=False)
    cards = parse_hand("Jk Td 7c 4h 2s", joker=True)
    keep = choose_holds(draw_policy("loose"), cards[None], rules)[0]
    assert sorted(format_cards(cards[keep])) == ["Jk", "Td"]   # three at most


@pytest.mark.parametrize("name,max_draw,hand,kept", HOLDS)
def test_documented_holds(name, max_draw, hand, kept):
    rules = preset(max_draw=max_draw, joker="Jk" in hand)
    cards = parse_hand(hand, joker=rules.joker)
    keep = choose_holds(draw_policy(name), cards[None], rules)[0]
    assert sorted(format_cards(cards[keep])) == sorted(kept.split())


def _reference_pattern(hand: list[int], policy) -> str:
    """A deliberately simple per-hand reading of the precedence table (no joker)."""
    ranks = [c // 4 for c in hand]
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    if int(category_of(evaluate(np.array(hand, dtype=np.int8)))) >= STRAIGHT:
        return "pat"
    if shape[0] == 3:
        return "trips"
    if shape[:2] == [2, 2]:
        return "two_pair"
    pair_rank = max((r for r, c in counts.items() if c == 2), default=-1)
    flush4 = max(Counter(c % 4 for c in hand).values()) == 4

    def is_straight(rs: set[int]) -> bool:
        return len(rs) == 5 and (max(rs) - min(rs) == 4 or rs == {12, 0, 1, 2, 3})
    outs = 0
    for four in itertools.combinations(set(ranks), 4):
        outs = max(outs, sum(is_straight(set(four) | {x}) for x in range(13) if x not in four))
    open_ok = outs >= 2 and policy.straight_draws != "none"
    thr = {None: -2}.get(policy.flush_over_pair, "23456789TJQKA".find(policy.flush_over_pair or "2"))
    sthr = {None: -2}.get(policy.straight_over_pair, "23456789TJQKA".find(policy.straight_over_pair or "2"))
    if flush4 and pair_rank <= thr:
        return "four_flush"
    if open_ok and pair_rank <= sthr:
        return "open_ended"
    if pair_rank >= 0:
        kicker = policy.ace_kicker and pair_rank != 12 and 12 in ranks
        return "pair_with_kicker" if kicker else "pair"
    if flush4:
        return "four_flush"
    if open_ok:
        return "open_ended"
    if outs == 1 and policy.straight_draws == "inside":
        return "inside_straight"
    return "high_cards"


@pytest.mark.parametrize("name", ["standard", "loose", "tight"])
def test_patterns_match_simple_reference(name):
    policy = draw_policy(name)
    # Random hands plus a slice rich in straights and flush draws (all hands are in card order).
    hands = np.vstack([_random_hands(1500, False, seed=5), all_hands()[2_400_000:2_401_500]])
    plan = hold_plan(policy, hands, preset())
    got = [PATTERNS[p] for p in plan.pattern]
    want = [_reference_pattern([int(c) for c in h], policy) for h in hands]
    assert got == want


def test_draw_count_probabilities_exact_and_match_sampling():
    rules = preset()
    hands = np.vstack([_random_hands(400, False, seed=7),
                       parse_hand("5h 6h 7h 8h 9c")[None],    # straight with four to a straight flush
                       parse_hand("2h 6h 7h 8h 9h")[None]])   # flush with a straight-flush draw
    policy = draw_policy("standard", snow=0.3, break_rate=0.4)
    probs = draw_count_probabilities(policy, hands, rules)
    assert probs.shape == (len(hands), 6)
    np.testing.assert_allclose(probs.sum(1), 1.0)
    assert probs[-2, 1] == pytest.approx(0.4) and probs[-1, 0] == pytest.approx(0.6)
    # Deterministic policy: one-hot at the chosen draw count.
    plain = draw_count_probabilities(draw_policy("standard"), hands, rules)
    drawn = 5 - choose_holds(draw_policy("standard"), hands, rules).sum(1)
    np.testing.assert_array_equal(plain.argmax(1), drawn)
    assert (plain.max(1) == 1.0).all()
    # Monte Carlo frequencies of choose_holds agree with the exact mixture, per draw count.
    rng = np.random.default_rng(11)
    reps = 400
    tiled = np.tile(hands, (reps, 1))
    counts = np.bincount(5 - choose_holds(policy, tiled, rules, rng).sum(1), minlength=6)
    expected = probs.sum(0) * reps
    p = expected / expected.sum()
    se = np.sqrt(len(tiled) * p * (1 - p))
    assert (np.abs(counts - expected) <= 4 * se + 1e-9).all()


def test_snow_only_from_weak_hands_and_zero_rate_means_no_bluffs():
    hands = _random_hands(5000, False, seed=3)
    plan = hold_plan(draw_policy("standard", snow=0.1), hands, preset())
    snowing = plan.alt_rate > 0
    assert np.isin(plan.pattern[snowing], [PATTERNS.index(p) for p in
                                           ("four_flush", "open_ended", "inside_straight", "high_cards")]).all()
    probs = draw_count_probabilities(draw_policy("standard"), hands, preset())
    pat = probs[:, 0] > 0
    assert (category_of(evaluate(hands[pat])) >= STRAIGHT).all()


def test_range_and_errors():
    hands = np.stack([parse_hand("Js Jd 4c 5h 9s"), parse_hand("Ts Td 4c 5h 9s")])
    np.testing.assert_array_equal(in_range(draw_policy("standard", min_hand="jacks"), hands, preset()),
                                  [True, False])
    with pytest.raises(ValueError, match="unknown draw policy"):
        draw_policy("wild")
    with pytest.raises(ValueError, match="unknown policy parameter"):
        draw_policy("standard", bluff=0.1)
    with pytest.raises(ValueError):
        draw_policy("standard", snow=1.5)
    with pytest.raises(ValueError):
        choose_holds(draw_policy(snow=0.1), hands, preset())   # needs an rng
    for name in policy_names():
        rows = describe_policy(draw_policy(name))
        assert rows[0][1].startswith("all five")
