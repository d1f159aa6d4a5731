"""The whole-table solver against direct enumeration, the 9/6 return, and its identities."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from drawodds.analyses.strategy import (
    N_HOLDS,
    hold_numerators,
    jacks_objective,
    make_solver,
    parse_objective,
    paytable_objective,
    points_objective,
    solve,
    subset_sums,
    suit_classes,
    suit_orbit_sizes,
)
from drawodds.cards import JOKER
from drawodds.combinatorics import combinations
from drawodds.evaluate import evaluate
from drawodds.holds import HOLD_SIZES
from drawodds.rules import preset


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
    den = np.array([comb(solver.sums.n - 5, 5 - int(HOLD_SIZES[m])) for m in range(N_HOLDS)])
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
        legal = {m for m in ref if 5 - HOLD_SIZES[m] <= 3 or m & ace_bits}
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
    # 8/5 Jacks or Better (full house 8, flush 5): the published optimal return is 97.2984 %.
    eight_five = solve(parse_objective("vp:800/50/25/8/5/4/3/2/1", table.rules), table.rules)
    assert f"{eight_five.value:.6f}" == "0.972984"


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


# --- the field and equity ---------------------------------------------------------------------

from drawodds.analyses.condensed import first_match_holds  # noqa: E402
from drawodds.analyses.strategy import (  # noqa: E402
    equity_objective,
    equity_values,
    field_distribution,
    final_hand_distribution,
    simulate_equities,
    simulate_equity,
)
from drawodds.cards import parse_hand  # noqa: E402
from drawodds.patterns import hold_pattern_codes, hold_pattern_label  # noqa: E402


def stand_pat(hands: np.ndarray) -> np.ndarray:
    return np.ones(np.shape(hands), dtype=bool)


def test_equity_values_match_brute_force_with_ties():
    dist = np.zeros(6)
    dist[[1, 3, 5]] = [0.5, 0.3, 0.2]
    got = equity_values(dist, 2)
    support = [1, 3, 5]
    for s in support:
        ref = 0.0
        for a in support:
            for b in support:
                p = dist[a] * dist[b]
                best = max(a, b)
                if s > best:
                    ref += p
                elif s == best:
                    ref += p / (1 + (a == s) + (b == s))
        assert got[s] == pytest.approx(ref, abs=1e-15)


def test_final_hand_distribution_matches_direct_draws():
    deal = np.array([[0, 5, 13, 40, 51]])
    hold = 0b00110                                   # keep 3c and 5d, draw three
    dist = final_hand_distribution(deal, np.array([hold]), np.array([1.0]))
    stub = np.setdiff1d(np.arange(52), deal[0])
    draws = stub[combinations(47, 3)]
    hands = np.hstack([np.broadcast_to(deal[0, [1, 2]], (len(draws), 2)), draws])
    ref = np.bincount(evaluate(hands), minlength=len(dist)) / len(draws)
    np.testing.assert_allclose(dist, ref, atol=1e-15)
    # A field that always stands pat ends with the deal itself: the plain hand distribution.
    pat = field_distribution(preset("morkpoker"), stand_pat)
    np.testing.assert_allclose(pat * comb(52, 5), np.bincount(evaluate(combinations(52, 5)),
                                                              minlength=len(pat)), atol=1e-6)


def test_equity_solver_matches_direct_enumeration():
    rules = preset("morkpoker")
    dist = field_distribution(rules, stand_pat)
    solver = make_solver(equity_objective(dist, 2, "pat"), rules)
    rng = np.random.default_rng(4)
    deals = random_deals(rng, 5)
    got = solver.hold_values(deals)
    for row, deal in enumerate(deals):
        stub = np.setdiff1d(np.arange(52), deal)
        for m in (0b11111, 0b00011, 0b10101, 0b11000):
            kept = deal[[i for i in range(5) if m >> i & 1]]
            draws = stub[combinations(47, 5 - len(kept))]
            hands = np.hstack([np.broadcast_to(kept, (len(draws), len(kept))), draws])
            assert got.values[row, m] == pytest.approx(solver.objective.values[evaluate(hands)].mean(), rel=1e-12)


def test_simulated_equity_agrees_with_exact_pat_against_pat():
    deal = np.sort(parse_hand("9s 9h 7d 4c 2s"))
    rest = np.setdiff1d(np.arange(52), deal)
    theirs = evaluate(rest[combinations(47, 5)])
    ours = evaluate(deal)
    exact = (theirs < ours).mean() + 0.5 * (theirs == ours).mean()
    mean, se = simulate_equity(deal, 0b11111, 1, stand_pat, 20_000, np.random.default_rng(9))
    assert abs(mean - exact) < 4 * se
    # Common random numbers: two holds meet the same opponents, so their difference is sharper.
    means, ses, diff_se = simulate_equities(deal, [0b11111, 0b11111, 0b00011], 2, stand_pat, 5_000,
                                            np.random.default_rng(9))
    assert means[0] == means[1] and diff_se[1] == 0.0
    assert 0 < diff_se[2] < np.hypot(ses[0], ses[2])


# --- condensed strategy -----------------------------------------------------------------------

def code_of(hand: str, kept: str, joker: bool = False) -> str:
    deal = np.sort(parse_hand(hand, joker=joker))
    keep = set(parse_hand(kept, size=len(kept.split()), joker=joker).tolist()) if kept else set()
    mask = sum(1 << i for i, c in enumerate(deal) if int(c) in keep)
    return hold_pattern_label(int(hold_pattern_codes(deal[None, :], joker=joker)[0, mask]))


def test_pattern_labels_of_known_holds():
    assert code_of("As Ah Ks 7s 3s", "As Ah") == "pair of aces"
    assert code_of("As Ah Ks 7s 3s", "As Ks 7s 3s") == "4 to a flush, 2 high cards"
    assert code_of("Ts Js Qs Ks 2h", "Ts Js Qs Ks") == "4 to a royal flush"
    assert code_of("5h 6d 7c 8s Kd", "5h 6d 7c 8s") == "4 to an open straight, 0 high cards"
    assert code_of("Ah 2d 3c 4s Kd", "Ah 2d 3c 4s") == "4 to an inside straight, 1 high card"
    assert code_of("Kh Qh 3c 4s 9d", "Kh Qh") == "KQ suited"
    assert code_of("Kh Kd Kc 4s 9d", "Kh Kd Kc") == "three of a kind"
    assert code_of("9h 8h 7h 6h 5h", "9h 8h 7h 6h 5h") == "straight flush (stand pat)"
    assert code_of("9h 8h 7h 6h 5h", "") == "discard all five"
    assert code_of("As Ks Qs Js Jk", "As Ks Qs Js Jk", joker=True) == "straight flush with the joker (stand pat)"
    assert code_of("As 7d 4c 2h Jk", "As Jk", joker=True) == "joker + one card: ace"


def test_condensed_strategy_loss_is_measured_exactly(nine_six_plan):
    table, plan = nine_six_plan
    codes = hold_pattern_codes(table.holds.deals, fine=True)
    chosen = first_match_holds(table, plan.line_codes, codes)
    assert (chosen >= 0).all() and table.holds.legal[np.arange(len(chosen)), chosen].all()
    # The chosen hold matches the first printed line present among the legal holds.
    line = {c: i for i, codes_ in enumerate(plan.line_codes) for c in codes_}
    uniq, inv = np.unique(codes, return_inverse=True)
    pos = np.array([line.get(int(c), 10**6) for c in uniq])[inv].reshape(codes.shape)
    pos = np.where(table.holds.legal, pos, 10**6)
    np.testing.assert_array_equal(pos[np.arange(len(chosen)), chosen], pos.min(axis=1))
    got = table.holds.values[np.arange(len(chosen)), chosen]
    loss = ((table.holds.best_value - got) * table.weights).sum() / table.deals
    assert plan.loss == pytest.approx(loss, abs=1e-12)
    assert 0 <= plan.loss < 5e-4                    # within 0.05 % of the optimal 9/6 return
    assert sum(plan.share) == pytest.approx(1.0)


def test_chart_classifiers_on_known_hands():
    from drawodds.patterns import HOLD_TYPES, STARTING_HANDS, hold_type, starting_hand
    hands = np.sort(np.stack([parse_hand(h) for h in
                              ("As Ah Ks 7s 3s", "7s 8d 9c Th 2s", "Ks 9s 7s 3s 2h", "Qh Jd 8c 4s 2d",
                               "5h 5d 5c 4s 4d")]), axis=1)
    assert [STARTING_HANDS[i] for i in starting_hand(hands)] == [
        "pair of aces", "open-ended straight draw", "four-flush", "queen high or less", "straight or better"]
    codes = hold_pattern_codes(hands)
    assert HOLD_TYPES[hold_type(codes[0, 0])] == "draw five"
    pair_mask = sum(1 << i for i, c in enumerate(hands[0]) if c // 4 == 12)
    assert HOLD_TYPES[hold_type(codes[0, pair_mask])] == "keep the pair"
    assert HOLD_TYPES[hold_type(codes[4, 31])] == "stand pat"


# --- command line -----------------------------------------------------------------------------

def run_cli(capsys, *args):
    import drawodds.cli
    with pytest.raises(SystemExit) as exc:
        drawodds.cli.main(list(args))
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def test_strategy_cli_json_contract_and_table(capsys, tmp_path):
    import json

    import polars as pl
    out = tmp_path / "table.csv"
    code, text, _ = run_cli(capsys, "strategy", "--objective", "vp96", "--json", "--out", str(out))
    assert code == 0
    payload = json.loads(text)
    assert payload["objective"] == "vp96" and payload["rules"] == "morkpoker"
    assert f"{payload['value']:.6f}" == "0.995439"
    assert payload["deals"] == 2_598_960 and payload["classes"] == 134_459
    assert all({"pattern", "hold"} <= set(line) for line in payload["strategy"])
    assert 0 <= payload["strategy_loss"] < 5e-4
    frame = pl.read_csv(out)
    assert frame.height == 134_459 and frame["weight"].sum() == 2_598_960
    assert (frame["gap"] >= 0).all()


@pytest.mark.parametrize("args, fragment", [
    (["--objective", "bogus"], "unknown objective"),
    (["--objective", "vp:1/2"], "pay table"),
    (["--out", "table.txt"], ".parquet or .csv"),
    (["--objective", "equity", "--opponents", "9"], "opponents"),
    (["--objective", "equity", "--policy", "wild"], "unknown draw policy"),
    (["--objective", "jacks", "--check-removal", "5"], "--objective equity"),
    (["--objective", "equity", "--opponents", "6"], "at most 5 opponents, or for the list without card removal "
                                                     "(--no-card-removal)"),
    (["--objective", "equity", "--opponents", "7", "--hand", "As Ks Qs Js 2d"], "need 59"),
])
def test_strategy_cli_errors_are_one_line(capsys, args, fragment):
    code, _, err = run_cli(capsys, "strategy", *args)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_solver_matches_keep_exact_enumeration():
    """The same numbers as `keep --exact` (holds.exact_holds): legal holds, totals, best hold."""
    from drawodds.holds import exact_holds
    rng = np.random.default_rng(21)
    for rules, count in ((preset("morkpoker"), 60), (preset("morkpoker", max_draw="any"), 8),
                         (preset("morkpoker", max_draw="4-ace"), 20)):
        solver = make_solver(paytable_objective(), rules)
        deals = random_deals(rng, count)
        got = solver.hold_values(deals)
        pay = solver.objective.values.astype(np.int64)
        for row, deal in enumerate(deals):
            ref = exact_holds(deal, rules)
            masks = (ref.masks.astype(np.int64) << np.arange(5)).sum(axis=1)
            assert set(masks.tolist()) == set(np.flatnonzero(got.legal[row]).tolist())
            np.testing.assert_array_equal(got.numerators[row, masks], ref.counts @ pay)
            assert got.best_value[row] == ref.value(solver.objective.values).max()


def test_field_distribution_of_a_policy_matches_monte_carlo():
    """Exact field (policy asked once per suit class, deviations mixed at their rates) against
    simulated deals, holds and draws by the same policy, category by category within 4 SE."""
    from drawodds.evaluate import category_of
    from drawodds.policies import choose_holds, draw_policy
    rules = preset("morkpoker")
    policy = draw_policy("loose", snow=0.1)
    dist = field_distribution(rules, policy)
    exact = np.bincount(category_of(np.arange(1, len(dist))), weights=dist[1:], minlength=9)[:9]
    rng = np.random.default_rng(17)
    trials = 100_000
    deck = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (trials, 1)), axis=1)
    hands = deck[:, :5]
    keep = choose_holds(policy, hands, rules, rng)
    order = np.argsort(~keep, axis=1, kind="stable")
    slot = np.arange(5)[None, :] - keep.sum(axis=1)[:, None]
    drawn = np.take_along_axis(deck[:, 5:], np.clip(slot, 0, 4), axis=1)
    final = np.where(slot >= 0, drawn, np.take_along_axis(hands, order, axis=1))
    sim = np.bincount(category_of(evaluate(final)), minlength=9)[:9] / trials
    se = np.sqrt(exact * (1 - exact) / trials)
    assert (np.abs(sim - exact) <= 4 * se + 1e-12).all(), (sim, exact)


def test_category_probabilities_of_every_hold_sum_to_one():
    from drawodds.analyses.strategy import category_objective, draw_denominators
    rules = preset("morkpoker", max_draw="any")
    deals = random_deals(np.random.default_rng(8), 50)
    total = sum(make_solver(category_objective(c), rules).hold_values(deals).numerators for c in range(9))
    np.testing.assert_array_equal(total, np.broadcast_to(draw_denominators(52), total.shape))


@pytest.mark.parametrize("joker_counts,value", [(True, 0.48862874), (False, 0.48748212)])
def test_jacks_value_under_four_with_an_ace_and_the_joker(joker_counts, value):
    """The whole-deck value of the jacks objective with the joker under 4-ace: the joker counting
    as the ace (the default) offers more holds and a higher value than a real ace only."""
    rules = preset("morkpoker", joker=True, max_draw="4-ace", joker_is_ace_for_draw=joker_counts)
    table = solve(jacks_objective(), rules)
    assert table.value == pytest.approx(value, abs=5e-9)
