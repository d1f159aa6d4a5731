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

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.engine.deal import BET, CALL, CHECK, FOLD, RAISE, SHOW, Action, Observation
from drawodds.errors import RequestError
from drawodds.evaluate import jacks_or_better_floor
from drawodds.execution import Stage
from drawodds.rules import RuleSet
from drawodds.solver.abstraction import Abstraction, check_rules
from drawodds.solver.cache import equilibrium_path
from drawodds.solver.cfr import Checkpoint
from drawodds.solver.classes import class_keys
from drawodds.solver.game import betting_round
from drawodds.solver.settings import DEFAULT_EXPLOITABILITY, GAME_OPTIONS
from drawodds.solver.solution import DrawSolution, load_solution
from drawodds.solver.solve import equilibrium_solution

LETTERS = {"check": "x", "bet": "b", "raise": "r", "call": "c", "fold": "f"}
ACTIONS = {"x": CHECK, "b": BET, "r": RAISE, "c": CALL, "f": FOLD}
NO_HOLD = 255                 # a draw count the hand may not make

Floats = npt.NDArray[np.float64]


def check_table(rules: RuleSet) -> None:
    """Refuse, in one sentence, a table no solution can play: a game the solver does not cover,
    more than two seats, or opening with a raise."""
    check_rules(rules)
    if rules.players != 2:
        raise RequestError("the equilibrium player plays heads-up only: use 2 players, not {players}",
                           players=rules.players)
    if rules.open_with_raise:
        raise RequestError("the equilibrium player does not cover opening with a raise")


def check_same_game(solved: RuleSet, rules: RuleSet) -> None:
    """Refuse rules whose game differs from the one the solution was solved for (the table size,
    stacks and session length may differ)."""
    differ = [k for k in GAME_OPTIONS if getattr(rules, k) != getattr(solved, k)]
    if differ:
        raise RequestError("the solution was solved for other rules ({choices} differ)", choices=', '.join(differ))


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
        self.option_index = {d: k for k, d in enumerate(a.options)}
        pre = betting_round(0, g.max_bets)
        # history -> (actor, action letters, (buckets, actions) cumulative probabilities as lists)
        self.pre: dict[str, tuple[int, str, list[list[float]]]] = {}
        for h, i in g.pre_nodes.items():
            node, s = pre[h], solution.strategy[i]
            assert s is not None and node.actor is not None
            self.pre[h] = (node.actor, "".join(node.actions), _cumulative(s[0]).tolist())
        self.lines = {ln.history: (ln.first_after, g.groups[ln.first_after].index(k), len(g.groups[ln.first_after]))
                      for k, ln in enumerate(g.lines)}
        self.default_line = g.lines[0].history
        self.draw: dict[tuple[int, int], Floats] = {}
        for key, i in g.draw_nodes.items():
            s = solution.strategy[i]
            assert s is not None
            self.draw[key] = _cumulative(s)
        self.hold: dict[tuple[int, int, int], Floats] = {}     # (group, seat, option) -> second-hold choice
        for key3, i in g.hold_nodes.items():
            s = solution.strategy[i]
            assert s is not None
            self.hold[key3] = _cumulative(s)
        self.post: dict[tuple[int, str], tuple[int, str, Floats]] = {}
        rounds = {q: betting_round(q, g.max_bets) for q in g.groups}
        for (q, h), i in g.post_nodes.items():
            node, s = rounds[q][h], solution.strategy[i]
            assert s is not None and node.actor is not None
            self.post[(q, h)] = (node.actor, "".join(node.actions), _cumulative(s))
        self.final = a.final_of_strength.tolist()
        self.hand = HandLookup(a)


