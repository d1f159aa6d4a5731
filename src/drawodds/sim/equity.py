"""Showdown equity of each of our holds against opponents who draw by a policy.

Every hold is scored on the same opponent deals and the same replacement cards (common random
numbers), so the difference between two holds is estimated far more precisely than either
equity alone. Equity per trial = 1 for a win, 1/k for a k-way split, 0 for a loss.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.cards import unseen
from drawodds.errors import RequestError
from drawodds.evaluate import evaluate, key_sums, strength_from_keys
from drawodds.holds import exact_holds, final_strengths
from drawodds.policies import choose_holds, draw_policy
from drawodds.results import Result
from drawodds.rules import RuleSet
from drawodds.sim.ranges import sample_conditioned
from drawodds.sim.sampler import draws_avoiding, layout_for, shuffled_stubs
from drawodds.sim.stats import Moments

BATCH = 20_000


@dataclass(frozen=True)
class OpponentModel:
    """How the opponents are dealt and draw: a draw policy and, optionally, their draw counts.

    ``draw_counts`` (one per opponent) switches to hands conditioned on the public draw count
    (see ``sim/reading.py``); ``known`` gives each opponent a fixed hand they stand pat with;
    otherwise opponents get random hands and draw by ``policy``.
    """

    opponents: int
    policy: str = "standard"
    policy_params: tuple[tuple[str, float], ...] = ()
    draw_counts: tuple[int, ...] | None = None
    known: tuple[tuple[int, ...], ...] | None = None


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


def _deal(hand: npt.NDArray[np.int8], rules: RuleSet, model: OpponentModel, trials: int,
          rng: np.random.Generator) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """Opponents' final strengths (trials, n) and our replacement cards (trials, max draw)."""

    policy = draw_policy(model.policy, **dict(model.policy_params))
    n = model.opponents
    known = [c for h in model.known or () for c in h]
    stub = unseen([*hand.tolist(), *known], joker=rules.joker)
    layout = layout_for(rules, n, len(stub) + len(known))
    if model.known is not None:
        hands = np.broadcast_to(np.array(model.known, dtype=np.int8), (trials, n, 5))
        masks = np.ones((trials, n, 5), dtype=bool)
        rest = shuffled_stubs(stub, trials, layout.max_draw * (n + 1), rng)
    elif model.draw_counts is None:
        perm = shuffled_stubs(stub, trials, layout.cards_needed, rng)
        hands = np.stack([perm[:, layout.opponent_hand(i)] for i in range(n)], axis=1)
        masks = choose_holds(policy, hands.reshape(-1, 5), rules, rng).reshape(trials, n, 5)
        rest = perm[:, 5 * n:]
    else:

        hands, masks = sample_conditioned(rules, policy, model.draw_counts, hand, trials, rng)
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
    eq = (strengths > best_opp[:, None]).astype(np.float64)
    eq += (strengths == best_opp[:, None]) / split[:, None]
    moments = Moments()
    moments.add(eq)
    return moments


def _worker(args: tuple[Any, ...]) -> tuple[Moments, Mapping[str, Any]]:
    hand, masks, rules, model, trials, state = args
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = state
    m = Moments()
    for start in range(0, trials, BATCH):
        m.merge(_equity_batch(hand, masks, rules, model, min(BATCH, trials - start), rng))
    return m, rng.bit_generator.state


def hold_equities(hand: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_], rules: RuleSet,
                  model: OpponentModel, *, trials: int = 100_000, seed: int = 1, workers: int = 1,
                  se_target: float | None = None,
                  progress: Callable[[int, int], None] | None = None) -> EquityResult:
    """Monte Carlo equity of each hold (rows of ``masks``) against ``model``'s opponents.

    Trials run in rounds of ``BATCH`` per worker; each worker has its own stream from
    ``SeedSequence(seed).spawn(workers)``, so a seed and worker count always give the same
    numbers. With ``se_target`` the run stops once the best hold's lead over every other hold
    that is not clearly behind (within 3 SE) has a standard error of at most that value, or at
    ``trials``.
    """
    if model.opponents < 1:
        raise RequestError("equity needs at least one opponent")
    if workers < 1 or trials < 1:
        raise RequestError(f"equity needs at least one worker and one trial, got {workers} and {trials}")
    children = np.random.SeedSequence(seed).spawn(workers)
    states = [np.random.Generator(np.random.PCG64(c)).bit_generator.state for c in children]
    total = Moments()
    interrupted = False
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        while total.n < trials:
            per_worker = min(BATCH, -(-(trials - total.n) // workers))
            jobs = [(hand, masks, rules, model, per_worker, s) for s in states]
            try:
                results = list(pool.map(_worker, jobs)) if pool else [_worker(jobs[0])]
            except KeyboardInterrupt:
                # Keep what is done: the rounds so far are complete and unbiased.
                if total.n == 0:
                    raise
                interrupted = True
                break
            for m, _ in results:
                total.merge(m)
            states = [s for _, s in results]
            if progress:
                progress(total.n, trials)
            if se_target is not None and total.n >= 2 * BATCH and _separated(total, se_target):
                break
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    mean = total.mean()
    best = int(np.argmax(mean))
    return EquityResult(equity=mean, equity_se=total.se(), diff_se=total.diff_se(best), best=best,
                        trials=total.n, seed=seed, workers=workers, interrupted=interrupted)


def _separated(m: Moments, target: float) -> bool:
    """Whether every contender's difference to the best hold is known to ``target`` SE."""
    mean = m.mean()
    best = int(np.argmax(mean))
    se = m.diff_se(best)
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
