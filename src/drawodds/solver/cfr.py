"""Counterfactual regret minimisation over a public game tree, vectorized over private states.

A zero-sum game of two or more players is given as a tree of *public* nodes. Each node stands for
a batch of ``rows`` public states with the same shape (for example the 16 draw-count pairs after
one betting line), and every array at a node has a leading row axis and one axis over a player's
private states, so Python loops run over public nodes and iterations, never over hands.

Node kinds:

- ``Decision``: one player picks an action; a separate strategy for every (row, private state).
- ``Transition``: chance changes one player's private state, e.g. the draw: the distribution of
  the new state is a row of a stochastic matrix (one matrix per row, from a small stack).
- ``Choice``: one player picks, unseen by the other, which stochastic matrix moves its own
  private state (e.g. which cards it keeps for a draw count both see); a strategy per (row,
  private state) like a decision, but every action leads to the same public child.
- ``Terminal``: a payoff that is fixed (a fold), decided by comparing strengths (a showdown,
  O(n) by cumulative sums), or any matrix over the players' private states. Heads-up it is
  given as player 0's payoff; in the per-seat form (any number of players) as each seat's
  chips in the pot and the seats still contesting it, so a fold that leaves two players in a
  three-handed pot goes on as a heads-up subgame of the same tree.

Private states are dealt at the root from independent priors, so the reach of a player's
opponents factorises: the counterfactual value of a seat is its payoff weighted by the product of
the other seats' reaches, and a showdown against several independent opponents stays linear in
the states (each opponent's weaker and tied mass by cumulative sums). Correlation (cards one
player holds cannot be another's) is expressed by a terminal ``matrix``, as in Kuhn poker.

``solve_tree`` runs CFR+ (regret matching+, alternating updates, linear averaging) or discounted
CFR, and ``evaluate_profile`` gives each seat's exact best response against the others held fixed.
Heads-up the exploitability is the mean gain of the two best responses (zero exactly at a Nash
equilibrium); with more players it is the largest seat gain, and CFR has no guarantee of reaching
a Nash equilibrium there, so what a solve is worth is what those gains measure.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.int64]


# --- the tree ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Space:
    """One player's private states at some stage; ``strength`` ranks them at a showdown (ties equal)."""

    size: int
    strength: npt.NDArray[np.float64] | None = field(default=None, repr=False)
    name: str = ""


@dataclass(frozen=True)
class Edge:
    """Where an action leads: node ``child``, whose row ``rows[i]`` continues this node's row ``i``."""

    child: int
    rows: Index = field(repr=False)


@dataclass(frozen=True)
class Decision:
    """A batch of public nodes where ``player`` chooses one of ``len(children)`` actions.

    ``legal`` (states, actions) limits the actions of each private state (e.g. only openers
    may bet); None allows every action everywhere.
    """

    player: int
    rows: int
    children: tuple[Edge, ...]
    legal: npt.NDArray[np.bool_] | None = field(default=None, repr=False)
    label: str = ""
    actions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Transition:
    """Chance moves ``player``'s private state into space ``out_space``: row ``i`` uses the
    row-stochastic matrix ``matrices[which[i]]`` (states in, states out)."""

    player: int
    rows: int
    matrices: Array = field(repr=False)
    which: Index = field(repr=False)
    out_space: int
    child: Edge
    label: str = ""


@dataclass(frozen=True)
class Choice:
    """``player`` picks one of the ``len(actions)`` matrices ``matrices[a]`` (states in, states
    out; the same for every row) to move its own private state into space ``out_space``; the
    other player sees only that it moved (all actions lead to the same ``child`` rows)."""

    player: int
    rows: int
    matrices: Array = field(repr=False)
    out_space: int
    child: Edge
    legal: npt.NDArray[np.bool_] | None = field(default=None, repr=False)
    label: str = ""
    actions: tuple[str, ...] = ()


TerminalKind = Literal["fixed", "showdown", "matrix"]


@dataclass(frozen=True)
class Terminal:
    """End of play, with ``stake`` of shape (rows,) heads-up or (rows, players) per seat.

    Heads-up form, the payoff to player 0 (player 1 gets its negative). ``fixed``: player 0 wins
    ``stake[i]`` (negative: loses). ``showdown``: the stronger private state wins ``stake[i]``,
    equal strengths split. ``matrix``: player 0 wins ``stake[i] * matrix[s0, s1]``.

    Per-seat form. ``fixed``: seat q wins ``stake[i, q]`` (each row sums to zero). ``showdown``:
    ``stake[i, q]`` is what seat q has put in the pot; the seats in ``contest`` (all when empty)
    compare strengths, the strongest take the pot, equal strengths share it, and the others have
    folded (one seat in ``contest``: it takes the pot unopposed). ``matrix``: seat q wins
    ``stake[i, q] * matrix[q, s0, s1, ...]`` (summing to zero over the seats).
    """

    rows: int
    kind: TerminalKind
    stake: Array = field(repr=False)
    matrix: Array | None = field(default=None, repr=False)
    label: str = ""
    contest: tuple[int, ...] = ()


