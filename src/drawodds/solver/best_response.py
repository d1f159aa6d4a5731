"""Exact best responses to a solved strategy, heads-up or three-handed, in the abstract game or in
the real one: one seat deviates, the others play the solution.

The solution plays as it does at the table: its pre-draw bucket from the dealt hand, its bucket's
hold for the draw count it picks (one of two, by its private choice, where it has two), its final
bucket after the draw. The exploiter is allowed more,
step by step (``RESOLUTIONS``):

- ``abstract``: it knows only what the solution knows (buckets, the buckets' holds, final
  buckets, showdown by final bucket): the abstract game's own best response.
- ``final``: it also knows its exact final hand, and the showdown is by true strength.
- ``class``: it also decides before and at the draw by its exact deal class.
- ``full``: it also keeps any legal cards for the draw count it picks.

As in the solver, the hands are dealt independently (no card removal between them), so the other
seats' reaches stay separate factors and a showdown against them is linear in the strengths. Every
expectation is exact (``expectations``: a value per final strength averaged over every draw of
every hold of every deal class).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from drawodds.evaluate import evaluate, jacks_or_better_floor
from drawodds.results import Result, shown_as
from drawodds.solver.abstraction import legal_hold_table
from drawodds.solver.cfr import seat_payoffs
from drawodds.solver.classes import class_hold_cards
from drawodds.solver.expectations import (
    _levels,
    best_hold_expectations,
    group_spread,
    hold_expectations,
    strength_spread,
    subset_tables,
)
from drawodds.solver.game import GameTree, TableGame, betting_round
from drawodds.solver.hand_kinds import hand_kinds
from drawodds.solver.playout import (
    Deal,
    SolutionSeat,
    deal_block,
    deal_table,
    monte_carlo,
    play_table_block,
)
from drawodds.solver.subsets import N_STRENGTHS

if TYPE_CHECKING:
    import pandas as pd

    from drawodds.solver.solution import DrawSolution
    from drawodds.solver.table import TableSolution

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

MOVES_BYTES = 1 << 30     # the most the opponents' cached moves over the draw may take (else spread per call)


@dataclass(frozen=True)
class Resolution:
    """What the exploiter knows: exact final hands (showdown by true strength), its exact deal
    class before and at the draw, and any hold for its draw count."""

    name: str
    strengths: bool
    classes: bool
    free_holds: bool
    text: str


RESOLUTIONS = {r.name: r for r in (
    Resolution("abstract", False, False, False, "the solution's buckets and holds (the abstract game)"),
    Resolution("final", True, False, False, "+ its exact final hand, showdown by true strength"),
    Resolution("class", True, True, False, "+ its exact deal class before the draw"),
    Resolution("full", True, True, True, "+ any hold of the draw count (the real game)"),
)}


@dataclass(frozen=True)
class BestResponse:
    """Each seat's best-response value against the solution (antes per deal, own payoff) and the
    solution's abstract value to seat 0; exploitability is the mean of the two gains."""

    resolution: str
    value: float
    best_response: tuple[float, float]
    seconds: float

    @property
    def exploitability(self) -> float:
        """Mean gain of the two best responses (antes per deal)."""
        return (self.best_response[0] + self.best_response[1]) / 2

    @property
    def text(self) -> str:
        return RESOLUTIONS[self.resolution].text

    def to_dict(self) -> dict[str, object]:
        return {"resolution": self.resolution, "exploitability": self.exploitability,
                "exploitability_milli_antes": 1000 * self.exploitability,
                "best_response": list(self.best_response), "seconds": round(self.seconds, 3)}


# --- the best response ---------------------------------------------------------------------------

def best_response(solution: DrawSolution, resolution: str = "full") -> BestResponse:
    """Each seat's exact best response to ``solution`` at a resolution of ``RESOLUTIONS``."""
    if resolution not in RESOLUTIONS:
        raise ValueError(f"resolution must be one of {', '.join(RESOLUTIONS)}, got {resolution!r}")
    start = time.perf_counter()
    res = RESOLUTIONS[resolution]
    game = _Game(solution, res)
    values = [game.seat_value(seat)[0] for seat in (0, 1)]
    return BestResponse(resolution, solution.value[0], (values[0], values[1]), time.perf_counter() - start)


