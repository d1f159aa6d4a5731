"""Draw policies: explicit, documented models of which cards a player keeps, vectorized over hands.

A policy reads each dealt hand's features (``patterns.dealt_features``: pairs, four-flushes,
straight draws) as one *policy pattern* (first match in its precedence list below; the constants
``PAT`` ... ``BROKEN``) and keeps the cards of that pattern; the hold is then widened, highest
cards first, until the rule set's draw limit allows it. Two random deviations are modelled on
top, with exact probabilities in ``draw_count_probabilities``: *snowing* (standing pat with a
hand that would draw, a bluff) and *breaking* (discarding from a pat straight or flush to draw
one to a straight flush).

Precedence of the three named policies (first matching row wins; "small pair" = tens or lower)::

    pattern                                   standard          loose                 tight
    straight or better (incl. quads)          stand pat         stand pat             stand pat
    three of a kind                           keep 3, draw 2    keep 3, draw 2        keep 3, draw 2
    two pair                                  keep 4, draw 1    keep 4, draw 1        keep 4, draw 1
    four-flush + small pair                   flush, draw 1     flush, draw 1         pair, draw 3
    open-ended straight draw + small pair     pair, draw 3      straight, draw 1      pair, draw 3
    any pair                                  keep 2, draw 3    pair + ace kicker,    keep 2, draw 3
                                                                draw 2 (else 3)
    four-flush                                keep 4, draw 1    keep 4, draw 1        keep 4, draw 1
    open-ended straight draw                  keep 4, draw 1    keep 4, draw 1        (high cards)
    inside straight draw (gutshot)            (high cards)      keep 4, draw 1        (high cards)
    high cards only                           two highest of    an ace alone when     as standard
                                              J Q K A, draw 3   the rules allow four
                                                                to an ace; else as
                                                                standard

After the pattern's hold, the highest unkept cards are added until the draw is legal (max draw 3:
from Q-9-6-4-2 keep Q-9). The joker is always kept, counts as an ace for pairs and as a wild
suit/rank in flush and straight draws; whether it is an ace for the "4 with an ace" draw limit
is the rule set's ``joker_is_ace_for_draw`` (asked through ``RuleSet.draw_aces``).

Deviations (rates are parameters, default 0): ``snow`` stands pat instead of drawing, by default
only with hands below a pair (``snow_hands="any"``: every drawing hand); ``break_rate`` breaks a
pat straight or flush that holds four to a straight flush and draws one. ``min_hand`` describes a
known pre-draw range (a Jacks-or-Better opener: ``"jacks"``); see ``in_range``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER, RANK_PLURALS, RANKS
from drawodds.errors import RequestError
from drawodds.evaluate import (
    FLUSH,
    ONE_PAIR,
    STRAIGHT,
    TRIPS,
    TWO_PAIR,
    category_floor,
    evaluate,
    jacks_or_better_floor,
)
from drawodds.holds import draw_limits
from drawodds.i18n import N_, Phrase
from drawodds.kinds import PolicyPattern
from drawodds.patterns import count_columns, dealt_features, or_columns, straight_draw_tables
from drawodds.results import Result
from drawodds.rules import RuleSet

# Policy patterns: how a policy reads a dealt hand (``kinds.PolicyPattern``; ``sim.ranges`` reports
# posteriors over these, pairs split by rank and pat hands by category). Hold patterns, which name the
# kept cards, are ``patterns.HoldKind``.
# The codes as plain ints: numpy compares an int8 array with an IntEnum member through int64, ten times slower.
PAT, TRIPS_P, TWO_PAIR_P, PAIR, PAIR_KICKER, FOUR_FLUSH, OPEN_ENDED, INSIDE, HIGH_CARDS, SNOW, \
    BROKEN = map(int, PolicyPattern)
PATTERNS = PolicyPattern.slugs()
PATTERN_LABELS = PolicyPattern.labels()

SnowHands = Literal["nothing", "any"]
MinHand = Literal["any", "pair", "jacks", "two_pair", "trips", "straight"]
MIN_HANDS: tuple[str, ...] = ("any", "pair", "jacks", "two_pair", "trips", "straight")


@dataclass(frozen=True, repr=False)
class DrawPolicy(Result):
    """How a player chooses a hold; see the module docstring for the precedence tables."""

    name: str = "standard"           # standard | loose | tight
    snow: float = 0.0                # rate of standing pat with a hand that would otherwise draw (a bluff)
    break_rate: float = 0.0          # rate of breaking a pat straight/flush to draw to a straight flush
    snow_hands: SnowHands = "nothing"  # which drawing hands may snow: less than a pair, or any
    flush_over_pair: str | None = "T"  # a four-flush is preferred to pairs up to this rank (None: never)
    straight_over_pair: str | None = None  # same for an open-ended straight draw
    straight_draws: Literal["none", "open", "inside"] = "open"  # which straight draws are drawn to
    ace_kicker: bool = False         # keep an ace kicker with a pair (draw 2)
    high_cards: int = 2              # with nothing: keep up to this many J-or-better cards
    ace_alone: bool = False          # with nothing and an ace: keep only the ace if 4 may be drawn
    min_hand: MinHand = "any"        # the pre-draw range this player is known to hold (caller/opener)

    def __post_init__(self) -> None:
        if not 0.0 <= self.snow <= 1.0 or not 0.0 <= self.break_rate <= 1.0:
            raise RequestError("snow and break_rate are rates between 0 and 1")
        if self.snow_hands not in ("nothing", "any"):
            raise RequestError("snow_hands must be 'nothing' or 'any', got {value}", value=repr(self.snow_hands))
        for field_name in ("flush_over_pair", "straight_over_pair"):
            value = getattr(self, field_name)
            if value is not None and (len(value) != 1 or value.upper() not in RANKS):
                raise RequestError("{field_name} must be a rank letter (2-9, T, J, Q, K, A) or None",
                                   field_name=field_name)
        if self.straight_draws not in ("none", "open", "inside"):
            raise RequestError("straight_draws must be none, open or inside, got {value}",
                               value=repr(self.straight_draws))
        if not 0 <= self.high_cards <= 5:
            raise RequestError("high_cards must be 0..5")
        if self.min_hand not in MIN_HANDS:
            raise RequestError("min_hand must be one of {choices}, got {value}", choices=', '.join(MIN_HANDS),
                               value=repr(self.min_hand))


_BASE: dict[str, DrawPolicy] = {
    "standard": DrawPolicy(),
    "loose": DrawPolicy(name="loose", straight_over_pair="T", straight_draws="inside",
                        ace_kicker=True, ace_alone=True),
    "tight": DrawPolicy(name="tight", flush_over_pair=None, straight_draws="none"),
}
POLICY_DESCRIPTIONS = {
    "standard": N_("pat with straight or better; trips, two pair, pairs; four-flushes (over small pairs) "
                   "and open-ended straight draws; else two high cards"),
    "loose": N_("standard plus gutshots, pair + ace kicker, draws over small pairs, four to an ace"),
    "tight": N_("never draws to straights, a pair always beats a four-flush; else as standard"),
}


def policy_names() -> tuple[str, ...]:
    return tuple(_BASE)


def draw_policy(name: str = "standard", **params: object) -> DrawPolicy:
    """A named policy with some parameters overridden; ValueError on an unknown name or parameter."""
    key = name.lower()
    if key not in _BASE:
        raise RequestError("unknown draw policy {name}; choose one of: {choices}", name=repr(name),
                           choices=', '.join(_BASE))
    known = {f.name for f in dataclasses.fields(DrawPolicy)} - {"name"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise RequestError("unknown policy parameter {name}; parameters are: {choices}", name=repr(unknown[0]),
                           choices=', '.join(sorted(known)))
    return dataclasses.replace(_BASE[key], **params)  # type: ignore[arg-type]


@dataclass(frozen=True, repr=False)
class HoldPlan(Result):
    """What a policy does with each hand: the usual hold, and a rare alternative at a known rate."""

    pattern: npt.NDArray[np.int8]       # (T,) pattern code of the usual hold
    category: npt.NDArray[np.int8]      # (T,) category of the dealt hand
    keep: npt.NDArray[np.bool_]         # (T, 5) usual hold
    alt_keep: npt.NDArray[np.bool_]     # (T, 5) hold when the deviation happens (snow / break)
    alt_rate: npt.NDArray[np.float64]   # (T,) probability of the deviation
    alt_pattern: npt.NDArray[np.int8]   # (T,) SNOW or BROKEN (meaningful where alt_rate > 0)
    pair_rank: npt.NDArray[np.int16]    # (T,) rank of the dealt hand's highest pair, -1 for none


def _places(value: npt.NDArray[np.integer]) -> npt.NDArray[np.int8]:
    """Each card's place from the top of its row (0 = highest), for distinct values."""
    out = np.zeros(value.shape, dtype=np.int8)
    for j in range(value.shape[1]):
        out += value[:, j:j + 1] > value
    return out


