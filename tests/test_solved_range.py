"""The solved range: every holding weighted by the solution's own per-hand probabilities of taking
the opponent's actions on the line and of drawing each count, holding what the solution keeps."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drawodds.analyses.read import read_draw
from drawodds.cards import parse_hand
from drawodds.cli import main
from drawodds.cli.errors import flag_names, message
from drawodds.errors import RequestError
from drawodds.sim.ranges import posterior, source_holdings
from drawodds.solver.solved_range import parse_line, solved_range

OURS = parse_hand("Kc Kd 8h 5s 2c")
KNOWN = tuple(sorted(OURS.tolist()))


def _rows(held, n=25, seed=4):
    return np.random.default_rng(seed).choice(len(held.cards), n, replace=False)


def _by_count(sr, weight):
    """A holding's weights summed by draw count (a count has two columns where the solution
    chooses between two holds for it)."""
    counts = sorted(set(sr.options))
    return [weight[np.asarray(sr.options) == d].sum() for d in counts]


def test_first_seat_weights_are_the_solutions_probabilities(small_solution):
    sol = small_solution
    assert parse_line("check-bet-call") == parse_line("xbc") == "xbc"
    sr = solved_range(sol, line="check bet call")
    held = source_holdings(sr, sol.rules, KNOWN)
    for row in _rows(held):
        hand = held.cards[row]
        line = sol.predraw_probabilities(hand, "")["check"] * sol.predraw_probabilities(hand, "xb")["call"]
        draw = sol.draw_probabilities(hand, "xbc", 0)
        np.testing.assert_allclose(_by_count(sr, held.weight[row]), [line * draw[d] for d in sol.abstraction.options],
                                   rtol=1e-9)
        for d in (1, 3):
            second = held.columns_for(np.array([row]), d)[0] >= len(sol.abstraction.options)
            np.testing.assert_array_equal(held.hold_for(np.array([row]), d)[0], sol.keep(hand, d, second))
    # The posterior's P(draw) is the weight drawing d over all the weight, as read reports it.
    reading = read_draw(1, policy=sr, trials=2_000, hand=OURS, equity_trials=200)
    _, p = posterior(held, 1)
    assert reading.p_draw == pytest.approx(p) and reading.line == "check-bet-call" and reading.seat == "first"


def test_the_dealer_draws_after_our_draw_and_lines_mix_by_both_strategies(small_solution):
    sol = small_solution
    sr = solved_range(sol, line="check-bet-call", seat="dealer", our_draw=3)
    held = source_holdings(sr, sol.rules, KNOWN)
    for row in _rows(held, 10):
        hand = held.cards[row]
        draw = sol.draw_probabilities(hand, "xbc", 1, opponent_draw=3)
        bet = sol.predraw_probabilities(hand, "x")["bet"]
        np.testing.assert_allclose(_by_count(sr, held.weight[row]), [bet * draw[d] for d in sol.abstraction.options],
                                   rtol=1e-9)
    mixed = solved_range(sol, our_hand=OURS)           # every line, ours from our hand
    held = source_holdings(mixed, sol.rules, KNOWN)
    actions = {"x": "check", "b": "bet", "r": "raise", "c": "call"}
    for row in _rows(held, 5):
        hand, want = held.cards[row], np.zeros(len(sol.abstraction.options))
        for ln in sol.game.lines:
            p = 1.0
            for i, a in enumerate(ln.history):
                who = hand if i % 2 == 0 else OURS
                p *= sol.predraw_probabilities(who, ln.history[:i])[actions[a]]
            draw = sol.draw_probabilities(hand, ln.history, 0)
            want += p * np.array([draw[d] for d in sol.abstraction.options])
        np.testing.assert_allclose(_by_count(mixed, held.weight[row]), want, rtol=1e-9)
    with pytest.raises(RequestError, match="does not reach the draw"):
        solved_range(sol, line="check-check")
    with pytest.raises(RequestError, match=r"\(our_draw\)") as missing:
        solved_range(sol, line="bet-call", seat="dealer")
    flag_names()
    assert message(missing.value) == "a dealer draws after us: say how many cards we drew (--our-draw)"
    with pytest.raises(RequestError, match="^our_draw is for") as extra:
        solved_range(sol, line="bet-call", seat="first", our_draw=1)
    assert message(extra.value) == "--our-draw is for an opponent who is the dealer (draws after us)"


def test_cli_reads_a_saved_solution(small_solution, tmp_path, capsys):
    path = small_solution.save(tmp_path / "small.parquet")
    argv = ["read", "3", "--policy", "equilibrium", "--line", "bet-call", "--opponent-dealer", "--our-draw", "1",
            "--solution", str(path), "--trials", "2000", "--hand", "Kc Kd 8h 5s 2c", "--json"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    payload = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0
    assert payload["policy"] == "equilibrium" and payload["seat"] == "dealer" and payload["our_draw"] == 1
    assert sum(payload["holding"].values()) == pytest.approx(1.0)
    assert {row["draw"] for row in payload["equity"]} == {1}        # our holds that drew what we drew
    with pytest.raises(SystemExit) as exc:
        main(["read", "1", "--policy", "equilibrium", "--rules", "jackpot", "--solution", str(path)])
    assert exc.value.code == 2 and capsys.readouterr().err.count("\n") == 1
