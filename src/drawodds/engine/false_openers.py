"""False openers found before the draw (Jacks or Better, teaching mode): the dead hand, what it
takes back, and the other players' turn to declare the pot open, or a void deal."""

from __future__ import annotations

from drawodds.engine.actions import IllegalAction
from drawodds.engine.deal_base import DealBase
from drawodds.evaluate import jacks_or_better_floor as openers_floor


class FalseOpeners(DealBase):
    """An exposed false opener and the declaring that follows (a part of ``DealState``)."""

    __slots__ = ()

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
            raise IllegalAction("seat {seat} can declare the pot open or pass, not {kind}", seat=seat, kind=repr(kind))
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
