"""Playing a solution out with real cards, by Monte Carlo: the check on the whole chain and on card removal.

``play_table_block`` is the one play loop, heads-up and at a table: deals go through the
solution's betting tree with each seat deciding as its ``Seat`` does (``SolutionSeat`` samples
the solution; the best response's exploiter plays its own choices), so the play-out and the best
response share it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from drawodds.errors import ONE_DECK, check_seed
from drawodds.evaluate import evaluate
from drawodds.i18n import N_
from drawodds.results import Result
from drawodds.solver.abstraction import hand_keep
from drawodds.solver.classes import class_hold_cards, classify
from drawodds.solver.game import GameTree, Line, TableGame, TableLine, betting_round
from drawodds.solver.settings import ONE_DECK_DEALS
from drawodds.solver.solution import DrawSolution
from drawodds.solver.subsets import N_CARDS, Floats, Ints
from drawodds.solver.table import TableSolution


def _draw(hands: Ints, keep: npt.NDArray[np.bool_], stub: Ints, start: Ints) -> tuple[Ints, Ints]:
    """Final hands after keeping ``keep`` and filling up from ``stub`` at ``start`` (per row)."""
    order = np.argsort(~keep, axis=1, kind="stable")
    kept_first = np.take_along_axis(hands, order, axis=1)
    slot = np.arange(5)[None, :] - keep.sum(axis=1)[:, None]
    idx = np.clip(start[:, None] + slot, 0, stub.shape[1] - 1)
    final = np.where(slot >= 0, np.take_along_axis(stub, idx, axis=1), kept_first)
    return final, start + 5 - keep.sum(axis=1)


def _sample(probs: Floats, u: Floats) -> Ints:
    """Index of the action each row picks, given uniform draws ``u``."""
    return np.minimum((np.cumsum(probs, axis=1) < u[:, None]).sum(axis=1), probs.shape[1] - 1)


def solution_keep(sol: DrawSolution | TableSolution, hands: Ints, q: int, seat: int, row: Ints, bucket: Ints,
                  option: Ints, rng: np.random.Generator) -> npt.NDArray[np.bool_]:
    """(N, 5) the cards the solution keeps in ``seat`` when it draws ``option`` after lines of group
    ``q`` (rows as at its draw node): its bucket's hold, or where the draw count offers two, one
    picked by its private choice."""
    a, g = sol.abstraction, sol.game
    column = np.asarray(option, dtype=np.int64).copy()
    if a.alt_holds is None or not a.choices:
        return hand_keep(hands, a, column)
    u = rng.random(len(option))
    for k in a.choices:
        node = g.hold_nodes.get((q, seat, k))
        at = np.flatnonzero(option == k)
        if node is None or len(at) == 0:
            continue
        s = sol.strategy[node]
        assert s is not None
        second = _sample(s[row[at], bucket[at]], u[at]) == 1
        column[at[second]] += len(a.options)
    return class_hold_cards(hands, a.all_holds, column)


@dataclass(frozen=True)
class Playout:
    """The solution played by both seats with real cards, by Monte Carlo: seat 0's result in
    antes per deal (standard error), next to its exact value in the abstract game."""

    deals: int
    shared_deck: bool
    value: float
    standard_error: float
    abstract_value: float

    @property
    def difference(self) -> float:
        """Real-card value minus abstract value (card removal and ties inside final buckets)."""
        return self.value - self.abstract_value

    def to_dict(self) -> dict[str, object]:
        return {"deals": self.deals, "shared_deck": self.shared_deck, "value": self.value,
                "standard_error": self.standard_error, "abstract_value": self.abstract_value,
                "difference": self.difference}


def play_out(solution: DrawSolution, deals: int, rng: np.random.Generator, *, shared_deck: bool = True,
             by_bucket: bool = False, block: int = 50_000) -> Playout:
    """Deal real cards and let both seats play the solution: buckets from their hands, holds from
    their buckets, draws from the stub, the showdown by true strength.

    With ``shared_deck`` both hands and both draws come from one deck, as at the table (card
    removal between the hands counts); without it each seat has its own deck, which is the
    abstract game's assumption, so the difference isolates what card removal does. With
    ``by_bucket`` the showdown compares final buckets (equal buckets split), as the abstract game
    does: with separate decks that reproduces the abstract value, a check on the whole chain.
    """
    def block_pay(n: int) -> Floats:
        deal = deal_block(solution, n, rng, shared_deck)
        seats = (SolutionSeat(solution, 0, deal, rng), SolutionSeat(solution, 1, deal, rng))
        return play_block(solution, deal, seats, shared_deck, by_bucket)

    mean, se = monte_carlo(block_pay, deals, block)
    return Playout(deals, shared_deck, float(mean[0]), float(se[0]), solution.value[0])


def monte_carlo(block_pay: Callable[[int], Floats], deals: int, block: int) -> tuple[Floats, Floats]:
    """Mean payoff and its standard error (per seat, for (n, seats) payoffs) over ``deals`` deals
    played ``block`` at a time by ``block_pay(n)``."""
    total = total_sq = np.zeros(1)
    done = 0
    while done < deals:
        n = min(block, deals - done)
        pay = np.asarray(block_pay(n), dtype=np.float64).reshape(n, -1)
        total, total_sq = total + pay.sum(axis=0), total_sq + (pay * pay).sum(axis=0)
        done += n
    mean = total / deals
    return mean, np.sqrt(np.maximum(total_sq / deals - mean * mean, 0.0) / deals)


@dataclass(frozen=True)
class Deal:
    """A block of deals: each seat's sorted hand, the stub it draws from (one deck shared, or a
    deck each), its deal class and pre-draw bucket."""

    hands: tuple[Ints, ...]
    stubs: tuple[Ints, ...]
    classes: tuple[Ints, ...]
    buckets: tuple[Ints, ...]


class Seat(Protocol):
    """How one seat decides in ``play_table_block``, for the deals ``sel`` of the block (or, after the
    draw, the rows and exact final strengths of the deals that decide)."""

    def pre(self, h: str, sel: Ints) -> Ints: ...

    def draw(self, q: int, row: Ints, sel: Ints) -> tuple[Ints, npt.NDArray[np.bool_]]: ...

    def post(self, q: int, h: str, row: Ints, final: Ints) -> Ints: ...


class SolutionSeat:
    """A seat that plays the solution: its bucket's probabilities at every decision, sampled with
    the block's generator, and its bucket's hold (or its private choice of two)."""

    def __init__(self, sol: DrawSolution | TableSolution, seat: int, deal: Deal, rng: np.random.Generator) -> None:
        self.sol, self.seat, self.rng = sol, seat, rng
        self.hands, self.buckets = deal.hands[seat], deal.buckets[seat]

    def pre(self, h: str, sel: Ints) -> Ints:
        s = self.sol.strategy[self.sol.game.pre_nodes[h]]
        assert s is not None
        return _sample(s[0, self.buckets[sel]], self.rng.random(len(sel)))

    def draw(self, q: int, row: Ints, sel: Ints) -> tuple[Ints, npt.NDArray[np.bool_]]:
        s = self.sol.strategy[self.sol.game.draw_nodes[(q, self.seat)]]
        assert s is not None
        option = _sample(s[row, self.buckets[sel]], self.rng.random(len(sel)))
        return option, solution_keep(self.sol, self.hands[sel], q, self.seat, row, self.buckets[sel], option, self.rng)

    def post(self, q: int, h: str, row: Ints, final: Ints) -> Ints:
        s = self.sol.strategy[self.sol.game.post_nodes[(q, h)]]
        assert s is not None
        return _sample(s[row, self.sol.abstraction.final_of_strength[final]], self.rng.random(len(row)))


def deal_block(sol: DrawSolution, n: int, rng: np.random.Generator, shared: bool) -> Deal:
    """``n`` deals for both seats: from one deck (``shared``: seat 1's hand follows seat 0's, and
    both draw from the one stub) or from a deck each."""
    a = sol.abstraction
    decks = [rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1)]
    if not shared:
        decks.append(rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1))
    hands = (np.sort(decks[0][:, :5], axis=1), np.sort(decks[-1][:, 5:10], axis=1))
    classes = (classify(hands[0])[0], classify(hands[1])[0])
    return Deal(hands, (decks[0][:, 10:], decks[-1][:, 10:]), classes,
                (a.class_bucket[classes[0]], a.class_bucket[classes[1]]))


def _before_the_draw(sol: DrawSolution | TableSolution, n: int, players: int, seats: Sequence[Seat]
                     ) -> tuple[Ints, Floats]:
    """The betting before the draw of ``n`` deals, each seat deciding as its ``Seat`` does: the
    line each deal takes to the draw (its index in ``sol.game.lines``; -1: none), and the (n,
    players) payoffs of the deals a fold ends (a deal everybody checks and the rules redeal is a
    push). Heads-up and at a table alike."""
    g = sol.game
    pay = np.zeros((n, players))
    line_of = np.full(n, -1, dtype=np.int64)
    pre = betting_round(0, g.max_bets, players)
    names = list(pre)
    index = {h: k for k, h in enumerate(names)}
    lines: Sequence[Line | TableLine] = g.lines
    line_index = {ln.history: k for k, ln in enumerate(lines)}
    where = np.zeros(n, dtype=np.int64)
    for h in names:
        node = pre[h]
        sel = np.flatnonzero(where == index[h])
        if len(sel) == 0:
            continue
        if node.end is not None:
            if h in line_index:
                line_of[sel] = line_index[h]
            elif node.end == "fold":
                put = np.array([1 + p * g.small for p in node.put])
                pay[sel] = _pot_to_best(np.broadcast_to(put, (len(sel), players)), node.active, [])
            continue                                      # all check and redealt: a push
        assert node.actor is not None
        act = seats[node.actor].pre(h, sel)
        for k, x in enumerate(node.actions):
            where[sel[act == k]] = index[h + x]
    return line_of, pay


def play_block(sol: DrawSolution, deal: Deal, seats: tuple[Seat, Seat], shared: bool,
               by_bucket: bool = False) -> Floats:
    """Seat 0's payoff (antes) in a block of heads-up deals played out through the solution's
    betting tree (``play_table_block``, two seats)."""
    return play_table_block(sol, deal, seats, shared, by_bucket)[:, 0]


def _draw_groups(g: GameTree | TableGame) -> list[tuple[int, tuple[int, ...], int, tuple[int, ...]]]:
    """The groups of lines that reach the draw, each as (its key in the game's node indices, the
    seats in, the seat first to act after the draw, its lines): heads-up both seats are in and a
    group is keyed by who acts first, at a table by its place."""
    if isinstance(g, TableGame):
        return [(q, active, first, members) for q, (active, first, members) in enumerate(g.groups)]
    return [(first, (0, 1), first, members) for first, members in g.groups.items()]


# --- three or more seats -----------------------------------------------------------------------

@dataclass(frozen=True)
class TablePlayout:
    """A table solution played by every seat with real cards, by Monte Carlo: each seat's result
    in antes per deal (standard errors), next to its value in the abstract game."""

    deals: int
    shared_deck: bool
    by_bucket: bool
    value: tuple[float, ...]
    standard_error: tuple[float, ...]
    abstract_value: tuple[float, ...]

    @property
    def difference(self) -> tuple[float, ...]:
        """Each seat's real-card value minus its abstract value."""
        return tuple(v - a for v, a in zip(self.value, self.abstract_value, strict=True))

    def to_dict(self) -> dict[str, object]:
        return {"deals": self.deals, "shared_deck": self.shared_deck, "by_bucket": self.by_bucket,
                "value": list(self.value), "standard_error": list(self.standard_error),
                "abstract_value": list(self.abstract_value), "difference": list(self.difference)}


