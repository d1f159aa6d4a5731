"""Pots of one deal: uncalled bets, side pots by all-in level, and splitting with odd chips.

Everything works on each seat's total contribution to the deal (antes, blinds and bets), so the
pot is always exactly the sum of what went in. Folded chips stay in the pots they reached; a seat
wins at most what it matched from each player (the Mørkpoker guide's all-in rule), and chips no
live hand may claim stay on the table for the next deal.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    """One pot layer: its chips and the seats (not folded) that may win it."""

    amount: int
    eligible: tuple[int, ...]


def uncalled_excess(contributed: Sequence[int]) -> tuple[int, int]:
    """(seat, chips) of the part of the biggest contribution nobody matched; (-1, 0) if none."""
    top, first, second = -1, 0, 0
    for i, c in enumerate(contributed):
        if c > first:
            top, first, second = i, c, first
        elif c > second:
            second = c
    return (top, first - second) if first > second else (-1, 0)


def side_pots(contributed: Sequence[int], live: Sequence[bool], carried: int = 0,
              carried_to: Sequence[bool] | None = None) -> list[Pot]:
    """Split contributions into a main pot and side pots.

    Layers are cut at the contribution of every live (not folded) seat; each layer is open to
    the live seats that reached it, and to nobody else: a layer only folded chips reached has no
    eligible seat (its chips stay on the table). ``carried`` (chips left from earlier deals) joins
    the main pot, open to every live seat, or to the live seats ``carried_to`` marks (a pot of
    its own, which stays on the table if none of them is live).
    """
    levels = sorted({c for c, alive in zip(contributed, live, strict=False) if alive and c > 0})
    top = max(contributed, default=0)
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(i for i, (c, alive) in enumerate(zip(contributed, live, strict=False)) if alive and c >= level)
        if amount or not pots:
            pots.append(Pot(amount, eligible))
        previous = level
    if carried:
        everyone = tuple(i for i, alive in enumerate(live) if alive and (carried_to is None or carried_to[i]))
        main = pots[0]
        if main.eligible == everyone or not main.amount:
            pots[0] = Pot(main.amount + carried, everyone)
        else:  # some live seat reached no layer (it put nothing in): the carried pot is its own
            pots.insert(0, Pot(carried, everyone))
    return pots


def claimants(eligible: Sequence[int], dead: Collection[int], mucks: Sequence[int]) -> tuple[int, ...]:
    """The seats still claiming a pot at the end: its eligible seats less those who mucked, in
    the order they mucked, until one hand is left; then less dead hands.

    A pot with a single hand left is that hand's at once, unshown: mucking later for another pot
    does not give it up. A mucked hand gave up its claim, so when only a dead hand is left (a
    false opener whose opponents mucked) nobody claims the pot and it stays for the next deal.
    """
    left = list(eligible)
    for s in mucks:
        if len(left) <= 1:
            break
        if s in left:
            left.remove(s)
    return tuple(s for s in left if s not in dead)


def matched_bound(contributed: Sequence[int], seat: int) -> int:
    """The most ``seat`` can win from this deal's chips: what it matched from every seat."""
    mine = contributed[seat]
    return sum(min(c, mine) for c in contributed)


def split_pot(amount: int, winners: Sequence[int], button: int, seats: int,
              carry_odd: bool = False) -> tuple[dict[int, int], int]:
    """Share a pot among tied winners: ({seat: chips}, chips carried to the next deal).

    Odd chips go one at a time to the winners nearest the dealer's left, or are carried
    when ``carry_odd`` (the Swedish Mörkpoker page's option).
    """
    share, odd = divmod(amount, len(winners))
    paid = {w: share for w in winners}
    if carry_odd:
        return paid, odd
    for w in odd_chip_order(winners, button, seats)[:odd]:
        paid[w] += 1
    return paid, 0


def odd_chip_order(winners: Sequence[int], button: int, seats: int) -> list[int]:
    """Winners ordered from the dealer's left, clockwise: who gets odd chips first."""
    return sorted(winners, key=lambda w: (w - button - 1) % seats)
