"""Each seat's best response to a three-handed solution (``best_response.seat_gains``): in the
abstract game it is the solver's own, at finer resolutions it only gains more, the solution's
values add up to zero in every model, and at exact final hands it agrees with the generic CFR
evaluation of the same game spelled out over exact strengths. On the small abstraction of the
session with no raises (nine lines to the draw)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from drawodds.solver import cfr
from drawodds.solver.best_response import LEAK_STAGES, RESOLUTIONS, SeatGains, _Game, card_removal, leaks, seat_gains
from drawodds.solver.subsets import N_STRENGTHS
from drawodds.solver.table import solve_table


@pytest.fixture(scope="module")
def table(small_abstraction):
    """Three-handed Mørkpoker on the small abstraction, no raises, 30 iterations of discounted CFR."""
    return solve_table(small_abstraction.rules, abstraction=small_abstraction, iterations=30, raises=0)


@pytest.fixture(scope="module")
def final(table):
    return seat_gains(table, "final")


def test_in_the_abstract_game_each_seat_gains_what_the_solver_measured(table):
    """The solver's gains come from cfr's generic evaluation of the tree; the walk here is another
    computation of the same numbers (the buckets' transitions sum to one within 4e-8: stored in
    single precision, which the tree's folded seats see and the walk's do not)."""
    ours = seat_gains(table, "abstract")
    assert ours.value == pytest.approx(table.value, abs=1e-8)
    assert ours.seat_gains == pytest.approx(table.seat_gains, abs=1e-8)
    assert ours.exploitability == pytest.approx(table.exploitability, abs=1e-8)


def _strength_game(solution, moves):
    """The table's tree with every draw moving a bucket to exact strengths (``moves``) and the
    post-draw strategies read by the bucket of each strength: the game the walk calls ``final``,
    for cfr's generic evaluation."""
    a, tree = solution.abstraction, solution.game.tree
    known = [(key, a.hold_transitions(key[0])[key[1]]) for key in moves]

    def spread(matrix):
        return next(moves[key] for key, m in known if m.shape == matrix.shape and np.array_equal(m, matrix))

    nodes = [dataclasses.replace(nd, matrices=np.stack([spread(m) for m in nd.matrices]))
             if isinstance(nd, cfr.Transition | cfr.Choice) else nd for nd in tree.nodes]
    spaces = (tree.spaces[0], cfr.Space(N_STRENGTHS, np.arange(N_STRENGTHS, dtype=np.float64), "strength"))
    game = cfr.build_tree(nodes, 0, spaces, (0,) * tree.players, tree.priors)
    strategy = [s if s is None or tree.node_spaces[i, tree.nodes[i].player] == 0 else s[:, a.final_of_strength, :]
                for i, s in enumerate(solution.strategy)]
    return game, strategy


def test_at_exact_final_hands_the_walk_agrees_with_cfrs_evaluation(table, final):
    """Brute force by another road: the whole game over exact strengths as one public tree, the
    middle seat's value and best response by cfr's generic passes (it draws between the others)."""
    game, strategy = _strength_game(table, _Game(table, RESOLUTIONS["final"])._moves)
    c = cfr._compile(game)
    profile = cfr._action_major(strategy)
    seat = 1
    reach = [None if p == seat else cfr._reach(c, profile, p) for p in range(3)]
    value, best = (float(game.priors[seat] @ cfr._values(c, profile, reach, seat, best)[0][0][0])
                   for best in (False, True))
    assert final.value[seat] == pytest.approx(value, abs=1e-12)
    assert final.best_response[seat] == pytest.approx(best, abs=1e-12)


def test_the_solution_is_zero_sum_in_the_real_game_and_knowing_more_only_gains(table, final):
    """The solution against itself with showdowns by exact hands sums to zero over the seats; a
    seat's best response gains at least nothing, and knowing its deal class and keeping any cards
    gains at least what knowing its final hand does."""
    assert sum(final.value) == pytest.approx(0.0, abs=1e-12)
    assert min(final.seat_gains) >= -1e-12
    seat = 0                                          # the first to draw: the fewest rows at its draw
    full, _ = _Game(table, RESOLUTIONS["full"]).seat_value(seat)
    assert full >= final.best_response[seat] - 1e-12
    best = tuple(full if i == seat else b for i, b in enumerate(final.best_response))
    data = SeatGains("full", final.value, best, 1.0).to_dict()
    assert data["antes_per_deal"] == max(data["seat_gains"]) and data["milli_antes"] == 1000 * data["antes_per_deal"]
    assert data["seat_gains"][seat] == pytest.approx(full - final.value[seat])


def test_the_leaks_of_a_seat_sum_to_its_gain_in_the_real_game(table):
    """Where a seat's exploiter gains, by kind of hand and stage: the stages telescope from the
    solution's own play to the full best response, so the seat's rows sum to its real-game gain
    (seat 0 here: four exact passes, against the two of its best response and its value)."""
    found = leaks(table, seats=(0,))
    assert set(found["seat"]) == {0} and set(found["stage"]) == set(LEAK_STAGES)
    best = _Game(table, RESOLUTIONS["full"], (True, True, True)).seat_value(0)[0]
    own = _Game(table, RESOLUTIONS["final"], (False, False, False)).seat_value(0)[0]
    assert found["milli_antes"].sum() == pytest.approx(1000 * (best - own), abs=1e-9)


def test_a_seats_full_best_response_plays_out_as_computed(table):
    """The exploiter's recorded choices (its deal class, its cards, its exact final hand), played
    with real cards from a deck for each seat against the other two sampling the solution, win
    what the exact best response computes for that seat (within four standard errors). Seat 0:
    the first to act, whose draw comes before the others' (the heads-up test covers the dealer's
    rows; the table's rows are the play loop's, tested in test_table_playout)."""
    played = card_removal(table, 0, 60_000, np.random.default_rng(9), shared_deck=False)
    assert abs(played.value - played.exact) < 4 * played.standard_error