@dataclass(frozen=True, repr=False)
class SeatGains(Result):
    """Each seat's best response at one resolution against the other seats held fixed (heads-up
    or at a table): the solution's own value to each seat in the same model (the solution against
    itself: in the real game showdowns go by exact hands), each seat's best-response value, and
    their difference, the seat's gain; antes per deal. Its ``exploitability`` is the largest gain."""

    resolution: str
    value: tuple[float, ...]
    best_response: tuple[float, ...]
    seconds: float = field(metadata=shown_as(lambda s: round(s, 3)))

    @property
    def seat_gains(self) -> tuple[float, ...]:
        """What each seat gains by deviating alone."""
        return tuple(b - v for b, v in zip(self.best_response, self.value, strict=True))

    @property
    def exploitability(self) -> float:
        """The largest seat gain (antes per deal)."""
        return max(self.seat_gains)

    def to_dict(self) -> dict[str, object]:
        return {"resolution": self.resolution, "antes_per_deal": self.exploitability,
                "milli_antes": 1000 * self.exploitability, "seat_gains": list(self.seat_gains),
                "value": list(self.value), "best_response": list(self.best_response),
                "seconds": round(self.seconds, 3)}


def seat_gains(solution: DrawSolution | TableSolution, resolution: str = "full") -> SeatGains:
    """Each seat's exact gain from deviating alone to a best response at a resolution of
    ``RESOLUTIONS`` (at ``full`` the real game's: its exact hand, any cards kept), against the
    solution played by the other seats through its abstraction; three-handed as heads-up, each
    seat's own draw from its own stub."""
    if resolution not in RESOLUTIONS:
        raise ValueError(f"resolution must be one of {', '.join(RESOLUTIONS)}, got {resolution!r}")
    start = time.perf_counter()
    res = RESOLUTIONS[resolution]
    seats = range(solution.game.seats if isinstance(solution.game, TableGame) else 2)
    cache = _Cache()
    # The solution's own play needs no finer groups than buckets: its value in the same final states.
    plain = RESOLUTIONS["final"] if res.strengths else res
    value = tuple(_Game(solution, plain, (False, False, False), cache).seat_value(s)[0] for s in seats)
    best = tuple(_Game(solution, res, (True, True, True), cache).seat_value(s)[0] for s in seats)
    return SeatGains(resolution, value, best, time.perf_counter() - start)


@dataclass(frozen=True)
class _Group:
    """Pre-draw lines that reach the draw with the same seats in and the same first to act after
    it: the game's key of the group, the seats in, the first to act, the lines' histories and the
    chips each seat has in on each (lines, seats)."""

    key: int
    active: tuple[int, ...]
    first: int
    histories: tuple[str, ...]
    stakes: Floats


def _groups(game: GameTree | TableGame) -> tuple[_Group, ...]:
    """The groups of a heads-up game (keyed by who acts first after the draw) or of a table."""
    if isinstance(game, TableGame):
        return tuple(_Group(g, active, first, tuple(game.lines[m].history for m in members),
                            np.array([game.lines[m].stake for m in members], dtype=np.float64))
                     for g, (active, first, members) in enumerate(game.groups))
    return tuple(_Group(q, (0, 1), q, tuple(game.lines[m].history for m in members),
                        np.array([[game.lines[m].stake] * 2 for m in members], dtype=np.float64))
                 for q, members in game.groups.items())


@dataclass
class _Cache:
    """What passes with the same final states share: the opponents' reach at the first node after
    the draw, by (opponent, group), and the buckets' moves over the draw, by (option, hold)."""

    reach: dict[tuple[int, int], Floats] = field(default_factory=dict)
    moves: dict[tuple[int, int], Floats] = field(default_factory=dict)


