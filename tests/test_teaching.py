"""What the printed lists teach agrees with what the tables compute: a list's stated cost is that
of the list as printed, a list never breaks a made hand the table keeps whole, its order reads
as a ranking, one hand can be checked against it, and card removal decides the close dilemmas as
``keep`` does."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drawodds.analyses.condensed import CondensedStrategy, condense, first_match_holds, hand_against_list
from drawodds.analyses.removal import card_removal_table, keep_simulation
from drawodds.analyses.strategy import (
    StrategyTable,
    equity_objective,
    field_distribution,
    make_solver,
    parse_objective,
    solve,
    suit_class_of,
    suit_classes,
)
from drawodds.cards import parse_hand
from drawodds.evaluate import STRAIGHT, category_of, evaluate
from drawodds.holds import HOLD_POSITIONS, N_HOLDS
from drawodds.patterns import HoldKind, hold_pattern_codes, mergeable
from drawodds.rules import preset
from drawodds.sim.equity import OpponentModel, hold_equities

OBJECTIVES = ("vp96", "points", "equity")
BOUNDED = ("vp96", "points", "jacks", "equity")      # lists whose patterns let every deal come within the bound


@pytest.fixture(scope="module")
def plans(nine_six_plan) -> dict[str, tuple[StrategyTable, CondensedStrategy]]:
    out = {"vp96": nine_six_plan}
    for name in (*OBJECTIVES[1:], "jacks"):
        rules = preset("poengpoker" if name == "points" else "morkpoker")
        table = solve(parse_objective(name, rules, opponents=3), rules)
        out[name] = (table, condense(table))
    return out


@pytest.fixture(scope="module")
def played(plans) -> dict[str, np.ndarray]:
    """The hold a reader of each printed list keeps in each class (found once, checked twice)."""
    return {name: _played_as_printed(plans[name][0], plans[name][1].line_codes) for name in (*OBJECTIVES, "jacks")}


def _played_as_printed(table: StrategyTable, lines) -> np.ndarray:
    """The hold a player reading the printed list keeps in each class, found line by line: the
    first line some legal hold matches, and among its holds the highest cards, then the lowest mask."""
    h = table.holds
    codes = hold_pattern_codes(h.deals, table.rules.joker, fine=True)
    ranks = h.deals.astype(np.int64) // 4
    # Kept ranks, highest first, as one number per hold: a larger number keeps higher cards.
    key = np.zeros((len(ranks), N_HOLDS), dtype=np.int64)
    for m in range(N_HOLDS):
        kept = np.sort(ranks[:, list(HOLD_POSITIONS[m])], axis=1)[:, ::-1]
        for j in range(kept.shape[1]):
            key[:, m] += (kept[:, j] + 1) * 16 ** (4 - j)
    chosen = np.full(len(ranks), -1)
    order = key * 64 - np.arange(N_HOLDS)
    for line in lines:
        match = np.isin(codes, line) & h.legal & (chosen[:, None] < 0)
        score = np.where(match, order, -1)
        pick = score.argmax(axis=1)
        hit = match.any(axis=1)
        chosen[hit] = pick[hit]
    return chosen


@pytest.mark.parametrize("name", OBJECTIVES)
def test_stated_cost_is_the_cost_of_the_printed_list(plans, played, name):
    table, plan = plans[name]
    chosen = played[name]
    assert (chosen >= 0).all()
    rows = np.arange(len(chosen))
    loss = float(((table.holds.best_value - table.holds.values[rows, chosen]) * table.weights).sum() / table.deals)
    assert plan.loss == pytest.approx(loss, abs=1e-12)
    assert sum(plan.share) == pytest.approx(1.0)


@pytest.mark.parametrize("name", OBJECTIVES)
def test_no_list_breaks_a_made_hand_the_table_keeps_whole(plans, played, name):
    table, plan = plans[name]
    chosen = played[name]
    h = table.holds
    category = category_of(evaluate(h.deals))
    pat = (h.best == N_HOLDS - 1) & (category >= STRAIGHT)
    assert pat.any()
    np.testing.assert_array_equal(chosen[pat], N_HOLDS - 1)
    quads = category == 7
    kept_quads = np.array([np.bincount(h.deals[i, list(HOLD_POSITIONS[m])] // 4, minlength=13).max() == 4
                           for i, m in zip(np.flatnonzero(quads), chosen[quads], strict=True)])
    assert kept_quads.all()
    labels = " | ".join(plan.labels)
    for made in ("royal flush", "straight flush", "four of a kind", "full house", "flush (stand pat)",
                 "straight (stand pat)"):
        assert made in labels


@pytest.mark.parametrize("name", (*OBJECTIVES, "jacks"))
def test_worst_deal_is_that_of_the_printed_list(plans, played, name):
    table, plan = plans[name]
    chosen = played[name]
    regret = table.holds.best_value - table.holds.values[np.arange(len(chosen)), chosen]
    worst = int(np.argmax(regret))
    assert plan.max_regret == pytest.approx(float(regret[worst]), abs=1e-12)
    assert plan.worst is not None and plan.worst.cost == pytest.approx(plan.max_regret, abs=1e-12)
    deal = parse_hand(" ".join(plan.worst.hand))
    np.testing.assert_array_equal(np.sort(deal), table.holds.deals[worst])
    check = hand_against_list(table, plan, " ".join(plan.worst.hand))
    assert check.cost == pytest.approx(plan.max_regret, abs=1e-12)
    assert set(check.list_keep) == set(plan.worst.list_keep) and set(check.best_keep) == set(plan.worst.best_keep)
    assert plan.to_dict()["max_regret"] == plan.max_regret
    assert plan.to_dict()["worst_deal"]["hand"] == list(plan.worst.hand)


@pytest.mark.parametrize("name", BOUNDED)
def test_no_deal_loses_more_than_the_bound(plans, played, name):
    table, plan = plans[name]
    assert plan.bound == (0.02 if name == "equity" else 0.05) and plan.max_regret <= plan.bound
    assert 0 < plan.core_lines <= len(plan.lines)


@pytest.mark.parametrize("hand", ["2h 7d 8d 9d Td", "Ah Qh Jh Th 3c", "4c 5c 6c 7c Kd", "7s 7h 8s 9s Ts",
                                  "2s 8h 9h Th Jh"])
def test_the_equity_list_keeps_the_straight_flush_draws(plans, hand):
    table, plan = plans["equity"]
    check = hand_against_list(table, plan, hand)
    assert plan.bound == 0.02
    assert check.cost <= plan.bound, (check.line, check.list_keep, check.best_keep)
    assert len(check.list_keep) == 4


def test_the_jacks_list_keeps_made_hands_on_a_tie(plans, played):
    table, plan = plans["jacks"]
    chosen = played["jacks"]
    h = table.holds
    category = category_of(evaluate(h.deals))
    whole = category >= STRAIGHT
    # Standing pat with a full house or better is certain to end with jacks or better: a tie with
    # keeping the trips or the four, and the list stands pat (or keeps the four).
    assert (h.values[whole, N_HOLDS - 1] == h.best_value[whole]).all()
    assert not (h.best[category == 6] == N_HOLDS - 1).any()          # the table's own tie rule breaks them
    pat = whole & (category != 7)
    np.testing.assert_array_equal(chosen[pat], N_HOLDS - 1)
    quads = np.flatnonzero(category == 7)
    assert all(np.bincount(h.deals[i, list(HOLD_POSITIONS[m])] // 4, minlength=13).max() == 4
               for i, m in zip(quads, chosen[quads], strict=True))
    labels = " | ".join(plan.labels)
    for made in ("four of a kind", "full house", "flush (stand pat)", "straight (stand pat)"):
        assert made in labels


@pytest.mark.parametrize("name", BOUNDED)
def test_two_neighbouring_lines_are_one_where_one_line_says_both(plans, played, name):
    """Where one printed line could name two neighbours ("4 to a straight flush (open)" for its forms
    with and without an ace beside it), they are joined unless that would change some deal's hold."""
    table, plan = plans[name]
    lines = list(plan.line_codes)
    codes = hold_pattern_codes(table.holds.deals, table.rules.joker, fine=True)
    for i in range(len(lines) - 1):
        joined = lines[i] + lines[i + 1]
        if mergeable(joined):
            trial = [*lines[:i], joined, *lines[i + 2:]]
            assert not np.array_equal(first_match_holds(table, trial, codes), played[name]), plan.labels[i]


