"""What passes between a deal and its players: actions, legal options, observations and results."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal, NamedTuple

from drawodds.engine.pots import Pot
from drawodds.errors import DrawoddsError
from drawodds.evaluate import evaluate_one as hand_strength
from drawodds.rules import RuleSet

Phase = Literal["bet", "draw", "declare", "showdown", "done"]
NO_CAP = 1 << 62  # the cap level of a round without a raise cap
Outcome = Literal["passed_out", "uncontested", "showdown", "void"]


class IllegalAction(DrawoddsError):
    """A player or caller asked for an action the rules do not allow right now."""


class Action(NamedTuple):
    """What a seat does: fold/check/call/bet/raise, draw (with its discards), show/muck, declare/pass."""

    kind: str
    discards: tuple[int, ...] = ()


FOLD, CHECK, CALL, BET, RAISE = (Action(k) for k in ("fold", "check", "call", "bet", "raise"))
SHOW, MUCK, DECLARE, PASS = (Action(k) for k in ("show", "muck", "declare", "pass"))
STAND_PAT = Action("draw", ())


def draw(*discards: int) -> Action:
    """Discard these cards (card codes from the own hand) and draw as many."""
    return Action("draw", tuple(int(c) for c in discards))


class Legal(NamedTuple):
    """One legal action now: its kind and the chips it puts in (for ``draw``: the most cards)."""

    kind: str
    amount: int = 0


class Observation(NamedTuple):
    """All a seat may know when it must act: own cards, public actions and chip counts.

    Built fresh for every decision from public facts and the seat's own cards only.
    """

    seat: int
    phase: Phase
    hand: tuple[int, ...]            # own five cards now
    legal: tuple[Legal, ...]
    button: int
    seats: tuple[int, ...]           # seats dealt in, clockwise from the dealer's left
    stacks: tuple[int, ...]          # chips behind, every seat
    contributed: tuple[int, ...]     # chips put in this deal, every seat
    folded: tuple[bool, ...]
    pot: int                         # chips in the middle, including any carried pot
    to_call: int
    bet_size: int                    # the fixed step of this betting round
    raises: int                      # bets and raises made so far this round (the bet counts)
    round: int                       # 0 before the first draw, d after draw d
    opener: int | None
    draw_counts: tuple[tuple[int, ...], ...]  # per draw so far: cards drawn by each seat (-1: none)
    events: tuple[tuple[int, str, int], ...]  # public actions: (seat, kind, chips or cards drawn)
    shown: tuple[tuple[int, tuple[int, ...]], ...]  # hands shown so far at showdown
    max_draw: int                    # most cards this seat may draw now (4-ace: if it keeps an ace)
    deal_id: int
    rules: RuleSet

    @property
    def strength(self) -> int:
        """The evaluator strength of the own hand (larger is better)."""
        return hand_strength(self.hand)

    def can(self, kind: str) -> bool:
        """Whether an action of this kind is legal now."""
        for a in self.legal:
            if a.kind == kind:
                return True
        return False


_new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot path)
LEGAL_FOLD, LEGAL_CHECK, LEGAL_SHOW_MUCK = Legal("fold"), Legal("check"), (Legal("show"), Legal("muck"))
LEGAL_DRAW = tuple((Legal("draw", k),) for k in range(6))
LEGAL_CHECK_ONLY = (LEGAL_CHECK,)

Player = Callable[[Observation], Action]   # a betting player: what one seat does


@functools.lru_cache(maxsize=4096)
def _betting_options(to_call: int, amount: int, kind: str) -> tuple[Legal, ...]:
    """Fold and call ``to_call`` (check if 0), then ``kind`` (bet or raise) for ``amount`` if given.

    Shared between decisions (they are immutable): a cache hit costs less than building them.
    """
    first = (LEGAL_FOLD, Legal("call", to_call)) if to_call > 0 else (LEGAL_CHECK,)
    return first + (Legal(kind, amount),) if kind else first


class DealResult(NamedTuple):
    """How one deal ended: chips won and lost per seat, and what stays on the table."""

    outcome: Outcome
    net: tuple[int, ...]             # chips after minus before, per seat
    stacks: tuple[int, ...]          # chips after the deal
    pot: int                         # chips in the middle when the deal ended (incl. carried)
    carried_in: int
    carried_out: int                 # chips left on the table for the next deal
    opener: int | None
    dead_opener: bool                # the opener could not prove openers (Jacks or Better)
    winners: tuple[int, ...]
    pots: tuple[Pot, ...] = ()       # main pot first; eligible: the seats that reached it, not folded
    awards: tuple[tuple[int, ...], ...] = ()  # who took each pot; () = it stays on the table