Node = Decision | Transition | Choice | Terminal


@dataclass(frozen=True)
class Tree:
    """A validated public tree: nodes in topological order (root first, one row), the private
    state space of each player at each node, and the priors dealt at the root (one per player)."""

    nodes: tuple[Node, ...]
    spaces: tuple[Space, ...]
    node_spaces: npt.NDArray[np.int64] = field(repr=False)   # (nodes, players) space index per player
    priors: tuple[Array, ...] = field(repr=False)

    @property
    def players(self) -> int:
        """Number of players (seats)."""
        return len(self.priors)

    @property
    def decisions(self) -> tuple[int, ...]:
        """Indices of the decision nodes."""
        return tuple(i for i, n in enumerate(self.nodes) if isinstance(n, Decision))

    @property
    def choices(self) -> tuple[int, ...]:
        """Indices of the private choice nodes."""
        return tuple(i for i, n in enumerate(self.nodes) if isinstance(n, Choice))

    @property
    def strategic(self) -> tuple[int, ...]:
        """Indices of the nodes with a strategy: decisions and private choices, in node order."""
        return tuple(i for i, n in enumerate(self.nodes) if isinstance(n, Decision | Choice))

    def states(self, node: int, player: int) -> int:
        """Number of private states of ``player`` at ``node``."""
        return self.spaces[int(self.node_spaces[node, player])].size

    @property
    def infosets(self) -> tuple[int, ...]:
        """Information sets of each player: (row, private state) pairs at their decision nodes."""
        out = [0] * self.players
        for i in self.decisions:
            node = self.nodes[i]
            assert isinstance(node, Decision)
            out[node.player] += node.rows * self.states(i, node.player)
        return tuple(out)


def build_tree(nodes: Sequence[Node], root: int, spaces: Sequence[Space], root_spaces: Sequence[int],
               priors: Sequence[npt.ArrayLike]) -> Tree:
    """Validate nodes given in any order (edges by list index) and renumber them root first.

    One root space and one prior per player (two or more). Checks that every node is reached,
    that the edges into each node cover its rows exactly once, that spaces agree along every
    path, and that matrices, masks and payoffs have matching shapes.
    """
    if len(root_spaces) != len(priors) or len(priors) < 2:
        raise ValueError("give a root space and a prior for each of two or more players")
    n = len(nodes)
    order = topological_order(nodes, root)               # parents before children, root first
    if len(order) != n:
        raise ValueError(f"{n - len(order)} nodes are not reachable from the root")
    new = np.empty(n, dtype=np.int64)
    new[order] = np.arange(n)
    renumbered = [_renumber(nodes[i], new) for i in order]
    node_spaces = np.full((n, len(priors)), -1, dtype=np.int64)
    node_spaces[0] = root_spaces
    covered = [np.zeros(nd.rows, dtype=np.int64) for nd in renumbered]
    if renumbered[0].rows != 1:
        raise ValueError("the root must have exactly one row")
    covered[0][:] = 1
    for i, nd in enumerate(renumbered):
        here = node_spaces[i].copy()
        for a, e in enumerate(_edges(nd)):
            if len(e.rows) != nd.rows:
                raise ValueError(f"node {i} ({_label(nd)}): edge {a} maps {len(e.rows)} rows, node has {nd.rows}")
            np.add.at(covered[e.child], e.rows, 1)
            there = here.copy()
            if isinstance(nd, Transition | Choice):
                there[nd.player] = nd.out_space
            if (node_spaces[e.child] >= 0).all() and (node_spaces[e.child] != there).any():
                raise ValueError(f"node {e.child} is reached with different private state spaces")
            node_spaces[e.child] = there
        _check_node(i, nd, here, spaces)
    for i, c in enumerate(covered):
        if (c != 1).any():
            raise ValueError(f"node {i} ({_label(renumbered[i])}): rows reached {c.min()}..{c.max()} times, "
                             "each must be reached exactly once")
    pri = tuple(np.asarray(p, dtype=np.float64) for p in priors)
    for p in range(len(pri)):
        if pri[p].shape != (spaces[root_spaces[p]].size,) or abs(pri[p].sum() - 1) > 1e-9:
            raise ValueError(f"prior of player {p} must be a distribution over its "
                             f"{spaces[root_spaces[p]].size} states")
    return Tree(tuple(renumbered), tuple(spaces), node_spaces, pri)


def _edges(node: Node) -> tuple[Edge, ...]:
    if isinstance(node, Decision):
        return node.children
    if isinstance(node, Transition | Choice):
        return (node.child,)
    return ()


def _label(node: Node) -> str:
    return node.label or type(node).__name__


