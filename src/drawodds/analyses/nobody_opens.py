"""Exact count of the deals at a Jacks-or-Better table in which nobody holds openers.

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
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb, factorial, perm

import numpy as np
import numpy.typing as npt

from drawodds.errors import RequestError

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
        raise RequestError("players must be 0..10, got {players}", players=players)
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
