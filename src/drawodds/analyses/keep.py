"""`keep`: every legal hold of a dealt hand, ranked, with exact odds and equity against opponents.

The exact part enumerates every draw of every hold (no sampling). Without opponents the draw game
ranks by the exact showdown equity of each hold against a field: the other players' final hands,
each dealt from the cards we do not hold and drawn by the policy, independently of one another
and of our draw (every deal enumerated, so our own cards' removal is in). The equity part is Monte Carlo
against opponents dealt from the same deck who draw by a named policy, with common random
numbers across holds, so each equity carries a standard error and each hold's gap to the best
hold carries its own (much smaller) one.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd

from drawodds.analyses.strategy import equity_values, field_distribution
from drawodds.cards import CardError, as_hand, format_cards, parse_hand
from drawodds.errors import (
    KEEP_OPPONENTS,
    KEEP_TRIALS,
    POINTS_TRIALS,
    RequestError,
    check_fraction,
    check_name,
    check_seed,
)
from drawodds.evaluate import CATEGORIES, describe, evaluate, jacks_or_better_floor
from drawodds.execution import Progress, resolve_workers
from drawodds.handrange import parse_range
from drawodds.holds import exact_holds, hold_openers_split, legal_holds
from drawodds.points.games import points_by_hold
from drawodds.policies import draw_policy
from drawodds.results import HIDDEN, Result, jsonable, shown_as
from drawodds.rules import RuleError, RuleSet, preset
from drawodds.sim.equity import OpponentModel, hold_equities
from drawodds.sim.ranges import SolvedPlay, check_conditions, ranged

RankBy = Literal["equity", "field", "jacks", "improve", "points"]   # what ``keep`` ranks the holds by
RANK_COLUMNS: dict[str, str] = {"equity": "equity", "field": "field_equity", "jacks": "p_jacks_or_better",
                                "improve": "p_improve", "points": "points"}
NINE = CATEGORIES[:9]
_EXACT = ("p_jacks_or_better", "p_improve", "points")
_EQUITY = ("equity", "equity_se", "equity_gap", "equity_diff_se")
_POINTS = ("points_se", "points_gap", "points_diff_se", "points_hand", "points_hand_se", "points_trick",
           "points_trick_se", "table_points")


@dataclass(frozen=True, repr=False)
class KeepResult(Result):
    """The ranked holds of one hand (best first) and the set-up that produced them.

    ``columns`` holds one array per column; ``table`` is the same as a pandas DataFrame (built
    on first use, so the command line never pays for importing pandas). ``to_dict()`` is the
    ``--json`` shape (a contract read by other tools; extra fields are additive).
    """

    hand: npt.NDArray[np.int8] = field(metadata=shown_as(format_cards))
    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    opponents: int
    policy: str
    trials: int | None
    seed: int
    by: str
    columns: dict[str, npt.NDArray[Any]] = field(metadata=HIDDEN)
    field_size: int | None = None   # the field's players behind ``field_equity`` (draw game, no opponents)
    vs: tuple[int, ...] = field(default=(), metadata=shown_as(lambda v: list(v) or None))
    against: tuple[str, ...] = field(default=(), metadata=shown_as(lambda a: list(a) or None))
    opener: bool = field(default=False, metadata=HIDDEN)
    workers: int = 1
    interrupted: bool = False
    hand_range: str | None = None   # the typed range the opponents are dealt from
    line: str | None = None         # a solved opponent's betting line (policy "equilibrium")
    solved_players: int | None = None   # the players of the solution the solved opponents come from
    opponent_seats: tuple[str, ...] = field(default=(), metadata=shown_as(lambda v: list(v) or None))

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        """One row per hold, best first."""
        import pandas as pd

        return pd.DataFrame(self.columns)

    @property
    def best(self) -> pd.Series:
        """The top-ranked hold."""
        return self.table.iloc[0]

    def rows(self) -> list[dict[str, Any]]:
        """The holds as plain dicts, best first."""
        names = list(self.columns)
        return [dict(zip(names, values, strict=True)) for values in zip(*self.columns.values(), strict=True)]

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "holds": jsonable([self._hold(row) for row in self.rows()])}

    def _hold(self, row: dict[str, Any]) -> dict[str, Any]:
        """One hold's JSON object (before ``jsonable``)."""
        item = {k: row[k] for k in ("keep", "discard", "draw")}
        item["exact"] = {c: row[c] for c in (CATEGORIES if self.rules.joker else NINE)}
        item.update({k: row[k] for k in (*_EXACT, *_EQUITY)})
        if "field_equity" in row:
            item["field_equity"] = row["field_equity"]
        if self.opener:
            item["splits_openers"] = row["splits_openers"]
        if "points_hand" in row:
            item.update({k: row[k] for k in _POINTS})
        return item

    def flat(self) -> pd.DataFrame:
        """The rows flat, for CSV: cards joined by spaces."""
        df = self.table.copy()
        df["keep"] = df["keep"].map(" ".join)
        df["discard"] = df["discard"].map(" ".join)
        return df


