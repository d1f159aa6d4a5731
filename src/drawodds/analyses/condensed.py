"""Condensed strategy: an ordered list of hold patterns a player can learn, derived from a table.

Every hold of every deal gets a *pattern* ("pair of jacks", "4 to a flush, 1 high card",
"KQ suited", ...), computed from the kept cards alone. Playing by a list means: take the first
pattern in the list that some legal hold of the deal matches; when several holds match it, keep
the highest cards (then the lowest hold mask). The list is built greedily from the exact table --
at each step the pattern whose first-match play loses least on the deals still undecided -- then
lines that cost almost nothing are pruned. The loss of the final list against the exact optimum
is measured over every deal, never estimated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from drawodds.analyses.strategy import (
    CardRemovalCheck,
    Objective,
    StrategyTable,
    equity_card_removal_error,
    make_solver,
    parse_objective,
    policy_chooser,
    solve,
)
from drawodds.execution import Stage
from drawodds.holds import HOLD_POSITIONS, N_HOLDS
from drawodds.patterns import N_CODES, hold_pattern_codes, hold_pattern_label, kept_cards, merge_key, merged_label
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleSet


@dataclass(frozen=True, repr=False)
class StrategyLine(Result):
    """One printed line: consecutive patterns of the same kind merged ("pair of deuces to tens")."""

    pattern: str
    keep: int                       # cards kept
    share: float = field(metadata=shown_as(name="deals_share"))   # fraction of deals this line decides
    codes: tuple[int, ...] = field(metadata=HIDDEN)

    @property
    def hold(self) -> str:
        return "stand pat" if self.keep == 5 else f"keep {self.keep}, draw {5 - self.keep}"

    def to_dict(self) -> dict[str, object]:
        return {"pattern": self.pattern, "hold": self.hold} | super().to_dict()


def merge_lines(patterns: tuple[int, ...], share: tuple[float, ...]) -> list[StrategyLine]:
    """Merge runs of same-kind patterns into single readable lines (order is unchanged)."""
    lines: list[StrategyLine] = []
    run: list[int] = []
    run_share = 0.0
    for code, sh in zip(patterns, share, strict=False):
        if run and merge_key(code) is not None and merge_key(code) == merge_key(run[-1]):
            run.append(code)
            run_share += sh
            continue
        if run:
            lines.append(StrategyLine(merged_label(run), kept_cards(run[0]), run_share, tuple(run)))
        run, run_share = [code], sh
    if run:
        lines.append(StrategyLine(merged_label(run), kept_cards(run[0]), run_share, tuple(run)))
    return lines


# --- first-match play and the condensed list -------------------------------------------------

@dataclass(frozen=True, repr=False)
class CondensedStrategy(Result):
    """An ordered list of hold patterns and what following it costs against the exact table."""

    patterns: tuple[int, ...] = field(metadata=HIDDEN)        # pattern codes, first match wins
    labels: tuple[str, ...] = field(metadata=HIDDEN)
    loss: float = field(metadata=shown_as(name="strategy_loss"))   # value lost per deal vs the optimum
    optimum: float = field(metadata=HIDDEN)                   # the table's exact average value
    share: tuple[float, ...] = field(default=(), metadata=HIDDEN)   # fraction of deals each line decides

    @property
    def lines(self) -> list[StrategyLine]:
        """The list as printed: runs of same-kind patterns merged."""
        return merge_lines(self.patterns, self.share)

    def to_dict(self) -> dict[str, object]:
        return {"strategy": [line.to_dict() for line in self.lines], **super().to_dict(),
                "strategy_value": self.optimum - self.loss, "strategy_patterns": len(self.patterns)}


@dataclass(frozen=True)
class _Instances:
    """For each deal, the one hold each present pattern points to: rows sorted by deal."""

    deal: npt.NDArray[np.int64]
    code_id: npt.NDArray[np.int64]             # dense index into ``codes``
    hold: npt.NDArray[np.int64]
    value: npt.NDArray[np.float64]
    codes: npt.NDArray[np.int64]               # distinct pattern codes
    starts: npt.NDArray[np.int64]              # first row of each deal (CSR offsets)


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
    ranks = deals // 4
    key = np.zeros((n, N_HOLDS), dtype=np.int64)
    for m in range(N_HOLDS):
        for j, p in enumerate(HOLD_POSITIONS[m][::-1]):
            key[:, m] += (ranks[:, p] + 1) * 15 ** (4 - j)
    composite = (dense << 25) | ((15**5 - key) << 5) | np.arange(N_HOLDS)[None, :]
    composite.sort(axis=1)
    cid = composite >> 25
    hold = composite & 31
    first = np.ones((n, N_HOLDS), dtype=bool)
    first[:, 1:] = cid[:, 1:] != cid[:, :-1]
    first &= uniq[cid] < N_CODES                     # drop illegal holds
    deal_idx = np.broadcast_to(np.arange(n)[:, None], (n, N_HOLDS))[first]
    hold_sel = hold[first]
    starts = np.searchsorted(deal_idx, np.arange(n))
    return _Instances(deal_idx, cid[first], hold_sel, h.values[deal_idx, hold_sel], uniq, starts)


def first_match_holds(table: StrategyTable, patterns: tuple[int, ...], codes: npt.NDArray[np.int64] | None = None
                      ) -> npt.NDArray[np.int64]:
    """The hold a player following the list picks in each deal class (-1: no line matches)."""
    codes = hold_pattern_codes(table.holds.deals, table.rules.joker) if codes is None else codes
    inst = _instances(table, codes)
    return _first_match(inst, np.asarray(patterns))[0]


def _line_positions(inst: _Instances, patterns: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    lookup = {int(c): i for i, c in enumerate(patterns)}
    pos_of_id = np.array([lookup.get(int(c), len(patterns)) for c in inst.codes], dtype=np.int64)
    return pos_of_id[inst.code_id]


def _first_match(inst: _Instances, patterns: npt.NDArray[np.int64]
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Chosen hold, list line, and the line a deal would fall back to without its first line."""
    pos = _line_positions(inst, patterns)
    first_pos = np.minimum.reduceat(pos, inst.starts)
    hit = pos == first_pos[inst.deal]
    chosen = np.full(len(inst.starts), -1, dtype=np.int64)
    ok = hit & (pos < len(patterns))
    chosen[inst.deal[ok]] = inst.hold[ok]
    second_pos = np.minimum.reduceat(np.where(hit, len(patterns), pos), inst.starts)
    return chosen, first_pos, second_pos


