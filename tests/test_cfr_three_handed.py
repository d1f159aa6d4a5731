"""The CFR core with three players: three-player Kuhn poker against its published equilibria, a
three-handed draw game against a best response found by brute force over every deal and line of
play, and the per-seat payoffs against the heads-up form they generalise."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, cast

import numpy as np
import pytest

from drawodds.solver import cfr

ONE = np.zeros(1, dtype=np.int64)


def edge(child: int) -> cfr.Edge:
    return cfr.Edge(child, ONE)


def betting(players: int) -> dict[str, tuple[Any, ...]]:
    """Every history of one round with a single bet: each seat in turn checks (x) or bets (b);
    after a bet every other seat, in turn from the bettor's left, calls (c) or folds (f).
    Values: ("act", seat, actions) or ("end", seats still in, bets put in per seat)."""
    out: dict[str, tuple[Any, ...]] = {}

    def visit(h: str) -> None:
        if "b" not in h:
            if len(h) == players:
                out[h] = ("end", tuple(range(players)), (0,) * players)
                return
            out[h] = ("act", len(h), ("x", "b"))
        else:
            bettor = h.index("b")
            answers = h[bettor + 1:]
            if len(answers) == players - 1:
                callers = {(bettor + 1 + k) % players for k, a in enumerate(answers) if a == "c"}
                contest = tuple(sorted(callers | {bettor}))
                out[h] = ("end", contest, tuple(int(q in contest) for q in range(players)))
                return
            out[h] = ("act", (bettor + 1 + len(answers)) % players, ("f", "c"))
        for a in out[h][2]:
            visit(h + a)

    visit("")
    return out


def renumbered(nodes: list[cfr.Node], root: int, index: dict[Hashable, int]) -> dict[Hashable, int]:
    """Node indices recorded while building, as ``build_tree`` numbers them (root first)."""
    order = cfr.topological_order(nodes, root)
    new = np.empty(len(nodes), dtype=np.int64)
    new[order] = np.arange(len(nodes))
    return {k: int(new[i]) for k, i in index.items()}


# --- three-player Kuhn poker -------------------------------------------------------------------

def kuhn3_tree() -> tuple[cfr.Tree, dict[Hashable, int]]:
    """Three-player Kuhn poker: cards J, Q, K, A, one dealt to each seat (never the same: the
    terminal matrices carry the 1/24 of each ordered deal against the 1/64 the three independent
    priors give it), ante 1, one bet of 1; seat 0 acts first, the highest card wins. Returns the
    tree and the node of each betting history."""
    cards = 4
    deal = np.indices((cards,) * 3)
    distinct = (deal[0] != deal[1]) & (deal[0] != deal[2]) & (deal[1] != deal[2])
    weight = distinct * (cards ** 3 / 24)
    round_ = betting(3)
    nodes: list[cfr.Node] = []
    index: dict[Hashable, int] = {}

    def build(h: str) -> int:
        entry = round_[h]
        if entry[0] == "end":
            _, contest, bets = entry
            put = 1.0 + np.array(bets, dtype=float)
            best = deal[list(contest)].max(axis=0)
            pay = -np.broadcast_to(put[:, None, None, None], (3,) + (cards,) * 3).copy()
            for q in contest:
                pay[q] += (deal[q] == best) * put.sum()
            nodes.append(cfr.Terminal(1, "matrix", np.ones((1, 3)), pay * weight, label=h))
        else:
            _, seat, acts = entry
            kids = tuple(edge(build(h + a)) for a in acts)
            nodes.append(cfr.Decision(seat, 1, kids, label=h or "root", actions=acts))
            index[h] = len(nodes) - 1
        return len(nodes) - 1

    root = build("")
    uniform = np.full(cards, 1 / cards)
    tree = cfr.build_tree(nodes, root, [cfr.Space(cards)], (0, 0, 0), (uniform,) * 3)
    return tree, renumbered(nodes, root, index)


def szafron_profile(tree: cfr.Tree, index: dict[Hashable, int], b11: float, b21: float, b32: float, c33: float,
                    c34: float) -> list[np.ndarray | None]:
    """A profile of Szafron, Gibson and Sturtevant's family of equilibria ("A parameterized family
    of equilibrium profiles for three-player Kuhn poker", AAMAS 2013), in its sub-family c11 = 0,
    with the paper's parameter names as the University of Alberta's three-player Kuhn equilibrium
    player (an implementation of the paper) tabulates them: the probability of the second action
    (bet, or call) for J, Q, K, A at every history. The first player's play is fixed;
    b11 <= b21 <= 1/4, b32 <= (2 + 3 b11 + 4 b21) / 4, 1/2 - b32 <= c33 <= 1/2 - b32 +
    (3 b11 + 4 b21) / 4 and c34 are free, and b23 = 0, b33 = (1 + b11 + 2 b21) / 2,
    b41 = 2 (b11 + b21), c21 = 1/2 follow."""
    b33, b41 = (1 + b11 + 2 * b21) / 2, 2 * (b11 + b21)
    second = {"": (0, 0, 0, 0), "xxb": (0, 0, 0, 1), "xbf": (0, 0, 0.5, 1), "xbc": (0, 0, 0, 1),    # seat 0
              "x": (b11, b21, 0, b41), "b": (0, 0, b32, 1), "xxbf": (0, 0, b33, 1), "xxbc": (0, 0, 0, 1),  # 1
              "xx": (0, 0.5, 0, 1), "xb": (0, 0, 0, 1), "bf": (0, 0, c33, 1), "bc": (0, 0, c34, 1)}  # seat 2
    strategy: list[np.ndarray | None] = [None] * len(tree.nodes)
    for h, p in second.items():
        q = np.array(p, dtype=float)
        strategy[index[h]] = np.stack([1 - q, q], axis=1)[None]
    return strategy


@pytest.mark.parametrize("params", [(0.0, 0.0, 0.5, 0.0, 0.0), (0.1, 0.2, 0.7, 0.05, 0.5), (0.25, 0.25, 0.9, 0.0, 1.0)])
def test_the_published_three_player_kuhn_family_are_equilibria(params: tuple[float, ...]) -> None:
    """The exact best responses find nothing to gain against the paper's profiles, whose values
    are -1/48 - b21/24 to the first player (from -1/32 to -1/48), -1/48 to the second in every
    profile, and the rest to the third."""
    tree, index = kuhn3_tree()
    evaluation = cfr.evaluate_profile(tree, szafron_profile(tree, index, *params))
    assert max(abs(g) for g in evaluation.seat_gains) < 1e-12
    b21 = params[1]
    assert evaluation.values == pytest.approx((-1 / 48 - b21 / 24, -1 / 48, 1 / 24 + b21 / 24), abs=1e-12)


@pytest.mark.parametrize("schedule", [cfr.CFR_PLUS, cfr.DCFR])
def test_three_player_kuhn_reaches_the_published_family(schedule: cfr.Schedule) -> None:
    """No seat gains 1e-3 by deviating alone, and the values lie in Szafron, Gibson and
    Sturtevant's family (AAMAS 2013; the test above): the first player's between -1/32 and
    -1/48, the second player's -1/48."""
    tree, _ = kuhn3_tree()
    solution = cfr.solve_tree(tree, iterations=600, schedule=schedule)
    gains = solution.evaluation.seat_gains
    assert len(gains) == 3 and max(gains) < 1e-3 and min(gains) > -1e-12
    assert solution.exploitability == max(gains)
    assert sum(solution.values) == pytest.approx(0.0, abs=1e-12)
    assert -1 / 32 - 1e-3 < solution.values[0] < -1 / 48 + 1e-3
    assert solution.values[1] == pytest.approx(-1 / 48, abs=1e-3)


