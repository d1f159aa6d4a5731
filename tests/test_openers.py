"""Jacks-or-Better pass-outs: exact counts, a second exact count, Monte Carlo agreement, pot growth."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
from fractions import Fraction
from itertools import combinations as icomb
from math import comb

import numpy as np
import pytest

from drawodds.analyses import openers as op
from drawodds.cards import parse_hand
from drawodds.combinatorics import all_hands, combinations, subset_rank
from drawodds.evaluate import evaluate, jacks_or_better_floor


def test_single_hand_openers_count() -> None:
    assert op.count_single_hand_openers() == 536_100 == op.SINGLE_HAND_OPENERS
    assert op.count_no_openers(1) == 2_598_960 - 536_100
    assert op.P_SINGLE_OPENERS == Fraction(536_100, 2_598_960)


def test_two_players_against_independent_exact_count() -> None:
    """Ordered pairs of disjoint hands without openers by a different route than the rank
    programme: sum over card sets T of (-1)^|T| (hands without openers containing T)^2, because
    sum over T within h1 & h2 of (-1)^|T| is 1 exactly when h1 and h2 share no card."""
    hands = all_hands()
    good = hands[evaluate(hands) < jacks_or_better_floor()].astype(np.int64)
    total = 0
    for k in range(6):
        if k == 0:
            counts = np.array([len(good)], np.int64)
        else:
            counts = np.zeros(comb(52, k), np.int64)
            for positions in icomb(range(5), k):   # each k-subset of a sorted hand once
                counts += np.bincount(subset_rank(good[:, list(positions)]), minlength=comb(52, k))
        total += (-1) ** k * int(np.dot(counts, counts))
    assert total == op.count_no_openers(2) == 2_504_390_626_404
    assert op.p_nobody_opens(2) == Fraction(total, 2_598_960 * comb(47, 5))


def test_my_hand_exact_against_enumeration() -> None:
    """Given my hand, the chance the one other player can open, enumerated over C(47, 5)."""
    mine = parse_hand("AsAhKs7s3s")
    rest = np.array([c for c in range(52) if c not in set(mine.tolist())], np.int8)
    theirs = rest[combinations(47, 5)]
    opens = int(np.count_nonzero(evaluate(theirs) >= jacks_or_better_floor()))
    res = op.p_somebody_else_opens(mine, 2)
    assert res.method == "exact"
    assert res.fraction == Fraction(opens, comb(47, 5))


def test_my_hand_exact_against_monte_carlo() -> None:
    mine = parse_hand("QcQd9h5s2c")
    exact = op.p_somebody_else_opens(mine, 4)
    mc = op.p_somebody_else_opens(mine, 4, exact=False, deals=100_000, seed=3)
    assert exact.method == "exact" and mc.method == "monte carlo" and mc.se > 0
    assert abs(exact.probability - mc.probability) < 4 * mc.se


def test_shipped_table_matches_recount() -> None:
    shipped = op._shipped()
    for n in range(2, op.COMPUTE_LIMIT + 1):
        if n in shipped:
            assert shipped[n] == (op.count_no_openers(n), op.count_deals(n))
    assert all(n in shipped for n in range(op.COMPUTE_LIMIT + 1, 8)), "run scripts/precompute_nobody_opens.py"


@pytest.mark.parametrize("n", range(3, op.MAX_PLAYERS + 1))
def test_exact_agrees_with_monte_carlo(n: int) -> None:
    if not op.exact_available(n):
        pytest.skip(f"no exact figure shipped for {n} players")
    exact = float(op.p_nobody_opens(n))
    mc = op.monte_carlo_nobody_opens(n, 150_000, np.random.default_rng(100 + n))
    assert abs(mc.value - exact) < 4 * mc.se, (n, exact, mc)


def test_probabilities_in_range_and_decreasing() -> None:
    sizes = [n for n in range(1, op.MAX_PLAYERS + 1) if op.exact_available(n)]
    assert len(sizes) >= 4
    values = [op.p_nobody_opens(n) for n in sizes]
    assert all(0 < v < 1 for v in values)
    assert all(a > b for a, b in zip(values, values[1:], strict=False))
    # Sharing a deck lowers the pass-out rate below the independence approximation.
    for n, v in zip(sizes, values, strict=False):
        if n >= 2:
            assert v < op.p_nobody_opens_independent(n)


def test_removed_cards_count_matches_direct_count_for_one_hand() -> None:
    mine = parse_hand("JhTh9h8h2c")      # an open-ended straight-flush draw: no openers
    rest = np.array([c for c in range(52) if c not in set(mine.tolist())], np.int8)
    hands = rest[combinations(47, 5)]
    assert op.count_no_openers(1, removed=mine) == int(np.count_nonzero(evaluate(hands) < jacks_or_better_floor()))


def test_pot_growth_geometry() -> None:
    g = op.pot_growth(4, ante=5)
    q = op.p_nobody_opens(4)
    dist = g.passouts_distribution(200)
    assert dist[0][1] == 1 - q and dist[3][1] == q ** 3 * (1 - q)
    assert abs(float(sum(p for _, p in dist)) - 1) < 1e-12
    assert g.expected_deals_per_opened_pot == 1 / (1 - q)
    assert g.expected_pot == 4 * 5 / (1 - q)
    # With a house limit the pot distribution sums to one and its mean is the closed form.
    lim = op.pot_growth(4, ante=5, max_consecutive_antes=3)
    pots = lim.pot_distribution(20)
    assert [pot for pot, _ in pots] == [20, 40, 60]
    assert sum(p for _, p in pots) == 1
    assert sum(pot * p for pot, p in pots) == lim.expected_pot
    assert op.pot_growth(4, ante=5, max_consecutive_antes=1).expected_pot == 20


def test_pot_growth_against_simulated_sequence() -> None:
    """Play the pass-out sequence with the exact q: mean pot at opening within 4 SE."""
    rng = np.random.default_rng(7)
    g = op.pot_growth(3, ante=2, max_consecutive_antes=4)
    passes = rng.geometric(1 - float(g.q), size=200_000) - 1
    pots = 3 * 2 * np.minimum(passes + 1, 4)
    se = pots.std(ddof=1) / np.sqrt(len(pots))
    assert abs(pots.mean() - float(g.expected_pot)) < 4 * se


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        op.p_somebody_else_opens(parse_hand("AsAhKs7s3s"), 9)
    with pytest.raises(ValueError):
        op.p_somebody_else_opens([0, 0, 1, 2, 3], 3)
    with pytest.raises(ValueError):
        op.pot_growth(4, ante=1, max_consecutive_antes=0)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line run in this process (its start-up is tested in test_cli*), output captured."""
    from drawodds.cli import run

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(list(args))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_cli_json_contract() -> None:
    res = _cli("openers", "--players", "2-3", "--json")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["players"]
    assert [r["n"] for r in rows] == [2, 3]
    for key in ("p_nobody_opens", "p_nobody_opens_independent", "expected_deals_per_opened_pot",
                "uncontested", "uncontested_se", "showdown", "showdown_se"):
        assert key in rows[0]
    assert rows[0]["p_nobody_opens"] == pytest.approx(0.628194868925, abs=1e-11)
    assert rows[0]["p_nobody_opens_independent"] == pytest.approx((1 - 536100 / 2598960) ** 2)
    assert rows[0]["expected_deals_per_opened_pot"] == pytest.approx(1 / (1 - rows[0]["p_nobody_opens"]))