class _Game:
    """The pieces of one best-response computation: the solution (heads-up or at a table), what
    the exploiter knows, and the tables behind exact expectations. One seat deviates, the others
    play the solution; their private states are independent, so their reaches stay separate
    factors and a showdown against them is linear in the states (``cfr.seat_payoffs``)."""

    def __init__(self, solution: DrawSolution | TableSolution, res: Resolution,
                 play: tuple[bool, bool, bool] = (True, True, True), cache: _Cache | None = None,
                 record: bool = False) -> None:
        self.sol, self.res = solution, res
        self.cache = _Cache() if cache is None else cache         # shared by passes of the same final states
        self.best_pre, self.best_draw, self.best_post = play      # False: the exploiter plays the solution there
        self.record = record                                      # keep the exploiter's choices in ``policy``
        a = solution.abstraction
        self.a, self.g = a, solution.game
        self.seats = solution.game.seats if isinstance(solution.game, TableGame) else 2
        self.groups = _groups(solution.game)
        self.n_opt = len(a.options)
        self.w = a.class_weights.astype(np.float64)
        self.bucket_mass = np.bincount(a.class_bucket, weights=self.w, minlength=a.pre_buckets)
        self.t = subset_tables() if res.strengths else None
        self.expand = a.final_of_strength if res.strengths else None
        self.n_states = N_STRENGTHS if res.strengths else a.final_buckets
        if res.classes:
            self.prior = self.w / self.w.sum()
            if solution.rules.opener == "jacks":
                self.openers = evaluate(a.classes) >= jacks_or_better_floor()
            else:
                self.openers = np.ones(len(self.w), dtype=bool)
        else:
            self.prior, self.openers = a.prior, a.openers
        self.free = res.free_holds and self.best_draw
        self._legal_holds = legal_hold_table(a.classes, solution.rules) if self.free else None
        self.own_bucket = a.class_bucket if res.classes else np.arange(a.pre_buckets)
        self.holds_of: dict[int, Ints] = {}
        self.policy: dict[object, npt.NDArray] = {}      # the exploiter's choices (deal classes, strengths)

    # the opponents' reach -------------------------------------------------------------------

    def _predraw_reach(self, opp: int) -> dict[str, Floats]:
        """Chance and the opponent's own pre-draw choices: its reach per bucket at every history."""
        s, g = self.sol, self.g
        out: dict[str, Floats] = {}
        round_ = betting_round(0, g.max_bets, self.seats)

        def visit(h: str, reach: Floats) -> None:
            out[h] = reach
            node = round_[h]
            if node.end is not None:
                return
            if node.actor != opp:
                for act in node.actions:
                    visit(h + act, reach)
                return
            strat = s.strategy[g.pre_nodes[h]]
            assert strat is not None
            for k, act in enumerate(node.actions):
                visit(h + act, reach * strat[0, :, k])

        visit("", self.a.prior.copy())
        return out

    @property
    def _moves(self) -> dict[tuple[int, int], Floats]:
        """(option, hold column) -> (pre-draw buckets, final states): where an opponent's bucket
        ends after drawing to that hold (by final bucket, or by exact strength, each class of the
        bucket in proportion to its deals)."""
        a, out = self.a, self.cache.moves
        if out:
            return out
        for k, d in enumerate(a.options):
            for v, matrix in enumerate(a.hold_transitions(k)):
                if self.t is None:
                    out[(k, v)] = matrix
                    continue
                holds, ok, bucket, share = self._takers(k, v)
                out[(k, v)] = group_spread(self.t, bucket, share, a.pre_buckets, holds, d, ok)
        return out

    @property
    def _moves_fit(self) -> bool:
        """Whether the buckets' moves over the draw (``_moves``) are kept: by final bucket always,
        by strength when they fit in ``MOVES_BYTES`` (the default heads-up abstraction's ten
        thousand buckets by 7,463 strengths would take 5 GB, so it works per call instead)."""
        a = self.a
        return self.t is None or a.pre_buckets * N_STRENGTHS * 8 * 2 * len(a.options) <= MOVES_BYTES

    def _through_moves(self, vectors: Floats, k: int, v: int) -> Floats:
        """(vectors, pre-draw buckets) ``vectors @ _moves[(k, v)].T``: each bucket's expected value
        of each vector (per strength) after drawing option ``k`` to hold column ``v``."""
        if self._moves_fit:
            return vectors @ self._moves[(k, v)].T
        a = self.a
        assert self.t is not None
        out = np.zeros((len(vectors), a.pre_buckets))
        holds, ok, bucket, share = self._takers(k, v)
        if not len(ok):
            return out
        per_class = hold_expectations(self.t, np.ascontiguousarray(vectors.T), holds, a.options[k], ok)
        per_class *= share[:, None]
        for j in range(len(vectors)):
            out[j] = np.bincount(bucket, weights=per_class[:, j], minlength=a.pre_buckets)
        return out

    def _moved(self, k: int, v: int, part: Floats) -> Floats:
        """(rows, states) where the opponent's reach ``part`` (rows, pre-draw buckets) ends after
        drawing option ``k`` to hold column ``v`` (``part @ _moves[(k, v)]``)."""
        if self._moves_fit:
            return part @ self._moves[(k, v)]
        assert self.t is not None
        holds, ok, bucket, share = self._takers(k, v)
        if not len(ok):
            return np.zeros((len(part), N_STRENGTHS))
        return strength_spread(self.t, part[:, bucket] * share[None, :], holds, self.a.options[k], ok)

    def _takers(self, k: int, v: int) -> tuple[Ints, Ints, Ints, Floats]:
        """The deal classes that can take hold column ``v`` of option ``k``: their holds, their
        indices, their buckets and each one's share of its bucket's deals."""
        holds = self.a.hold_columns(k)[v]
        ok = np.flatnonzero(holds >= 0)
        bucket = self.a.class_bucket[ok]
        return holds[ok], ok, bucket, self.w[ok] / self.bucket_mass[bucket]

    def _post_reach(self, opp: int, grp: _Group, line_reach: list[Floats]) -> Floats:
        """(rows, states) the opponent's reach at the first post-draw node of ``grp``, rows ordered
        as in the game tree (the last drawer's count slowest, then the earlier drawers', the line
        fastest); an opponent out of the group (folded before the draw): its total, one column."""
        n_opt, n = self.n_opt, len(grp.histories)
        m = len(grp.active)
        if opp not in grp.active:
            return np.tile(np.array([r.sum() for r in line_reach]), n_opt ** m)[:, None]
        j = grp.active.index(opp)
        before = n_opt ** j                                      # the counts drawn before the opponent's
        draw = self.sol.strategy[self.g.draw_nodes[(grp.key, opp)]]          # (before * n, buckets, options)
        assert draw is not None
        base = np.tile(np.stack(line_reach), (before, 1))
        out = np.zeros((n_opt, before * n, self.n_states))
        for k in range(n_opt):
            sel = base * draw[:, :, k]
            choice = self._choice(opp, grp.key, k)
            for v in range(1 if choice is None else choice.shape[2]):
                part = sel if choice is None else sel * choice[:, :, v]
                out[k] += self._moved(k, v, part)
        after = n_opt ** (m - j - 1)                             # the counts drawn after it
        return np.broadcast_to(out[None], (after, *out.shape)).reshape(-1, self.n_states)

    def _choice(self, seat: int, q: int, k: int) -> Floats | None:
        """(rows, buckets, holds) the solution's private choice of hold when ``seat`` draws option
        ``k`` after lines of group ``q`` (rows as at its draw node), or None when there is none."""
        node = self.g.hold_nodes.get((q, seat, k))
        if node is None:
            return None
        out = self.sol.strategy[node]
        assert out is not None
        return out

    # after the draw ---------------------------------------------------------------------------

    def _post_values(self, seat: int, grp: _Group, opp_reach: dict[int, Floats], stake: Floats) -> Floats:
        """(rows, states) the exploiter's counterfactual value at the first post-draw node;
        ``stake`` (rows, seats) the chips in."""
        g, sol, expand = self.g, self.sol, self.expand
        round_ = betting_round(grp.first, g.max_bets, self.seats, grp.active)
        n = self.n_states
        ranks = (None, slice(0, n), slice(1, n + 1))             # states are strengths in order on both sides

        def visit(h: str, reach: dict[int, Floats]) -> Floats:
            node = round_[h]
            if node.end is not None:
                put = stake + np.array(node.put, dtype=np.float64)[None, :] * g.big
                return seat_payoffs("showdown", put, node.active, seat, reach, n, lambda q: ranks)
            actor = node.actor
            assert actor is not None
            if actor == seat and self.best_post:
                kids = np.stack([visit(h + act, reach) for act in node.actions])
                if self.record:
                    self.policy[("post", grp.key, h)] = kids.argmax(axis=0)
                return kids.max(axis=0)
            strat = sol.strategy[g.post_nodes[(grp.key, h)]]
            assert strat is not None
            out = np.zeros((len(stake), n))
            for k, act in enumerate(node.actions):
                p = strat[:, :, k] if expand is None else np.take(strat[:, :, k], expand, axis=1)
                if actor == seat:
                    out += p * visit(h + act, reach)
                else:
                    out += visit(h + act, {**reach, actor: reach[actor] * p})
            return out

        return np.asarray(visit("", opp_reach))

    # the draw -------------------------------------------------------------------------------

    def _draw_values(self, vectors: Floats, k: int, seat: int, q: int) -> Floats:
        """(vectors, groups) the exploiter's value of drawing option ``k`` for each group (bucket
        or deal class), given its value per final state in each vector; -inf where illegal. Its
        hold: any (free holds), else the best of the solution's (``best_draw``) or the solution's
        own choice among them. The holds that give it go to ``self.holds_of[k]`` (vectors, classes)."""
        a = self.a
        if self.free:
            return self._hold_values(vectors, k, None)
        columns = a.hold_columns(k)
        levels = None
        if self.res.classes:                     # the holds of one count share the sums over their draws
            assert self.t is not None
            levels = _levels(self.t, np.ascontiguousarray(vectors.T), set(range(5 - a.options[k], 5)))
        values = np.stack([self._hold_values(vectors, k, holds, v, levels) for v, holds in enumerate(columns)])
        if len(columns) == 1:
            if self.record:
                self.holds_of[k] = np.broadcast_to(columns[0], (len(vectors), len(columns[0])))
            return values[0]
        if self.best_draw:
            pick = values.argmax(axis=0)
            if self.res.classes and self.record:
                self.holds_of[k] = np.where(pick == 1, columns[1][None, :], columns[0][None, :])
            return values.max(axis=0)
        choice = self._choice(seat, q, k)
        assert choice is not None
        mix = np.moveaxis(choice[:, self.own_bucket, :], 2, 0)          # (holds, vectors, groups)
        return np.where(mix > 0, mix * np.where(np.isfinite(values), values, 0.0), 0.0).sum(axis=0) + \
            np.where(np.isfinite(values[0]), 0.0, -np.inf)

    def _hold_values(self, vectors: Floats, k: int, holds: Ints | None, v: int = 0,
                     levels: dict[int, Floats] | None = None) -> Floats:
        """``_draw_values`` for one hold per class (``holds``, column ``v`` of the option), or
        with None any hold (free holds). By bucket it is the buckets' move over the draw
        (``_moves``); by deal class an exact expectation per class (``levels``: the sums over the
        draws, shared by the holds of one count)."""
        a, d = self.a, self.a.options[k]
        if not self.res.classes:
            out = self._through_moves(vectors, k, v)
            out[:, ~a.legal_draws[:, k]] = -np.inf
            return out
        assert self.t is not None
        vt = np.ascontiguousarray(vectors.T)
        if holds is None:
            assert self._legal_holds is not None
            per_class, masks = best_hold_expectations(self.t, vt, d, self._legal_holds)
            if self.record:
                self.holds_of[k] = masks.T
        else:
            ok = holds >= 0
            per_class = np.full((len(self.w), len(vectors)), -np.inf)
            if ok.any():
                per_class[ok] = hold_expectations(self.t, vt, holds[ok], d, np.flatnonzero(ok), levels)
        return np.ascontiguousarray(per_class.T)

    def _line_values(self, seat: int, grp: _Group, post: Floats) -> Floats:
        """(lines of the group, groups) the exploiter's value on reaching the draw after each line.
        It sees the counts drawn before its own, not those drawn after it."""
        n_opt, n = self.n_opt, len(grp.histories)
        j = grp.active.index(seat)
        before = n_opt ** j
        v = post.reshape(n_opt ** (len(grp.active) - j - 1), n_opt, before * n, -1).sum(axis=0)
        values = np.stack([self._draw_values(v[k], k, seat, grp.key) for k in range(n_opt)])  # (option, rows, group)
        if self.best_draw:
            best = values.max(axis=0)
            if self.res.classes and self.res.strengths and self.record:
                option = values.argmax(axis=0)                       # (rows, class)
                holds = np.stack([self.holds_of[k] for k in range(n_opt)])
                self.policy[("draw", grp.key)] = option
                self.policy[("hold", grp.key)] = np.take_along_axis(holds, option[None], axis=0)[0]
        else:
            own = self.sol.strategy[self.g.draw_nodes[(grp.key, seat)]]
            assert own is not None
            mix = np.moveaxis(own[:, self.own_bucket, :], 2, 0)          # (option, rows, group)
            best = np.where(mix > 0, mix * np.where(np.isfinite(values), values, 0.0), 0.0).sum(axis=0)
        return best.reshape(before, n, -1).sum(axis=0)

    # before the draw ------------------------------------------------------------------------

    def seat_value(self, seat: int) -> tuple[float, Floats]:
        """The exploiter's best-response value in ``seat`` and its value per group."""
        g, n_opt = self.g, self.n_opt
        others = [o for o in range(self.seats) if o != seat]
        reach = {o: self._predraw_reach(o) for o in others}
        n_groups = len(self.prior)
        at_draw: dict[str, Floats] = {}
        for grp in self.groups:
            if seat not in grp.active:                     # folded before the draw: its chips are lost
                for i, h in enumerate(grp.histories):
                    at_draw[h] = np.full(n_groups, -grp.stakes[i, seat] * math.prod(reach[o][h].sum() for o in others))
                continue
            opp_reach = {}
            for o in others:
                if (o, grp.key) not in self.cache.reach:
                    self.cache.reach[(o, grp.key)] = self._post_reach(o, grp, [reach[o][h] for h in grp.histories])
                opp_reach[o] = self.cache.reach[(o, grp.key)]
            stake = np.tile(grp.stakes, (n_opt ** len(grp.active), 1))
            values = self._line_values(seat, grp, self._post_values(seat, grp, opp_reach, stake))
            for i, h in enumerate(grp.histories):
                at_draw[h] = values[i]
        round_ = betting_round(0, g.max_bets, self.seats)
        small = g.small

        def visit(h: str) -> Floats:
            node = round_[h]
            if node.end == "fold":
                stake = 1 + np.array(node.put, dtype=np.float64) * small
                pay = (stake.sum() if node.active == (seat,) else 0.0) - stake[seat]
                return np.full(n_groups, pay * math.prod(reach[o][h].sum() for o in others))
            if node.end is not None:
                return at_draw.get(h, np.zeros(n_groups))         # a check-through redealt is a push
            kids = [visit(h + act) for act in node.actions]
            if node.actor != seat:
                return np.sum(kids, axis=0)
            stacked = np.stack(kids)
            if not self.best_pre:
                own = self.sol.strategy[g.pre_nodes[h]]
                assert own is not None
                return (np.moveaxis(own[0, self.own_bucket, :], 1, 0) * np.where(np.isfinite(stacked), stacked, 0.0)
                        ).sum(axis=0)
            if node.actions == ("x", "b") and not self.openers.all():
                stacked[1, ~self.openers] = -np.inf
            if self.record:
                self.policy[("pre", h)] = stacked.argmax(axis=0)
            return stacked.max(axis=0)

        root = visit("")
        return float(self.prior @ root), self.prior * root