def _as_rules(rules: str | RuleSet, overrides: dict[str, Any]) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules.replace(**overrides) if overrides else rules.validate()
    return preset(rules, **overrides)


def keep(hand: str | Sequence[int] | npt.NDArray[np.integer], *, rules: str | RuleSet = "morkpoker",
         opponents: int | None = None, policy: str | SolvedPlay | tuple[SolvedPlay, ...] = "standard",
         trials: int | None = None,
         seed: int = 1, se: float | None = None, workers: int | None = None, scheduler: str | None = None,
         by: RankBy | None = None,
         vs: Sequence[int] = (), against: Sequence[str] = (), opener: bool = False,
         hand_range: str | None = None,
         progress: Progress | None = None, **rule_overrides: Any) -> KeepResult:
    """Rank every legal hold of ``hand`` (text such as ``"AsAhKs7s3s"``, or card codes).

    ``opponents`` defaults to the rule set's table size less one (``len(vs)`` when draw counts
    are given); 0 gives the exact odds alone. ``vs`` conditions each opponent on the number of
    cards they drew; ``against`` gives opponents known hands that stand pat (each a hand text).
    ``hand_range`` deals every opponent from a typed range (``"JJ+, 2P+, 4F"``, see
    ``drawodds.handrange``), with ``vs`` too. ``policy`` is a draw policy's name or a solved
    range (``solver.solved_range``: the heads-up equilibrium's player after a betting line, who
    sits first and so drew before us), or a tuple of them, one per opponent
    (``solver.solved_range.table_opponents``: the three-handed solution's seats still in before
    the dealer, which we are; ``vs`` then gives every opponent's draw count, as their ranges do).
    ``by`` picks the ranking (default: equity with opponents; without them the exact equity
    against the field of the table's other players, ``field``, in the draw game, and table points
    in the points games). Every card we know
    is out of the deck in every column: with ``against`` the exact odds draw from the cards
    neither we nor the opponents hold. ``trials`` (default 100,000 in the draw game, 10,000 in
    the points games, 1,000,000 as the most with ``se``) Monte Carlo trials run on ``workers``
    processes (None: every core). Remaining keywords override single rule options (e.g. ``max_draw="4-ace"``).
    An impossible request raises a ``DrawoddsError`` (``RequestError``, ``RuleError`` or
    ``CardError``) before any work starts.
    """
    rs = _as_rules(rules, rule_overrides)
    workers = 1 if scheduler else resolve_workers(workers)
    points_game = rs.game != "draw"
    if points_game and (vs or against or opener or se is not None):
        raise RuleError("under {rule_set} keep ranks holds by points: {vs}, {against}, {opener} and {se} apply to the "
                        "draw game", "vs", "against", "opener", "se", rule_set=rs.name)
    if isinstance(policy, str):
        policy = check_name(policy, "policy", "standard, loose or tight")
    check_seed(seed)
    check_fraction(se, "se")
    if trials is None:
        trials = 1_000_000 if se is not None else 100_000 if not points_game else 10_000
    (POINTS_TRIALS if points_game else KEEP_TRIALS).check(trials)
    cards = as_hand(hand, joker=rs.joker)
    vs = tuple(int(v) for v in vs)
    if vs:
        if opponents is not None and opponents != len(vs):
            raise RequestError("{vs} gives {count} opponents' draw counts but {opponents} is {value}",
                               "vs", "opponents", count=len(vs), value=opponents)
        opponents = len(vs)
        bad = [v for v in vs if not 0 <= v <= rs.max_draw_cards]
        if bad:
            raise RuleError("an opponent cannot draw {draw} cards under {rule_set} (max draw {max_draw})", draw=bad[0],
                            rule_set=rs.name, max_draw=rs.max_draw)
    known = tuple(tuple(int(c) for c in parse_hand(h, joker=rs.joker)) for h in against)
    if known:
        if vs or (opponents is not None and opponents != len(known)):
            raise RequestError("{against} gives the opponents' hands: do not combine it with {vs} or "
                               "a different {opponents}", "against", "vs", "opponents")
        opponents = len(known)
        seen = [c for h in (tuple(int(c) for c in cards), *known) for c in h]
        dup = next((c for c in seen if seen.count(c) > 1), None)
        if dup is not None:
            raise CardError("card {card} is in two hands", card=format_cards([dup])[0])
    solved: tuple[SolvedPlay, ...] = () if isinstance(policy, str) else policy if isinstance(policy, tuple) else (
        policy,)
    if opponents is None and solved:
        opponents = len(solved)
    if opponents is None and isinstance(policy, str) and rs.players - 1 > KEEP_OPPONENTS.hi:
        raise RequestError("{players} {count} would deal {dealt} opponents; keep deals at most {most}: add "
                           "{opponents} 0-{most}", "players", "opponents", count=rs.players, dealt=rs.players - 1,
                           most=KEEP_OPPONENTS.hi)
    KEEP_OPPONENTS.check(opponents)
    if opponents is None:
        opponents = rs.players - 1 if isinstance(policy, str) else 1
    if hand_range is not None and opponents == 0:
        raise RequestError("{hand_range} deals the opponents' hands: it needs opponents (not 0)",
                           "hand_range")
    typed = None if hand_range is None else parse_range(hand_range, joker=rs.joker).text
    source: SolvedPlay | tuple[SolvedPlay, ...] | None = (None if not solved else solved[0] if len(solved) == 1
                                                            else solved)
    if (typed or solved) and (points_game or known):
        raise RequestError("{hand_range} and the solved range apply to opponents who draw in the draw game "
                           "(not {against}, not points games)", "hand_range", "against")
    if solved:
        _check_solved(solved, opponents, vs)
    if typed or source is not None:
        try:
            play = ranged(source or draw_policy(policy), typed)  # type: ignore[arg-type]
            check_conditions(rules=rs, policy=play, draw_counts=vs or (None,) * opponents, our_cards=cards)
        except RequestError as exc:
            raise RequestError("{reason} (our hand {hand})", reason=exc, hand=' '.join(format_cards(cards))) from None
    if by is None:
        by = "points" if points_game else "equity" if opponents else "field"
    if by not in RANK_COLUMNS:
        raise RequestError("{by} must be one of {choices}, got {value}", "by", choices=', '.join(RANK_COLUMNS),
                           value=repr(by))
    if by == "equity" and (opponents == 0 or points_game):
        raise RequestError("ranking by equity needs at least one opponent in the draw game")
    if by == "field" and (opponents or points_game or known):
        raise RequestError("ranking by the field's equity is for the draw game without opponents")
    dealt = int(evaluate(cards, joker=rs.joker))
    if opener:
        if rs.opener != "jacks":
            raise RuleError("{opener} applies to Jacks or Better (rules such as jackpot)", "opener")
        if dealt < jacks_or_better_floor():
            raise RuleError("{hand} cannot open: openers need at least a pair of jacks",
                            hand=' '.join(format_cards(cards)))

    masks = legal_holds(cards, rs)
    ex = exact_holds(cards, rs, masks=masks, dead=[c for h in known for c in h])
    cat = ex.category_probabilities()
    cols: dict[str, npt.NDArray[Any]] = {
        "keep": _object_array([format_cards(cards[m]) for m in masks]),
        "discard": _object_array([format_cards(cards[~m]) for m in masks]),
        "draw": ex.draws,
    }
    for i, name in enumerate(CATEGORIES if rs.joker else NINE):
        cols[name] = cat[:, i]
    cols["p_jacks_or_better"] = ex.p_jacks_or_better()
    cols["p_improve"] = ex.p_improve(dealt)
    cols["points"] = ex.expected_points(rs.hand_points)
    if opener:
        cols["splits_openers"] = hold_openers_split(cards, masks)
    field_size = None
    if by == "field":   # every deal of the other cards: a few seconds, so only when it ranks
        field_size = min(rs.players - 1, 5)
        cols["field_equity"] = ex.value(field_values(rs, str(policy), field_size, tuple(sorted(map(int, cards)))))

    used_trials: int | None = None
    interrupted = False
    nan = np.full(len(masks), np.nan)
    cols["equity"] = cols["equity_se"] = cols["equity_gap"] = cols["equity_diff_se"] = nan
    if opponents and points_game:
        points, used_trials, interrupted = _points_columns(cards, masks, rs, opponents, trials, seed, str(policy),
                                                           progress)
        cols.update(points)
    elif opponents:
        model = OpponentModel(opponents=opponents, policy=policy if isinstance(policy, str) else solved[0].name,
                              draw_counts=vs or None, known=known or None, hand_range=typed, source=source)
        eq = hold_equities(cards, masks, rs, model, trials=trials, seed=seed, workers=workers, scheduler=scheduler,
                           se_target=se, progress=progress)
        cols["equity"], cols["equity_se"], cols["equity_diff_se"] = eq.equity, eq.equity_se, eq.diff_se
        cols["equity_gap"] = eq.equity.max() - eq.equity   # equity_diff_se is this gap's SE
        used_trials, interrupted = eq.trials, eq.interrupted

    if "points_mc" in cols:
        cols["table_points"], cols["points"] = cols["points"], cols.pop("points_mc")
    # Best first: the objective, then the other objectives, then fewer cards drawn.
    primary = RANK_COLUMNS[by]
    tiebreak = [k for k in ("field_equity", "p_jacks_or_better", "points", "p_improve") if k != primary and k in cols]
    order = np.lexsort([cols["draw"]] + [-cols[k] for k in reversed(tiebreak)] + [-cols[primary]])
    cols = {k: v[order] for k, v in cols.items()}
    return KeepResult(hand=cards, rules=rs, opponents=opponents,
                      policy=policy if isinstance(policy, str) else solved[0].name, trials=used_trials,
                      seed=seed, by=by, columns=cols, vs=vs, opener=opener, workers=workers,
                      interrupted=interrupted,
                      against=tuple(" ".join(format_cards(h)) for h in known), hand_range=typed,
                      line=solved[0].line_text if solved else None, field_size=field_size,
                      solved_players=solved[0].seats if solved else None,
                      opponent_seats=tuple(p.seat_name for p in solved))