def topological_order(nodes: Sequence[Node], root: int) -> list[int]:
    """Kahn's order of the nodes reachable from the root: the numbering ``build_tree`` gives."""
    indeg = np.zeros(len(nodes), dtype=np.int64)
    for nd in nodes:
        for e in _edges(nd):
            indeg[e.child] += 1
    out, ready = [], [root]
    while ready:
        i = ready.pop()
        out.append(i)
        for e in _edges(nodes[i]):
            indeg[e.child] -= 1
            if indeg[e.child] == 0:
                ready.append(e.child)
    return out


def _renumber(node: Node, new: Index) -> Node:
    def edge(e: Edge) -> Edge:
        return Edge(int(new[e.child]), np.asarray(e.rows, dtype=np.int64))
    if isinstance(node, Decision):
        return Decision(node.player, node.rows, tuple(edge(e) for e in node.children), node.legal,
                        node.label, node.actions)
    if isinstance(node, Transition):
        return Transition(node.player, node.rows, np.asarray(node.matrices, dtype=np.float64),
                          np.asarray(node.which, dtype=np.int64), node.out_space, edge(node.child), node.label)
    if isinstance(node, Choice):
        return Choice(node.player, node.rows, np.asarray(node.matrices, dtype=np.float64), node.out_space,
                      edge(node.child), node.legal, node.label, node.actions)
    return Terminal(node.rows, node.kind, np.asarray(node.stake, dtype=np.float64), node.matrix, node.label,
                    tuple(node.contest))


def _check_node(i: int, nd: Node, here: npt.NDArray[np.int64], spaces: Sequence[Space]) -> None:
    """Shapes of one node against the private state spaces it is reached with."""
    sizes = [spaces[int(s)].size for s in here]
    if isinstance(nd, Decision):
        if nd.legal is not None:
            if nd.legal.shape != (sizes[nd.player], len(nd.children)) or not nd.legal.any(axis=1).all():
                raise ValueError(f"node {i} ({_label(nd)}): legal mask must be (states, actions) with an "
                                 "action for every state")
    elif isinstance(nd, Choice):
        m = nd.matrices
        if m.ndim != 3 or m.shape[1:] != (sizes[nd.player], spaces[nd.out_space].size):
            raise ValueError(f"node {i} ({_label(nd)}): matrices must be (actions, {sizes[nd.player]}, "
                             f"{spaces[nd.out_space].size})")
        if nd.legal is not None and (nd.legal.shape != (sizes[nd.player], len(m)) or not nd.legal.any(axis=1).all()):
            raise ValueError(f"node {i} ({_label(nd)}): legal mask must be (states, actions) with an "
                             "action for every state")
    elif isinstance(nd, Transition):
        m = nd.matrices
        if m.ndim != 3 or m.shape[1:] != (sizes[nd.player], spaces[nd.out_space].size):
            raise ValueError(f"node {i} ({_label(nd)}): matrices must be (m, {sizes[nd.player]}, "
                             f"{spaces[nd.out_space].size})")
        if nd.which.shape != (nd.rows,) or nd.which.min() < 0 or nd.which.max() >= len(m):
            raise ValueError(f"node {i} ({_label(nd)}): which must pick a matrix for every row")
    elif nd.stake.ndim == 1:
        if len(sizes) != 2 or nd.stake.shape != (nd.rows,) or nd.contest:
            raise ValueError(f"node {i} ({_label(nd)}): stake needs one value per row (heads-up) or "
                             "one per row and seat")
        if nd.kind == "showdown" and any(spaces[int(s)].strength is None for s in here):
            raise ValueError(f"node {i} ({_label(nd)}): a showdown needs strengths for both spaces")
        if nd.kind == "matrix" and (nd.matrix is None or nd.matrix.shape != tuple(sizes)):
            raise ValueError(f"node {i} ({_label(nd)}): matrix must be {tuple(sizes)}")
    else:
        _check_seat_terminal(i, nd, here, spaces)


def _check_seat_terminal(i: int, nd: Terminal, here: npt.NDArray[np.int64], spaces: Sequence[Space]) -> None:
    """Shapes and zero sums of a per-seat terminal."""
    players = len(here)
    sizes = tuple(spaces[int(s)].size for s in here)
    if nd.stake.shape != (nd.rows, players):
        raise ValueError(f"node {i} ({_label(nd)}): stake must be (rows, {players} seats)")
    if nd.kind == "fixed" and np.abs(nd.stake.sum(axis=1)).max(initial=0.0) > 1e-9:
        raise ValueError(f"node {i} ({_label(nd)}): fixed payoffs must sum to zero over the seats")
    if nd.kind == "showdown":
        contest = nd.contest or tuple(range(players))
        if len(set(contest)) != len(contest) or not all(0 <= q < players for q in contest):
            raise ValueError(f"node {i} ({_label(nd)}): contest must name distinct seats")
        if len(contest) > 1 and any(spaces[int(here[q])].strength is None for q in contest):
            raise ValueError(f"node {i} ({_label(nd)}): a showdown needs strengths for the seats in it")
    if nd.kind == "matrix":
        if nd.matrix is None or nd.matrix.shape != (players, *sizes):
            raise ValueError(f"node {i} ({_label(nd)}): matrix must be {(players, *sizes)}")
        total = np.tensordot(nd.stake, nd.matrix, axes=([1], [0]))
        if np.abs(total).max(initial=0.0) > 1e-9:
            raise ValueError(f"node {i} ({_label(nd)}): matrix payoffs must sum to zero over the seats")


