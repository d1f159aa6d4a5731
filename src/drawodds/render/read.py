"""`drawodds read`: what an opponent's draw count says, as three tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from drawodds.analyses.read import DrawReading
from drawodds.render.console import pct, pretty_cards, stdout
from drawodds.sim.stats import Estimate

BAR = 40   # characters of the longest bar in the holding table


def render_read(result: DrawReading) -> None:
    """The reading: holding before the draw, final hand and, with our hand, our equity per hold."""
    console = stdout()
    who = f"policy '{result.policy}'" + (f", range {result.range.replace('_', ' ')}+" if result.range != "any" else "")
    if result.line is not None:
        who += f", line {result.line}, opponent {'first to act' if result.seat == 'first' else 'the dealer'}"
        if result.our_draw is not None:
            who += f" after we drew {result.our_draw}"
    if result.hand_range is not None:
        who += f", dealt {result.hand_range}"
    console.print(f"[bold]Opponent drew {result.draw}[/bold] ({who}, rules {result.rules}). "
                  f"A player like this draws {result.draw} with probability {pct(result.p_draw)}%.")
    _holding(console, result)
    _final(console, result)
    if result.equity:
        _equity(console, result)


RARE = 0.00005     # holdings less likely than this (0.00 at two decimals) are counted together


def _holding(console: Console, result: DrawReading) -> None:
    table = Table(title="Their hand before the draw (exact posterior)", title_justify="left")
    table.add_column("holding")
    table.add_column("%", justify="right")
    table.add_column("", no_wrap=True)
    rare = {name: p for name, p in result.holding.items() if p < RARE}
    if len(rare) < 2:
        rare = {}
    for name, p in result.holding.items():
        if name not in rare:
            table.add_row(name.replace("_", " "), pct(p), "█" * int(round(BAR * p)))
    if rare:
        table.add_row(f"{len(rare)} others", pct(sum(rare.values())), "", style="dim")
    console.print(table)
    if rare:
        console.print(f"[dim]others: holdings each under {100 * RARE:g}%.[/dim]")


def _final(console: Console, result: DrawReading) -> None:
    exact = result.final_method == "exact"
    table = Table(title="Their final hand", title_justify="left")
    table.add_column("category")
    table.add_column("%" if exact else "% ± se", justify="right")
    for name, p in result.final.items():
        se = result.final_se[name]
        table.add_row(name.replace("_", " "), f"{100 * p:.2f}" if exact else Estimate(p, se).percent(2, unit=""))
    console.print(table)
    console.print("[dim]" + ("Exact: every holding and every draw enumerated." if exact else
                             f"Sampled from the exact posterior: {result.trials or 0:,} trials, seed {result.seed}; "
                             "± one standard error.") + "[/dim]")


def _equity(console: Console, result: DrawReading) -> None:
    """Our holds against the opponent, best first."""
    best = result.equity[0]
    console.print(f"[bold]Keep {pretty_cards(best.keep) or 'nothing'}, draw {best.draw}[/bold]: "
                  f"{Estimate(best.equity, best.equity_se).percent(2)} equity against them.")
    table = Table(title=f"Our holds from {pretty_cards(result.hand or [])} against them "
                        f"({result.equity_trials or 0:,} trials, seed {result.seed})", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("keep", no_wrap=True)
    table.add_column("discard", style="dim", no_wrap=True)
    table.add_column("draw", justify="right")
    table.add_column("equity % ± se", justify="right", no_wrap=True)
    for i, e in enumerate(result.equity):
        table.add_row(str(i + 1), pretty_cards(e.keep) or "(nothing)", pretty_cards(e.discard) or "-", str(e.draw),
                      Estimate(e.equity, e.equity_se).percent(2, unit=""), style="bold green" if i == 0 else None)
    console.print(table)
    console.print("[dim]± one standard error; every hold meets the same deals.[/dim]")
