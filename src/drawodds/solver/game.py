"""The betting tree: heads-up limit rounds before and after the draw, as the public tree CFR solves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from drawodds.rules import RuleError, RuleSet
from drawodds.solver import cfr
from drawodds.solver.abstraction import Abstraction
from drawodds.solver.subsets import Floats, Ints


@dataclass(frozen=True)
class RoundNode:
    """A point in one limit betting round: who acts (None at the end), the actions open to them,
    how the round ended, the bets each seat has put in (in bets), and the seats still in."""

    history: str                     # x check, b bet, r raise, c call, f fold
    actor: int | None
    actions: tuple[str, ...]
    end: str | None                  # "fold" (one seat left), "call" or "checked" when the round is over
    put: tuple[int, ...]
    active: tuple[int, ...]


def betting_round(first: int, max_bets: int, seats: int = 2, active: tuple[int, ...] | None = None
                  ) -> dict[str, RoundNode]:
    """Every history of a fixed-limit round among ``seats`` seats (those in ``active``: default
    all), ``first`` (or the next seat in after it) acting first and the others in seat order, with
    at most ``max_bets`` bets (the bet and its raises), parents before children. With no bet a
    seat checks or bets; facing one it folds, calls or raises, and a bet or raise gives every
    other seat still in a turn. The round ends when one seat is left ("fold"),
    when everybody checked ("checked"), or when every seat still in has matched the last bet
    ("call"); with three or more a fold leaves the others betting on."""
    out: dict[str, RoundNode] = {}

    def visit(history: str, pending: tuple[int, ...], level: int, put: tuple[int, ...],
              active: tuple[int, ...]) -> None:
        if len(active) == 1 or not pending:
            end = "fold" if len(active) == 1 else "checked" if level == 0 else "call"
            out[history] = RoundNode(history, None, (), end, put, active)
            return
        actor = pending[0]
        acts = ("x", "b") if level == 0 else ("f", "c", "r") if level < max_bets else ("f", "c")
        out[history] = RoundNode(history, actor, acts, None, put, active)
        behind = tuple(s for s in ((actor + k) % seats for k in range(1, seats)) if s in active)
        for a in acts:
            if a == "x":
                visit(history + a, pending[1:], 0, put, active)
            elif a == "f":
                visit(history + a, pending[1:], level, put, tuple(s for s in active if s != actor))
            elif a == "c":
                visit(history + a, pending[1:], level, _put(put, actor, level), active)
            else:                                          # a bet or a raise: the others answer it
                visit(history + a, behind, level + 1, _put(put, actor, level + 1), active)

    playing = tuple(range(seats)) if active is None else tuple(sorted(active))
    visit("", tuple(s for s in ((first + k) % seats for k in range(seats)) if s in playing), 0, (0,) * seats,
          playing)
    return out


def _put(put: tuple[int, ...], seat: int, bets: int) -> tuple[int, ...]:
    """``put`` with ``seat``'s bets in the round raised to ``bets``."""
    return put[:seat] + (bets,) + put[seat + 1:]


ACTION_NAMES = {"x": "check", "b": "bet", "r": "raise", "c": "call", "f": "fold"}


@dataclass(frozen=True)
class Line:
    """A pre-draw betting line that reaches the draw: its history, the chips each seat has in
    (antes, ante included), the opener and the seat that acts first after the draw."""

    history: str
    stake: float
    opener: int | None
    first_after: int


@dataclass(frozen=True)
class GameTree:
    """The abstract game as a public tree, with the indices that map its nodes back to play."""

    tree: cfr.Tree = field(repr=False)
    lines: tuple[Line, ...]
    pre_nodes: dict[str, int] = field(repr=False)          # pre-draw history -> node, in play order
    draw_nodes: dict[tuple[int, int], int] = field(repr=False)   # (first after, seat) -> node
    post_nodes: dict[tuple[int, str], int] = field(repr=False)   # (first after, history) -> node
    hold_nodes: dict[tuple[int, int, int], int] = field(repr=False)  # (first after, seat, option) -> choice node
    groups: dict[int, tuple[int, ...]] = field(repr=False)       # first after -> line indices
    max_bets: int
    small: float
    big: float


def _opener(history: str, first: int) -> int | None:
    """The seat that made the first bet of a round, if any."""
    for i, a in enumerate(history):
        if a == "b":
            return (first + i) % 2
    return None


