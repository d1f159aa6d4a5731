"""A deal's table, checked: who is dealt in and in what order, the draw limits, the stacks and the deck."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from drawodds.cards import JOKER
from drawodds.errors import RequestError
from drawodds.rules import FIRST_ACE, RuleSet, is_whole

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
            raise RequestError("rules must be a RuleSet (see drawodds.preset), got {kind}", kind=type(rules).__name__)
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
        raise RequestError("stacks must be whole numbers of chips, none negative, got {stacks}",
                           stacks=repr(stacks)) from None
    n = len(stack_list)
    if n > rules.players:
        raise RequestError("there are {count} stacks but the rules seat at most {players} players (set "
                           "players={count})", count=n, players=rules.players)
    if min(stack_list, default=0) < 0:
        raise RequestError("stacks must be whole numbers of chips, none negative, got {stacks}", stacks=stack_list)
    if not is_whole(button) or not 0 <= button < n:
        raise RequestError("button must be a seat from 0 to {last}, got {button}", last=n - 1, button=repr(button))
    if not is_whole(carried) or carried < 0:
        raise RequestError("carried must be a whole number of chips, at least 0, got {carried}", carried=repr(carried))
    try:
        cards = deck if type(deck) is list else list(deck)
    except TypeError:
        raise RequestError("the deck must be card codes (whole numbers), got {deck}", deck=repr(deck)) from None
    if set(map(type, cards)) != {int}:  # numpy integers: plain ints inside a deal
        try:
            cards = [c if type(c) is int else _chips(c) for c in cards]
        except (TypeError, ValueError):
            raise RequestError("the deck must be card codes (whole numbers), got {deck}", deck=repr(deck)) from None
    distinct = set(cards)
    if len(distinct) != len(cards):
        raise RequestError("the deck holds a card twice: every card may appear once")
    size = rules.deck_size
    if not distinct <= _CARDS[size]:
        bad = next(c for c in cards if not 0 <= c < size)
        if bad == JOKER and not rules.joker:
            raise RequestError("the deck holds the joker, but these rules play without it (joker=False)")
        raise RequestError("the deck holds card {bad}; this rule set's cards are 0 to {last}", bad=bad, last=size - 1)
    return stack_list, cards


def _chips(value: object) -> int:
    """A whole number as a plain int; TypeError for anything else (4.5, "4", True)."""
    if not is_whole(value):
        raise TypeError(value)
    return int(value)  # type: ignore[call-overload]