def _threshold(rank_letter: str | None) -> int:
    """Pairs up to this rank give way to a draw; -2 (below 'no pair' = -1) means never."""
    return -2 if rank_letter is None else RANKS.index(rank_letter.upper())


CHUNK = 1 << 15  # hands per block: the temporaries stay in cache (about 1.5x faster than one block)


def hold_plan(policy: DrawPolicy, hands: npt.ArrayLike, rules: RuleSet) -> HoldPlan:
    """Classify every hand and compute the policy's usual hold and its deviation (vectorized)."""
    return _plan(policy, hands, rules, usual_only=False)


def _plan(policy: DrawPolicy, hands: npt.ArrayLike, rules: RuleSet, usual_only: bool) -> HoldPlan:
    """``hold_plan``; with ``usual_only`` the deviation is left out (its rate 0, its hold the usual one)."""
    cards = np.asarray(hands)
    if cards.ndim != 2 or cards.shape[1] != 5:
        raise RequestError("hands must have shape (T, 5), got {shape}", shape=cards.shape)
    if not np.issubdtype(cards.dtype, np.integer):
        raise TypeError(f"hands must be integer card codes, got dtype {cards.dtype}")
    if len(cards) <= CHUNK:
        return _hold_plan_block(policy, cards, rules, usual_only)
    parts = [_hold_plan_block(policy, cards[i:i + CHUNK], rules, usual_only) for i in range(0, len(cards), CHUNK)]
    return HoldPlan(*(np.concatenate([getattr(part, f.name) for part in parts])
                      for f in dataclasses.fields(HoldPlan)))