# --- compiled form: index arrays and caches used in every pass ----------------------------------

_ShowdownIndex = tuple[Index | None, Index | slice, Index | slice]


@dataclass(frozen=True)
class _Compiled:
    tree: Tree
    identity: tuple[tuple[bool, ...], ...]     # per node, per edge: rows are 0..n-1 in order
    groups: tuple[tuple[tuple[int, slice | Index], ...], ...]   # transitions: (matrix, rows)
    showdown: dict[tuple[int, int], _ShowdownIndex]  # by (own space, opponent's space)
    uniform: tuple[Array | None, ...]          # decisions: uniform over legal actions (A, 1, states)
    masks: tuple[npt.NDArray[np.bool_] | None, ...]   # decisions: legal actions (A, 1, states)


def _compile(tree: Tree) -> _Compiled:
    identity: list[tuple[bool, ...]] = []
    groups: list[tuple[tuple[int, slice | Index], ...]] = []
    uniform: list[Array | None] = []
    masks: list[npt.NDArray[np.bool_] | None] = []
    showdown: dict[tuple[int, int], _ShowdownIndex] = {}
    for i, nd in enumerate(tree.nodes):
        identity.append(tuple(len(e.rows) == tree.nodes[e.child].rows and bool((e.rows == np.arange(len(e.rows))).all())
                              for e in _edges(nd)))
        g: list[tuple[int, slice | Index]] = []
        if isinstance(nd, Transition):
            for m in np.unique(nd.which):
                rows = np.flatnonzero(nd.which == m)
                contiguous = rows[-1] - rows[0] + 1 == len(rows)
                g.append((int(m), slice(int(rows[0]), int(rows[-1]) + 1) if contiguous else rows))
        groups.append(tuple(g))
        if isinstance(nd, Decision | Choice):
            n_states, n_act = tree.states(i, nd.player), _n_actions(nd)
            legal = np.ones((n_states, n_act), dtype=bool) if nd.legal is None else nd.legal
            uniform.append(np.ascontiguousarray((legal / legal.sum(axis=1, keepdims=True)).T[:, None, :]))
            masks.append(None if nd.legal is None else np.ascontiguousarray(nd.legal.T[:, None, :]))
        else:
            uniform.append(None)
            masks.append(None)
        if isinstance(nd, Terminal) and nd.kind == "showdown":
            seats = range(2) if nd.stake.ndim == 1 else (nd.contest or range(tree.players))
            at = [int(tree.node_spaces[i, q]) for q in seats]
            for own in at:
                for opp in at:
                    if (own, opp) not in showdown:
                        showdown[(own, opp)] = _showdown_index(tree.spaces[own], tree.spaces[opp])
    return _Compiled(tree, tuple(identity), tuple(groups), showdown, tuple(uniform), tuple(masks))


def _n_actions(nd: Decision | Choice) -> int:
    return len(nd.children) if isinstance(nd, Decision) else len(nd.matrices)


def _showdown_index(own: Space, opp: Space) -> _ShowdownIndex:
    """Sort order of the opponent's states and, for each own state, how many opponent states are
    weaker (``lo``) and weaker-or-equal (``hi``); slices when both spaces are the same distinct,
    ascending strengths (the usual case: buckets in order)."""
    assert own.strength is not None and opp.strength is not None
    order = np.argsort(opp.strength, kind="stable")
    ranked = opp.strength[order]
    lo = np.searchsorted(ranked, own.strength, side="left")
    hi = np.searchsorted(ranked, own.strength, side="right")
    n = len(ranked)
    if len(lo) == n and (lo == np.arange(n)).all() and (hi == np.arange(1, n + 1)).all():
        return (None if (order == np.arange(n)).all() else order), slice(0, n), slice(1, n + 1)
    return (None if (order == np.arange(n)).all() else order), lo, hi


# --- passes -----------------------------------------------------------------------------------
#
# Inside the passes a strategy is action-major, (actions, rows, states) per decision node, so that
# sums and maxima over actions are additions of contiguous arrays; the public functions take and
# give (rows, states, actions).

Strategy = list[Array | None]     # per node: (rows, states, actions) at decisions, else None


def _action_major(strategy: Sequence[Array | None]) -> Strategy:
    return [None if s is None else np.ascontiguousarray(np.moveaxis(s, 2, 0)) for s in strategy]


