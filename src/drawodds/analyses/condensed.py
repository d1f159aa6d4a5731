"""Condensed strategy: an ordered list of hold patterns a player can learn, derived from a table.

Every hold of every deal gets a *pattern* ("pair of jacks", "4 to a flush, 1 high card",
"KQ suited", ...), computed from the kept cards alone. Playing by a list means: take the first
pattern in the list that some legal hold of the deal matches; when several holds match it, keep
the highest cards (then the lowest hold mask). The list is built greedily from the exact table --
at each step the pattern whose first-match play loses least on the deals still undecided -- then
lines that cost almost nothing are pruned. The loss of the final list against the exact optimum
is measured over every deal, never estimated.

The list is built from coarse patterns; then, where a single deal would lose more than the bound,
a line is split into the fine patterns beneath it ("ten + nine" out of "ten + a lower card",
"AKQ suited" out of "3 to a royal flush", ``patterns.fine_codes``), or a pattern is moved up or
down, until no deal loses more than the bound or no move helps.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds import i18n
from drawodds.analyses.removal import RemovalFix, card_removal_table, keep_simulation
from drawodds.analyses.strategy import (
    CardRemovalCheck,
    HoldValues,
    Objective,
    StrategyTable,
    default_objective,
    default_opponents,
    default_rules,
    equity_card_removal_error,
    make_solver,
    parse_objective,
    policy_chooser,
    solve,
    suit_class_of,
    suit_classes,
)
from drawodds.cards import JOKER, as_hand, format_cards
from drawodds.errors import CHECK_REMOVAL, LINES, STRATEGY_OPPONENTS, RequestError, check_name, check_seed
from drawodds.evaluate import FIVE_ACES, FLUSH, FULL_HOUSE, QUADS, STRAIGHT, STRAIGHT_FLUSH
from drawodds.execution import Stage
from drawodds.holds import HOLD_POSITIONS, N_HOLDS
from drawodds.i18n import _, number
from drawodds.patterns import (
    JOKER_FLAG,
    N_CODES,
    K,
    coarse_codes,
    fine_codes,
    hold_pattern_codes,
    kept_cards,
    mergeable,
    merged_label,
    pattern_count,
    split_line,
    two_card_cells,
)
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleError, RuleSet, preset
from drawodds.sim.equity import OpponentModel
from drawodds.sim.sampler import layout_for


@dataclass(frozen=True, repr=False)
class StrategyLine(Result):
    """One printed line: one pattern, or a run of same-kind patterns merged ("pair of deuces to
    tens") where keeping the highest cards among them plays exactly as the patterns' order."""

    pattern: str
    keep: int                       # cards kept
    share: float = field(metadata=shown_as(name="deals_share"))   # fraction of deals this line decides
    codes: tuple[int, ...] = field(metadata=HIDDEN)
    core: bool = True               # in the short list; False: a line added so that no deal loses much

    @property
    def words(self) -> str:
        """The line's pattern in the reader's language (``pattern`` is its English name, which data keeps)."""
        return i18n.worded(self.pattern)

    @property
    def hold(self) -> str:
        """What the line plays, in the reader's language: stand pat, or keep some cards and draw the rest."""
        return _("stand pat") if self.keep == 5 else _("keep {keep}, draw {draw}").format(keep=self.keep,
                                                                                          draw=5 - self.keep)

    def to_dict(self) -> dict[str, object]:
        return {"pattern": self.pattern, "hold": self.hold} | super().to_dict()


@dataclass(frozen=True, repr=False)
class WorstDeal(Result):
    """The deal on which following a list loses most: the hand, the list's hold and the best hold
    (cards as dealt, highest first), and what the list gives up there (the objective's unit)."""

    hand: tuple[str, ...]
    list_keep: tuple[str, ...]
    best_keep: tuple[str, ...]
    cost: float

    def to_dict(self) -> dict[str, object]:
        return {"hand": list(self.hand), "list_keep": list(self.list_keep), "best_keep": list(self.best_keep),
                "cost": self.cost}


MAX_REGRET = 0.05           # the most a printed list loses on one deal, in the objective's unit
MAX_REGRET_EQUITY = 0.02    # the same in an equity list: a share of the pot


# --- first-match play and the condensed list -------------------------------------------------

@dataclass(frozen=True, repr=False)
class CondensedStrategy(Result):
    """An ordered list of printed lines and what following it costs against the table.

    The cost is that of the list as printed: the first line some legal hold matches, and among
    the holds matching that line the highest cards (then the lowest hold mask)."""

    patterns: tuple[int, ...] = field(metadata=HIDDEN, repr=False)   # pattern codes, line by line
    labels: tuple[str, ...] = field(metadata=HIDDEN)          # the printed text of each line
    loss: float = field(metadata=shown_as(name="strategy_loss"))   # value lost per deal vs the optimum
    optimum: float = field(metadata=HIDDEN)                   # the table's average value
    share: tuple[float, ...] = field(default=(), metadata=HIDDEN)   # fraction of deals each line decides
    groups: tuple[tuple[int, ...], ...] = field(default=(), metadata=HIDDEN, repr=False)   # the codes of each line
    mean: tuple[float, ...] = field(default=(), metadata=HIDDEN, repr=False)   # average value of each line's deals
    max_regret: float = 0.0         # the most following the list loses on one deal (objective units)
    worst: WorstDeal | None = field(default=None, metadata=HIDDEN)   # that deal
    core: tuple[bool, ...] = field(default=(), metadata=HIDDEN, repr=False)   # per line: in the short list
    bound: float = field(default=0.0, metadata=HIDDEN)   # the most a deal may lose, which the lines were added for
    unit: str = field(default="", metadata=HIDDEN)       # the objective's unit

    @property
    def line_codes(self) -> tuple[tuple[int, ...], ...]:
        """The pattern codes of each printed line."""
        return self.groups or tuple((p,) for p in self.patterns)

    @property
    def lines(self) -> list[StrategyLine]:
        """The list as printed."""
        share = self.share or (0.0,) * len(self.line_codes)
        core = self.core or (True,) * len(self.line_codes)
        return [StrategyLine(line_label(codes), kept_cards(codes[0]), sh, codes, c)
                for codes, sh, c in zip(self.line_codes, share, core, strict=True)]

    @property
    def core_lines(self) -> int:
        """How many printed lines make the short list (the others only keep rare deals from losing much)."""
        return sum(line.core for line in self.lines)

    def to_dict(self) -> dict[str, object]:
        return {"strategy": [line.to_dict() for line in self.lines], **super().to_dict(),
                "strategy_value": self.optimum - self.loss,
                "strategy_patterns": sum(pattern_count(codes) for codes in self.line_codes),
                "worst_deal": self.worst.to_dict() if self.worst is not None else None,
                "core_lines": self.core_lines}


def line_label(codes: tuple[int, ...] | list[int]) -> str:
    """The printed text of a line of pattern codes."""
    return merged_label(list(codes))


@dataclass(frozen=True)
class _Instances:
    """For each deal, the one hold each present pattern points to: rows sorted by deal."""

    deal: npt.NDArray[np.int64]
    code_id: npt.NDArray[np.int64]             # dense index into ``codes``
    hold: npt.NDArray[np.int64]
    value: npt.NDArray[np.float64]
    codes: npt.NDArray[np.int64]               # distinct pattern codes
    starts: npt.NDArray[np.int64]              # first row of each deal (CSR offsets)
    pref: npt.NDArray[np.int64]                # tie rule: smaller keeps higher cards (then the lower mask)

    def line_positions(self, lines: Sequence[Sequence[int]]) -> npt.NDArray[np.int64]:
        """For each row, the printed line its pattern belongs to (``len(lines)``: none)."""
        line_of = {int(code): i for i, codes in enumerate(lines) for code in codes}
        return np.array([line_of.get(int(c), len(lines)) for c in self.codes], dtype=np.int64)[self.code_id]


PREF_BITS = 25      # the tie rule of a hold in its pattern: 15**5 ranks by 32 masks


def _instances(table: StrategyTable, codes: npt.NDArray[np.int64]) -> _Instances:
    h = table.holds
    deals = h.deals.astype(np.int64)
    n = len(deals)
    present = np.zeros(N_CODES + 1, dtype=bool)
    legal_codes = np.where(h.legal, codes, N_CODES)            # N_CODES marks an illegal hold
    present[legal_codes] = True
    uniq = np.flatnonzero(present)
    dense = (np.cumsum(present) - 1)[legal_codes]
    # Tie-break inside a pattern: keep the highest cards (ranks high to low), then the lowest mask.
    ranks = np.where(deals == JOKER, 13, deals // 4)
    key = np.zeros((n, N_HOLDS), dtype=np.int64)
    for m in range(N_HOLDS):
        for j, p in enumerate(HOLD_POSITIONS[m][::-1]):
            key[:, m] += (ranks[:, p] + 1) * 15 ** (4 - j)
    composite = (dense << PREF_BITS) | ((15**5 - key) << 5) | np.arange(N_HOLDS)[None, :]
    composite.sort(axis=1)
    cid = composite >> PREF_BITS
    hold = composite & 31
    first = np.ones((n, N_HOLDS), dtype=bool)
    first[:, 1:] = cid[:, 1:] != cid[:, :-1]
    first &= uniq[cid] < N_CODES                     # drop illegal holds
    deal_idx = np.broadcast_to(np.arange(n)[:, None], (n, N_HOLDS))[first]
    hold_sel = hold[first]
    starts = np.searchsorted(deal_idx, np.arange(n))
    return _Instances(deal_idx, cid[first], hold_sel, h.values[deal_idx, hold_sel], uniq, starts,
                      composite[first] & ((1 << PREF_BITS) - 1))


@dataclass(frozen=True)
class _Play:
    """Following a list over every deal class: the hold, the line, and (worked out when asked) what
    each line is worth, from the hold each deal would take without its line."""

    chosen: npt.NDArray[np.int64]          # hold per deal (-1: no line matches)
    line: npt.NDArray[np.int64]            # line per deal (len(lines): none)
    loss: float                            # per deal against the table's best (inf: a deal unmatched)
    regret: npt.NDArray[np.float64]        # per deal class: the table's best value less the list's hold's
    table: StrategyTable = field(repr=False)
    inst: _Instances = field(repr=False)
    key: npt.NDArray[np.int64] = field(repr=False)     # per row: its line, then its tie rule
    lines: int                             # how many lines the list has

    @functools.cached_property
    def cost(self) -> npt.NDArray[np.float64]:
        """Per line: what removing it would cost per deal (each deal it decides falls to its next line)."""
        table, inst, n_lines = self.table, self.inst, self.lines
        if np.isinf(self.loss):
            return np.zeros(n_lines)
        rest = np.where((self.key >> PREF_BITS) == self.line[inst.deal], n_lines << PREF_BITS, self.key)
        top2 = np.minimum.reduceat(rest, inst.starts)
        fallback = np.where((top2 >> PREF_BITS) < n_lines, top2 & 31, -1)
        rows = np.arange(len(self.chosen))
        w = table.weights / table.deals
        got = table.holds.values[rows, self.chosen]
        fb = np.where(fallback >= 0, table.holds.values[rows, np.maximum(fallback, 0)], -np.inf)
        cost = np.bincount(self.line, weights=(got - fb) * w, minlength=n_lines + 1)[:n_lines]
        return np.asarray(cost, dtype=np.float64)


def _play(table: StrategyTable, inst: _Instances, lines: Sequence[Sequence[int]]) -> _Play:
    """Play a list of lines (each a set of pattern codes) by its printed rule."""
    n_lines = len(lines)
    # One key per row, the line first and the tie rule after it: a deal's smallest key is its first
    # line and that line's hold.
    key = (inst.line_positions(lines) << PREF_BITS) | inst.pref
    top = np.minimum.reduceat(key, inst.starts)
    first = top >> PREF_BITS
    chosen = np.where(first < n_lines, top & 31, -1)
    if (chosen < 0).any():
        return _Play(chosen, first, np.inf, np.full(len(chosen), np.inf), table, inst, key, n_lines)
    rows = np.arange(len(chosen))
    w = table.weights / table.deals
    regret = table.holds.best_value - table.holds.values[rows, chosen]
    return _Play(chosen, first, float((regret * w).sum()), regret, table, inst, key, n_lines)


def first_match_holds(table: StrategyTable, lines: Sequence[Sequence[int]] | Sequence[int],
                      codes: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
    """The hold a player following the list picks in each deal class (-1: no line matches).

    ``lines`` are the printed lines (tuples of pattern codes), or single patterns."""
    codes = hold_pattern_codes(table.holds.deals, table.rules.joker, fine=True) if codes is None else codes
    as_lines = [(int(x),) if isinstance(x, int | np.integer) else tuple(x) for x in lines]
    return _play(table, _instances(table, codes), as_lines).chosen


# The made hands a list must name: royal and straight flush, quads, full house, flush, straight.
_MONSTERS = (K.PAT_SF << 8 | 1 << 4, K.PAT_SF << 8, K.QUADS_PAT << 8, K.QUADS << 8, K.FULL_HOUSE << 8,
             K.PAT_FLUSH << 8, K.PAT_STRAIGHT << 8,
             *(JOKER_FLAG | K.JOKER_PAT << 8 | c for c in (FIVE_ACES, STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH,
                                                          STRAIGHT)))
_MADE = (*_MONSTERS, K.QUADS << 8)


def _kept_whole(table: StrategyTable, codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per deal class, the made-hand pattern whose hold is as good as the table's best (a tie goes
    to the made hand, standing pat first), or -1 where no made hand is kept whole."""
    h = table.holds
    best = h.best_value[:, None]
    tie = h.legal & (h.values >= best - 1e-12 * np.maximum(1.0, np.abs(best))) & np.isin(codes, _MADE)
    top = N_HOLDS - 1 - np.argmax(tie[:, ::-1], axis=1)           # the largest such hold: stand pat first
    return np.where(tie.any(axis=1), codes[np.arange(len(codes)), top], -1)


def _monsters(table: StrategyTable, codes: npt.NDArray[np.int64]) -> list[int]:
    """The made-hand patterns the table keeps whole in some deal (stand pat, or the four of a
    kind; a tie with another hold counts), in the order a list prints them; of quads, stand pat
    unless keeping four is better."""
    whole = set(np.unique(_kept_whole(table, codes)).tolist())
    out = [c for c in _MONSTERS if c in whole or (c == K.QUADS_PAT << 8 and K.QUADS << 8 in whole)]
    if K.QUADS << 8 in out and K.QUADS_PAT << 8 in out:
        pat = table.holds.values[:, N_HOLDS - 1]
        quads = codes[:, N_HOLDS - 1] == K.QUADS_PAT << 8
        four = np.nanmax(np.where(codes == K.QUADS << 8, table.holds.values, -np.inf), axis=1)
        better = float(((four - pat) * table.weights)[quads].sum()) > 1e-9 * float(table.weights[quads].sum())
        out.remove(K.QUADS_PAT << 8 if better else K.QUADS << 8)
    return out


def _improve(table: StrategyTable, inst: _Instances, patterns: list[int], moves: int = 100) -> list[int]:
    """Local search on the greedy order: move a line up wherever that lowers the list's loss,
    the best move first, until no move gains."""
    n, n_lines = len(inst.starts), len(patterns)
    pos = inst.line_positions([(p,) for p in patterns])
    ok = pos < n_lines
    value = np.full((n, n_lines), np.nan)
    value[inst.deal[ok], pos[ok]] = inst.value[ok]
    w = table.weights / table.deals
    rows = np.arange(n)
    order = list(range(n_lines))
    for _move in range(moves):
        v = value[:, order]
        match = ~np.isnan(v)
        first = np.argmax(match, axis=1)
        got = v[rows, first]
        best = (1e-12, 0, 0)
        for i in range(1, n_lines):
            d = np.flatnonzero(match[:, i] & (first < i))
            if not len(d):
                continue
            gain = np.bincount(first[d], weights=w[d] * (v[d, i] - got[d]), minlength=i)
            ahead = np.cumsum(gain[::-1])[::-1]          # gain of moving line i up to position j
            j = int(np.argmax(ahead))
            if ahead[j] > best[0]:
                best = (float(ahead[j]), i, j)
        if best[1] == best[2]:
            break
        order.insert(best[2], order.pop(best[1]))
    return [patterns[i] for i in order]


def _never_break(table: StrategyTable, inst: _Instances, codes: npt.NDArray[np.int64], patterns: list[int],
                 monsters: list[int]) -> list[int]:
    """Move a made hand's line above every line that would break it in a deal where the table
    keeps it whole, or where keeping it whole is as good as the best hold (a line can only be
    moved up, so this ends)."""
    same = {K.QUADS << 8: K.QUADS_PAT << 8, K.QUADS_PAT << 8: K.QUADS << 8}
    rows = np.arange(len(codes))
    best = _kept_whole(table, codes)
    whole = np.isin(best, monsters + [same.get(m, m) for m in monsters])
    for _move in range(len(patterns) * len(monsters)):
        play = _play(table, inst, [(p,) for p in patterns])
        got = codes[rows, play.chosen]
        broken = whole & (got != best) & (got != np.vectorize(lambda c: same.get(int(c), -1))(best))
        if not broken.any():
            break
        d = int(np.flatnonzero(broken)[0])
        line = int(best[d]) if int(best[d]) in patterns else same[int(best[d])]
        above = int(play.line[d])
        patterns.remove(line)
        patterns.insert(above, line)
    return patterns


def _merge(table: StrategyTable, inst: _Instances, patterns: list[int], slack: float) -> list[tuple[int, ...]]:
    """Group neighbouring lines into one printed line where one phrase names them together
    (``patterns.mergeable``) and keeping the highest cards among them plays as well as their
    order (within ``slack`` per deal)."""
    lines: list[list[int]] = [[p] for p in patterns]
    current = _play(table, inst, lines).loss
    i = 0
    while i + 1 < len(lines):
        if mergeable(lines[i] + lines[i + 1]):
            trial = [*lines[:i], lines[i] + lines[i + 1], *lines[i + 2:]]
            loss = _play(table, inst, trial).loss
            if loss <= current + slack:
                lines, current = trial, loss
                continue
        i += 1
    return [tuple(x) for x in lines]


def worst_bound(objective: Objective) -> float:
    """The most a printed list may lose on any single deal: 2 points of the pot in the equity
    lists, 0.05 of the objective's unit (a bet, a point, a probability) in the others."""
    return MAX_REGRET_EQUITY if objective.unit == "share of the pot" else MAX_REGRET


@dataclass(frozen=True)
class _Moves:
    """Where each pattern's instances are (rows of ``_Instances`` by pattern), for ``_bounded``."""

    by_code: npt.NDArray[np.int64]
    code_starts: npt.NDArray[np.int64]
    ends: npt.NDArray[np.int64]             # one past each deal's last row


def _moves(table: StrategyTable, inst: _Instances, m: _Moves, bound: float, play: _Play, at_most: int
           ) -> list[tuple[float, float, int, int]]:
    """The moves that help the deals over the bound, best first: (gain, cost, pattern, position).

    A move puts a pattern that is within the bound of a worst deal's best hold just above the
    line that decides that deal now; it changes only the deals holding the pattern whose line is
    there or lower. ``gain`` is the change of the weighted loss beyond the bound (negative helps),
    ``cost`` the change of the average loss."""
    w = table.weights / table.deals
    best = table.holds.best_value
    over = np.flatnonzero(play.regret > bound)
    excess = np.clip(play.regret - bound, 0.0, None)
    candidates: set[tuple[int, int]] = set()
    ranked = over[np.argsort(-play.regret[over], kind="stable")]
    # The worst deals, and a spread of the rest (the worst may be past helping).
    for d in np.union1d(ranked[:64], ranked[::max(1, len(ranked) // 64)]):
        rows = np.arange(inst.starts[d], m.ends[d])
        good = rows[inst.value[rows] >= best[d] - bound]
        candidates.update((int(c), int(play.line[d])) for c in inst.code_id[good])
    out = []
    for cid, at in sorted(candidates):
        rows = m.by_code[m.code_starts[cid]:m.code_starts[cid + 1]]
        deals = inst.deal[rows]
        switch = play.line[deals] >= at
        rows, deals = rows[switch], deals[switch]
        new = best[deals] - inst.value[rows]
        gain = float((w[deals] * (np.clip(new - bound, 0.0, None) - excess[deals])).sum())
        cost = float((w[deals] * (new - play.regret[deals])).sum())
        out.append((gain, cost, int(inst.codes[cid]), at))
    return sorted(out)[:at_most]


def _moved(lines: list[tuple[int, ...]], core: list[bool], code: int, at: int
           ) -> tuple[list[tuple[int, ...]], list[bool]]:
    """The list with ``code`` on a line of its own at ``at``, taken out of any line it was in (a
    core line moved up whole stays core; a new line is not). What is left of a line is printed as
    the lines that name it exactly (``patterns.split_line``)."""
    out: list[tuple[int, ...]] = []
    out_core: list[bool] = []
    moved = False
    for i, (line, c) in enumerate(zip(lines, core, strict=True)):
        if i == at:
            out.append((code,))
            out_core.append(False)
        if code not in line:
            out.append(line)
            out_core.append(c)
            continue
        rest = tuple(x for x in line if x != code)
        moved = c and not rest
        parts = split_line(rest) if rest else []
        out += parts
        out_core += [c] * len(parts)
    if at >= len(lines):
        out.append((code,))
        out_core.append(False)
    new = out.index((code,))
    out_core[new] = moved
    return out, out_core


def _excess(table: StrategyTable, play: _Play, bound: float) -> float:
    """What the deals over the bound lose beyond it, per deal."""
    return float((table.weights / table.deals * np.clip(play.regret - bound, 0.0, None)).sum())


def _moved_down(table: StrategyTable, inst: _Instances, m: _Moves, bound: float, lines: list[tuple[int, ...]],
                core: list[bool], play: _Play, at_most: int = 24) -> tuple[list[tuple[int, ...]], list[bool]] | None:
    """The other way to fix a deal over the bound: move the pattern the list keeps there down,
    just below the line of a hold within the bound (which splits a line such as 'pair of jacks
    to aces' around 'four to a royal flush'). Tried on the worst deals; the move that most lowers
    the loss beyond the bound, if any."""
    over = np.flatnonzero(play.regret > bound)
    ranked = over[np.argsort(-play.regret[over], kind="stable")]
    pos = inst.line_positions(lines)
    best_value = table.holds.best_value
    tried: set[tuple[int, int]] = set()
    for d in np.union1d(ranked[:16], ranked[::max(1, len(ranked) // 16)]):
        rows = np.arange(inst.starts[d], m.ends[d])
        kept = rows[inst.hold[rows] == play.chosen[d]]
        if not len(kept):
            continue
        code = int(inst.codes[inst.code_id[kept[0]]])
        good = rows[(inst.value[rows] >= best_value[d] - bound) & (pos[rows] > play.line[d]) & (pos[rows] < len(lines))]
        tried.update((code, int(p) + 1) for p in pos[good])
    now = _excess(table, play, bound)
    found = None
    for code, at in sorted(tried)[:at_most * 4]:
        trial = _moved(lines, core, code, at)
        after = _play(table, inst, trial[0])
        key = (_excess(table, after, bound), after.loss)
        if key[0] < now - 1e-15 and (found is None or key < found[0]):
            found = (key, trial)
    return None if found is None else found[1]


def _bounded(table: StrategyTable, inst: _Instances, lines: list[tuple[int, ...]], core: list[bool],
             bound: float, rounds: int = 400) -> tuple[list[tuple[int, ...]], list[bool]]:
    """Add lines until no deal class loses more than ``bound`` against the table's best hold.

    Each round makes the move (``_moves``) that most reduces the loss beyond the bound, weighted
    by deals (then the smallest average loss). Where no single move helps, a pair of moves is
    tried (the second fixing what the first breaks), and the lines are put in reading order,
    which puts other lines between; it stops when no class is over the bound or nothing helps.
    ``core`` says which lines were in the list before."""
    by_code = np.argsort(inst.code_id, kind="stable")
    code_starts = np.searchsorted(inst.code_id[by_code], np.arange(len(inst.codes) + 1))
    m = _Moves(by_code, code_starts, np.append(inst.starts[1:], len(inst.deal)))
    lines, core = list(lines), list(core)
    play = _play(table, inst, lines)
    reordered = False
    for _round in range(rounds):
        if not (play.regret > bound).any():
            break
        moves = _moves(table, inst, m, bound, play, 1)
        if moves and moves[0][0] < -1e-15:
            lines, core = _moved(lines, core, moves[0][2], moves[0][3])
            play, reordered = _play(table, inst, lines), False
            continue
        pair = None
        for gain, cost, code, at in _moves(table, inst, m, bound, play, 8):
            trial = _moved(lines, core, code, at)
            then = _moves(table, inst, m, bound, _play(table, inst, trial[0]), 1)
            if then and (total := (gain + then[0][0], cost + then[0][1])) < (pair[0] if pair else (-1e-15, 0.0)):
                pair = (total, trial, then[0])
        if pair is not None:
            lines, core = _moved(*pair[1], pair[2][2], pair[2][3])
            play, reordered = _play(table, inst, lines), False
            continue
        down = _moved_down(table, inst, m, bound, lines, core, play)
        if down is not None:
            lines, core = down
            play, reordered = _play(table, inst, lines), False
            continue
        if reordered:
            break
        is_core = dict(zip(lines, core, strict=True))
        lines, _ = _ordered(table, inst, lines)
        core, reordered = [is_core[line] for line in lines], True
        play = _play(table, inst, lines)
    return lines, core


def _outranks(line: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether ``line`` holds the suited form of cards ``other`` holds offsuit (AK suited over AK
    offsuit): such lines read wrong the other way round whatever their averages."""
    suited = {c & 0xFF for c in line if c >> 8 == K.TWO_HIGH_SUITED}
    offsuit = {c & 0xFF for c in other if c >> 8 == K.TWO_HIGH_OFFSUIT}
    plus = {cell[:2] for cell in two_card_cells(line) if cell[2]}
    plain = {cell[:2] for cell in two_card_cells(other) if not cell[2]}
    return bool(suited & offsuit or plus & plain)


def _reorder(inst: _Instances, lines: list[tuple[int, ...]], mean: npt.NDArray[np.float64]
             ) -> list[int]:
    """A line order that plays every deal the same and reads as a ranking: two neighbouring
    lines that never decide between them in any deal go by the average value of their deals."""
    n = len(inst.starts)
    pos = inst.line_positions(lines)
    ok = pos < len(lines)
    match = np.zeros((n, len(lines) + 1), dtype=bool)
    match[inst.deal[ok], pos[ok]] = True
    order = list(range(len(lines)))
    changed = True
    for _move in range(len(lines) ** 2):
        if not changed:
            break
        changed = False
        above = np.zeros(n, dtype=bool)
        for p in range(len(order) - 1):
            a, b = order[p], order[p + 1]
            higher = mean[b] > mean[a] + 1e-9 * max(1.0, abs(float(mean[a])))      # equal values keep their order
            first = _outranks(lines[b], lines[a]) or (higher and not _outranks(lines[a], lines[b]))
            if first and not (match[:, a] & match[:, b] & ~above).any():
                order[p], order[p + 1] = b, a
                changed = True
            above |= match[:, order[p]]
    return order


def _ordered(table: StrategyTable, inst: _Instances, lines: list[tuple[int, ...]]
             ) -> tuple[list[tuple[int, ...]], npt.NDArray[np.float64]]:
    """The lines in reading order (``_reorder``), with the average value of the deals each decides."""
    play = _play(table, inst, lines)
    w = table.weights.astype(np.float64)
    got = table.holds.values[np.arange(len(w)), play.chosen] * w
    usage = np.bincount(play.line, weights=w, minlength=len(lines))[:len(lines)]
    mean = np.bincount(play.line, weights=got, minlength=len(lines))[:len(lines)] / np.maximum(usage, 1e-300)
    order = _reorder(inst, lines, mean)
    return [lines[i] for i in order], mean[order]


def condense(table: StrategyTable, *, tolerance: float = 2e-5, max_lines: int = 60,
             bound: float | None = None) -> CondensedStrategy:
    """Derive the printed list from the table and measure what following it costs.

    Greedy build: repeatedly append the pattern whose first-match play loses least per deal it
    decides, on the deal classes no earlier line has decided. Prune: drop the line whose removal
    costs least while that costs at most ``tolerance`` (objective units per deal), and while the
    list is longer than ``max_lines``; the made hands the table keeps whole (straight flush,
    quads, full house, flush, straight) always keep their lines. Merge same-kind neighbours into
    one printed line where keeping the highest cards plays as well, and order lines that never
    meet in a deal by the value of the deals they decide. Then add lines (``_bounded``) until no
    deal loses more than ``bound`` (default ``worst_bound``: 2 points of the pot in equity, 0.05
    of the unit elsewhere); the lines of the short list are its ``core``. The loss, the worst
    deal and its cost are those of the printed list, over every deal.
    """
    fine = hold_pattern_codes(table.holds.deals, table.rules.joker, fine=True)
    codes = coarse_codes(fine)
    inst = _instances(table, codes)
    n = len(table.weights)
    w = table.weights.astype(np.float64)
    regret = (table.holds.best_value[inst.deal] - inst.value) * w[inst.deal]
    n_codes = len(inst.codes)
    loss = np.bincount(inst.code_id, weights=regret, minlength=n_codes)
    cover = np.bincount(inst.code_id, weights=w[inst.deal], minlength=n_codes)
    rows_by_code = np.argsort(inst.code_id, kind="stable")
    code_starts = np.searchsorted(inst.code_id[rows_by_code], np.arange(n_codes + 1))
    open_deals = np.ones(n, dtype=bool)
    available = inst.codes < N_CODES
    chosen: list[int] = []
    while open_deals.any():
        live = available & (cover > 0.5)
        free = live & (loss <= 1e-9 * cover)
        # Lines that never lose go first (most deals first); then least loss per deal decided.
        score = np.where(free, -cover, np.where(live, loss / np.maximum(cover, 1.0) + 1e12, np.inf))
        pick = int(np.argmin(score))
        chosen.append(int(inst.codes[pick]))
        available[pick] = False
        rows = rows_by_code[code_starts[pick]:code_starts[pick + 1]]
        closing = np.unique(inst.deal[rows][open_deals[inst.deal[rows]]])
        open_deals[closing] = False
        # Remove the closed deals' instances from every pattern's running totals.
        lo, hi = inst.starts[closing], np.append(inst.starts, len(inst.deal))[closing + 1]
        sizes = hi - lo
        gone = np.repeat(lo - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes) + np.arange(sizes.sum())
        loss -= np.bincount(inst.code_id[gone], weights=regret[gone], minlength=n_codes)
        cover -= np.bincount(inst.code_id[gone], weights=w[inst.deal[gone]], minlength=n_codes)
    monsters = _monsters(table, codes)
    patterns = [*(m for m in monsters if m not in chosen), *chosen]
    keep = set(monsters)
    play = _play(table, inst, [(p,) for p in patterns])
    while len(patterns) > 1:
        cost = np.where([p in keep for p in patterns], np.inf, play.cost)
        i = int(np.argmin(cost))
        if not np.isfinite(cost[i]) or (cost[i] > tolerance and len(patterns) <= max_lines):
            break
        trial = patterns[:i] + patterns[i + 1:]
        trial_play = _play(table, inst, [(p,) for p in trial])
        if not np.isfinite(trial_play.loss):
            break
        patterns, play = trial, trial_play
    patterns = _improve(table, inst, patterns)
    patterns = _never_break(table, inst, codes, patterns, monsters)
    lines, _ = _ordered(table, inst, [(p,) for p in patterns])
    lines = _merge(table, inst, [line[0] for line in lines], tolerance / 10)
    bound = worst_bound(table.objective) if bound is None else bound
    fine_inst = _instances(table, fine)
    lines, core = _refined(table, inst, fine_inst, lines, bound)
    inst = fine_inst
    # A line that decides no deal is dropped: every deal it could take was taken above it.
    used = np.bincount(_play(table, inst, lines).line, minlength=len(lines) + 1)[:len(lines)] > 0
    lines, core = [x for x, u in zip(lines, used, strict=True) if u], [c for c, u in zip(core, used, strict=True) if u]
    is_core = dict(zip(lines, core, strict=True))
    lines, _ = _ordered(table, inst, lines)
    lines, core = _joined(table, inst, lines, [is_core[line] for line in lines])
    is_core = dict(zip(lines, core, strict=True))
    lines, mean = _ordered(table, inst, lines)
    core = [is_core[line] for line in lines]
    play = _play(table, inst, lines)
    shares = np.bincount(play.line, weights=table.weights / table.deals, minlength=len(lines))[:len(lines)]
    return CondensedStrategy(tuple(c for line in lines for c in line), tuple(line_label(x) for x in lines),
                             play.loss, table.value, tuple(float(u) for u in shares), tuple(lines),
                             tuple(float(m) for m in mean), float(play.regret.max()),
                             _worst_deal(table, play), tuple(core), bound, table.objective.unit)


def _joined(table: StrategyTable, inst: _Instances, lines: list[tuple[int, ...]], core: list[bool]
            ) -> tuple[list[tuple[int, ...]], list[bool]]:
    """Lines said more simply where that plays every deal as before: a line takes the fine forms
    of its patterns that no line names (so "4 to a straight flush (ace low)", not "..., the fifth
    card not an ace", where the other form never decides a deal), and neighbouring lines that one
    printed line names together (``mergeable``) are joined; a joined line is core if either was."""
    chosen = _play(table, inst, lines).chosen
    named = {c for line in lines for c in line}
    for i in range(len(lines)):
        for f in dict.fromkeys(f for c in lines[i] for f in fine_codes(int(coarse_codes(c)))):
            wider = (*lines[i], f)
            if f in named or not mergeable(wider):
                continue
            trial = [*lines[:i], wider, *lines[i + 1:]]
            if np.array_equal(_play(table, inst, trial).chosen, chosen):
                lines = trial
                named.add(f)
    i = 0
    while i + 1 < len(lines):
        joined = lines[i] + lines[i + 1]
        trial = [*lines[:i], joined, *lines[i + 2:]]
        if mergeable(joined) and np.array_equal(_play(table, inst, trial).chosen, chosen):
            lines, core = trial, [*core[:i], core[i] or core[i + 1], *core[i + 2:]]
        else:
            i += 1
    return lines, core


def _refined(table: StrategyTable, coarse: _Instances, fine: _Instances, lines: list[tuple[int, ...]],
             bound: float) -> tuple[list[tuple[int, ...]], list[bool]]:
    """The lines with lines added (``_bounded``) until no deal loses more than ``bound``, in fine
    patterns (the same lines in fine patterns play the same). Two searches, as the search is
    greedy: in fine patterns from the start, and in coarse ones first; the one whose deals lose
    least beyond the bound, then the shorter."""
    def fine_lines(coarse_lines: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return [tuple(f for c in line for f in fine_codes(c)) for line in coarse_lines]

    first = _bounded(table, fine, fine_lines(lines), [True] * len(lines), bound)
    rough, rough_core = _bounded(table, coarse, lines, [True] * len(lines), bound)
    second = _bounded(table, fine, fine_lines(rough), rough_core, bound)

    def rank(found: tuple[list[tuple[int, ...]], list[bool]]) -> tuple[float, float, int]:
        play = _play(table, fine, found[0])
        return _excess(table, play, bound), float(play.regret.max()), len(found[0])

    return min(first, second, key=rank)


def _worst_deal(table: StrategyTable, play: _Play) -> WorstDeal:
    """The deal class on which the list loses most (the first such class), as cards."""
    d = int(np.argmax(play.regret))
    deal = table.holds.deals[d]

    def cards(mask: int) -> tuple[str, ...]:
        return tuple(format_cards([int(deal[i]) for i in HOLD_POSITIONS[mask][::-1]]))

    return WorstDeal(cards(N_HOLDS - 1), cards(int(play.chosen[d])), cards(int(table.holds.best[d])),
                     float(play.regret[d]))


# --- the whole `strategy` report -----------------------------------------------------------------

CARD_REMOVAL_NOTE = "ignored: the opponents' final hands are independent of our cards"
REMOVAL_TRIALS = 10_000     # simulated deals per class where card removal decides between close holds
REMOVAL_CLASSES = 6         # classes simulated per pair of close patterns


def removal_note(fix: RemovalFix) -> str:
    """What the table assumed about card removal, in one sentence."""
    return (f"decided by simulation where two holds are within {fix.close:g} of each other: the opponents are "
            f"dealt from the cards we do not hold ({fix.simulated:,} classes simulated, {fix.trials:,} deals each, "
            f"pooled over the {fix.groups:,} pairs of patterns); elsewhere the opponents' final hands are taken "
            "as independent of our cards")


def _quiet(stage: str, done: float) -> None:
    return None


@dataclass(frozen=True, repr=False)
class StrategyReport(Result):
    """An exact strategy table, the condensed strategy derived from it and, for the equity
    objective, the measured cost of ignoring card removal."""

    objective: Objective
    table: StrategyTable
    condensed: CondensedStrategy
    opponents: int
    policy: str
    seed: int
    removal: CardRemovalCheck | None = None
    removal_deals: int = 0
    out: str | None = None
    interrupted: bool = False       # Ctrl-C during the card-removal check: it is left out
    fix: RemovalFix | None = None   # card removal deciding between close holds (equity)

    @property
    def equity(self) -> bool:
        """Whether the objective is showdown equity against opponents."""
        return self.objective.name.startswith("equity")

    def to_dict(self) -> dict[str, object]:
        """The ``strategy --json`` shape."""
        name = self.objective.name.split(":")[0] if self.equity else self.objective.name
        out: dict[str, object] = {"objective": name,
                                  **{k: v for k, v in self.table.to_dict().items() if k != "objective"}}
        out.update(self.condensed.to_dict())
        out["description"] = self.objective.description
        if self.equity:
            out["opponents"], out["policy"] = self.opponents, self.policy
            out["card_removal"] = removal_note(self.fix) if self.fix is not None else CARD_REMOVAL_NOTE
            if self.fix is not None:
                out["card_removal_fix"] = self.fix.to_dict()
            if self.removal is not None:
                out["card_removal_check"] = self.removal.to_dict()
        if self.out:
            out["out"] = self.out
        if self.interrupted:
            out["interrupted"] = True
        return out


def strategy_report(objective: str | None = None, rules: RuleSet | str | None = None, *,
                    opponents: int | None = None, policy: str = "standard", lines: int = 60,
                    check_removal: int = 0, seed: int = 1, out: str | None = None, card_removal: bool = True,
                    progress: Stage = _quiet, **rule_overrides: Any) -> StrategyReport:
    """Solve ``objective`` (a name such as ``vp96`` or ``equity``) over every deal, condense the
    table to at most ``lines`` patterns, optionally write it to ``out`` (.parquet or .csv) and,
    for the equity objective, let card removal decide between close holds (``card_removal``,
    ``analyses.removal``) and measure the card-removal error on ``check_removal`` random deals.

    Defaults: ``rules`` the objective's usual game (``default_rules``; morkpoker with none),
    ``objective`` the rule set's own game (showdown equity), ``opponents`` the table less one
    (``default_opponents``). Remaining keywords override single rule options (``max_draw="any"``).
    ``progress(stage, fraction)`` follows the work."""
    if objective is not None:
        objective = check_name(objective, "objective", "e.g. equity or vp96")
    base = (preset(rules) if isinstance(rules, str) else rules) if rules is not None else (
        default_rules(objective) if objective is not None else preset("morkpoker"))
    rules = base.replace(**rule_overrides) if rule_overrides else base
    objective = objective if objective is not None else default_objective(rules)
    STRATEGY_OPPONENTS.check(opponents)
    LINES.check(lines)
    CHECK_REMOVAL.check(check_removal)
    check_seed(seed)
    policy = check_name(policy, "policy", "standard, loose or tight")
    if rules.draws != 1:
        raise RequestError("strategy tables cover one draw; {rule_set} has {draws} draws", rule_set=rules.name,
                           draws=rules.draws)
    if check_removal and objective.lower() != "equity":
        raise RequestError("{check_removal} measures the equity objective: ask for it with {objective} equity",
                           "check_removal", "objective")
    if out is not None and not out.endswith((".parquet", ".csv")):
        raise RequestError("{out} must end in .parquet or .csv, got {value}", "out", value=repr(out))
    opponents = opponents or default_opponents(rules)
    equity = objective.strip().lower() == "equity"
    if equity and card_removal:
        try:
            layout_for(rules, opponents, rules.deck_size - 5)
        except RuleError as exc:
            raise RequestError("card removal deals {count} opponents from the {left} cards we do not hold, and "
                               "drawing up to {max_draw} cards they need {need}: ask for at most {most} opponents, or "
                               "for the list without card removal ({card_removal})", "card_removal", count=opponents,
                               **{k: exc.values[k] for k in ("left", "max_draw", "need", "most")}) from None
    progress(_("field distribution") if equity else _("objective"), 0.0)
    obj = parse_objective(objective, rules, opponents=opponents, policy=policy)
    table = solve(obj, rules, progress=lambda stage, f: progress(stage, 0.5 * f))
    fix = None
    if equity and card_removal:
        def simulated(done: int, total: int) -> None:
            progress(_("card removal between close holds: {done} of {total} classes simulated").format(
                done=number(done, grouped=True), total=number(total, grouped=True)),
                     0.5 + 0.35 * done / max(total, 1))

        simulate = keep_simulation(rules, OpponentModel(opponents=opponents, policy=policy), REMOVAL_TRIALS)
        table, fix = card_removal_table(table, simulate, trials=REMOVAL_TRIALS, per_group=REMOVAL_CLASSES, seed=seed,
                                        progress=simulated)
    progress(_("condensed strategy"), 0.85)
    condensed = condense(table, max_lines=lines)
    removal, interrupted = None, False
    if check_removal and equity:
        progress(_("card-removal check (Monte Carlo)"), 0.92)
        chooser = policy_chooser(rules, policy, np.random.default_rng(seed))
        try:
            removal = equity_card_removal_error(make_solver(obj, rules), opponents, chooser,
                                                deals=check_removal, seed=seed)
        except KeyboardInterrupt:
            interrupted = True
    if out:
        table.write(out)
    progress(_("done"), 1.0)
    return StrategyReport(obj, table, condensed, opponents, policy, seed, removal, check_removal, out,
                          interrupted, fix)


# --- one hand against the list ------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class HandCheck(Result):
    """One hand against the printed list: the line it meets, what the list keeps, the table's
    best hold and what the list's hold gives up (objective units)."""

    hand: tuple[str, ...]
    line: str
    line_number: int                # 1-based, as printed
    list_keep: tuple[str, ...]
    best_keep: tuple[str, ...]
    list_value: float
    best_value: float
    unit: str
    model: str = "table"            # "table": the exact table; "simulation": keep's simulation decided
    trials: int = 0                 # simulated deals, with the simulation
    seed: int | None = None
    cost_se: float = 0.0            # standard error of the cost, with the simulation

    @property
    def cost(self) -> float:
        return self.best_value - self.list_value

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"line": self.line, "list_keep": list(self.list_keep),
                                  "best_keep": list(self.best_keep), "cost": self.cost, "model": self.model,
                                  "list_value": self.list_value, "best_value": self.best_value, "unit": self.unit}
        if self.model == "simulation":
            out.update(cost_se=self.cost_se, trials=self.trials, seed=self.seed)
        return out


def hold_words(cards: npt.NDArray[np.integer], representative: npt.NDArray[np.integer],
               suits: npt.NDArray[np.integer]) -> Callable[[int], tuple[str, ...]]:
    """The hand's cards that a hold (by mask) of its suit class's ``representative`` keeps, in the
    hand's own suits (``suits``: how the class renamed them, as ``suit_class_of`` gives it)."""
    rep = np.asarray(representative, dtype=np.int64)
    old = np.argsort(suits)                                 # the representative's suits back to the hand's
    theirs = np.where(rep == JOKER, JOKER, rep // 4 * 4 + old[rep % 4])

    def kept(mask: int) -> tuple[str, ...]:
        chosen = {int(theirs[i]) for i in HOLD_POSITIONS[mask]}
        return tuple(format_cards([int(c) for c in cards if int(c) in chosen]))

    return kept


def check_hand(report: StrategyReport, hand: str | Sequence[int] | npt.NDArray[np.integer]) -> HandCheck:
    """Which line of ``report``'s printed list ``hand`` meets, and what following it costs there."""
    return hand_against_list(report.table, report.condensed, hand)


def hand_against_list(table: StrategyTable, plan: CondensedStrategy,
                      hand: str | Sequence[int] | npt.NDArray[np.integer]) -> HandCheck:
    """Which line of the list ``plan`` (made from ``table``) ``hand`` meets, what the list keeps,
    the table's best hold and the difference (objective units)."""
    rules = table.rules
    cards = as_hand(hand, joker=rules.joker)
    index, new = suit_class_of(cards, rules.joker)
    h = table.holds
    reps, _ = suit_classes(rules.joker)
    if len(h.deals) != len(reps):
        found = np.flatnonzero((h.deals == reps[index]).all(axis=1))
        if not len(found):
            raise RequestError("the table holds no deal of this hand's suit class")
        index = int(found[0])
    one = slice(index, index + 1)
    row = StrategyTable(table.objective, rules,
                        HoldValues(h.deals[one], h.values[one], h.legal[one], h.numerators[one], h.best[one],
                                   h.runner_up[one]), table.weights[one])
    lines = plan.line_codes
    play = _play(row, _instances(row, hold_pattern_codes(row.holds.deals, rules.joker, fine=True)), lines)
    if play.chosen[0] < 0:
        raise RequestError("no line of the list matches this hand")
    kept = hold_words(cards, h.deals[index], new)
    line = int(play.line[0])
    return HandCheck(tuple(format_cards(cards)), plan.labels[line], line + 1, kept(int(play.chosen[0])),
                     kept(int(h.best[index])), float(h.values[index, play.chosen[0]]),
                     float(h.values[index, h.best[index]]), table.objective.unit)