@pytest.mark.parametrize("name", OBJECTIVES)
def test_order_reads_as_a_ranking(plans, name):
    _, plan = plans[name]
    position: dict[tuple[int, int, int], int] = {}
    for i, line in enumerate(plan.line_codes):
        kinds = {c >> 8 for c in line}
        for c in line:
            position[(c >> 8, (c >> 4) & 0xF, c & 0xF)] = i
        if kinds & {HoldKind.PAIR, HoldKind.PAIR_K, HoldKind.PAIR_KK, HoldKind.ONE_CARD, HoldKind.CARD_PLUS_LOW}:
            ranks = sorted({(c >> 4) & 0xF for c in line})
            assert ranks[-1] - ranks[0] == len(ranks) - 1, plan.labels[i]      # one run a player can see
    for (kind, x, y), i in position.items():
        if kind == HoldKind.TWO_HIGH_OFFSUIT and (HoldKind.TWO_HIGH_SUITED, x, y) in position:
            assert position[(HoldKind.TWO_HIGH_SUITED, x, y)] < i


def test_the_nine_six_list_keeps_its_documented_tie_rule(plans):
    table, plan = plans["vp96"]
    check = hand_against_list(table, plan, "Kh Qd Js 7c 3s")
    solver = make_solver(parse_objective("vp96", table.rules), table.rules)
    deal = np.sort(parse_hand("Kh Qd Js 7c 3s"))
    values = solver.hold_values(deal[None, :]).values[0]

    def value(cards: tuple[str, ...]) -> float:
        kept = set(parse_hand(" ".join(cards), size=len(cards)).tolist())
        return float(values[sum(1 << i for i, c in enumerate(deal) if int(c) in kept)])

    assert check.best_keep == ("Kh", "Qd", "Js")
    assert check.cost == pytest.approx(value(check.best_keep) - value(check.list_keep), abs=1e-12)
    assert check.cost == pytest.approx(np.nanmax(values) - value(check.list_keep), abs=1e-12)
    assert set(check.list_keep) < {"Kh", "Qd", "Js"} and len(check.list_keep) == 2
    # The line's rule: among the two-card holds its line names, the highest cards.
    assert check.line.startswith(("QJ", "KQ", "KJ")) or " or " in check.line