def _list_loss(table: StrategyTable, inst: _Instances, patterns: npt.NDArray[np.int64]
               ) -> tuple[float, npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Exact loss of first-match play, the line each deal uses, and each line's removal cost."""
    chosen, first_pos, second_pos = _first_match(inst, patterns)
    if (chosen < 0).any():
        return np.inf, first_pos, np.zeros(len(patterns))
    n = len(chosen)
    w = table.weights / table.deals
    got = table.holds.values[np.arange(n), chosen]
    loss = float(((table.holds.best_value - got) * w).sum())
    # Without its line a deal falls back to the next line present (values of that instance).
    pos = _line_positions(inst, patterns)
    fallback = (pos == second_pos[inst.deal]) & (pos < len(patterns))
    fb_value = np.full(n, -np.inf)
    fb_value[inst.deal[fallback]] = inst.value[fallback]
    cost = np.bincount(first_pos, weights=(got - fb_value) * w, minlength=len(patterns) + 1)
    return loss, first_pos, np.asarray(cost[: len(patterns)], dtype=np.float64)


def condense(table: StrategyTable, *, tolerance: float = 2e-5, max_lines: int = 60) -> CondensedStrategy:
    """Derive the ordered pattern list from the exact table and measure its loss.

    Greedy build: repeatedly append the pattern whose first-match play loses least per deal it
    decides, on the deal classes no earlier line has decided. Prune: drop the line whose removal
    costs least while that costs at most ``tolerance`` (objective units per deal), and while the
    list is longer than ``max_lines``.
    """
    codes = hold_pattern_codes(table.holds.deals, table.rules.joker)
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
    patterns = np.array(chosen, dtype=np.int64)
    total, first_pos, cost = _list_loss(table, inst, patterns)
    while len(patterns) > 1:
        i = int(np.argmin(cost))
        if not np.isfinite(cost[i]) or (cost[i] > tolerance and len(patterns) <= max_lines):
            break
        patterns = np.delete(patterns, i)
        total, first_pos, cost = _list_loss(table, inst, patterns)
    usage = np.bincount(first_pos, weights=w, minlength=len(patterns)) / table.deals
    return CondensedStrategy(tuple(int(p) for p in patterns), tuple(hold_pattern_label(int(p)) for p in patterns),
                             total, table.value, tuple(float(u) for u in usage))


# --- the whole `strategy` report -----------------------------------------------------------------

CARD_REMOVAL_NOTE = "ignored: the opponents' final hands are independent of our cards"


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
            out["card_removal"] = CARD_REMOVAL_NOTE
            if self.removal is not None:
                out["card_removal_check"] = self.removal.to_dict()
        if self.out:
            out["out"] = self.out
        if self.interrupted:
            out["interrupted"] = True
        return out


def strategy_report(objective: str, rules: RuleSet, *, opponents: int = 1, policy: str = "standard",
                    lines: int = 60, check_removal: int = 0, seed: int = 1, out: str | None = None,
                    progress: Stage = _quiet) -> StrategyReport:
    """Solve ``objective`` (a name such as ``vp96`` or ``equity``) over every deal, condense the
    table to at most ``lines`` patterns, optionally write it to ``out`` (.parquet or .csv) and,
    for the equity objective, measure the card-removal error on ``check_removal`` random deals.

    ``progress(stage, fraction)`` follows the work."""
    equity = objective.strip().lower() == "equity"
    progress("field distribution" if equity else "objective", 0.0)
    obj = parse_objective(objective, rules, opponents=opponents, policy=policy)
    table = solve(obj, rules, progress=lambda stage, f: progress(stage, 0.8 * f))
    progress("condensed strategy", 0.85)
    condensed = condense(table, max_lines=lines)
    removal, interrupted = None, False
    if check_removal and equity:
        progress("card-removal check (Monte Carlo)", 0.92)
        chooser = policy_chooser(rules, policy, np.random.default_rng(seed))
        try:
            removal = equity_card_removal_error(make_solver(obj, rules), opponents, chooser,
                                                deals=check_removal, seed=seed)
        except KeyboardInterrupt:
            interrupted = True
    if out:
        table.write(out)
    progress("done", 1.0)
    return StrategyReport(obj, table, condensed, opponents, policy, seed, removal, check_removal, out,
                          interrupted)
