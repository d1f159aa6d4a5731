"""Poengpoker and Chicago deals and games: exchange, showdown points, tricks, play to the target.

One deal (the Poengpoker page): five cards each; exchange(s) in turn from the dealer's left
(Poengpoker one, Chicago ``rules.draws`` = 3), any number of cards; the hands are shown and only
the single best hand scores its table points (``rules.hand_points``, straight flush 8 ... high
card 0); then five tricks where only the last one scores (``rules.last_trick_points``). The
dealer moves one seat left each deal. Games run until someone reaches ``rules.target_points``.

Rule decisions the page leaves open (each documented where it is applied):

* Exactly equal best hands: ``rules.points_tie``. Default "none": the page scores only *the* best
  hand, and with two identical five-card values there is no single best one; "none" also keeps
  every deal worth a whole number of points and changes nothing else. "all" and "split" are offered.
* The stub runs out (6 players, or Chicago's three exchanges): ``rules.empty_stub``. "short"
  (Poengpoker preset): discards take no further part in the deal, so a player exchanges only as
  many cards as the stub still holds, keeping the best of the cards they meant to throw.
  "reshuffle" (Chicago preset, the Norwegian 5-card draw page): the earlier discards become a new
  stub under the old one, and no player is ever given a card they discarded themselves (if even
  that is too few, the player exchanges fewer, as with "short").
* Who wins when several pass the target in one deal: the first to pass it in scoring order (hand
  points are scored at the showdown, before the tricks); among those, the highest total; a tie
  shares the win. Chicago: the highest straight flush (royal) scores 52 and ends the game at once,
  without tricks.

Everything is vectorized over many deals (rows); dealers and seats may differ per row.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd

from drawodds.cards import DECK_SIZE, as_hand, format_cards
from drawodds.errors import GAMES, RequestError, check_seed
from drawodds.evaluate import STRAIGHT_FLUSH, category_of, evaluate, strength_of
from drawodds.execution import Progress, Runner, chunk_rng, chunk_sizes
from drawodds.holds import legal_holds
from drawodds.points.tricks import TrickPlay, TrickResult, play_tricks, trick_play
from drawodds.policies import DrawPolicy, choose_holds, draw_policy
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleError, RuleSet
from drawodds.sim.stats import Estimate, mean_se, ratio_se, se_of_mean

ROYAL_POINTS = 52  # Chicago: the highest straight flush is worth 52 (the Poengpoker page)
_STUB, _HAND, _OUT, _RECYCLED = 0, 1, 2, 3

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int_]
FloatArray = npt.NDArray[np.float64]
# keep(seats (n,), hands (n, 5), exchange index) -> keep mask (n, 5), True = kept
KeepFn = Callable[[IntArray, npt.NDArray[np.int8], int], BoolArray]


def _check_points_game(rules: RuleSet) -> None:
    if rules.game not in ("poengpoker", "chicago"):
        raise RuleError("rule set {rule_set} is not a points game; use poengpoker or chicago",
                        rule_set=repr(rules.name))


# --- the deck and the exchange ------------------------------------------------------------------

@dataclass
class Stub:
    """Where every card of T deals is (stub, a hand, discarded, back in a rebuilt stub).

    ``priority`` orders the stub: the lowest available priority is the next card dealt;
    ``order`` is the deck sorted by priority (kept in step by ``reorder``).
    """

    status: npt.NDArray[np.int8]     # (T, 52)
    owner: npt.NDArray[np.uint8]     # (T, 52) bit s set: seat s has discarded this card
    priority: FloatArray             # (T, 52)
    order: npt.NDArray[np.int8]      # (T, 52) card codes by increasing priority

    @classmethod
    def shuffled(cls, rows: int, rng: np.random.Generator) -> Stub:
        priority = rng.random((rows, DECK_SIZE))
        return cls(np.zeros((rows, DECK_SIZE), np.int8), np.zeros((rows, DECK_SIZE), np.uint8),
                   priority, np.argsort(priority, axis=1).astype(np.int8))

    def copy(self) -> Stub:
        return Stub(self.status.copy(), self.owner.copy(), self.priority.copy(), self.order.copy())

    def reorder(self, rows: IntArray | slice = slice(None)) -> None:
        """Re-sort ``order`` after priorities changed."""
        self.order[rows] = np.argsort(self.priority[rows], axis=1)

    def take(self, rows: IntArray, seat: IntArray, count: IntArray) -> npt.NDArray[np.int16]:
        """The next ``count`` (<= 5) cards of the stub for ``seat``, per row, marked as in hand.

        Returns (n, 5) card codes; only the first ``count`` of each row are meaningful.
        """
        order = self.order[rows]
        avail = np.take_along_axis(self.available(rows, seat), order.astype(np.intp), axis=1)
        place = np.argsort(~avail, axis=1, kind="stable")[:, :5]  # first five available (radix sort)
        cards = np.take_along_axis(order, place, axis=1).astype(np.int16)
        taken = np.arange(5) < count[:, None]
        self.status[np.repeat(rows, 5)[taken.ravel()], cards[taken]] = _HAND
        return cards

    def available(self, rows: IntArray, seat: IntArray) -> BoolArray:
        status = self.status[rows]
        own = (self.owner[rows] >> seat[:, None].astype(np.uint8)) & 1
        return (status == _STUB) | ((status == _RECYCLED) & (own == 0))

    def rebuild(self, rows: IntArray, rng: np.random.Generator) -> None:
        """Shuffle the discards of these rows into a new stub below what is left of the old one."""
        out = self.status[rows] == _OUT
        below = self.priority[rows].max(axis=1, keepdims=True) + 1.0
        fresh = below + rng.random(out.shape)
        self.priority[rows] = np.where(out, fresh, self.priority[rows])
        self.status[rows] = np.where(out, _RECYCLED, self.status[rows])
        self.reorder(rows)


def deal(rows: int, players: int, dealer: IntArray, rng: np.random.Generator
         ) -> tuple[npt.NDArray[np.int8], Stub]:
    """Shuffle and deal five cards each, one at a time from the dealer's left: (T, P, 5) by seat."""
    stub = Stub.shuffled(rows, rng)
    order = stub.order[:, :5 * players]
    by_offset = order.reshape(rows, 5, players).transpose(0, 2, 1)   # [row, offset from left, card]
    hands = np.empty((rows, players, 5), dtype=np.int8)
    r = np.arange(rows)
    for offset in range(players):
        hands[r, (dealer + 1 + offset) % players] = by_offset[:, offset]
    stub.status[r[:, None], order] = _HAND
    return hands, stub


