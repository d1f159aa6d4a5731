"""Showdown equity of each of our holds against opponents who draw by a policy.

Every hold is scored on the same opponent deals and the same replacement cards (common random
numbers), so the difference between two holds is estimated far more precisely than either
equity alone. Equity per trial = 1 for a win, 1/k for a k-way split, 0 for a loss.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from drawodds.cards import unseen
from drawodds.errors import RequestError
from drawodds.evaluate import evaluate, key_sums, strength_from_keys
from drawodds.execution import Runner, chunk_rng, chunk_sizes
from drawodds.holds import exact_holds, final_strengths
from drawodds.policies import choose_holds, draw_policy
from drawodds.results import Result
from drawodds.rules import RuleSet
from drawodds.sim.ranges import HoldingsSource, ranged, sample_conditioned
from drawodds.sim.sampler import draws_avoiding, layout_for, shuffled_stubs
from drawodds.sim.stats import Moments

CHUNK = 20_000   # trials per chunk: the unit of work and of random streams
ROUND = 4        # chunks between precision checks when stopping at a target standard error


@dataclass(frozen=True)
class OpponentModel:
    """How the opponents are dealt and draw: a draw policy and, optionally, their draw counts.

    ``draw_counts`` (one per opponent) switches to hands conditioned on the public draw count
    (see ``sim/ranges.py``); ``hand_range`` (a typed range, ``drawodds.handrange``) deals each
    opponent from that range; ``source`` replaces the policy by any holdings source (a solved
    strategy), or a tuple of them, one per opponent (the seats of a solved table); ``known``
    gives each opponent a fixed hand they stand pat with; otherwise opponents get random hands
    and draw by ``policy``.
    """

    opponents: int
    policy: str = "standard"
    policy_params: tuple[tuple[str, float], ...] = ()
    draw_counts: tuple[int, ...] | None = None
    known: tuple[tuple[int, ...], ...] | None = None
    hand_range: str | None = None
    source: HoldingsSource | tuple[HoldingsSource, ...] | None = None


@dataclass(frozen=True, repr=False)
class EquityResult(Result):
    """Equity of each hold with its standard error, and the SE of its difference to the best."""

    equity: npt.NDArray[np.float64]
    equity_se: npt.NDArray[np.float64]
    diff_se: npt.NDArray[np.float64]   # SE of (best hold's equity - this hold's equity)
    best: int
    trials: int
    seed: int
    workers: int
    interrupted: bool = False        # stopped by Ctrl-C: the figures cover the trials run so far

    def complete(self) -> EquityResult:
        """This result, for a caller that needs every trial it asked for: Ctrl-C goes on up
        (``KeyboardInterrupt``) instead of a figure from the trials run so far."""
        if self.interrupted:
            raise KeyboardInterrupt
        return self


def _deal(hand: npt.NDArray[np.int8], rules: RuleSet, model: OpponentModel, trials: int,
          rng: np.random.Generator) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """Opponents' final strengths (trials, n) and our replacement cards (trials, max draw)."""

    source = model.source
    policy = draw_policy(model.policy, **dict(model.policy_params)) if source is None else None
    n = model.opponents
    known = [c for h in model.known or () for c in h]
    stub = unseen([*hand.tolist(), *known], joker=rules.joker)
    layout = layout_for(rules, n, len(stub) + len(known))
    if model.known is not None:
        hands = np.broadcast_to(np.array(model.known, dtype=np.int8), (trials, n, 5))
        masks = np.ones((trials, n, 5), dtype=bool)
        rest = shuffled_stubs(stub, trials, layout.max_draw * (n + 1), rng)
    elif model.draw_counts is None and model.hand_range is None and source is None:
        perm = shuffled_stubs(stub, trials, layout.cards_needed, rng)
        hands = np.stack([perm[:, layout.opponent_hand(i)] for i in range(n)], axis=1)
        assert policy is not None
        masks = choose_holds(policy, hands.reshape(-1, 5), rules, rng).reshape(trials, n, 5)
        rest = perm[:, 5 * n:]
    else:
        assert source is not None or policy is not None
        source = ranged(source or policy, model.hand_range)  # type: ignore[arg-type]
        counts = model.draw_counts or (None,) * n
        hands, masks = sample_conditioned(rules, source, counts, hand, trials, rng)
        rest = draws_avoiding(stub, hands.reshape(trials, -1), layout.max_draw * (n + 1), rng)
    d = layout.max_draw
    ours = rest[:, :d]
    theirs = np.stack([rest[:, d * (i + 1): d * (i + 2)] for i in range(n)], axis=1)
    return final_strengths(hands, masks, theirs), ours


