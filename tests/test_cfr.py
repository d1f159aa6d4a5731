"""The CFR core against games with known values: Kuhn poker and von Neumann's one-bet model."""

from __future__ import annotations

import numpy as np
import pytest

from drawodds.solver import cfr

ONE = np.zeros(1, dtype=np.int64)


def edge(child: int) -> cfr.Edge:
    return cfr.Edge(child, ONE)


def kuhn_tree() -> cfr.Tree:
    """Kuhn poker: cards J, Q, K, one dealt to each (never the same: the terminal matrices carry
    the 1/6 per ordered pair), ante 1, one bet of 1; player 0 acts first."""
    c = np.arange(3)
    showdown = 1.5 * np.sign(c[:, None] - c[None, :]).astype(float)
    fold = 1.5 * (c[:, None] != c[None, :]).astype(float)

    def end(stake: float, matrix: np.ndarray) -> cfr.Terminal:
        return cfr.Terminal(1, "matrix", np.array([stake]), matrix)

    nodes = [cfr.Decision(0, 1, (edge(1), edge(2)), actions=("check", "bet")),
             cfr.Decision(1, 1, (edge(3), edge(4)), actions=("check", "bet")),
             cfr.Decision(1, 1, (edge(5), edge(6)), actions=("fold", "call")),
             end(1, showdown),
             cfr.Decision(0, 1, (edge(7), edge(8)), actions=("fold", "call")),
             end(1, fold), end(2, showdown), end(-1, fold), end(2, showdown)]
    uniform = np.full(3, 1 / 3)
    return cfr.build_tree(nodes, 0, [cfr.Space(3)], (0, 0), (uniform, uniform))


def von_neumann_tree(bet: float, hands: int) -> cfr.Tree:
    """Von Neumann's poker: hands uniform on [0, 1] (here ``hands`` equal bins, equal bins
    split), ante 1 each; player 0 checks (showdown) or bets ``bet``; player 1 folds or calls."""
    space = cfr.Space(hands, np.arange(hands, dtype=float))
    nodes = [cfr.Decision(0, 1, (edge(1), edge(2))),
             cfr.Terminal(1, "showdown", np.array([1.0])),
             cfr.Decision(1, 1, (edge(3), edge(4))),
             cfr.Terminal(1, "fixed", np.array([1.0])),
             cfr.Terminal(1, "showdown", np.array([1.0 + bet]))]
    uniform = np.full(hands, 1 / hands)
    return cfr.build_tree(nodes, 0, [space], (0, 0), (uniform, uniform))


@pytest.mark.parametrize("schedule", [cfr.CFR_PLUS, cfr.DCFR])
def test_kuhn_value_is_minus_one_eighteenth(schedule: cfr.Schedule) -> None:
    solution = cfr.solve_tree(kuhn_tree(), iterations=1000, schedule=schedule)
    assert abs(solution.value - (-1 / 18)) < 1e-3
    assert solution.exploitability < 1e-3


def test_kuhn_equilibrium_facts() -> None:
    """Player 1 calls a bet with the queen 1/3 of the time and player 0 bets the king three
    times as often as the jack (the one-parameter family of equilibria)."""
    tree = kuhn_tree()
    s = cfr.solve_tree(tree, iterations=2000, schedule=cfr.DCFR).strategy
    after_bet = s[tree.nodes[0].children[1].child][0]       # player 1 facing a bet: fold, call
    assert after_bet[0, 1] < 0.01 and after_bet[2, 1] > 0.99
    assert abs(after_bet[1, 1] - 1 / 3) < 0.02
    first = s[0][0]
    assert abs(first[2, 1] - 3 * first[0, 1]) < 0.03


@pytest.mark.parametrize("bet", [0.5, 1.0, 2.0, 4.0])
def test_von_neumann_value(bet: float) -> None:
    solution = cfr.solve_tree(von_neumann_tree(bet, 200), iterations=800)
    assert abs(solution.value - bet / ((bet + 1) * (bet + 4))) < 1e-3
    assert solution.exploitability < 1e-4


def test_exploitability_falls_steadily() -> None:
    """CFR+ on von Neumann's game: the exploitability at each checkpoint after the first few is
    below the one two checkpoints earlier, and falls at least as iterations^-1 (log-log)."""
    curve = cfr.solve_tree(von_neumann_tree(1.0, 100), iterations=600).curve
    it = np.array([c.iteration for c in curve], dtype=float)
    ex = np.array([c.exploitability for c in curve])
    assert (ex[6:] < ex[4:-2]).all()
    tail = it >= 20
    slope = np.polyfit(np.log(it[tail]), np.log(ex[tail]), 1)[0]
    assert slope < -1.0


