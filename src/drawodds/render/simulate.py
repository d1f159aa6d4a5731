"""`drawodds simulate`: outcome shares, pots and chips won, each with its standard error."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from drawodds.engine.session import SimulationResult
from drawodds.points.games import PointsSimulationResult
from drawodds.render.console import stdout
from drawodds.sim.stats import Estimate

TIMING = "seconds"   # wall-clock time: left out, so that a seed gives byte-identical output


def render_simulation(r: SimulationResult) -> None:
    """Outcome shares, pots and chips won per seat and per policy, each with its standard error."""
    console = stdout()
    console.print(f"[bold]{r.rules.name}: {r.deals:,} deals, {r.players} players, seed {r.seed}[/bold] "
                  f"({r.sessions:,} sessions of up to {r.rules.deals} deals)")
    table = Table()
    table.add_column("deals", style="bold")
    table.add_column("share %", justify="right")
    table.add_column("± se", justify="right", style="dim")
    for label, value, se in (("passed out (pot stays)", r.passed_out, r.passed_out_se),
                             ("won uncontested", r.uncontested, r.uncontested_se),
                             ("shown down", r.showdown, r.showdown_se),
                             ("opened", r.opened, r.opened_se)):
        table.add_row(label, f"{100 * value:.2f}", f"{100 * se:.2f}")
    if r.rules.opener == "jacks" and r.dead_opener == r.dead_opener:
        table.add_row("opener without openers (of opened)", f"{100 * r.dead_opener:.2f}",
                      f"{100 * r.dead_opener_se:.2f}")
    console.print(table)
    console.print(f"average pot when a deal ends: {Estimate(r.average_pot, r.average_pot_se).text(2)} chips; "
                  f"left on the table at the end: {r.pot_carried_at_end}")
    seats = Table(title="chips won", title_justify="left")
    seats.add_column("seat", justify="right")
    seats.add_column("policy", justify="left")
    seats.add_column("net", justify="right")
    seats.add_column("per deal", justify="right")
    seats.add_column("± se", justify="right")
    for s in r.seats:
        seats.add_row(str(s.seat), s.player, f"{s.net:+,}", f"{s.net_per_deal:+.3f}", f"{s.net_per_deal_se:.3f}")
    for p in r.by_player:
        seats.add_row("all", f"[bold]{p.player}[/bold] ({p.seats})", f"{p.net:+,}",
                      f"{p.net_per_deal:+.3f}", f"{p.net_per_deal_se:.3f}")
    console.print(seats)
    if r.interrupted:
        console.print(f"[yellow]Interrupted: the figures cover the {r.deals:,} deals played so far.[/yellow]")
    console.print("[dim]± one standard error; seat 0 sits left of the first dealer.[/dim]")


def points_summary(result: PointsSimulationResult) -> dict[str, Any]:
    """The ``--json`` of a points simulation: every figure but the wall-clock time."""
    return {k: v for k, v in result.to_dict().items() if k != TIMING}


def _estimate(e: Estimate, digits: int = 3) -> str:
    return e.text(digits)


def render_points_simulation(result: PointsSimulationResult) -> None:
    """Whole Poengpoker / Chicago games: how long, where the points come from, who wins."""
    console = stdout()
    console.print(f"[bold]{result.rules}: {result.games:,} games, {result.players} players, seed {result.seed}[/bold]")
    table = Table()
    table.add_column("figure", style="bold")
    table.add_column("value ± se", justify="right")
    rows = [("deals per game", _estimate(result.deals_per_game, 2)),
            ("points per deal", _estimate(result.points_per_deal)),
            ("share of points from hands", _estimate(result.hand_share)),
            ("share of points from last tricks", _estimate(result.trick_share)),
            ("deals with the best hand tied", _estimate(result.tied_best_rate)),
            ("games won by a royal flush", _estimate(result.instant_win_rate))]
    rows += [(f"seat {i} ({result.seat_players[i]}) wins", _estimate(e)) for i, e in enumerate(result.win_rate_by_seat)]
    rows += [(f"{name} wins, per seat", _estimate(e)) for name, e in result.win_rate_by_player.items()]
    for label, value in rows:
        table.add_row(label, value)
    console.print(table)
    console.print("[dim]± one standard error; seat 0 sits left of the first dealer.[/dim]")
