import numpy as np
import pytest

from conftest import reference_key
from drawodds.cards import JOKER, parse_hand
from drawodds.combinatorics import combinations
from drawodds.evaluate import CATEGORIES, RANK_KEYS, category_of, describe, evaluate, jacks_or_better_floor

COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]


@pytest.fixture(scope="module")
def strengths_all(hands_all):
    return evaluate(hands_all)


def test_category_counts_over_all_hands(strengths_all):
    assert np.bincount(category_of(strengths_all), minlength=9)[:9].tolist() == COUNTS
    assert len(np.unique(strengths_all)) == 7462
    assert strengths_all.min() == 1 and strengths_all.max() == 7462


def test_rank_keys_give_distinct_sums_for_every_rank_multiset():
    import itertools
    from collections import Counter
    sums = [sum(RANK_KEYS[r] for r in m) for m in itertools.combinations_with_replacement(range(13), 5)
            if max(Counter(m).values()) <= 4]
    assert len(sums) == len(set(sums)) == 6175


@pytest.mark.parametrize("category", [8, 7, 6, 5, 4, 3, 2])
def test_ordering_matches_reference_within_small_categories(hands_all, strengths_all, category):
    idx = np.flatnonzero(category_of(strengths_all) == category)
    keys = [reference_key(h) for h in hands_all[idx].tolist()]
    _assert_same_order(keys, strengths_all[idx])


def test_ordering_matches_reference_on_random_hands(hands_all, strengths_all):
    rng = np.random.default_rng(5)
    idx = rng.choice(len(hands_all), 60_000, replace=False)
    keys = [reference_key(h) for h in hands_all[idx].tolist()]
    _assert_same_order(keys, strengths_all[idx])


def _assert_same_order(keys, strengths):
    # Equal keys <=> equal strengths, and sorting by strength sorts the keys.
    order = np.argsort(strengths, kind="stable")
    ks = [keys[i] for i in order]
    st = strengths[order]
    for a, b, sa, sb in zip(ks, ks[1:], st, st[1:], strict=False):
        assert (a == b) == (sa == sb)
        assert a <= b


@pytest.mark.parametrize("better, worse", [
    ("As2c3d4h5s", "Kh Qd Jc Ts 8s"),          # the wheel is a straight...
    ("6s2c3d4h5s", "As2c3d4h5s"),              # ...and the lowest one
    ("AsKdQc9h8s", "KsAc2d3h4s"),              # K-A-2-3-4 is no straight: just ace-king high
    ("AsAd7c7h2s", "AhAc6c6h Ks"),             # two pair: high pair, low pair, then kicker
    ("AsAd7c7h3s", "AhAc7d7s2s"),
    ("9s9d9c2h2s", "8s8d8cAhAs"),              # full house by the trips
    ("Ts9s8s7s6s", "AsAdAcAhKs"),              # straight flush beats quads
    ("AsKsQsJs9s", "AhKdQcJhTs"),              # flush beats straight
])
def test_rule_edge_cases(better, worse):
    assert evaluate(parse_hand(better)) > evaluate(parse_hand(worse))


def test_suits_never_rank():
    assert evaluate(parse_hand("AsKsQs Js9s")) == evaluate(parse_hand("AhKhQhJh9h"))
    assert evaluate(parse_hand("AsAd7c7h2s")) == evaluate(parse_hand("AhAc7d7s2c"))


def test_a_wrapped_qka23_is_not_a_straight():
    s = evaluate(parse_hand("QsKdAc2h3s"))
    assert CATEGORIES[category_of(s)] == "high_card"


def test_shapes_and_chunking(hands_all):
    block = hands_all[:100_000]
    flat = evaluate(block)
    assert evaluate(block.reshape(10, 10_000, 5)).reshape(-1).tolist() == flat.tolist()
    assert evaluate(block[:1]).shape == (1,)
    assert evaluate(block[0]).shape == ()