def _state_major(strategy: Sequence[Array | None]) -> Strategy:
    return [None if s is None else np.ascontiguousarray(np.moveaxis(s, 0, 2)) for s in strategy]


def _reach(c: _Compiled, strategy: Strategy, player: int) -> list[Array]:
    """Probability that chance and ``player``'s own choices reach each (node row, private state)."""
    tree = c.tree
    out: list[Array | None] = [None] * len(tree.nodes)
    out[0] = tree.priors[player][None, :]
    for i, nd in enumerate(tree.nodes):
        r = out[i]
        assert r is not None
        if isinstance(nd, Terminal):
            continue
        if isinstance(nd, Transition) and nd.player == player:
            moved = np.empty((nd.rows, nd.matrices.shape[2]))
            for m, rows in c.groups[i]:
                moved[rows] = r[rows] @ nd.matrices[m]
            _assign(out, tree, nd.child, c.identity[i][0], moved)
        elif isinstance(nd, Choice) and nd.player == player:
            s = strategy[i]
            assert s is not None
            moved = (r * s[0]) @ nd.matrices[0]
            for a in range(1, len(nd.matrices)):
                moved += (r * s[a]) @ nd.matrices[a]
            _assign(out, tree, nd.child, c.identity[i][0], moved)
        elif isinstance(nd, Decision) and nd.player == player:
            s = strategy[i]
            assert s is not None
            for a, e in enumerate(nd.children):
                _assign(out, tree, e, c.identity[i][a], r * s[a])
        else:
            for a, e in enumerate(_edges(nd)):
                _assign(out, tree, e, c.identity[i][a], r)
    return out  # type: ignore[return-value]


def _assign(out: list[Array | None], tree: Tree, e: Edge, identity: bool, values: Array) -> None:
    if identity:
        out[e.child] = values
        return
    target = out[e.child]
    if target is None:
        target = out[e.child] = np.empty((tree.nodes[e.child].rows, values.shape[1]))
    target[e.rows] = values


def _terminal_values(c: _Compiled, i: int, nd: Terminal, player: int, reach: Sequence[list[Array]]) -> Array:
    """Counterfactual value of each (row, own state) at a terminal, given every player's reach."""
    if nd.stake.ndim == 2:
        return _seat_terminal_values(c, i, nd, player, reach)
    opp_reach = reach[1 - player][i]
    sign = 1.0 if player == 0 else -1.0
    if nd.kind == "fixed":
        total = opp_reach.sum(axis=1)
        total *= sign * nd.stake
        return np.broadcast_to(total[:, None], (nd.rows, c.tree.states(i, player)))
    if nd.kind == "matrix":
        assert nd.matrix is not None
        w = nd.matrix if player == 0 else nd.matrix.T
        return sign * nd.stake[:, None] * (opp_reach @ w.T)
    own, opp = (int(c.tree.node_spaces[i, player]), int(c.tree.node_spaces[i, 1 - player]))
    order, lo, hi = c.showdown[(own, opp)]
    ranked = opp_reach if order is None else opp_reach[:, order]
    cum = np.zeros((nd.rows, ranked.shape[1] + 1))
    np.cumsum(ranked, axis=1, out=cum[:, 1:])
    # weaker - stronger = cum[lo] - (total - cum[hi])
    out = cum[:, lo] + cum[:, hi]
    out -= cum[:, -1:]
    out *= nd.stake[:, None]
    return out


def _seat_terminal_values(c: _Compiled, i: int, nd: Terminal, player: int, reach: Sequence[list[Array]]) -> Array:
    """``_terminal_values`` of a per-seat terminal: the payoff weighted by the product of the
    other seats' reaches (independent private states), a showdown by each rival's weaker and
    tied mass (cumulative sums), so the cost stays linear in the states."""
    tree = c.tree
    n_own = tree.states(i, player)
    others = [q for q in range(tree.players) if q != player]
    if nd.kind == "matrix":
        assert nd.matrix is not None
        letters = "abcdefghijklmnopqrstuvwxy"[:tree.players]
        spec = ",".join([letters] + [f"z{letters[q]}" for q in others]) + f"->z{letters[player]}"
        out = np.einsum(spec, nd.matrix[player], *(reach[q][i] for q in others))
        out *= nd.stake[:, player, None]
        return out
    own = int(tree.node_spaces[i, player])
    return seat_payoffs(nd.kind, nd.stake, nd.contest or tuple(range(tree.players)), player,
                        {q: reach[q][i] for q in others}, n_own,
                        lambda q: c.showdown[(own, int(tree.node_spaces[i, q]))])