def _check_solved(solved: tuple[SolvedPlay, ...], opponents: int, vs: tuple[int, ...]) -> None:
    """Solved opponents must all have drawn before us, one per opponent, on one line; at a table of
    three each range is built with the draw counts of the opponents before it."""
    if len(solved) != opponents:
        if len(solved) == 1:
            raise RequestError("the solved range is heads-up: one opponent, not {opponents}", opponents=opponents)
        raise RequestError("{count} solved opponents given but {opponents} is {value}", "opponents",
                           count=len(solved), value=opponents)
    if any(p.seat_name == "dealer" for p in solved):
        raise RequestError("in keep the opponents drew before us: they sit before the dealer, who we are")
    if len({p.line_text for p in solved}) > 1:
        raise RequestError("the solved opponents must come from one betting line")
    if len(solved) > 1:
        if len(vs) != len(solved):
            raise RequestError("with solved opponents at a table, give every opponent's draw count ({vs}): each "
                               "one's play depends on the draws before it", "vs")
        for j, p in enumerate(solved):
            if p.before != vs[:j]:
                raise RequestError("the solved opponents' ranges were built for other draw counts than {vs}", "vs")


@functools.lru_cache(maxsize=8)
def field_values(rules: RuleSet, policy: str, players: int, ours: tuple[int, ...]) -> npt.NDArray[np.float64]:
    """Showdown equity of each final strength against ``players`` hands of the policy's field,
    each dealt and drawn from the cards we do not hold (``ours``), independently of one another
    and of our draw: exact, every deal of the other cards enumerated."""
    return equity_values(field_distribution(rules, policy, dead=ours), players)