def deal_table(sol: TableSolution, n: int, rng: np.random.Generator, shared: bool) -> Deal:
    """``n`` deals for every seat of a table: from one deck (seat after seat, all drawing from the
    one stub) or from a deck each."""
    seats = sol.players
    count = 1 if shared else seats
    decks = [rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1) for _ in range(count)]
    start = [5 * s if shared else 0 for s in range(seats)]
    hands = tuple(np.sort(decks[s % count][:, start[s]:start[s] + 5], axis=1) for s in range(seats))
    stubs = tuple(decks[s % count][:, (5 * seats if shared else 5):] for s in range(seats))
    classes = tuple(classify(h)[0] for h in hands)
    return Deal(hands, stubs, classes, tuple(sol.abstraction.class_bucket[c] for c in classes))


def _pot_to_best(put: Floats, contest: tuple[int, ...], shown: list[Ints]) -> Floats:
    """(rows, seats) payoffs when the seats in ``contest`` show down (alone: it takes the pot):
    the strongest take the pot in equal shares, every seat loses what it put in."""
    if len(contest) == 1:
        best = np.ones((len(put), 1), dtype=bool)
    else:
        strength = np.stack([shown[s] for s in contest], axis=1).astype(np.int64)
        best = strength == strength.max(axis=1, keepdims=True)
    pay = -np.array(put, dtype=np.float64)
    pay[:, list(contest)] += put.sum(axis=1, keepdims=True) * best / best.sum(axis=1, keepdims=True)
    return pay


