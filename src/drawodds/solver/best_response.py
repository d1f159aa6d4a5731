"""Exact best responses to a solved heads-up strategy, in the abstract game or in the real one.

The solution plays as it does at the table: its pre-draw bucket from the dealt hand, its bucket's
hold for the draw count it picks (one of two, by its private choice, where it has two), its final
bucket after the draw. The exploiter is allowed more,
step by step (``RESOLUTIONS``):

- ``abstract``: it knows only what the solution knows (buckets, the buckets' holds, final
  buckets, showdown by final bucket): the abstract game's own best response.
- ``final``: it also knows its exact final hand, and the showdown is by true strength.
- ``class``: it also decides before and at the draw by its exact deal class.
- ``full``: it also keeps any legal cards for the draw count it picks.

As in the solver, the two hands are dealt independently (no card removal between them). Every
expectation is exact (``expectations``: a value per final strength averaged over every draw of
every hold of every deal class).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from drawodds.evaluate import evaluate, jacks_or_better_floor
from drawodds.solver.abstraction import legal_hold_table
from drawodds.solver.classes import class_hold_cards
from drawodds.solver.expectations import best_hold_expectations, hold_expectations, strength_spread, subset_tables
from drawodds.solver.game import betting_round
from drawodds.solver.hand_kinds import hand_kinds
from drawodds.solver.playout import Deal, SolutionSeat, deal_block, play_block
from drawodds.solver.subsets import N_STRENGTHS

if TYPE_CHECKING:
    import pandas as pd

    from drawodds.solver.solution import DrawSolution

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


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


class _Game:
    """The pieces of one best-response computation: the solution, what the exploiter knows, and
    the tables behind exact expectations."""

    def __init__(self, solution: DrawSolution, res: Resolution, play: tuple[bool, bool, bool] = (True, True, True),
                 reach_cache: dict[tuple[int, int], Floats] | None = None) -> None:
        self.sol, self.res = solution, res
        self.reach_cache = {} if reach_cache is None else reach_cache    # (opponent, group) -> post-draw reach
        self.best_pre, self.best_draw, self.best_post = play      # False: the exploiter plays the solution there
        a = solution.abstraction
        self.a, self.g = a, solution.game
        self.n_opt = len(a.options)
        self.w = a.class_weights.astype(np.float64)
        self.bucket_mass = np.bincount(a.class_bucket, weights=self.w, minlength=a.pre_buckets)
        self.t = subset_tables() if res.strengths else None
        self.expand = a.final_of_strength if res.strengths else None
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

    # the opponent's reach -------------------------------------------------------------------

    def _predraw_reach(self, opp: int) -> dict[str, Floats]:
        """Chance and the opponent's own pre-draw choices: its reach per bucket at every history."""
        s, g = self.sol, self.g
        out: dict[str, Floats] = {}
        round_ = betting_round(0, g.max_bets)

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

    def _post_reach(self, opp: int, q: int, line_reach: list[Floats]) -> Floats:
        """(rows, states) the opponent's reach at the first post-draw node of group ``q``, rows
        ordered (seat 1's draw, seat 0's draw, line) as in the game tree."""
        a, g, n_opt = self.a, self.g, self.n_opt
        n = len(line_reach)
        draw = self.sol.strategy[g.draw_nodes[(q, opp)]]
        assert draw is not None
        weights = np.zeros((n_opt, n_opt, n, a.pre_buckets))    # (o1, o0, line, bucket)
        for o0 in range(n_opt):
            for o1 in range(n_opt):
                for ln in range(n):
                    if opp == 0:
                        weights[o1, o0, ln] = line_reach[ln] * draw[ln, :, o0]
                    else:
                        weights[o1, o0, ln] = line_reach[ln] * draw[o0 * n + ln, :, o1]
        n_states = N_STRENGTHS if self.res.strengths else a.final_buckets
        out = np.zeros((n_opt, n_opt, n, n_states))
        for k, d in enumerate(a.options):
            sel = weights[:, k] if opp == 0 else weights[k]           # rows where the opponent draws d
            choice = self._choice(opp, q, k)
            moved = np.zeros((n_opt * n, n_states))
            columns = list(zip(a.hold_columns(k), a.hold_transitions(k), strict=True))
            for v, (holds, matrix) in enumerate(columns if choice is not None else columns[:1]):
                part = sel
                if choice is not None:
                    part = sel * (choice[None, :, :, v] if opp == 0 else choice[:, :, v].reshape(n_opt, n, -1))
                flat = part.reshape(-1, a.pre_buckets)
                if self.res.strengths:
                    assert self.t is not None
                    per_class = flat[:, a.class_bucket] * (self.w / self.bucket_mass[a.class_bucket])[None, :]
                    ok = holds >= 0
                    if ok.any():
                        moved += strength_spread(self.t, per_class[:, ok], holds[ok], d, np.flatnonzero(ok))
                else:
                    moved += flat @ matrix
            if opp == 0:
                out[:, k] = moved.reshape(n_opt, n, n_states)
            else:
                out[k] = moved.reshape(n_opt, n, n_states)
        return out.reshape(n_opt * n_opt * n, n_states)

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

    def _post_values(self, seat: int, q: int, opp_reach: Floats, stake: Floats) -> Floats:
        """(rows, states) the exploiter's counterfactual value at the first post-draw node."""
        g, sol, expand = self.g, self.sol, self.expand
        round_ = betting_round(q, g.max_bets)
        sign = 1.0 if seat == 0 else -1.0

        def visit(h: str, reach: Floats) -> Floats:
            node = round_[h]
            if node.end == "fold":
                folder = (q + len(h) - 1) % 2
                loss = stake + node.put[folder] * g.big
                pay0 = -loss if folder == 0 else loss
                return np.broadcast_to((sign * pay0 * reach.sum(axis=1))[:, None], reach.shape)
            if node.end is not None:
                cum = np.cumsum(reach, axis=1)
                total = cum[:, -1:]
                below = cum - reach
                return (stake + node.put[0] * g.big)[:, None] * (below - (total - cum))
            strat = sol.strategy[g.post_nodes[(q, h)]]
            assert strat is not None
            if expand is not None:
                strat = strat[:, expand, :]
            if node.actor == seat and self.best_post:
                kids = np.stack([visit(h + act, reach) for act in node.actions])
                self.policy[("post", q, h)] = kids.argmax(axis=0)
                return kids.max(axis=0)
            if node.actor == seat:
                mixed = np.zeros(reach.shape)
                for k, act in enumerate(node.actions):
                    mixed = mixed + strat[:, :, k] * visit(h + act, reach)
                return mixed
            out = np.zeros(reach.shape)
            for k, act in enumerate(node.actions):
                out = out + visit(h + act, reach * strat[:, :, k])
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
            return self._hold_values(vectors, k, None, None)
        columns = a.hold_columns(k)
        values = np.stack([self._hold_values(vectors, k, holds, matrix)
                           for holds, matrix in zip(columns, a.hold_transitions(k), strict=True)])
        if len(columns) == 1:
            self.holds_of[k] = np.broadcast_to(columns[0], (len(vectors), len(columns[0])))
            return values[0]
        if self.best_draw:
            pick = values.argmax(axis=0)
            if self.res.classes:
                self.holds_of[k] = np.where(pick == 1, columns[1][None, :], columns[0][None, :])
            return values.max(axis=0)
        choice = self._choice(seat, q, k)
        assert choice is not None
        mix = np.moveaxis(choice[:, self.own_bucket, :], 2, 0)          # (holds, vectors, groups)
        return np.where(mix > 0, mix * np.where(np.isfinite(values), values, 0.0), 0.0).sum(axis=0) + \
            np.where(np.isfinite(values[0]), 0.0, -np.inf)

    def _hold_values(self, vectors: Floats, k: int, holds: Ints | None, matrix: Floats | None) -> Floats:
        """``_draw_values`` for one hold per class (``holds``, their bucket transitions ``matrix``),
        or with None any hold (free holds)."""
        a, d = self.a, self.a.options[k]
        if not self.res.strengths:
            assert matrix is not None
            out = vectors @ matrix.T
            out[:, ~a.legal_draws[:, k]] = -np.inf
            return out
        assert self.t is not None
        vt = np.ascontiguousarray(vectors.T)
        if holds is None:
            assert self._legal_holds is not None
            per_class, masks = best_hold_expectations(self.t, vt, d, self._legal_holds)
            self.holds_of[k] = masks.T
        else:
            ok = holds >= 0
            per_class = np.full((len(self.w), len(vectors)), -np.inf)
            if ok.any():
                per_class[ok] = hold_expectations(self.t, vt, holds[ok], d, np.flatnonzero(ok))
        if self.res.classes:
            return np.ascontiguousarray(per_class.T)
        legal = a.legal_draws[:, k]
        filled = np.where(np.isfinite(per_class), per_class, 0.0) * (self.w / self.bucket_mass[a.class_bucket])[:, None]
        out = np.stack([np.bincount(a.class_bucket, weights=filled[:, i], minlength=a.pre_buckets)
                        for i in range(len(vectors))])
        out[:, ~legal] = -np.inf
        return out

    def _line_values(self, seat: int, q: int, post: Floats) -> Floats:
        """(lines of group q, groups) the exploiter's value on reaching the draw after each line."""
        n_opt = self.n_opt
        n = post.shape[0] // (n_opt * n_opt)
        v = post.reshape(n_opt, n_opt, n, -1)                 # (o1, o0, line, state)
        if seat == 0:
            summed = v.sum(axis=0)                            # seat 0 does not see seat 1's draw
            values = np.stack([self._draw_values(summed[k], k, seat, q) for k in range(n_opt)])  # (option, line, group)
        else:
            values = np.stack([self._draw_values(v[k].reshape(n_opt * n, -1), k, seat, q) for k in range(n_opt)])
        if self.best_draw:
            best = values.max(axis=0)
            if self.res.classes and self.res.strengths:
                option = values.argmax(axis=0)                       # (rows, class)
                holds = np.stack([self.holds_of[k] for k in range(n_opt)])
                self.policy[("draw", q)] = option
                self.policy[("hold", q)] = np.take_along_axis(holds, option[None], axis=0)[0]
        else:
            own = self.sol.strategy[self.g.draw_nodes[(q, seat)]]
            assert own is not None
            mix = np.moveaxis(own[:, self.own_bucket, :], 2, 0)          # (option, rows, group)
            best = np.where(mix > 0, mix * np.where(np.isfinite(values), values, 0.0), 0.0).sum(axis=0)
        return best if seat == 0 else best.reshape(n_opt, n, -1).sum(axis=0)    # seat 1 sees seat 0's draw

    # before the draw ------------------------------------------------------------------------

    def seat_value(self, seat: int) -> tuple[float, Floats]:
        """The exploiter's best-response value in ``seat`` and its value per group."""
        g, opp = self.g, 1 - seat
        reach = self._predraw_reach(opp)
        at_draw: dict[str, Floats] = {}
        for q, members in g.groups.items():
            lines = [g.lines[m] for m in members]
            n = len(lines)
            if (opp, q) not in self.reach_cache:
                self.reach_cache[(opp, q)] = self._post_reach(opp, q, [reach[ln.history] for ln in lines])
            post_reach = self.reach_cache[(opp, q)]
            stake = np.tile(np.array([ln.stake for ln in lines]), self.n_opt * self.n_opt)
            post = self._post_values(seat, q, post_reach, stake)
            values = self._line_values(seat, q, post)
            for i in range(n):
                at_draw[lines[i].history] = values[i]
        round_ = betting_round(0, g.max_bets)
        sign = 1.0 if seat == 0 else -1.0
        n_groups = len(self.prior)
        small = g.small

        def visit(h: str) -> Floats:
            node = round_[h]
            if node.end == "fold":
                folder = (len(h) - 1) % 2
                loss = 1 + node.put[folder] * small
                return np.full(n_groups, sign * (-loss if folder == 0 else loss) * reach[h].sum())
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
            self.policy[("pre", h)] = stacked.argmax(axis=0)
            return stacked.max(axis=0)

        root = visit("")
        return float(self.prior @ root), self.prior * root