def exchange(hands: npt.NDArray[np.int8], stub: Stub, dealer: IntArray, rules: RuleSet,
             keep: KeepFn, rng: np.random.Generator, round_index: int = 0,
             active: BoolArray | None = None) -> npt.NDArray[np.int8]:
    """One exchange round in turn from the dealer's left; changes ``hands`` and ``stub`` in place.

    ``keep`` chooses each player's hold; ``active`` (T, P) marks the players who exchange (others
    stand pat without being asked). Returns the number of cards each seat got, (T, P).
    """
    t, p, _ = hands.shape
    rows = np.arange(t)
    got = np.zeros((t, p), dtype=np.int8)
    for offset in range(p):
        seat = (dealer + 1 + offset) % p
        sel = rows if active is None else rows[active[rows, seat]]
        if len(sel) == 0:
            continue
        s = seat[sel]
        hand = hands[sel, s]
        kept = np.asarray(keep(s, hand, round_index), dtype=bool)
        want = 5 - kept.sum(axis=1)
        n_avail = stub.available(sel, s).sum(axis=1)
        if rules.empty_stub == "reshuffle" and (short := n_avail < want).any():
            stub.rebuild(sel[short], rng)
            n_avail = stub.available(sel, s).sum(axis=1)
        n = np.minimum(want, n_avail)
        if (n < want).any():
            # Too few cards: throw only the n lowest of the intended discards.
            place = np.argsort(np.argsort(np.where(kept, 99, hand), axis=1), axis=1)
            kept = kept | (place >= n[:, None])
        thrown = ~kept
        drawn = stub.take(sel, s, n)
        slot = np.clip(np.cumsum(thrown, axis=1) - 1, 0, 4)
        new_hand = np.where(thrown, np.take_along_axis(drawn, slot, axis=1), hand).astype(np.int8)
        r_thrown = np.repeat(sel, 5)[thrown.ravel()]
        stub.status[r_thrown, hand[thrown]] = _OUT
        stub.owner[r_thrown, hand[thrown]] |= (1 << np.repeat(s, 5)[thrown.ravel()]).astype(np.uint8)
        hands[sel, s] = new_hand
        got[sel, s] = n
    return got