def play_table_block(sol: DrawSolution | TableSolution, deal: Deal, seats: Sequence[Seat], shared: bool,
                     by_bucket: bool = False) -> Floats:
    """(n, seats) payoffs (antes) of a block of deals played through a solution's tree, heads-up or
    at a table, each seat deciding as its ``Seat`` does (``SolutionSeat`` samples the solution):
    the pre-draw round, the draws in seat order, the round after the draw and a showdown by true
    strength (or, ``by_bucket``, by final bucket, equal ones split). The one play loop."""
    a, g, players = sol.abstraction, sol.game, len(seats)
    line_of, pay = _before_the_draw(sol, len(deal.hands[0]), players, seats)
    n_opt = len(a.options)
    stakes = np.array([np.broadcast_to(ln.stake, (players,)) for ln in g.lines], dtype=np.float64)
    for q, active, first, members in _draw_groups(g):
        sel = np.flatnonzero(np.isin(line_of, members))
        if len(sel) == 0:
            continue
        pos = np.zeros(len(g.lines), dtype=np.int64)
        pos[list(members)] = np.arange(len(members))
        row = pos[line_of[sel]]
        stride = len(members)
        finals: dict[int, Ints] = {}
        stub_ptr = np.zeros(len(sel), dtype=np.int64)
        for seat in active:                               # the draws in seat order
            option, keep = seats[seat].draw(q, row, sel)
            start = stub_ptr if shared else np.zeros(len(sel), dtype=np.int64)
            final, end = _draw(deal.hands[seat][sel], keep, deal.stubs[seat][sel], start)
            if shared:
                stub_ptr = end
            finals[seat] = evaluate(final).astype(np.int64)
            row = row + stride * option
            stride *= n_opt
        zero = np.zeros(len(sel), dtype=np.int64)        # a folded seat's cards are never shown
        shown = [(a.final_of_strength[finals[s]] if by_bucket else finals[s]) if s in finals else zero
                 for s in range(players)]
        stake = stakes[line_of[sel]]
        post = betting_round(first, g.max_bets, players, active)
        names = list(post)
        index = {h: k for k, h in enumerate(names)}
        where = np.zeros(len(sel), dtype=np.int64)
        for h in names:
            node = post[h]
            at = np.flatnonzero(where == index[h])
            if len(at) == 0:
                continue
            if node.end is not None:
                put = stake[at] + np.array(node.put, dtype=np.float64)[None, :] * g.big
                pay[sel[at]] = _pot_to_best(put, node.active, [x[at] for x in shown])
                continue
            assert node.actor is not None
            act = seats[node.actor].post(q, h, row[at], finals[node.actor][at])
            for k, x in enumerate(node.actions):
                where[at[act == k]] = index[h + x]
    return pay


