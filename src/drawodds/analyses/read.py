"""Read an opponent's draw count: their holding before the draw, their final hand, our equity.

The range itself (the exact posterior over every holding, conditioned sampling) lives in
``drawodds.sim.ranges``; this module puts it together for one draw count and scores our holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb

import numpy as np
import numpy.typing as npt

from drawodds.cards import as_hand, format_cards
from drawodds.errors import READ_TRIALS, Bound, RequestError, check_name, check_rate, check_seed
from drawodds.evaluate import CATEGORIES
from drawodds.execution import Progress
from drawodds.handrange import parse_range
from drawodds.holds import legal_holds
from drawodds.policies import DrawPolicy, draw_policy
from drawodds.results import Result, shown_as
from drawodds.rules import RuleSet, preset
from drawodds.sim.equity import OpponentModel, hold_equities
from drawodds.sim.ranges import (
    EXACT_BUDGET,
    HoldingsSource,
    SolvedPlay,
    as_source,
    final_exact,
    final_sampled,
    posterior,
    source_holdings,
)
from drawodds.sim.stats import proportion_se


@dataclass(frozen=True, repr=False)
class HoldEquity(Result):
    """Our equity with one hold against the reading's opponent (Monte Carlo)."""

    keep: list[str]
    discard: list[str]
    draw: int
    equity: float
    equity_se: float


@dataclass(frozen=True, repr=False)
class DrawReading(Result):
    """What one opponent's draw count says, under a policy and rule set."""

    draw: int
    policy: str
    rules: str
    range: str                      # the opponent's pre-draw range (policy.min_hand)
    p_draw: float                   # prior probability that such a player draws this many
    holding: dict[str, float]       # exact posterior of the pre-draw holding, by pattern
    final: dict[str, float]         # distribution of the final hand, by category
    final_se: dict[str, float]      # standard errors (0.0 when exact)
    final_method: str               # "exact" or "monte carlo"
    trials: int | None = field(metadata=shown_as(name="final_trials"))   # samples of the final hand
    seed: int | None
    hand: list[str] | None = None
    equity: tuple[HoldEquity, ...] = field(default=(), metadata=shown_as(lambda e: list(e) or None))
    equity_trials: int | None = None
    interrupted: bool = False       # Ctrl-C cut the equity Monte Carlo short: it covers the trials run
    hand_range: str | None = None   # the typed range the dealt hands are restricted to
    line: str | None = None         # the solved range's betting line (policy "equilibrium")
    seat: str | None = None         # the solved opponent's seat: first (left of the dealer), second or dealer
    our_draw: int | None = None     # what we drew before a solved dealer drew
    solved_players: int | None = None   # the players of the solution the solved opponent comes from
    drawn_before: tuple[int, ...] = field(default=(), metadata=shown_as(lambda v: list(v) or None))


