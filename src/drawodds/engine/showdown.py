"""The showdown and the end of a deal: hands shown or mucked in turn, every pot paid to its best
claimant(s) (side pots, split pots and odd chips), and the deal's result."""

from __future__ import annotations

import operator

from drawodds.engine.actions import DealResult, IllegalAction, Outcome, _new_tuple
from drawodds.engine.deal_base import DealBase
from drawodds.engine.pots import Pot, claimants, side_pots, split_pot
from drawodds.evaluate import evaluate_one as hand_strength


class Showdown(DealBase):
    """The showdown and the payout of one deal (a part of ``DealState``)."""

    __slots__ = ()

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
            raise IllegalAction("at showdown seat {seat} can show or muck, not {kind}", seat=seat, kind=repr(kind))
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