def build_game(abstraction: Abstraction, raises: int | None = None) -> GameTree:
    """The public tree of heads-up draw under the abstraction's rule set.

    Seat 0 sits left of the dealer: it acts first before the draw and draws first. ``raises``
    caps the raises per round (default: the rule set's cap, also heads-up; see docs/solve.md).
    A round everybody checks before the draw is a push when the rule set redeals.
    """
    rules = abstraction.rules
    max_bets, small, big = _limits(rules, raises)
    pre = betting_round(0, max_bets)
    n_opt, n_pre, n_fin = len(abstraction.options), abstraction.pre_buckets, abstraction.final_buckets
    spaces = (cfr.Space(n_pre, None, "pre-draw bucket"),
              cfr.Space(n_fin, np.arange(n_fin, dtype=np.float64), "final bucket"))
    lines: list[Line] = []
    for h, node in pre.items():
        if node.end == "call" or (node.end == "checked" and not rules.all_check_redeal):
            opener = _opener(h, 0)
            first = opener if (rules.first_after_draw == "opener" and opener is not None) else 0
            lines.append(Line(h, 1 + node.put[0] * small, opener, first))
    nodes: list[cfr.Node] = []

    def add(node: cfr.Node) -> int:
        nodes.append(node)
        return len(nodes) - 1

    groups = {q: tuple(i for i, ln in enumerate(lines) if ln.first_after == q) for q in (0, 1)}
    groups = {q: g for q, g in groups.items() if g}
    draw_nodes: dict[tuple[int, int], int] = {}
    hold_nodes: dict[tuple[int, int, int], int] = {}
    post_nodes: dict[tuple[int, str], int] = {}
    entry: dict[str, tuple[int, int]] = {}             # pre-draw history -> (draw node, row)
    for q, members in groups.items():
        n = len(members)
        base = np.array([lines[i].stake for i in members])
        rows = n_opt * n_opt * n
        stake = np.tile(base, n_opt * n_opt)
        post = betting_round(q, max_bets)
        post_root = _build_round(post, "", rows, stake, big, add, post_nodes, q, None).child
        if not abstraction.choices:
            x1 = add(cfr.Transition(1, rows, abstraction.transitions, np.repeat(np.arange(n_opt), n_opt * n),
                                    1, cfr.Edge(post_root, np.arange(rows)), "draw, seat 1"))
            into1 = tuple(cfr.Edge(x1, a * n_opt * n + np.arange(n_opt * n)) for a in range(n_opt))
        else:
            into1 = tuple(cfr.Edge(_draw(abstraction, 1, a, n_opt * n, cfr.Edge(post_root, a * n_opt * n
                                                                                 + np.arange(n_opt * n)),
                                         add, hold_nodes, q), np.arange(n_opt * n)) for a in range(n_opt))
        d1 = add(cfr.Decision(1, n_opt * n, into1, abstraction.legal_draws, "draw choice, seat 1",
                              _draw_names(abstraction)))
        if not abstraction.choices:
            x0 = add(cfr.Transition(0, n_opt * n, abstraction.transitions, np.repeat(np.arange(n_opt), n),
                                    1, cfr.Edge(d1, np.arange(n_opt * n)), "draw, seat 0"))
            into0 = tuple(cfr.Edge(x0, a * n + np.arange(n)) for a in range(n_opt))
        else:
            into0 = tuple(cfr.Edge(_draw(abstraction, 0, a, n, cfr.Edge(d1, a * n + np.arange(n)), add, hold_nodes, q),
                                   np.arange(n)) for a in range(n_opt))
        d0 = add(cfr.Decision(0, n, into0, abstraction.legal_draws, "draw choice, seat 0", _draw_names(abstraction)))
        draw_nodes[(q, 0)], draw_nodes[(q, 1)] = d0, d1
        for row, i in enumerate(members):
            entry[lines[i].history] = (d0, row)
    pre_nodes: dict[str, int] = {}
    openers = np.stack([np.ones(n_pre, dtype=bool), abstraction.openers], axis=1)
    root = _build_round(pre, "", 1, np.ones(1), small, add, pre_nodes, 0,
                        (entry, rules.all_check_redeal, openers)).child
    tree = cfr.build_tree(nodes, root, spaces, (0, 0), (abstraction.prior, abstraction.prior))
    # build_tree renumbers nodes root first: translate the recorded indices.
    renum = _renumbering(nodes, root, tree)
    pre_sorted = {h: int(renum[pre_nodes[h]]) for h in sorted(pre_nodes, key=lambda h: (len(h), h))}
    post_sorted = {k: int(renum[post_nodes[k]]) for k in sorted(post_nodes, key=lambda k: (k[0], len(k[1]), k[1]))}
    return GameTree(tree, tuple(lines), pre_sorted, {k: int(renum[i]) for k, i in sorted(draw_nodes.items())},
                    post_sorted, {k: int(renum[i]) for k, i in sorted(hold_nodes.items())}, groups, max_bets, small,
                    big)