def read_draw(draw: int, *, policy: DrawPolicy | str | SolvedPlay = "standard", rules: RuleSet | str = "morkpoker",
              hand: str | Sequence[int] | npt.NDArray[np.integer] | None = None, opener: bool = False,
              hand_range: str | None = None, snow: float = 0.0, break_rate: float = 0.0,
              trials: int = 100_000, seed: int = 1, equity_trials: int | None = None,
              exact_budget: int = EXACT_BUDGET, workers: int | None = None,
              progress: Progress | None = None) -> DrawReading:
    """Read one opponent's draw count: posterior holding, final hand, and our equity per hold.

    ``policy`` is a draw policy (or its name, shaped by ``snow``, the rate at which a weak hand
    stands pat anyway, and ``break_rate``, the rate of breaking a pat straight or flush) or a
    solved range (``solved_range``: the equilibrium's player after a betting line; ``table_range``:
    a seat of the three-handed solution, read with no hand of ours). ``opener``
    (Jacks or Better rules only, with a policy) restricts the range to hands that may open;
    ``hand_range`` (a typed range such as ``"JJ+, 2P+, 4F"``, see ``drawodds.handrange``)
    restricts the dealt hands further. ``trials`` Monte Carlo samples give the final hand when
    it cannot be counted exactly. With ``hand`` (text or card codes) our cards are removed from
    the deck (card removal) and every legal hold of ours is scored against the conditioned
    opponent (Monte Carlo, ``equity_trials``, default ``trials``, common random numbers, SE,
    ``seed``, on ``workers`` processes, None: every core); against a solved dealer, who drew
    after us, only our holds that draw what we drew.
    """
    rs = preset(rules) if isinstance(rules, str) else rules
    if not 0 <= draw <= rs.max_draw_cards:
        raise RequestError("a player draws 0-{max_draw} cards under {rule_set}, not {draw}", max_draw=rs.max_draw_cards,
                           rule_set=rs.name, draw=draw)
    solved = None if isinstance(policy, DrawPolicy | str) else policy
    if solved is not None and (snow or break_rate or opener):
        raise RequestError("{snow}, {break_rate} and {opener} shape a draw policy; the solved range plays its own "
                           "strategy (its betting line says who opened)", "snow", "break_rate", "opener")
    if solved is not None and solved.seats > 2 and hand is not None:
        raise RequestError("at a table of three our equity depends on both opponents' draws: ask keep with the "
                           "solved opponents and both draw counts; read reads one seat without {hand}", "hand")
    check_rate(snow, "snow")
    check_rate(break_rate, "break_rate")
    if isinstance(policy, str):
        policy = draw_policy(check_name(policy, "policy", "standard, loose or tight"), snow=snow,
                             break_rate=break_rate)
    pol = policy if isinstance(policy, DrawPolicy) else None
    if opener:
        if rs.opener != "jacks":
            raise RequestError("{opener} needs Jacks or Better rules (e.g. jackpot): otherwise any hand may open",
                               "opener")
        assert pol is not None        # a solved range with an opener was refused above
        pol = draw_policy(pol.name, **{k: v for k, v in pol.to_dict().items() if k != "name"} | {"min_hand": "jacks"})
    equity_trials = trials if equity_trials is None else equity_trials
    READ_TRIALS.check(trials)
    Bound("equity_trials", READ_TRIALS.lo, READ_TRIALS.hi, READ_TRIALS.standard_error).check(equity_trials)
    check_seed(seed)
    typed = None if hand_range is None else parse_range(hand_range, joker=rs.joker).text
    ours = None if hand is None else as_hand(hand, joker=rs.joker)
    known = () if ours is None else tuple(sorted(int(c) for c in ours))
    source = as_source(pol if pol is not None else policy, typed)
    held = source_holdings(source, rs, known)
    if typed is not None and not held.weight.any():
        if known:
            raise RequestError("no hand of the range {range} is left with our cards out of the deck", range=typed)
        raise RequestError("no hand of the range {range} is left", range=typed)
    holding, p_draw = posterior(held, draw)

    cost = int(np.count_nonzero(held.mass(draw))) * comb(rs.deck_size, draw)
    names = CATEGORIES if rs.joker else CATEGORIES[:9]
    if draw == 0 or cost <= exact_budget:
        probs = final_exact(held, draw, rs)
        se = np.zeros_like(probs)
        method, n_final = "exact", None
    else:
        counts = final_sampled(rs, held, draw, trials, np.random.default_rng(seed))
        probs = counts / trials
        se = proportion_se(probs, trials)
        method, n_final = "monte carlo", trials
    if not rs.joker:
        probs, se = probs[:9], se[:9]
    final = {name: float(p) for name, p in zip(names, probs, strict=False)}
    final_se = {name: float(s) for name, s in zip(names, se, strict=False)}

    equities: tuple[HoldEquity, ...] = ()
    interrupted = False
    if ours is not None:
        only = solved.our_draw if solved is not None else None
        equities, interrupted = _equities(ours, rs, source, draw, equity_trials, seed, workers, progress, only)
    return DrawReading(draw=draw, policy=source.name, rules=rs.name, range=pol.min_hand if pol else "any",
                       p_draw=p_draw, holding=holding, final=final, final_se=final_se, final_method=method,
                       trials=n_final, seed=seed if (n_final or ours is not None) else None,
                       hand=None if ours is None else format_cards(ours), equity=equities,
                       equity_trials=equity_trials if ours is not None else None, interrupted=interrupted,
                       hand_range=typed, line=None if solved is None else solved.line_text,
                       seat=None if solved is None else solved.seat_name,
                       our_draw=None if solved is None else solved.our_draw,
                       solved_players=None if solved is None else solved.seats,
                       drawn_before=() if solved is None else solved.before)


def _equities(hand: npt.NDArray[np.int8], rules: RuleSet, source: HoldingsSource, draw: int, trials: int,
              seed: int, workers: int | None, progress: Progress | None,
              only: int | None = None) -> tuple[tuple[HoldEquity, ...], bool]:
    """Our equity per legal hold against one opponent conditioned on ``draw`` (keep's Monte Carlo),
    and whether Ctrl-C cut it short. ``only``: score just the holds that draw that many cards."""

    masks = legal_holds(hand, rules)
    if only is not None:
        masks = masks[5 - masks.sum(axis=1) == only]
        if not len(masks):
            raise RequestError("no legal hold of ours draws {only} cards", only=only)
    model = OpponentModel(opponents=1, policy=source.name, draw_counts=(draw,), source=source)
    result = hold_equities(hand, masks, rules, model, trials=trials, seed=seed, workers=workers, progress=progress)
    rows = [HoldEquity(keep=format_cards(hand[m]), discard=format_cards(hand[~m]), draw=int(5 - m.sum()),
                       equity=float(e), equity_se=float(s))
            for m, e, s in zip(masks, result.equity, result.equity_se, strict=False)]
    return tuple(sorted(rows, key=lambda r: -r.equity)), result.interrupted
