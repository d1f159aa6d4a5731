"""`drawodds strategy`: the exact table's value and the condensed strategy a player can learn."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.condensed import StrategyReport
from drawodds.render.console import out


def render_strategy(report: StrategyReport) -> None:
    """The objective, the optimal value, the condensed list and the card-removal check."""
    obj, table, condensed, rules = report.objective, report.table, report.condensed, report.table.rules
    out.print(f"[bold]{obj.description}[/bold]; rules {rules.name} (max draw {rules.max_draw})")
    out.print(f"optimal value over all {table.deals:,} deals ({table.classes:,} suit classes): "
              f"[bold]{table.value:.6f}[/bold] {obj.unit}")
    grid = Table(title=f"Condensed strategy: take the first line that matches "
                       f"(loses {condensed.loss:.6f} {obj.unit} per deal vs the exact table)")
    grid.add_column("#", justify="right")
    grid.add_column("hold pattern", style="bold")
    grid.add_column("play")
    grid.add_column("deals", justify="right")
    for i, line in enumerate(condensed.lines, start=1):
        grid.add_row(str(i), line.pattern, line.hold, f"{100 * line.share:.2f}%")
    out.print(grid)
    if report.equity:
        out.print("Card removal between our hand and the field is ignored in the table.")
        removal = report.removal
        if removal is not None:
            n = report.removal_deals
            out.print(f"Measured on {n} random deals by Monte Carlo ({removal.trials} trials "
                      f"each, seed {report.seed}): table - simulation = {removal.mean_error:+.4f} "
                      f"± {removal.mean_error_se:.4f}; per-deal RMS error {removal.rms_error:.4f} "
                      f"(simulation noise removed); best-minus-runner-up gap RMS error "
                      f"{removal.gap_error_rms:.4f}; decisions reversed beyond 2 SE: "
                      f"{removal.flips} of {n}")
    if report.out:
        out.print(f"table written to {report.out}")