# --- a three-handed draw game, and its best responses by brute force -----------------------------

PRIORS = (np.array([0.5, 0.3, 0.2]), np.array([0.4, 0.4, 0.2]), np.array([0.6, 0.2, 0.2]))
STRENGTH = np.array([0.0, 1.0, 1.0, 2.0])           # final states 1 and 2 tie
DRAW = np.array([[0.5, 0.3, 0.1, 0.1], [0.1, 0.4, 0.3, 0.2], [0.0, 0.1, 0.3, 0.6]])
GAMBLE = np.array([[0.7, 0.0, 0.0, 0.3], [0.5, 0.0, 0.0, 0.5], [0.3, 0.0, 0.0, 0.7]])
BET = 2.0


def draw_game() -> tuple[cfr.Tree, dict[Hashable, int]]:
    """Three seats ante 1 and hold one of three private hands (dealt independently, each seat
    from its own prior); one betting round with a single bet of 2; the seats still in draw in
    seat order (seats 0 and 1 by chance, seat 2 by its unseen choice of a steady or a gambling
    draw) to one of four final hands (the middle two tie), and show down. A bet everybody
    folds to wins the antes (a fixed payoff). Returns the tree and the node of each betting
    history and of each of seat 2's draw choices (by history)."""
    round_ = betting(3)
    spaces = [cfr.Space(3, None, "dealt"), cfr.Space(4, STRENGTH, "final")]
    nodes: list[cfr.Node] = []
    index: dict[Hashable, int] = {}

    def add(node: cfr.Node) -> int:
        nodes.append(node)
        return len(nodes) - 1

    def build(h: str) -> int:
        entry = round_[h]
        if entry[0] == "act":
            _, seat, acts = entry
            kids = tuple(edge(build(h + a)) for a in acts)
            index[h] = add(cfr.Decision(seat, 1, kids, label=h or "root", actions=acts))
            return index[h]
        _, contest, bets = entry
        put = 1.0 + BET * np.array(bets, dtype=float)
        if len(contest) == 1:
            pay = -put
            pay[contest[0]] += put.sum()
            return add(cfr.Terminal(1, "fixed", pay[None, :], label=h))
        node = add(cfr.Terminal(1, "showdown", put[None, :], label=h, contest=contest))
        for q in reversed(contest):
            if q == 2:
                node = add(cfr.Choice(2, 1, np.stack([DRAW, GAMBLE]), 1, edge(node), label=f"{h} draw 2",
                                      actions=("steady", "gamble")))
                index[("hold", h)] = node
            else:
                node = add(cfr.Transition(q, 1, DRAW[None], ONE, 1, edge(node), label=f"{h} draw {q}"))
        return node

    root = build("")
    tree = cfr.build_tree(nodes, root, spaces, (0, 0, 0), PRIORS)
    return tree, renumbered(nodes, root, index)


