"""What a session drills: the objectives, the hold patterns, and the set-up checked before any dealing."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from drawodds.analyses.strategy import Solver, make_solver, parse_objective, suit_classes
from drawodds.errors import TRAIN_TRIALS, RequestError, check_name
from drawodds.i18n import N_
from drawodds.kinds import HoldType
from drawodds.patterns import hold_pattern_codes, hold_type
from drawodds.results import Result, shown_as
from drawodds.rules import RuleSet, preset
from drawodds.trainer.phrases import Phrase

OBJECTIVES = ("equity", "jacks", "points")
TRIALS = 20_000           # Monte Carlo trials per keep question (equity against opponents)
POINTS_TRIALS = 5_000     # the same in Poengpoker and Chicago, where every trial plays out five tricks
DRILLS = ("mixed", "keep", "read")
UNITS = {"equity": N_("points of equity"), "jacks": N_("percentage points"), "points": N_("points")}

# The patterns drilled and tallied: the type of the best hold (``kinds.HoldType``), by slug.
PATTERNS: dict[str, HoldType] = {t.slug: t for t in HoldType}
PATTERN_NAMES: dict[str, str] = {t.slug: t.label for t in HoldType}
# Each pattern as a player reads it (its slug and English name stay in JSON and the history).
PATTERN_WORDS: dict[str, Phrase] = {
    "pat": Phrase.pgettext("pattern", "stand pat"),
    "made": Phrase.pgettext("pattern", "keep trips / two pair / quads"),
    "pair": Phrase.pgettext("pattern", "keep the pair"), "kicker": Phrase.pgettext("pattern", "pair + kicker"),
    "flush-draw": Phrase.pgettext("pattern", "flush draw"),
    "straight-draw": Phrase.pgettext("pattern", "straight draw"),
    "sf-draw": Phrase.pgettext("pattern", "straight-flush draw"), "two-cards": Phrase.pgettext("pattern", "two cards"),
    "one-card": Phrase.pgettext("pattern", "one card"), "draw-five": Phrase.pgettext("pattern", "draw five"),
    "other": Phrase.pgettext("pattern", "other"),
}
_PATTERN_KEEPS = {HoldType.ONE_CARD.slug: 1, HoldType.DRAW_FIVE.slug: 0}    # cards kept: need a draw of 4 or 5

Objective = Literal["equity", "jacks", "points"]


# --- the set-up -----------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class TrainSetup(Result):
    """What a session drills: rule set, objective, opponents, trials, the drill and its focus."""

    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    objective: str
    opponents: int
    trials: int
    drill: str
    focus: str | None = None
    policy: str = "standard"

    @property
    def unit(self) -> str:
        return UNITS[self.objective]


def focus_names() -> str:
    return ", ".join(PATTERNS)


def resolve_pattern(name: str) -> str:
    """A pattern's short name from its short or long name ('flush-draw', 'flush draw')."""
    key = name.strip().lower().replace("_", "-")
    for slug, long in PATTERN_NAMES.items():
        if key in (slug, long, long.replace(" ", "-")):
            return slug
    raise RequestError("unknown pattern {name}; patterns: {choices}", name=repr(name), choices=focus_names())


def train_setup(rules: str | RuleSet = "morkpoker", *, objective: str | None = None, opponents: int | None = None,
                trials: int | None = None, drill: str = "mixed", focus: str | None = None,
                policy: str = "standard") -> TrainSetup:
    """Check a session's options before any dealing; an impossible combination raises ``RequestError``.

    In Poengpoker and Chicago the points objective is what ``keep --rules poengpoker`` ranks by:
    the points this deal, best hand plus last trick, by Monte Carlo against the other players
    (``trials`` default POINTS_TRIALS there, TRIALS elsewhere)."""
    rs = preset(rules) if isinstance(rules, str) else rules.validate()
    points_game = rs.game != "draw"
    if objective is not None:
        check_name(objective, "objective", "e.g. equity, jacks or points")
    objective = (objective or ("points" if points_game else "equity")).strip().lower()
    if objective not in OBJECTIVES:
        raise RequestError("{objective} must be one of {choices}, got {value}", "objective",
                           choices=', '.join(OBJECTIVES), value=repr(objective))
    sampled = objective == "equity" or (points_game and objective == "points")
    if objective == "equity" and points_game:
        raise RequestError("{rule_set} scores points, not a showdown: use {objective} points (or jacks)", "objective",
                           rule_set=rs.name)
    if sampled:
        opponents = min(rs.players - 1, 5) if opponents is None else opponents
        if not 1 <= opponents <= 5:
            raise RequestError("{opponents} must be 1-5 for the {objective} objective, got {value}", "opponents",
                               objective=objective, value=opponents)
    elif opponents:
        raise RequestError("{opponents} goes with {objective} equity (or points in Poengpoker and Chicago); {value} "
                           "is exact for your hand alone", "opponents", "objective", value=objective)
    trials = trials if trials is not None else (POINTS_TRIALS if points_game else TRIALS)
    TRAIN_TRIALS.check(trials)
    drill = drill.strip().lower()
    if drill not in DRILLS:
        raise RequestError("{drill} must be one of {choices}, got {value}", "drill", choices=', '.join(DRILLS),
                           value=repr(drill))
    if points_game and drill == "read":
        raise RequestError("reading a draw count is about the betting game; {rule_set} has no betting",
                           rule_set=rs.name)
    if focus is not None:
        if drill == "read":
            raise RequestError("{focus} drills holds: use {drill} keep or mixed", "focus", "drill")
        focus = resolve_pattern(focus)
        kept = _PATTERN_KEEPS.get(focus)
        if kept is not None and 5 - kept > rs.max_draw_cards:
            raise RequestError("'{focus}' draws {draws} cards, more than {rule_set} allows (max draw {max_draw})",
                               focus=focus, draws=5 - kept, rule_set=rs.name, max_draw=rs.max_draw)
        possible = best_patterns(rs, objective, opponents or 0, policy)
        if focus not in possible:
            raise RequestError("'{focus}' is the best hold of no deal under {rule_set} and the {objective} objective: "
                               "choose one of {choices}", focus=focus, rule_set=rs.name, objective=objective,
                               choices=', '.join(p for p in PATTERNS if p in possible))
    return TrainSetup(rs, objective, opponents or 0, trials, drill, focus, policy)


@functools.cache
def best_patterns(rules: RuleSet, objective: str, opponents: int, policy: str) -> frozenset[str]:
    """The patterns that are the best hold of some deal in the exact strategy table the deals are
    chosen by (every suit class; a few seconds, once per set-up): the focuses that can be drilled."""
    deals, _ = suit_classes(rules.joker)
    hv = _solver(rules, objective, opponents, policy).hold_values(deals)
    codes = hold_pattern_codes(hv.deals, rules.joker)[np.arange(len(deals)), hv.best.astype(np.int64)]
    return frozenset(HoldType(int(t)).slug for t in np.unique(hold_type(codes)))


@functools.cache
def _solver(rules: RuleSet, objective: str, opponents: int, policy: str) -> Solver:
    """The exact strategy-table solver that weighs candidate deals (one draw; no card removal)."""
    rs = rules if rules.draws == 1 else rules.replace(draws=1)
    return make_solver(parse_objective(objective, rs, opponents=max(opponents, 1), policy=policy), rs)
