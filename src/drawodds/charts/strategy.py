"""Strategy charts from the exact tables (matplotlib, Agg), written into ``reports/``.

* ``strategy_heatmap.png``: the most common best hold type for each starting-hand pattern,
  against 1-5 opponents drawing by a policy (equity objective).
* ``strategy_dilemmas.png``: the value of each option in classic dilemmas (pair vs four-flush,
  pair + kicker, two pair vs standing pat, breaking a pat straight) against 1-5 opponents.
* ``strategy_<objective>.png``: a condensed strategy as a printable chart.

Regenerate: ``drawodds charts strategy`` (or ``python -m drawodds.charts.strategy [--out reports]``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from drawodds.analyses.condensed import CondensedStrategy, condense
from drawodds.analyses.strategy import (
    HoldValues,
    Solver,
    StrategyTable,
    equity_objective,
    field_distribution,
    make_solver,
    paytable_objective,
    solve,
)
from drawodds.cards import format_hand, parse_hand
from drawodds.evaluate import ONE_PAIR, STRAIGHT, category_of, evaluate
from drawodds.evaluate import TRIPS as CAT_TRIPS
from drawodds.evaluate import TWO_PAIR as CAT_TWO_PAIR
from drawodds.patterns import (
    CARD_PLUS_LOW,
    DISCARD,
    FLUSH_DRAW,
    FULL_HOUSE,
    JOKER_PAT,
    ONE_CARD,
    PAIR,
    PAIR_K,
    PAIR_KK,
    PAIR_PAT,
    PAT_FLUSH,
    PAT_NOTHING,
    PAT_SF,
    PAT_STRAIGHT,
    QUADS,
    QUADS_PAT,
    ROYAL_DRAW,
    SF_DRAW,
    STRAIGHT_DRAW,
    TRIPS,
    TRIPS_K,
    TRIPS_PAT,
    TWO_HIGH_OFFSUIT,
    TWO_HIGH_SUITED,
    TWO_PAIR,
    TWO_PAIR_PAT,
    UNRELATED,
    pattern_codes,
)
from drawodds.rules import RuleSet, preset

# --- hold types (columns of colour) and starting-hand patterns (rows) ---------------------------

HOLD_TYPES = ("stand pat", "keep trips / two pair / quads", "keep the pair", "pair + kicker",
              "flush draw", "straight draw", "straight-flush draw", "two cards", "one card",
              "draw five", "other")
HOLD_COLOURS = ("#1b9e77", "#66a61e", "#7570b3", "#a6761d", "#e7298a", "#e6ab02", "#d95f02",
                "#1f78b4", "#a6cee3", "#bdbdbd", "#666666")


def hold_type(codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Coarse type (index into HOLD_TYPES) of each hold pattern code."""
    kind = (np.asarray(codes) >> 8) & 31
    table = np.full(32, len(HOLD_TYPES) - 1, dtype=np.int64)
    for k in (QUADS_PAT, FULL_HOUSE, TRIPS_PAT, TWO_PAIR_PAT, PAIR_PAT, PAT_SF, PAT_FLUSH, PAT_STRAIGHT,
              PAT_NOTHING, JOKER_PAT):
        table[k] = 0
    table[[QUADS, TRIPS, TRIPS_K, TWO_PAIR]] = 1
    table[PAIR] = 2
    table[[PAIR_K, PAIR_KK]] = 3
    table[FLUSH_DRAW] = 4
    table[STRAIGHT_DRAW] = 5
    table[[SF_DRAW, ROYAL_DRAW]] = 6
    table[[TWO_HIGH_SUITED, TWO_HIGH_OFFSUIT, CARD_PLUS_LOW]] = 7
    table[ONE_CARD] = 8
    table[DISCARD] = 9
    table[UNRELATED] = 10
    return table[kind]


START_PATTERNS = ("straight or better", "three of a kind", "two pair", "pair of aces", "pair of kings",
                  "pair of queens", "pair of jacks", "pair of tens", "pair 7s-9s", "pair 2s-6s",
                  "four-flush", "open-ended straight draw", "ace high", "king high", "queen high or less")