def _limits(rules: RuleSet, raises: int | None) -> tuple[int, float, float]:
    """Bets a round allows (the bet and ``raises`` raises, default the rule set's cap), and the
    small and big bets in antes; refused when the stacks could run out."""
    cap = raises if raises is not None else (rules.max_raises if rules.max_raises is not None else 4)
    max_bets = 1 + cap
    small, big = rules.small_bet / rules.ante, rules.big_bet / rules.ante
    if 1 + max_bets * (small + big) > rules.stack / rules.ante:
        raise RuleError("with {cap} raises a round the stacks of {stack} could run out; choose fewer raises", cap=cap,
                        stack=rules.stack)
    return max_bets, small, big


def _draw(abstraction: Abstraction, seat: int, k: int, rows: int, child: cfr.Edge, add,
          record: dict[tuple[int, int, int], int], q: int) -> int:
    """The node that moves ``seat``'s bucket when it draws option ``k``: a private choice between
    the bucket's holds for that count, or the one transition when there is no choice."""
    name = _draw_names(abstraction)[k]
    if k not in abstraction.choices:
        return add(cfr.Transition(seat, rows, abstraction.transitions[k:k + 1], np.zeros(rows, dtype=np.int64), 1,
                                  child, f"{name}, seat {seat}"))
    matrices = abstraction.hold_transitions(k)
    node = add(cfr.Choice(seat, rows, matrices, 1, child, abstraction.hold_legal(k), f"hold for {name}, seat {seat}",
                          tuple(f"hold {i}" for i in range(len(matrices)))))
    record[(q, seat, k)] = node
    return node


def _draw_names(abstraction: Abstraction) -> tuple[str, ...]:
    return tuple("pat" if d == 0 else f"draw {d}" for d in abstraction.options)


def _build_round(round_: dict[str, RoundNode], history: str, rows: int, stake: Floats, bet: float, add,
                 record: dict, first: int, predraw: tuple[dict, bool, npt.NDArray[np.bool_]] | None
                 ) -> cfr.Edge:
    """Nodes of one betting round below ``history`` (children first); returns the edge into it.

    ``stake`` is what each seat already has in per row; after the draw a check-through or a call
    is a showdown. Before the draw (``predraw``) they lead into the draw nodes, a check-through to
    a push when the rule set redeals, and the opening bet is limited to openers.
    """
    node = round_[history]
    every = np.arange(rows)
    if node.end == "fold":
        folder = (first + len(history) - 1) % 2
        loss = stake + node.put[folder] * bet
        return cfr.Edge(add(cfr.Terminal(rows, "fixed", -loss if folder == 0 else loss, label=history)), every)
    if node.end is not None and predraw is None:
        return cfr.Edge(add(cfr.Terminal(rows, "showdown", stake + node.put[0] * bet, label=history)), every)
    if node.end is not None:
        assert predraw is not None
        entry, redeal, _ = predraw
        if node.end == "checked" and redeal:
            return cfr.Edge(add(cfr.Terminal(rows, "fixed", np.zeros(rows), label="all check: redeal")), every)
        d0, row = entry[history]
        return cfr.Edge(d0, np.array([row]))
    kids = tuple(_build_round(round_, history + a, rows, stake, bet, add, record, first, predraw)
                 for a in node.actions)
    legal = None
    if predraw is not None and node.actions == ("x", "b") and not predraw[2][:, 1].all():
        legal = predraw[2]
    assert node.actor is not None
    idx = add(cfr.Decision(node.actor, rows, kids, legal, history or "root",
                           tuple(ACTION_NAMES[a] for a in node.actions)))
    record[(first, history) if predraw is None else history] = idx
    return cfr.Edge(idx, every)