# --- showdown -----------------------------------------------------------------------------------

def showdown_points(hands: npt.ArrayLike, rules: RuleSet) -> tuple[FloatArray, BoolArray, BoolArray]:
    """Table points (T, P) of the shown hands, who wins the game at once (Chicago royal, (T, P)),
    and whether the best hand was tied exactly (T,).

    Only the single best hand scores ``rules.hand_points[category]``; exactly equal best hands
    follow ``rules.points_tie`` ("none": nobody, "all": each the full points, "split": shared).
    """
    strength = evaluate(hands)
    best = strength.max(axis=1, keepdims=True)
    is_best = strength == best
    n_best = is_best.sum(axis=1, keepdims=True)
    value = np.asarray(rules.hand_points, dtype=np.float64)[category_of(best)]
    royal = best == strength_of(STRAIGHT_FLUSH, (12,))
    if rules.royal_instant_win:
        value = np.where(royal, float(ROYAL_POINTS), value)
    if rules.points_tie == "none":
        share = np.where(n_best == 1, 1.0, 0.0)
    elif rules.points_tie == "all":
        share = np.ones_like(value)
    else:
        share = 1.0 / n_best
    points = np.where(is_best, value * share, 0.0)
    instant = is_best & royal & rules.royal_instant_win & (points > 0)
    return points, instant, n_best[:, 0] > 1


# --- one deal -----------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class PointsDeals(Result):
    """What T points-game deals gave: final hands, cards exchanged, points by source, tricks,
    instant wins. (One betting deal's result is ``engine.deal.DealResult``.)"""

    hands: npt.NDArray[np.int8]       # (T, P, 5) after the exchanges
    exchanged: npt.NDArray[np.int8]   # (T, rounds, P) cards each seat got per exchange
    hand_points: FloatArray           # (T, P)
    trick_points: FloatArray          # (T, P) zero on rows ended by an instant win
    instant: BoolArray                # (T, P) Chicago: this seat won the game at the showdown
    tied: BoolArray                   # (T,) the best hand was tied exactly
    tricks: TrickResult

    @property
    def points(self) -> FloatArray:
        return self.hand_points + self.trick_points


def finish_deal(hands: npt.NDArray[np.int8], stub: Stub, dealer: IntArray, rules: RuleSet,
                keep: KeepFn, tricks: Sequence[TrickPlay], rng: np.random.Generator,
                first_round: int = 0) -> PointsDeals:
    """From dealt hands: the exchanges (from round ``first_round``), showdown points and tricks."""
    t, p, _ = hands.shape
    exchanged = np.zeros((t, rules.draws, p), dtype=np.int8)
    for k in range(first_round, rules.draws):
        exchanged[:, k] = exchange(hands, stub, dealer, rules, keep, rng, k)
    hand_points, instant, tied = showdown_points(hands, rules)
    played = play_tricks(hands, (dealer + 1) % p, rules, tricks, rng)
    trick_points = played.points(rules)
    trick_points[instant.any(axis=1)] = 0.0  # the game is over before the tricks
    return PointsDeals(hands, exchanged, hand_points, trick_points, instant, tied, played)


def play_deals(rows: int, rules: RuleSet, dealer: npt.ArrayLike, keep: KeepFn,
               tricks: Sequence[TrickPlay] | TrickPlay, rng: np.random.Generator) -> PointsDeals:
    """Deal and play ``rows`` independent deals (dealer per row, or one for all)."""
    _check_points_game(rules)
    p = rules.players
    dealer_arr = np.broadcast_to(np.asarray(dealer, dtype=np.int64), (rows,)).copy()
    seat_tricks = [tricks] * p if callable(tricks) else list(tricks)
    hands, stub = deal(rows, p, dealer_arr, rng)
    return finish_deal(hands, stub, dealer_arr, rules, keep, seat_tricks, rng)


