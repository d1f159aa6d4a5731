"""`drawodds simulate`: outcome shares, pots and chips won, each with its standard error."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from drawodds.engine.session import SimulationResult
from drawodds.points.games import PointsSimulationResult
from drawodds.render.console import out


def render_simulation(r: SimulationResult) -> None:
    """Outcome shares, pots and chips won per seat and per policy, each with its standard error."""
    table = Table(title=f"{r.rules.name}: {r.deals:,} deals, {r.players} players, seed {r.seed} "
                        f"({r.sessions:,} sessions of up to {r.rules.deals} deals)")
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
    out.print(table)
    out.print(f"average pot when a deal ends: {r.average_pot:.2f} ± {r.average_pot_se:.2f} chips; "
              f"left on the table at the end: {r.pot_carried_at_end}")
    seats = Table(title="chips won")
    seats.add_column("seat", justify="right")
    seats.add_column("policy", justify="left")
    seats.add_column("net", justify="right")
    seats.add_column("per deal", justify="right")
    seats.add_column("± se", justify="right")
    for s in r.seats:
        seats.add_row(str(s.seat), s.policy, f"{s.net:+,}", f"{s.net_per_deal:+.3f}", f"{s.net_per_deal_se:.3f}")
    for p in r.policies:
        seats.add_row("all", f"[bold]{p.policy}[/bold] ({p.seats})", f"{p.net:+,}",
                      f"{p.net_per_deal:+.3f}", f"{p.net_per_deal_se:.3f}")
    out.print(seats)


def _points_cell(value: Any) -> str:
    """A value of the points summary as text: estimates as 'value ± se', lists and dicts inline."""
    if isinstance(value, dict) and set(value) == {"value", "se"}:
        return f"{value['value']:.4g} ± {value['se']:.2g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_points_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_points_cell(v) for v in value)
    return str(value)


def render_points_simulation(result: PointsSimulationResult) -> None:
    """Whole Poengpoker / Chicago games: one row per figure."""
    table = Table(title=f"{result.rules}: {result.games:,} games, seed {result.seed}")
    table.add_column("result", style="bold")
    table.add_column("value", justify="right")
    for key, value in result.to_dict().items():
        table.add_row(str(key), _points_cell(value))
    out.print(table)