# The brute force knows the game only through these rules: a state is (dealt hands, history,
# final hands so far, seat 2's draw), and nothing below uses the CFR module.

State = tuple[Any, ...]
Policy = Callable[[int, Hashable], np.ndarray]      # (seat, information set) -> action probabilities
ROUND = betting(3)


def node(state: State) -> tuple[Any, ...]:
    """("chance", [(probability, state)]), ("act", seat, information set, [state per action]) or
    ("end", payoff per seat)."""
    if state == ("deal",):
        return ("chance", [(PRIORS[0][a] * PRIORS[1][b] * PRIORS[2][c], ((a, b, c), "", (), None))
                           for a in range(3) for b in range(3) for c in range(3)])
    dealt, h, finals, gamble = state
    entry = ROUND[h]
    if entry[0] == "act":
        seat, acts = entry[1], entry[2]
        return ("act", seat, ("bet", h, dealt[seat]), [(dealt, h + a, (), None) for a in acts])
    _, contest, bets = entry
    put = [1.0 + BET * b for b in bets]
    if len(contest) == 1:
        return ("end", tuple(sum(put) - put[q] if q == contest[0] else -put[q] for q in range(3)))
    if len(finals) < len(contest):
        seat = contest[len(finals)]
        if seat == 2 and gamble is None:
            return ("act", 2, ("hold", h, dealt[2]), [(dealt, h, finals, False), (dealt, h, finals, True)])
        table = GAMBLE if (seat == 2 and gamble) else DRAW
        return ("chance", [(p, (dealt, h, finals + (f,), gamble)) for f, p in enumerate(table[dealt[seat]]) if p > 0])
    best = max(STRENGTH[f] for f in finals)
    winners = [q for q, f in zip(contest, finals, strict=True) if STRENGTH[f] == best]
    return ("end", tuple((sum(put) / len(winners) if q in winners else 0.0) - put[q] for q in range(3)))


def payoff(policy: Policy, seat: int, best: dict[Hashable, int]) -> Callable[[State], float]:
    """``seat``'s expected payoff from a state on when every seat follows ``policy``, except that
    at the information sets in ``best`` ``seat`` takes the action given there (remembered per
    state: decide the sets below a state before asking for its value)."""
    @functools.cache
    def v(state: State) -> float:
        n = node(state)
        if n[0] == "end":
            return float(n[1][seat])
        if n[0] == "chance":
            return sum(p * v(s) for p, s in n[1])
        _, actor, info, kids = n
        if actor == seat and info in best:
            return v(kids[best[info]])
        return sum(float(p) * v(s) for p, s in zip(policy(actor, info), kids, strict=True) if p > 0)
    return v