def policy_keep(draw_policies: Sequence[DrawPolicy], rules: RuleSet, rng: np.random.Generator) -> KeepFn:
    """A KeepFn that asks each seat's draw policy (``policies.choose_holds``) for its hold."""

    distinct: list[DrawPolicy] = []
    for pol in draw_policies:
        if pol not in distinct:
            distinct.append(pol)
    of_seat = np.array([distinct.index(pol) for pol in draw_policies])

    def keep(seats: IntArray, hands: npt.NDArray[np.int8], round_index: int) -> BoolArray:
        out = np.ones(hands.shape, dtype=bool)
        for i, pol in enumerate(distinct):
            sel = of_seat[seats] == i
            if sel.any():
                out[sel] = choose_holds(pol, hands[sel], rules, rng)
        return out

    return keep


# --- players and whole games ----------------------------------------------------------------------

@dataclass(frozen=True)
class PointsPlayer:
    """A points-game player: a draw policy for the exchanges and a trick strategy."""

    name: str
    draw: str = "standard"
    trick: str = "sensible"


def points_player(name: str) -> PointsPlayer:
    """'sensible' / 'random' (trick strategy, drawing by the standard policy) or 'DRAW:TRICK'."""

    draw, _, trick = name.partition(":") if ":" in name else ("standard", "", name)
    try:
        trick_play(trick)
        draw_policy(draw)
    except ValueError as exc:
        raise RequestError("points-game player {name}: {reason} (a player is TRICK or DRAW:TRICK, e.g. sensible, "
                           "random, tight:random)", name=repr(name), reason=exc) from None
    return PointsPlayer(name, draw, trick)


@dataclass(frozen=True, repr=False)
class GameRecord(Result):
    """Per-game totals for G games."""

    deals: IntArray            # (G,)
    hand_points: FloatArray    # (G, P) points from hands, summed over the game
    trick_points: FloatArray   # (G, P) points from last tricks
    wins: FloatArray           # (G, P) 1 for the winner (shared on an exact tie)
    instant: BoolArray         # (G,) ended by Chicago's instant win
    tied_deals: IntArray       # (G,) deals whose best hand was tied exactly

    @property
    def scores(self) -> FloatArray:
        return self.hand_points + self.trick_points


def settle(before: FloatArray, hand_points: FloatArray, trick_points: FloatArray,
           instant: BoolArray, target: int) -> tuple[BoolArray, FloatArray]:
    """Which games a deal ends (T,) and each seat's share of the win (T, P).

    An instant win (Chicago royal) ends the game for its holder. Otherwise the first to reach the
    target in scoring order wins: hand points are scored at the showdown, before the tricks; among
    players reaching it at the same step the highest total wins, and an exact tie shares the win.
    """
    after_show = before + hand_points
    after_deal = after_show + trick_points
    first = after_show >= target
    cand = np.where(instant.any(axis=1, keepdims=True), instant,
                    np.where(first.any(axis=1, keepdims=True), first, after_deal >= target))
    ended = cand.any(axis=1)
    top = np.where(cand, after_deal, -np.inf)
    winner = cand & (top == top.max(axis=1, keepdims=True))
    share = winner / np.maximum(winner.sum(axis=1, keepdims=True), 1)
    return np.asarray(ended, dtype=bool), np.asarray(share, dtype=np.float64)


