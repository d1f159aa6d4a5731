"""`drawodds read`: what an opponent's draw count says, as three tables."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.read import DrawReading
from drawodds.render.console import out, pct, pretty_cards


def render_read(result: DrawReading) -> None:
    """The reading as three rich tables: holding before the draw, final hand, our equity."""
    who = f"policy '{result.policy}'" + (f", range {result.range.replace('_', ' ')}+" if result.range != "any" else "")
    out.print(f"[bold]Opponent drew {result.draw}[/bold] ({who}, rules {result.rules}). "
              f"A player like this draws {result.draw} with probability {pct(result.p_draw)}%.")
    table = Table(title="Their hand before the draw (exact posterior)", title_justify="left")
    table.add_column("holding")
    table.add_column("%", justify="right")
    table.add_column("", no_wrap=True)
    for name, p in result.holding.items():
        table.add_row(name.replace("_", " "), pct(p), "█" * int(round(40 * p)))
    out.print(table)
    exact = result.final_method == "exact"
    table = Table(title="Their final hand", title_justify="left")
    table.add_column("category")
    table.add_column("%" if exact else "% ± se", justify="right")
    for name, p in result.final.items():
        se = result.final_se[name]
        table.add_row(name.replace("_", " "), f"{100 * p:.2f}" if exact else f"{100 * p:.2f} ± {100 * se:.2f}")
    out.print(table)
    out.print("[dim]" + ("Exact: every holding and every draw enumerated." if exact else
                         f"Sampled from the exact posterior: {result.trials or 0:,} trials, seed {result.seed}.")
              + "[/dim]")
    if result.equity:
        _render_equity(result)


def _render_equity(result: DrawReading) -> None:
    """Our holds against the opponent, best first."""
    table = Table(title=f"Our holds from {pretty_cards(result.hand or [])} "
                        f"against them ({result.equity_trials or 0:,} trials, seed {result.seed})",
                  title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("keep", no_wrap=True)
    table.add_column("discard", style="dim")
    table.add_column("draw", justify="right")
    table.add_column("equity % ± se", justify="right")
    for i, e in enumerate(result.equity):
        table.add_row(str(i + 1), pretty_cards(e.keep) or "(nothing)", " ".join(e.discard) or "-", str(e.draw),
                      f"{100 * e.equity:.2f} ± {100 * e.equity_se:.2f}", style="bold green" if i == 0 else None)
    out.print(table)