def brute_best_response(policy: Policy, seat: int) -> float:
    """``seat``'s best-response value against the others playing ``policy``: every information set
    of ``seat`` collects its states with the chance-and-others' probability of reaching them,
    and the sets are decided deepest first (perfect recall: below a set lie only deeper sets of
    the same seat), each taking the action with the largest weighted value."""
    members: dict[Hashable, list[tuple[State, float]]] = {}
    depth: dict[Hashable, int] = {}

    def walk(state: State, weight: float, own: int) -> None:
        n = node(state)
        if n[0] == "chance":
            for p, s in n[1]:
                walk(s, weight * p, own)
        elif n[0] == "act":
            _, actor, info, kids = n
            if actor == seat:
                members.setdefault(info, []).append((state, weight))
                depth[info] = own
                for s in kids:
                    walk(s, weight, own + 1)
            else:
                for p, s in zip(policy(actor, info), kids, strict=True):
                    walk(s, weight * float(p), own)

    walk(("deal",), 1.0, 0)
    best: dict[Hashable, int] = {}
    v = payoff(policy, seat, best)
    for info in sorted(members, key=lambda i: -depth[i]):
        totals = sum(weight * np.array([v(s) for s in node(state)[3]]) for state, weight in members[info])
        best[info] = int(np.argmax(totals))
    return v(("deal",))


def solver_policy(strategy: list[np.ndarray | None] | tuple[np.ndarray | None, ...], index: dict[Hashable, int]
                  ) -> Policy:
    """A strategy profile of the CFR tree read as the brute force's policy."""
    def policy(seat: int, info: Hashable) -> np.ndarray:
        kind, h, hand = cast(tuple[str, str, int], info)
        s = strategy[index[("hold", h)] if kind == "hold" else index[h]]
        assert s is not None
        return s[0, hand]
    return policy


def _check_against_brute_force(tree: cfr.Tree, index: dict[Hashable, int],
                               strategy: list[np.ndarray | None] | tuple[np.ndarray | None, ...]) -> cfr.Evaluation:
    evaluation = cfr.evaluate_profile(tree, list(strategy))
    policy = solver_policy(strategy, index)
    for seat in range(3):
        assert evaluation.values[seat] == pytest.approx(payoff(policy, seat, {})(("deal",)), abs=1e-12)
        assert evaluation.best_response[seat] == pytest.approx(brute_best_response(policy, seat), abs=1e-12)
    return evaluation


def test_three_handed_values_and_best_responses_match_brute_force_for_uniform_play() -> None:
    tree, index = draw_game()
    evaluation = _check_against_brute_force(tree, index, cfr.uniform_strategy(tree))
    assert sum(evaluation.values) == pytest.approx(0.0, abs=1e-12)
    assert min(evaluation.seat_gains) > 0.01           # uniform play is far from an equilibrium


def test_three_handed_solution_gains_match_brute_force() -> None:
    """The solved profile's seat gains, checked by the brute force's independent best responses,
    are each below 1e-4 antes."""
    tree, index = draw_game()
    solution = cfr.solve_tree(tree, iterations=300, schedule=cfr.DCFR)
    evaluation = _check_against_brute_force(tree, index, solution.strategy)
    assert max(evaluation.seat_gains) < 1e-4
    assert evaluation.exploitability == pytest.approx(solution.exploitability, abs=1e-15)


# --- the per-seat form against the heads-up form ------------------------------------------------