def seat_payoffs(kind: str, stake: Array, contest: tuple[int, ...], player: int, others: dict[int, Array], n_own: int,
                 index: Callable[[int], _ShowdownIndex]) -> Array:
    """(rows, own states) counterfactual payoff of ``player`` at a per-seat ``fixed`` or
    ``showdown`` end of play (``Terminal``), weighted by the other seats' reaches ``others``
    (seat -> (rows, states); a seat out of the contest may give a single column, its total).
    ``index(q)`` ranks rival q's states against the player's (``_showdown_index``)."""
    rows = len(stake)
    if kind == "fixed" or player not in contest:
        pay = stake[:, player] if kind == "fixed" else -stake[:, player]
        for r in others.values():
            pay = pay * r.sum(axis=1)
        return np.broadcast_to(pay[:, None], (rows, n_own))
    # The pot goes to the strongest seats in the contest: with rivals r independent, the chance of
    # tying exactly k of them and beating the rest is the coefficient of t^k in prod_r (W_r + t T_r),
    # and a k-way tie takes 1/(k + 1) of the pot.
    pot = stake.sum(axis=1)
    folded = np.ones(rows)                         # the folded seats' reach, a factor per row
    for q, r in others.items():
        if q not in contest:
            folded *= r.sum(axis=1)
    rivals = [q for q in contest if q != player]
    if not rivals:                                 # everybody else folded: the pot, unopposed
        return np.broadcast_to(((pot - stake[:, player]) * folded)[:, None], (rows, n_own))
    ties: list[Array] = []                         # ties[k]: mass of beating all rivals but k tied ones
    stays = stake[:, player] * folded              # what the seat pays in, times the others' reach
    for q in rivals:
        order, lo, hi = index(q)
        r = others[q]
        ranked = r if order is None else r[:, order]
        cum = np.zeros((rows, ranked.shape[1] + 1))
        np.cumsum(ranked, axis=1, out=cum[:, 1:])
        weaker, tied = cum[:, lo], cum[:, hi] - cum[:, lo]
        if ties:
            ties = [ties[0] * weaker] + [ties[k] * weaker + ties[k - 1] * tied for k in range(1, len(ties))] + \
                [ties[-1] * tied]
        else:
            ties = [weaker, tied]
        stays *= cum[:, -1]
    share = ties[0] + ties[1] / 2
    for k in range(2, len(ties)):
        share += ties[k] / (k + 1)
    share *= (pot * folded)[:, None]
    share -= stays[:, None]
    return share


def _values(c: _Compiled, strategy: Strategy, reach: Sequence[list[Array]], player: int, best: bool
            ) -> tuple[list[Array], dict[int, Array]]:
    """Counterfactual values of ``player`` at every node (own reach excluded), bottom up, given
    every player's reach (only the others' is used).

    At the player's decisions the value is the strategy's mix of the action values, or with
    ``best`` the best legal action per state (a best response). Returns the node values and,
    for the player's decisions, the (actions, rows, states) action values.
    """
    tree = c.tree
    vals: list[Array | None] = [None] * len(tree.nodes)
    action_values: dict[int, Array] = {}
    for i in range(len(tree.nodes) - 1, -1, -1):
        nd = tree.nodes[i]
        if isinstance(nd, Terminal):
            vals[i] = _terminal_values(c, i, nd, player, reach)
        elif isinstance(nd, Choice) and nd.player != player:
            vals[i] = _gather(vals, nd.child, c.identity[i][0])
        elif isinstance(nd, Transition):
            below = _gather(vals, nd.child, c.identity[i][0])
            if nd.player == player:
                v = np.empty((nd.rows, nd.matrices.shape[1]))
                for m, rows in c.groups[i]:
                    v[rows] = below[rows] @ nd.matrices[m].T
                vals[i] = v
            else:
                vals[i] = below
        elif isinstance(nd, Decision) and nd.player != player:
            total = np.array(_gather(vals, nd.children[0], c.identity[i][0]))
            for a in range(1, len(nd.children)):
                total += _gather(vals, nd.children[a], c.identity[i][a])
            vals[i] = total
        else:
            av = np.empty((_n_actions(nd), nd.rows, c.tree.states(i, player)))
            if isinstance(nd, Choice):
                below = _gather(vals, nd.child, c.identity[i][0])
                for a in range(len(nd.matrices)):
                    np.matmul(below, nd.matrices[a].T, out=av[a])
            else:
                for a, e in enumerate(nd.children):
                    av[a] = _gather(vals, e, c.identity[i][a])
            action_values[i] = av
            if best:
                mask = c.masks[i]
                vals[i] = (np.where(mask, av, -np.inf) if mask is not None else av).max(axis=0)
            else:
                s = strategy[i]
                assert s is not None
                v = av[0] * s[0]
                for a in range(1, len(av)):
                    v += av[a] * s[a]
                vals[i] = v
    return vals, action_values  # type: ignore[return-value]


def _gather(vals: list[Array | None], e: Edge, identity: bool) -> Array:
    v = vals[e.child]
    assert v is not None
    return v if identity else v[e.rows]


# --- strategies -------------------------------------------------------------------------------