def _points_columns(cards: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_], rs: RuleSet,
                    opponents: int, trials: int, seed: int, policy: str,
                    progress: Progress | None) -> tuple[dict[str, npt.NDArray[Any]], int, bool]:
    """Poengpoker / Chicago: expected points this deal (best hand's table points + last trick), with
    the trials run and whether Ctrl-C cut them short.

    The exact ``points`` column (table points of our hand alone) moves to ``table_points``;
    ``points`` becomes the Monte Carlo total against the opponents, with its parts and SEs.
    """
    df = points_by_hold(cards, rs, opponents=opponents, trials=trials, seed=seed, policy=policy,
                        progress=progress)
    row_of = {k: i for i, k in enumerate(df["keep"])}
    order = np.array([row_of[" ".join(format_cards(cards[m]))] for m in masks])
    out = {name: df[name].to_numpy()[order] for name in
           ("points_hand", "points_hand_se", "points_trick", "points_trick_se", "points_se")}
    out["points_diff_se"] = df["se_vs_best"].to_numpy()[order]
    out["points_mc"] = df["points"].to_numpy()[order]
    out["points_gap"] = out["points_mc"].max() - out["points_mc"]   # points_diff_se is its SE
    return out, int(df.attrs["trials"]), bool(df.attrs["interrupted"])


