"""The whole-table solver against direct enumeration, the 9/6 return, and its identities."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from drawodds.cards import JOKER
from drawodds.combinatorics import combinations
from drawodds.evaluate import evaluate
from drawodds.rules import preset
from drawodds.strategy import (N_HOLDS, POPCOUNT, hold_numerators, jacks_objective, make_solver,
                               parse_objective, paytable_objective, points_objective, solve,
                               subset_sums, suit_classes, suit_orbit_sizes)


def direct_numerators(deal: np.ndarray, values: np.ndarray, legal_draws: int, joker: bool = False
                      ) -> dict[int, int]:
    """Reference: for each hold (mask over the sorted deal) with at most ``legal_draws`` cards
    drawn, add up the objective over every possible draw, evaluated one hand at a time."""
    deal = np.sort(deal)
    n = 52 + int(joker)
    stub = np.setdiff1d(np.arange(n), deal)
    out = {}
    for m in range(N_HOLDS):
        kept = deal[[i for i in range(5) if m >> i & 1]]
        k = 5 - len(kept)
        if k > legal_draws:
            continue
        draws = stub[combinations(len(stub), k)]
        hands = np.hstack([np.broadcast_to(kept, (len(draws), len(kept))), draws])
        out[m] = int(values[evaluate(hands, joker=joker)].sum())
    return out


def random_deals(rng: np.random.Generator, count: int, n: int = 52) -> np.ndarray:
    return np.sort(np.stack([rng.choice(n, 5, replace=False) for _ in range(count)]), axis=1)


def check_against_direct(solver, deals: np.ndarray, legal_draws: int) -> None:
    got = solver.hold_values(deals)
    den = np.array([comb(solver.sums.n - 5, 5 - int(POPCOUNT[m])) for m in range(N_HOLDS)])
    for row in range(len(deals)):
        ref = direct_numerators(deals[row], solver.objective.values, legal_draws, solver.rules.joker)
        for m, total in ref.items():
            assert got.numerators[row, m] == total, (deals[row], m)
        assert set(np.flatnonzero(got.legal[row])) == set(ref)
        best_ref = max(ref, key=lambda m: (ref[m] / den[m], -m))   # ties: lowest mask
        assert got.best[row] == best_ref
        assert got.values[row, best_ref] == ref[best_ref] / den[best_ref]


def test_solver_matches_direct_enumeration_draw_three():
    rng = np.random.default_rng(7)
    rules = preset("morkpoker")
    deals = random_deals(rng, 150)
    for objective in (paytable_objective(), jacks_objective()):
        check_against_direct(make_solver(objective, rules), deals[:100] if objective.name == "jacks"
                             else deals, 3)


def test_solver_matches_direct_enumeration_any_draw_and_four_with_ace():
    rng = np.random.default_rng(11)
    deals = random_deals(rng, 12)
    check_against_direct(make_solver(paytable_objective(), preset("morkpoker", max_draw="any")), deals, 5)
    rules = preset("poengpoker", max_draw="4-ace")
    solver = make_solver(points_objective(rules), rules)
    aces = deals[(deals // 4 == 12).any(axis=1)][:3]
    got = solver.hold_values(aces)
    for row, deal in enumerate(aces):
        ref = direct_numerators(deal, solver.objective.values, 4)
        ace_bits = sum(1 << i for i in range(5) if deal[i] // 4 == 12)
        legal = {m for m in ref if 5 - POPCOUNT[m] <= 3 or m & ace_bits}
        assert set(np.flatnonzero(got.legal[row])) == legal
        assert all(got.numerators[row, m] == ref[m] for m in legal)


def test_joker_deck_matches_direct_enumeration():
    rng = np.random.default_rng(3)
    rules = preset("morkpoker", joker=True)
    deals = random_deals(rng, 6, n=53)
    deals[0] = np.sort([JOKER, 48, 49, 5, 20])             # make sure the joker is dealt
    check_against_direct(make_solver(jacks_objective(), rules), deals, 3)


def test_nine_six_jacks_or_better_returns_99_5439_percent():
    table = solve(paytable_objective(), preset("morkpoker", max_draw="any"))
    assert table.deals == 2_598_960 and table.classes == 134_459
    assert f"{table.value:.6f}" == "0.995439"


def test_inclusion_exclusion_identity_on_a_small_deck():
    n = 11
    rng = np.random.default_rng(5)
    hands = combinations(n, 5)
    values = rng.integers(-50, 50, len(hands))
    sums = subset_sums(values, n, integer=True)
    assert sums.total == values.sum()
    bits = (1 << hands.astype(np.int64)).sum(axis=1)       # every hand as a bit set
    got = hold_numerators(hands, values, sums)
    for m in range(N_HOLDS):
        kept = np.where((m >> np.arange(5)) & 1, 1 << hands.astype(np.int64), 0).sum(axis=1)
        # Hands F reached by keeping H from D: F ∩ D = H.
        reach = (bits[None, :] & bits[:, None]) == kept[:, None]
        np.testing.assert_array_equal(got[:, m], reach.astype(np.int64) @ values)


def test_suit_class_weights_cover_every_deal_once():
    reps, weights = suit_classes()
    assert len(reps) == 134_459
    assert weights.sum() == comb(52, 5)
    np.testing.assert_array_equal(weights, suit_orbit_sizes(reps))
    jreps, jweights = suit_classes(joker=True)
    assert jweights.sum() == comb(53, 5)
    np.testing.assert_array_equal(jweights, suit_orbit_sizes(jreps))


def test_objective_names_and_errors():
    rules = preset("morkpoker")
    assert parse_objective("vp:800/50/25/8/5/4/3/2/1", rules).values.max() == 800
    with pytest.raises(ValueError, match="pay table"):
        parse_objective("vp:1/2/3", rules)
    with pytest.raises(ValueError, match="unknown objective"):
        parse_objective("bogus", rules)