def _renumbering(nodes: list[cfr.Node], root: int, tree: cfr.Tree) -> Ints:
    """Old node index -> index in the built tree (build_tree orders nodes topologically)."""
    order = cfr.topological_order(nodes, root)
    new = np.empty(len(nodes), dtype=np.int64)
    new[order] = np.arange(len(nodes))
    return new


# --- three or more seats -----------------------------------------------------------------------

@dataclass(frozen=True)
class TableLine:
    """A pre-draw line of a table of several seats that reaches the draw: its history, the chips
    each seat has in (in antes, ante included), the seats still in, the opener and the seat that
    acts first after the draw."""

    history: str
    stake: tuple[float, ...]
    active: tuple[int, ...]
    opener: int | None
    first_after: int


@dataclass(frozen=True)
class TableGame:
    """The abstract game of a table of ``seats`` seats as a public tree, with the indices that map
    its nodes back to play. Lines that reach the draw are grouped by (seats in, first to act after
    the draw); a group's rows after the draw are (last drawer's count, ..., first drawer's count,
    line), the last drawer's count slowest."""

    tree: cfr.Tree = field(repr=False)
    seats: int
    lines: tuple[TableLine, ...]
    groups: tuple[tuple[tuple[int, ...], int, tuple[int, ...]], ...]   # (seats in, first after, line indices)
    pre_nodes: dict[str, int] = field(repr=False)                   # pre-draw history -> node
    draw_nodes: dict[tuple[int, int], int] = field(repr=False)      # (group, seat) -> node
    hold_nodes: dict[tuple[int, int, int], int] = field(repr=False)  # (group, seat, option) -> choice node
    post_nodes: dict[tuple[int, str], int] = field(repr=False)      # (group, history) -> node
    max_bets: int
    small: float
    big: float


def _first_after(rules: RuleSet, opener: int | None, active: tuple[int, ...], seats: int) -> int:
    """Who acts first after the draw: the opener or, gone, the next seat in after it (the rule
    set's default), else the first seat in from the dealer's left."""
    start = opener if (rules.first_after_draw == "opener" and opener is not None) else 0
    return next(s for s in ((start + k) % seats for k in range(seats)) if s in active)


def draw_row(pos: int, lines: int, options: Sequence[int], counts: Sequence[int]) -> int:
    """The row of a table group's node at or after the draw: the line's place among the group's
    ``lines``, then each earlier drawer's count (``counts``, in seat order), the first fastest."""
    row, stride = pos, lines
    for d in counts:
        row += stride * options.index(d)
        stride *= len(options)
    return row