def _object_array(items: list[list[str]]) -> npt.NDArray[np.object_]:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


# --- reading a ranked result -------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class HoldRanking(Result):
    """What the holds are ranked by, row by row (best first): each hold's value and standard
    error, its gap to the best hold with that gap's standard error, and whether it is tied with
    the best (within two standard errors when sampled, exactly when exact)."""

    measure: str                          # equity, field, points, jacks or improve
    sampled: bool                         # Monte Carlo against opponents, or exact enumeration
    value: npt.NDArray[np.float64]
    value_se: npt.NDArray[np.float64]     # 0 when exact
    gap: npt.NDArray[np.float64]          # best value - this value
    gap_se: npt.NDArray[np.float64]       # 0 when exact; small when sampled (common random numbers)
    near_best: npt.NDArray[np.bool_]


def ranking(result: KeepResult) -> HoldRanking:
    """The ranking measure of a keep result with its uncertainty, row by row."""
    cols = result.columns
    sampled_points = result.by == "points" and "points_hand" in cols
    if result.by == "equity" or sampled_points:
        key = "points" if sampled_points else "equity"
        value, se = cols[key].astype(float), cols[f"{key}_se"].astype(float)
        gap, gap_se = cols[f"{key}_gap"].astype(float), cols[f"{key}_diff_se"].astype(float)
        return HoldRanking(result.by, True, value, se, gap, gap_se, gap <= 2 * gap_se)
    value = cols[RANK_COLUMNS[result.by]].astype(float)
    gap = value.max() - value
    zero = np.zeros_like(value)
    return HoldRanking(result.by, False, value, zero, gap, zero, gap <= 1e-12)


def dealt_description(result: KeepResult) -> str:
    """The dealt hand in words, e.g. ``pair of aces, K-7-3``."""
    return describe(int(evaluate(result.hand, joker=result.rules.joker)))
