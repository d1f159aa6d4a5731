"""The draw: each live seat in turn discards and draws, within the draw limits; the stub is rebuilt
from earlier discards when it runs out, and an opener's split openers are kept aside."""

from __future__ import annotations

from collections.abc import Callable

from drawodds.engine.actions import IllegalAction
from drawodds.engine.deal_base import DealBase
from drawodds.errors import RequestError
from drawodds.holds import openers_aside
from drawodds.rules import FIRST_ACE


class DrawPhase(DealBase):
    """The draw of one deal (a part of ``DealState``)."""

    __slots__ = ()

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
            raise IllegalAction("seat {seat} can only discard distinct cards of its own hand", seat=seat)
        limit = self.draw_limit(seat)
        if k == 4 and self._limit_ace != self._limit_plain and not FIRST_ACE <= kept[0] < self._ace_top:
            limit = min(limit, self._limit_plain)  # four cards only while keeping the ace
        if k > limit:
            raise IllegalAction("seat {seat} may draw at most {limit} cards, asked for {asked}", seat=seat, limit=limit,
                                asked=k)
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
            fresh = _reshuffled(self.reshuffle, fresh)
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


def _reshuffled(reshuffle: Callable[[list[int]], list[int]], cards: list[int]) -> list[int]:
    """The caller's reshuffle of ``cards``, refused unless it is those cards, each once, in some order."""
    try:
        shuffled = [int(c) for c in reshuffle(list(cards))]
    except (TypeError, ValueError):
        raise RequestError("the reshuffle must return the cards it was given, in any order") from None
    if sorted(shuffled) != sorted(cards):
        raise RequestError("the reshuffle must return the cards it was given, in any order; got {cards}",
                           cards=shuffled[:60])
    return shuffled