def play_games(rules: RuleSet, games: int, players: Sequence[PointsPlayer], rng: np.random.Generator,
               progress: Progress | None = None, done_before: int = 0, total: int | None = None
               ) -> GameRecord:
    """Play ``games`` whole games at once; seat 0 is left of the first dealer (seat P-1)."""

    _check_points_game(rules)
    p = rules.players
    if len(players) != p:
        raise RequestError("need one player per seat ({seats}), got {count}", seats=p, count=len(players))
    keep = policy_keep([draw_policy(pl.draw) for pl in players], rules, rng)
    tricks = [trick_play(pl.trick) for pl in players]
    hand_pts = np.zeros((games, p))
    trick_pts = np.zeros((games, p))
    wins = np.zeros((games, p))
    deals = np.zeros(games, dtype=np.int64)
    tied = np.zeros(games, dtype=np.int64)
    instant_game = np.zeros(games, dtype=bool)
    active = np.arange(games)
    # Every deal gives at least the last trick's points, so no game lasts longer than this.
    max_deals = math.ceil(p * (rules.target_points - 1) / rules.last_trick_points) + 1
    for d in range(max_deals):
        if len(active) == 0:
            break
        dealer = np.full(len(active), (p - 1 + d) % p)
        res = play_deals(len(active), rules, dealer, keep, tricks, rng)
        before = hand_pts[active] + trick_pts[active]
        hand_pts[active] += res.hand_points
        trick_pts[active] += res.trick_points
        deals[active] += 1
        tied[active] += res.tied
        ended, share = settle(before, res.hand_points, res.trick_points, res.instant,
                              rules.target_points)
        wins[active[ended]] = share[ended]
        instant_game[active[ended]] = res.instant[ended].any(axis=1)
        active = active[~ended]
        if progress is not None:
            progress(done_before + games - len(active), total or games)
    if len(active):
        raise RuntimeError(f"{len(active)} games did not end within {max_deals} deals")
    return GameRecord(deals, hand_pts, trick_pts, wins, instant_game, tied)


@dataclass(frozen=True, repr=False)
class PointsSimulationResult(Result):
    """Whole Poengpoker / Chicago games: length, where the points come from, who wins."""

    rules: str
    players: int
    games: int
    seed: int
    # The player at each seat (seat 0 sits left of the first dealer); JSON keeps the CLI's word.
    seat_players: tuple[str, ...] = field(metadata=shown_as(name="policies"))
    deals_per_game: Estimate
    hand_share: Estimate                      # share of all points scored by hands
    trick_share: Estimate                     # share of all points scored by last tricks
    points_per_deal: Estimate
    tied_best_rate: Estimate                  # deals whose best hand was tied exactly
    instant_win_rate: Estimate                # games ended by Chicago's royal flush
    win_rate_by_seat: tuple[Estimate, ...]
    win_rate_by_player: dict[str, Estimate] = field(metadata=shown_as(name="win_rate_by_policy"))   # seat average
    interrupted: bool = False                 # stopped by Ctrl-C: the figures cover the chunks of games that finished
    # Wall-clock time: kept out of the JSON so that the same seed gives the same bytes.
    seconds: float = field(default=0.0, compare=False, metadata=HIDDEN)


GAME_BATCH = 5_000   # games per chunk: the unit of work and of random streams


def _games_chunk(rules: RuleSet, games: int, names: tuple[str, ...], seed: int, index: int,
                 progress: Progress | None, done_before: int, total: int) -> GameRecord:
    """Chunk ``index`` of a points simulation, from its own ``(seed, index)`` stream."""
    seated = [points_player(n) for n in names]
    return play_games(rules, games, seated, chunk_rng(seed, index), progress, done_before=done_before, total=total)


