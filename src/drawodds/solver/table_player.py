"""The three-handed solution (``solver.table``) as players at a table of the rules engine.

``TablePlayer`` plays one seat of a three-handed deal from a ``TableSolution``: the seat's place
from the dealer's left is the solver's seat (the dealer is seat 2), the betting so far and the
draw counts come from its ``Observation``, the line that reached the draw names the solution's
group, and its action is sampled from the solution's probabilities with the seat's own
generator, its cards kept as its bucket's hold. ``play_in_engine`` seats three of them and plays
whole deals through the engine with one deck, the check that the solution plays at the table as
the solver values it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from drawodds.engine.deal import Action, DealState, Observation, play
from drawodds.errors import RequestError
from drawodds.i18n import _
from drawodds.rules import RuleSet
from drawodds.solver.abstraction import check_rules
from drawodds.solver.game import betting_round, draw_row
from drawodds.solver.playout import TablePlayout, monte_carlo
from drawodds.solver.seat_play import (
    HandLookup,
    PlayerKind,
    SeatPlayer,
    SeatsFromFile,
    SeatsFromMemory,
    check_same_game,
    cumulative,
    engine_action,
    pick,
)
from drawodds.solver.subsets import Floats
from drawodds.solver.table import TableSolution, load_table_solution, table_equilibrium, table_path


def check_table_seats(rules: RuleSet) -> None:
    """Refuse, in one sentence, a table the three-handed solution cannot play."""
    check_rules(rules)
    if rules.players != 3:
        raise RequestError("the three-handed solution plays three players, not {players}", players=rules.players)
    if rules.open_with_raise:
        raise RequestError("the equilibrium player does not cover opening with a raise")


class TableTables:
    """A table solution's strategy arranged for one decision at a time (as ``EquilibriumTables``
    heads-up): per betting history the actor and cumulative probabilities, per line to the draw
    its group, place in the group and the seats in."""

    def __init__(self, solution: TableSolution) -> None:
        a, g = solution.abstraction, solution.game
        self.rules = solution.rules
        self.seats = g.seats
        self.n_opt = len(a.options)
        self.options = tuple(a.options)
        pre = betting_round(0, g.max_bets, g.seats)
        self.pre: dict[str, tuple[int, str, list[list[float]]]] = {}
        for h, i in g.pre_nodes.items():
            node, s = pre[h], solution.strategy[i]
            assert s is not None and node.actor is not None
            self.pre[h] = (node.actor, "".join(node.actions), cumulative(s[0]).tolist())
        self.lines: dict[str, tuple[int, int, int, tuple[int, ...]]] = {}
        self.nearest: dict[tuple[int, ...], str] = {}     # seats in -> a line that reaches the draw with them
        self.post: dict[tuple[int, str], tuple[int, str, Floats]] = {}
        for q, (active, first, members) in enumerate(g.groups):
            for pos, m in enumerate(members):
                self.lines[g.lines[m].history] = (q, pos, len(members), active)
                self.nearest.setdefault(active, g.lines[m].history)
            post = betting_round(first, g.max_bets, g.seats, active)
            for h, node in post.items():
                if (q, h) in g.post_nodes:
                    s = solution.strategy[g.post_nodes[(q, h)]]
                    assert s is not None and node.actor is not None
                    self.post[(q, h)] = (node.actor, "".join(node.actions), cumulative(s))
        self.draw = {key: cumulative(s) for key, i in g.draw_nodes.items() if (s := solution.strategy[i]) is not None}
        self.hold = {key: cumulative(s) for key, i in g.hold_nodes.items() if (s := solution.strategy[i]) is not None}
        self.final = a.final_of_strength.tolist()
        self.hand = HandLookup(a)

    def draw_row(self, pos: int, n: int, active: tuple[int, ...], counts: Sequence[int]) -> int:
        """The row of a group's node after the draws of the seats in ``active`` that drew before
        (``counts``, in seat order): the line's place, then each drawer's count, the first fastest."""
        return draw_row(pos, n, self.options, counts)


class TablePlayer(SeatPlayer):
    """Plays one seat of a three-handed deal by the table solution's probabilities (see the module
    docstring). ``unmapped`` counts decisions whose history the solution's tree does not hold
    (another player's raise past the model's cap, a short stack); the player then checks or calls,
    and at the draw plays the first line that reaches it with the same seats in."""

    def __init__(self, tables: TableTables, rules: RuleSet, rng: np.random.Generator) -> None:
        check_table_seats(rules)
        check_same_game(tables.rules, rules)
        super().__init__(tables.hand, rng)
        self.t = tables

    def decide(self, obs: Observation, before: list[str], after: list[str]) -> Action:
        phase = obs.phase
        t = self.t
        seat = obs.seats.index(obs.seat)              # the solver's seat: its place from the dealer's left
        if obs.round == 0 and phase == "bet":
            node = t.pre.get("".join(before))
            if node is None or node[0] != seat:
                return self._unmapped(obs)
            _, letters, cum = node
            return engine_action(letters[pick(cum[self._bucket], self._uniform())], obs, False)
        found = t.lines.get("".join(before))
        counts = obs.draw_counts[0] if obs.draw_counts else ()
        if found is None:
            if phase != "draw":
                return self._unmapped(obs)
            self.unmapped += 1
            seats_in = tuple(k for k, s in enumerate(obs.seats) if not obs.folded[s])
            line = t.nearest.get(seats_in) or next(h for h, f in t.lines.items() if seat in f[3])
            found = t.lines[line]
        q, pos, n, active = found
        if phase == "draw":
            row = t.draw_row(pos, n, active, [counts[obs.seats[s]] for s in active if s < seat])
            option = pick(t.draw[(q, seat)][row, self._bucket].tolist(), self._uniform())
            choice = t.hold.get((q, seat, option))
            if choice is not None and pick(choice[row, self._bucket].tolist(), self._uniform()) == 1:
                option += t.n_opt                      # the second hold for this draw count
            return self._discard(option, obs)
        row = t.draw_row(pos, n, active, [counts[obs.seats[s]] for s in active])
        post = t.post.get((q, "".join(after)))
        if post is None or post[0] != seat:
            return self._unmapped(obs)
        _, acts, table = post
        return engine_action(acts[pick(table[row, t.final[obs.strength]].tolist(), self._uniform())], obs, False)


TABLE = PlayerKind(load_table_solution, TableTables, TablePlayer, check_table_seats)


class TableFactory(SeatsFromMemory):
    """Seats ``TablePlayer`` from a table solution in memory (``TableSolutionFile`` for workers)."""

    kind = TABLE


class TableSolutionFile(SeatsFromFile):
    """Seats ``TablePlayer`` from a table solution file (``save_table_solution``)."""

    kind = TABLE


def table_factories(rules: RuleSet, *, solution: str | Path | None = None,
                    stage: Callable[[str, float], None] | None = None) -> dict[str, TableSolutionFile]:
    """The factory that seats the three-handed solution as ``equilibrium`` at a table of three:
    from the file ``solution`` (``save_table_solution``), else the cached one of ``rules``
    (``table_equilibrium``: solved once the first time, ``stage`` following it)."""
    check_table_seats(rules)
    report = stage or (lambda text, done: None)
    if solution is None:
        path = table_path(rules)
        if not path.exists():
            report(_("solving the three-handed game (first run only)"), 0.0)
            table_equilibrium(rules)
        solution = path
    report(_("loading the solution"), 0.0)
    factory = TableSolutionFile(str(solution))
    factory.check(rules)
    return {"equilibrium": factory}


STACK = 1_000_000     # chips behind each seat: no deal runs a seat short


def play_in_engine(solution: TableSolution, deals: int, seed: int = 1) -> TablePlayout:
    """Three table players in the rules engine, ``deals`` deals from one shuffled deck each, the
    dealer always the last seat: each seat's result in antes per deal (standard errors), beside
    the solver's values. A deal everybody checks is scored as the model scores it, a push (at the
    table its antes stay for the next deal)."""
    rules = solution.rules.replace(players=solution.players)
    check_table_seats(rules)
    tables = TableTables(solution)
    rng = np.random.default_rng(seed)
    players = [TablePlayer(tables, rules, np.random.default_rng([seed, s])) for s in range(solution.players)]
    button = solution.players - 1
    ante = rules.ante

    def block_pay(n: int) -> Floats:
        pay = np.zeros((n, solution.players))
        for i in range(n):
            state = DealState(rules, [STACK] * solution.players, button, rng.permutation(rules.deck_size).tolist())
            result = play(state, players)
            if result.outcome != "passed_out":
                pay[i] = np.asarray(result.net, dtype=np.float64) / ante
        return pay

    mean, se = monte_carlo(block_pay, deals, 10_000)
    if any(p.unmapped for p in players):
        raise RuntimeError(f"{sum(p.unmapped for p in players)} decisions fell outside the solution's tree")
    return TablePlayout(deals, True, False, tuple(mean.tolist()), tuple(se.tolist()), tuple(solution.value))