def _heads_up_pair(per_seat: bool, hands: int = 40) -> cfr.Tree:
    """Von Neumann's one-bet poker with ``hands`` equal bins (ante 1, bet 1, equal bins split),
    its terminals given heads-up (player 0's payoff) or per seat (chips in and who contests)."""
    space = cfr.Space(hands, np.arange(hands, dtype=float) // 2)        # pairs of bins tie
    if per_seat:
        ends = [cfr.Terminal(1, "showdown", np.array([[1.0, 1.0]])),
                cfr.Terminal(1, "showdown", np.array([[2.0, 1.0]]), contest=(0,)),    # player 1 folds
                cfr.Terminal(1, "showdown", np.array([[2.0, 2.0]]), contest=(0, 1))]
    else:
        ends = [cfr.Terminal(1, "showdown", np.array([1.0])), cfr.Terminal(1, "fixed", np.array([1.0])),
                cfr.Terminal(1, "showdown", np.array([2.0]))]
    nodes: list[cfr.Node] = [cfr.Decision(0, 1, (edge(1), edge(2))), ends[0], cfr.Decision(1, 1, (edge(3), edge(4))),
                             ends[1], ends[2]]
    uniform = np.full(hands, 1 / hands)
    return cfr.build_tree(nodes, 0, [space], (0, 0), (uniform, uniform))


def test_per_seat_payoffs_give_the_heads_up_values() -> None:
    """The same heads-up game written with per-seat terminals (a fold as a pot taken unopposed)
    has the same values and best responses for any profile, and solves to the same value."""
    classic, seats = _heads_up_pair(False), _heads_up_pair(True)
    rng = np.random.default_rng(5)
    profile = [None if s is None else rng.dirichlet([1.0, 1.0], size=s.shape[:2])
               for s in cfr.uniform_strategy(classic)]
    a, b = cfr.evaluate_profile(classic, profile), cfr.evaluate_profile(seats, profile)
    assert b.values == pytest.approx(a.values, abs=1e-12)
    assert b.best_response == pytest.approx(a.best_response, abs=1e-12)
    assert b.exploitability == pytest.approx(a.exploitability, abs=1e-12)
    solved = cfr.solve_tree(classic, iterations=300), cfr.solve_tree(seats, iterations=300)
    assert solved[1].value == pytest.approx(solved[0].value, abs=1e-9)
    assert solved[1].exploitability == pytest.approx(solved[0].exploitability, abs=1e-9)


def test_per_seat_terminals_are_validated() -> None:
    space = cfr.Space(2, np.arange(2, dtype=float))
    uniform = np.full(2, 0.5)

    def tree(end: cfr.Terminal, players: int = 3) -> cfr.Tree:
        return cfr.build_tree([end], 0, [space], (0,) * players, (uniform,) * players)

    with pytest.raises(ValueError, match="sum to zero"):
        tree(cfr.Terminal(1, "fixed", np.array([[1.0, 0.0, 0.0]])))
    with pytest.raises(ValueError, match="sum to zero"):
        tree(cfr.Terminal(1, "matrix", np.ones((1, 3)), np.ones((3, 2, 2, 2))))
    with pytest.raises(ValueError, match="one per row and seat"):
        tree(cfr.Terminal(1, "showdown", np.array([1.0])))
    with pytest.raises(ValueError, match="distinct seats"):
        tree(cfr.Terminal(1, "showdown", np.ones((1, 3)), contest=(0, 0)))
    with pytest.raises(ValueError, match="a prior for each"):
        cfr.build_tree([cfr.Terminal(1, "fixed", np.zeros((1, 3)))], 0, [space], (0, 0, 0), (uniform, uniform))
    assert tree(cfr.Terminal(1, "showdown", np.ones((1, 3)), contest=(0, 2))).players == 3


def test_four_seats_and_three_way_ties_match_enumeration() -> None:
    """Four seats (the core takes any number): seat 3 folds its ante or calls 2 more into a
    showdown of all four; states tie often. Every seat's value and seat 3's best response
    (the better of folding and calling per state) equal a sum over all deals."""
    n_states = 4
    strength = np.array([0.0, 1.0, 1.0, 1.0])
    priors = [np.array(p) for p in ([0.4, 0.2, 0.2, 0.2], [0.1, 0.3, 0.3, 0.3], [0.25] * 4, [0.7, 0.1, 0.1, 0.1])]
    space = cfr.Space(n_states, strength)
    folded = cfr.Terminal(1, "showdown", np.array([[1.0, 1.0, 1.0, 1.0]]), contest=(0, 1, 2))
    called = cfr.Terminal(1, "showdown", np.array([[1.0, 1.0, 1.0, 3.0]]))
    nodes: list[cfr.Node] = [cfr.Decision(3, 1, (edge(1), edge(2)), actions=("fold", "call")), folded, called]
    tree = cfr.build_tree(nodes, 0, [space], (0,) * 4, priors)
    call = np.array([0.2, 0.9, 0.5, 0.7])                 # seat 3's chance of calling, by state
    profile: list[np.ndarray | None] = [np.stack([1 - call, call], axis=1)[None], None, None]
    evaluation = cfr.evaluate_profile(tree, profile)

    def payoff(deal: tuple[int, ...], calls: bool) -> np.ndarray:
        put = np.array([1.0, 1.0, 1.0, 3.0 if calls else 1.0])
        seats = range(4) if calls else range(3)
        best = max(strength[deal[q]] for q in seats)
        winners = [q for q in seats if strength[deal[q]] == best]
        return np.array([(put.sum() / len(winners) if q in winners else 0.0) for q in range(4)]) - put

    values = np.zeros(4)
    choices = np.zeros((n_states, 2))                     # seat 3's value of folding and calling, by state
    for deal in np.ndindex(*(n_states,) * 4):
        p = np.prod([priors[q][deal[q]] for q in range(4)])
        fold, hit = payoff(deal, False), payoff(deal, True)
        values += p * ((1 - call[deal[3]]) * fold + call[deal[3]] * hit)
        choices[deal[3]] += p * np.array([fold[3], hit[3]])
    assert evaluation.values == pytest.approx(tuple(values), abs=1e-12)
    assert evaluation.best_response[3] == pytest.approx(choices.max(axis=1).sum(), abs=1e-12)
    assert evaluation.best_response[:3] == pytest.approx(tuple(values[:3]), abs=1e-12)   # no choices to make
