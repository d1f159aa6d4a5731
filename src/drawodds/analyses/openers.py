"""Jacks or Better: how often nobody can open, how long a pot waits, how big it is when it opens.

Exact counting over one shared deck (hands at a table are not independent). A hand without
openers has "allowed ranks" (five distinct ranks that are no straight, or one pair of tens or
lower) and is no flush. Flushes enter by inclusion-exclusion over the players forced to hold one:

    #deals nobody opens = sum_k (-1)^k C(n, k) N_k,
    N_k = #deals where k chosen players hold non-straight flushes and the other n - k hold
          allowed ranks in any suits.

N_k is a dynamic programme over the ranks deuce..ace. Players are interchangeable, so the state
is how many players sit in each small per-player state (cards so far, a low pair or not, whether
a straight is still possible). Rank-only players never need suits: at each rank they share the
cards the flush players left. Flush players get their suits assigned up front (at most two per
suit; players alone in their suit are counted by state like everybody else). States are packed
into one int64 (mixed radix) and a rank is processed one player state at a time, so every step is
a handful of numpy operations. Counts are carried as residues modulo four primes and rebuilt
exactly (Chinese remainder theorem), so every probability is an exact fraction.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, factorial, perm
from pathlib import Path

import numpy as np
import numpy.typing as npt

from drawodds.cards import as_hand, format_cards
from drawodds.combinatorics import all_hands
from drawodds.engine.session import simulate
from drawodds.errors import ANTE, HAND_DEALS, MAX_ANTES, OPENERS_DEALS, RequestError, check_seed
from drawodds.evaluate import evaluate, jacks_or_better_floor
from drawodds.results import HIDDEN, Result, jsonable, shown_as
from drawodds.rules import preset
from drawodds.sim.stats import Estimate, proportion_se

RANKS = 13
SUITS = 4
TEN = 8            # rank index of the ten: a pair of tens or lower does not open
LAST = RANKS - 1   # the ace
SIX = 4            # skipping the six with 2-3-4-5 in hand leaves only the wheel to fear

# Per-player states of a rank-only player. "live" = c consecutive ranks ending at the rank just
# processed (a straight is still possible); "dead" = unpaired, no straight possible; "W" = holds
# exactly 2-3-4-5 (only an ace makes a straight); "P" = takes single cards only from here on
# (holds a low pair, or the tens are past and no straight is possible); "D" = done.
RANK_STATES: tuple[tuple, ...] = (
    ("D",), ("P", 4), ("P", 3), ("P", 2), ("P", 1), ("W",),
    ("dead", 4), ("live", 4), ("dead", 3), ("live", 3),
    ("dead", 2), ("live", 2), ("dead", 1), ("live", 1), ("E",),
)  # processing order: every move goes to a state listed earlier (or stays put)
# Per-player states of a flush player (one suit, five distinct ranks, no straight).
FLUSH_STATES: tuple[tuple, ...] = (
    ("D",), ("W",), ("dead", 4), ("live", 4), ("dead", 3), ("live", 3),
    ("dead", 2), ("live", 2), ("dead", 1), ("live", 1), ("E",),
)


def _cards_in(state: tuple) -> int:
    return {"D": 5, "W": 4, "E": 0}.get(state[0], state[-1] if len(state) > 1 else 0)


def _feasible(state: tuple, rank: int, can_pair: bool) -> bool:
    """Can a player in ``state`` after ``rank`` still reach five cards?"""
    if state[0] == "D":
        return True
    need = 5 - _cards_in(state)
    spare = 1 if (can_pair and state[0] != "P" and rank < TEN) else 0
    return need <= LAST - rank + spare


def _moves(state: tuple, rank: int, can_pair: bool) -> dict[int, tuple]:
    """Cards taken at ``rank`` (0, 1 or 2) -> next state, for one player; illegal moves left out."""
    tag = state[0]
    out: dict[int, tuple] = {}
    if tag == "D":
        return {0: state}
    if tag == "E":
        out = {0: state, 1: ("live", 1)}
        if can_pair and rank <= TEN:
            out[2] = ("P", 2)
    elif tag == "P":
        c = state[1]
        out = {0: state, 1: ("D",) if c == 4 else ("P", c + 1)}
    elif tag == "W":
        out = {0: state}
        if rank != LAST:
            out[1] = ("D",)
    else:
        c = state[1]
        if tag == "live":
            out[0] = ("W",) if (c == 4 and rank == SIX) else ("dead", c)
        else:
            out[0] = state
        if not (tag == "live" and c == 4):          # a fifth consecutive rank is a straight
            out[1] = ("D",) if c == 4 else (tag, c + 1)
        if can_pair and rank <= TEN and c + 2 <= 5:
            out[2] = ("D",) if c == 3 else ("P", c + 2)
    out = {a: _canonical(s, rank, can_pair) for a, s in out.items()}
    return {a: s for a, s in out.items() if _feasible(s, rank, can_pair)}


def _canonical(state: tuple, rank: int, can_pair: bool) -> tuple:
    """Merge states that behave alike from the next rank on (fewer table states to carry):
    a run that can no longer reach five ranks is dead, and once the tens are past an unpaired
    rank-only player can only take single cards, just like a paired one."""
    if state[0] == "live" and rank + 5 - state[1] > LAST:
        state = ("dead", state[1])
    if can_pair and state[0] == "dead" and rank >= TEN:
        state = ("P", state[1])
    return state


@dataclass(frozen=True)
class _Layout:
    """Mixed-radix packing: digit 0 = cards left at this rank, then rank-only state counts,
    then one digit per suit class of flush players (index of their multiset of states)."""

    bases: tuple[int, ...]
    mults: tuple[int, ...]

    @staticmethod
    def build(bases: list[int]) -> _Layout:
        mults, m = [], 1
        for b in bases:
            mults.append(m)
            m *= b
        if m >= 2 ** 62:
            raise RuntimeError("state packing overflow")
        return _Layout(tuple(bases), tuple(mults))

    def digit(self, codes: npt.NDArray[np.int64], i: int) -> npt.NDArray[np.int64]:
        return (codes // self.mults[i]) % self.bases[i]


def _merge(codes: npt.NDArray[np.int64], weights: npt.NDArray[np.int64]
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Sum the weights (residues, one column per prime) of equal codes."""
    if len(codes) == 0:
        return codes, weights
    order = np.argsort(codes, kind="stable")   # the parts arrive as sorted runs: timsort merges them
    codes, weights = codes[order], weights[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    return codes[starts], np.add.reduceat(weights, starts, axis=0) % _PRIMES


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.3e24."""
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _primes_below(limit: int, count: int) -> tuple[int, ...]:
    found: list[int] = []
    n = limit - 1
    while len(found) < count:
        if _is_prime(n):
            found.append(n)
        n -= 2 if n % 2 else 1
    return tuple(found)


# Counts are carried modulo four primes below 2**40 and rebuilt by the Chinese remainder theorem:
# exact below ~2**159, and every count here is at most the number of deals (< 2**157 for ten
# players). A residue times a step factor (< 2**11) plus a few such terms stays inside int64, so
# the residues are reduced only when equal states are merged.
_PRIME_TUPLE = _primes_below(2 ** 40, 4)
_PRIMES = np.array(_PRIME_TUPLE, np.int64)


def _crt(residues: Iterable[int]) -> int:
    """The integer in [0, prod(primes)) with these residues."""
    total, modulus = 0, 1
    for r, p in zip(residues, _PRIME_TUPLE, strict=False):
        # total + modulus * t == r (mod p)
        t = (int(r) - total) * pow(modulus, -1, p) % p
        total += modulus * t
        modulus *= p
    return total


@functools.cache
def _class_states(size: int) -> tuple[tuple[int, ...], ...]:
    """Multisets (sorted index tuples) of ``size`` flush-player states."""
    return tuple(itertools.combinations_with_replacement(range(len(FLUSH_STATES)), size))


@functools.cache
def _class_table(size: int, rank: int, suit_here: bool) -> tuple[npt.NDArray[np.int64], ...]:
    """Transitions of a suit class of ``size`` flush players at one rank: padded arrays
    (dest, took, weight) of shape (states, options); weight 0 marks no option. At most one
    player of a class takes a card (there is one card of the suit per rank)."""
    states = _class_states(size)
    index = {s: i for i, s in enumerate(states)}
    rows: list[list[tuple[int, int, int]]] = []
    for joint in states:
        moves = [_moves(FLUSH_STATES[i], rank, can_pair=False) for i in joint]
        opts: list[tuple[int, int, int]] = []
        if all(0 in m for m in moves):
            stay = tuple(sorted(FLUSH_STATES.index(m[0]) for m in moves))
            opts.append((index[stay], 0, 1))
        if suit_here:
            seen: dict[tuple[int, ...], int] = {}
            for p, m in enumerate(moves):
                if 1 not in m or not all(0 in moves[q] for q in range(size) if q != p):
                    continue
                dest = tuple(sorted(FLUSH_STATES.index(m[1]) if q == p else FLUSH_STATES.index(moves[q][0])
                                    for q in range(size)))
                seen[dest] = seen.get(dest, 0) + 1
            opts.extend((index[d], 1, w) for d, w in seen.items())
        rows.append(opts)
    return _pad(rows)


@functools.cache
def _solo_table(size: int, rank: int) -> tuple[npt.NDArray[np.int64], ...]:
    """Transitions of ``size`` flush players, each alone in its suit (full deck), at one rank:
    any of them may take their own suit's card. Same padded layout as ``_class_table``, with
    ``took`` the number of cards taken and the weight counting which labelled players took."""
    states = _class_states(size)
    index = {s: i for i, s in enumerate(states)}
    rows: list[list[tuple[int, int, int]]] = []
    for joint in states:
        moves = [_moves(FLUSH_STATES[i], rank, can_pair=False) for i in joint]
        seen: dict[tuple[int, int], int] = {}
        for choice in itertools.product(*(sorted(m) for m in moves)):
            dest = tuple(sorted(FLUSH_STATES.index(m[a]) for m, a in zip(moves, choice, strict=False)))
            key = (index[dest], sum(choice))
            seen[key] = seen.get(key, 0) + 1
        rows.append([(d, t, w) for (d, t), w in seen.items()])
    return _pad(rows)


def _pad(rows: list[list[tuple[int, int, int]]]) -> tuple[npt.NDArray[np.int64], ...]:
    """Rows of (dest, took, weight) options as padded arrays; weight 0 marks no option."""
    width = max(1, max(len(r) for r in rows))
    dest = np.zeros((len(rows), width), np.int64)
    took = np.zeros((len(rows), width), np.int64)
    weight = np.zeros((len(rows), width), np.int64)
    for i, opts in enumerate(rows):
        for j, (d, t, w) in enumerate(opts):
            dest[i, j], took[i, j], weight[i, j] = d, t, w
    return dest, took, weight


def _count_fixed_suits(rank_players: int, classes: tuple[tuple[int, int], ...],
                       suits_by_rank: tuple[frozenset[int], ...], solo: int = 0) -> int:
    """Labelled deals, all hands disjoint: ``rank_players`` hands with allowed ranks (any suits),
    flush players in suit classes ``(suit, size)`` holding non-straight flushes of that suit, and
    ``solo`` more flush players alone in their suits (full deck only: their suits never clash, so
    they are counted like rank-only players, by state).

    With every suit present at every rank, suit classes of equal size are interchangeable, so
    their digits are kept sorted (the transitions commute with swapping two such classes)."""
    symmetric = all(len(s) == SUITS for s in suits_by_rank)
    if solo and not symmetric:
        raise RuntimeError("solo flush players need the full deck")
    n_rank = len(RANK_STATES)
    rank_first, solo_digit = 1, 1 + n_rank
    class_first = solo_digit + 1
    # The solo flush players share one digit: the index of the multiset of their states.
    bases = ([SUITS + 1] + [rank_players + 1] * n_rank + [len(_class_states(solo))]
             + [len(_class_states(sz)) for _, sz in classes])
    lay = _Layout.build(bases)

    def packed(rank_state: tuple, flush_state: tuple) -> int:
        code = rank_players * lay.mults[rank_first + RANK_STATES.index(rank_state)]
        code += _class_states(solo).index((FLUSH_STATES.index(flush_state),) * solo) * lay.mults[solo_digit]
        for ci, (_, sz) in enumerate(classes):
            joint = (FLUSH_STATES.index(flush_state),) * sz
            code += _class_states(sz).index(joint) * lay.mults[class_first + ci]
        return code

    codes = np.array([packed(("E",), ("E",))], np.int64)
    weights = np.ones((1, len(_PRIMES)), np.int64)
    for rank in range(RANKS):
        here = suits_by_rank[rank]
        codes = codes + len(here) * lay.mults[0]
        for ci, (suit, sz) in enumerate(classes):
            codes, weights = _class_step(codes, weights, lay, class_first + ci, _class_table(sz, rank, suit in here))
        if solo:
            codes, weights = _class_step(codes, weights, lay, solo_digit, _solo_table(solo, rank))
        for ti in range(len(RANK_STATES) if rank_players else 0):
            codes, weights = _counted_step(codes, weights, lay, rank_first, ti, RANK_STATES, rank, rank_players)
        codes = codes - lay.digit(codes, 0) * lay.mults[0]
        if symmetric:
            codes = _sort_classes(codes, lay, classes, class_first)
        # Prune deals that cannot be completed: the players still need more cards than the
        # ranks above this one hold.
        need = np.zeros(len(codes), np.int64)
        for ti, state in enumerate(RANK_STATES):
            need += (5 - _cards_in(state)) * lay.digit(codes, rank_first + ti)
        if solo:
            need += _class_need(solo)[lay.digit(codes, solo_digit)]
        for ci, (_, sz) in enumerate(classes):
            need += _class_need(sz)[lay.digit(codes, class_first + ci)]
        keep = need <= SUITS * (LAST - rank)
        codes, weights = _merge(codes[keep], weights[keep])
        if len(codes) == 0:
            return 0
    hit = np.flatnonzero(codes == packed(("D",), ("D",)))
    return _crt(weights[hit[0]]) if len(hit) else 0


@functools.cache
def _class_need(size: int) -> npt.NDArray[np.int64]:
    """Cards still missing for each joint state of a suit class."""
    return np.array([sum(5 - _cards_in(FLUSH_STATES[i]) for i in joint) for joint in _class_states(size)], np.int64)


def _class_step(codes: npt.NDArray[np.int64], weights: npt.NDArray[np.int64], lay: _Layout, di: int,
                table: tuple[npt.NDArray[np.int64], ...]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One suit class of flush players at one rank: nobody or one of them takes the suit's card."""
    dest, took, wt = table
    d = lay.digit(codes, di)
    parts_c, parts_w = [], []
    for o in range(dest.shape[1]):
        w = wt[d, o]
        ok = w > 0
        if not ok.any():
            continue
        dd = d[ok]
        parts_c.append(codes[ok] + (dest[dd, o] - dd) * lay.mults[di] - took[dd, o] * lay.mults[0])
        parts_w.append(weights[ok] * w[ok][:, None])
    if not parts_c:
        return codes[:0], weights[:0]
    return _merge(np.concatenate(parts_c), np.concatenate(parts_w))


def _sort_classes(codes: npt.NDArray[np.int64], lay: _Layout, classes: tuple[tuple[int, int], ...],
                  first: int) -> npt.NDArray[np.int64]:
    """Sort the digits of suit classes of equal size (canonical form under suit relabelling)."""
    for size in {sz for _, sz in classes}:
        idx = [first + ci for ci, (_, sz) in enumerate(classes) if sz == size]
        if len(idx) < 2:
            continue
        digits = np.stack([lay.digit(codes, i) for i in idx], axis=1)
        ordered = np.sort(digits, axis=1)
        for col, i in enumerate(idx):
            codes = codes + (ordered[:, col] - digits[:, col]) * lay.mults[i]
    return codes


def _counted_step(codes: npt.NDArray[np.int64], weights: npt.NDArray[np.int64], lay: _Layout, first: int,
                  ti: int, states: tuple[tuple, ...], rank: int,
                  most: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Let the rank-only players counted in one state take 0, 1 or 2 of the cards left at this
    rank (any suits): choose who takes, then which cards."""
    moves = _moves(states[ti], rank, can_pair=True)
    if moves == {0: states[ti]}:
        return codes, weights
    di = first + ti
    m_all = lay.digit(codes, di)
    active = m_all > 0
    if not active.any():
        return codes, weights
    # States with nobody in this player state pass through unchanged.
    parts_c, parts_w = [codes[~active]], [weights[~active]]
    codes, weights, m = codes[active], weights[active], m_all[active]
    left = lay.digit(codes, 0)
    dest = {a: first + states.index(s) for a, s in moves.items()}
    for j1 in range(0, min(most, SUITS) + 1 if 1 in moves else 1):
        for j2 in range(0, 3 if 2 in moves else 1):
            j0 = m - j1 - j2
            used = j1 + 2 * j2
            ok = (j0 >= 0) & (left >= used)
            if 0 not in moves:
                ok &= j0 == 0
            if not ok.any():
                continue
            mm, ll, jj0 = m[ok], left[ok], j0[ok]
            ways = _choose_table()[mm, j1] * _choose_table()[mm - j1, j2] * _perm_table()[ll, used] // (2 ** j2)
            c = codes[ok] - (j1 + j2) * lay.mults[di] - used * lay.mults[0]
            if j1:
                c = c + j1 * lay.mults[dest[1]]
            if j2:
                c = c + j2 * lay.mults[dest[2]]
            if 0 in moves and dest[0] != di:
                c = c + jj0 * (lay.mults[dest[0]] - lay.mults[di])
            parts_c.append(c)
            parts_w.append(weights[ok] * ways[:, None])   # < 2**40 * 2**11: reduced in _merge
    return _merge(np.concatenate(parts_c), np.concatenate(parts_w))


@functools.cache
def _choose_table() -> npt.NDArray[np.int64]:
    return np.array([[comb(a, b) for b in range(10)] for a in range(10)], np.int64)


@functools.cache
def _perm_table() -> npt.NDArray[np.int64]:
    return np.array([[perm(a, b) for b in range(10)] for a in range(SUITS + 1)], np.int64)


def _suit_classes(k: int, symmetric: bool) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
    """Ways to give k labelled flush players suits: (multiplicity, solo players, classes).

    A suit holds at most two flushes (13 cards). With ``symmetric`` (full deck) suits are
    interchangeable: only how many suits get one or two flush players matters; the players
    alone in a suit are then counted by state (``solo``) and only shared suits are classes."""
    out = []
    if symmetric:
        for pairs in range(k // 2 + 1):
            singles = k - 2 * pairs
            if singles + pairs > SUITS:
                continue
            labelled = factorial(k) // 2 ** pairs // factorial(singles) // factorial(pairs)
            suits = factorial(SUITS) // (factorial(singles) * factorial(pairs) * factorial(SUITS - singles - pairs))
            # labelled: split players into `singles` singletons and `pairs` pairs (unordered);
            # suits: which suits hold the singletons and which the pairs, times their orders
            mult = labelled * suits * factorial(singles) * factorial(pairs)
            out.append((mult, singles, tuple((s, 2) for s in range(pairs))))
        return out
    for sizes in itertools.product(range(3), repeat=SUITS):
        if sum(sizes) == k:
            labelled = factorial(k)
            for z in sizes:
                labelled //= factorial(z)
            out.append((labelled, 0, tuple((s, z) for s, z in enumerate(sizes) if z)))
    return out


def _suits_by_rank(removed: Iterable[int] = ()) -> tuple[frozenset[int], ...]:
    gone = {int(c) for c in removed}
    return tuple(frozenset(s for s in range(SUITS) if r * SUITS + s not in gone) for r in range(RANKS))


def count_no_openers(players: int, removed: Iterable[int] = ()) -> int:
    """Exact number of labelled deals of ``players`` disjoint five-card hands, none holding
    Jacks-or-Better openers, from the deck without the ``removed`` cards."""
    if not 0 <= players <= 10:
        raise RequestError(f"players must be 0..10, got {players}")
    removed = [int(c) for c in removed]
    suits = _suits_by_rank(removed)
    symmetric = not removed
    total = 0
    for k in range(players + 1):
        n_k = sum(mult * _count_fixed_suits(players - k, classes, suits, solo)
                  for mult, solo, classes in _suit_classes(k, symmetric))
        total += (-1) ** k * comb(players, k) * n_k
    return total


def count_deals(players: int, cards: int = 52) -> int:
    """Labelled deals of ``players`` disjoint five-card hands from ``cards`` cards."""
    return perm(cards, 5 * players) // factorial(5) ** players


# --- public figures --------------------------------------------------------------------------

ALL_HANDS = comb(52, 5)
SINGLE_HAND_OPENERS = 536_100          # hands with a pair of jacks or better (tested)
P_SINGLE_OPENERS = Fraction(SINGLE_HAND_OPENERS, ALL_HANDS)
DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "nobody_opens.json"
COMPUTE_LIMIT = 4                       # table sizes counted on the fly (a few seconds at most)
MIN_PLAYERS, MAX_PLAYERS = 2, 8


def count_single_hand_openers() -> int:
    """Hands of 52 cards holding openers, counted with the evaluator over all 2,598,960 hands."""
    return int(np.count_nonzero(evaluate(all_hands()) >= jacks_or_better_floor()))


@functools.cache
def _shipped() -> dict[int, tuple[int, int]]:
    if not DATA_FILE.exists():
        return {}
    raw = json.loads(DATA_FILE.read_text())
    return {int(n): (int(v["no_openers"]), int(v["deals"])) for n, v in raw.items()}


@functools.cache
def p_nobody_opens(players: int) -> Fraction:
    """Exact probability that none of ``players`` hands dealt from one deck holds openers.

    Small tables are counted on the spot; larger ones come from the shipped data file written by
    scripts/precompute_nobody_opens.py (same function, minutes of work)."""
    if not 1 <= players <= 10:
        raise RequestError(f"players must be 1..10, got {players}")
    if players in _shipped() and players > COMPUTE_LIMIT:
        good, deals = _shipped()[players]
        if deals != count_deals(players):
            raise RuntimeError(f"corrupt data file {DATA_FILE}: wrong deal count for {players} players")
        return Fraction(good, deals)
    if players > COMPUTE_LIMIT:
        raise RequestError(f"no exact pass-out figure for {players} players yet: run "
                         f"scripts/precompute_nobody_opens.py {players}")
    return Fraction(count_no_openers(players), count_deals(players))


def exact_available(players: int) -> bool:
    """Whether ``p_nobody_opens(players)`` has an exact answer without minutes of work."""
    return players <= COMPUTE_LIMIT or players in _shipped()


def p_nobody_opens_independent(players: int) -> Fraction:
    """The independence approximation (1 - p)^n, which treats each hand as a fresh deck."""
    return (1 - P_SINGLE_OPENERS) ** players


def deal_tables(players: int, deals: int, rng: np.random.Generator,
                known: npt.ArrayLike = ()) -> npt.NDArray[np.int8]:
    """``deals`` random tables of ``players`` hands from the deck without ``known``: (deals, players, 5)."""
    known_set = {int(c) for c in np.asarray(known, dtype=np.int64).ravel()}
    stub = np.array([c for c in range(52) if c not in known_set], np.int8)
    if 5 * players > len(stub):
        raise RequestError(f"{players} hands need {5 * players} cards, only {len(stub)} left")
    shuffled = rng.permuted(np.broadcast_to(stub, (deals, len(stub))), axis=1)
    return shuffled[:, : 5 * players].reshape(deals, players, 5)


def monte_carlo_nobody_opens(players: int, deals: int, rng: np.random.Generator,
                             known: npt.ArrayLike = (), chunk: int = 100_000) -> Estimate:
    """Share of random tables where nobody holds openers (the deck without ``known``), with SE."""
    if deals <= 0:
        raise RequestError("deals must be positive")
    floor = jacks_or_better_floor()
    hits = 0
    for start in range(0, deals, chunk):
        size = min(chunk, deals - start)
        tables = deal_tables(players, size, rng, known)
        hits += int(np.count_nonzero((evaluate(tables) < floor).all(axis=1)))
    p = hits / deals
    return Estimate(p, float(proportion_se(p, deals)))


@dataclass(frozen=True, repr=False)
class SomebodyElseOpens(Result):
    """Given my five cards, the chance that at least one of the other players holds openers."""

    hand: tuple[int, ...] = field(metadata=shown_as(lambda h: format_cards(list(h))))
    players: int
    probability: float = field(metadata=shown_as(name="p_somebody_else_opens"))
    se: float                       # 0.0 when exact
    method: str                     # "exact" or "monte carlo"
    fraction: Fraction | None       # the exact value, when exact (JSON: its text, "3/8")
    deals: int | None = None
    seed: int | None = None


EXACT_OTHERS_LIMIT = 3   # exact for up to 3 other players (seconds); Monte Carlo beyond


def p_somebody_else_opens(hand: str | npt.ArrayLike, players: int, *, exact: bool | None = None,
                          deals: int = 200_000, seed: int = 1) -> SomebodyElseOpens:
    """Probability that at least one of the other ``players - 1`` can open, given my hand (text
    or card codes, no joker).

    Exact (the same rank programme on the 47 unseen cards) for up to 3 opponents, else Monte
    Carlo over ``deals`` deals with a standard error and the seed; ``exact`` forces either way."""
    cards = tuple(int(c) for c in as_hand(hand))   # type: ignore[arg-type]
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RequestError(f"{{players}} must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}", "players")
    HAND_DEALS.check(deals)
    check_seed(seed)
    others = players - 1
    if exact is None:
        exact = others <= EXACT_OTHERS_LIMIT
    if exact:
        frac = 1 - Fraction(count_no_openers(others, removed=cards), count_deals(others, 52 - 5))
        return SomebodyElseOpens(cards, players, float(frac), 0.0, "exact", frac)
    mc = monte_carlo_nobody_opens(others, deals, np.random.default_rng(seed), known=cards)
    return SomebodyElseOpens(cards, players, 1 - mc.value, mc.se, "monte carlo", None, deals, seed)


@dataclass(frozen=True, repr=False)
class PotGrowth(Result):
    """How a Jackpott pot grows while nobody opens, assuming anyone with openers opens.

    Deals are independent, so the pass-outs before an opening are geometric with the exact
    pass-out probability q. With a house limit L on consecutive antes the pot takes at most L
    antes from each player; later redeals add nothing (our reading of the Jacks-or-Better page's house rule)."""

    players: int
    ante: int
    max_consecutive_antes: int | None
    q: Fraction                      # probability a deal is passed out

    @property
    def expected_passouts(self) -> Fraction:
        return self.q / (1 - self.q)

    @property
    def expected_deals_per_opened_pot(self) -> Fraction:
        return 1 / (1 - self.q)

    def passouts_distribution(self, upto: int) -> list[tuple[int, Fraction]]:
        """P(exactly k pass-outs before the pot opens), k = 0..upto."""
        return [(k, self.q ** k * (1 - self.q)) for k in range(upto + 1)]

    def pot_distribution(self, upto_antes: int = 12) -> list[tuple[int, Fraction]]:
        """(pot at opening, probability) for 1..upto_antes rounds of antes; with a house limit
        the last entry holds everything at the limit. Without one the tail beyond is left out."""
        limit = self.max_consecutive_antes
        last = min(upto_antes, limit) if limit else upto_antes
        out = []
        for j in range(1, last + 1):
            prob = self.q ** (j - 1) if (limit and j == limit) else self.q ** (j - 1) * (1 - self.q)
            out.append((j * self.players * self.ante, prob))
        return out

    @property
    def expected_pot(self) -> Fraction:
        """Mean pot when the deal is finally opened (antes only, before any bets)."""
        limit = self.max_consecutive_antes
        rounds = (1 - self.q ** limit) / (1 - self.q) if limit else 1 / (1 - self.q)
        return self.players * self.ante * rounds


def pot_growth(players: int, ante: int = 1, max_consecutive_antes: int | None = None) -> PotGrowth:
    """Pot growth at a table of ``players`` with the exact pass-out probability."""
    if ante < 0:
        raise RequestError("ante must be >= 0")
    if max_consecutive_antes is not None and max_consecutive_antes < 1:
        raise RequestError("the limit on consecutive antes must be at least 1")
    return PotGrowth(players, ante, max_consecutive_antes, p_nobody_opens(players))


@dataclass(frozen=True, repr=False)
class TableOdds(Result):
    """Every figure of ``drawodds openers`` for one table size.

    ``to_dict`` flattens the Monte Carlo rate (``p_nobody_opens_mc`` with ``_se``, ``_deals``
    and ``_seed``), the standard errors of figures derived from it and the play figures into
    one object per table size."""

    n: int
    exact: bool                      # False: pot figures come from the Monte Carlo pass-out rate
    p_nobody_opens: float | None
    p_nobody_opens_fraction: str | None
    p_nobody_opens_independent: float
    expected_deals_per_opened_pot: float | None
    expected_passouts: float | None
    expected_pot: float | None = field(metadata=shown_as(name="expected_pot_at_opening"))
    passouts_distribution: list[float]          # P(k pass-outs before the opening), k = 0..10
    pot_distribution: list[tuple[int, float]]   # (pot at opening, probability), up to 10 antes
    p_nobody_opens_mc: Estimate | None = field(default=None, metadata=HIDDEN)
    mc_deals: int | None = field(default=None, metadata=HIDDEN)
    mc_seed: int | None = field(default=None, metadata=HIDDEN)
    play: dict[str, object] | None = field(default=None, metadata=HIDDEN)
    derived_se: dict[str, float] | None = field(default=None, metadata=HIDDEN)

    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        for key, se in (self.derived_se or {}).items():
            out[f"{key}_se"] = se
        if self.p_nobody_opens_mc is not None:
            out["p_nobody_opens_mc"], out["p_nobody_opens_mc_se"] = self.p_nobody_opens_mc
            out["p_nobody_opens_mc_deals"], out["p_nobody_opens_mc_seed"] = self.mc_deals, self.mc_seed
        play = self.play or {}
        for key in ("uncontested", "showdown", "dead_opener", "passed_out"):
            out[key] = play.get(key)
            out[f"{key}_se"] = play.get(f"{key}_se")
        for key, value in play.items():
            out.setdefault(key, value)
        return jsonable(out)


FALLBACK_MC_DEALS = 400_000   # Monte Carlo deals for a table size with no exact figure shipped


def table_odds(players: int, ante: int = 1, max_consecutive_antes: int | None = None,
               mc_deals: int = 0, seed: int = 0, play: dict[str, object] | None = None) -> TableOdds:
    """Pass-out figures for one table size: exact where counted or shipped; where not, the exact
    fields stay None and a Monte Carlo estimate with SE (``p_nobody_opens_mc``) stands beside."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RequestError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    mc = None
    if mc_deals or not exact_available(players):
        mc = monte_carlo_nobody_opens(players, mc_deals or FALLBACK_MC_DEALS,
                                      np.random.default_rng([seed, players]))
    indep = float(p_nobody_opens_independent(players))
    if not exact_available(players):
        # No exact count shipped: the pot figures follow from the Monte Carlo rate, and their
        # standard errors from moving that rate by one SE either way.
        assert mc is not None
        at = [PotGrowth(players, ante, max_consecutive_antes, Fraction(q))
              for q in (mc.value, max(mc.value - mc.se, 0.0), min(mc.value + mc.se, 1.0))]
        figs = [(float(g.expected_deals_per_opened_pot), float(g.expected_passouts), float(g.expected_pot))
                for g in at]
        ses = {key: abs(figs[2][i] - figs[1][i]) / 2 for i, key in
               enumerate(("expected_deals_per_opened_pot", "expected_passouts", "expected_pot_at_opening"))}
        return TableOdds(players, False, None, None, indep, *figs[0],
                         [float(p) for _, p in at[0].passouts_distribution(10)],
                         [(pot, float(p)) for pot, p in at[0].pot_distribution(10)],
                         p_nobody_opens_mc=mc, mc_deals=mc_deals or FALLBACK_MC_DEALS, mc_seed=seed,
                         play=play, derived_se=ses)
    growth = pot_growth(players, ante, max_consecutive_antes)
    return TableOdds(
        players, True, float(growth.q), str(growth.q), indep, float(growth.expected_deals_per_opened_pot),
        float(growth.expected_passouts), float(growth.expected_pot),
        [float(p) for _, p in growth.passouts_distribution(10)],
        [(pot, float(p)) for pot, p in growth.pot_distribution(10)],
        p_nobody_opens_mc=mc, mc_deals=mc_deals if mc else None, mc_seed=seed if mc else None, play=play)


def _conditional(part: float, whole: float, deals: int) -> tuple[float | None, float | None]:
    """A share of all deals turned into a share of the ``whole`` deals, with its binomial SE."""
    n = round(whole * deals)
    if n == 0:
        return None, None
    p = min(max(part / whole, 0.0), 1.0)
    return p, float(proportion_se(p, n))


def play_figures(players: int, deals: int, seed: int, *, ante: int = 1,
                 max_consecutive_antes: int | None = None,
                 progress: Callable[[int], None] | None = None, workers: int | None = 1) -> dict[str, object]:
    """How opened pots end under play: the rules engine with rule-based betting players.

    Jackpott (preset "jackpot") and the plain game (preset "morkpoker", where a deal is passed
    out when everybody checks). ``uncontested``, ``showdown`` and ``dead_opener`` are shares of
    the opened pots; ``passed_out`` is the share of all deals. Every figure has its SE; the seed
    reproduces it. ``progress`` gets the deals played so far (both games)."""
    figures: dict[str, object] = {"play_deals": deals, "play_seed": seed}
    games = {"": preset("jackpot", players=players, ante=ante, max_consecutive_antes=max_consecutive_antes),
             "plain_": preset("morkpoker", players=players, ante=ante)}
    for offset, (prefix, rules) in enumerate(games.items()):
        tick = (lambda k, base=offset * deals: progress(base + k)) if progress else None
        res = simulate(rules, deals=deals, seed=seed, players="rule", progress=tick, workers=workers)
        if res.interrupted:          # a part of the figures is no figure: stop the whole table
            raise KeyboardInterrupt
        figures[f"{prefix}passed_out"] = res.passed_out
        figures[f"{prefix}passed_out_se"] = res.passed_out_se
        figures[f"{prefix}opened"] = res.opened
        figures[f"{prefix}opened_se"] = res.opened_se
        # Opened pots = deals that were not passed out (a rare deal where betting never starts,
        # e.g. everybody all-in from the antes, still ends in a pot being won).
        for key in ("uncontested", "showdown"):
            value, se = _conditional(getattr(res, key), 1 - res.passed_out, res.deals)
            figures[f"{prefix}{key}"], figures[f"{prefix}{key}_se"] = value, se
        if prefix == "":   # NaN when no pot was opened; None in the JSON
            figures["dead_opener"], figures["dead_opener_se"] = res.dead_opener, res.dead_opener_se
        figures[f"{prefix}average_pot"] = res.average_pot
        figures[f"{prefix}average_pot_se"] = res.average_pot_se
    return figures


# --- the whole `openers` table -------------------------------------------------------------------

WAIT_COLUMNS = 5   # pass-outs k = 0..4 shown one by one; the rest as one tail k >= 5


@dataclass(frozen=True)
class PassoutWait:
    """How many deals a pot waits at one table size: P(k pass-outs) for k = 0..4 and k >= 5, each
    with the pot when it finally opens (antes only)."""

    players: int
    probabilities: tuple[float, ...]
    pots: tuple[int, ...]
    tail_is_floor: bool     # the last pot is a lower bound: no house limit caps it by then


@dataclass(frozen=True, repr=False)
class OpenersTable(Result):
    """Every figure of ``drawodds openers`` for several table sizes."""

    ante: int
    max_consecutive_antes: int | None
    deals: int
    seed: int
    rows: tuple[TableOdds, ...]
    interrupted: bool = False       # stopped by Ctrl-C: only the table sizes in ``rows`` finished

    @property
    def exact(self) -> bool:
        """Whether every table size has an exact pass-out count."""
        return all(r.exact for r in self.rows)

    def waits(self) -> list[PassoutWait]:
        """The pass-outs before the pot opens, per table size."""
        limit = self.max_consecutive_antes
        out = []
        for r in self.rows:
            head = r.passouts_distribution[:WAIT_COLUMNS]
            probs = (*head, 1 - sum(head))
            pots = tuple(r.n * self.ante * min(k + 1, limit or k + 1) for k in range(WAIT_COLUMNS + 1))
            out.append(PassoutWait(r.n, probs, pots, not (limit and limit <= WAIT_COLUMNS + 1)))
        return out

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "single_hand_openers": SINGLE_HAND_OPENERS, "hands": ALL_HANDS,
            "p_single_hand_openers": float(P_SINGLE_OPENERS), "ante": self.ante,
            "max_consecutive_antes": self.max_consecutive_antes, "deals": self.deals, "seed": self.seed,
            "players": [r.to_dict() for r in self.rows]}
        if self.interrupted:
            out["interrupted"] = True
        return out


def table_sizes(players: str | Iterable[int]) -> list[int]:
    """Table sizes as given: '2-8' -> [2, ..., 8]; '4' -> [4]; '2,4,6' -> [2, 4, 6], or numbers; each checked."""
    if not isinstance(players, str):
        sizes = sorted({int(n) for n in players})
        if not sizes or not all(MIN_PLAYERS <= n <= MAX_PLAYERS for n in sizes):
            raise RequestError(f"{{players}} must lie in {MIN_PLAYERS}-{MAX_PLAYERS}, got {sizes}", "players")
        return sizes
    values: set[int] = set()
    for part in players.split(","):
        lo_text, dash, hi_text = part.strip().partition("-")
        try:
            lo, hi = int(lo_text), int(hi_text if dash else lo_text)
        except ValueError:
            raise RequestError(f"{{players}} takes a number or a range like 2-8, got {players!r}", "players") from None
        if not MIN_PLAYERS <= lo <= hi <= MAX_PLAYERS:
            raise RequestError(f"{{players}} must lie in {MIN_PLAYERS}-{MAX_PLAYERS}, got {players!r}", "players")
        values.update(range(lo, hi + 1))
    return sorted(values)


def table(players: str | Iterable[int] = "2-8", *, ante: int = 1, max_consecutive_antes: int | None = None,
          deals: int = 0, seed: int = 1, progress: Callable[[int, int], None] | None = None,
          workers: int | None = None) -> OpenersTable:
    """Pass-out odds, waits and pot sizes for each table size (``table_sizes``: "2-8", "4",
    "2,4,6" or numbers); with ``deals``, how opened pots end under play (``play_figures``, on
    ``workers`` processes, None: every core). ``progress(done, total)`` counts the deals played.

    On Ctrl-C the table sizes that finished are returned, flagged ``interrupted``."""
    sizes = table_sizes(players)
    ANTE.check(ante)
    MAX_ANTES.check(max_consecutive_antes)
    OPENERS_DEALS.check(deals)
    check_seed(seed)
    total = 2 * deals * len(sizes)
    rows: list[TableOdds] = []
    try:
        for i, n in enumerate(sizes):
            tick = (lambda k, base=2 * deals * i: progress(base + k, total)) if progress else None
            play = (play_figures(n, deals, seed, ante=ante, max_consecutive_antes=max_consecutive_antes,
                                 progress=tick, workers=workers) if deals else None)
            rows.append(table_odds(n, ante=ante, max_consecutive_antes=max_consecutive_antes, seed=seed,
                                   play=play))
    except KeyboardInterrupt:
        if not rows:
            raise
        return OpenersTable(ante, max_consecutive_antes, deals, seed, tuple(rows), interrupted=True)
    return OpenersTable(ante, max_consecutive_antes, deals, seed, tuple(rows))