class HandLookup:
    """A hand's pre-draw bucket and its holds under an abstraction, one hand at a time."""

    def __init__(self, a: Abstraction) -> None:
        # Deal classes by the key of their suit masks (largest first), with their bucket and holds.
        keys, classes = class_keys()
        self._class_of = dict(zip(keys.tolist(), classes.tolist(), strict=True))
        self._reps = a.classes.astype(np.int64)
        self._bucket = a.class_bucket
        # each class's holds per option, then its second holds (where a draw count offers a choice)
        self._holds = a.class_holds if a.alt_holds is None else np.concatenate([a.class_holds, a.alt_holds], axis=1)

    def __call__(self, cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
        """Pre-draw bucket of a hand (sorted ascending), and for each draw option the hold it
        keeps as a bit mask over those cards (bit i keeps the i-th; ``NO_HOLD`` if illegal), then
        (when the abstraction offers them) each option's second hold.

        The hand is renamed into its class representative the way ``classes.classify`` does (suits
        by rank mask, largest first; ties keep suit order): a few microseconds in plain Python.
        """
        masks = [0, 0, 0, 0]
        for c in cards:
            masks[c & 3] |= 1 << (c >> 2)
        order = sorted(range(4), key=lambda k: -masks[k])
        cls = self._class_of[(masks[order[0]] << 39) | (masks[order[1]] << 26) | (masks[order[2]] << 13)
                             | masks[order[3]]]
        rename = [0, 0, 0, 0]
        for j, k in enumerate(order):
            rename[k] = j
        rep = self._reps[cls].tolist()
        place = [rep.index((c & ~3) | rename[c & 3]) for c in cards]
        holds = tuple(NO_HOLD if h < 0 else sum(1 << i for i, p in enumerate(place) if h >> p & 1)
                      for h in self._holds[cls].tolist())
        return int(self._bucket[cls]), holds


def _cumulative(probs: Floats) -> Floats:
    """Cumulative probabilities over the last axis, ending at exactly 1 (so a uniform draw below
    1 never lands on an action of probability 0)."""
    cum = np.cumsum(probs, axis=-1)
    return cum / np.where(cum[..., -1:] > 0, cum[..., -1:], 1.0)


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


def _pick(cumulative: Sequence[float], u: float) -> int:
    for k, c in enumerate(cumulative):
        if u < c:
            return k
    return len(cumulative) - 1


class EquilibriumPlayer:
    """Plays one heads-up seat by the solution's probabilities (see the module docstring).

    ``unmapped`` counts betting decisions whose history the solution's tree does not hold (short
    stacks can make such lines); the player then checks or calls.
    """

    name = "equilibrium"
    always_shows = True

    def __init__(self, tables: EquilibriumTables, rules: RuleSet, rng: np.random.Generator) -> None:
        check_table(rules)
        check_same_game(tables.rules, rules)
        self.t = tables
        self.rng = rng
        self._u: list[float] = []
        self._dealt_hand: tuple[int, ...] = ()
        self._bucket = 0
        self._holds: tuple[int, ...] = ()
        self._sorted: list[int] = []
        self.openers = jacks_or_better_floor()
        self.unmapped = 0

    def _uniform(self) -> float:
        if not self._u:   # one numpy call per 1024 decisions
            self._u = self.rng.random(1024).tolist()
        return self._u.pop()

    def _dealt(self, obs: Observation) -> None:
        """Bucket and holds of the dealt hand, once per deal (asked first before the draw)."""
        if obs.hand != self._dealt_hand:
            self._dealt_hand = obs.hand
            self._sorted = sorted(obs.hand)
            self._bucket, self._holds = self.t.hand(self._sorted)

    def __call__(self, obs: Observation) -> Action:
        phase = obs.phase
        if phase == "showdown":
            return SHOW
        if phase == "declare":
            return Action("declare") if obs.strength >= self.openers else Action("pass")
        seat = 1 if obs.seat == obs.button else 0
        other = next(s for s in obs.seats if s != obs.seat)
        before: list[str] = []
        after: list[str] = []
        now = before
        for _, kind, _ in obs.events:
            if kind == "draw":
                now = after
            elif kind in LETTERS:
                now.append(LETTERS[kind])
        t = self.t
        if obs.round == 0:     # the dealt hand, betting or drawing
            self._dealt(obs)
        if obs.round == 0 and phase == "bet":
            h, over = _canonical("".join(before), t.max_bets)
            node = t.pre.get(h)
            if node is None or node[0] != seat:
                self.unmapped += 1
                return CALL if obs.to_call > 0 else CHECK
            _, letters, cum = node
            return self._act(letters[_pick(cum[self._bucket], self._uniform())], obs, over)
        line = _canonical_line("".join(before), t.max_bets)
        if line not in t.lines:
            line = t.default_line     # betting skipped (a seat all-in from its ante)
        q, row, n = t.lines[line]
        if phase == "draw":
            if seat == 1:
                row += t.option_index[obs.draw_counts[0][other]] * n
            option = _pick(t.draw[(q, seat)][row, self._bucket].tolist(), self._uniform())
            choice = t.hold.get((q, seat, option))
            if choice is not None and _pick(choice[row, self._bucket].tolist(), self._uniform()) == 1:
                option += len(t.options)                  # the second hold for this draw count
            mask = self._holds[option]
            if mask == NO_HOLD:
                mask = 31
            discards = [c for i, c in enumerate(self._sorted) if not mask >> i & 1]
            return Action("draw", tuple(discards[:obs.max_draw]))
        counts = obs.draw_counts[0]
        d0, d1 = (counts[obs.seat], counts[other]) if seat == 0 else (counts[other], counts[obs.seat])
        n_opt = len(t.options)
        row += (t.option_index[d1] * n_opt + t.option_index[d0]) * n
        h, over = _canonical("".join(after), t.max_bets)
        post = t.post.get((q, h))
        if post is None or post[0] != seat:
            self.unmapped += 1
            return CALL if obs.to_call > 0 else CHECK
        _, acts, table = post
        return self._act(acts[_pick(table[row, t.final[obs.strength]].tolist(), self._uniform())], obs, over)

    @staticmethod
    def _act(letter: str, obs: Observation, over: bool) -> Action:
        """The engine action for a sampled letter: a raise past the model's cap, or one the
        stacks do not allow, becomes a call; a bet nobody could answer becomes a check."""
        if letter == "r" and (over or not obs.can("raise")):
            letter = "c"
        elif letter == "b" and not obs.can("bet"):
            letter = "x"
        if obs.to_call <= 0:
            return BET if letter == "b" else CHECK
        return ACTIONS[letter] if letter != "x" else CALL


@dataclass(frozen=True)
class EquilibriumFactory:
    """Seats ``EquilibriumPlayer`` from a solution in memory (for one process: a worker pool
    would be sent the whole solution with every chunk; use ``SolutionFile`` there)."""

    solution: DrawSolution

    @functools.cached_property
    def tables(self) -> EquilibriumTables:
        return EquilibriumTables(self.solution)

    def check(self, rules: RuleSet) -> None:
        check_table(rules)
        check_same_game(self.solution.rules, rules)

    def __call__(self, rules: RuleSet, rng: np.random.Generator) -> EquilibriumPlayer:
        return EquilibriumPlayer(self.tables, rules, rng)


@functools.cache
def _file_tables(path: str) -> EquilibriumTables:
    """A solution file's tables, loaded once per process."""
    return EquilibriumTables(load_solution(path))


@dataclass(frozen=True)
class SolutionFile:
    """Seats ``EquilibriumPlayer`` from a solution file (``DrawSolution.save``): small to send to
    workers, each process loads the file once."""

    path: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", str(Path(self.path).resolve()))

    def tables(self) -> EquilibriumTables:
        """The file's tables in this process (loaded on first use)."""
        return _file_tables(self.path)

    def check(self, rules: RuleSet) -> None:
        check_table(rules)
        check_same_game(_file_tables(self.path).rules, rules)

    def __call__(self, rules: RuleSet, rng: np.random.Generator) -> EquilibriumPlayer:
        return EquilibriumPlayer(_file_tables(self.path), rules, rng)


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
        from drawodds.solver.table_player import table_factories
        return table_factories(rules, solution=solution, stage=report)
    check_table(rules)
    if solution is None:
        path = equilibrium_path(rules)
        if not path.exists():
            report("building the abstraction (first run only)", 0.0)
            first: list[float] = []

            def solving(c: Checkpoint) -> None:
                first.append(c.exploitability)
                span = math.log(first[0] / DEFAULT_EXPLOITABILITY)
                done = math.log(first[0] / c.exploitability) / span if span > 0 else 1.0
                report(f"solving: {1000 * c.exploitability:,.1f} milli-antes a deal", min(max(done, 0.0), 1.0))
            equilibrium_solution(rules, progress=solving)
        solution = path
    report("loading the solution", 0.0)
    factory = SolutionFile(str(solution))
    factory.check(rules)
    return {NAME: factory}
