"""Poengpoker and Chicago: trick rules from the Poengpoker page, scoring, exchanges, whole games, holds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from drawodds.cards import parse_cards
from drawodds.evaluate import category_of, evaluate
from drawodds.points import games as pts
from drawodds.points.tricks import (
    NO_CARD,
    IllegalPlay,
    TrickGame,
    legal_mask,
    play_tricks,
    random_play,
    sensible_play,
    trick_play,
)
from drawodds.rules import RuleError, preset

POENG = preset("poengpoker")
CHICAGO = preset("chicago")


def cards(text: str) -> list[int]:
    return parse_cards(text)


def legal_of(hand: str, lead: str, rules) -> set[str]:
    h = np.array(cards(hand))
    mask = legal_mask(h, np.ones(5, bool), cards(lead)[0], rules.trick_rule)
    return set(hand.split()[i] for i in np.flatnonzero(mask))


def random_deals(rng: np.random.Generator, rows: int, players: int) -> np.ndarray:
    order = np.argsort(rng.random((rows, 52)), axis=1)[:, :5 * players]
    return order.reshape(rows, players, 5).astype(np.int8)


# --- who may play what (the Poengpoker page's examples) ----------------------------------------

def test_seed_example_1_must_beat_the_lead_in_its_suit() -> None:
    # Lead: seven of hearts; holding the nine of hearts, that is the card to play.
    assert legal_of("9h 5c Kd 2s 3c", "7h", POENG) == {"9h"}
    assert legal_of("9h 5h Kd 2s 3c", "7h", POENG) == {"9h"}  # the lower heart is not allowed


def test_seed_example_2_no_higher_card_frees_the_player() -> None:
    # Only the five and six of hearts: any card may be played, no need to give up a low heart.
    assert legal_of("5h 6h Kd 2s 3c", "7h", POENG) == {"5h", "6h", "Kd", "2s", "3c"}
    # The classic reading (house option) makes the player follow with a low heart.
    strict = POENG.replace(trick_rule="beat_or_follow")
    assert legal_of("5h 6h Kd 2s 3c", "7h", strict) == {"5h", "6h"}
    assert legal_of("9h 6h Kd 2s 3c", "7h", strict) == {"9h"}


def test_chicago_follow_suit_or_discard_without_trumps() -> None:
    assert CHICAGO.trick_rule == "follow"
    assert legal_of("5h 9h Kd 2s 3c", "7h", CHICAGO) == {"5h", "9h"}  # any heart, low or high
    assert legal_of("4c Kd Ad 2s 3c", "7h", CHICAGO) == {"4c", "Kd", "Ad", "2s", "3c"}
    # No trumps: a card of another suit never wins, even an ace.
    game = TrickGame([cards("7h 2c 3c 4c 5c"), cards("As 6d 7d 8d 9d")], 0, CHICAGO)
    game.play(cards("7h")[0])
    game.play(cards("As")[0])
    assert game.winners == [0]


def test_leader_may_lead_anything() -> None:
    h = np.array(cards("9h 5c Kd 2s 3c"))
    assert legal_mask(h, np.ones(5, bool), NO_CARD, "beat_or_any").all()


# --- the worked example --------------------------------------------------------------------------

def test_worked_example_straight_flush_8_to_anna_last_trick_2_to_bo() -> None:
    anna, bo, carla = cards("5h 6h 7h 8h 9h"), cards("Kc Ks Kh 2c Ad"), cards("Qc Qs 3c 3s 4d")
    hands = np.array([[anna, bo, carla]], dtype=np.int8)
    hand_points, instant, tied = pts.showdown_points(hands, POENG)
    assert hand_points[0].tolist() == [8, 0, 0]  # Bo's trips and Carla's two pair score nothing
    assert not instant.any() and not tied.any()
    game = TrickGame([anna, bo, carla], leader=0, rules=POENG)  # Carla deals, Anna leads
    script = ["5h", "Kh", "3c",   # Anna leads; Bo must beat her heart; Carla has none
              "2c", "Qc", "6h",   # Bo leads; Carla must beat the deuce of clubs with her queen
              "3s", "7h", "Ks",   # Carla leads; Bo must beat her three of spades
              "Kc", "Qs", "8h",   # Bo takes the fourth trick and leads the last
              "Ad", "4d", "9h"]   # the highest diamond takes the last trick
    for card in script:
        game.play(cards(card)[0])
    assert game.winners == [1, 2, 1, 1, 1]
    total = hand_points[0] + np.array(game.points())
    assert total.tolist() == [8, 2, 0]


def test_illegal_plays_are_rejected_with_a_clear_error() -> None:
    game = TrickGame([cards("5h 6h 7h 8h 9h"), cards("Kc Ks Kh 2c Ad")], 0, POENG)
    game.play(cards("5h")[0])
    with pytest.raises(IllegalPlay, match=r"2c is not allowed: must beat 5h.*Kh"):
        game.play(cards("2c")[0])
    with pytest.raises(IllegalPlay, match="not in the hand"):
        game.play(cards("Qd")[0])
    game.play(cards("Kh")[0])
    with pytest.raises(IllegalPlay, match="not in the hand"):  # Anna's five is gone
        game.play(cards("5h")[0])
    with pytest.raises(IllegalPlay, match="not finished"):
        game.points()


def test_a_trick_strategy_playing_an_illegal_card_is_stopped() -> None:
    def always_first(view):
        return np.zeros(len(view.hand), dtype=np.int64)  # ignores the rules

    hands = random_deals(np.random.default_rng(3), 200, 4)
    with pytest.raises(IllegalPlay, match=r"trick \d, seat \d"):
        play_tricks(hands, 0, POENG, always_first, np.random.default_rng(0))


# --- vectorized tricks agree with the card-by-card referee -------------------------------------

@pytest.mark.parametrize("rule", ["beat_or_any", "beat_or_follow", "follow"])
def test_vectorized_tricks_match_card_by_card_play(rule: str) -> None:
    rules = POENG.replace(trick_rule=rule)
    rng = np.random.default_rng(11)
    hands = random_deals(rng, 150, 4)
    leader = rng.integers(4, size=150)
    res = play_tricks(hands, leader, rules, [sensible_play, random_play] * 2, rng)
    for i in range(len(hands)):
        game = TrickGame(hands[i], int(leader[i]), rules)
        for k in range(5):
            for _ in range(4):
                game.play(int(res.plays[i, k, game.to_play]))  # raises if illegal
        assert game.winners == res.winners[i].tolist()
        # every card played exactly once, by its owner
        assert sorted(res.plays[i].T.ravel().tolist()) == sorted(hands[i].ravel().tolist())
        for seat in range(4):
            assert set(res.plays[i, :, seat].tolist()) == set(hands[i, seat].tolist())
    points = res.points(rules)
    assert (points.sum(axis=1) == rules.last_trick_points).all()


def test_sensible_play_takes_the_last_trick_more_often_than_random() -> None:
    rng = np.random.default_rng(5)
    rows = 6000
    hands = random_deals(rng, rows, 4)
    leader = np.arange(rows) % 4
    res = play_tricks(hands, leader, POENG, [sensible_play] + [random_play] * 3, rng)
    share = (res.last_winner == 0).mean()
    se = math.sqrt(0.25 * 0.75 / rows)
    assert share > 0.25 + 6 * se
    with pytest.raises(ValueError, match="unknown trick strategy"):
        trick_play("clever")


# --- showdown points -------------------------------------------------------------------------------

@pytest.mark.parametrize("best, points", [
    ("9h Th Jh Qh Kh", 8), ("9c 9d 9h 9s 2c", 7), ("Tc Td Th 2c 2d", 6), ("2h 5h 9h Jh Kh", 5),
    ("5c 6d 7h 8s 9c", 4), ("Qc Qd Qh 2c 3d", 3), ("Jc Jd 4h 4s 2c", 2), ("Ac Ad 7h 5s 2c", 1),
    ("Ac Kd 7h 5s 2c", 0)])
def test_only_the_single_best_hand_scores_its_table_points(best: str, points: int) -> None:
    candidates = ["Qs Jd 8h 6s 3h", "Qd Jc 8d 6h 3s", "Qh Td 8c 6d 3c"]  # high card, below A-K-7-5-2
    worse = next(cards(w) for w in candidates if not set(cards(w)) & set(cards(best)))
    hands = np.array([[worse, cards(best)]], dtype=np.int8)
    got, instant, tied = pts.showdown_points(hands, POENG)
    assert got[0].tolist() == [0, points]
    assert not instant.any() and not tied.any()


def test_exactly_equal_best_hands_follow_the_tie_option() -> None:
    hands = np.array([[cards("Ac Ad 7h 5s 2c"), cards("Ah As 7c 5d 2d"), cards("Kc Kd 7s 5h 3c")]],
                     dtype=np.int8)
    none, _, tied = pts.showdown_points(hands, POENG)
    assert none[0].tolist() == [0, 0, 0] and tied.all()
    assert pts.showdown_points(hands, POENG.replace(points_tie="all"))[0][0].tolist() == [1, 1, 0]
    assert pts.showdown_points(hands, POENG.replace(points_tie="split"))[0][0].tolist() == [0.5, 0.5, 0]


def test_chicago_royal_flush_is_worth_52_and_wins_at_once() -> None:
    hands = np.array([[cards("Ts Js Qs Ks As"), cards("9h Th Jh Qh Kh"), cards("2c 2d 2h 2s 3c")]],
                     dtype=np.int8)
    got, instant, _ = pts.showdown_points(hands, CHICAGO)
    assert got[0].tolist() == [52, 0, 0] and instant[0].tolist() == [True, False, False]
    # Poengpoker: an ace-high straight flush is just 8 points (the Poengpoker page, questions and answers).
    assert pts.showdown_points(hands, POENG)[0][0].tolist() == [8, 0, 0]
    assert not pts.showdown_points(hands, POENG)[1].any()
    # The game ends for the royal even if another player would pass 52 by the last trick.
    before = np.array([[0.0, 50.0, 0.0]])
    ended, share = pts.settle(before, got, np.array([[0.0, 5.0, 0.0]]), instant, 52)
    assert ended[0] and share[0].tolist() == [1, 0, 0]


def test_first_to_reach_the_target_wins() -> None:
    before = np.array([[12.0, 12.0], [12.0, 12.0], [10.0, 0.0], [12.0, 11.0]])
    hand = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    trick = np.array([[0.0, 2.0], [2.0, 0.0], [0.0, 2.0], [0.0, 2.0]])
    ended, share = pts.settle(before, hand, trick, np.zeros((4, 2), bool), 13)
    assert ended.tolist() == [True, True, False, True]
    # Anna reached 13 at the showdown, before Bo's last trick took him to 14.
    assert share[0].tolist() == [1, 0] and share[1].tolist() == [1, 0]
    assert share[3].tolist() == [0, 1]


# --- the exchange ------------------------------------------------------------------------------------

def _throw_all(seats, hands, round_index):
    return np.zeros(hands.shape, dtype=bool)


def _keep_first_two(seats, hands, round_index):
    keep = np.zeros(hands.shape, dtype=bool)
    keep[:, :2] = True
    return keep


@pytest.mark.parametrize("empty_stub", ["short", "reshuffle"])
def test_exchange_never_duplicates_and_never_returns_own_discards(empty_stub: str) -> None:
    rules = CHICAGO.replace(players=6, empty_stub=empty_stub)
    rng = np.random.default_rng(8)
    rows = 400
    dealer = rng.integers(6, size=rows)
    hands, stub = pts.deal(rows, 6, dealer, rng)
    thrown_by = np.zeros((rows, 52, 6), dtype=bool)  # seat ever discarded the card
    for k in range(3):
        before = hands.copy()
        got = pts.exchange(hands, stub, dealer, rules, _throw_all if k else _keep_first_two, rng, k)
        flat = hands.reshape(rows, 30)
        assert all(len(set(r)) == 30 for r in flat.tolist())
        for seat in range(6):
            new = [set(hands[i, seat].tolist()) - set(before[i, seat].tolist()) for i in range(rows)]
            assert [len(n) for n in new] == got[:, seat].tolist()
            for i, n in enumerate(new):
                assert not any(thrown_by[i, c, seat] for c in n)  # never their own discard
                if empty_stub == "short":
                    assert not any(thrown_by[i, c].any() for c in n)  # discards left the deal
            for i in range(rows):
                for c in set(before[i, seat].tolist()) - set(hands[i, seat].tolist()):
                    thrown_by[i, c, seat] = True
    # 30 cards dealt leave 22: the first exchange (3 each, 18 cards) fits; later ones cannot.
    if empty_stub == "short":
        assert int(got.sum(axis=1).max()) == 0  # by the third round the stub is empty
    else:
        assert (got.sum(axis=1) > 0).all()


def test_short_stub_exchanges_only_what_is_left_keeping_the_best_discards() -> None:
    rules = POENG.replace(players=6)
    rng = np.random.default_rng(2)
    dealer = np.zeros(50, dtype=np.int64)
    hands, stub = pts.deal(50, 6, dealer, rng)
    first = hands.copy()
    got = pts.exchange(hands, stub, dealer, rules, _throw_all, rng)
    order = [(1 + o) % 6 for o in range(6)]
    assert got[:, order].tolist() == [[5, 5, 5, 5, 2, 0]] * 50  # 22 cards in the stub
    fifth = order[4]
    for before, after in zip(first[:, fifth], hands[:, fifth], strict=False):
        stayed = sorted(set(before.tolist()) & set(after.tolist()))
        assert stayed == sorted(before.tolist())[2:]  # the three highest cards stay


# --- whole deals and games (with the draw policies) ------------------------------------------------

@pytest.mark.parametrize("name", ["poengpoker", "chicago"])
def test_every_deal_awards_exactly_the_points_the_rules_give(name: str) -> None:
    from drawodds.policies import draw_policy

    rules = preset(name, players=5)
    rng = np.random.default_rng(21)
    keep = pts.policy_keep([draw_policy("standard")] * 5, rules, rng)
    res = pts.play_deals(3000, rules, rng.integers(5, size=3000), keep, sensible_play, rng)
    strength = evaluate(res.hands)
    best = strength.max(axis=1)
    n_best = (strength == best[:, None]).sum(axis=1)
    table = np.array(rules.hand_points)[category_of(best)]
    assert (res.hand_points.sum(axis=1) == np.where(n_best == 1, table, 0)).all()
    assert ((res.hand_points > 0).sum(axis=1) <= 1).all()
    assert (res.trick_points.sum(axis=1) == rules.last_trick_points).all()
    assert (res.trick_points[np.arange(3000), res.tricks.last_winner] == rules.last_trick_points).all()
    assert all(len(set(r)) == 25 for r in res.hands.reshape(3000, 25).tolist())
    assert res.exchanged.shape[1] == rules.draws


@pytest.mark.parametrize("name, players", [("poengpoker", 2), ("poengpoker", 6), ("chicago", 3)])
def test_a_game_always_ends_with_a_winner_past_the_target(name: str, players: int) -> None:
    rules = preset(name, players=players)
    record = pts.play_games(rules, 300, [pts.points_player("sensible")] * players,
                            np.random.default_rng(4))
    assert np.allclose(record.wins.sum(axis=1), 1.0)
    winner_score = (record.scores * (record.wins > 0)).max(axis=1)
    assert (winner_score >= rules.target_points).all()
    # Before the final deal nobody had reached the target: the final deal gave at most 8 + trick.
    most = max(rules.hand_points) + rules.last_trick_points
    if name == "chicago":
        most = max(most, pts.ROYAL_POINTS)
    assert (record.scores.max(axis=1) < rules.target_points + most).all()
    assert record.deals.min() >= math.ceil(rules.target_points / most)


def test_simulate_points_summary_is_consistent_and_reproducible() -> None:
    rules = preset("poengpoker", players=3)
    a = pts.simulate_points(rules, games=400, seed=9, players=["sensible", "random", "random"])
    b = pts.simulate_points(rules, games=400, seed=9, players=["sensible", "random", "random"])
    # Same seed, same bytes: the wall-clock time is an attribute, not part of the JSON.
    assert a.to_json() == b.to_json() and "seconds" not in a.to_dict() and a.seconds > 0
    d = a.to_dict()
    assert d["hand_share"]["value"] + d["trick_share"]["value"] == pytest.approx(1.0)
    assert sum(e["value"] for e in d["win_rate_by_seat"]) == pytest.approx(1.0)
    assert d["deals_per_game"]["value"] >= 2 and d["deals_per_game"]["se"] > 0
    assert set(d["win_rate_by_policy"]) == {"sensible", "random"}
    with pytest.raises(RuleError, match="not a points game"):
        pts.simulate_points(preset("morkpoker"), games=10, seed=1)
    with pytest.raises(ValueError, match="one policy or one per seat"):
        pts.simulate_points(rules, games=10, seed=1, players=["sensible"] * 2)


# --- what to keep ----------------------------------------------------------------------------------

def test_points_by_hold_rows_and_common_random_numbers() -> None:
    df = pts.points_by_hold("2c 2d As 9h 6c", POENG, opponents=2, trials=300, seed=3)
    assert len(df) == 32 and set(df["draw"]) == {0, 1, 2, 3, 4, 5}
    assert list(df.columns[:9]) == ["keep", "discard", "draw", "points_hand", "points_hand_se",
                                    "points_trick", "points_trick_se", "points", "points_se"]
    assert np.allclose(df["points"], df["points_hand"] + df["points_trick"])
    assert (df["points"].diff().dropna() <= 0).all()
    again = pts.points_by_hold("2c 2d As 9h 6c", POENG, opponents=2, trials=300, seed=3)
    assert df.equals(again)
    # Chicago with the traditional draw limit of three: only holds of two or more cards.
    limited = pts.points_by_hold("2c 2d As 9h 6c", CHICAGO.replace(max_draw="3"), opponents=1,
                                 trials=50, seed=3)
    assert len(limited) == 26 and limited["draw"].max() == 3


def test_a_pat_royal_flush_scores_its_hand_and_chicago_skips_the_tricks() -> None:
    royal = "Ts Js Qs Ks As"
    df = pts.points_by_hold(royal, POENG, opponents=3, trials=400, seed=1).set_index("keep")
    assert df.loc[royal, "points_hand"] == 8.0  # nobody else can tie an ace-high straight flush
    # Standing pat with the royal still keeps the ace for the last trick.
    assert df.loc[royal, "points_trick"] > 2 / 4
    chicago = pts.points_by_hold(royal, CHICAGO, opponents=3, trials=200, seed=1).set_index("keep")
    assert chicago.loc[royal, "points_hand"] == 52.0 and chicago.loc[royal, "points_trick"] == 0.0


def test_points_by_hold_rejects_bad_input() -> None:
    with pytest.raises(RuleError, match="not a points game"):
        pts.points_by_hold("2c 2d As 9h 6c", preset("morkpoker"), opponents=2, trials=10, seed=1)
    with pytest.raises(RuleError, match="2-6 players"):
        pts.points_by_hold("2c 2d As 9h 6c", POENG, opponents=6, trials=10, seed=1)
    with pytest.raises(ValueError, match="five cards|5 cards"):
        pts.points_by_hold("2c 2d As 9h", POENG, opponents=2, trials=10, seed=1)
    with pytest.raises(ValueError, match="duplicate"):
        pts.points_by_hold([0, 0, 5, 9, 13], POENG, opponents=2, trials=10, seed=1)
    with pytest.raises(ValueError, match="not a card"):
        pts.points_by_hold([0, 1, 5, 9, 60], POENG, opponents=2, trials=10, seed=1)
    with pytest.raises(ValueError, match="DRAW:TRICK"):
        pts.simulate_points(POENG, games=10, seed=1, players="rule")


def test_pair_and_ace_sampler_and_the_chart_table() -> None:
    hands = pts.sample_pair_and_ace(500, np.random.default_rng(0))
    ranks = np.sort(hands // 4, axis=1)
    assert all(len(set(h)) == 5 for h in hands.tolist())
    for r in ranks.tolist():
        counts = {x: r.count(x) for x in r}
        pair = [x for x, c in counts.items() if c == 2]
        assert sorted(counts.values()) == [1, 1, 1, 2] and pair[0] <= 5 and counts.get(12) == 1
    df = pts.ace_vs_small_pair(POENG, players=(2, 4), trials=200, seed=1)
    assert df["players"].tolist() == [2, 4]
    assert ((df["ace_beats_pair"] + df["pair_beats_ace"]) <= 1).all()
    assert np.allclose(df["ace_minus_pair"], df["points_ace"] - df["points_pair"])
    assert (df["ace_minus_pair_se"] > 0).all()


def test_our_later_exchanges_keep_the_ace_for_the_last_trick() -> None:
    """Chicago's second and third exchanges: the draw policy, with an ace kept as a kicker to a
    pair (the plain policy throws it) and a lone ace kept from nothing."""
    rules = preset("chicago")
    hands = np.array([parse_cards(h) for h in ("2c 2d As 9h 6c", "Tc 9s 6d 3h As", "Kc Kd As 9h 6c")])
    plain = pts.choose_holds(pts.draw_policy("standard"), hands, rules)
    aware = pts.choose_holds(pts.points_draw(), hands, rules)
    ace = hands == parse_cards("As")[0]
    assert (plain & ace).sum(axis=1).tolist() == [0, 1, 0]   # a pair throws its ace kicker
    assert (aware & ace).sum(axis=1).tolist() == [1, 1, 1]
    assert aware.sum(axis=1).tolist() == [3, 1, 3]


def test_chicago_pair_and_ace_keeps_its_ace_in_the_later_exchanges() -> None:
    """2♣ 2♦ A♠ 9♥ 6♣ in Chicago: with the ace thrown at the second exchange, pair + ace scored
    0.71 last-trick points against 1.92 for 2♣ A♠ and ranked 25th, below keeping nothing. Played on,
    the ace stays: pair + ace wins the last trick far more often than the pair alone and ranks
    with the ace holds."""
    df = pts.points_by_hold("2c 2d As 9h 6c", preset("chicago"), opponents=3, trials=2000, seed=1)
    row = {k: r for k, r in zip(df.keep, df.itertuples(), strict=True)}
    pair_ace, pair, nothing = row["2c 2d As"], row["2c 2d"], row[""]
    assert pair_ace.points_trick > pair.points_trick + 0.4
    assert pair_ace.points > pair.points + 0.3 and pair_ace.points > nothing.points
    assert list(df.keep).index("2c 2d As") < 15
