"""One deal of five-card draw as an explicit state machine over a RuleSet.

The state says whose turn it is (``actor``), in which phase (``bet``, ``draw``, ``declare``,
``showdown``, ``done``), and which actions are legal with what they cost (``legal()``). Drive it
step by step with ``apply(action)`` or run it to the end with ``play(state, players)``.

A betting player sees only an ``Observation``: its own cards, the public actions (bets, draw counts,
split-openers announcements, hands shown at showdown), stacks and pots. Never another player's
cards, never any discards.

Inside a deal everything is plain ints and lists: a deal costs tens of microseconds, so long
simulations are limited by the players' decisions, not the bookkeeping.

This module holds the state, its betting and its public interface; the draw (``drawing``), the
showdown (``showdown``) and false openers (``false_openers``) are parts of ``DealState`` beside it,
the actions and observations are in ``actions`` and the checked set-up in ``table``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from drawodds.engine.actions import (
    BET,
    CALL,
    CHECK,
    DECLARE,
    FOLD,
    LEGAL_CHECK_ONLY,
    LEGAL_DRAW,
    LEGAL_SHOW_MUCK,
    MUCK,
    NO_CAP,
    PASS,
    RAISE,
    SHOW,
    STAND_PAT,
    Action,
    DealResult,
    IllegalAction,
    Legal,
    Observation,
    Outcome,
    Phase,
    Player,
    _betting_options,
    _new_tuple,
    draw,
)
from drawodds.engine.drawing import DrawPhase
from drawodds.engine.false_openers import FalseOpeners
from drawodds.engine.pots import uncalled_excess
from drawodds.engine.showdown import Showdown
from drawodds.engine.table import _checked_setup, _draw_limits, _seating
from drawodds.errors import RequestError
from drawodds.evaluate import jacks_or_better_floor as openers_floor
from drawodds.rules import RuleSet

# The deal's vocabulary lives in ``engine.actions``; it is imported from here too.
__all__ = ["BET", "CALL", "CHECK", "DECLARE", "FOLD", "MUCK", "PASS", "RAISE", "SHOW", "STAND_PAT", "Action",
           "DealResult", "DealState", "IllegalAction", "Legal", "Observation", "Outcome", "Phase", "Player", "draw",
           "play"]

_NO_CARDS: frozenset[int] = frozenset()


class DealState(DrawPhase, Showdown, FalseOpeners):
    """The state of one deal. ``actor`` is the seat to act (None when ``phase == 'done'``)."""

    __slots__ = ()

    def __init__(self, rules: RuleSet, stacks: Sequence[int], button: int, deck: Sequence[int], *,
                 carried: int = 0, antes: bool = True, deal_id: int = 0,
                 reshuffle: Callable[[list[int]], list[int]] | None = None) -> None:
        self._limit_plain, self._limit_ace, self._ace_top = _draw_limits(rules)  # validates rules
        if rules.game != "draw":
            raise RequestError("{game} is a points game: a betting deal needs the draw game's rules",
                               game=rules.game)
        if type(antes) is not bool:
            raise RequestError("antes must be True or False, got {antes}", antes=repr(antes))
        if reshuffle is not None and not callable(reshuffle):
            raise RequestError("reshuffle must be a function that shuffles a list of cards (or None), got {value}",
                               value=repr(reshuffle))
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
            raise RequestError("a deal needs at least two players with chips, got {players}", players=m)
        if stacks[button] <= 0:
            raise RequestError("the dealer (seat {button}) has no chips and cannot deal", button=button)
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
            raise RequestError("the deck has {cards} cards, {need} are needed", cards=len(deck), need=need)
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
                raise IllegalAction("seat {seat} has nothing to call", seat=seat)
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
                raise IllegalAction("seat {seat} cannot check facing a bet of {to_call}", seat=seat, to_call=to_call)
            if self.round == 0:
                self.checked_round0[seat] = True
            self.events.append((seat, "check", 0))
        elif kind == "fold":
            if to_call <= 0:
                raise IllegalAction("seat {seat} cannot fold with nothing to call (check instead)", seat=seat)
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
                    raise IllegalAction("seat {seat} may not open with a raise", seat=seat)
                new_level = self._raise_to(2 * step)
            elif (kind == "bet") != (self.level == 0) or not self._may_raise(seat) or \
                    (kind == "bet" and not self._may_open(seat)):
                raise IllegalAction("seat {seat} may not {kind} now", seat=seat, kind=kind)
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
            raise IllegalAction("unknown betting action {kind}", kind=repr(kind))
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
                raise IllegalAction("an action is an Action or its kind as text, got {action}",
                                    action=repr(action)) from None
            if not isinstance(kind, str) or not isinstance(discards, tuple):
                raise IllegalAction("an action is an Action or its kind as text, got {action}", action=repr(action))
        phase = self.phase
        if discards and kind != "draw":
            raise IllegalAction("only a draw takes discards; {kind} was given {count}", kind=repr(kind),
                                count=len(discards))
        if phase == "bet":
            self._apply_bet(seat, kind)
        elif phase == "draw":
            if kind != "draw":
                raise IllegalAction("seat {seat} must draw (0 cards to stand pat), not {kind}", seat=seat,
                                    kind=repr(kind))
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