def _hold_plan_block(policy: DrawPolicy, cards: npt.NDArray[np.integer], rules: RuleSet,
                     usual_only: bool = False) -> HoldPlan:
    f = dealt_features(cards)   # validates the card codes
    n = len(cards)
    category, joker, jok, rank, bits = f.category, f.joker, f.jok, f.rank, f.bits
    card_count, max_count, pairs, pair_rank = f.card_count, f.max_count, f.pairs, f.pair_rank
    has_flush4, in_flush_suit, open_ended, inside = f.has_flush4, f.in_flush_suit, f.open_ended, f.inside
    out_table, kept_table = straight_draw_tables()
    h = cards.astype(np.int16)

    pat = category >= STRAIGHT
    straight_ok = open_ended if policy.straight_draws != "none" else np.zeros(n, bool)
    conditions = [
        pat,
        max_count >= 3,
        pairs >= 2,
        has_flush4 & (pair_rank <= _threshold(policy.flush_over_pair)),
        straight_ok & (pair_rank <= _threshold(policy.straight_over_pair)),
        pairs == 1,
        has_flush4,
        straight_ok,
        inside & (policy.straight_draws == "inside"),
    ]
    choices = [PAT, TRIPS_P, TWO_PAIR_P, FOUR_FLUSH, OPEN_ENDED, PAIR, FOUR_FLUSH, OPEN_ENDED, INSIDE]
    pattern = np.select(conditions, choices, default=HIGH_CARDS).astype(np.int8)

    ace_card = rank == 12
    if policy.ace_kicker:
        kicker = (pairs == 1) & (pair_rank != 12) & (f.aces == 1)
        pattern = np.where((pattern == PAIR) & kicker, PAIR_KICKER, pattern).astype(np.int8)
    # Each card's place from the top (0 = highest; the joker above everything).
    value = np.where(joker, 99, h).astype(np.int8)
    place = _places(value)
    keep_high = (rank >= 9) & (place < policy.high_cards)
    draw_ace = rules.draw_aces(h)   # the cards that allow four under "4 with an ace"
    if policy.ace_alone and rules.draw_limit(True) >= 4:
        keep_high = np.where(count_columns(draw_ace)[:, None] > 0, draw_ace, keep_high)
    # The cards each pattern keeps: one gather from the candidate holds by the pattern's option.
    options = np.stack([keep_high, np.ones_like(joker), card_count >= 3, card_count == 2,
                        (card_count == 2) | ace_card, in_flush_suit, f.keep_straight])
    option = np.zeros(max(PAT, TRIPS_P, TWO_PAIR_P, PAIR, PAIR_KICKER, FOUR_FLUSH, OPEN_ENDED, INSIDE,
                          HIGH_CARDS) + 1, dtype=np.intp)       # 0: the high cards
    option[[PAT, TRIPS_P, TWO_PAIR_P, PAIR, PAIR_KICKER, FOUR_FLUSH, OPEN_ENDED, INSIDE]] = [1, 2, 3, 3, 4, 5, 6, 6]
    keep = options[option.take(pattern), np.arange(n)]
    keep |= joker
    keep = _make_legal(keep, place, draw_ace, rules)
    if usual_only:
        return HoldPlan(pattern, category, keep, keep, np.zeros(n), np.full(n, SNOW, dtype=np.int8), pair_rank)

    # Deviations: snow (a drawing hand stands pat) and break (pat straight/flush -> SF draw).
    drawing = count_columns(keep) < 5
    if policy.snow_hands == "nothing":
        snow_ok = drawing & (max_count == 1) & np.isin(pattern, (FOUR_FLUSH, OPEN_ENDED, INSIDE, HIGH_CARDS))
    else:
        snow_ok = drawing
    at = jok * (1 << 13) + or_columns(np.where(in_flush_suit, bits, 0))   # flat index into [joker, mask]
    sf_outs = out_table.take(at)
    break_ok = pat & np.isin(category, (STRAIGHT, FLUSH)) & has_flush4 & (sf_outs >= 1)
    alt_rate = np.where(snow_ok, policy.snow, 0.0) + np.where(break_ok, policy.break_rate, 0.0)
    keep_sf = (in_flush_suit & ((kept_table.take(at)[:, None] & bits) != 0)) | joker
    alt_keep = np.where(break_ok[:, None], keep_sf, True)
    alt_pattern = np.where(break_ok, BROKEN, SNOW).astype(np.int8)
    return HoldPlan(pattern, category, keep, alt_keep, alt_rate, alt_pattern, pair_rank)