def simulate_points(rules: RuleSet, *, games: int = 1000, seed: int = 1,
                    players: Sequence[str] | str = "sensible",
                    progress: Progress | None = None, workers: int | None = None, scheduler: str | None = None,
                    runner: Runner | None = None) -> PointsSimulationResult:
    """Play ``games`` whole Poengpoker/Chicago games and summarise them with standard errors.

    ``players``: one player name for every seat, or one per seat ('sensible', 'random', or
    'DRAW:TRICK' such as 'tight:random'). ``progress(done, total)`` is called as games finish. Games run in chunks of
    ``GAME_BATCH`` seeded from ``(seed, chunk)``: the same answer on any number of workers (None:
    every core); on Ctrl-C the result covers the chunks that finished.
    """
    _check_points_game(rules)
    GAMES.check(games)
    check_seed(seed)
    p = rules.players
    names = [players] * p if isinstance(players, str) else list(players)
    if len(names) != p:
        raise RequestError("give one policy or one per seat ({seats} players), got {count}", seats=p, count=len(names))
    for name in dict.fromkeys(names):
        points_player(name)   # an unknown name fails here, before any work
    start = time.perf_counter()
    sizes = chunk_sizes(games, GAME_BATCH)
    own = Runner(workers, scheduler) if runner is None else None
    with own or contextlib.nullcontext():
        run = own or runner
        assert run is not None
        inline = not run.spreads(len(sizes))
        calls = [(rules, n, tuple(names), seed, i, progress if inline else None, i * GAME_BATCH, games)
                 for i, n in enumerate(sizes)]
        batch = run.map(_games_chunk, calls,
                        progress=(lambda k: progress(sum(sizes[:k]), games)) if progress and not inline else None)
    records = batch.results
    if not records:
        raise KeyboardInterrupt
    games = sum(len(r.deals) for r in records)
    deals = np.concatenate([r.deals for r in records]).astype(np.float64)
    hand = np.concatenate([r.hand_points for r in records]).sum(axis=1)
    trick = np.concatenate([r.trick_points for r in records]).sum(axis=1)
    wins = np.concatenate([r.wins for r in records])
    instant = np.concatenate([r.instant for r in records])
    tied = np.concatenate([r.tied_deals for r in records]).astype(np.float64)
    by_player: dict[str, Estimate] = {}
    for name in dict.fromkeys(names):
        seats = [i for i, n in enumerate(names) if n == name]
        by_player[name] = mean_se(wins[:, seats].mean(axis=1))
    return PointsSimulationResult(
        rules=rules.name, players=p, games=games, seed=seed, seat_players=tuple(names),
        deals_per_game=mean_se(deals),
        hand_share=ratio_se(hand, hand + trick),
        trick_share=ratio_se(trick, hand + trick),
        points_per_deal=ratio_se(hand + trick, deals),
        tied_best_rate=ratio_se(tied, deals),
        instant_win_rate=mean_se(instant),
        win_rate_by_seat=tuple(mean_se(wins[:, s]) for s in range(p)),
        win_rate_by_player=by_player,
        interrupted=batch.interrupted,
        seconds=time.perf_counter() - start,
    )


# --- which cards to keep when the last trick counts ---------------------------------------------

def hold_points(hero: npt.ArrayLike, keeps: npt.ArrayLike, rules: RuleSet, *, trials: int, seed: int,
                policy: str = "standard", trick: str = "sensible",
                seat: int | None = None) -> tuple[FloatArray, FloatArray]:
    """Points of each hold, trial by trial: (H, T) from the hand and (H, T) from the last trick.

    ``hero`` is one hand (5,) or one per trial (T, 5); ``keeps`` (H, 5) or (H, T, 5). Every hold
    meets the same opponents' deals, the same stub and the same trick-play randomness (common
    random numbers). Our later exchanges (Chicago) follow ``points_draw(policy)``, the opponents'
    ``policy``. Our exchange takes its cards from five reserved stub cards, so the opponents
    draw the same cards whatever we keep (exact unless the stub runs short, possible only with 6
    players; then we are served before them). ``seat``: our place counted from the dealer's left
    (0 = first to exchange and to lead); None = a random seat each trial.
    """

    _check_points_game(rules)
    p = rules.players
    hero_arr = np.broadcast_to(np.asarray(hero, dtype=np.int8), (trials, 5))
    keeps_arr = np.asarray(keeps, dtype=bool)
    if keeps_arr.ndim == 2:
        keeps_arr = np.broadcast_to(keeps_arr[:, None, :], (len(keeps_arr), trials, 5))
    deal_ss, play_ss = np.random.SeedSequence(seed).spawn(2)
    rng = np.random.default_rng(deal_ss)
    rows = np.arange(trials)
    dealer = (rng.integers(p, size=trials) if seat is None
              else np.full(trials, (-1 - seat) % p))
    base = Stub.shuffled(trials, rng)
    held = np.zeros((trials, DECK_SIZE), dtype=bool)
    held[rows[:, None], hero_arr] = True
    if (held.sum(axis=1) != 5).any():
        raise RequestError("a hand has a card twice")
    order = np.argsort(np.where(held, np.inf, base.priority), axis=1)
    hands = np.empty((trials, p, 5), dtype=np.int8)
    hands[:, 0] = hero_arr
    hands[:, 1:] = order[:, :5 * (p - 1)].reshape(trials, p - 1, 5)
    reserve = order[:, 5 * (p - 1):5 * p]
    base.status[rows[:, None], order[:, :5 * p]] = _HAND
    base.status[held] = _HAND
    base.priority[rows[:, None], reserve] += 10.0  # the reserve not drawn goes under the stub
    base.reorder()
    tricks = [trick_play(trick)] * p
    seats = [points_draw(policy)] + [draw_policy(policy)] * (p - 1)   # seat 0: our later exchanges

    hand_pts = np.empty((len(keeps_arr), trials))
    trick_pts = np.empty((len(keeps_arr), trials))
    for h, kept in enumerate(keeps_arr):
        stub = base.copy()
        thrown = ~kept
        slot = np.clip(np.cumsum(thrown, axis=1) - 1, 0, 4)
        h_hands = hands.copy()
        h_hands[:, 0] = np.where(thrown, np.take_along_axis(reserve, slot, axis=1), hero_arr)
        used = np.arange(5) < thrown.sum(axis=1)[:, None]
        stub.status[rows[:, None], reserve] = np.where(used, _HAND, _STUB)
        stub.status[rows[:, None], hero_arr] = np.where(thrown, _OUT, _HAND)
        stub.owner[rows[:, None], hero_arr] = thrown  # bit 0: our seat
        rng_play = np.random.default_rng(play_ss)
        res = finish_deal(h_hands, stub, dealer, rules,
                          _after_own_exchange(policy_keep(seats, rules, rng_play)), tricks, rng_play)
        hand_pts[h] = res.hand_points[:, 0]
        trick_pts[h] = res.trick_points[:, 0]
    return hand_pts, trick_pts