LEAK_STAGES = ("before the draw", "at the draw", "after the draw")


def leaks(solution: DrawSolution | TableSolution, seats: Sequence[int] | None = None) -> pd.DataFrame:
    """Where a perfect exploiter in the real game gains against ``solution``: by seat, kind of
    dealt hand and where it plays differently (its betting before the draw; its draw count and
    the cards it keeps; its betting after the draw), in milli-antes per deal. Heads-up each row is
    a share of the real exploitability (the mean over the seats): the column sums to it. At a
    table each seat's rows sum to that seat's gain from deviating alone in the real game.

    The stages telescope: the solution's own play in the real game; the exploiter's play after
    the draw only; from the draw on; everywhere (``seat_gains(..., "full")``). ``seats``: the
    seats whose exploiter is measured (default every seat; four exact passes each)."""
    import pandas as pd

    a = solution.abstraction
    full = RESOLUTIONS["full"]
    kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
    players = solution.game.seats if isinstance(solution.game, TableGame) else 2
    scale = 500 if players == 2 else 1000        # heads-up: half, a share of the mean over the seats; in mA
    rows = []
    cache = _Cache()
    for seat in range(players) if seats is None else seats:
        steps = [_Game(solution, full, play, cache).seat_value(seat)[1]
                 for play in ((False, False, False), (False, False, True), (False, True, True), (True, True, True))]
        for stage, lo, hi in zip(reversed(LEAK_STAGES), steps[:-1], steps[1:], strict=True):
            gain = scale * (hi - lo)
            for name in dict.fromkeys(kind):
                rows.append({"seat": seat, "hand": name, "stage": stage,
                             "milli_antes": float(gain[kind == name].sum())})
    return pd.DataFrame(rows)