def _make_legal(keep: npt.NDArray[np.bool_], place: npt.NDArray[np.int8], ace_card: npt.NDArray[np.bool_],
                rules: RuleSet) -> npt.NDArray[np.bool_]:
    """Add the highest unkept cards until the number drawn is within the rule set's limit.

    ``ace_card`` marks the cards that allow four cards under ``max_draw="4-ace"`` (``RuleSet.draw_aces``).
    """
    limit = draw_limits(count_columns(keep & ace_card) > 0, rules)
    deficit = (5 - limit) - count_columns(keep)
    short = np.flatnonzero(deficit > 0)
    if not len(short):
        return keep
    # Place of each unkept card among the unkept ones, highest first (only the rows that draw too many).
    kept = keep[short]
    order = _places(np.where(kept, -1, -place[short].astype(np.int16)))
    keep = keep.copy()
    keep[short] = kept | (~kept & (order < deficit[short, None]))
    return keep


def choose_holds(policy: DrawPolicy, hands: npt.ArrayLike, rules: RuleSet,
                 rng: np.random.Generator | None = None) -> npt.NDArray[np.bool_]:
    """Keep mask (T, 5), True = kept, for each hand (T, 5) under the policy and rule set.

    Deterministic when ``snow == break_rate == 0``; otherwise the deviations are drawn with ``rng``.
    """
    if rng is None and (policy.snow > 0 or policy.break_rate > 0):
        raise RequestError("a policy with snow or break_rate > 0 needs an rng")
    if policy.snow == 0 and policy.break_rate == 0:    # it never deviates: the usual holds alone
        return _plan(policy, hands, rules, usual_only=True).keep
    plan = hold_plan(policy, hands, rules)
    if rng is None or not (plan.alt_rate > 0).any():
        return plan.keep
    deviate = rng.random(len(plan.keep)) < plan.alt_rate
    return np.where(deviate[:, None], plan.alt_keep, plan.keep)