def test_table_without_exact_count_falls_back_to_monte_carlo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(op, "exact_available", lambda n: False)
    row = op.table_odds(3, seed=5).to_dict()
    assert row["exact"] is False and row["p_nobody_opens"] is None
    exact = float(op.p_nobody_opens(3))
    assert abs(row["p_nobody_opens_mc"] - exact) < 4 * row["p_nobody_opens_mc_se"]
    assert row["expected_deals_per_opened_pot"] == pytest.approx(1 / (1 - row["p_nobody_opens_mc"]))
    assert row["expected_deals_per_opened_pot_se"] > 0


def test_cli_errors_are_one_line() -> None:
    for args in (("openers", "--players", "9"), ("openers", "--players", "x"),
                 ("openers", "--hand", "AsAhKs7s3x", "--players", "3"),
                 ("openers", "--hand", "AsAhKs7s3s", "--players", "2-4")):
        res = _cli(*args)
        assert res.returncode == 2 and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, args


def test_play_figures_from_the_rules_engine() -> None:
    """Under play (rules engine, rule-based policies) the Jackpott pass-out share matches the exact
    chance that nobody holds openers, and opened pots end uncontested or at a showdown."""
    figs = op.play_figures(3, 1500, seed=11)
    assert figs is not None
    exact = float(op.p_nobody_opens(3))
    assert abs(figs["passed_out"] - exact) < 4 * figs["passed_out_se"]
    for prefix in ("", "plain_"):
        u, s = figs[f"{prefix}uncontested"], figs[f"{prefix}showdown"]
        assert 0 <= u <= 1 and 0 <= s <= 1 and u + s <= 1 + 1e-9
        assert figs[f"{prefix}uncontested_se"] > 0
    assert 0 <= figs["dead_opener"] <= 1
