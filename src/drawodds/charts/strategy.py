"""Strategy charts from the exact tables (matplotlib figures), written into ``reports/``.

The figures come from ``drawodds.analyses.best_holds`` and the strategy tables; this module only
draws them.

* ``strategy_heatmap.png``: the most common best hold type for each starting-hand pattern,
  against 1-5 opponents drawing by a policy (equity objective).
* ``strategy_dilemmas.png``: the value of each option in classic dilemmas (pair vs four-flush,
  pair + kicker, two pair vs standing pat, breaking a pat straight) against 1-5 opponents.
* ``strategy_<objective>.png``: a condensed strategy as a printable chart.

Regenerate: ``drawodds charts strategy`` (or ``python -m drawodds.charts.strategy [--out reports]``).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from pathlib import Path

from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from drawodds.analyses.best_holds import Dilemma, HoldGrid, best_hold_grid, dilemma_values, equity_solvers
from drawodds.analyses.condensed import CondensedStrategy, condense
from drawodds.analyses.strategy import paytable_objective, solve
from drawodds.charts.output import local_ticks, save
from drawodds.i18n import _, number, percent
from drawodds.kinds import HoldType, StartingHand
from drawodds.render.strategy import list_cost_sentences
from drawodds.rules import RuleSet, preset

HOLD_COLOURS = ("#1b9e77", "#66a61e", "#7570b3", "#a6761d", "#e7298a", "#e6ab02", "#d95f02",
                "#1f78b4", "#a6cee3", "#bdbdbd", "#666666")   # one per HoldType


def plot_hold_heatmap(grid: HoldGrid, path: Path, policy: str) -> None:
    fig = Figure(figsize=(9.5, 8))
    ax = fig.subplots()
    ax.imshow(grid.hold, cmap=ListedColormap(HOLD_COLOURS), vmin=-0.5, vmax=len(HoldType) - 0.5,
              aspect="auto")
    for i in range(grid.hold.shape[0]):
        for j in range(grid.hold.shape[1]):
            ax.text(j, i, percent(grid.share[i, j], 0), ha="center", va="center", fontsize=8,
                    color="white" if grid.hold[i, j] not in (HoldType.ONE_CARD, HoldType.DRAW_FIVE) else "black")
    ax.set_xticks(range(len(grid.opponents)), [str(n) for n in grid.opponents])
    ax.set_yticks(range(len(StartingHand)), [_(label) for label in StartingHand.labels()])
    ax.set_xlabel(_("opponents (each draws by the '{policy}' policy)").format(policy=policy))
    ax.set_ylabel(_("starting hand (five cards dealt)"))
    ax.set_title(_("Best hold for showdown equity, by starting hand and number of opponents\n"
                   "colour = most common optimal hold type; number = share of those deals playing it"),
                 fontsize=11)
    used = sorted(set(grid.hold.ravel().tolist()))
    ax.legend(handles=[Patch(color=HOLD_COLOURS[k], label=_(HoldType(k).label)) for k in used],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), title=_("best hold"))
    fig.tight_layout()
    save(fig, path, dpi=130)


# --- classic dilemmas -------------------------------------------------------------------------

def plot_dilemmas(data: list[Dilemma], opponents: Sequence[int], path: Path, policy: str,
                  simulated: bool = False) -> None:
    """Each dilemma's options by opponent count: exact (card removal ignored) or ``simulated``
    with the opponents dealt from the cards we do not hold."""
    fig = Figure(figsize=(11, 8))
    axes = fig.subplots(2, 2, sharex=True)
    for ax, dilemma in zip(axes.ravel(), data, strict=False):
        for label, vals in dilemma.options:
            ax.plot(list(dilemma.opponents), list(vals), marker="o", label=_(label))
        ax.set_title(f"{_(dilemma.title)}\n{dilemma.hand}", fontsize=10)
        ax.set_ylabel(_("showdown equity (share of the pot)"))
        local_ticks(ax.yaxis)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel(_("opponents (drawing by the '{policy}' policy)").format(policy=policy))
        ax.set_xticks(list(opponents))
    fig.suptitle(_("Classic draw-poker dilemmas: simulated equity of each option, the opponents dealt from the "
                   "cards we do not hold") if simulated else
                 _("Classic draw-poker dilemmas: exact equity of each option (card removal vs the field ignored)"),
                 fontsize=11)
    fig.tight_layout()
    save(fig, path, dpi=130)


# --- printable condensed strategy ----------------------------------------------------------------

def plot_condensed(plan: CondensedStrategy, title: str, unit: str, path: Path) -> None:
    lines = plan.lines
    height = 1.8 + 0.24 * len(lines)          # the title block: two lines of what it loses, and its worst hand
    fig = Figure(figsize=(8.5, height))
    ax = fig.subplots()
    ax.axis("off")
    ax.set_title(title + "\n" + _("Take the first line that matches. Following this list loses {loss} {unit} per "
                                   "deal\nagainst the exact optimum ({optimum}).").format(
        loss=number(plan.loss, 5), unit=unit, optimum=number(plan.optimum, 6))
        + "\n" + "\n".join(textwrap.wrap(" ".join(list_cost_sentences(plan)), 110)), fontsize=10, loc="left")
    cell = [[str(i), ln.words + ("" if ln.core else " *"), ln.hold, percent(ln.share, 2)]
            for i, ln in enumerate(lines, 1)]
    tab = ax.table(cellText=cell, colLabels=["#", _("hold pattern"), _("play"), _("deals")], loc="upper left",
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
    save(fig, path, dpi=130)


def write_reports(out_dir: str | Path = "reports", *, policy: str = "standard",
                  opponents: Sequence[int] = (1, 2, 3, 4, 5), rules: RuleSet | None = None,
                  seed: int = 1) -> list[Path]:
    """Solve the equity tables for each opponent count and the 9/6 table; write the PNGs."""

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rules = preset("morkpoker") if rules is None else rules
    solvers = equity_solvers(rules, policy, opponents)
    tables = {n: solve(s.objective, rules) for n, s in solvers.items()}
    paths = [out / "strategy_heatmap.png", out / "strategy_dilemmas.png"]
    plot_hold_heatmap(best_hold_grid(tables), paths[0], policy)
    plot_dilemmas(dilemma_values(solvers), opponents, paths[1], policy)
    eq2 = tables[min(2, max(opponents))]
    paths.append(out / "strategy_equity.png")
    plot_condensed(condense(eq2), _("Mørkpoker (draw at most 3): best equity against {n} opponents ({policy} policy; "
                                    "exact table, card removal ignored)").format(
                   n=eq2.objective.name.split(":")[1], policy=policy), _("of the pot"), paths[-1])
    vp = solve(paytable_objective(), preset("morkpoker", max_draw="any"))
    paths.append(out / "strategy_vp96.png")
    plot_condensed(condense(vp), _("9/6 Jacks or Better video poker"), _("coins"), paths[-1])
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