def play_table_out(solution: TableSolution, deals: int, rng: np.random.Generator, *, shared_deck: bool = True,
                   by_bucket: bool = False, block: int = 50_000) -> TablePlayout:
    """Deal real cards and let every seat of a table play the solution (``play_table_block``):
    with ``shared_deck`` from one deck as at the table, else a deck each as the abstract game
    assumes; with a deck each and ``by_bucket`` it reproduces the abstract values, a check on the
    whole chain."""
    def block_pay(n: int) -> Floats:
        deal = deal_table(solution, n, rng, shared_deck)
        seats = [SolutionSeat(solution, s, deal, rng) for s in range(solution.players)]
        return play_table_block(solution, deal, seats, shared_deck, by_bucket)

    mean, se = monte_carlo(block_pay, deals, block)
    return TablePlayout(deals, shared_deck, by_bucket, tuple(mean.tolist()), tuple(se.tolist()),
                        tuple(solution.value))


# --- the one-deck check ----------------------------------------------------------------------------

ONE_DECK_MODEL = N_("The solution played by every seat with real cards and the showdown by true strength: the "
                    "hands and the draws from one deck, as at the table, and beside it from a deck for each seat, "
                    "as the solver's model deals them. The difference between the two is what card removal between "
                    "the seats does.")


