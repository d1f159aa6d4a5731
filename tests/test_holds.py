import itertools
from math import comb

import numpy as np
import pytest

from drawodds.cards import parse_cards, parse_hand, unseen
from drawodds.evaluate import category_of, evaluate
from drawodds.holds import all_hold_masks, exact_holds, hold_openers_split, legal_holds
from drawodds.rules import preset


def brute_force_categories(hand, mask, joker=False, dead=()):
    """Category counts of one hold by listing every draw with itertools (independent path)."""
    kept = [int(c) for c, m in zip(hand, mask, strict=False) if m]
    stub = unseen([*hand.tolist(), *dead], joker=joker).tolist()
    finals = np.array([kept + list(d) for d in itertools.combinations(stub, 5 - len(kept))])
    return np.bincount(category_of(evaluate(finals, joker=joker)), minlength=10)


@pytest.mark.parametrize("text, keep", [
    ("AsAh Ks7s3s", "11000"),   # pair drawing three
    ("9c9d5h5s2c", "11110"),    # two pair drawing one
    ("AsKs7s3s Ah", "11110"),   # four-flush
    ("9h8d7c6s2h", "11110"),    # open-ended straight draw
    ("9h8d7c5s2h", "11110"),    # inside straight draw
    ("9h8d7c6s5h", "11111"),    # pat straight
    ("QsQhQd7c2s", "11100"),    # trips drawing two
    ("QsQhQd7c2s", "11101"),    # trips and a kicker
])
def test_exact_matches_brute_force(text, keep):
    hand = parse_hand(text)
    mask = np.array([c == "1" for c in keep])
    ex = exact_holds(hand, preset(), masks=mask[None, :])
    expected = brute_force_categories(hand, mask)
    got = np.rint(ex.category_probabilities()[0] * ex.totals[0]).astype(int)
    assert got.tolist() == expected.tolist()
    assert ex.totals[0] == comb(47, 5 - mask.sum())


def test_joker_hand_matches_brute_force():
    hand = parse_hand("Jk Ks Qs 7d 2c", joker=True)
    rs = preset(joker=True)
    for keep in ["11000", "11100", "10000"]:
        mask = np.array([c == "1" for c in keep])
        ex = exact_holds(hand, rs, masks=mask[None, :])
        expected = brute_force_categories(hand, mask, joker=True)
        assert ex.totals[0] == comb(48, 5 - mask.sum())
        assert np.rint(ex.category_probabilities()[0] * ex.totals[0]).astype(int).tolist() == expected.tolist()


@pytest.mark.parametrize("text, dead", [
    ("AsKsQs7s2d", "9h 9c 5s 5d 3c"),          # an opponent's known hand
    ("9c9d5h5s2c", "9h 9s 5c 2d 2h Ks Kd"),    # known cards that kill our outs
    ("Jk Ks Qs 7d 2c", "Js Ts 3s"),            # the joker deck
])
def test_dead_cards_leave_the_stub_of_every_hold(text, dead):
    joker = "Jk" in text
    hand, gone = parse_hand(text, joker=joker), parse_cards(dead)
    masks = all_hold_masks()[all_hold_masks().sum(axis=1) >= 2]   # every hold drawing up to three
    ex = exact_holds(hand, preset(joker=joker, max_draw="any"), masks=masks, dead=gone)
    for i, mask in enumerate(masks):
        expected = brute_force_categories(hand, mask, joker=joker, dead=gone)
        assert ex.totals[i] == expected.sum() == comb(52 + joker - 5 - len(gone), 5 - mask.sum())
        assert np.rint(ex.category_probabilities()[i] * ex.totals[i]).astype(int).tolist() == expected.tolist()


def test_classic_improvement_odds():
    pair = exact_holds(parse_hand("AsAhKs7s3s"), preset(), masks=np.array([[1, 1, 0, 0, 0]], bool))
    assert pair.p_improve(int(evaluate(parse_hand("AsAhKs7s3s"))))[0] * 16215 == pytest.approx(4656)
    two = exact_holds(parse_hand("9c9d5h5s2c"), preset(), masks=np.array([[1, 1, 1, 1, 0]], bool))
    full = two.category_probabilities()[0][6]
    assert full * 47 == pytest.approx(4)


def test_all_32_holds_cover_every_five_card_hand_once():
    ex = exact_holds(parse_hand("AsAhKs7s3s"), preset(), masks=all_hold_masks())
    assert ex.counts.sum() == ex.totals.sum() == 2_598_960
    assert np.allclose(ex.category_probabilities().sum(axis=1), 1)


@pytest.mark.parametrize("max_draw, text, n_legal", [
    ("3", "AsAhKs7s3s", 26),        # keep at least two: 1 + 5 + 10 + 10
    ("4-ace", "AsAhKs7s3s", 26 + 2),  # plus keeping either ace alone
    ("4-ace", "KsQh9s7s3s", 26),      # no ace: still three
    ("4", "KsQh9s7s3s", 31),
    ("5", "KsQh9s7s3s", 32),
    ("any", "KsQh9s7s3s", 32),
])
def test_legal_holds_follow_the_draw_limit(max_draw, text, n_legal):
    assert len(legal_holds(parse_hand(text), preset(max_draw=max_draw))) == n_legal


def test_splitting_openers():
    hand = parse_hand("AsAhKs7s3s")
    masks = np.array([[1, 1, 0, 0, 0], [1, 0, 1, 1, 1], [1, 1, 1, 1, 1]], dtype=bool)
    assert hold_openers_split(hand, masks).tolist() == [False, True, False]
    # two pair 5-5-3-3-T: keeping one pair splits the openers
    tp = parse_hand("5s5h3d3cTc")
    assert hold_openers_split(tp, np.array([[1, 1, 0, 0, 0], [1, 1, 1, 1, 0]], bool)).tolist() == [True, False]
    # no openers at all: nothing to split
    assert not hold_openers_split(parse_hand("TsThAcKdQs"), all_hold_masks()).any()
