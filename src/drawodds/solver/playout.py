"""Playing a solution out with real cards, by Monte Carlo: the check on the whole chain and on card removal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds.evaluate import evaluate
from drawodds.solver.abstraction import hand_keep
from drawodds.solver.classes import class_hold_cards, classify
from drawodds.solver.game import betting_round
from drawodds.solver.solution import DrawSolution
from drawodds.solver.subsets import N_CARDS, Floats, Ints


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


def solution_keep(sol: DrawSolution, hands: Ints, q: int, seat: int, row: Ints, bucket: Ints, option: Ints,
                  rng: np.random.Generator) -> npt.NDArray[np.bool_]:
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
    return class_hold_cards(hands, np.concatenate([a.class_holds, a.alt_holds], axis=1), column)


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
    total = total_sq = 0.0
    done = 0
    while done < deals:
        n = min(block, deals - done)
        pay = _play_block(solution, n, rng, shared_deck, by_bucket)
        total += float(pay.sum())
        total_sq += float((pay * pay).sum())
        done += n
    mean = total / deals
    se = float(np.sqrt(max(total_sq / deals - mean * mean, 0.0) / deals))
    return Playout(deals, shared_deck, mean, se, solution.value[0])


def _play_block(sol: DrawSolution, n: int, rng: np.random.Generator, shared: bool, by_bucket: bool) -> Floats:
    """Seat 0's payoff (antes) in ``n`` deals played by the solution."""
    a, g = sol.abstraction, sol.game
    decks = [rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1)]
    if not shared:
        decks.append(rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1))
    hands = [np.sort(decks[0][:, :5], axis=1), np.sort(decks[-1][:, 5:10], axis=1)]
    stubs = [decks[0][:, 10:], decks[-1][:, 10:]]
    classes = [classify(h)[0] for h in hands]
    buckets = [a.class_bucket[c] for c in classes]
    pay = np.zeros(n)
    line_of = np.full(n, -1, dtype=np.int64)
    pre = betting_round(0, g.max_bets)
    where = np.zeros(n, dtype=np.int64)
    names = list(pre)
    index = {h: k for k, h in enumerate(names)}
    line_index = {ln.history: k for k, ln in enumerate(g.lines)}
    for h in names:
        node = pre[h]
        sel = np.flatnonzero(where == index[h])
        if len(sel) == 0:
            continue
        if node.end is not None:
            if node.end == "fold":
                folder = (len(h) - 1) % 2
                loss = 1 + node.put[folder] * g.small
                pay[sel] = -loss if folder == 0 else loss
            elif h in line_index:
                line_of[sel] = line_index[h]
            continue                                      # all check and redealt: a push
        seat = node.actor
        assert seat is not None
        s = sol.strategy[g.pre_nodes[h]]
        assert s is not None
        act = _sample(s[0, buckets[seat][sel]], rng.random(len(sel)))
        for k, x in enumerate(node.actions):
            where[sel[act == k]] = index[h + x]
    n_opt = len(a.options)
    for q, members in g.groups.items():
        pos_in_group = {m: k for k, m in enumerate(members)}
        sel = np.flatnonzero(np.isin(line_of, members))
        if len(sel) == 0:
            continue
        ln = np.array([pos_in_group[m] for m in line_of[sel]])
        n_q = len(members)
        finals: list[npt.NDArray[np.int16]] = []
        draws: list[Ints] = []
        stub_ptr = [np.zeros(len(sel), dtype=np.int64), np.zeros(len(sel), dtype=np.int64)]
        for seat in (0, 1):
            s = sol.strategy[g.draw_nodes[(q, seat)]]
            assert s is not None
            row = ln if seat == 0 else draws[0] * n_q + ln
            option = _sample(s[row, buckets[seat][sel]], rng.random(len(sel)))
            keep = solution_keep(sol, hands[seat][sel], q, seat, row, buckets[seat][sel], option, rng)
            if shared and seat == 1:
                stub_ptr[1] = stub_ptr[0]                  # seat 1 draws after seat 0 from one stub
            final, stub_ptr[seat] = _draw(hands[seat][sel], keep, stubs[seat][sel], stub_ptr[seat])
            finals.append(evaluate(final))
            draws.append(option)
        fb = [a.final_of_strength[f] for f in finals]
        row = (draws[1] * n_opt + draws[0]) * n_q + ln
        stake = np.array([g.lines[m].stake for m in members])[ln]
        post = betting_round(q, g.max_bets)
        where = np.zeros(len(sel), dtype=np.int64)
        names = list(post)
        index = {h: k for k, h in enumerate(names)}
        for h in names:
            node = post[h]
            at = np.flatnonzero(where == index[h])
            if len(at) == 0:
                continue
            if node.end == "fold":
                folder = (q + len(h) - 1) % 2
                loss = stake[at] + node.put[folder] * g.big
                pay[sel[at]] = -loss if folder == 0 else loss
                continue
            if node.end is not None:
                ours, theirs = (fb if by_bucket else finals)
                diff = np.sign(ours[at].astype(np.int64) - theirs[at])
                pay[sel[at]] = diff * (stake[at] + node.put[0] * g.big)
                continue
            seat = node.actor
            assert seat is not None
            s = sol.strategy[g.post_nodes[(q, h)]]
            assert s is not None
            act = _sample(s[row[at], fb[seat][at]], rng.random(len(at)))
            for k, x in enumerate(node.actions):
                where[at[act == k]] = index[h + x]
    return pay
