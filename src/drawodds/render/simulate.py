"""`drawodds simulate`: outcome shares, pots and chips won, each with its standard error."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from drawodds.engine.session import SimulationResult
from drawodds.i18n import _, number
from drawodds.points.games import PointsSimulationResult
from drawodds.render.console import stdout
from drawodds.sim.stats import Estimate

TIMING = "seconds"   # wall-clock time: left out, so that a seed gives byte-identical output


def render_simulation(r: SimulationResult) -> None:
    """Outcome shares, pots and chips won per seat and per policy, each with its standard error."""
    console = stdout()
    console.print(_("[bold]{rules}: {deals} deals, {players} players, seed {seed}[/bold] "
                    "({sessions} sessions of up to {limit} deals)").format(
                      rules=r.rules.name, deals=number(r.deals, grouped=True), players=r.players, seed=r.seed,
                      sessions=number(r.sessions, grouped=True), limit=r.rules.deals))
    table = Table()
    table.add_column(_("deals"), style="bold")
    table.add_column(_("share %"), justify="right")
    table.add_column(_("± se"), justify="right", style="dim")
    for label, value, se in ((_("passed out (pot stays)"), r.passed_out, r.passed_out_se),
                             (_("won uncontested"), r.uncontested, r.uncontested_se),
                             (_("shown down"), r.showdown, r.showdown_se),
                             (_("opened"), r.opened, r.opened_se)):
        table.add_row(label, number(100 * value, 2), number(100 * se, 2))
    if r.rules.opener == "jacks" and r.dead_opener == r.dead_opener:
        table.add_row(_("opener without openers (of opened)"), number(100 * r.dead_opener, 2),
                      number(100 * r.dead_opener_se, 2))
    console.print(table)
    console.print(_("average pot when a deal ends: {pot} chips; left on the table at the end: {left}").format(
        pot=Estimate(r.average_pot, r.average_pot_se).text(2), left=number(r.pot_carried_at_end)))
    seats = Table(title=_("chips won"), title_justify="left")
    seats.add_column(_("seat"), justify="right")
    seats.add_column(_("policy"), justify="left")
    seats.add_column(_("net"), justify="right")
    seats.add_column(_("per deal"), justify="right")
    seats.add_column(_("± se"), justify="right")
    for s in r.seats:
        seats.add_row(str(s.seat), s.player, number(s.net, signed=True, grouped=True), number(s.net_per_deal, 3,
                      signed=True), number(s.net_per_deal_se, 3))
    for p in r.by_player:
        seats.add_row(_("all"), f"[bold]{p.player}[/bold] ({p.seats})", number(p.net, signed=True, grouped=True),
                      number(p.net_per_deal, 3, signed=True), number(p.net_per_deal_se, 3))
    console.print(seats)
    if r.interrupted:
        console.print(_("[yellow]Interrupted: the figures cover the {deals} deals played so far.[/yellow]").format(
            deals=number(r.deals, grouped=True)))
    console.print(_("[dim]± one standard error; seat 0 sits left of the first dealer.[/dim]"))


def points_summary(result: PointsSimulationResult) -> dict[str, Any]:
    """The ``--json`` of a points simulation: every figure but the wall-clock time."""
    return {k: v for k, v in result.to_dict().items() if k != TIMING}


def _estimate(e: Estimate, digits: int = 3) -> str:
    return e.text(digits)


def render_points_simulation(result: PointsSimulationResult) -> None:
    """Whole Poengpoker / Chicago games: how long, where the points come from, who wins."""
    console = stdout()
    console.print(_("[bold]{rules}: {games} games, {players} players, seed {seed}[/bold]").format(
        rules=result.rules, games=number(result.games, grouped=True), players=result.players, seed=result.seed))
    table = Table()
    table.add_column(_("figure"), style="bold")
    table.add_column(_("value ± se"), justify="right")
    rows = [(_("deals per game"), _estimate(result.deals_per_game, 2)),
            (_("points per deal"), _estimate(result.points_per_deal)),
            (_("share of points from hands"), _estimate(result.hand_share)),
            (_("share of points from last tricks"), _estimate(result.trick_share)),
            (_("deals with the best hand tied"), _estimate(result.tied_best_rate)),
            (_("games won by a royal flush"), _estimate(result.instant_win_rate))]
    rows += [(_("seat {seat} ({policy}) wins").format(seat=i, policy=result.seat_players[i]), _estimate(e))
             for i, e in enumerate(result.win_rate_by_seat)]
    rows += [(_("{policy} wins, per seat").format(policy=name), _estimate(e))
             for name, e in result.win_rate_by_player.items()]
    for label, value in rows:
        table.add_row(label, value)
    console.print(table)
    console.print(_("[dim]± one standard error; seat 0 sits left of the first dealer.[/dim]"))
