"""Typed hand ranges: every term counts the hands combinatorics says it should, bad terms fail in
one line, and read / keep restrict the opponent to the range exactly."""

from __future__ import annotations

import json
import re
from math import comb

import numpy as np
import pytest

from drawodds.analyses.keep import keep
from drawodds.analyses.read import read_draw
from drawodds.cards import JOKER, parse_hand, unseen
from drawodds.cli import main
from drawodds.combinatorics import combinations
from drawodds.errors import RequestError
from drawodds.evaluate import ONE_PAIR, STRAIGHT, TWO_PAIR, category_of, evaluate
from drawodds.handrange import parse_range
from drawodds.patterns import dealt_features
from drawodds.policies import draw_count_probabilities, draw_policy
from drawodds.rules import preset
from drawodds.sim.ranges import range_mask

PAIR_OF_ONE_RANK = 6 * comb(12, 3) * 4 ** 3          # 84,480: the pair's suits, three other ranks
NO_PAIR_SUITS = 4 ** 5 - 4                            # five distinct ranks, not all one suit
# Four consecutive ranks two ranks complete (2345 .. TJQK: nine windows), a fifth card that pairs
# one of them (4^3 * 4 ranks * C(4, 2)) or is one of the 7 ranks that neither pairs nor makes a
# straight (7 * 4 * 4^4, less the 7 * 4 flushes).
OESD = 9 * (4 ** 3 * 4 * comb(4, 2) + 7 * 4 * 4 ** 4 - 7 * 4)
# Exactly four cards of one suit (4 * C(13, 4) * 39), less the 600 straights among them
# (10 rank sets * 4 suits * 5 places of the odd card * 3 suits for it).
FOUR_FLUSH = 4 * comb(13, 4) * 39 - 10 * 4 * 5 * 3
EXPECTED = {
    "77": PAIR_OF_ONE_RANK,
    "JJ+": 4 * PAIR_OF_ONE_RANK,                      # 337,920: one pair of jacks, queens, kings or aces
    "22-66": 5 * PAIR_OF_ONE_RANK,
    "66-22": 5 * PAIR_OF_ONE_RANK,
    "1P": 13 * PAIR_OF_ONE_RANK,
    "HC": 1_302_540, "2P": 123_552, "TRIPS": 54_912, "ST": 10_200, "FL": 5_108, "FH": 3_744,
    "quads": 624, "SF": 40,
    "2P+": 123_552 + 54_912 + 10_200 + 5_108 + 3_744 + 624 + 40,
    "ST+": 10_200 + 5_108 + 3_744 + 624 + 40,
    "HC+": comb(52, 5),
    "4F": FOUR_FLUSH,
    "OESD": OESD,
    "AK": (comb(11, 3) - 1) * NO_PAIR_SUITS,          # three ranks below the king, not T-J-Q
    "AQ+": (comb(11, 3) - 1 + comb(10, 3)) * NO_PAIR_SUITS,
    "Kx": (comb(11, 4) - 1) * NO_PAIR_SUITS,          # four ranks below the king, not 9-T-J-Q
    "any": comb(52, 5),
    "JJ+, 2P+": 4 * PAIR_OF_ONE_RANK + 123_552 + 54_912 + 10_200 + 5_108 + 3_744 + 624 + 40,
}


@pytest.fixture(scope="module")
def features(hands_all):
    return dealt_features(hands_all)


def test_each_term_counts_its_hands(features):
    for text, count in EXPECTED.items():
        assert parse_range(text).matches(features).sum() == count, text


