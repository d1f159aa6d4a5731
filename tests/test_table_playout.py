"""A three-handed solution played out with real cards (``playout.play_table_out``): with a deck
for each seat and the showdown by final bucket it is the abstract game, so it gives back the
solver's value of every seat; every deal's chips add up to zero; a pot goes to the strongest
hand shown, ties split. On the small abstraction of the session, one raise a round."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from drawodds.errors import RequestError
from drawodds.rules import preset
from drawodds.solver import cfr
from drawodds.solver.playout import SolutionSeat, _pot_to_best, deal_table, play_table_block, play_table_out
from drawodds.solver.table_player import TableFactory, TablePlayer, TableTables, check_table_seats, play_in_engine


@pytest.fixture(scope="module")
def table(small_table):
    return small_table


def test_separate_decks_and_buckets_give_back_the_abstract_values(table):
    run = play_table_out(table, 150_000, np.random.default_rng(3), shared_deck=False, by_bucket=True)
    assert run.deals == 150_000 and not run.shared_deck
    for diff, se in zip(run.difference, run.standard_error, strict=True):
        assert abs(diff) < 4 * se + 1e-3
    assert sum(run.value) == pytest.approx(0.0, abs=1e-9)
    data = run.to_dict()
    assert len(data["value"]) == 3 and data["abstract_value"] == list(table.value)


def test_a_profile_that_hangs_on_every_row_is_played_as_the_tree_says(table):
    """Random, lopsided choices at every row of every node (each seat's draws, who is in, the
    line before the draw): a row read wrongly anywhere in the play loop moves the result far
    beyond its error; the exact values come from cfr's evaluation of the same profile."""
    rng = np.random.default_rng(5)
    weights = [None if s is None else rng.random(s.shape) ** 6 for s in table.strategy]
    strategy = tuple(cfr.normalize(table.game.tree, weights))
    values = cfr.evaluate_profile(table.game.tree, strategy).values
    profile = dataclasses.replace(table, strategy=strategy, value=values)
    run = play_table_out(profile, 150_000, np.random.default_rng(6), shared_deck=False, by_bucket=True)
    for diff, se in zip(run.difference, run.standard_error, strict=True):
        assert abs(diff) < 4 * se + 1e-3


@pytest.mark.parametrize("shared", [True, False])
def test_every_deal_is_zero_sum_and_a_seat_never_loses_more_than_it_can_put_in(table, shared):
    rng = np.random.default_rng(4)
    deal = deal_table(table, 20_000, rng, shared)
    if shared:            # one deck: fifteen different cards dealt
        cards = np.concatenate(deal.hands, axis=1)
        assert (np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1]).all()
    seats = [SolutionSeat(table, s, deal, rng) for s in range(3)]
    pay = play_table_block(table, deal, seats, shared)
    np.testing.assert_allclose(pay.sum(axis=1), 0.0, atol=1e-12)
    most = 1 + table.game.max_bets * (table.game.small + table.game.big)       # ante and every bet
    assert pay.min() >= -most - 1e-12
    assert (pay != 0).any(axis=0).all()                                        # every seat wins and loses


def test_the_pot_goes_to_the_strongest_hand_shown_ties_split():
    put = np.array([[1.0, 3.0, 3.0], [1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    shown = [np.array([9, 9, 9]), np.array([5, 7, 4]), np.array([4, 7, 6])]
    pay = _pot_to_best(put, (1, 2), shown)         # seat 0 folded: its cards do not count
    np.testing.assert_allclose(pay, [[-1, 4, -3], [-1, 0.5, 0.5], [-2, -2, 4]])
    three = _pot_to_best(put, (0, 1, 2), [np.array([7, 7, 1]), np.array([5, 7, 4]), np.array([4, 7, 6])])
    np.testing.assert_allclose(three, [[6, -3, -3], [-1 + 7 / 3, -3 + 7 / 3, -3 + 7 / 3], [-2, -2, 4]])
    alone = _pot_to_best(put[:1], (2,), [])
    np.testing.assert_allclose(alone, [[-1, -3, 4]])


def test_three_table_players_in_the_engine_play_as_the_vectorised_play_out(table):
    """The solution seated as three players in the rules engine (one deck, the dealer last, a deal
    everybody checks scored as a push) gives every seat what the vectorised one-deck play-out
    gives, within four standard errors; no decision falls outside the solution's tree (it would
    raise)."""
    engine = play_in_engine(table, 10_000, seed=4)
    fast = play_table_out(table, 200_000, np.random.default_rng(8))
    for e, f, se_e, se_f in zip(engine.value, fast.value, engine.standard_error, fast.standard_error, strict=True):
        assert abs(e - f) < 4 * np.hypot(se_e, se_f)
    assert sum(engine.value) == pytest.approx(0.0, abs=1e-9) and engine.shared_deck


def test_the_table_player_sits_at_three_only_and_for_its_own_rules(table):
    with pytest.raises(RequestError, match="three players, not 2"):
        check_table_seats(preset("morkpoker", players=2))
    factory = TableFactory(table)
    with pytest.raises(RequestError, match="other rules"):
        factory.check(preset("morkpoker", players=3, max_draw="4"))
    with pytest.raises(RequestError, match="other rules"):
        factory(preset("jackpot", players=3), np.random.default_rng(0))


def test_simulate_seats_the_three_handed_solution_from_its_file(table, tmp_path, capsys):
    """At a table of three, --policy equilibrium seats the three-handed solution (here from a file
    of the small one): deals play with equilibrium seats beside the rule players, the chips add up;
    a heads-up file is refused in one line."""
    import json

    from drawodds.cli import main
    from drawodds.solver.table import save_table_solution

    path = save_table_solution(table, tmp_path / "table.parquet")

    def run(*args):
        with pytest.raises(SystemExit) as exc:
            main(["simulate", *args])
        return exc.value.code, capsys.readouterr()

    code, out = run("--policy", "equilibrium,equilibrium,rule", "--players", "3", "--solution", str(path),
                    "--deals", "300", "--workers", "1", "--json")
    result = json.loads(out.out)
    assert code == 0 and result["players"] == 3
    assert [(p["policy"], p["seats"]) for p in result["policies"]] == [("equilibrium", 2), ("rule", 1)]
    assert [s["policy"] for s in result["seats"]] == ["equilibrium", "equilibrium", "rule"]
    assert sum(s["net"] for s in result["seats"]) == 0
    code, out = run("--policy", "equilibrium,rule", "--players", "3", "--solution", str(path), "--deals", "10")
    assert code == 2 and len(out.err.strip().splitlines()) == 1


def test_only_legal_actions_beside_other_players_and_short_stacks(table):
    """Beside players who raise past the model's two raises, short stacks and a seat sitting out,
    the table player answers every decision with a legal action (the engine's invariants hold);
    what the solution's tree does not hold it checks or calls, or draws by the nearest line."""
    import random

    from drawodds.engine.deal import play
    from drawodds.engine.invariants import random_deal, violations
    from drawodds.engine.players import make_player

    rules = table.rules.replace(players=3)
    tables = TableTables(table)
    mine = [TablePlayer(tables, rules, np.random.default_rng(s)) for s in range(3)]
    others = [make_player(n, rules, np.random.default_rng(14)) for n in ("raiser", "random", "snower")]
    rng = random.Random(11)
    for d in range(300):
        state = random_deal(rules, rng, deal_id=d)
        seats = [mine[0], others[d % 3], mine[1]] if d % 2 else list(mine)
        play(state, seats)
        assert violations(state) == []
    assert mine[0].unmapped > 0                  # the raisers took it off the tree, and it played on