def test_best_response_to_uniform_play() -> None:
    """Against uniform play in von Neumann's game the best responses are worth exactly what a
    direct calculation gives, hand by hand: the better of checking and betting for player 0,
    and for player 1 the better of folding and calling when bet into."""
    hands, bet = 50, 1.0
    tree = von_neumann_tree(bet, hands)
    evaluation = cfr.evaluate_profile(tree, cfr.uniform_strategy(tree))
    x = (np.arange(hands) + 0.0)
    win = (x[:, None] > x[None, :]).mean(axis=1) - (x[:, None] < x[None, :]).mean(axis=1)
    # Player 0 vs a 50/50 caller: check = win, bet = 1/2 * 1 + 1/2 * (1 + bet) * win.
    br0 = np.maximum(win, 0.5 + 0.5 * (1 + bet) * win).mean()
    # Player 1 vs a 50/50 bettor: checked pots are lost or won by showdown for 1, and facing a
    # bet folding costs 1, calling wins (1 + bet) * his showdown margin over the bettors.
    br1 = (0.5 * win + 0.5 * np.maximum(-1.0, (1 + bet) * win)).mean()
    assert evaluation.best_response[0] == pytest.approx(br0, abs=1e-12)
    assert evaluation.best_response[1] == pytest.approx(br1, abs=1e-12)
    # Uniform play: checked pots and called bets are even; a bet is folded to a quarter of the time.
    assert evaluation.value == pytest.approx(0.25, abs=1e-12)


def test_transition_nodes_move_private_states() -> None:
    """A chance transition (like the draw) maps each state to a distribution over new states:
    player 0 holds 0 or 1 and 'draws' to 1 or 2 with probabilities 1/2; showdown against a
    fixed 1 is then worth 1/2 * 0 + 1/2 * 1 for state 0 and 1 for state 1."""
    before = cfr.Space(2)
    after = cfr.Space(3, np.arange(3, dtype=float))
    move = np.array([[[0.0, 0.5, 0.5], [0.0, 0.0, 1.0]]])
    nodes = [cfr.Transition(0, 1, move, np.zeros(1, dtype=np.int64), 1, edge(1)),
             cfr.Terminal(1, "showdown", np.array([1.0]))]
    tree = cfr.build_tree(nodes, 0, [before, after], (0, 1), (np.array([0.5, 0.5]), np.array([0.0, 1.0, 0.0])))
    evaluation = cfr.evaluate_profile(tree, cfr.uniform_strategy(tree))
    assert evaluation.value == pytest.approx(0.5 * 0.5 + 0.5 * 1.0)


def test_a_private_choice_of_transition_is_unseen_by_the_opponent() -> None:
    """Player 0 picks, unseen, a safe draw (to the middle strength 1, a tie) or a gamble (to 0 or
    2 with chances 1/4 and 3/4, a showdown worth +1 on average at stake 2); player 1, holding 1,
    then folds (paying 1.5) or calls. Uniform play is worth 1/2 * 1.5 + 1/2 * (1/2 * 0 + 1/2 * 1);
    the best responses gamble (1.25) and call (-0.5, own payoff); at the equilibrium player 0
    gambles and player 1 calls (value 1)."""
    before, after = cfr.Space(2), cfr.Space(3, np.arange(3, dtype=float))
    safe = np.array([[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
    gamble = np.array([[0.25, 0.0, 0.75], [0.25, 0.0, 0.75]])
    nodes = [cfr.Choice(0, 1, np.stack([safe, gamble]), 1, edge(1), actions=("safe", "gamble")),
             cfr.Decision(1, 1, (edge(2), edge(3)), actions=("fold", "call")),
             cfr.Terminal(1, "fixed", np.array([1.5])),
             cfr.Terminal(1, "showdown", np.array([2.0]))]
    tree = cfr.build_tree(nodes, 0, [before, after], (0, 1), (np.array([0.5, 0.5]), np.array([0.0, 1.0, 0.0])))
    assert tree.choices == (0,) and tree.strategic == (0, 1)
    evaluation = cfr.evaluate_profile(tree, cfr.uniform_strategy(tree))
    assert evaluation.value == pytest.approx(1.0, abs=1e-12)
    assert evaluation.best_response == pytest.approx((1.25, -0.5), abs=1e-12)
    solution = cfr.solve_tree(tree, iterations=300)
    assert solution.value == pytest.approx(1.0, abs=1e-3) and solution.exploitability < 1e-3
    assert solution.strategy[0][0, :, 1] == pytest.approx([1.0, 1.0], abs=1e-2)


def test_trees_are_validated() -> None:
    space = cfr.Space(2)
    uniform = np.full(2, 0.5)
    loose = [cfr.Decision(0, 1, (edge(1), edge(1))), cfr.Terminal(1, "fixed", np.ones(1))]
    with pytest.raises(ValueError, match="reached"):
        cfr.build_tree(loose, 0, [space], (0, 0), (uniform, uniform))
    no_strength = [cfr.Decision(0, 1, (edge(1), edge(2))), cfr.Terminal(1, "showdown", np.ones(1)),
                   cfr.Terminal(1, "fixed", np.ones(1))]
    with pytest.raises(ValueError, match="strengths"):
        cfr.build_tree(no_strength, 0, [space], (0, 0), (uniform, uniform))
    orphan = [cfr.Terminal(1, "fixed", np.ones(1)), cfr.Terminal(1, "fixed", np.ones(1))]
    with pytest.raises(ValueError, match="not reachable"):
        cfr.build_tree(orphan, 0, [space], (0, 0), (uniform, uniform))


def test_checkpoint_ladder() -> None:
    ladder = cfr.checkpoints(1000, every=50)
    assert ladder[:10] == list(range(1, 11)) and ladder[-1] == 1000
    assert all(b - a <= 50 for a, b in zip(ladder, ladder[1:], strict=False))
