"""Exact best responses to a solved strategy: the abstract game's, and the real game's machinery."""

from __future__ import annotations

import numpy as np
import pytest

from drawodds.combinatorics import combinations
from drawodds.evaluate import evaluate
from drawodds.solver import cfr
from drawodds.solver.best_response import best_response
from drawodds.solver.classes import deal_classes
from drawodds.solver.expectations import hold_expectations, strength_spread, subset_tables
from drawodds.solver.subsets import N_STRENGTHS


def test_abstract_resolution_reproduces_the_solvers_best_responses(small_solution) -> None:
    solver = cfr.evaluate_profile(small_solution.game.tree, list(small_solution.strategy))
    ours = best_response(small_solution, "abstract")
    assert ours.best_response[0] == pytest.approx(solver.best_response[0], abs=1e-9)
    assert ours.best_response[1] == pytest.approx(solver.best_response[1], abs=1e-9)
    assert ours.exploitability == pytest.approx(small_solution.exploitability, abs=1e-9)


def test_an_unknown_resolution_is_refused(small_solution) -> None:
    with pytest.raises(ValueError, match="resolution"):
        best_response(small_solution, "perfect")


def _enumerated(cls: int, hold: int, values: np.ndarray) -> float:
    """Mean of a value per strength over every draw to one hold of a deal class."""
    rep = deal_classes()[0][cls].astype(np.int64)
    kept = rep[[p for p in range(5) if hold >> p & 1]]
    unseen = np.setdiff1d(np.arange(52), rep)
    d = 5 - len(kept)
    draws = unseen[combinations(len(unseen), d).astype(np.int64)]
    hands = np.concatenate([np.broadcast_to(kept, (len(draws), len(kept))), draws], axis=1)
    return float(values[evaluate(hands)].mean())


@pytest.mark.parametrize("hold", [0b11111, 0b01111, 0b10110, 0b00111, 0b00011])
def test_hold_expectations_match_enumerating_every_draw(hold: int) -> None:
    rng = np.random.default_rng(7)
    values = rng.normal(size=(N_STRENGTHS, 2))
    t = subset_tables()
    classes = np.array([0, 17, 5_000, 77_777, 134_458])
    d = 5 - bin(hold).count("1")
    got = hold_expectations(t, values, np.full(len(t.own), hold, dtype=np.int64), d)[classes]
    for i, c in enumerate(classes):
        for j in range(2):
            assert got[i, j] == pytest.approx(_enumerated(int(c), hold, values[:, j]), abs=1e-12)


def test_strength_spread_is_the_transpose_of_hold_expectations() -> None:
    rng = np.random.default_rng(3)
    t = subset_tables()
    n = len(t.own)
    holds = rng.choice([0b00111, 0b11010, 0b01101], size=n)     # three cards kept, two drawn
    weights = rng.random((2, n)) * (rng.random(n) < 0.01)
    values = rng.normal(size=(N_STRENGTHS, 3))
    spread = strength_spread(t, weights, holds, 2)
    assert spread.sum(axis=1) == pytest.approx(weights.sum(axis=1), rel=1e-12)
    assert (spread > -1e-12).all()
    assert spread @ values == pytest.approx(weights @ hold_expectations(t, values, holds, 2), rel=1e-10)


def test_the_solution_against_itself_is_zero_sum_in_the_real_game_and_its_best_response_plays_out(
        small_solution) -> None:
    """Played by both seats in the real game (exact strengths, no card removal) the solution's
    values add up to zero; its full best response, played with real cards from a deck for each
    seat, wins what the exact computation says (within four standard errors)."""
    from drawodds.solver.best_response import RESOLUTIONS, _Game, card_removal

    own = _Game(small_solution, RESOLUTIONS["full"], (False, False, False))
    assert own.seat_value(0)[0] + own.seat_value(1)[0] == pytest.approx(0.0, abs=1e-12)
    exact = best_response(small_solution, "full").best_response
    for seat in (0, 1):
        played = card_removal(small_solution, seat, 20_000, np.random.default_rng(5 + seat), shared_deck=False)
        assert abs(played.value - played.exact) < 4 * played.standard_error
        assert played.exact == pytest.approx(exact[seat], abs=1e-12)


def test_the_heads_up_best_response_gives_the_numbers_it_gave_before_it_served_three_seats(small_solution) -> None:
    """The one implementation for any number of seats reproduces the heads-up figures of the
    two-seat code it replaced (computed by that code, run on the session's small solution as the
    solver now solves it, with four of a kind keeping its four)."""
    assert best_response(small_solution, "abstract").best_response == pytest.approx(
        (-0.07804244374860866, 0.0887495364615698), abs=1e-12)
    assert best_response(small_solution, "full").best_response == pytest.approx(
        (-0.06728517459996737, 0.10245291988938268), abs=1e-12)


def test_a_buckets_spread_is_its_classes_strength_spread(small_abstraction) -> None:
    """``group_spread`` (one count per class) is ``strength_spread`` with a row per bucket."""
    from drawodds.solver.expectations import group_spread

    a, t = small_abstraction, subset_tables()
    w = a.class_weights.astype(np.float64)
    mass = np.bincount(a.class_bucket, weights=w)
    for k in (1, 3):
        holds = a.class_holds[:, k]
        chosen = np.flatnonzero(np.isin(a.class_bucket, [3, 40, 77]) & (holds >= 0))
        share = w[chosen] / mass[a.class_bucket[chosen]]
        got = group_spread(t, a.class_bucket[chosen], share, a.pre_buckets, holds[chosen], a.options[k], chosen)
        rows = np.zeros((3, len(chosen)))
        for i, b in enumerate((3, 40, 77)):
            rows[i] = np.where(a.class_bucket[chosen] == b, share, 0.0)
        want = strength_spread(t, rows, holds[chosen], a.options[k], chosen)
        assert got[[3, 40, 77]] == pytest.approx(want, abs=1e-15)
        assert np.abs(np.delete(got, [3, 40, 77], axis=0)).max() == 0.0


def test_without_the_cached_moves_the_buckets_move_the_same(small_solution, monkeypatch) -> None:
    """A large abstraction (the default heads-up one) does not keep the buckets' moves over the
    draw (``_moves``) but works them out per call, class by class: the same products (forced here
    on the small one), both ways (the opponent's reach forward, value vectors back)."""
    from drawodds.solver import best_response as br

    game = br._Game(small_solution, br.RESOLUTIONS["full"], (True, True, True), br._Cache())
    rng = np.random.default_rng(3)
    a = small_solution.abstraction
    part, vectors = rng.random((5, a.pre_buckets)), rng.random((4, N_STRENGTHS))
    kept = {(k, v): (part @ game._moves[(k, v)], vectors @ game._moves[(k, v)].T)
            for k in range(len(a.options)) for v in range(len(a.hold_columns(k)))}
    assert game._moves_fit
    monkeypatch.setattr(br, "MOVES_BYTES", 0)
    assert not game._moves_fit
    for (k, v), (forward, back) in kept.items():
        np.testing.assert_allclose(game._moved(k, v, part), forward, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(game._through_moves(vectors, k, v), back, rtol=1e-12, atol=1e-15)
