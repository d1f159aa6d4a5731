"""What one deal keeps track of (a slot per field), and the chip and seat helpers every part of the deal uses."""

from __future__ import annotations

from collections.abc import Callable

from drawodds.engine.actions import DealResult, Outcome, Phase
from drawodds.engine.pots import Pot
from drawodds.evaluate import evaluate_one as hand_strength
from drawodds.rules import RuleSet


class DealBase:
    """The fields of one deal; ``DealState`` adds the betting, the draw, the showdown and false openers."""

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

    # The table and its set-up.
    rules: RuleSet
    n: int
    deal_id: int
    button: int
    start_stacks: tuple[int, ...]
    stacks: list[int]
    carried_in: int
    reshuffle: Callable[[list[int]], list[int]] | None
    deck: list[int]
    antes: bool
    order: tuple[int, ...]                 # seats dealt in, clockwise from the dealer's left
    pos: dict[int, int]
    after: dict[int, tuple[int, ...]]
    _limit_plain: int
    _limit_ace: int
    _ace_top: int
    _seven_rule: bool
    # Where the deal stands.
    phase: Phase
    actor: int | None
    round: int
    actions: list[tuple[int, str, tuple[int, ...]]]   # every action applied, for replays
    events: list[tuple[int, str, int]]                 # public
    private: list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]
    result: DealResult | None
    outcome: Outcome | None
    # Chips and seats in play.
    contributed: list[int]
    committed: list[int]                   # chips put in this betting round
    folded: tuple[bool, ...]
    folded_any: bool
    live: int
    # The betting round.
    bet_size: int
    level: int
    bets: int
    reopen: int
    anchor: int
    cap_level: int
    capped_multiway: bool
    last_aggressor: int | None
    need: list[bool]
    seen: list[int]
    checked_round0: list[bool]
    calls_round0: int
    # The opener and false openers.
    opener: int | None
    opener_genuine: bool
    opener_proves: bool
    opening_bet: int
    aside: dict[int, list[int]]
    dead_opener: bool
    dead_seat: int | None
    dead_floor: int
    declare_queue: list[int]
    # The cards and the draw.
    hands: list[tuple[int, ...]]
    stub: list[int]
    stub_pos: int
    pile: list[int]
    own_discards: list[frozenset[int]]
    rebuilt: bool
    draw_number: int
    draw_queue: list[int]
    draw_counts: list[list[int]]
    _initial: list[int | None]
    # The showdown.
    strength: list[int]
    show_queue: list[int]
    unmucked: int
    shown: list[tuple[int, tuple[int, ...]]]
    mucked: list[bool]
    muck_order: list[int]

    # Where one part of the deal hands over to another (each defined by its own part).
    _start_betting: Callable[[int], None]
    _end_betting: Callable[..., None]
    _set_opener: Callable[[int], None]
    _return_uncalled: Callable[..., None]
    _finish_uncontested: Callable[[], None]
    _finish: Callable[[Outcome, int, tuple[int, ...], tuple[Pot, ...], tuple[tuple[int, ...], ...]], None]

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

    # ----- seats ---------------------------------------------------------------------------

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

    def initial_strength(self, seat: int) -> int:
        """Strength of the hand ``seat`` was dealt (what openers are judged on)."""
        value = self._initial[seat]
        if value is None:
            first = next(cards for s, kind, cards, _ in self.private if s == seat and kind == "deal")
            value = self._initial[seat] = hand_strength(first)
        return value