def draw_count_probabilities(policy: DrawPolicy, hands: npt.ArrayLike, rules: RuleSet) -> npt.NDArray[np.float64]:
    """(T, 6): exact probability that each hand draws 0..5 cards under the policy (rows sum to 1).

    The snow / break deviations are mixed in analytically, so posteriors need no sampling.
    """
    plan = hold_plan(policy, hands, rules)
    n = len(plan.keep)
    rows = np.arange(n)
    out = np.zeros((n, 6))
    np.add.at(out, (rows, 5 - count_columns(plan.keep)), 1.0 - plan.alt_rate)
    np.add.at(out, (rows, 5 - count_columns(plan.alt_keep)), plan.alt_rate)
    return out


def in_range(policy: DrawPolicy, hands: npt.ArrayLike, rules: RuleSet) -> npt.NDArray[np.bool_]:
    """Whether each dealt hand is in the player's pre-draw range (``policy.min_hand``)."""
    h = np.asarray(hands)
    if policy.min_hand == "any":
        return np.ones(h.shape[:-1], dtype=bool)
    floor = {"pair": category_floor(ONE_PAIR), "jacks": jacks_or_better_floor(),
             "two_pair": category_floor(TWO_PAIR), "trips": category_floor(TRIPS),
             "straight": category_floor(STRAIGHT)}[policy.min_hand]
    return evaluate(h, joker=bool(rules.joker) or bool((h == JOKER).any())) >= floor


def describe_policy(policy: DrawPolicy, rules: RuleSet | None = None) -> list[tuple[str, str]]:
    """The policy as readable rows (hand pattern, what it keeps), first matching row wins: English
    text that ``i18n.worded`` words in the reader's language."""
    def pair_rule(letter: str | None, what: str) -> tuple[str, str] | None:
        if letter is None:
            return None
        ranks = RANK_PLURALS[RANKS.index(letter.upper())]
        return (Phrase(N_("{what} + a pair of {ranks} or lower"), what=what, ranks=ranks),
                Phrase(N_("the {what}, draw 1"), what=what))
    rows: list[tuple[str, str] | None] = [
        (N_("straight, flush, full house, four of a kind, straight flush"), N_("all five: stand pat")),
        (N_("three of a kind"), N_("the three, draw 2")),
        (N_("two pair"), N_("both pairs, draw 1")),
        pair_rule(policy.flush_over_pair, N_("four-flush")),
        pair_rule(policy.straight_over_pair if policy.straight_draws != "none" else None,
                  N_("open-ended straight draw")),
        (N_("one pair"), N_("the pair and an ace kicker (draw 2), else the pair (draw 3)")
         if policy.ace_kicker else N_("the pair, draw 3")),
        (N_("four-flush"), N_("the four suited cards, draw 1")),
        (N_("open-ended straight draw"), N_("the four, draw 1")) if policy.straight_draws != "none" else None,
        (N_("inside straight draw"), N_("the four, draw 1")) if policy.straight_draws == "inside" else None,
        (N_("nothing (high cards)"),
         Phrase(N_("up to {n} highest of J Q K A; an ace alone when four may be drawn to it"), n=policy.high_cards)
         if policy.ace_alone else Phrase(N_("up to {n} highest of J Q K A"), n=policy.high_cards)),
        (N_("any hold the draw limit forbids"), N_("add the highest cards until it is legal")),
        (N_("the joker"), N_("always kept: an ace for pairs, wild in flush and straight draws")),
    ]
    if policy.snow > 0:
        rows.append(((N_("hands below a pair") if policy.snow_hands == "nothing" else N_("any drawing hand")),
                     Phrase(N_("stand pat instead (snow) at rate {rate}"), rate=f"{policy.snow:g}")))
    if policy.break_rate > 0:
        rows.append((N_("pat straight or flush with four to a straight flush"),
                     Phrase(N_("break it and draw 1 at rate {rate}"), rate=f"{policy.break_rate:g}")))
    if policy.min_hand != "any":
        rows.append((N_("range before the draw"), Phrase(N_("only hands of at least {hand}"),
                                                         hand=policy.min_hand.replace("_", " "))))
    return [r for r in rows if r is not None]