@dataclass(frozen=True, repr=False)
class OneDeck(Result):
    """Every seat's result, in antes per deal with its standard error, when the solution plays
    itself with one deck (``value``) and with a deck each (``own_decks``), beside the model's
    exact values; Monte Carlo over ``deals`` deals from ``seed``."""

    deals: int
    seed: int
    value: tuple[float, ...]
    standard_error: tuple[float, ...]
    own_decks: tuple[float, ...]
    own_decks_standard_error: tuple[float, ...]
    model_value: tuple[float, ...]
    model: str

    @property
    def difference(self) -> tuple[float, ...]:
        """One deck minus the model's value, per seat."""
        return tuple(v - m for v, m in zip(self.value, self.model_value, strict=True))

    @property
    def card_removal(self) -> tuple[float, ...]:
        """One deck minus a deck each, per seat (two independent runs: the difference's standard
        error is both runs' together)."""
        return tuple(v - o for v, o in zip(self.value, self.own_decks, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "difference": list(self.difference), "card_removal": list(self.card_removal)}


def one_deck(solution: DrawSolution | TableSolution, deals: int = ONE_DECK_DEALS, seed: int = 1) -> OneDeck:
    """The one-deck check of a heads-up or table solution: it plays itself with real cards from one
    deck and from a deck each (``play_out``, ``play_table_out``), ``deals`` deals each."""
    ONE_DECK.check(deals)
    check_seed(seed)
    runs = []
    for shared in (True, False):
        rng = np.random.default_rng([seed, int(shared)])
        if isinstance(solution, TableSolution):
            t = play_table_out(solution, deals, rng, shared_deck=shared)
            runs.append((t.value, t.standard_error))
        else:
            h = play_out(solution, deals, rng, shared_deck=shared)
            runs.append(((h.value, -h.value), (h.standard_error, h.standard_error)))
    return OneDeck(deals, seed, *runs[0], *runs[1], tuple(solution.value), ONE_DECK_MODEL)
