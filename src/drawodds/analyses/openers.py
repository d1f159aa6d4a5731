"""Jacks or Better: how often nobody can open, how long a pot waits, how big it is when it opens.

The exact count of the deals in which nobody holds openers is in ``nobody_opens``; this module
turns it into the figures and the table of `drawodds openers`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

from drawodds.analyses.nobody_opens import count_deals, count_no_openers
from drawodds.cards import as_hand, format_cards
from drawodds.combinatorics import all_hands
from drawodds.engine.session import simulate
from drawodds.errors import ANTE, HAND_DEALS, MAX_ANTES, OPENERS_DEALS, RequestError, check_seed
from drawodds.evaluate import evaluate, jacks_or_better_floor
from drawodds.results import HIDDEN, Result, jsonable, shown_as
from drawodds.rules import preset
from drawodds.sim.stats import Estimate, proportion_se

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
        raise RequestError("players must be 1..10, got {players}", players=players)
    if players in _shipped() and players > COMPUTE_LIMIT:
        good, deals = _shipped()[players]
        if deals != count_deals(players):
            raise RuntimeError(f"corrupt data file {DATA_FILE}: wrong deal count for {players} players")
        return Fraction(good, deals)
    if players > COMPUTE_LIMIT:
        raise RequestError("no exact pass-out figure for {players} players yet: run "
                           "scripts/precompute_nobody_opens.py {players}", players=players)
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
        raise RequestError("{players} hands need {cards} cards, only {left} left", players=players, cards=5 * players,
                           left=len(stub))
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
        raise RequestError("{players} must be {low}..{high}, got {value}", "players", low=MIN_PLAYERS, high=MAX_PLAYERS,
                           value=players)
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
        raise RequestError("players must be {low}..{high}, got {players}", low=MIN_PLAYERS, high=MAX_PLAYERS,
                           players=players)
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
            raise RequestError("{players} must lie in {low}-{high}, got {sizes}", "players", low=MIN_PLAYERS,
                               high=MAX_PLAYERS, sizes=sizes)
        return sizes
    values: set[int] = set()
    for part in players.split(","):
        lo_text, dash, hi_text = part.strip().partition("-")
        try:
            lo, hi = int(lo_text), int(hi_text if dash else lo_text)
        except ValueError:
            raise RequestError("{players} takes a number or a range like 2-8, got {value}", "players",
                               value=repr(players)) from None
        if not MIN_PLAYERS <= lo <= hi <= MAX_PLAYERS:
            raise RequestError("{players} must lie in {low}-{high}, got {value}", "players", low=MIN_PLAYERS,
                               high=MAX_PLAYERS, value=repr(players))
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
