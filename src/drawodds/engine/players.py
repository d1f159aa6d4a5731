"""Betting players: plain callables from an ``Observation`` (what one seat may know) to an ``Action``.

- ``RandomLegal``: a uniformly random legal action and a random legal draw (for fuzzing).
- ``CallingStation``: never bets or raises, calls everything, draws like the standard player.
- ``RuleBased``: opens, raises and calls on hand strength and pot odds, draws with a draw policy
  from ``drawodds.policies``, respects openers, and can snow (stand pat on nothing, then bet).
- ``DrawReader``: RuleBased that judges its hand after the draw against what each opponent's
  draw count says (exact posterior + simulated draw), not against any hand.
- ``PatTwoPair``: RuleBased that stands pat with two pair and bets it as a made hand.

Exploiters, each overdoing one thing, to see whether a strategy punishes it:

- ``CallingStation`` (``station``) is the one that always calls.
- ``AlwaysRaise``: bets and raises whenever allowed, never folds, draws like the standard player.
- ``AlwaysSnow``: stands pat on every hand and bets and raises as if it held a made hand.
- ``TripsOrFold``: never bets, folds to any bet unless it holds trips or better (then calls).

``make_player(name, rules, rng)`` builds one by name: ``rule``, ``reader``, ``pat``, ``station``,
``random``, ``raiser``, ``snower``, ``trips``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.cards import JOKER
from drawodds.combinatorics import all_hands, binomials, combinations
from drawodds.engine.deal import BET, CALL, CHECK, DECLARE, FOLD, MUCK, RAISE, SHOW, Action, Observation, Player, draw
from drawodds.errors import RequestError
from drawodds.evaluate import FLUSH, N_STRENGTHS, ONE_PAIR, STRAIGHT, TRIPS, TWO_PAIR, category_floor, evaluate
from drawodds.evaluate import evaluate_one as hand_strength
from drawodds.holds import hold_numbers
from drawodds.policies import DrawPolicy, draw_policy, hold_plan
from drawodds.rules import RuleSet
from drawodds.sim.ranges import final_strength_distribution

PLAYER_NAMES = ("rule", "reader", "pat", "station", "random", "raiser", "snower", "trips")
# Players that open pots and so draw in most deals, with the standard policy: worth a hold table at once.
_TABLE_PLAYERS = frozenset(("rule", "reader", "pat", "raiser"))


@functools.cache
def _percentiles() -> list[float]:
    """Share of the 2,598,960 dealt hands no stronger than each strength (index = strength)."""

    counts = np.bincount(evaluate(all_hands()), minlength=N_STRENGTHS).astype(np.float64)
    share = np.cumsum(counts) / counts.sum()
    share[N_STRENGTHS - 1] = 1.0  # five aces (joker deck)
    return share.tolist()


_BINOM = [binomials()[i + 1, :54].tolist() for i in range(5)]   # subset_rank's table as lists (scalar path)
_TABLE_AFTER_MISSES = 400  # build the table of every hand once this process has asked this many new hands

DrawKey = tuple[DrawPolicy, int, int, int, bool]


def _draw_key(policy: DrawPolicy, rules: RuleSet) -> DrawKey:
    """What a policy's holds depend on: the policy, the deck and the draw limits (with and without a
    kept ace, and whether the joker counts as that ace); not the table size, bets or openers."""
    return policy, rules.deck_size, rules.draw_limit(False), rules.draw_limit(True), bool(rules.draw_aces(JOKER))


@functools.cache
def _suit_classes(deck_size: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """Every hand in colex order (row = ``subset_rank``), its class, and one hand of each class.

    Two hands share a class when they have the same rank at every position and the same suits in
    the same places (one is the other with the suits renamed), so a policy keeps the same places of
    both: the policy is asked once per class (about 204,000) instead of once per hand.
    """
    lex = combinations(deck_size, 5)
    hands = np.ascontiguousarray(deck_size - 1 - lex[::-1, ::-1])   # colex: row r has rank r
    cards = [hands[:, j].astype(np.int16) for j in range(5)]
    suits = [c & 3 for c in cards[:4]] + [np.where(cards[4] == JOKER, 4, cards[4] & 3)]  # the joker: last
    b = binomials()
    code = sum(b[j + 1].take((cards[j] >> 2) + j) for j in range(5))   # the ranks, a multiset of 14
    for j in range(1, 5):   # the suits: the first place holding the same suit as place j
        first = np.full(len(hands), j, dtype=np.int64)
        for i in range(j - 1, -1, -1):
            first[suits[i] == suits[j]] = i
        code = code * (j + 1) + first
    present = np.zeros(int(code.max()) + 1, dtype=bool)
    present[code] = True
    index = (np.cumsum(present, dtype=np.int32) - 1)[code]
    one = np.empty(int(index.max()) + 1, dtype=np.int64)
    one[index] = np.arange(len(hands))
    return hands, index, one


def _hold_table(policy: DrawPolicy, rules: RuleSet) -> tuple[bytes, bytes, bytes, tuple[float, ...]]:
    """The policy's hold for every possible hand at once, indexed by the hand's colex rank.

    Hold numbers (bit i keeps the i-th lowest card) of the usual and the alternative hold, the
    deviation rate as an index into a tuple of rates. One vectorized pass over the suit classes
    (well under a second); shared by every seat with the same policy and draw rules.
    """
    hands, index, one = _suit_classes(rules.deck_size)
    plan = hold_plan(policy, hands[one], rules)
    rates, rate_index = np.unique(plan.alt_rate, return_inverse=True)
    return (hold_numbers(plan.keep).astype(np.uint8)[index].tobytes(),
            hold_numbers(plan.alt_keep).astype(np.uint8)[index].tobytes(),
            rate_index.astype(np.uint8)[index].tobytes(), tuple(rates.tolist()))


# Per (policy, draw rules), shared by every Drawer in this process (e.g. every seat of every chunk
# of a long simulation): the holds asked so far by suit pattern, how many were new, and once that
# passes _TABLE_AFTER_MISSES the table of every hand. A speed cache only: a Drawer with or without
# the table makes the same holds and draws the same random numbers.
_ASKED: dict[DrawKey, dict[tuple[int, ...], tuple[int, int, float]]] = {}
_BUILT: dict[DrawKey, tuple[bytes, bytes, bytes, tuple[float, ...]]] = {}


def build_tables(rules: RuleSet, names: Sequence[str]) -> None:
    """Build now the hold table the named players will draw with (e.g. before starting worker
    processes, which then inherit it). Only for players that open pots: players that never bet
    (``station``, ``trips``) draw only when someone else opens, and build it once they need it."""
    if any(name.strip().lower() in _TABLE_PLAYERS for name in names):
        key = _draw_key(draw_policy("standard"), rules)
        if key not in _BUILT:
            _BUILT[key] = _hold_table(key[0], rules)


class Drawer:
    """Draw decisions of one seat through a ``DrawPolicy`` from ``drawodds.policies``.

    Small runs ask the policy per suit pattern (cached); long runs switch to a table of every
    hand, which later seats in the same process then use at once. Both give the same holds and
    use the generator the same way.
    """

    def __init__(self, rules: RuleSet, rng: np.random.Generator, name: str = "standard",
                 **params: Any) -> None:

        self.policy = draw_policy(name, **params)
        self.rules = rules
        self.rng = rng
        self.key = _draw_key(self.policy, rules)
        self.table = _BUILT.get(self.key)
        self._cache = _ASKED.setdefault(self.key, {})

    def discards(self, hand: Sequence[int], limit: int) -> list[int]:
        """The cards to throw away (at most ``limit``: the lowest are thrown first)."""
        ordered = sorted(hand)
        table = self.table
        if table is not None:
            keep_bits, alt_bits, rate_index, rates = table
            b0, b1, b2, b3, b4 = _BINOM
            r = b0[ordered[0]] + b1[ordered[1]] + b2[ordered[2]] + b3[ordered[3]] + b4[ordered[4]]
            keep, alt, rate = keep_bits[r], alt_bits[r], rates[rate_index[r]]
        else:
            relabel: dict[int, int] = {}
            key = tuple(c if c == 52 else (c & ~3) | relabel.setdefault(c & 3, len(relabel))
                        for c in ordered)
            plan = self._cache.get(key)
            if plan is None:
                plan = self._ask(key)
            keep, alt, rate = plan
        if rate > 0 and self.rng.random() < rate:
            keep = alt
        out = [c for i, c in enumerate(ordered) if not keep >> i & 1]
        return out[:limit]

    def _ask(self, key: tuple[int, ...]) -> tuple[int, int, float]:
        self.table = _BUILT.get(self.key)
        if self.table is None and len(self._cache) >= _TABLE_AFTER_MISSES:
            self.table = _BUILT[self.key] = _hold_table(self.policy, self.rules)
            self._cache.clear()
        # The relabelled key keeps card order (suits only renamed), so bit i still means card i.
        hp = hold_plan(self.policy, np.array([key], dtype=np.int8), self.rules)
        plan = (int(hold_numbers(hp.keep[0])), int(hold_numbers(hp.alt_keep[0])), float(hp.alt_rate[0]))
        self._cache[key] = plan
        return plan


class RandomLegal:
    """A uniformly random legal action; draws a random legal number of random cards."""

    name = "random"

    def __init__(self, rng: np.random.Generator, muck_rate: float = 0.1) -> None:
        self.rng = rng
        self.muck_rate = muck_rate
        self._u: list[float] = []

    def _uniform(self) -> float:
        if not self._u:  # one numpy call per 4096 draws
            self._u = self.rng.random(4096).tolist()
        return self._u.pop()

    def _below(self, k: int) -> int:
        return min(int(self._uniform() * k), k - 1)

    def __call__(self, obs: Observation) -> Action:
        if obs.phase == "draw":
            hand = list(obs.hand)
            k = self._below(obs.max_draw + 1)
            if k == 4 and obs.rules.max_draw == "4-ace":
                keep = next(c for c in hand if obs.rules.draw_aces(c))  # the ace must stay
                return draw(*(c for c in hand if c != keep))
            for i in range(k):  # a partial Fisher-Yates shuffle picks k distinct cards
                j = i + self._below(5 - i)
                hand[i], hand[j] = hand[j], hand[i]
            return draw(*hand[:k])
        if obs.phase == "showdown":
            return MUCK if self._uniform() < self.muck_rate else SHOW
        legal = obs.legal
        return Action(legal[self._below(len(legal))].kind)


class FixedBetting:
    """A player whose betting is one fixed rule (``bet``); it draws like the standard player,
    answers a declaration with ``declare`` and always shows."""

    always_shows = True
    declare = "pass"

    def __init__(self, rules: RuleSet, rng: np.random.Generator) -> None:
        self.drawer = Drawer(rules, rng)

    def __call__(self, obs: Observation) -> Action:
        if obs.phase == "draw":
            return draw(*self.drawer.discards(obs.hand, obs.max_draw))
        if obs.phase == "declare":
            return Action(self.declare)
        return self.bet(obs)

    def bet(self, obs: Observation) -> Action:
        raise NotImplementedError


class CallingStation(FixedBetting):
    """Calls every bet, never bets or raises, always shows; draws like the standard player."""

    name = "station"

    def bet(self, obs: Observation) -> Action:
        return CALL if obs.to_call > 0 else CHECK


class RuleBased:
    """Bets on strength and pot odds; a simple, readable baseline rather than a strong player.

    Win chance is estimated as (share of hands it beats) ** (opponents still in); before the
    draw a four-flush counts as a medium pair. It opens at ``open_share`` and above (and only
    with openers when the rules want them), raises at ``raise_share`` (at most to bet + ``own_cap``
    raises, so two strong hands heads-up do not raise until one is all-in), calls when the
    estimated win chance pays the pot odds. With ``snow`` > 0 it sometimes stands pat on nothing
    and then bets as if it held a made hand.
    """

    name = "rule"
    always_shows = True

    def __init__(self, rules: RuleSet, rng: np.random.Generator, *, open_share: float = 0.62,
                 raise_share: float = 0.85, snow: float = 0.0, draw_policy: str = "standard",
                 own_cap: int = 4) -> None:
        self.rules = rules
        self.rng = rng
        self.open_share = open_share
        self.raise_share = raise_share
        self.own_cap = own_cap  # never raises past bet + this many raises, even heads-up
        self.drawer = Drawer(rules, rng, draw_policy, snow=snow)
        self.pct = _percentiles()
        self.made = category_floor(STRAIGHT)
        self.pair = category_floor(ONE_PAIR)
        self.flush = category_floor(FLUSH)
        self._raise_win = raise_share ** 2
        self._snowing: int | None = None  # deal id in which this seat stood pat on nothing

    def _share(self, obs: Observation, strength: int) -> float:
        share = self.pct[strength]
        if obs.round == 0 and strength < self.pair:
            # Four of one suit among the real cards: then one of the first two is of that suit.
            suits = [c & 3 for c in obs.hand if c < JOKER]
            if len(suits) >= 4 and (suits.count(suits[0]) >= 4 or suits.count(suits[1]) >= 4) \
                    and share < 0.7:
                share = 0.7
        if self._snowing == obs.deal_id and share < self.pct[self.flush]:
            share = self.pct[self.flush]
        return share

    def _win(self, obs: Observation, strength: int, share: float, opponents: int) -> float:
        """Estimated chance to win: the share of hands beaten, once per opponent still in."""
        return share ** opponents

    def __call__(self, obs: Observation) -> Action:
        phase = obs.phase
        if phase != "bet":
            if phase == "draw":
                discards = self._discards(obs)
                if not discards and hand_strength(obs.hand) < self.made:
                    self._snowing = obs.deal_id
                return draw(*discards)
            return DECLARE if phase == "declare" else SHOW
        strength = hand_strength(obs.hand)
        share = self._share(obs, strength)
        can_bet = can_raise = False
        for legal in obs.legal:
            if legal.kind == "bet":
                can_bet = True
            elif legal.kind == "raise":
                can_raise = True
        if can_bet and share >= self.open_share:
            return BET
        seat, folded = obs.seat, obs.folded
        opponents = 0
        for s in obs.seats:
            if s != seat and not folded[s]:
                opponents += 1
        if can_raise and obs.raises <= self.own_cap and share >= self.raise_share \
                and self._win(obs, strength, share, opponents) >= self._raise_win:
            return RAISE
        to_call = obs.to_call
        if to_call <= 0:
            return CHECK
        if self._win(obs, strength, share, opponents) * (obs.pot + to_call) >= to_call:
            return CALL
        return FOLD

    def _discards(self, obs: Observation) -> list[int]:
        return self.drawer.discards(obs.hand, obs.max_draw)


class DrawReader(RuleBased):
    """RuleBased, but after a draw it weighs its hand against what each opponent's draw count
    says: the final-strength distribution of a standard player seen drawing that many cards
    (``sim.reading.final_strength_distribution``), instead of against any hand at all."""

    name = "reader"

    def __init__(self, rules: RuleSet, rng: np.random.Generator, **kw: Any) -> None:
        super().__init__(rules, rng, **kw)
        self._below: dict[int, np.ndarray] = {}   # draw count -> P(their strength < s) + P(= s)/2

    def _beaten(self, draw_count: int) -> np.ndarray:
        if draw_count not in self._below:

            p = final_strength_distribution(self.rules, draw_policy("standard"), draw_count)
            self._below[draw_count] = np.cumsum(p) - p / 2
        return self._below[draw_count]

    def _win(self, obs: Observation, strength: int, share: float, opponents: int) -> float:
        if obs.round == 0 or not obs.draw_counts:
            return super()._win(obs, strength, share, opponents)
        last, win = obs.draw_counts[-1], 1.0
        for s in obs.seats:
            if s != obs.seat and not obs.folded[s]:
                win *= float(self._beaten(last[s])[strength]) if last[s] >= 0 else share
        return win


class PatTwoPair(RuleBased):
    """RuleBased, but stands pat with two pair (instead of drawing one) and bets it as a made
    hand: the move the Swedish Mörkpoker page recommends against a player who drew three."""

    name = "pat"

    def _discards(self, obs: Observation) -> list[int]:
        if category_floor(TWO_PAIR) <= obs.strength < category_floor(TRIPS):
            return []
        return super()._discards(obs)


class AlwaysRaise(FixedBetting):
    """Bets or raises whenever the rules allow (heads-up without a cap: until someone is all-in),
    never folds, always shows; draws like the standard player."""

    name = "raiser"
    declare = "declare"

    def bet(self, obs: Observation) -> Action:
        if obs.can("raise"):
            return RAISE
        if obs.can("bet"):
            return BET
        return CALL if obs.to_call > 0 else CHECK


class AlwaysSnow(RuleBased):
    """Stands pat on every hand and, before the draw and after it, bets, raises (up to bet + 4
    raises) and calls as if it held a flush: the snow as a habit, a bluff every deal."""

    name = "snower"

    def _share(self, obs: Observation, strength: int) -> float:
        return max(self.pct[strength], self.pct[self.flush])

    def _discards(self, obs: Observation) -> list[int]:
        return []


class TripsOrFold(FixedBetting):
    """Never bets or raises; facing a bet it folds unless it holds trips or better (then it
    calls). Before the draw it judges the hand it was dealt, after the draw its final hand;
    draws like the standard player."""

    name = "trips"

    def __init__(self, rules: RuleSet, rng: np.random.Generator) -> None:
        super().__init__(rules, rng)
        self.trips = category_floor(TRIPS)

    def bet(self, obs: Observation) -> Action:
        if obs.to_call <= 0:
            return CHECK
        return CALL if obs.strength >= self.trips else FOLD


def make_player(name: str, rules: RuleSet, rng: np.random.Generator) -> Player:
    """A betting player by name (one of ``PLAYER_NAMES``) with its own random generator."""
    key = name.strip().lower()
    if key == "rule":
        return RuleBased(rules, rng)
    if key == "reader":
        return DrawReader(rules, rng)
    if key == "pat":
        return PatTwoPair(rules, rng)
    if key == "station":
        return CallingStation(rules, rng)
    if key == "random":
        return RandomLegal(rng)
    if key == "raiser":
        return AlwaysRaise(rules, rng)
    if key == "snower":
        return AlwaysSnow(rules, rng)
    if key == "trips":
        return TripsOrFold(rules, rng)
    # "policy" here is the word of the CLI option (--policy) the name comes from.
    raise RequestError("unknown policy {name}; choose from: {choices}", name=repr(name),
                       choices=', '.join(PLAYER_NAMES))