def start_pattern(deals: npt.NDArray[np.integer], joker: bool = False) -> npt.NDArray[np.int64]:
    """Row (index into START_PATTERNS) of each sorted dealt hand."""
    d = np.asarray(deals, dtype=np.int64)
    r, s = d // 4, d % 4
    strength = evaluate(d, joker=joker)
    cat = category_of(strength)
    eq = r[:, 1:] == r[:, :-1]
    pair_rank = (r[:, 1:] * eq).sum(axis=1)
    suit_counts = np.stack([(s == k).sum(axis=1) for k in range(4)], axis=1).max(axis=1)
    rank_bits = np.zeros(len(d), dtype=np.int64)
    for j in range(5):
        rank_bits |= np.left_shift(1, r[:, j])
    open_ended = np.zeros(len(d), dtype=bool)
    for low in range(0, 9):                  # four in a row with two ways to fill: 2-5 ... T-K
        run = 0b1111 << low
        open_ended |= (rank_bits & run) == run
    out = np.full(len(d), 14, dtype=np.int64)
    out[r.max(axis=1) == 11] = 13
    out[r.max(axis=1) == 12] = 12
    out[open_ended] = 11
    out[suit_counts == 4] = 10
    pair = cat == ONE_PAIR
    out[pair] = np.select([pair_rank[pair] == 12, pair_rank[pair] == 11, pair_rank[pair] == 10,
                           pair_rank[pair] == 9, pair_rank[pair] == 8, pair_rank[pair] >= 5], [3, 4, 5, 6, 7, 8], 9)
    out[cat == CAT_TWO_PAIR] = 2
    out[cat == CAT_TRIPS] = 1
    out[cat >= STRAIGHT] = 0
    return out


@dataclass(frozen=True)
class HoldGrid:
    """For each starting pattern (row) and opponent count (column): the most common best hold
    type and the share of the row's deals that play it."""

    opponents: tuple[int, ...]
    hold: npt.NDArray[np.int64]      # (rows, cols) index into HOLD_TYPES
    share: npt.NDArray[np.float64]   # (rows, cols)


def best_hold_grid(tables: dict[int, StrategyTable]) -> HoldGrid:
    """Tabulate the best hold types of equity tables keyed by the number of opponents."""
    ns = tuple(sorted(tables))
    hold = np.zeros((len(START_PATTERNS), len(ns)), dtype=np.int64)
    share = np.zeros_like(hold, dtype=np.float64)
    for j, n in enumerate(ns):
        t = tables[n]
        deals = t.holds.deals
        codes = pattern_codes(deals, t.rules.joker)
        best_type = hold_type(codes[np.arange(len(deals)), t.holds.best.astype(np.int64)])
        rows = start_pattern(deals, t.rules.joker)
        counts = np.zeros((len(START_PATTERNS), len(HOLD_TYPES)))
        np.add.at(counts, (rows, best_type), t.weights)
        hold[:, j] = counts.argmax(axis=1)
        share[:, j] = counts.max(axis=1) / np.maximum(counts.sum(axis=1), 1)
    return HoldGrid(ns, hold, share)


def plot_hold_heatmap(grid: HoldGrid, path: Path, policy: str) -> None:
    fig = Figure(figsize=(9.5, 8))
    ax = fig.subplots()
    ax.imshow(grid.hold, cmap=ListedColormap(HOLD_COLOURS), vmin=-0.5, vmax=len(HOLD_TYPES) - 0.5,
              aspect="auto")
    for i in range(grid.hold.shape[0]):
        for j in range(grid.hold.shape[1]):
            ax.text(j, i, f"{100 * grid.share[i, j]:.0f}%", ha="center", va="center", fontsize=8,
                    color="white" if grid.hold[i, j] not in (8, 9) else "black")
    ax.set_xticks(range(len(grid.opponents)), [str(n) for n in grid.opponents])
    ax.set_yticks(range(len(START_PATTERNS)), START_PATTERNS)
    ax.set_xlabel(f"opponents (each draws by the '{policy}' policy)")
    ax.set_ylabel("starting hand (five cards dealt)")
    ax.set_title("Best hold for showdown equity, by starting hand and number of opponents\n"
                 "colour = most common optimal hold type; number = share of those deals playing it",
                 fontsize=11)
    used = sorted(set(grid.hold.ravel().tolist()))
    ax.legend(handles=[Patch(color=HOLD_COLOURS[k], label=HOLD_TYPES[k]) for k in used],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), title="best hold")
    fig.tight_layout()
    fig.savefig(path, dpi=130)


# --- classic dilemmas -------------------------------------------------------------------------

DILEMMAS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("Small pair or four-flush?", "7s 7h Ks 9s 3s", (("keep 7-7", "7s 7h"), ("keep the four spades", "Ks 9s 7s 3s"),
                                                    ("keep 7-7 + K", "7s 7h Ks"))),
    ("Keep an ace kicker with a pair?", "Qh Qd Ac 8s 4d", (("keep Q-Q", "Qh Qd"), ("keep Q-Q-A", "Qh Qd Ac"))),
    ("Two pair: draw one or stand pat?", "Js Jh 4c 4d Ks", (("keep J-J-4-4, draw 1", "Js Jh 4c 4d"),
                                                           ("stand pat", "Js Jh 4c 4d Ks"))),
    ("Break a pat straight for a straight flush?", "8h 9h Th Jh Qc", (("stand pat (straight)", "8h 9h Th Jh Qc"),
                                                                     ("keep the four hearts", "8h 9h Th Jh"))),
)