LEAK_STAGES = ("before the draw", "at the draw", "after the draw")


def leaks(solution: DrawSolution) -> pd.DataFrame:
    """Where a perfect exploiter in the real game gains against ``solution``: by seat, kind of
    dealt hand and where it plays differently (its betting before the draw; its draw count and
    the cards it keeps; its betting after the draw), in milli-antes per deal. Each row is a share
    of the real exploitability (the mean over the seats): the column sums to it.

    The stages telescope: the solution's own play in the real game; the exploiter's play after
    the draw only; from the draw on; everywhere (``best_response(..., "full")``)."""
    import pandas as pd

    a = solution.abstraction
    full = RESOLUTIONS["full"]
    kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
    rows = []
    cache: dict[tuple[int, int], Floats] = {}
    for seat in (0, 1):
        steps = [_Game(solution, full, play, cache).seat_value(seat)[1]
                 for play in ((False, False, False), (False, False, True), (False, True, True), (True, True, True))]
        for stage, lo, hi in zip(reversed(LEAK_STAGES), steps[:-1], steps[1:], strict=True):
            gain = 500 * (hi - lo)                       # half: a share of the mean over the seats, in mA
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


def card_removal(solution: DrawSolution, seat: int, deals: int, rng: np.random.Generator, *,
                 shared_deck: bool = True, block: int = 50_000) -> CardRemoval:
    """Play the full best response of ``seat`` against the solution with real cards: from one
    deck (the table: card removal counts) or, with ``shared_deck=False``, a deck for each seat
    (the exact best response's assumption, so the result must agree with it)."""
    game = _Game(solution, RESOLUTIONS["full"])
    exact, _ = game.seat_value(seat)
    total = total_sq = 0.0
    done = 0
    while done < deals:
        n = min(block, deals - done)
        deal = deal_block(solution, n, rng, shared_deck)
        seats = tuple(_PolicySeat(game.policy, deal, s) if s == seat else SolutionSeat(solution, s, deal, rng)
                      for s in (0, 1))
        pay = play_block(solution, deal, (seats[0], seats[1]), shared_deck) * (1.0 if seat == 0 else -1.0)
        total += float(pay.sum())
        total_sq += float((pay * pay).sum())
        done += n
    mean = total / deals
    se = float(np.sqrt(max(total_sq / deals - mean * mean, 0.0) / deals))
    return CardRemoval(seat, deals, shared_deck, mean, se, exact)


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