def test_suit_class_of_finds_every_hand_its_class():
    reps, _ = suit_classes()
    rng = np.random.default_rng(5)
    for _ in range(300):
        hand = rng.choice(52, 5, replace=False)
        index, new = suit_class_of(hand)
        np.testing.assert_array_equal(np.sort(hand // 4 * 4 + new[hand % 4]), reps[index])


def test_strategy_hand_json_keeps_its_four_fields(capsys):
    import drawodds.cli
    with pytest.raises(SystemExit) as exc:
        drawodds.cli.main(["strategy", "--objective", "jacks", "--hand", "Th Ah Kh Qh Jh", "--json"])
    assert exc.value.code == 0
    payload = json.loads(capsys.readouterr().out)
    assert {"line", "list_keep", "best_keep", "cost"} <= set(payload) and payload["model"] == "table"
    assert payload["list_keep"] == payload["best_keep"] == ["Th", "Ah", "Kh", "Qh", "Jh"]
    assert payload["cost"] == 0 and payload["line"] == "royal flush (stand pat)"
    with pytest.raises(SystemExit) as exc:
        drawodds.cli.main(["strategy", "--objective", "jacks", "--hand", "Ah Kh Qh"])
    assert exc.value.code == 2


HEADLINE = (("As Ad Kc 8s 4d", "As Ad Kc", "As Ad"), ("Qh Qd Ac 8s 4d", "Qh Qd Ac", "Qh Qd"),
            ("Kh Kd Ac 8s 4d", "Kh Kd Ac", "Kh Kd"))


@pytest.mark.parametrize("opponents", [1, 3])
def test_card_removal_makes_the_list_agree_with_keep(opponents):
    """On the deal classes of a pair with a high kicker, the list built from the corrected table
    keeps what keep's simulation prefers wherever that simulation separates the two holds."""
    rules = preset("morkpoker")
    solver = make_solver(equity_objective(field_distribution(rules), opponents), rules)
    reps, weights = suit_classes()
    r = reps // 4
    counts = (r[:, :, None] == r[:, None, :]).sum(axis=2)
    pair = (counts == 2).sum(axis=1) == 2
    top_pair = np.where(counts == 2, r, -1).max(axis=1)
    kicker = np.where(counts == 1, r, -1).max(axis=1)
    sub = pair & (top_pair >= 10) & (kicker >= 11) & (category_of(evaluate(reps)) == 1)
    table = StrategyTable(solver.objective, rules, solver.hold_values(reps[sub]), weights[sub])
    model = OpponentModel(opponents=opponents)
    fixed, fix = card_removal_table(table, keep_simulation(rules, model, 20_000), trials=20_000, per_group=6)
    assert fix.simulated > 0
    plan = condense(fixed)
    for hand, with_kicker, pair_only in HEADLINE:
        cards = np.sort(parse_hand(hand))
        masks = [np.isin(cards, parse_hand(k, size=len(k.split()))) for k in (with_kicker, pair_only)]
        eq = hold_equities(cards, np.array(masks), rules, model, trials=100_000, seed=3)
        gap = eq.equity[1] - eq.equity[0]            # pair alone minus pair + kicker
        se = float(eq.diff_se.max())
        kept = len(hand_against_list(fixed, plan, hand).list_keep)
        if gap > 2 * se:
            assert kept == 2, (hand, opponents, gap, se)
        elif gap < -2 * se:
            assert kept == 3, (hand, opponents, gap, se)


@pytest.mark.parametrize("hand", ["As Ad Kh Qc 4s", "3c 3d 3h Ad Kd", "7s 7h 8s 9s Ts", "4c 5c 6c 7c Kd"])
def test_hand_answers_as_keep_does_on_the_dilemmas(plans, hand):
    from drawodds.analyses.condensed import StrategyReport
    from drawodds.analyses.keep import keep
    from drawodds.analyses.list_store import answers_of

    table, plan = plans["equity"]
    answers = answers_of(StrategyReport(table.objective, table, plan, 3, "standard", 1))
    check = answers.check(hand, rules=table.rules, model=OpponentModel(opponents=3, policy="standard"), seed=1)
    ranked = keep(hand, opponents=3, trials=40_000, seed=2, workers=1).to_dict()["holds"]
    mine = next(h for h in ranked if sorted(h["keep"]) == sorted(check.best_keep))
    assert mine["equity_gap"] <= 2 * mine["equity_diff_se"] + 1e-12, (check.best_keep, ranked[0]["keep"])