# --- the best response at the table: card removal -----------------------------------------------

@dataclass(frozen=True)
class CardRemoval:
    """The full best response of one seat played against the solution with real cards (Monte
    Carlo): its result in antes per deal with its standard error, next to the exact value without
    card removal."""

    seat: int
    deals: int
    shared_deck: bool
    value: float
    standard_error: float
    exact: float

    @property
    def difference(self) -> float:
        """What dealing both hands from one deck changes (or, with a deck each, the check: zero)."""
        return self.value - self.exact

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "deals": self.deals, "shared_deck": self.shared_deck, "value": self.value,
                "standard_error": self.standard_error, "exact": self.exact, "difference": self.difference}


def card_removal(solution: DrawSolution | TableSolution, seat: int, deals: int, rng: np.random.Generator, *,
                 shared_deck: bool = True, block: int = 50_000) -> CardRemoval:
    """Play the full best response of ``seat`` against the solution (heads-up or at a table) with
    real cards: from one deck (the table: card removal counts) or, with ``shared_deck=False``, a
    deck for each seat (the exact best response's assumption, so the result must agree with it)."""
    game = _Game(solution, RESOLUTIONS["full"], record=True)
    exact, _ = game.seat_value(seat)

    def block_pay(n: int) -> Floats:
        if isinstance(solution.game, TableGame):
            deal = deal_table(solution, n, rng, shared_deck)
        else:
            deal = deal_block(solution, n, rng, shared_deck)
        seats = [_PolicySeat(game.policy, deal, s) if s == seat else SolutionSeat(solution, s, deal, rng)
                 for s in range(len(deal.hands))]
        return play_table_block(solution, deal, seats, shared_deck)[:, seat]

    mean, se = monte_carlo(block_pay, deals, block)
    return CardRemoval(seat, deals, shared_deck, float(mean[0]), float(se[0]), exact)


class _PolicySeat:
    """The exploiter's seat at the table: its choices (``_Game.policy``) by deal class before and
    at the draw, its hold's cards, and by exact final strength after the draw."""

    def __init__(self, policy: dict[object, npt.NDArray], deal: Deal, seat: int) -> None:
        self.policy, self.hands, self.classes = policy, deal.hands[seat], deal.classes[seat]

    def pre(self, h: str, sel: Ints) -> Ints:
        return self.policy[("pre", h)][self.classes[sel]]

    def draw(self, q: int, row: Ints, sel: Ints) -> tuple[Ints, npt.NDArray[np.bool_]]:
        option = self.policy[("draw", q)][row, self.classes[sel]]
        table = self.policy[("hold", q)]                               # (rows, classes)
        return option, class_hold_cards(self.hands[sel], table.T, row)

    def post(self, q: int, h: str, row: Ints, final: Ints) -> Ints:
        return self.policy[("post", q, h)][row, final]
