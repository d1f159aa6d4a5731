"""What a seat of the rules engine does with a solution, heads-up or at a table: its hand's
pre-draw bucket and holds, a choice sampled from cumulative probabilities, and the engine action
for a sampled letter. Shared by ``player.EquilibriumPlayer`` and ``table_player.TablePlayer``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from drawodds.engine.deal import BET, CALL, CHECK, FOLD, RAISE, SHOW, Action, Observation
from drawodds.errors import RequestError
from drawodds.evaluate import jacks_or_better_floor
from drawodds.rules import RuleSet
from drawodds.solver.abstraction import Abstraction
from drawodds.solver.classes import class_keys
from drawodds.solver.settings import GAME_OPTIONS

LETTERS = {"check": "x", "bet": "b", "raise": "r", "call": "c", "fold": "f"}
ACTIONS = {"x": CHECK, "b": BET, "r": RAISE, "c": CALL, "f": FOLD}
NO_HOLD = 255                 # a draw count the hand may not make

Floats = npt.NDArray[np.float64]


def check_same_game(solved: RuleSet, rules: RuleSet) -> None:
    """Refuse rules whose game differs from the one the solution was solved for (the table size,
    stacks and session length may differ)."""
    differ = [k for k in GAME_OPTIONS if getattr(rules, k) != getattr(solved, k)]
    if differ:
        raise RequestError("the solution was solved for other rules ({choices} differ)", choices=', '.join(differ))


class HandLookup:
    """A hand's pre-draw bucket and its holds under an abstraction, one hand at a time."""

    def __init__(self, a: Abstraction) -> None:
        # Deal classes by the key of their suit masks (largest first), with their bucket and holds.
        keys, classes = class_keys()
        self._class_of = dict(zip(keys.tolist(), classes.tolist(), strict=True))
        self._reps = a.classes.astype(np.int64)
        self._bucket = a.class_bucket
        # each class's holds per option, then its second holds (where a draw count offers a choice)
        self._holds = a.all_holds

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


def cumulative(probs: Floats) -> Floats:
    """Cumulative probabilities over the last axis, ending at exactly 1 (so a uniform draw below
    1 never lands on an action of probability 0)."""
    cum = np.cumsum(probs, axis=-1)
    return cum / np.where(cum[..., -1:] > 0, cum[..., -1:], 1.0)


def pick(cumulative: Sequence[float], u: float) -> int:
    """The choice a uniform draw ``u`` lands on: the first whose cumulative probability passes it."""
    for k, c in enumerate(cumulative):
        if u < c:
            return k
    return len(cumulative) - 1


def engine_action(letter: str, obs: Observation, over: bool) -> Action:
    """The engine action for a sampled letter: a raise past the model's cap, or one the
    stacks do not allow, becomes a call; a bet nobody could answer becomes a check."""
    if letter == "r" and (over or not obs.can("raise")):
        letter = "c"
    elif letter == "b" and not obs.can("bet"):
        letter = "x"
    if obs.to_call <= 0:
        return BET if letter == "b" else CHECK
    return ACTIONS[letter] if letter != "x" else CALL


class SeatPlayer:
    """What a solution's player at the engine's table does whatever the table size: it shows down,
    declares openers it holds, looks up its dealt hand once per deal, reads the betting before and
    after the draw from the public events, and draws a random number per choice from its own
    generator. ``decide(obs, before, after)`` is the rest (the two players' own mapping onto
    their solution's tree). ``unmapped`` counts decisions the tree does not hold."""

    name = "equilibrium"
    always_shows = True

    def __init__(self, hand: HandLookup, rng: np.random.Generator) -> None:
        self._lookup = hand
        self.rng = rng
        self._u: list[float] = []
        self._dealt_hand: tuple[int, ...] = ()
        self._bucket = 0
        self._holds: tuple[int, ...] = ()
        self._sorted: list[int] = []
        self.openers = jacks_or_better_floor()
        self.unmapped = 0

    def use_numbers(self, uniforms: Sequence[float]) -> None:
        """Take the next decisions' random numbers from ``uniforms`` (then from the generator again):
        lines of play compared on one deal then decide alike until they part."""
        self._u = list(reversed(uniforms))

    def _uniform(self) -> float:
        if not self._u:   # one numpy call per 1024 decisions
            self._u = self.rng.random(1024).tolist()
        return self._u.pop()

    def __call__(self, obs: Observation) -> Action:
        if obs.phase == "showdown":
            return SHOW
        if obs.phase == "declare":
            return Action("declare") if obs.strength >= self.openers else Action("pass")
        if obs.round == 0 and obs.hand != self._dealt_hand:     # the dealt hand, once per deal
            self._dealt_hand, self._sorted = obs.hand, sorted(obs.hand)
            self._bucket, self._holds = self._lookup(self._sorted)
        before: list[str] = []
        after: list[str] = []
        now = before
        for _seat, kind, _amount in obs.events:
            if kind == "draw":
                now = after
            elif kind in LETTERS:
                now.append(LETTERS[kind])
        return self.decide(obs, before, after)

    def decide(self, obs: Observation, before: list[str], after: list[str]) -> Action:
        raise NotImplementedError

    def _discard(self, option: int, obs: Observation) -> Action:
        """Draw by the hold of the dealt hand for ``option`` (all five where the hand may not)."""
        mask = self._holds[option]
        if mask == NO_HOLD:
            mask = 31
        discards = [c for i, c in enumerate(self._sorted) if not mask >> i & 1]
        return Action("draw", tuple(discards[:obs.max_draw]))

    def _unmapped(self, obs: Observation) -> Action:
        """A decision off the solution's tree: check or call."""
        self.unmapped += 1
        return engine_action("c" if obs.to_call > 0 else "x", obs, False)


# --- seating a solution's players ------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerKind:
    """What seats one kind of solved player: how its solution file is read, the tables its player
    reads, the player, and the check of the table's size."""

    load: Callable[[str], Any]
    arrange: Callable[[Any], Any]                                  # a solution -> its tables
    player: Callable[[Any, RuleSet, np.random.Generator], Any]     # (tables, rules, rng) -> a player
    check_seats: Callable[[RuleSet], None]


@functools.cache
def _file_tables(kind: PlayerKind, path: str) -> Any:
    """A solution file's tables, loaded once per process."""
    return kind.arrange(kind.load(path))


@dataclass(frozen=True)
class SeatsFromMemory:
    """Seats a solution's player from a solution in memory (for one process: a worker pool would
    be sent the whole solution with every chunk; seat it from a file there)."""

    solution: Any
    kind: ClassVar[PlayerKind]

    @functools.cached_property
    def tables(self) -> Any:
        return self.kind.arrange(self.solution)

    def check(self, rules: RuleSet) -> None:
        self.kind.check_seats(rules)
        check_same_game(self.solution.rules, rules)

    def __call__(self, rules: RuleSet, rng: np.random.Generator) -> Any:
        return self.kind.player(self.tables, rules, rng)


@dataclass(frozen=True)
class SeatsFromFile:
    """Seats a solution's player from a solution file: small to send to workers, each process
    loads the file once."""

    path: str
    kind: ClassVar[PlayerKind]

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", str(Path(self.path).resolve()))

    def tables(self) -> Any:
        """The file's tables in this process (loaded on first use)."""
        return _file_tables(self.kind, self.path)

    def check(self, rules: RuleSet) -> None:
        self.kind.check_seats(rules)
        check_same_game(self.tables().rules, rules)

    def __call__(self, rules: RuleSet, rng: np.random.Generator) -> Any:
        return self.kind.player(self.tables(), rules, rng)
