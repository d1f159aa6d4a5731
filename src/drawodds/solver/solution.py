"""The solution: an approximate equilibrium of the abstract game, its one-hand lookups and its tables."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from drawodds.evaluate import evaluate
from drawodds.rules import RuleError, RuleSet
from drawodds.solver import cfr, store
from drawodds.solver.abstraction import Abstraction, hand_keep
from drawodds.solver.cache import cached_abstraction
from drawodds.solver.classes import class_hold_cards, classify
from drawodds.solver.game import ACTION_NAMES, GameTree, _draw_names, build_game
from drawodds.solver.hand_kinds import HAND_KINDS, hand_kinds
from drawodds.solver.subsets import Floats


@dataclass(frozen=True)
class DrawSolution:
    """An approximate equilibrium of heads-up draw in the abstract game, with its exact
    evaluation. Seat 0 sits left of the dealer (acts and draws first); seat 1 is the dealer.
    Values and exploitability are in antes per deal."""

    rules: RuleSet
    abstraction: Abstraction = field(repr=False)
    game: GameTree = field(repr=False)
    strategy: tuple[Floats | None, ...] = field(repr=False)     # per tree node (rows, states, actions)
    value: tuple[float, float]
    exploitability: float
    nash_conv: float
    iterations: int
    seconds: float                       # CFR time (exploitability checks excluded)
    abstraction_seconds: float
    schedule: str
    raises: int
    curve: tuple[cfr.Checkpoint, ...] = field(repr=False)
    interrupted: bool = False            # stopped by Ctrl-C before its limits

    @property
    def infosets(self) -> int:
        """Information sets of both seats in the abstract game."""
        return sum(self.game.tree.infosets)

    # playing one hand ----------------------------------------------------------------------

    def _bucket(self, hand: npt.ArrayLike) -> int:
        cls, _ = classify(np.sort(np.asarray(hand, dtype=np.int64)).reshape(1, 5))
        return int(self.abstraction.class_bucket[cls[0]])

    def predraw_probabilities(self, hand: npt.ArrayLike, history: str) -> dict[str, float]:
        """Before the draw: the action probabilities of the seat to act after ``history`` (x b r
        c f letters from seat 0's first action) holding ``hand`` (five card codes)."""
        node = self.game.pre_nodes[history]
        decision = self.game.tree.nodes[node]
        assert isinstance(decision, cfr.Decision)
        s = self.strategy[node]
        assert s is not None
        return dict(zip(decision.actions, s[0, self._bucket(hand)].tolist(), strict=True))

    def _group_row(self, predraw: str) -> tuple[int, int]:
        g = self.game
        line = next(i for i, ln in enumerate(g.lines) if ln.history == predraw)
        q = g.lines[line].first_after
        return q, g.groups[q].index(line)

    def draw_probabilities(self, hand: npt.ArrayLike, predraw: str, seat: int,
                           opponent_draw: int | None = None) -> dict[int, float]:
        """The draw: probability of each draw count for ``seat`` holding ``hand`` after the
        pre-draw line ``predraw``; seat 1 draws second and sees seat 0's ``opponent_draw``."""
        q, row = self._group_row(predraw)
        if seat == 1:
            assert opponent_draw is not None, "seat 1 draws after seeing seat 0's draw"
            row += self.abstraction.options.index(opponent_draw) * len(self.game.groups[q])
        s = self.strategy[self.game.draw_nodes[(q, seat)]]
        assert s is not None
        return dict(zip(self.abstraction.options, s[row, self._bucket(hand)].tolist(), strict=True))

    def keep(self, hand: npt.ArrayLike, draw: int, second: bool = False) -> npt.NDArray[np.bool_]:
        """Which of ``hand``'s cards (in the order given) the solution keeps when drawing ``draw``
        (with ``second``, its second hold for that count, where the abstraction offers one)."""
        cards = np.asarray(hand, dtype=np.int64)
        order = np.argsort(cards)
        a = self.abstraction
        option = np.array([a.options.index(draw)])
        if second and a.alt_holds is not None:
            kept_sorted = class_hold_cards(cards[order].reshape(1, 5), a.alt_holds, option)[0]
        else:
            kept_sorted = hand_keep(cards[order].reshape(1, 5), a, option)[0]
        out = np.empty(5, dtype=bool)
        out[order] = kept_sorted
        return out

    def postdraw_probabilities(self, hand: npt.ArrayLike, predraw: str, draws: tuple[int, int],
                               history: str) -> dict[str, float]:
        """After the draw: the action probabilities of the seat to act after ``history`` (from the
        first action after the draw) holding the final ``hand``, when seat 0 drew ``draws[0]``
        and seat 1 ``draws[1]`` cards after the pre-draw line ``predraw``."""
        a, g = self.abstraction, self.game
        q, line = self._group_row(predraw)
        n, n_opt = len(g.groups[q]), len(a.options)
        row = (a.options.index(draws[1]) * n_opt + a.options.index(draws[0])) * n + line
        node = g.post_nodes[(q, history)]
        decision = g.tree.nodes[node]
        assert isinstance(decision, cfr.Decision)
        s = self.strategy[node]
        assert s is not None
        final = int(a.final_of_strength[int(evaluate(np.asarray(hand).reshape(1, 5))[0])])
        return dict(zip(decision.actions, s[row, final].tolist(), strict=True))

    def save(self, path: str | Path) -> Path:
        """Write the solution to a Parquet file (see ``save_solution``)."""
        return save_solution(self, path)

    def curve_frame(self) -> pd.DataFrame:
        """Exploitability (antes and milli-antes per deal) after each checkpoint."""
        return pd.DataFrame({"iteration": [c.iteration for c in self.curve],
                             "seconds": [c.seconds for c in self.curve],
                             "value_seat0": [c.value for c in self.curve],
                             "exploitability": [c.exploitability for c in self.curve],
                             "milli_antes": [1000 * c.exploitability for c in self.curve]})

    def to_dict(self) -> dict[str, object]:
        """The summary a program reads (field names are a contract)."""
        return {"rules": self.rules.name, "value": [self.value[0], self.value[1]],
                "exploitability": self.exploitability,
                "exploitability_milli_antes": 1000 * self.exploitability, "nash_conv": self.nash_conv,
                "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "infosets": self.infosets, "infosets_per_seat": list(self.game.tree.infosets),
                "abstraction_seconds": round(self.abstraction_seconds, 3), "schedule": self.schedule,
                "raises": self.raises, "interrupted": self.interrupted, "abstraction": self.abstraction.summary(),
                "curve": [{"iteration": c.iteration, "seconds": round(c.seconds, 3), "value": c.value,
                           "exploitability": c.exploitability} for c in self.curve]}

    # tables ------------------------------------------------------------------------------

    @functools.cached_property
    def _reach(self) -> tuple[list[Floats], list[Floats]]:
        tree, strategy = self.game.tree, list(self.strategy)
        return (cfr.reach_probabilities(tree, strategy, 0), cfr.reach_probabilities(tree, strategy, 1))

    def _joint(self, seat: int, node: int) -> Floats:
        """(rows, states) probability that a deal gives ``seat`` each private state and play
        reaches each row of ``node`` (chance and both seats' strategies)."""
        return joint_reach(self._reach, seat, node)

    def predraw_table(self) -> pd.DataFrame:
        """Before the draw: each seat's action probabilities at every point of the betting, by
        pre-draw bucket; ``reach`` is the chance that play gets there when dealt the bucket."""
        a, g = self.abstraction, self.game
        labels = a.bucket_labels()
        frames = []
        for history, i in g.pre_nodes.items():
            node = g.tree.nodes[i]
            assert isinstance(node, cfr.Decision)
            seat = node.player
            s = self.strategy[i]
            assert s is not None
            reach = self._joint(seat, i)[0] / a.prior
            cols = {"seat": seat, "line": _line_words(history), "bucket": np.arange(a.pre_buckets),
                    "hand": labels, "pattern": [a.pattern_names[p] for p in a.pattern],
                    "chance": a.prior, "reach": reach}
            for k, name in enumerate(node.actions):
                cols[name] = s[0, :, k]
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def draw_table(self) -> pd.DataFrame:
        """The draw: probability of each draw count by pre-draw bucket, betting line and (for
        seat 1, who draws second) seat 0's draw count."""
        a, g = self.abstraction, self.game
        labels = np.asarray(a.bucket_labels(), dtype=object)
        patterns = np.asarray([a.pattern_names[p] for p in a.pattern], dtype=object)
        frames = []
        for (q, seat), i in g.draw_nodes.items():
            members = np.asarray(g.groups[q])
            s = self.strategy[i]
            assert s is not None
            rows, n_b = s.shape[0], a.pre_buckets
            n = len(members)
            row = np.repeat(np.arange(rows), n_b)
            cols = {"seat": seat,
                    "line": np.asarray([_line_words(g.lines[m].history) for m in members], dtype=object)[row % n],
                    "opponent_draw": -1 if seat == 0 else np.asarray(a.options)[row // n],
                    "bucket": np.tile(np.arange(n_b), rows), "hand": np.tile(labels, rows),
                    "pattern": np.tile(patterns, rows), "chance": np.tile(a.prior, rows),
                    "reach": (self._joint(seat, i) / a.prior).ravel()}
            for k, name in enumerate(_draw_names(a)):
                cols[name] = s[:, :, k].ravel()
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def postdraw_table(self) -> pd.DataFrame:
        """After the draw: action probabilities by final bucket at every point of the betting,
        for every pre-draw line and pair of draw counts; ``reach`` is the chance per deal of
        getting there with that final bucket."""
        a, g = self.abstraction, self.game
        final = np.asarray(a.final_labels(), dtype=object)
        n_opt, n_f = len(a.options), a.final_buckets
        options = np.asarray(a.options)
        frames = []
        for (q, history), i in g.post_nodes.items():
            node = g.tree.nodes[i]
            assert isinstance(node, cfr.Decision)
            seat = node.player
            members = np.asarray(g.groups[q])
            n = len(members)
            s = self.strategy[i]
            assert s is not None
            row = np.repeat(np.arange(node.rows), n_f)
            d0, d1 = options[(row // n) % n_opt], options[row // (n * n_opt)]
            cols = {"seat": seat,
                    "predraw": np.asarray([_line_words(g.lines[m].history) for m in members], dtype=object)[row % n],
                    "line": _line_words(history), "first": q == seat,
                    "own_draw": d0 if seat == 0 else d1, "opponent_draw": d1 if seat == 0 else d0,
                    "final": np.tile(np.arange(n_f), node.rows), "hand": np.tile(final, node.rows),
                    "reach": self._joint(seat, i).ravel()}
            for k, name in enumerate(node.actions):
                cols[name] = s[:, :, k].ravel()
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def predraw_summary(self) -> pd.DataFrame:
        """Before the draw, by seat, betting so far and kind of dealt hand: how often each action
        is taken when the hand gets there, and how often it does."""
        a, g = self.abstraction, self.game
        kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
        w = a.class_weights.astype(np.float64)
        b = a.class_bucket
        rows = []
        for history, i in g.pre_nodes.items():
            node = g.tree.nodes[i]
            assert isinstance(node, cfr.Decision)
            s = self.strategy[i]
            assert s is not None
            reach = self._joint(node.player, i)[0] / a.prior
            for name in HAND_KINDS:
                sel = kind == name
                wr = w[sel] * reach[b[sel]]
                row: dict[str, object] = {"seat": node.player, "line": _line_words(history), "hand": name,
                                          "reaches": wr.sum() / w[sel].sum()}
                for k, act in enumerate(node.actions):
                    row[act] = (wr * s[0, b[sel], k]).sum() / max(wr.sum(), 1e-300)
                rows.append(row)
        return pd.DataFrame(rows)

    def draw_summary(self) -> pd.DataFrame:
        """How each kind of dealt hand draws, over every line that reaches the draw: the share
        of deals, how often the hand gets to the draw, and then how often it stands pat (snows,
        with nothing) or draws 1, 2, 3 cards. Rows: the ``HAND_KINDS`` of each seat."""
        return seat_draw_summary(self.abstraction, self.game, self.strategy, self._reach)

    def postdraw_summary(self) -> pd.DataFrame:
        """After the draw, by situation (betting so far), final bucket and the opponent's draw
        count: action probabilities averaged over the lines and own draws that reach them."""
        table = self.postdraw_table()
        actions = [c for c in ("check", "bet", "fold", "call", "raise") if c in table]
        weighted = table[actions].mul(table["reach"], axis=0).fillna(0.0)
        weighted[["line", "first", "opponent_draw", "final", "hand", "reach"]] = \
            table[["line", "first", "opponent_draw", "final", "hand", "reach"]]
        grouped = weighted.groupby(["line", "first", "opponent_draw", "final", "hand"], sort=False).sum()
        out = grouped[actions].div(grouped["reach"].where(grouped["reach"] > 0), axis=0)
        out["reach"] = grouped["reach"]
        return out.reset_index()


def _line_words(history: str) -> str:
    """A betting history in words from the first actor, e.g. ``check, bet, call``."""
    return ", ".join(ACTION_NAMES[a] for a in history) or "first to act"


def save_solution(solution: DrawSolution, path: str | Path) -> Path:
    """Write the solution to a Parquet file (``store.write_solution``): its strategy, one row per
    (decision, row, private state, action), and a record of the settings that rebuild its abstraction."""
    a = solution.abstraction
    record = store.StoredSolution(solution.rules, a.settings, a.pre_buckets, a.final_buckets, solution.raises,
                                  solution.value, solution.exploitability, solution.nash_conv, solution.iterations,
                                  solution.seconds, solution.abstraction_seconds, solution.schedule,
                                  solution.interrupted, solution.curve)
    return store.write_solution(path, solution.game, solution.strategy, record)


def load_solution(path: str | Path, *, directory: Path | None = None) -> DrawSolution:
    """Read a solution written by ``save_solution``, checked in full first (``store.read_solution``):
    a damaged or edited file is a ``SolutionFileError`` before anything is built from it. Its
    abstraction is rebuilt from the stored settings (or read from the cache)."""
    stored = store.read_solution(path)
    if stored.players != 2:
        raise store.unusable(path, f"it is a solution for {stored.players} players, not heads-up")
    a = cached_abstraction(stored.rules, *stored.settings, directory=directory)
    if (a.pre_buckets, a.final_buckets) != (stored.pre_draw_buckets, stored.final_buckets):
        raise store.unusable(path, "its bucket counts do not match its settings")
    try:
        game = build_game(a, stored.raises)
    except RuleError as exc:
        raise store.unusable(path, "its raise cap does not fit its rules") from exc
    strategy = store.strategy_of(stored, game, path)
    return DrawSolution(stored.rules, a, game, strategy, (stored.value[0], stored.value[1]),
                        stored.exploitability, stored.nash_conv, stored.iterations, stored.seconds,
                        stored.abstraction_seconds, stored.schedule, stored.raises, stored.curve, stored.interrupted)


def joint_reach(reach: Sequence[list[Floats]], seat: int, node: int) -> Floats:
    """(rows, states) probability that a deal gives ``seat`` each private state and play reaches
    each row of ``node``: its own reach times every other seat's, summed over their states (the
    seats are dealt independently in the model)."""
    out = reach[seat][node]
    for other, theirs in enumerate(reach):
        if other != seat:
            out = out * theirs[node].sum(axis=1, keepdims=True)
    return out


def seat_draw_summary(a: Abstraction, g: Any, strategy: Sequence[Floats | None], reach: Sequence[list[Floats]]
                      ) -> pd.DataFrame:
    """How each kind of dealt hand draws in each seat of a solved game (heads-up or at a table),
    over every line that reaches the draw and every draw before it: the share of deals, how often
    the hand gets to the draw, and how often it stands pat or draws 1, 2, 3 cards."""
    rows = []
    cls_weight = a.class_weights.astype(np.float64)
    b = a.class_bucket
    kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
    for seat in range(len(reach)):
        mix = np.zeros((a.pre_buckets, len(a.options)))
        got = np.zeros(a.pre_buckets)
        for (_, s_), i in g.draw_nodes.items():
            if s_ != seat:
                continue
            r = joint_reach(reach, seat, i)
            s = strategy[i]
            assert s is not None
            mix += (r[:, :, None] * s).sum(axis=0)
            got += r.sum(axis=0)
        probs = mix / np.maximum(got, 1e-300)[:, None]
        chance = got / a.prior
        for name in HAND_KINDS:
            sel = kind == name
            w = cls_weight[sel]
            wr = w * chance[b[sel]]
            row = {"seat": seat, "hand": name, "share": w.sum() / cls_weight.sum(),
                   "reaches_draw": wr.sum() / w.sum()}
            for k, d in enumerate(a.options):
                row["pat" if d == 0 else f"draw {d}"] = (wr * probs[b[sel], k]).sum() / max(wr.sum(), 1e-300)
            rows.append(row)
    return pd.DataFrame(rows)