def _equity_batch(hand: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_], rules: RuleSet,
                  model: OpponentModel, trials: int, rng: np.random.Generator) -> Moments:
    """One batch of trials: per-trial equity of every hold, folded into running moments."""
    opp, ours = _deal(hand, rules, model, trials, rng)
    best_opp = opp.max(axis=1)
    split = (opp == best_opp[:, None]).sum(axis=1) + 1
    # All holds at once: each hold's kept-card key sum plus the prefix sum of our draw.
    kept = (masks * key_sums(hand[:, None])).sum(axis=1, dtype=np.uint32)
    prefix = np.zeros((trials, ours.shape[1] + 1), dtype=np.uint32)
    np.cumsum(key_sums(ours[..., None]), axis=1, out=prefix[:, 1:])
    sums = prefix[:, 5 - masks.sum(axis=1)] + kept
    strengths = strength_from_keys(sums.ravel()).reshape(sums.shape)
    # 1 for a win, 1/k for a k-way split, 0 for a loss: written in place (twice as fast as arithmetic).
    eq = np.zeros(strengths.shape)
    np.copyto(eq, (1.0 / split)[:, None], where=strengths == best_opp[:, None])
    eq[strengths > best_opp[:, None]] = 1.0
    moments = Moments()
    moments.add(eq)
    return moments


def _chunk(hand: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_], rules: RuleSet, model: OpponentModel,
           trials: int, seed: int, index: int) -> Moments:
    """Chunk ``index`` of a job: ``trials`` trials from that chunk's own random stream."""
    return _equity_batch(hand, masks, rules, model, trials, chunk_rng(seed, index))


def hold_equities(hand: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_], rules: RuleSet,
                  model: OpponentModel, *, trials: int = 100_000, seed: int = 1, workers: int | None = 1,
                  scheduler: str | None = None,
                  se_target: float | None = None, runner: Runner | None = None,
                  progress: Callable[[int, int], None] | None = None) -> EquityResult:
    """Monte Carlo equity of each hold (rows of ``masks``) against ``model``'s opponents.

    Trials run in chunks of ``CHUNK`` with streams from ``(seed, chunk index)``, combined in
    order, so a seed gives the same numbers on any number of workers (or a ``runner`` the
    caller started). With ``se_target`` the chunks run in rounds of ``ROUND`` and the run stops
    once the best hold's lead over every other hold that is not clearly behind (within 3 SE)
    has a standard error of at most that value, or at ``trials``.
    """
    if model.opponents < 1:
        raise RequestError("equity needs at least one opponent")
    if trials < 1:
        raise RequestError("equity needs at least one trial, got {trials}", trials=trials)
    sizes = chunk_sizes(trials, CHUNK)
    total = Moments()
    interrupted = False
    own = Runner(workers, scheduler) if runner is None else None
    with own or contextlib.nullcontext():
        run = own or runner
        assert run is not None
        step = ROUND if se_target is not None else len(sizes)
        for first in range(0, len(sizes), step):
            calls = [(hand, masks, rules, model, n, seed, first + i) for i, n in enumerate(sizes[first:first + step])]
            done = total.n

            def tick(k: int, calls: list[tuple] = calls, done: int = done) -> None:
                if progress is not None:
                    progress(done + sum(c[4] for c in calls[:k]), trials)

            batch = run.map(_chunk, calls, progress=tick)
            for m in batch.results:
                total.merge(m)
            if batch.interrupted:
                if total.n == 0:
                    raise KeyboardInterrupt
                interrupted = True
                break
            if se_target is not None and total.n >= 2 * CHUNK and _separated(total, se_target):
                break
        used = run.workers
    mean = total.mean()
    best = int(np.argmax(mean))
    return EquityResult(equity=mean, equity_se=total.se(), diff_se=total.diff_se(best), best=best,
                        trials=total.n, seed=seed, workers=used, interrupted=interrupted)


def _separated(m: Moments, target: float) -> bool:
    """Whether every contender's difference to the best hold is known to ``target`` SE."""
    mean, cov = m.mean(), m.cov()
    best = int(np.argmax(mean))
    se = np.sqrt(np.clip(np.diag(cov) + cov[best, best] - 2 * cov[:, best], 0, None) / m.n)
    contenders = (mean[best] - mean) <= 3 * np.maximum(se, 1e-12)
    contenders[best] = False
    return bool(np.all(se[contenders] <= target))


def equity_vs_known(hand: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_],
                    villain: Sequence[int], rules: RuleSet) -> npt.NDArray[np.float64]:
    """Exact equity of each hold against one opponent whose final hand is known and fixed.

    Used to check the Monte Carlo: enumerate our draws from the deck less both hands.
    """

    v = int(evaluate(np.asarray(villain, dtype=np.int8), joker=rules.joker))
    ex = exact_holds(hand, rules, masks=masks, dead=np.asarray(villain))
    per_strength = np.zeros(ex.counts.shape[1])
    per_strength[v + 1:] = 1.0
    per_strength[v] = 0.5
    return ex.value(per_strength)
