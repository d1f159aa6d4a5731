"""Reading draw counts: exact posteriors, final hands, card removal, the conditioned sampler, CLI."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from drawodds.analyses.read import read_draw
from drawodds.cards import parse_hand
from drawodds.cli import main
from drawodds.evaluate import CATEGORIES, HIGH_CARD, ONE_PAIR, category_of, evaluate
from drawodds.policies import PAIR, PATTERNS, draw_count_probabilities, draw_policy, hold_plan
from drawodds.rules import preset
from drawodds.sim.ranges import LABELS, final_exact, holdings, posterior, sample_conditioned

ALL = comb(52, 5)
# Made hands in a 52-card deck: straights, flushes, full houses, quads, straight flushes.
PAT_COUNTS = {"pat_straight": 10_200, "pat_flush": 5_108, "pat_full_house": 3_744,
              "pat_four_of_a_kind": 624, "pat_straight_flush": 40}
HIGH_CARD_HANDS = 1_302_540


def test_pat_posterior_is_the_made_hand_counts():
    r = read_draw(0)
    total = sum(PAT_COUNTS.values())
    assert r.p_draw == pytest.approx(total / ALL, rel=1e-12)
    assert r.holding == pytest.approx({k: v / total for k, v in PAT_COUNTS.items()}, rel=1e-12)
    assert r.final_method == "exact" and "snow" not in r.holding
    assert r.final["high_card"] == 0 and r.final["one_pair"] == 0   # snow 0: no bluffs among pat hands
    assert sum(r.final.values()) == pytest.approx(1.0)


def test_snow_posterior_and_break():
    r = read_draw(0, policy=draw_policy("standard", snow=0.05))
    snow = 0.05 * HIGH_CARD_HANDS   # every hand below a pair that is not pat may snow
    assert r.holding["snow"] == pytest.approx(snow / (snow + sum(PAT_COUNTS.values())), rel=1e-9)
    assert r.final["high_card"] == pytest.approx(r.holding["snow"], rel=1e-9)
    broken = read_draw(1, policy=draw_policy("standard", break_rate=0.5))
    assert broken.holding["broken_pat"] > 0


def test_trips_are_the_only_two_card_draws():
    r = read_draw(2, trials=2_000)
    assert r.p_draw == pytest.approx(54_912 / ALL, rel=1e-12)
    assert r.holding == {"trips": pytest.approx(1.0)}


BRUTE_HAND = "Ks Kd 7h 7s 2s"
BRUTE_POLICY = draw_policy("loose", snow=0.1, break_rate=0.3)
BRUTE_RULES = preset(max_draw="4-ace")


@pytest.fixture(scope="module")
def brute_force_plan():
    """Independent of the class table: hold_plan on every one of the C(47, 5) holdings."""
    from drawodds.combinatorics import combinations

    rest = np.setdiff1d(np.arange(52), parse_hand(BRUTE_HAND)).astype(np.int8)
    cards = rest[combinations(47, 5)]
    plan = hold_plan(BRUTE_POLICY, cards, BRUTE_RULES)
    probs = draw_count_probabilities(BRUTE_POLICY, cards, BRUTE_RULES)
    counts = np.stack([(cards // 4 == r).sum(1) for r in range(13)], axis=1)
    pair_rank = np.argmax(counts == 2, axis=1)
    category = plan.category.astype(np.int64)
    # Our own code per usual hold: 100 + category (pat), 200 + rank (pair), 300 + rank (pair +
    # kicker), 400 + pattern (others); 500 snow, 501 broken.
    code = np.select([plan.pattern == PATTERNS.index("pat"), plan.pattern == PAIR,
                      plan.pattern == PATTERNS.index("pair_with_kicker")],
                     [100 + category, 200 + pair_rank, 300 + pair_rank], 400 + plan.pattern.astype(np.int64))
    alt_code = np.where(plan.alt_keep.sum(1) == 4, 501, 500)
    return plan, probs, code, alt_code


def _name(code: int) -> str:
    if code >= 500:
        return ("snow", "broken_pat")[code - 500]
    if code >= 400:
        return PATTERNS[code - 400]
    if code >= 300:
        return LABELS[13 + code - 300]
    if code >= 200:
        return LABELS[code - 200]
    return "pat_" + CATEGORIES[code - 100]


@pytest.mark.parametrize("draw", [0, 1, 3, 4])
def test_posterior_equals_brute_force_with_card_removal(draw, brute_force_plan):
    plan, probs, code, alt_code = brute_force_plan
    usual = np.where(5 - plan.keep.sum(1) == draw, 1 - plan.alt_rate, 0.0)
    alt = probs[:, draw] - usual
    mass = np.bincount(code, weights=usual, minlength=502) + np.bincount(alt_code, weights=alt, minlength=502)
    want = {_name(c): mass[c] / probs[:, draw].sum() for c in np.flatnonzero(mass > 0)}
    got, p_draw = posterior(holdings(BRUTE_RULES, BRUTE_POLICY, tuple(sorted(parse_hand(BRUTE_HAND).tolist()))), draw)
    assert p_draw == pytest.approx(probs[:, draw].mean(), rel=1e-9)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], rel=1e-9, abs=1e-15)


def test_card_removal_shifts_the_posterior():
    r = read_draw(3, hand=parse_hand("As Ah Ad Kc Kd"), trials=2_000, equity_trials=2_000)
    plain = read_draw(3, trials=2_000)
    assert "pair_of_aces" not in r.holding                      # one ace left: no pair of aces
    assert r.holding["pair_of_kings"] < r.holding["pair_of_queens"]
    assert plain.holding["pair_of_kings"] == pytest.approx(plain.holding["pair_of_queens"])
    assert r.equity[0].draw == 0 and r.equity[0].equity > 0.95        # our pat full house


def test_a_pair_drawing_three_improves_4656_times_in_16215():
    rules = preset()
    held = holdings(rules, draw_policy(), ())
    pairs = np.isin(held.label[:, 0], np.arange(13)) & (held.draw[:, 0] == 3)
    some = np.zeros_like(pairs)
    some[np.flatnonzero(pairs)[::2000]] = True                  # ~550 pair holdings, each exact
    dist = final_exact(held, 3, rules, where=some)
    assert 1 - dist[ONE_PAIR] == pytest.approx(4_656 / 16_215, rel=1e-9)
    two_pair = (held.label[:, 0] == LABELS.index("two_pair")) & (held.draw[:, 0] == 1)
    dist = final_exact(held, 1, rules, where=two_pair)
    assert dist[CATEGORIES.index("full_house")] == pytest.approx(4 / 47, rel=1e-9)


def test_sampled_final_agrees_with_exact():
    exact = read_draw(1)
    sampled = read_draw(1, trials=60_000, seed=3, exact_budget=0)
    assert exact.final_method == "exact" and sampled.final_method == "monte carlo"
    for name, p in exact.final.items():
        se = max(sampled.final_se[name], 1e-4)
        assert abs(sampled.final[name] - p) <= 4 * se, name
    again = read_draw(1, trials=60_000, seed=3, exact_budget=0)
    assert again.final == sampled.final                         # same seed, same numbers


def test_sample_conditioned_hands_and_holds():
    rules = preset()
    policy = draw_policy("standard", snow=0.05)
    ours = parse_hand("9c 9d 5h 5s 2c")
    rng = np.random.default_rng(5)
    hands, keeps = sample_conditioned(rules, policy, [3, 1, 0], ours, 4_000, rng)
    assert hands.shape == (4_000, 3, 5) and keeps.shape == (4_000, 3, 5)
    flat = hands.reshape(4_000, 15)
    assert (np.sort(flat, axis=1)[:, 1:] != np.sort(flat, axis=1)[:, :-1]).all()   # no shared card
    assert not np.isin(flat, ours).any()
    np.testing.assert_array_equal(5 - keeps.sum(2), np.broadcast_to([3, 1, 0], (4_000, 3)))
    seq, seq_keeps = sample_conditioned(rules, policy, [3, 1, 0, 2, 3], ours, 500, rng)   # auto: gibbs
    assert (np.sort(seq.reshape(500, 25), 1)[:, 1:] != np.sort(seq.reshape(500, 25), 1)[:, :-1]).all()
    # One opponent who stood pat: the share of bluffs matches the exact posterior.
    n = 20_000
    pat, _ = sample_conditioned(rules, policy, [0], ours, n, rng)
    bluff = (category_of(evaluate(pat[:, 0])) <= HIGH_CARD).mean()
    post, _ = posterior(holdings(rules, policy, tuple(sorted(ours.tolist()))), 0)
    se = np.sqrt(post["snow"] * (1 - post["snow"]) / n)
    assert abs(bluff - post["snow"]) <= 4 * se
    with pytest.raises(ValueError):
        sample_conditioned(rules, policy, [4], ours, 10, rng)


def _run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    captured = capsys.readouterr()
    return exc.value.code, captured.out, captured.err


def test_cli_read_json_contract_and_errors(capsys):
    code, out, _ = _run(["read", "1", "--policy", "loose", "--json"], capsys)
    payload = json.loads(out)
    assert code == 0
    assert payload["draw"] == 1 and payload["policy"] == "loose" and payload["rules"] == "morkpoker"
    assert list(payload["final"]) == list(CATEGORIES[:9])
    assert sum(payload["holding"].values()) == pytest.approx(1.0)
    code, _, err = _run(["read", "5"], capsys)
    assert code == 2 and err.count("\n") == 1
    with pytest.raises(ValueError, match="52 is not a card number"):
        read_draw(1, hand=[0, 1, 2, 3, 52])
    code, _, err = _run(["read", "1", "--opener"], capsys)
    assert code == 2 and "Jacks or Better" in err
    code, out, _ = _run(["policies", "--json"], capsys)
    assert set(json.loads(out)) == {"standard", "loose", "tight"}
    code, out, _ = _run(["read", "2", "--rules", "jackpot", "--opener", "--trials", "2000"], capsys)
    assert code == 0 and "trips" in out


@pytest.mark.parametrize("rules", [preset(joker=True), preset(joker=True, max_draw="any")], ids=["joker", "joker-any"])
def test_class_table_matches_hold_plan_with_the_joker(rules):
    policy = draw_policy("loose", snow=0.2, snow_hands="any", break_rate=0.5)
    held = holdings(rules, policy, ())
    rows = np.random.default_rng(2).choice(len(held.cards), 40_000)
    rows = np.concatenate([rows, np.flatnonzero((held.cards == 52).any(1))[::50]])
    plan = hold_plan(policy, held.cards[rows], rules)
    np.testing.assert_array_equal(held.draw[rows, 0], 5 - plan.keep.sum(1))
    np.testing.assert_allclose(held.weight[rows, 1], plan.alt_rate)
    deviates = plan.alt_rate > 0
    np.testing.assert_array_equal(held.draw[rows, 1][deviates], 5 - plan.alt_keep[deviates].sum(1))
    np.testing.assert_array_equal(held.category[rows], plan.category)


def test_gibbs_matches_the_exact_joint_sampler():
    """Three pat opponents compete for straights and flushes: the sequential start alone is off by
    ~3 points for the first opponent; the Gibbs sweeps must agree with exact joint rejection."""
    rules, policy = preset(), draw_policy()
    ours = parse_hand("2c 2d 2h 2s 3c")
    n = 30_000
    joint, _ = sample_conditioned(rules, policy, [0, 0, 0], ours, n, np.random.default_rng(1), method="joint")
    gibbs, _ = sample_conditioned(rules, policy, [0, 0, 0], ours, n, np.random.default_rng(2), method="gibbs")
    for j in range(3):
        a = (category_of(evaluate(joint[:, j])) == 4).mean()     # straights
        b = (category_of(evaluate(gibbs[:, j])) == 4).mean()
        se = np.sqrt(a * (1 - a) / n + b * (1 - b) / n)
        assert abs(a - b) <= 4 * se, (j, a, b)
