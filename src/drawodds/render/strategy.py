"""`drawodds strategy`: what the table optimises, its exact value and the condensed strategy."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.condensed import HandCheck, StrategyReport
from drawodds.analyses.equity_table import EquityTableRun
from drawodds.render.console import pretty_cards, stdout
from drawodds.sim.stats import Estimate


def headline(report: StrategyReport) -> str:
    """What the table is: the objective it maximises under which rules."""
    rules = report.table.rules
    return (f"Best play for every deal under {rules.name} (max draw {rules.max_draw_text}). "
            f"It maximises: {report.objective.description}.")


def render_strategy(report: StrategyReport) -> None:
    """The objective, the optimal value, the condensed list and the card-removal check."""
    console = stdout()
    obj, table, condensed, rules = report.objective, report.table, report.condensed, report.table.rules
    console.print(f"[bold]{headline(report)}[/bold]")
    if rules.game != "draw":
        console.print(f"[yellow]This table counts the final hand's table points alone: in {rules.name} the "
                      f"last trick scores {rules.last_trick_points} more, which can change the hold "
                      f"(`drawodds keep HAND --rules {rules.name}` plays the tricks out).[/yellow]")
    console.print(f"optimal value over all {table.deals:,} deals ({table.classes:,} suit classes): "
                  f"[bold]{table.value:.6f}[/bold] {obj.unit}")
    grid = Table(title=f"Condensed strategy: take the first line that matches "
                       f"(loses {condensed.loss:.6f} {obj.unit} per deal vs the exact table)")
    grid.add_column("#", justify="right")
    grid.add_column("hold pattern", style="bold")
    grid.add_column("play", no_wrap=True)
    grid.add_column("deals", justify="right", no_wrap=True)
    for i, line in enumerate(condensed.lines, start=1):
        grid.add_row(str(i), line.pattern, line.hold, f"{100 * line.share:.2f}%")
    console.print(grid)
    if report.equity:
        console.print("Card removal between our hand and the field is ignored in the table.")
        removal = report.removal
        if removal is not None:
            n = report.removal_deals
            error = Estimate(removal.mean_error, removal.mean_error_se).text(4, signed=True)
            console.print(f"Measured on {n} random deals by Monte Carlo ({removal.trials} trials "
                          f"each, seed {report.seed}): table - simulation = {error}; per-deal RMS error "
                          f"{removal.rms_error:.4f} "
                          f"(simulation noise removed); best-minus-runner-up gap RMS error "
                          f"{removal.gap_error_rms:.4f}; decisions reversed beyond 2 SE: "
                          f"{removal.flips} of {n}")
        elif report.interrupted:
            console.print("[yellow]Interrupted: the card-removal check did not finish.[/yellow]")
    if report.out:
        console.print(f"table written to {report.out}")


def render_equity_table(run: EquityTableRun) -> None:
    """Where the Monte Carlo table is, how far it got, and how to read it."""
    console = stdout()
    state = "complete" if run.complete else f"{run.classes_done:,} of {run.classes:,} deal classes done"
    console.print(f"Monte Carlo strategy table, {run.rules}, {run.opponents} opponent"
                  f"{'s' * (run.opponents != 1)} drawing by '{run.policy}', {run.trials:,} trials per class, "
                  f"seed {run.seed}: {state}, in {run.parts:,} parts under {run.path}")
    console.print("[dim]One row per deal class: the equity ± se of every legal hold (index = hold number, "
                  "bit i keeps card i) and the best hold. Read it with polars: "
                  f"pl.read_parquet('{run.path}/part-*.parquet').[/dim]")


def render_hand_check(check: HandCheck) -> None:
    """One hand against the printed list: its line, the list's hold, the best hold, the cost."""
    console = stdout()
    hand = pretty_cards(list(check.hand))

    def hold(cards: tuple[str, ...]) -> str:
        draw = len(check.hand) - len(cards)
        return "stand pat" if not draw else f"keep {pretty_cards(list(cards)) or 'nothing'}, draw {draw}"

    console.print(f"[bold]{hand}[/bold] meets line {check.line_number} of the list: {check.line}")
    console.print(f"the list says:   {hold(check.list_keep)}  ({check.list_value:.6f} {check.unit})")
    console.print(f"the best hold:   {hold(check.best_keep)}  ({check.best_value:.6f} {check.unit})")
    if check.cost > 0:
        console.print(f"following the list gives up {check.cost:.6f} {check.unit} on this hand")
    else:
        console.print("following the list gives up nothing on this hand")
