"""Sessions and long simulations: deals in a row with a moving button, busts, rebuys, standings.

A ``Session`` is one evening: every seat starts with ``rules.stack`` chips and ``rules.deals``
deals are played (fewer if all but one player bust and nobody rebuys). ``simulate`` plays
sessions back to back at one table until the requested number of deals is reached: the button
keeps moving and a pot left on the table carries into the next session, so the seats' nets plus
the pot left at the end always add up to zero.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from drawodds.engine.deal import DealResult, DealState, Player, play
from drawodds.engine.history import HistoryWriter
from drawodds.engine.players import PLAYER_NAMES, build_tables, make_player
from drawodds.errors import DEALS, RequestError, check_seed
from drawodds.execution import Runner, chunk_sizes
from drawodds.results import Result, shown_as
from drawodds.rules import RuleSet
from drawodds.sim.stats import Estimate, from_sums

DECK_BLOCK = 2048  # decks shuffled per numpy call


class DeckSupply:
    """Shuffled decks from one Generator, many per numpy call; also reshuffles a rebuilt stub."""

    def __init__(self, rng: np.random.Generator, size: int) -> None:
        self.rng = rng
        self.base = np.tile(np.arange(size, dtype=np.int8), (DECK_BLOCK, 1))
        self.block: list[list[int]] = []

    def next(self) -> list[int]:
        if not self.block:
            self.block = self.rng.permuted(self.base, axis=1).tolist()
            self.block.reverse()
        return self.block.pop()

    def reshuffle(self, cards: list[int]) -> list[int]:
        return [cards[i] for i in self.rng.permutation(len(cards))]


@dataclass(frozen=True, repr=False)
class Standing(Result):
    """One seat at the end of a session."""

    seat: int
    player: str
    chips: int
    rebuys: int
    net: int  # chips minus the starting stack and every rebuy


class Session:
    """Deals in a row at one table: button rotation, antes (and the consecutive-ante limit),
    busted players sitting out or rebuying, a pot carried from deal to deal."""

    def __init__(self, rules: RuleSet, players: Sequence[Player], *, names: Sequence[str] | None = None,
                 decks: DeckSupply, button: int = 0, carried: int = 0, first_deal_id: int = 0,
                 history: HistoryWriter | None = None) -> None:
        self.rules = rules
        self.players = list(players)
        self.names = list(names) if names else [getattr(p, "name", "player") for p in players]
        self.n = len(players)
        self.stacks = [rules.stack] * self.n
        self.rebuys = [0] * self.n
        self.button = button
        self.carried = carried
        self.decks = decks
        self.deal_id = first_deal_id
        self.passed_in_a_row = 0
        self.history = history
        self.deals_played = 0

    def can_deal(self) -> bool:
        """At least two players have chips (after any rebuys)."""
        if self.rules.rebuy:
            for s in range(self.n):
                if self.stacks[s] <= 0:
                    self.stacks[s] = self.rules.stack
                    self.rebuys[s] += 1
        return sum(1 for c in self.stacks if c > 0) >= 2

    def play_deal(self) -> DealResult:
        """Deal once (the caller checks ``can_deal`` first) and move the button."""
        rules = self.rules
        while self.stacks[self.button] <= 0:  # a seat without chips does not deal
            self.button = (self.button + 1) % self.n
        limit = rules.max_consecutive_antes
        antes = limit is None or self.passed_in_a_row < limit
        state = DealState(rules, self.stacks, self.button, self.decks.next(), carried=self.carried,
                          antes=antes, deal_id=self.deal_id, reshuffle=self.decks.reshuffle)
        result = play(state, self.players)
        if self.history is not None:
            self.history.write(state)
        self.stacks = list(result.stacks)
        self.carried = result.carried_out
        self.passed_in_a_row = self.passed_in_a_row + 1 if result.outcome == "passed_out" else 0
        self.button = (self.button + 1) % self.n
        self.deal_id += 1
        self.deals_played += 1
        return result

    def standings(self) -> list[Standing]:
        """Seats by chips, most first (ties by seat)."""
        rows = [Standing(s, self.names[s], self.stacks[s], self.rebuys[s],
                         self.stacks[s] - self.rules.stack * (1 + self.rebuys[s])) for s in range(self.n)]
        return sorted(rows, key=lambda r: (-r.chips, r.seat))


@dataclass(frozen=True, repr=False)
class SeatResult(Result):
    """Chips one seat won over the whole run."""

    seat: int
    player: str = field(metadata=shown_as(name="policy"))   # JSON keeps the CLI's word
    net: int
    net_per_deal: float
    net_per_deal_se: float


@dataclass(frozen=True, repr=False)
class PlayerResult(Result):
    """Chips all seats of one kind of betting player won together."""

    player: str = field(metadata=shown_as(name="policy"))
    seats: int
    net: int
    net_per_deal: float
    net_per_deal_se: float


@dataclass(frozen=True, repr=False)
class SimulationResult(Result):
    """Shares of deal outcomes, pots and chips won per seat and per kind of player, each with a
    standard error. ``to_dict()`` is the JSON of ``drawodds simulate --json``."""

    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    players: int
    deals: int
    seed: int
    passed_out: float
    passed_out_se: float
    uncontested: float
    uncontested_se: float
    showdown: float
    showdown_se: float
    opened: float
    opened_se: float
    dead_opener: float            # share of opened deals whose opener could not prove openers
    dead_opener_se: float
    average_pot: float            # chips in the middle when a deal ends, carried pots included
    average_pot_se: float
    pot_carried_at_end: int
    sessions: int
    seats: tuple[SeatResult, ...]
    by_player: tuple[PlayerResult, ...] = field(metadata=shown_as(name="policies"))
    interrupted: bool = False     # stopped by Ctrl-C: the figures cover the deals played

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "rule_set": self.rules.to_dict()}


def parse_players(players: Sequence[str] | str, seats: int) -> list[str]:
    """One betting player's name per seat, from a list or a comma-separated string (one name =
    every seat)."""
    names = [p.strip().lower() for p in (players.split(",") if isinstance(players, str) else players)]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise RequestError("give one policy per seat ({seats}) or a single one for all; got {count}", seats=seats,
                           count=len(names))
    return names


PlayerFactory = Callable[[RuleSet, np.random.Generator], Player]
"""Builds one seat's player from the rules and the seat's own generator. Factories passed to
``simulate`` are pickled into worker processes with every chunk, so they should be small (e.g.
hold a file path and load what they need once per process). A factory may have a
``check(rules)`` method: ``simulate`` calls it before any deal, to refuse rules it cannot play."""

CHUNK_DEALS = 10_000   # deals per chunk: one table's run from its own random streams
TABLE_DEALS = 1_000    # a chunk this long draws often enough for the players' hold tables to pay at once
OUTCOMES = ("passed_out", "uncontested", "showdown", "void")


@dataclass
class _Tally:
    """Running sums of one run of deals: outcomes, pots and nets per seat and per policy."""

    played: int = 0
    sessions: int = 0
    opened: int = 0
    dead: int = 0
    carried: int = 0
    pot_sum: float = 0.0
    pot_sq: float = 0.0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    net_sum: list[float] = field(default_factory=list)
    net_sq: list[float] = field(default_factory=list)
    kind_sum: list[float] = field(default_factory=list)
    kind_sq: list[float] = field(default_factory=list)
    interrupted: bool = False       # Ctrl-C inside the chunk: the sums cover the deals that finished

    def merge(self, other: _Tally) -> None:
        for name in ("played", "sessions", "opened", "dead", "carried", "pot_sum", "pot_sq"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for k, v in other.counts.items():
            self.counts[k] += v
        self.interrupted |= other.interrupted
        for name in ("net_sum", "net_sq", "kind_sum", "kind_sq"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)] if mine else list(theirs))



def _play_chunk(rules: RuleSet, names: list[str], seed: int, index: int, deals: int,
                writer: HistoryWriter | None = None, progress: Callable[[int], None] | None = None,
                factories: Mapping[str, PlayerFactory] | None = None) -> _Tally:
    """Chunk ``index``: ``deals`` deals at a fresh table (button 0, no pot), sessions back to back,
    every seat's player and the decks drawing from the chunk's own ``(seed, index)`` streams."""
    n = rules.players
    if deals >= TABLE_DEALS:
        build_tables(rules, names)
    deck_seq, *seat_seqs = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(n + 1)
    decks = DeckSupply(np.random.default_rng(deck_seq), rules.deck_size)
    made = factories or {}
    seat_players = [(made[name] if name in made else functools.partial(make_player, name))(
        rules, np.random.default_rng(sq)) for name, sq in zip(names, seat_seqs, strict=True)]
    kinds = sorted(set(names), key=names.index)
    by_kind = [[s for s in range(n) if names[s] == k] for k in kinds]
    t = _Tally(net_sum=[0.0] * n, net_sq=[0.0] * n, kind_sum=[0.0] * len(kinds), kind_sq=[0.0] * len(kinds))
    first_id = index * CHUNK_DEALS
    button = 0
    session = None
    try:
        while t.played < deals:
            session = Session(rules, seat_players, names=names, decks=decks, button=button,
                              carried=t.carried, first_deal_id=first_id + t.played, history=writer)
            t.sessions += 1
            while session.deals_played < rules.deals and t.played < deals and session.can_deal():
                result = session.play_deal()
                t.played += 1
                t.counts[result.outcome] += 1
                if result.outcome != "passed_out" and result.opener is not None:
                    t.opened += 1
                    t.dead += result.dead_opener
                t.pot_sum += result.pot
                t.pot_sq += result.pot * result.pot
                net = result.net
                for s in range(n):
                    x = net[s]
                    t.net_sum[s] += x
                    t.net_sq[s] += x * x
                for k, seats in enumerate(by_kind):
                    x = sum(net[s] for s in seats)
                    t.kind_sum[k] += x
                    t.kind_sq[k] += x * x
                if progress is not None and t.played % 1000 == 0:
                    progress(t.played)
            if session.deals_played == 0:
                raise RequestError("no deal could be played: fewer than two players have chips")
            button, t.carried = session.button, session.carried
    except KeyboardInterrupt:
        # Played in this process: keep the deals that finished; the one being played is dropped.
        if session is None:
            raise
        t.interrupted = True
        t.carried = session.carried
    return t


def _stop_if_interrupted(index: int, tally: _Tally) -> None:
    if tally.interrupted:
        raise KeyboardInterrupt


def simulate(rules: RuleSet, *, deals: int = 10_000, seed: int = 1, players: Sequence[str] | str = "rule",
             history: str | Path | None = None, progress: Callable[[int], None] | None = None,
             workers: int | None = None, scheduler: str | None = None,
             runner: Runner | None = None,
             factories: Mapping[str, PlayerFactory] | None = None) -> SimulationResult:
    """Play ``deals`` deals under ``rules`` and summarise them.

    ``players`` names one betting player per seat (see ``PLAYER_NAMES``) or one for every seat;
    ``factories`` adds players by name (see ``PlayerFactory``), e.g. one that plays a solved
    strategy. The deals are cut into chunks of ``CHUNK_DEALS``, each a table of its own seeded
    from ``(seed, chunk)``, so the same seed gives the same deals, actions and result on any
    number of workers (None: every core). ``progress`` gets the number of deals played so far. ``history`` writes
    every deal (JSON lines for a ``.jsonl`` path, else a text log); it plays the chunks in this
    process, in order. On Ctrl-C the result covers the chunks that finished.
    """
    if rules.game != "draw":
        raise RequestError("{rule_set} is a points game; simulate its games with simulate_points", rule_set=rules.name)
    DEALS.check(deals)
    check_seed(seed)
    names = parse_players(players, rules.players)
    factories = {k.strip().lower(): f for k, f in (factories or {}).items()}
    known = (*PLAYER_NAMES, *(k for k in factories if k not in PLAYER_NAMES))
    for name in names:
        if name not in known:
            raise RequestError("unknown policy {name}; choose from: {choices}", name=repr(name),
                               choices=', '.join(known))
    for name in sorted(set(names) & set(factories), key=names.index):
        check = getattr(factories[name], "check", None)
        if check is not None:
            check(rules)
    n = rules.players
    writer = HistoryWriter(history, rules, seed=seed, players=names) if history else None
    sizes = chunk_sizes(deals, CHUNK_DEALS)
    total = _Tally(net_sum=[0.0] * n, net_sq=[0.0] * n)
    # A history is written in deal order by this process, whatever runner the caller offers.
    own = Runner(1) if writer else (Runner(workers, scheduler) if runner is None else None)
    try:
        with own or contextlib.nullcontext():
            run = own or runner
            assert run is not None
            inline = not run.spreads(len(sizes))
            if not inline:   # local workers start as copies of this process: build their tables once, here
                build_tables(rules, names)
            used = {k: f for k, f in factories.items() if k in names} or None
            calls = [(rules, names, seed, i, size, writer if inline else None,
                      (lambda k, base=i * CHUNK_DEALS: progress(base + k)) if inline and progress else None, used)
                     for i, size in enumerate(sizes)]
            batch = run.map(_play_chunk, calls, each=_stop_if_interrupted,
                            progress=(lambda k: progress(sum(sizes[:k]))) if progress else None)
    finally:
        if writer is not None:
            writer.close()
    for tally in batch.results:
        total.merge(tally)
    if total.played == 0:
        raise KeyboardInterrupt
    played, counts, opened, dead = total.played, total.counts, total.opened, total.dead
    pot_sum, pot_sq, net_sum, net_sq = total.pot_sum, total.pot_sq, total.net_sum, total.net_sq
    kind_sum, kind_sq, sessions, carried = total.kind_sum, total.kind_sq, total.sessions, total.carried
    kinds = sorted(set(names), key=names.index)
    by_kind = [[s for s in range(n) if names[s] == k] for k in kinds]

    def share(k: int, total: int) -> Estimate:
        return from_sums(k, k, total)   # k deals count 1 (1 squared is 1), the rest 0

    po, un, sd = (share(counts[k], played) for k in ("passed_out", "uncontested", "showdown"))
    op = share(opened, played)
    do = share(dead, opened) if opened else Estimate(math.nan, math.nan)
    pot = from_sums(pot_sum, pot_sq, played)
    seat_rows = []
    for s in range(n):
        est = from_sums(net_sum[s], net_sq[s], played)
        seat_rows.append(SeatResult(s, names[s], int(net_sum[s]), est.value, est.se))
    kind_rows = []
    for k, name in enumerate(kinds):
        est = from_sums(kind_sum[k], kind_sq[k], played)
        kind_rows.append(PlayerResult(name, len(by_kind[k]), int(kind_sum[k]), est.value, est.se))
    return SimulationResult(
        rules=rules, players=n, deals=played, seed=seed, sessions=sessions,
        passed_out=po.value, passed_out_se=po.se, uncontested=un.value, uncontested_se=un.se,
        showdown=sd.value, showdown_se=sd.se, opened=op.value, opened_se=op.se,
        dead_opener=do.value, dead_opener_se=do.se, average_pot=pot.value, average_pot_se=pot.se,
        pot_carried_at_end=carried, seats=tuple(seat_rows), by_player=tuple(kind_rows),
        interrupted=batch.interrupted or total.interrupted)
