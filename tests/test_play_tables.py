"""The betting players' precomputed draw tables make exactly the holds the draw policies make."""

from __future__ import annotations

import numpy as np
import pytest

from drawodds.combinatorics import subset_rank
from drawodds.engine import players
from drawodds.holds import hold_numbers
from drawodds.policies import draw_policy, hold_plan
from drawodds.rules import preset


def _random_hands(rng: np.random.Generator, deck: int, count: int) -> np.ndarray:
    return np.sort(rng.permuted(np.tile(np.arange(deck, dtype=np.int8), (count, 1)), axis=1)[:, :5], axis=1)


@pytest.mark.parametrize(("policy", "params", "built", "asked"), [
    ("standard", {}, preset("morkpoker", players=2), preset("jackpot", players=7)),
    ("loose", {"snow": 0.05, "snow_hands": "any"}, preset("morkpoker", max_draw="4-ace"),
     preset("svensk", players=4, max_draw="4-ace")),
    ("standard", {"snow": 0.1, "break_rate": 0.2}, preset("morkpoker", joker=True, max_draw="4-ace"),
     preset("morkpoker", joker=True, max_draw="4-ace", players=3)),
])
def test_the_hold_table_is_the_policy_for_every_hand_it_is_asked(policy, params, built, asked) -> None:
    """Built once per suit class and shared by every table size: the same holds and rates as the
    policy asked hand by hand, under rules that differ in anything but the deck and draw limits."""
    pol = draw_policy(policy, **params)
    assert players._draw_key(pol, built) == players._draw_key(pol, asked)
    keep, alt, rate_index, rates = players._hold_table(pol, built)
    hands = _random_hands(np.random.default_rng(5), built.deck_size, 20_000)
    if built.joker:   # make sure plenty of hands hold the joker
        hands = np.concatenate([hands, _random_hands(np.random.default_rng(6), 52, 5_000)])
        hands[-5_000:, 4] = 52
        hands = np.sort(hands, axis=1)
        hands = hands[(np.diff(hands, axis=1) > 0).all(axis=1)]
    plan = hold_plan(pol, hands, asked)
    r = subset_rank(hands)
    np.testing.assert_array_equal(np.frombuffer(keep, np.uint8)[r], hold_numbers(plan.keep))
    np.testing.assert_array_equal(np.frombuffer(alt, np.uint8)[r], hold_numbers(plan.alt_keep))
    np.testing.assert_array_equal(np.asarray(rates)[np.frombuffer(rate_index, np.uint8)[r]], plan.alt_rate)
    assert (plan.alt_rate > 0).any() == (len(rates) > 1)


def test_a_drawer_with_or_without_the_table_throws_the_same_cards_and_draws_the_same_numbers() -> None:
    rules = preset("morkpoker", players=4)
    hands = _random_hands(np.random.default_rng(9), 52, 800).tolist()
    drawers = []
    for _ in range(2):
        d = players.Drawer(rules, np.random.default_rng(3), "standard", snow=0.3, break_rate=0.5)
        drawers.append(d)
    with_table, by_pattern = drawers
    with_table.table = players._hold_table(with_table.policy, rules)
    by_pattern.table = None
    players._ASKED.pop(by_pattern.key, None)
    by_pattern._cache = {}
    limit, before = players._TABLE_AFTER_MISSES, players._BUILT.pop(by_pattern.key, None)
    players._TABLE_AFTER_MISSES = 10 ** 9   # stay on the per-pattern path
    try:
        for hand in hands:
            for limit_cards in (3, 2):
                assert with_table.discards(hand, limit_cards) == by_pattern.discards(hand, limit_cards)
    finally:
        players._TABLE_AFTER_MISSES = limit
        if before is not None:
            players._BUILT[by_pattern.key] = before
    assert by_pattern.table is None and len(by_pattern._cache) > 100
    assert with_table.rng.random() == by_pattern.rng.random()


def test_build_tables_builds_once_for_every_table_size_and_only_for_players_that_open() -> None:
    rules = preset("jackpot", players=5)
    key = players._draw_key(draw_policy("standard"), rules)
    players._BUILT.pop(key, None)
    players.build_tables(rules, ["random", "snower", "station", "trips"])
    assert key not in players._BUILT
    players.build_tables(rules, ["random", "rule"])
    table = players._BUILT[key]
    players.build_tables(preset("morkpoker", players=3), ["raiser"])
    assert players._BUILT[key] is table
    assert players.make_player("rule", preset("morkpoker", players=2), np.random.default_rng(1)).drawer.table is table


def _reference_bet(player: players.RuleBased, obs) -> str:
    """The rule player's betting decision written out plainly from its docstring (share of hands
    beaten, a four-flush as a medium pair before the draw, a snow as a flush), for comparison."""
    share = player.pct[obs.strength]
    if obs.round == 0 and obs.strength < player.pair:
        suits = [0, 0, 0, 0]
        for c in obs.hand:
            if c < 52:
                suits[c & 3] += 1
        if max(suits) >= 4:
            share = max(share, 0.7)
    if player._snowing == obs.deal_id:
        share = max(share, player.pct[player.flush])
    if isinstance(player, players.AlwaysSnow):
        share = max(player.pct[obs.strength], player.pct[player.flush])
    opponents = sum(1 for s in obs.seats if s != obs.seat and not obs.folded[s])
    win = player._win(obs, obs.strength, share, opponents)
    if obs.can("bet") and share >= player.open_share:
        return "bet"
    if obs.can("raise") and obs.raises <= player.own_cap and win >= player.raise_share ** 2 \
            and share >= player.raise_share:
        return "raise"
    if obs.to_call <= 0:
        return "check"
    return "call" if win * (obs.pot + obs.to_call) >= obs.to_call else "fold"


@pytest.mark.parametrize(("game", "seats", "names"), [
    ("morkpoker", 4, "rule"), ("jackpot", 6, "rule,reader,snower,pat,rule,rule"),
    ("morkpoker", 2, "rule,reader"), ("svensk", 3, "rule"),
])
def test_every_betting_decision_of_the_rule_players_is_the_plain_rule(game, seats, names) -> None:
    from drawodds.engine.deal import DealState, play
    from drawodds.engine.session import DeckSupply

    rules = preset(game, players=seats)
    decks = DeckSupply(np.random.default_rng(4), rules.deck_size)
    names_list = names.split(",") if "," in names else [names] * seats
    seat_players = [players.make_player(n, rules, np.random.default_rng(i)) for i, n in enumerate(names_list)]
    checked = 0
    seen: set[str] = set()

    def checking(p: players.RuleBased):
        def decide(obs):
            nonlocal checked
            action = p(obs)
            if obs.phase == "bet":
                assert action.kind == _reference_bet(p, obs)
                seen.add(action.kind)
                checked += 1
            return action
        return decide

    for d in range(600):
        play(DealState(rules, [rules.stack] * seats, d % seats, decks.next(), deal_id=d),
             [checking(p) for p in seat_players])
    assert checked > 2_000 and len(seen) >= 4
