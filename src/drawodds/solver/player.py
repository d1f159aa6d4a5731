"""The solved heads-up strategy (``solver.solution``) as a player at the table of the rules engine.

``EquilibriumPlayer`` plays one seat of a heads-up deal from a ``DrawSolution``: it reads the
betting so far in the round, its seat (the dealer is the solver's seat 1) and the draw counts
from its ``Observation``, turns them into the solution's history strings, and samples its action
from the solution's probabilities with the seat's own generator. It draws the cards the
solution's hold keeps. The betting model has a cap (``solution.raises``) where the engine lifts
it heads-up: facing a raise past the cap the player answers as at the cap, and its own raises
past the cap become calls.

Factories seat it through ``drawodds.engine.session.simulate(factories=...)``:
``EquilibriumFactory(solution)`` for one process, ``SolutionFile(path)`` for any number of
workers (it loads the file once per process instead of sending the solution with every chunk).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.engine.deal import Action, Observation
from drawodds.errors import RequestError
from drawodds.execution import Stage
from drawodds.i18n import _, local_number
from drawodds.rules import RuleSet
from drawodds.solver.abstraction import check_rules
from drawodds.solver.cache import equilibrium_path
from drawodds.solver.cfr import Checkpoint
from drawodds.solver.game import betting_round, draw_row
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
from drawodds.solver.settings import DEFAULT_EXPLOITABILITY
from drawodds.solver.solution import DrawSolution, load_solution
from drawodds.solver.solve import equilibrium_solution
from drawodds.solver.table_player import table_factories

Floats = npt.NDArray[np.float64]


def check_table(rules: RuleSet) -> None:
    """Refuse, in one sentence, a table no solution can play: a game the solver does not cover,
    other than two seats (the three-handed solution has its own player), or opening with a raise."""
    check_rules(rules)
    if rules.players != 2:
        raise RequestError("the heads-up equilibrium player plays two players, not {players} (the three-handed "
                           "solution plays three)", players=rules.players)
    if rules.open_with_raise:
        raise RequestError("the equilibrium player does not cover opening with a raise")


class EquilibriumTables:
    """A solution's strategy arranged for one decision at a time: per betting history the
    solution's probabilities, the betting lines that reach the draw, and the deal classes'
    buckets and holds as plain lists."""

    def __init__(self, solution: DrawSolution) -> None:
        a, g = solution.abstraction, solution.game
        self.solution = solution
        self.rules = solution.rules
        self.max_bets = g.max_bets
        self.options = a.options
        pre = betting_round(0, g.max_bets)
        # history -> (actor, action letters, (buckets, actions) cumulative probabilities as lists)
        self.pre: dict[str, tuple[int, str, list[list[float]]]] = {}
        for h, i in g.pre_nodes.items():
            node, s = pre[h], solution.strategy[i]
            assert s is not None and node.actor is not None
            self.pre[h] = (node.actor, "".join(node.actions), cumulative(s[0]).tolist())
        self.lines = {ln.history: (ln.first_after, g.groups[ln.first_after].index(k), len(g.groups[ln.first_after]))
                      for k, ln in enumerate(g.lines)}
        self.default_line = g.lines[0].history
        self.draw: dict[tuple[int, int], Floats] = {}
        for key, i in g.draw_nodes.items():
            s = solution.strategy[i]
            assert s is not None
            self.draw[key] = cumulative(s)
        self.hold: dict[tuple[int, int, int], Floats] = {}     # (group, seat, option) -> second-hold choice
        for key3, i in g.hold_nodes.items():
            s = solution.strategy[i]
            assert s is not None
            self.hold[key3] = cumulative(s)
        self.post: dict[tuple[int, str], tuple[int, str, Floats]] = {}
        rounds = {q: betting_round(q, g.max_bets) for q in g.groups}
        for (q, h), i in g.post_nodes.items():
            node, s = rounds[q][h], solution.strategy[i]
            assert s is not None and node.actor is not None
            self.post[(q, h)] = (node.actor, "".join(node.actions), cumulative(s))
        self.final = a.final_of_strength.tolist()
        self.hand = HandLookup(a)


def _canonical(history: str, max_bets: int) -> tuple[str, bool]:
    """A betting history with raises past the model's cap taken back in pairs (the same seat is
    to act, facing the cap or one raise below it), and whether any were."""
    first = history.find("b")
    if first < 0:
        return history, False
    raises = len(history) - first - 1
    over = raises - (max_bets - 1)
    if over <= 0 or history[first + 1:] != "r" * raises:
        return history, False
    return history[:first + 1] + "r" * (raises - 2 * ((over + 1) // 2)), True


def _canonical_line(history: str, max_bets: int) -> str:
    """A pre-draw line that reached the draw, with raises past the cap dropped."""
    first = history.find("b")
    if first < 0 or not history.endswith("c"):
        return history
    raises = min(len(history) - first - 2, max_bets - 1)
    return history[:first + 1] + "r" * raises + "c"


class EquilibriumPlayer(SeatPlayer):
    """Plays one heads-up seat by the solution's probabilities (see the module docstring).

    ``unmapped`` counts betting decisions whose history the solution's tree does not hold (short
    stacks can make such lines); the player then checks or calls.
    """

    def __init__(self, tables: EquilibriumTables, rules: RuleSet, rng: np.random.Generator) -> None:
        check_table(rules)
        check_same_game(tables.rules, rules)
        super().__init__(tables.hand, rng)
        self.t = tables

    def decide(self, obs: Observation, before: list[str], after: list[str]) -> Action:
        phase = obs.phase
        seat = 1 if obs.seat == obs.button else 0
        other = next(s for s in obs.seats if s != obs.seat)
        t = self.t
        if obs.round == 0 and phase == "bet":
            h, over = _canonical("".join(before), t.max_bets)
            node = t.pre.get(h)
            if node is None or node[0] != seat:
                return self._unmapped(obs)
            _, letters, cum = node
            return engine_action(letters[pick(cum[self._bucket], self._uniform())], obs, over)
        line = _canonical_line("".join(before), t.max_bets)
        if line not in t.lines:
            line = t.default_line     # betting skipped (a seat all-in from its ante)
        q, pos, n = t.lines[line]
        if phase == "draw":
            row = draw_row(pos, n, t.options, [obs.draw_counts[0][other]] if seat == 1 else [])
            option = pick(t.draw[(q, seat)][row, self._bucket].tolist(), self._uniform())
            choice = t.hold.get((q, seat, option))
            if choice is not None and pick(choice[row, self._bucket].tolist(), self._uniform()) == 1:
                option += len(t.options)                  # the second hold for this draw count
            return self._discard(option, obs)
        counts = obs.draw_counts[0]
        d0, d1 = (counts[obs.seat], counts[other]) if seat == 0 else (counts[other], counts[obs.seat])
        row = draw_row(pos, n, t.options, (d0, d1))
        h, over = _canonical("".join(after), t.max_bets)
        post = t.post.get((q, h))
        if post is None or post[0] != seat:
            return self._unmapped(obs)
        _, acts, table = post
        return engine_action(acts[pick(table[row, t.final[obs.strength]].tolist(), self._uniform())], obs, over)


HEADS_UP = PlayerKind(load_solution, EquilibriumTables, EquilibriumPlayer, check_table)


class EquilibriumFactory(SeatsFromMemory):
    """Seats ``EquilibriumPlayer`` from a heads-up solution in memory (``SolutionFile`` for workers)."""

    kind = HEADS_UP


class SolutionFile(SeatsFromFile):
    """Seats ``EquilibriumPlayer`` from a heads-up solution file (``DrawSolution.save``)."""

    kind = HEADS_UP


NAME = "equilibrium"      # the player's name in simulate's --policy


def equilibrium_factories(rules: RuleSet, names: Sequence[str], *, solution: str | Path | None = None,
                          stage: Stage | None = None) -> dict[str, Any]:
    """The factory that seats ``equilibrium`` for ``simulate(factories=...)`` when ``names`` ask
    for it ({} otherwise), checked against the table before any play: heads-up the heads-up
    solution's, at a table of three the three-handed one's (``table_player.table_factories``).

    The solution comes from the file ``solution`` (written by ``DrawSolution.save``), else from
    ``equilibrium_solution(rules)``: solved once and kept in the cache (``stage(text, fraction)``
    follows that solve), read back later.
    """
    if NAME not in [n.strip().lower() for n in names]:
        if solution is not None:
            raise RequestError("a solution file is only used by the {player} player; add it to the policies",
                               player=NAME)
        return {}
    report = stage or (lambda text, done: None)
    if rules.players == 3:
        return table_factories(rules, solution=solution, stage=report)
    check_table(rules)
    if solution is None:
        path = equilibrium_path(rules)
        if not path.exists():
            report(_("building the abstraction (first run only)"), 0.0)
            first: list[float] = []

            def solving(c: Checkpoint) -> None:
                first.append(c.exploitability)
                span = math.log(first[0] / DEFAULT_EXPLOITABILITY)
                done = math.log(first[0] / c.exploitability) / span if span > 0 else 1.0
                value = local_number(f"{1000 * c.exploitability:,.1f}")
                report(_("solving: {value} milli-antes a deal").format(value=value), min(max(done, 0.0), 1.0))
            equilibrium_solution(rules, progress=solving)
        solution = path
    report(_("loading the solution"), 0.0)
    factory = SolutionFile(str(solution))
    factory.check(rules)
    return {NAME: factory}