def build_table_game(abstraction: Abstraction, seats: int = 3, raises: int | None = None) -> TableGame:
    """The public tree of draw at a table of ``seats`` seats under the abstraction's rule set.

    Seat 0 sits left of the dealer, the last seat is the dealer: seat 0 acts first before the draw
    and the seats draw in seat order, each from its own stub (no card removal between seats, as
    heads-up). Only openers may open under Jacks or Better; a round everybody checks is a push
    when the rule set redeals (the carried pot is left to the next deal, as heads-up), else the
    seats draw at the antes. A fold that leaves two goes on between them in the same tree; a bet
    nobody answers wins the pot. ``raises`` caps the raises per round as heads-up.
    """
    rules = abstraction.rules
    max_bets, small, big = _limits(rules, raises)
    pre = betting_round(0, max_bets, seats)
    n_opt, n_pre, n_fin = len(abstraction.options), abstraction.pre_buckets, abstraction.final_buckets
    spaces = (cfr.Space(n_pre, None, "pre-draw bucket"),
              cfr.Space(n_fin, np.arange(n_fin, dtype=np.float64), "final bucket"))
    lines: list[TableLine] = []
    for h, node in pre.items():
        if node.end == "call" or (node.end == "checked" and not rules.all_check_redeal):
            bettor = h.find("b")
            opener = pre[h[:bettor]].actor if bettor >= 0 else None
            lines.append(TableLine(h, tuple(1 + p * small for p in node.put), node.active, opener,
                                   _first_after(rules, opener, node.active, seats)))
    groups = tuple(
        (active, first, tuple(i for i, ln in enumerate(lines) if (ln.active, ln.first_after) == (active, first)))
        for active, first in dict.fromkeys((ln.active, ln.first_after) for ln in lines))
    nodes: list[cfr.Node] = []

    def add(node: cfr.Node) -> int:
        nodes.append(node)
        return len(nodes) - 1

    draw_nodes: dict[tuple[int, int], int] = {}
    hold_nodes: dict[tuple[int, int, int], int] = {}
    post_nodes: dict[tuple[int, str], int] = {}
    entry: dict[str, tuple[int, int]] = {}             # pre-draw history -> (first drawer's node, row)
    for g, (active, first, members) in enumerate(groups):
        n = len(members)
        rows = n * n_opt ** len(active)
        stake = np.tile(np.array([lines[i].stake for i in members]), (n_opt ** len(active), 1))
        post = betting_round(first, max_bets, seats, active)
        below = _table_round(post, "", rows, stake, big, add, post_nodes, g)
        for seat in reversed(active):                  # the draws, last drawer first
            rows //= n_opt
            into = tuple(cfr.Edge(_draw(abstraction, seat, k, rows, cfr.Edge(below, k * rows + np.arange(rows)), add,
                                        hold_nodes, g), np.arange(rows)) for k in range(n_opt))
            below = add(cfr.Decision(seat, rows, into, abstraction.legal_draws, f"draw choice, seat {seat}",
                                     _draw_names(abstraction)))
            draw_nodes[(g, seat)] = below
        for row, i in enumerate(members):
            entry[lines[i].history] = (below, row)
    pre_nodes: dict[str, int] = {}
    openers = np.stack([np.ones(n_pre, dtype=bool), abstraction.openers], axis=1)
    legal = None if openers[:, 1].all() else openers

    def predraw(h: str) -> int:
        node = pre[h]
        stake = np.array([1 + p * small for p in node.put])
        if node.end == "fold":
            pay = -stake
            pay[node.active[0]] += stake.sum()
            return add(cfr.Terminal(1, "fixed", pay[None, :], label=h))
        if node.end is not None:                       # the lines to the draw are edges made by the caller
            assert h not in entry
            return add(cfr.Terminal(1, "fixed", np.zeros((1, seats)), label="all check: redeal"))
        kids = []
        for a in node.actions:
            child = h + a
            if child in entry:
                kids.append(cfr.Edge(entry[child][0], np.array([entry[child][1]])))
            else:
                kids.append(cfr.Edge(predraw(child), np.zeros(1, dtype=np.int64)))
        assert node.actor is not None
        idx = add(cfr.Decision(node.actor, 1, tuple(kids), legal if node.actions == ("x", "b") else None,
                               h or "root", tuple(ACTION_NAMES[a] for a in node.actions)))
        pre_nodes[h] = idx
        return idx

    root = predraw("")
    tree = cfr.build_tree(nodes, root, spaces, (0,) * seats, (abstraction.prior,) * seats)
    renum = _renumbering(nodes, root, tree)
    return TableGame(tree, seats, tuple(lines), groups,
                     {h: int(renum[i]) for h, i in sorted(pre_nodes.items(), key=lambda x: (len(x[0]), x[0]))},
                     {k: int(renum[i]) for k, i in sorted(draw_nodes.items())},
                     {k: int(renum[i]) for k, i in sorted(hold_nodes.items())},
                     {k: int(renum[i]) for k, i in sorted(post_nodes.items(), key=lambda x: (x[0][0], len(x[0][1]),
                                                                                               x[0][1]))},
                     max_bets, small, big)


def _table_round(round_: dict[str, RoundNode], history: str, rows: int, stake: Floats, bet: float, add,
                 record: dict[tuple[int, str], int], group: int) -> int:
    """Nodes of one betting round after the draw at a table (children first); returns the node of
    ``history``. ``stake`` (rows, seats) is what each seat has in; a bet nobody answers takes the
    pot, a check-through or a call is a showdown among the seats still in."""
    node = round_[history]
    if node.end is not None:
        put = stake + np.array(node.put, dtype=np.float64)[None, :] * bet
        return add(cfr.Terminal(rows, "showdown", put, label=history or "checked", contest=node.active))
    kids = tuple(cfr.Edge(_table_round(round_, history + a, rows, stake, bet, add, record, group), np.arange(rows))
                 for a in node.actions)
    assert node.actor is not None
    idx = add(cfr.Decision(node.actor, rows, kids, None, history or "after the draw",
                           tuple(ACTION_NAMES[a] for a in node.actions)))
    record[(group, history)] = idx
    return idx