def _proportional(weights: Array, uniform: Array) -> Array:
    """(actions, rows, states) weights scaled to sum to one over actions; ``uniform`` where all
    are zero."""
    total = weights.sum(axis=0)
    out = np.empty_like(weights)
    out[...] = uniform
    np.divide(weights, total, out=out, where=total > 0)
    return out


def _uniform(c: _Compiled) -> Strategy:
    return [None if u is None else np.broadcast_to(u, (u.shape[0], nd.rows, u.shape[2])).copy()
            for u, nd in zip(c.uniform, c.tree.nodes, strict=True)]


def uniform_strategy(tree: Tree) -> Strategy:
    """Every legal action equally likely at every information set, (rows, states, actions)."""
    return _state_major(_uniform(_compile(tree)))


def normalize(tree: Tree, weights: Sequence[Array | None]) -> Strategy:
    """Behaviour strategy from accumulated action weights (rows, states, actions); uniform over
    legal actions where a state was never reached."""
    c = _compile(tree)
    return _state_major(_normalize(c, _action_major(weights)))


def _normalize(c: _Compiled, weights: Strategy) -> Strategy:
    return [None if w is None else _proportional(w, c.uniform[i]) for i, w in enumerate(weights)]  # type: ignore[arg-type]


# --- evaluation -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Evaluation:
    """A profile's value to each seat and each seat's best-response value (own payoff) against
    the others held fixed."""

    values: tuple[float, ...]
    best_response: tuple[float, ...]

    @property
    def value(self) -> float:
        """Value to player 0."""
        return self.values[0]

    @property
    def seat_gains(self) -> tuple[float, ...]:
        """What each seat gains by deviating alone to a best response."""
        return tuple(b - v for b, v in zip(self.best_response, self.values, strict=True))

    @property
    def nash_conv(self) -> float:
        """Sum of the seats' gains from deviating to a best response (heads-up the values cancel:
        the sum of the two best responses)."""
        if len(self.values) == 2:
            return self.best_response[0] + self.best_response[1]
        return sum(self.seat_gains)

    @property
    def exploitability(self) -> float:
        """Heads-up: the mean gain of a best response over the two seats (zero exactly at a Nash
        equilibrium, which CFR approaches). More players: the largest seat gain. That is no
        two-player exploitability: a profile where no seat gains alone can still lose to two
        seats that change together, and CFR has no guarantee of approaching a Nash equilibrium."""
        if len(self.values) == 2:
            return self.nash_conv / 2
        return max(self.seat_gains)


def _root_value(tree: Tree, vals: list[Array], player: int) -> float:
    return float(tree.priors[player] @ vals[0][0])


def evaluate_profile(tree: Tree, strategy: Sequence[Array | None]) -> Evaluation:
    """Exact values and best responses of a strategy profile given as (rows, states, actions)
    arrays per node (bottom-up passes per player)."""
    return _evaluate(_compile(tree), _action_major(strategy))


def _evaluate(c: _Compiled, strategy: Strategy) -> Evaluation:
    n = c.tree.players
    reach = [_reach(c, strategy, p) for p in range(n)]
    if n == 2:                                # zero-sum: seat 1's value is the negative of seat 0's
        v = _root_value(c.tree, _values(c, strategy, reach, 0, best=False)[0], 0)
        values: tuple[float, ...] = (v, -v)
    else:
        values = tuple(_root_value(c.tree, _values(c, strategy, reach, p, best=False)[0], p) for p in range(n))
    br = tuple(_root_value(c.tree, _values(c, strategy, reach, p, best=True)[0], p) for p in range(n))
    return Evaluation(values, br)


def reach_probabilities(tree: Tree, strategy: Sequence[Array | None], player: int) -> list[Array]:
    """Chance-and-own probability of reaching every (node row, private state) of ``player``."""
    return _reach(_compile(tree), _action_major(strategy), player)


# --- the solver -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Schedule:
    """Regret and averaging discounts (Brown and Sandholm's discounted CFR).

    After iteration t positive regrets are multiplied by t^alpha / (t^alpha + 1), negative ones
    by t^beta / (t^beta + 1); iteration t enters the average with weight (t - delay)^gamma.
    CFR+ is alpha = inf, beta = -inf (regrets floored at zero), gamma = 1.
    """

    name: str
    alpha: float
    beta: float
    gamma: float
    delay: int = 0

    def factors(self, t: int) -> tuple[float, float]:
        """Multipliers of positive and negative accumulated regret after iteration t."""
        def f(e: float) -> float:
            if e == math.inf:
                return 1.0
            if e == -math.inf:
                return 0.0
            x = float(t) ** e
            return x / (x + 1.0)
        return f(self.alpha), f(self.beta)

    def weight(self, t: int) -> float:
        """Weight of iteration t in the average strategy."""
        return max(t - self.delay, 0) ** self.gamma