def points_draw(policy: str = "standard") -> DrawPolicy:
    """How we exchange after the hold being ranked (Chicago's second and third exchanges): the
    draw policy, but an ace is kept for the last trick where ``keep`` finds it pays: with a
    pair the ace stays as a kicker (draw two), with nothing a lone ace is kept (draw four)."""
    return draw_policy(policy, ace_kicker=True, ace_alone=True)


def _after_own_exchange(keep: KeepFn) -> KeepFn:
    """Seat 0 (us) stands pat in the first round: it already exchanged from the reserve."""

    def wrapped(seats: IntArray, cards: npt.NDArray[np.int8], round_index: int) -> BoolArray:
        out = keep(seats, cards, round_index)
        if round_index == 0:
            out[seats == 0] = True
        return out

    return wrapped


TRIAL_BLOCK = 20_000  # trials per block in points_by_hold (memory stays flat)


def points_by_hold(hand: str | npt.ArrayLike, rules: RuleSet, *, opponents: int, trials: int,
                   seed: int, policy: str = "standard", trick: str = "sensible",
                   seat: int | None = None, progress: Progress | None = None) -> pd.DataFrame:
    """Expected points this deal (table points + last trick) of every legal hold, best first.

    Monte Carlo over ``trials`` deals with common random numbers across holds; opponents exchange
    by the draw ``policy`` and everyone plays the tricks by the ``trick`` strategy. Columns: keep,
    discard, draw, points_hand(_se), points_trick(_se), points(_se), and se_vs_best (standard
    error of the difference to the best hold, small thanks to the common random numbers).
    Trials run in blocks of TRIAL_BLOCK; ``progress(done, total)`` is called after each block. On
    Ctrl-C the blocks that finished make the table, with ``attrs["interrupted"]`` set.
    """
    _check_points_game(rules)
    if trials < 2:
        raise RequestError("trials must be at least 2")
    cards = as_hand(hand)      # type: ignore[arg-type]  # text parsed, card codes checked as they are
    if rules.players != opponents + 1:
        rules = rules.replace(players=opponents + 1)
    masks = legal_holds(cards, rules)
    sizes = [min(TRIAL_BLOCK, trials - start) for start in range(0, trials, TRIAL_BLOCK)]
    blocks_h, blocks_t = [], []
    interrupted = False
    try:
        for size, child in zip(sizes, np.random.SeedSequence(seed).spawn(len(sizes)), strict=False):
            h, t = hold_points(cards, masks, rules, trials=size, seed=int(child.generate_state(1)[0]),
                               policy=policy, trick=trick, seat=seat)
            blocks_h.append(h)
            blocks_t.append(t)
            if progress is not None:
                progress(sum(b.shape[1] for b in blocks_h), trials)
    except KeyboardInterrupt:   # Ctrl-C: the blocks that finished make the table (attrs: interrupted)
        if not blocks_h:
            raise
        interrupted = True
    hand_pts, trick_pts = np.concatenate(blocks_h, axis=1), np.concatenate(blocks_t, axis=1)
    total = hand_pts + trick_pts
    best = int(total.mean(axis=1).argmax())
    import pandas as pd  # only where a table is asked for: it costs a quarter second to import

    df = pd.DataFrame({
        "keep": [" ".join(format_cards(cards[m])) for m in masks],
        "discard": [" ".join(format_cards(cards[~m])) for m in masks],
        "draw": 5 - masks.sum(axis=1),
        "points_hand": hand_pts.mean(axis=1),
        "points_hand_se": se_of_mean(hand_pts),
        "points_trick": trick_pts.mean(axis=1),
        "points_trick_se": se_of_mean(trick_pts),
        "points": total.mean(axis=1),
        "points_se": se_of_mean(total),
        "se_vs_best": se_of_mean(total - total[best]),
    })
    df = df.sort_values("points", ascending=False, kind="stable").reset_index(drop=True)
    df.attrs.update(rules=rules.name, opponents=opponents, trials=int(total.shape[1]), seed=seed,
                    policy=policy, trick=trick, interrupted=interrupted)
    return df