def test_rejects_cards_outside_the_deck():
    with pytest.raises(ValueError, match="outside the deck"):
        evaluate(np.array([0, 1, 2, 3, 60]))
    with pytest.raises(ValueError, match="joker=True"):
        evaluate(np.array([0, 1, 2, 3, JOKER]))


def test_descriptions():
    assert describe(int(evaluate(parse_hand("AsAhKs7s3s")))) == "pair of aces, K-7-3"
    assert describe(int(evaluate(parse_hand("As2c3d4h5s")))) == "straight, five high"
    assert describe(int(evaluate(parse_hand("AsKsQsJsTs")))) == "royal flush"
    assert describe(int(evaluate(parse_hand("KsKh7c7d2s")))) == "two pair, kings and sevens, 2 kicker"


def test_jacks_or_better_floor():
    jj = evaluate(parse_hand("JsJh4c3d2s"))
    tt = evaluate(parse_hand("TsThAcKdQs"))
    assert jj == jacks_or_better_floor() and tt < jj


# --- the joker ("bug") --------------------------------------------------------------------

def _joker_brute_force(four: np.ndarray) -> np.ndarray:
    """Best hand over the substitutions the bug allows: any ace not in the hand, or any card not
    in the hand that makes a straight, flush or straight flush. Four aces + joker: five aces."""
    n = len(four)
    best = np.zeros(n, dtype=np.int64)
    for c in range(52):
        present = (four == c).any(axis=1)
        s = evaluate(np.column_stack([four, np.full(n, c)])).astype(np.int64)
        cat = category_of(s)
        allowed = ~present & ((c // 4 == 12) | np.isin(cat, [4, 5, 8]))
        best = np.where(allowed, np.maximum(best, s), best)
    four_aces = (four // 4 == 12).all(axis=1)
    return np.where(four_aces, 7463, best)


def test_joker_matches_brute_force_over_every_joker_hand():
    four = combinations(52, 4)
    hands = np.column_stack([four, np.full(len(four), JOKER, dtype=np.int8)])
    assert len(hands) == 270_725
    assert np.array_equal(evaluate(hands, joker=True), _joker_brute_force(four))


@pytest.mark.parametrize("hand, category, description", [
    ("KsKh7s7hJk", "two_pair", "two pair, kings and sevens, A kicker"),   # not fully wild
    ("AsAhAdAcJk", "five_of_a_kind", "five aces"),
    ("2c3c4c5cJk", "straight_flush", "straight flush, six high"),
    ("AsQs7s3sJk", "flush", "flush, A-K-Q-7-3"),
    ("Ts9c8d7dJk", "straight", "straight, jack high"),
    ("AsAh7c3dJk", "three_of_a_kind", "three aces, 7-3"),
])
def test_joker_rules(hand, category, description):
    s = int(evaluate(parse_hand(hand, joker=True), joker=True))
    assert CATEGORIES[category_of(s)] == category
    assert describe(s) == description


def test_five_aces_beat_a_royal_flush():
    five = evaluate(parse_hand("AsAhAdAcJk", joker=True), joker=True)
    royal = evaluate(parse_hand("AsKsQsJsTs"))
    assert five > royal


def test_evaluate_one_matches_evaluate_on_random_joker_hands():
    from drawodds.evaluate import evaluate_one

    rng = np.random.default_rng(9)
    hands = np.argsort(rng.random((200_000, 53)), axis=1)[:, :5].astype(np.int8)
    expected = evaluate(hands, joker=True)
    got = np.array([evaluate_one(h) for h in hands.tolist()])
    assert np.array_equal(got, expected)
    with pytest.raises(ValueError):
        evaluate_one([0, 1, 2, 3])


def test_strength_constants_match_the_tables():
    from drawodds.evaluate import N_STRENGTHS, ROYAL_FLUSH, STRAIGHT_FLUSH, strength_of

    assert ROYAL_FLUSH == strength_of(STRAIGHT_FLUSH, (12,)) == 7462
    assert N_STRENGTHS == int(evaluate(parse_hand("Jk As Ah Ad Ac", joker=True), joker=True)) + 1