CFR_PLUS = Schedule("cfr+", math.inf, -math.inf, 1.0)
DCFR = Schedule("dcfr", 1.5, 0.0, 2.0)
SCHEDULES = {"cfr+": CFR_PLUS, "dcfr": DCFR}


@dataclass(frozen=True)
class Checkpoint:
    """Exploitability of the average strategy after some iterations and seconds."""

    iteration: int
    seconds: float
    value: float
    exploitability: float


@dataclass(frozen=True)
class Solution:
    """The average strategy of a run ((rows, states, actions) per decision node), its exact
    evaluation, and the exploitability curve."""

    tree: Tree = field(repr=False)
    strategy: tuple[Array | None, ...] = field(repr=False)
    evaluation: Evaluation
    iterations: int
    seconds: float
    schedule: Schedule
    curve: tuple[Checkpoint, ...] = field(repr=False)
    interrupted: bool = False            # stopped by Ctrl-C: the average of the iterations done

    @property
    def value(self) -> float:
        """Value of the average profile to player 0."""
        return self.evaluation.value

    @property
    def values(self) -> tuple[float, ...]:
        """Value of the average profile to each seat."""
        return self.evaluation.values

    @property
    def exploitability(self) -> float:
        return self.evaluation.exploitability


Progress = Callable[[Checkpoint], None]


def _no_progress(point: Checkpoint) -> None:
    return None


def checkpoints(limit: int, ratio: float = 1.25, every: int = 50) -> list[int]:
    """Iterations to measure at: every one up to 10, then a geometric ladder with steps of at
    most ``every``, and the last one."""
    out, t = [], 1
    while t < limit:
        out.append(t)
        t = t + 1 if t < 10 else min(max(int(t * ratio), t + 1), t + every)
    out.append(limit)
    return out


def solve_tree(tree: Tree, *, iterations: int = 1000, exploitability: float | None = None,
               schedule: Schedule = CFR_PLUS, seconds: float | None = None, check_every: int = 50,
               progress: Progress = _no_progress) -> Solution:
    """Run CFR with alternating updates until ``iterations``, or earlier once the exploitability
    (checked on the ladder of ``checkpoints``) is at most ``exploitability``, or ``seconds`` pass.

    Time spent measuring exploitability is excluded from the reported seconds. Ctrl-C stops the
    run early with the average strategy of the iterations done (``Solution.interrupted``).
    """
    c = _compile(tree)
    nodes = tree.nodes
    seats = range(tree.players)
    players = [[i for i in tree.strategic if nodes[i].player == p] for p in seats]  # type: ignore[union-attr]
    strategy = _uniform(c)
    regret = {i: np.zeros_like(strategy[i]) for i in tree.strategic}
    total = {i: np.zeros_like(strategy[i]) for i in tree.strategic}
    ladder = set(checkpoints(iterations, every=check_every))
    reach = [_reach(c, strategy, p) for p in seats]
    curve: list[Checkpoint] = []
    spent = 0.0
    evaluation = Evaluation((0.0,) * tree.players, (math.inf,) * tree.players)
    t = 0

    def average() -> Strategy:
        return _normalize(c, [total.get(i) for i in range(len(nodes))])

    interrupted, done = False, 0
    try:
        for t in range(1, iterations + 1):
            start = time.perf_counter()
            pos, neg = schedule.factors(t)
            plus = neg == 0.0 and pos == 1.0
            w = schedule.weight(t)
            for p in seats:
                vals, action_values = _values(c, strategy, reach, p, best=False)
                own = reach[p]
                for i in players[p]:
                    s = strategy[i]
                    assert s is not None
                    if w > 0:
                        total[i] += (w * own[i]) * s
                    r = regret[i]
                    r += action_values[i]
                    r -= vals[i]
                    if c.masks[i] is not None:
                        r *= c.masks[i]
                    if plus:
                        np.maximum(r, 0.0, out=r)
                        strategy[i] = _proportional(r, c.uniform[i])  # type: ignore[arg-type]
                    else:
                        r *= np.where(r > 0, pos, neg)
                        strategy[i] = _proportional(np.maximum(r, 0.0), c.uniform[i])  # type: ignore[arg-type]
                reach[p] = _reach(c, strategy, p)
            spent += time.perf_counter() - start
            done = t
            if t in ladder:
                evaluation = _evaluate(c, average())
                point = Checkpoint(t, spent, evaluation.value, evaluation.exploitability)
                curve.append(point)
                progress(point)
                if (exploitability is not None and evaluation.exploitability <= exploitability) or \
                        (seconds is not None and spent >= seconds):
                    break
    except KeyboardInterrupt:
        interrupted, t = True, done
    final = average()
    if not curve or curve[-1].iteration != t:
        evaluation = _evaluate(c, final)
        curve.append(Checkpoint(t, spent, evaluation.value, evaluation.exploitability))
    return Solution(tree, tuple(_state_major(final)), evaluation, t, spent, schedule, tuple(curve), interrupted)