SMALL_PAIR_TOP = 5  # "small pair": deuces to sevens


def sample_pair_and_ace(rows: int, rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """Random hands (rows, 5) with exactly one small pair (deuces to sevens), one ace, no more."""
    found: list[npt.NDArray[np.int8]] = []
    have = 0
    while have < rows:
        hands = np.argsort(rng.random((max(4 * rows, 1000) * 8, 52)), axis=1)[:, :5].astype(np.int8)
        r = hands // 4
        counts = (r[:, :, None] == r[:, None, :]).sum(axis=2)
        pair_rank = np.where(counts == 2, r, -1).max(axis=1)
        ok = ((counts == 2).sum(axis=1) == 2) & (counts.max(axis=1) == 2) \
            & (pair_rank <= SMALL_PAIR_TOP) & (pair_rank >= 0) & ((r == 12).sum(axis=1) == 1)
        found.append(hands[ok])
        have += int(ok.sum())
    return np.concatenate(found)[:rows]


def ace_vs_small_pair(rules: RuleSet, *, players: Sequence[int] = (2, 3, 4, 5, 6), trials: int,
                      seed: int, policy: str = "standard", trick: str = "sensible"
                      ) -> pd.DataFrame:
    """Keep the ace (for the last trick) or the small pair? One row per table size.

    Each trial is a fresh random hand with one small pair and an ace; the three holds (pair,
    ace alone, pair + ace) meet the same deal. Columns: players, the share of deals where the
    ace alone scores more / less than the pair (with standard errors), and mean points of each
    hold (with standard errors).
    """
    rows = []
    for i, p in enumerate(players):
        table = rules.replace(players=p)
        child = np.random.SeedSequence([seed, i])
        hands = sample_pair_and_ace(trials, np.random.default_rng(child.spawn(1)[0]))
        r = hands // 4
        ace = r == 12
        pair = (r[:, :, None] == r[:, None, :]).sum(axis=2) == 2
        keeps = np.stack([pair, ace, pair | ace])
        hand_pts, trick_pts = hold_points(hands, keeps, table, trials=trials,
                                          seed=int(child.generate_state(1)[0]), policy=policy,
                                          trick=trick)
        total = hand_pts + trick_pts
        row: dict[str, float | int] = {"players": p}
        for name, event in (("ace_beats_pair", total[1] > total[0]),
                            ("pair_beats_ace", total[0] > total[1])):
            row[name], row[f"{name}_se"] = mean_se(event)
        for name, h in (("pair", 0), ("ace", 1), ("pair_ace", 2)):
            row[f"points_{name}"], row[f"points_{name}_se"] = mean_se(total[h])
            row[f"trick_{name}"] = float(trick_pts[h].mean())
        row["ace_minus_pair"], row["ace_minus_pair_se"] = mean_se(total[1] - total[0])
        rows.append(row)
    import pandas as pd

    df = pd.DataFrame(rows)
    df.attrs.update(rules=rules.name, trials=trials, seed=seed, policy=policy,
                    trick=trick)
    return df