def test_gutshots_by_brute_force(hands_all, features):
    """An inside draw: four ranks of a straight that are not four consecutive ranks two ranks
    complete, in a hand below a straight (checked on rank masks, without the policy tables)."""
    ranks = np.bitwise_or.reduce(np.left_shift(1, hands_all.astype(np.int64) // 4), axis=1)
    straights = [0b1_0000_0000_1111] + [0b11111 << k for k in range(9)]
    four_of_one = np.zeros(len(ranks), dtype=bool)
    for s in straights:
        four_of_one |= np.bitwise_count(ranks & s) >= 4
    open_ended = np.zeros(len(ranks), dtype=bool)
    for k in range(9):
        open_ended |= (ranks & (0b1111 << k)) == (0b1111 << k)
    below = category_of(evaluate(hands_all)) < STRAIGHT
    want = four_of_one & ~open_ended & below
    got = parse_range("GS").matches(features)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(parse_range("OESD").matches(features), open_ended & below)


def test_the_joker_reads_as_the_evaluator_reads_it():
    rng = parse_range("AA, 4F, FL, 5K", joker=True)
    hands = np.array([parse_hand("As Jk 9d 6c 2h", joker=True), parse_hand("Ks Jk 9s 6s 2h", joker=True),
                      parse_hand("Ks Jk 9s 6s 2s", joker=True), parse_hand("As Ad Ah Ac Jk", joker=True),
                      parse_hand("Ks Jk 9d 6c 2h", joker=True)])
    assert rng.mask(hands).tolist() == [True, True, True, True, False]
    assert parse_range("AK", joker=True).mask(hands[4:]).tolist() == [True]   # the joker is an ace
    assert JOKER in hands


@pytest.mark.parametrize("text, word", [("JJ+, XX", "'XX'"), ("4F+", "'4F+'"), ("KA", "AK"), ("", "empty"),
                                        ("5K", "joker"), ("JJ-", "'JJ-'")])
def test_bad_terms_fail_in_one_line(text, word):
    with pytest.raises(RequestError, match=re.escape(word)) as exc:
        parse_range(text)
    assert "\n" not in str(exc.value)


BRUTE_HAND = "Ks Kd 7h 7s 2s"


def test_read_with_a_range_is_the_brute_force_posterior():
    """The range multiplies the weights: P(draw 1 | range) and the share of two pair, against every
    C(47, 5) holding classified here by evaluate and suit counts."""
    rules, policy = preset(), draw_policy("standard", snow=0.1)
    ours = parse_hand(BRUTE_HAND)
    rest = np.setdiff1d(np.arange(52), ours).astype(np.int8)
    cards = rest[combinations(47, 5)]
    category = category_of(evaluate(cards))
    suits = np.stack([(cards % 4 == s).sum(1) for s in range(4)], axis=1)
    in_range = (category == TWO_PAIR) | ((suits.max(1) == 4) & (category < STRAIGHT))
    p1 = draw_count_probabilities(policy, cards, rules)[:, 1] * in_range
    r = read_draw(1, policy=policy, hand=ours, hand_range="2p 4f", trials=2_000, equity_trials=200)
    assert r.hand_range == "2P, 4F"
    assert r.p_draw == pytest.approx(p1.sum() / in_range.sum(), rel=1e-9)
    assert r.holding["two_pair"] == pytest.approx(p1[category == TWO_PAIR].sum() / p1.sum(), rel=1e-9)
    assert set(r.holding) == {"two_pair", "four_flush"}
    assert r.final["flush"] > 0 and r.final["three_of_a_kind"] == 0     # two pair or a four-flush, drawing one
    with pytest.raises(RequestError, match="no hand of the range"):
        read_draw(1, hand=parse_hand("As Ah Ad Ac Kd"), hand_range="AA")


def _pair_of_aces_drawing_three(ours: np.ndarray, n: int, seed: int) -> tuple[float, float]:
    """Our pat hand against one pair of aces drawing three: uniform deals kept when they are one
    pair of aces (rejection), the aces kept, three fresh cards. Independent of the range code."""
    rng = np.random.default_rng(seed)
    stub = np.setdiff1d(np.arange(52), ours)
    mine = int(evaluate(ours[None])[0])
    deal = stub[rng.random((60 * n, len(stub))).argsort(axis=1)[:, :8]]
    hand = deal[:, :5]
    ok = (category_of(evaluate(hand)) == ONE_PAIR) & ((hand // 4 == 12).sum(1) == 2)
    deal = deal[ok][:n]
    aces = np.sort(np.where(deal[:, :5] // 4 == 12, deal[:, :5], -1), axis=1)[:, -2:]
    theirs = evaluate(np.concatenate([aces, deal[:, 5:]], axis=1))
    w = (mine > theirs) + 0.5 * (mine == theirs)
    assert len(w) == n
    return float(w.mean()), float(w.std() / np.sqrt(n))


def test_keep_with_a_range_agrees_with_rejection_sampling():
    ours = parse_hand("Kc Kd Kh 7s 2d")
    want, want_se = _pair_of_aces_drawing_three(ours, 6_000, 3)
    for vs in ((3,), ()):
        r = keep(ours, opponents=1, vs=vs, hand_range="AA", trials=20_000, seed=2)
        row = next(row for row in r.rows() if row["draw"] == 0)
        assert r.hand_range == "AA"
        assert abs(row["equity"] - want) <= 4 * np.hypot(row["equity_se"], want_se), (vs, row["equity"], want)
    with pytest.raises(RequestError, match="no holding draws 1"):
        keep(ours, vs=(1,), hand_range="AA", trials=100)


def _run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    captured = capsys.readouterr()
    return exc.value.code, captured.out, captured.err


def test_cli_ranges_and_their_errors(capsys):
    code, out, _ = _run(["read", "2", "--range", "3k, fh", "--trials", "2000", "--json"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["hand_range"] == "3K, FH" and payload["holding"] == {"trips": pytest.approx(1.0)}
    for argv in (["read", "1", "--range", "JJ+, XX"], ["keep", "7s6s5d4c2c", "--vs", "1", "--range", "AA"],
                 ["read", "1", "--line", "check-bet-call"],
                 ["keep", "AsAhKs7s3s", "--range", "4F", "--rules", "poengpoker"],
                 ["keep", "AsAhKs7s3s", "--policy", "equilibrium", "--vs", "1", "--vs", "3"],
                 ["read", "1", "--policy", "equilibrium", "--opponent-dealer"],
                 ["read", "1", "--policy", "equilibrium", "--line", "check-dance"],
                 ["read", "1", "--policy", "equilibrium", "--solution", "no-such-file.parquet"],
                 ["read", "1", "--policy", "equilibrium", "--snow", "0.1"]):
        code, _, err = _run(argv, capsys)
        assert code == 2 and err.count("\n") == 1, (argv, err)


@pytest.mark.parametrize("joker", [False, True], ids=["52", "joker"])
def test_the_class_table_matches_the_hand_by_hand_mask(joker):
    """read and keep look ranges up by (rank multiset, flush state): the same as every hand's mask."""
    rules, text = preset(joker=joker), "JJ+, 2P, FL+, 4F, OESD, GS, AQ+, Kx, 22-55"
    known = tuple(sorted(parse_hand("Ks Kd 7h 7s 2s").tolist()))
    stub = unseen(known, joker=joker)
    cards = stub[combinations(len(stub), 5)]
    rows = np.random.default_rng(1).choice(len(cards), 60_000, replace=False)
    rows = np.concatenate([rows, np.flatnonzero((cards == JOKER).any(1))[::20]]) if joker else rows
    want = parse_range(text, joker=joker).mask(cards[rows])
    np.testing.assert_array_equal(range_mask(text, rules, known)[rows], want)


def test_a_joker_only_term_reads_in_a_joker_deck():
    """Five of a kind exists only with the joker: the range must be read for the joker deck even
    for the holdings without the joker (which it then leaves out)."""
    from drawodds import preset, read_draw

    reading = read_draw(0, rules=preset("morkpoker", joker=True), hand_range="5K", trials=2000)
    assert {k for k, v in reading.holding.items() if v > 0} == {"pat_five_of_a_kind"}