def _hold_mask(deal_sorted: npt.NDArray[np.int8], kept: str) -> int:
    keep = set(parse_hand(kept, size=len(kept.split())).tolist())
    return sum(1 << i for i, c in enumerate(deal_sorted) if int(c) in keep)


def dilemma_values(solvers: dict[int, Solver]) -> list[tuple[str, str, list[tuple[str, list[float]]]]]:
    """Value of each option of each dilemma for every opponent count."""
    out = []
    for title, hand, options in DILEMMAS:
        deal = np.sort(parse_hand(hand))
        masks = [_hold_mask(deal, kept) for _, kept in options]
        values: list[tuple[str, list[float]]] = [(label, []) for label, _ in options]
        for n in sorted(solvers):
            hv: HoldValues = solvers[n].hold_values(deal[None, :])
            for (_label, vals), m in zip(values, masks, strict=False):
                vals.append(float(hv.values[0, m]))
        out.append((title, format_hand(parse_hand(hand), pretty=True), values))
    return out


def plot_dilemmas(data: list[tuple[str, str, list[tuple[str, list[float]]]]], opponents: Sequence[int],
                  path: Path, policy: str) -> None:
    fig = Figure(figsize=(11, 8))
    axes = fig.subplots(2, 2, sharex=True)
    for ax, (title, hand, values) in zip(axes.ravel(), data, strict=False):
        for label, vals in values:
            ax.plot(list(opponents), vals, marker="o", label=label)
        ax.set_title(f"{title}\n{hand}", fontsize=10)
        ax.set_ylabel("showdown equity (share of the pot)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel(f"opponents (drawing by the '{policy}' policy)")
        ax.set_xticks(list(opponents))
    fig.suptitle("Classic draw-poker dilemmas: exact equity of each option (card removal vs the field ignored)",
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=130)


# --- printable condensed strategy ----------------------------------------------------------------

def plot_condensed(plan: CondensedStrategy, title: str, unit: str, path: Path) -> None:
    lines = plan.lines
    height = 1.2 + 0.24 * len(lines)
    fig = Figure(figsize=(8.5, height))
    ax = fig.subplots()
    ax.axis("off")
    ax.set_title(f"{title}\nTake the first line that matches. Following this list loses "
                 f"{plan.loss:.5f} {unit} per deal\nagainst the exact optimum ({plan.optimum:.6f}).",
                 fontsize=10, loc="left")
    cell = [[str(i), ln.pattern, ln.hold, f"{100 * ln.share:.2f}%"] for i, ln in enumerate(lines, 1)]
    tab = ax.table(cellText=cell, colLabels=["#", "hold pattern", "play", "deals"], loc="upper left",
                   colLoc="left", cellLoc="left", colWidths=[0.05, 0.6, 0.2, 0.12])
    tab.auto_set_font_size(False)
    tab.set_fontsize(8.5)
    tab.scale(1, 1.15)
    for (row, _col), c in tab.get_celld().items():
        c.PAD = 0.03                                # matplotlib pads by a share of the cell width
        if row == 0:
            c.set_facecolor("#dddddd")
        elif row % 2 == 0:
            c.set_facecolor("#f5f5f5")
    fig.tight_layout()
    fig.savefig(path, dpi=130)


def write_reports(out_dir: str | Path = "reports", *, policy: str = "standard", opponents: Sequence[int] = (1, 2, 3, 4, 5),
                  rules: RuleSet | None = None, seed: int = 1) -> list[Path]:
    """Solve the equity tables for each opponent count and the 9/6 table; write the PNGs."""

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rules = preset("morkpoker") if rules is None else rules
    dist = field_distribution(rules, policy)
    solvers = {n: make_solver(equity_objective(dist, n, policy), rules) for n in opponents}
    tables = {n: solve(s.objective, rules) for n, s in solvers.items()}
    paths = [out / "strategy_heatmap.png", out / "strategy_dilemmas.png"]
    plot_hold_heatmap(best_hold_grid(tables), paths[0], policy)
    plot_dilemmas(dilemma_values(solvers), opponents, paths[1], policy)
    eq2 = tables[min(2, max(opponents))]
    paths.append(out / "strategy_equity.png")
    plot_condensed(condense(eq2), f"Mørkpoker (draw at most 3): best equity against "
                   f"{eq2.objective.name.split(':')[1]} opponents ({policy} policy)", "of the pot", paths[-1])
    vp = solve(paytable_objective(), preset("morkpoker", max_draw="any"))
    paths.append(out / "strategy_vp96.png")
    plot_condensed(condense(vp), "9/6 Jacks or Better video poker", "coins", paths[-1])
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the strategy charts into reports/.")
    parser.add_argument("--out", default="reports")
    parser.add_argument("--policy", default="standard")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for p in write_reports(args.out, policy=args.policy, seed=args.seed):
        print(p)


if __name__ == "__main__":
    main()
