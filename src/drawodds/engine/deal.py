"""One deal of five-card draw as an explicit state machine over a RuleSet.

The state says whose turn it is (``actor``), in which phase (``bet``, ``draw``, ``declare``,
``showdown``, ``done``), and which actions are legal with what they cost (``legal()``). Drive it
step by step with ``apply(action)`` or run it to the end with ``play(state, players)``.

A betting player sees only an ``Observation``: its own cards, the public actions (bets, draw counts,
split-openers announcements, hands shown at showdown), stacks and pots. Never another player's
cards, never any discards.

Inside a deal everything is plain ints and lists: a deal costs tens of microseconds, so long
simulations are limited by the players' decisions, not the bookkeeping.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from drawodds.cards import JOKER
from drawodds.engine.pots import Pot, claimants, side_pots, split_pot, uncalled_excess
from drawodds.errors import DrawoddsError, RequestError
from drawodds.evaluate import evaluate_one as hand_strength
from drawodds.evaluate import jacks_or_better_floor as openers_floor
from drawodds.holds import openers_aside
from drawodds.rules import FIRST_ACE, RuleSet, is_whole

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


_NO_CARDS: frozenset[int] = frozenset()
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


_LIMITS: dict[int, tuple[RuleSet, int, int, int]] = {}

class Seating(NamedTuple):
    """Who is dealt in and who sits after whom, for one deal (shared between deals: never mutated)."""

    order: tuple[int, ...]                 # seats dealt in, clockwise from the dealer's left
    pos: dict[int, int]                    # a seat's index in ``order``
    after: dict[int, tuple[int, ...]]      # the seats dealt in clockwise after a seat, it last


_SEATING: dict[tuple[int, int], Seating] = {}


def _seating(stacks: Sequence[int], button: int) -> Seating:
    """The seating of a deal; cached per (table size, button) when every seat has chips."""
    n = len(stacks)
    full = n > 0 and min(stacks) > 0
    if full:
        hit = _SEATING.get((n, button))
        if hit is not None:
            return hit
    order = tuple(s for s in (*range(button + 1, n), *range(button + 1)) if stacks[s] > 0)
    seating = Seating(order, {s: k for k, s in enumerate(order)},
                      {s: order[k + 1:] + order[:k + 1] for k, s in enumerate(order)})
    if full:
        _SEATING[(n, button)] = seating
    return seating


def _draw_limits(rules: RuleSet) -> tuple[int, int, int]:
    """(limit without an ace kept, limit with one, first card code above the draw aces), cached
    per rule-set object, which is validated on its first deal (a ``RuleSet`` built directly
    never was); ``RuleSet.draw_aces`` decides which cards count as the ace."""
    hit = _LIMITS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if not isinstance(rules, RuleSet):
            raise RequestError(f"rules must be a RuleSet (see drawodds.preset), got {type(rules).__name__}")
        rules.validate()
        top = next(c for c in range(FIRST_ACE, JOKER + 2) if not rules.draw_aces(c))
        hit = _LIMITS[id(rules)] = (rules, rules.draw_limit(False), rules.draw_limit(True), top)
    return hit[1], hit[2], hit[3]


_CARDS = {size: frozenset(range(size)) for size in (52, 53)}  # the card codes of each deck


def _checked_setup(rules: RuleSet, stacks: Sequence[int], button: int, deck: Sequence[int],
                   carried: int) -> tuple[list[int], list[int]]:
    """The stacks and the deck as plain int lists, or RequestError naming the first bad input:
    stacks that are not chips or more seats than ``rules.players``, a button that is no seat, a
    negative carried pot, a deck with a card twice or a card this rule set does not play with."""
    try:
        stack_list = [c if type(c) is int else _chips(c) for c in stacks]
    except (TypeError, ValueError):
        raise RequestError(f"stacks must be whole numbers of chips, none negative, got {stacks!r}") from None
    n = len(stack_list)
    if n > rules.players:
        raise RequestError(f"there are {n} stacks but the rules seat at most {rules.players} players "
                           f"(set players={n})")
    if min(stack_list, default=0) < 0:
        raise RequestError(f"stacks must be whole numbers of chips, none negative, got {stack_list}")
    if not is_whole(button) or not 0 <= button < n:
        raise RequestError(f"button must be a seat from 0 to {n - 1}, got {button!r}")
    if not is_whole(carried) or carried < 0:
        raise RequestError(f"carried must be a whole number of chips, at least 0, got {carried!r}")
    cards = deck if type(deck) is list else list(deck)
    if set(map(type, cards)) != {int}:  # numpy integers: plain ints inside a deal
        try:
            cards = [c if type(c) is int else _chips(c) for c in cards]
        except (TypeError, ValueError):
            raise RequestError(f"the deck must be card codes (whole numbers), got {deck!r}") from None
    distinct = set(cards)
    if len(distinct) != len(cards):
        raise RequestError("the deck holds a card twice: every card may appear once")
    size = rules.deck_size
    if not distinct <= _CARDS[size]:
        bad = next(c for c in cards if not 0 <= c < size)
        if bad == JOKER and not rules.joker:
            raise RequestError("the deck holds the joker, but these rules play without it (joker=False)")
        raise RequestError(f"the deck holds card {bad}; this rule set's cards are 0 to {size - 1}")
    return stack_list, cards


def _chips(value: object) -> int:
    """A whole number as a plain int; TypeError for anything else (4.5, "4", True)."""
    if not is_whole(value):
        raise TypeError(value)
    return int(value)  # type: ignore[call-overload]


class DealState:
    """The state of one deal. ``actor`` is the seat to act (None when ``phase == 'done'``)."""

    __slots__ = ('_ace_top', '_initial', '_limit_ace', '_limit_plain', '_seven_rule', 'actions',
                 'actor', 'after', 'anchor', 'antes', 'aside', 'bet_size', 'bets', 'button',
                 'calls_round0', 'cap_level', 'capped_multiway', 'carried_in', 'checked_round0',
                 'committed', 'contributed', 'dead_floor', 'dead_opener', 'dead_seat', 'deal_id', 'deck',
                 'declare_queue', 'draw_counts', 'draw_number', 'draw_queue', 'events', 'folded',
                 'folded_any', 'hands', 'last_aggressor', 'level', 'live', 'muck_order', 'mucked',
                 'n', 'need', 'opener', 'opener_genuine', 'opener_proves', 'opening_bet', 'order',
                 'outcome', 'own_discards', 'phase', 'pile', 'pos', 'private', 'rebuilt', 'reopen',
                 'reshuffle', 'result', 'round', 'rules', 'seen', 'show_queue', 'shown', 'stacks',
                 'start_stacks', 'strength', 'stub', 'stub_pos', 'unmucked')

    def __init__(self, rules: RuleSet, stacks: Sequence[int], button: int, deck: Sequence[int], *,
                 carried: int = 0, antes: bool = True, deal_id: int = 0,
                 reshuffle: Callable[[list[int]], list[int]] | None = None) -> None:
        self._limit_plain, self._limit_ace, self._ace_top = _draw_limits(rules)  # validates rules
        stacks, deck = _checked_setup(rules, stacks, button, deck, carried)
        n = len(stacks)
        self.rules = rules
        self.n = n
        self.deal_id = deal_id
        self.button = button
        self.start_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.carried_in = carried
        self.reshuffle = reshuffle
        self.deck = deck
        self.antes = antes
        self.actions: list[tuple[int, str, tuple[int, ...]]] = []  # every action applied, for replays
        self.order, self.pos, self.after = _seating(stacks, button)  # order: a tuple
        order = self.order
        m = len(order)
        self._seven_rule = rules.seven_player_limit and m >= 7
        if m < 2:
            raise RequestError(f"a deal needs at least two players with chips, got {m}")
        if stacks[button] <= 0:
            raise RequestError(f"the dealer (seat {button}) has no chips and cannot deal")
        self.contributed = [0] * n
        # A tuple, replaced when someone folds (rare): observations share it instead of copying.
        self.folded = (False,) * n if m == n else tuple(c <= 0 for c in stacks)
        self.mucked = [False] * n
        self.muck_order: list[int] = []     # seats that mucked at the showdown, in order
        self.live = m
        self.events: list[tuple[int, str, int]] = []          # public
        self.draw_counts: list[list[int]] = []
        self.shown: list[tuple[int, tuple[int, ...]]] = []
        self.opener: int | None = None
        self.opener_genuine = True
        self.opener_proves = False  # a Jacks-or-Better opener with openers: splits are kept aside
        self.opening_bet = 0        # chips the first opening bet of round 1 put in
        self.aside: dict[int, list[int]] = {}     # split openers kept aside, by seat
        self.folded_any = False
        self.checked_round0 = [False] * n
        self.calls_round0 = 0
        self.result: DealResult | None = None
        self.outcome: Outcome | None = None
        self.dead_opener = False
        self.dead_seat: int | None = None  # the opener who could not prove openers
        self.dead_floor = 0  # an exposed false opener's ante and opening bet: they stay in the pot
        # Forced bets.
        if antes and rules.ante and not rules.blinds:  # blinds replace the ante
            ante, my_stacks, contributed, events = rules.ante, self.stacks, self.contributed, self.events
            for s in order:
                chips = ante if ante < my_stacks[s] else my_stacks[s]
                my_stacks[s] -= chips
                contributed[s] += chips
                events.append((s, "ante", chips))
        # The deal: one card at a time clockwise from the dealer's left.
        need = 5 * m
        if len(deck) < need:
            raise RequestError(f"the deck has {len(deck)} cards, {need} are needed")
        self.hands: list[tuple[int, ...]] = [()] * n  # a tuple per seat, replaced at each draw
        hands = self.hands
        # (seat, kind, cards, more cards): what only that seat saw (deal, draw, reshuffle, show)
        self.private: list[tuple[int, str, tuple[int, ...], tuple[int, ...]]] = []
        private = self.private
        for k, s in enumerate(order):
            hand = hands[s] = tuple(deck[k:need:m])
            private.append((s, "deal", hand, ()))
        self.stub = deck[need:]
        self.stub_pos = 0
        self.pile: list[int] = []                 # discards available to rebuild the stub
        self.own_discards: list[frozenset[int]] = [_NO_CARDS] * n
        self.rebuilt = False
        self.strength = [0] * n            # final strengths, filled at the showdown
        self._initial: list[int | None] = [None] * n
        self.round = 0
        self.phase: Phase = "bet"
        self.actor: int | None = None
        self._start_betting(0)

    # ----- chips ---------------------------------------------------------------------------

    def _mark_folded(self, seat: int) -> None:
        self.folded = (*self.folded[:seat], True, *self.folded[seat + 1:])

    def _put(self, seat: int, chips: int, kind: str) -> None:
        self.stacks[seat] -= chips
        self.contributed[seat] += chips
        self.committed[seat] += chips
        self.events.append((seat, kind, chips))

    @property
    def pot(self) -> int:
        """Chips in the middle, including a pot carried from earlier deals."""
        return sum(self.contributed) + self.carried_in

    # ----- betting -------------------------------------------------------------------------

    def _start_betting(self, rnd: int) -> None:
        rules, n, order = self.rules, self.n, self.order
        folded, stacks = self.folded, self.stacks
        self.round = rnd
        self.committed = committed = [0] * n
        self.bet_size = rules.small_bet if rnd == 0 else rules.big_bet
        self.level = self.bets = self.reopen = self.anchor = 0
        self.seen = [-1] * n
        self.capped_multiway = False
        self.last_aggressor = None
        level = 0
        blinds = rules.blinds
        cap = rules.max_raises
        # The cap as a level: the round's bet plus max_raises steps (Robert's Rules: 10-50, 20-100).
        self.cap_level = NO_CAP if cap is None else (1 + cap) * self.bet_size
        if rnd == 0 and blinds:
            contributed, events = self.contributed, self.events
            for s, blind in zip(order, blinds, strict=False):  # the first seats from the dealer's left post
                chips = blind if blind < stacks[s] else stacks[s]
                stacks[s] -= chips
                contributed[s] += chips
                committed[s] += chips
                events.append((s, "blind", chips))
            posted = min(len(blinds), len(order))
            level = max(committed)
            if rules.short_blind == "full" and level < blinds[posted - 1]:
                level = blinds[posted - 1]  # a blind all-in for less: the full blind is still the bet
            self.level = self.anchor = level
            self.bets = 1  # the biggest blind is the round's bet
            if cap is not None:
                self.cap_level = level + cap * self.bet_size
                self.capped_multiway = cap == 0 and self.live > 2  # the blind is the whole cap
            self.last_aggressor = order[posted - 1]
            if rules.blind_opener == "big_blind":
                self.opener = self.last_aggressor
            first = order[posted % len(order)]
        elif rnd > 0 and rules.first_after_draw == "opener" and self.opener is not None:
            first = self.opener
        else:
            first = order[0]
        if self.live == n and min(stacks) > 0:  # the usual case: everyone dealt in, in, with chips
            self.need = need = [True] * n
        else:
            self.need = need = [False] * n
            chips = pending = 0
            for s in order:
                if not folded[s] and stacks[s] > 0:
                    need[s] = True
                    chips += 1
                    if committed[s] < level:
                        pending = 1
            if chips < 2 and not pending:  # betting is over: at most one player has chips
                self.need = [False] * n
                self._end_betting(skipped=True)
                return
        self.phase = "bet"
        self.actor = first if need[first] else self._next_needing(first)
        if self.actor is None:
            self._end_betting()

    def _next_needing(self, seat: int) -> int | None:
        """The next seat after ``seat`` (clockwise, ``seat`` itself last) that still has to act."""
        need = self.need
        for s in self.after[seat]:
            if need[s]:
                return s
        return None

    def _pos(self, seat: int) -> int:
        """Position of a dealt-in seat in clockwise order from the dealer's left."""
        return self.pos[seat]

    def _may_raise(self, seat: int) -> bool:
        """Chips enough, not capped, betting reopened for this seat, and someone left to answer."""
        stacks = self.stacks
        if stacks[seat] <= self.level - self.committed[seat] or self.seen[seat] >= self.reopen:
            return False
        cap = self.rules.max_raises
        if cap is not None and (self.bets >= 1 + cap or self.level >= self.cap_level) and (
                self.live > 2 or self.capped_multiway or self.rules.cap_heads_up):
            return False
        folded = self.folded
        for s in self.after[seat]:
            if stacks[s] > 0 and not folded[s] and s != seat:
                return True
        return False

    def _bet_legal(self, seat: int) -> tuple[Legal, ...]:
        to_call = self.level - self.committed[seat]
        stack = self.stacks[seat]
        if not self._may_raise(seat):
            if to_call > 0:
                return _betting_options(to_call if to_call < stack else stack, 0, "")
            return LEGAL_CHECK_ONLY
        wanted = self.anchor + self.bet_size  # _raise_to, inlined: asked at every decision
        if wanted > self.cap_level and (self.live > 2 or self.capped_multiway or self.rules.cap_heads_up):
            wanted = self.cap_level
        amount = wanted - self.committed[seat]
        if amount > stack:
            amount = stack
        if to_call > 0:
            return _betting_options(to_call, amount, "raise")
        if self.level:
            return _betting_options(0, amount, "raise")
        if self._may_open(seat):
            if self.rules.open_with_raise and self._may_open_with_raise(seat):
                opening_raise = min(self._raise_to(2 * self.bet_size), stack)
                return _betting_options(0, amount, "bet") + (Legal("raise", opening_raise),)
            return _betting_options(0, amount, "bet")
        return LEGAL_CHECK_ONLY

    def _raise_to(self, wanted: int) -> int:
        """The level ``wanted``, or the cap's level when the cap applies and ``wanted`` would pass it."""
        cap_level = self.cap_level
        if wanted > cap_level and (
                self.live > 2 or self.capped_multiway or self.rules.cap_heads_up):
            return cap_level
        return wanted

    def _may_open_with_raise(self, seat: int) -> bool:
        """Round 1, nothing bet yet, the open_with_raise option, and chips for more than a bet."""
        return (self.rules.open_with_raise and self.round == 0 and self.level == 0
                and self.stacks[seat] > self.bet_size)

    def _may_open(self, seat: int) -> bool:
        rules = self.rules
        if self.round != 0 or rules.opener != "jacks" or rules.false_openers:
            return True
        return self.initial_strength(seat) >= openers_floor()

    def _apply_bet(self, seat: int, kind: str) -> None:
        to_call = self.level - self.committed[seat]
        if kind == "call":
            if to_call <= 0:
                raise IllegalAction(f"seat {seat} has nothing to call")
            if self.round == 0:
                self.calls_round0 += 1
                if self.opener is None:  # blinds, blind_opener="first_in": the first to come in
                    self.opener = seat
            chips = self.stacks[seat]
            if to_call < chips:
                chips = to_call
            self.stacks[seat] -= chips
            self.contributed[seat] += chips
            self.committed[seat] += chips
            self.events.append((seat, "call", chips))
        elif kind == "check":
            if to_call > 0:
                raise IllegalAction(f"seat {seat} cannot check facing a bet of {to_call}")
            if self.round == 0:
                self.checked_round0[seat] = True
            self.events.append((seat, "check", 0))
        elif kind == "fold":
            if to_call <= 0:
                raise IllegalAction(f"seat {seat} cannot fold with nothing to call (check instead)")
            self._mark_folded(seat)
            self.folded_any = True
            self.live -= 1
            self.need[seat] = False
            self.events.append((seat, "fold", 0))
            if self.live == 1:
                self._finish_uncontested()
                return
        elif kind in ("bet", "raise"):
            step = self.bet_size
            if self.level == 0 and kind == "raise" and self.rules.open_with_raise:  # two steps at once
                if not (self._may_raise(seat) and self._may_open(seat) and self._may_open_with_raise(seat)):
                    raise IllegalAction(f"seat {seat} may not open with a raise")
                new_level = self._raise_to(2 * step)
            elif (kind == "bet") != (self.level == 0) or not self._may_raise(seat) or \
                    (kind == "bet" and not self._may_open(seat)):
                raise IllegalAction(f"seat {seat} may not {kind} now")
            else:
                new_level = self._raise_to(self.anchor + step)
            pay = new_level - self.committed[seat]
            if pay > self.stacks[seat]:
                pay = self.stacks[seat]
            new_level = self.committed[seat] + pay
            # Full steps over the last full bet; an all-in of at least half a step counts as one.
            full, part = divmod(new_level - self.anchor, step)
            steps = full + (2 * part >= step)
            if steps:  # a full bet or raise (or half a step or more all-in) reopens the betting
                self.bets += steps
                self.reopen += 1
                cap = self.rules.max_raises
                if cap is not None and self.live > 2 and (self.bets >= 1 + cap or new_level >= self.cap_level):
                    self.capped_multiway = True
            if steps or not self.rules.complete_short_bet:
                self.anchor = new_level
            self.level = new_level
            self.last_aggressor = seat
            if self.round == 0 and self.opener is None:
                self._set_opener(seat)
                self.opening_bet = pay
            self._put(seat, pay, kind)
            for s in self.order:
                if s != seat and not self.folded[s] and self.stacks[s] > 0:
                    self.need[s] = True
        else:
            raise IllegalAction(f"unknown betting action {kind!r}")
        need = self.need
        need[seat] = False
        self.seen[seat] = self.reopen
        for nxt in self.after[seat]:
            if need[nxt]:
                self.actor = nxt
                return
        self._end_betting()

    def _set_opener(self, seat: int) -> None:
        self.opener = seat
        if self.rules.opener == "jacks":
            self.opener_genuine = self.initial_strength(seat) >= openers_floor()
            self.opener_proves = self.opener_genuine

    def _return_uncalled(self, ending: bool = False) -> None:
        """Give back the part of the biggest contribution nobody matched.

        A false opener found before the draw (exposed, or left alone in round 1 and unable to
        prove openers when the deal ends) gets back nothing of the opening bet: it stays in the pot.
        """
        seat, excess = uncalled_excess(self.contributed)
        if excess and seat == self.dead_seat:  # exposed: its ante and opening bet stay
            excess = max(0, min(excess, self.contributed[seat] - self.dead_floor))
        elif excess and ending and self.round == 0 and seat == self.opener and not self.opener_genuine:
            excess = max(0, min(excess, self.committed[seat] - self.opening_bet))
        if excess:
            self.stacks[seat] += excess
            self.contributed[seat] -= excess
            self.committed[seat] -= excess
            self.events.append((seat, "return", excess))

    def _end_betting(self, skipped: bool = False) -> None:
        self._return_uncalled()
        if self.round == 0 and self.level == 0 and not skipped and self.rules.all_check_redeal:
            self._finish_passed_out()
            return
        if self.round < self.rules.draws:
            self._start_draw(self.round + 1)
        else:
            self._start_showdown()

    # ----- the draw ------------------------------------------------------------------------

    def _start_draw(self, number: int) -> None:
        self.phase = "draw"
        self.draw_number = number
        self.draw_counts.append([-1] * self.n)
        order = self.order
        # live counts the dealt-in seats not folded: all of them unless someone folded
        self.draw_queue = list(order) if self.live == len(order) else [s for s in order if not self.folded[s]]
        self.actor = self.draw_queue.pop(0)

    def draw_limit(self, seat: int) -> int:
        """Most cards ``seat`` may draw now: the rule set's limit, 4-ace and the 7-player rule."""
        limit = self._limit_plain
        if limit != self._limit_ace:
            top = self._ace_top
            for c in self.hands[seat]:
                if FIRST_ACE <= c < top:  # an ace (or the joker, if the rules count it as one)
                    limit = self._limit_ace
                    break
        if self._seven_rule and not self.folded_any:
            limit = min(limit, 2)
        return limit

    def _apply_draw(self, seat: int, discards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        k = len(discards)
        kept = [c for c in hand if c not in discards]
        # The hand's cards are distinct, so k cards leave it only if they are distinct and its own.
        if len(kept) != len(hand) - k or not all(type(c) is int for c in discards):
            raise IllegalAction(f"seat {seat} can only discard distinct cards of its own hand")
        limit = self.draw_limit(seat)
        if k == 4 and self._limit_ace != self._limit_plain and not FIRST_ACE <= kept[0] < self._ace_top:
            limit = min(limit, self._limit_plain)  # four cards only while keeping the ace
        if k > limit:
            raise IllegalAction(f"seat {seat} may draw at most {limit} cards, asked for {k}")
        if k:
            if self.opener == seat and self.opener_proves:
                split = self._openers_to_set_aside(seat, kept, discards)
                if split:
                    self.aside.setdefault(seat, []).extend(split)
                    self.events.append((seat, "split", len(split)))
            start, stub = self.stub_pos, self.stub
            if not self.rebuilt and start + k <= len(stub):
                drawn = tuple(stub[start:start + k])
                self.stub_pos = start + k
            else:
                drawn = tuple(self._take(seat, k))
            self.own_discards[seat] = self.own_discards[seat].union(discards)
            aside = self.aside.get(seat)
            self.pile.extend([c for c in discards if c not in aside] if aside else discards)
            self.hands[seat] = (*kept, *drawn)
        else:
            drawn = ()
        self.draw_counts[-1][seat] = k
        self.events.append((seat, "draw", k))
        self.private.append((seat, "draw", tuple(discards), drawn))
        if self.draw_queue:
            self.actor = self.draw_queue.pop(0)
            return
        self._start_betting(self.draw_number)

    def _openers_to_set_aside(self, seat: int, kept: list[int], discards: tuple[int, ...]) -> tuple[int, ...]:
        """The opener's discards to keep aside so that, with the dealt cards it still holds and
        those set aside at an earlier draw, they prove the opening (whichever draw breaks it)."""
        if self.draw_number == 1:
            return openers_aside(kept, discards)
        dealt = next(cards for s, kind, cards, _ in self.private if s == seat and kind == "deal")
        proof = [c for c in kept if c in dealt] + self.aside.get(seat, [])
        return openers_aside(proof, [c for c in discards if c in dealt])

    def _take(self, seat: int, k: int) -> list[int]:
        """k cards from the stub; when it runs out, earlier discards (never this seat's) are reshuffled in."""
        mine = self.own_discards[seat]
        rest = self.stub[self.stub_pos:]
        if sum(1 for c in rest if c not in mine) < k:
            fresh = [c for c in self.pile if c not in mine]
            if self.reshuffle is None:
                raise RequestError("the stub ran out and no reshuffle was given")
            fresh = self.reshuffle(fresh)
            self.private.append((seat, "reshuffle", tuple(fresh), ()))
            self.events.append((seat, "reshuffle", len(fresh)))
            self.pile = [c for c in self.pile if c in mine]
            rest = rest + fresh
            self.rebuilt = True
        got = [c for c in rest if c not in mine][:k]
        if len(got) < k:
            raise RequestError("not enough cards left to draw (more players than the deck serves)")
        taken = set(got)
        self.stub = [c for c in rest if c not in taken]
        self.stub_pos = 0
        return got

    # ----- showdown and the end ------------------------------------------------------------

    def _lead_seat(self, start: int | None) -> int:
        """``start`` if it is live, else the next live seat clockwise; the dealer's left if None."""
        if start is None:
            start = self.order[0]
        folded = self.folded
        if not folded[start]:
            return start
        for s in self.after[start]:
            if not folded[s]:
                return s
        raise AssertionError("no live seat")

    def initial_strength(self, seat: int) -> int:
        """Strength of the hand ``seat`` was dealt (what openers are judged on)."""
        value = self._initial[seat]
        if value is None:
            first = next(cards for s, kind, cards, _ in self.private if s == seat and kind == "deal")
            value = self._initial[seat] = hand_strength(first)
        return value

    def _start_showdown(self) -> None:
        self.phase = "showdown"
        folded, hands, strength = self.folded, self.hands, self.strength
        order = self.order
        live = list(order) if self.live == len(order) else [s for s in order if not folded[s]]
        for s in live:
            strength[s] = hand_strength(hands[s])
        first = self.last_aggressor  # the last bettor of the final round shows first
        if not self.level or first is None or folded[first]:
            first = self._lead_seat(self.opener)
        i = live.index(first)
        self.show_queue = live[i + 1:] + live[:i]
        self.unmucked = len(live)
        self.actor = first

    def _apply_show(self, seat: int, kind: str) -> None:
        if kind == "show":
            self.shown.append((seat, self.hands[seat]))
            self.events.append((seat, "show", 0))
            self.private.append((seat, "show", self.hands[seat], tuple(self.aside.get(seat, ()))))
        elif kind == "muck":
            self.mucked[seat] = True
            self.muck_order.append(seat)
            self.unmucked -= 1
            self.events.append((seat, "muck", 0))
        else:
            raise IllegalAction(f"at showdown seat {seat} can show or muck, not {kind!r}")
        if self.show_queue and self.unmucked > 1:  # a last hand nobody contests is not shown
            self.actor = self.show_queue.pop(0)
            return
        self._award("showdown")

    def _award(self, outcome: Outcome) -> None:
        """Pay every pot to its best claimant(s); a pot no live hand may claim stays.

        A pot's claimants are the seats that reached it and did not fold, less those who mucked
        until one hand is left (it takes the pot unshown), less a dead opener (see ``claimants``).
        """
        if outcome != "showdown":  # a showdown follows the end of betting, which returned them
            self._return_uncalled(ending=True)
        n, folded, contributed = self.n, self.folded, self.contributed
        order = self.order
        live = list(order) if self.live == len(order) else [s for s in order if not folded[s]]
        opener = self.opener
        dead: tuple[int, ...] = ()
        if opener is not None and not self.opener_genuine and not folded[opener]:
            self.dead_opener = True
            self.dead_seat = opener
            dead = (opener,)
        top = max(contributed)
        carried_to = self._carried_to() if self.carried_in else None
        for s in live:
            if contributed[s] != top or (carried_to is not None and not carried_to[s]):
                pots = side_pots(contributed, [not f for f in folded], self.carried_in, carried_to)
                break
        else:  # the common case: no side pots
            pots = [_new_tuple(Pot, (sum(contributed) + self.carried_in, tuple(sorted(live))))]
        mucks = self.muck_order
        carried = 0
        paid = [0] * n
        awards: list[tuple[int, ...]] = []
        strength = self.strength
        contest = outcome == "showdown"
        carry_odd = self.rules.odd_chip == "carry"
        for amount, eligible in pots:
            claim = claimants(eligible, dead, mucks) if dead or mucks else eligible
            if not claim:
                carried += amount
                awards.append(())
                continue
            if contest and len(claim) > 1:
                best, won = -1, []  # the strongest hands, in seat order (a loop: no generator per pot)
                for s in claim:
                    if strength[s] > best:
                        best, won = strength[s], [s]
                    elif strength[s] == best:
                        won.append(s)
            else:
                won = list(claim)
            awards.append(tuple(won))
            if len(won) == 1:
                paid[won[0]] += amount
                continue
            shares, odd = split_pot(amount, won, self.button, n, carry_odd=carry_odd)
            carried += odd
            for s, chips in shares.items():
                paid[s] += chips
        winners = []
        for s in range(n):
            if paid[s]:
                self.stacks[s] += paid[s]
                self.events.append((s, "win", paid[s]))
                winners.append(s)
        if carried:
            self.events.append((-1, "carry", carried))
        self._finish(outcome, carried, tuple(winners), tuple(pots), tuple(awards))

    def _carried_to(self) -> list[bool] | None:
        """Which seats may win a pot carried in: None for every seat dealt in; under
        ``carried_pot="full_ante"`` only those that paid the full ante this deal (if antes were paid)."""
        if self.rules.carried_pot != "full_ante":
            return None
        ante = self.rules.ante
        paid = [False] * self.n
        for s, kind, chips in self.events:
            if kind == "ante" and chips == ante:
                paid[s] = True
        return paid if any(paid) else None

    def _finish_uncontested(self) -> None:
        self._award("uncontested")

    def _finish_passed_out(self) -> None:
        self._finish("passed_out", self.pot, (), (), ())

    def _finish(self, outcome: Outcome, carried: int, winners: tuple[int, ...],
                pots: tuple[Pot, ...], awards: tuple[tuple[int, ...], ...]) -> None:
        pot = sum(self.contributed) + self.carried_in
        self.phase = "done"
        self.actor = None
        self.outcome = outcome
        self.result = _new_tuple(DealResult, (
            outcome, tuple(map(operator.sub, self.stacks, self.start_stacks)),
            tuple(self.stacks), pot, self.carried_in, carried, self.opener, self.dead_opener,
            winners, pots, awards))

    # ----- false openers found before the draw (teaching mode) -------------------------------

    def expose_false_opener(self) -> None:
        """The opener is found, before the draw, to have opened without openers.

        The false opener's hand is dead and their chips stay in the pot. Play goes on if someone
        raised, two or more players called, or round 1 was complete; otherwise each remaining
        player holding real openers who did not pass with them may declare the pot open, in turn
        from the false opener's left. If nobody does, the deal is void: the others' bets of
        round 1 are returned and the pot (antes and the false opener's chips) stays.
        """
        opener = self.opener
        if opener is None or self.opener_genuine or self.rules.opener != "jacks":
            raise IllegalAction("there is no false opener to expose")
        if not (self.phase == "bet" and self.round == 0) and not (
                self.phase == "draw" and self.draw_number == 1 and all(c < 0 for c in self.draw_counts[0])):
            raise IllegalAction("a false opener can be exposed before the draw only; later the "
                                "showdown catches it")
        round_complete = self.phase == "draw"
        raised = any(kind == "raise" and seat != opener for seat, kind, _ in self.events)
        self.events.append((opener, "false_opener", 0))
        self.actions.append((opener, "expose", ()))
        had_folded = self.folded[opener]
        if not had_folded:
            self._mark_folded(opener)
            self.live -= 1
        self.folded_any = True  # a dead hand draws no cards: the seven-player limit is lifted
        self.need[opener] = False
        self.dead_opener = True
        self.dead_seat = opener
        # Its ante and opening bet stay in the pot; a false opener that had already folded leaves
        # everything it put in (folded chips stay, the Mørkpoker guide), and nothing is taken back.
        self.dead_floor = self.contributed[opener] if had_folded else (
            self.contributed[opener] - self.committed[opener] + self.opening_bet)
        if raised or self.calls_round0 >= 2 or round_complete:
            if not round_complete and not had_folded and self.rules.false_opener_takes_back:
                self._take_back(opener)
            actor = self.actor
            if self.live == 1:
                self._finish_uncontested()
            elif self.phase == "draw":
                self.draw_queue = [s for s in self.draw_queue if s != opener]
                if actor == opener:
                    self.actor = self.draw_queue.pop(0)
            elif actor is None or actor == opener or not self.need[actor]:
                nxt = self._next_needing(opener if actor is None else actor)
                if nxt is None:
                    self._end_betting()
                else:
                    self.actor = nxt
            return
        pos, m = self._pos(opener), len(self.order)
        self.declare_queue = [self.order[(pos + k) % m] for k in range(1, m)
                              if not self.folded[self.order[(pos + k) % m]]
                              and not self.checked_round0[self.order[(pos + k) % m]]
                              and self.initial_strength(self.order[(pos + k) % m]) >= openers_floor()]
        self._next_declarer()

    def _take_back(self, opener: int) -> None:
        """Round 1 goes on as if the exposed false opener had made only its opening bet.

        Its later chips go back to it, and so does whatever the others put in only to match its
        raises (each seat keeps what it would have put in without them); the seats that have not
        answered the last remaining bet or raise act again, from the seat to act now.
        """
        n, step = self.n, self.bet_size
        actual = [0] * n
        fair = [0] * n
        level = dead = dead_steps = 0
        last_valid = -1  # index in events of the last bet or raise that stands
        events = self.events
        for i, (seat, kind, chips) in enumerate(events):
            if kind not in ("bet", "raise", "call"):
                continue
            actual[seat] += chips
            if seat == opener:
                if kind != "call" and fair[opener]:  # a bet or raise after its opening bet
                    inc = actual[seat] - level
                    dead += inc
                    dead_steps += inc // step + (2 * (inc % step) >= step)
                    level = actual[seat]
                elif not fair[opener]:
                    fair[opener] = actual[seat]
                    level, last_valid = actual[seat], i
                continue
            if kind == "call":
                fair[seat] = min(actual[seat], level - dead)
            else:
                fair[seat] = actual[seat] - dead
                level, last_valid = actual[seat], i
        folded = self.folded
        for seat in self.order:
            back = self.committed[seat] - fair[seat]
            if back > 0 and (seat == opener or not folded[seat]):  # folded chips stay in the pot
                self.stacks[seat] += back
                self.contributed[seat] -= back
                self.committed[seat] -= back
                self.events.append((seat, "return", back))
        self.level = self.anchor = level - dead
        self.bets = max(1, self.bets - dead_steps)  # a cap already reached multiway stays on
        aggressor = events[last_valid][0]
        self.last_aggressor = aggressor
        answered = {seat for seat, kind, _ in events[last_valid:] if kind in ("check", "call", "bet", "raise")}
        self.reopen += 1
        folded, stacks = self.folded, self.stacks
        for seat in self.order:
            self.need[seat] = not folded[seat] and stacks[seat] > 0 and seat not in answered
            if not self.need[seat]:
                self.seen[seat] = self.reopen

    def _next_declarer(self) -> None:
        if self.declare_queue:
            self.phase = "declare"
            self.actor = self.declare_queue.pop(0)
            return
        # Nobody may or will open: the deal is void; round-1 bets of the others go back.
        for s in self.order:
            if s != self.opener and self.committed[s]:
                self.stacks[s] += self.committed[s]
                self.contributed[s] -= self.committed[s]
                self.events.append((s, "return", self.committed[s]))
                self.committed[s] = 0
        self._finish("void", self.pot, (), (), ())

    def _apply_declare(self, seat: int, kind: str) -> None:
        if kind == "pass":
            self.events.append((seat, "pass", 0))
            self._next_declarer()
            return
        if kind != "declare":
            raise IllegalAction(f"seat {seat} can declare the pot open or pass, not {kind!r}")
        self.events.append((seat, "declare", 0))
        self._set_opener(seat)
        self.phase = "bet"
        to_call = self.level - self.committed[seat]
        if to_call > 0:
            self._put(seat, min(to_call, self.stacks[seat]), "call")
        self.last_aggressor = seat
        self.reopen += 1
        for s in self.order:
            self.need[s] = s != seat and not self.folded[s] and self.stacks[s] > 0
        self.seen[seat] = self.reopen
        nxt = self._next_needing(seat)
        if nxt is None:
            self._end_betting()
        else:
            self.actor = nxt

    # ----- the public interface ------------------------------------------------------------

    def legal(self) -> tuple[Legal, ...]:
        """The legal actions of the seat to act, with the chips each puts in."""
        seat = self.actor
        if seat is None:
            return ()
        phase = self.phase
        if phase == "bet":
            return self._bet_legal(seat)
        if phase == "draw":
            return LEGAL_DRAW[self.draw_limit(seat)]
        if phase == "declare":
            return (Legal("declare", max(0, self.level - self.committed[seat])), Legal("pass"))
        return LEGAL_SHOW_MUCK

    def apply(self, action: Action | str) -> None:
        """Play one action for the seat to act; raise IllegalAction if the rules forbid it."""
        seat = self.actor
        if seat is None:
            raise IllegalAction("the deal is over")
        discards: tuple[int, ...] = ()
        if isinstance(action, str):
            kind = action
        else:
            try:
                kind, discards = action
            except (TypeError, ValueError):
                raise IllegalAction(f"an action is an Action or its kind as text, got {action!r}") from None
            if not isinstance(kind, str) or not isinstance(discards, tuple):
                raise IllegalAction(f"an action is an Action or its kind as text, got {action!r}")
        phase = self.phase
        if phase == "bet":
            self._apply_bet(seat, kind)
        elif phase == "draw":
            if kind != "draw":
                raise IllegalAction(f"seat {seat} must draw (0 cards to stand pat), not {kind!r}")
            self._apply_draw(seat, discards)
        elif phase == "declare":
            self._apply_declare(seat, kind)
        else:
            self._apply_show(seat, kind)
        self.actions.append((seat, kind, discards))

    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` (default: the seat to act) may know now."""
        if seat is None:
            seat = self.actor if self.actor is not None else self.order[0]
        phase = self.phase
        to_call = max_draw = 0
        legal: tuple[Legal, ...] = ()
        if phase == "bet":
            to_call = self.level - self.committed[seat]
            if to_call < 0:
                to_call = 0
            if seat == self.actor:
                legal = self._bet_legal(seat)
        elif phase == "draw":
            max_draw = self.draw_limit(seat)
            if seat == self.actor:
                legal = LEGAL_DRAW[max_draw]
        elif seat == self.actor:
            legal = self.legal()
        contributed, draw_counts = self.contributed, self.draw_counts
        return _new_tuple(Observation, (
            seat, phase, self.hands[seat], legal, self.button, self.order,
            tuple(self.stacks), tuple(contributed), self.folded,
            sum(contributed) + self.carried_in, to_call, self.bet_size, self.bets, self.round,
            self.opener, tuple(map(tuple, draw_counts)) if draw_counts else (), tuple(self.events),
            tuple(self.shown) if self.shown else (), max_draw, self.deal_id, self.rules))


def play(state: DealState, players: Sequence[Player]) -> DealResult:
    """Run a deal to the end: each seat's player is asked in turn with its own observation.

    A player with ``always_shows = True`` is not asked at the showdown: it shows.
    """
    apply, observe = state.apply, state.observe
    shows = [getattr(p, "always_shows", False) for p in players]
    while (seat := state.actor) is not None:
        if shows[seat] and state.phase == "showdown":
            apply(SHOW)
        else:
            apply(players[seat](observe(seat)))
    assert state.result is not None
    return state.result
