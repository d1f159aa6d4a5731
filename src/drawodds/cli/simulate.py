"""`drawodds simulate`: many deals (or whole points games) played, from ``drawodds.simulate`` or
``drawodds.simulate_points``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from drawodds.cli.errors import interrupted, names, refuse, scheduler, writable_file
from drawodds.cli.options import (
    DaskOpt,
    DrawsOpt,
    JokerAceOpt,
    JokerOpt,
    JsonOpt,
    MaxDrawOpt,
    PlayersOpt,
    RulesOpt,
    SchedulerOpt,
    SeedOpt,
    WorkersOpt,
    bounded,
    build_rules,
)
from drawodds.cli.solved import equilibrium, table_equilibrium_cli
from drawodds.errors import DEALS, GAMES
from drawodds.i18n import N_, _, number
from drawodds.render.console import emit_json, progress_bar, show, stage_bar

HELP = N_("""Play many deals (or points games) with betting policies and summarise who won what.

Examples:

  drawodds simulate --rules morkpoker --players 4 --deals 100000 --seed 1

  drawodds simulate --rules jackpot --policy rule,rule,station,random --history deals.jsonl

  drawodds simulate --rules poengpoker --games 2000 --json

  drawodds simulate --policy equilibrium,rule --deals 20000""")


def simulate_cmd(
    rules: RulesOpt = "morkpoker",
    players: PlayersOpt = None,
    deals: Annotated[int | None, typer.Option(
        "--deals", "-d", help=bounded(DEALS, N_("Deals to play in the draw game"), 10_000))] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-g", help=bounded(GAMES, N_("Whole games to play in Poengpoker and Chicago"), 1_000))] = None,
    seed: SeedOpt = 1,
    policy: Annotated[str | None, typer.Option(
        "--policy", "-p", help=N_("Betting policy per seat, comma-separated (rule, reader, pat, station, "
        "random, raiser, snower, trips; heads-up and three-handed also equilibrium), or one for every seat; in "
        "Poengpoker and Chicago a player such as sensible or tight:random."))] = None,
    solution: Annotated[str | None, typer.Option(
        "--solution", help=N_("The equilibrium player's strategy: a file written by drawodds solve --out "
        "(default: the cached equilibrium of the rules, heads-up or three-handed, solved on first use)."))] = None,
    history: Annotated[str | None, typer.Option(
        "--history", help=N_("Write every deal: JSON lines for .jsonl, else a readable text log."))] = None,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    joker_ace: JokerAceOpt = None,
    draws: DrawsOpt = None,
    workers: WorkersOpt = None,
    scheduler_address: SchedulerOpt = None,
    dask: DaskOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Play many deals (or points games) with betting policies and summarise who won what."""
    seats = names(policy, "--policy")
    solved = bool(seats) and "equilibrium" in [n.lower() for n in seats or ()]
    if players is None and solved:
        players = 3 if len(seats or ()) == 3 else 2     # three seats named: the three-handed solution
    rule_set = build_rules(rules, players=players, joker=joker, max_draw=max_draw, draws=draws,
                           joker_is_ace_for_draw=joker_ace)
    cluster = scheduler(scheduler_address, dask)
    count: dict[str, Any] = {"deals": deals} if deals is not None else {}
    if rule_set.game != "draw":
        if deals is not None:
            raise refuse(N_("{rules} is played in games to {points} points: use --games, not --deals"),
                         rules=rule_set.name, points=rule_set.target_points)
        for given, flag in ((solution, "--solution"), (history, "--history")):
            if given is not None:
                raise refuse(N_("{option} is for the draw game"), option=flag)
        return _points(rule_set, games, seed, seats, json_out, workers, cluster)
    from drawodds.engine.session import simulate
    from drawodds.render.simulate import render_simulation

    if games is not None:
        raise refuse(N_("--games is for Poengpoker and Chicago; the draw game counts --deals"))
    DEALS.check(deals)      # before the equilibrium is solved (simulate refuses it too)
    writable_file(history, "--history")
    factories: dict[str, Any] = {}
    if solution is not None or solved:
        from drawodds.solver.player import check_table, equilibrium_factories
        from drawodds.solver.table_player import check_table_seats

        if solution is None:      # solved (with a note and progress) or healed here, then read by the player
            if rule_set.players == 3:
                check_table_seats(rule_set)
                table_equilibrium_cli(rule_set, json_out)
            else:
                check_table(rule_set)
                equilibrium(rule_set, json_out)
        with stage_bar(enabled=not json_out) as stage:
            factories = equilibrium_factories(rule_set, seats or [], solution=solution, stage=stage)
    with progress_bar(_("playing"), _("deals"), enabled=not json_out) as update:
        result = simulate(rule_set, **count, seed=seed, players=seats or "rule", history=history, workers=workers,
                          scheduler=cluster, factories=factories,
                          progress=(lambda k: update(k, deals or 10_000)) if update else None)
    show(result, json_out, render_simulation)
    if result.interrupted:
        interrupted(_("the figures cover the {n} deals played so far").format(n=number(result.deals, grouped=True)))


def _points(rule_set: Any, games: int | None, seed: int, seats: list[str] | None, json_out: bool,
            workers: int | None, cluster: str | None) -> None:
    """`simulate` for Poengpoker and Chicago: whole games to the target score."""
    from drawodds.points.games import simulate_points
    from drawodds.render.simulate import points_summary, render_points_simulation

    count: dict[str, Any] = {"games": games} if games is not None else {}
    seats = seats or ["sensible"]
    with progress_bar(_("playing"), _("games"), enabled=not json_out) as update:
        result = simulate_points(rule_set, **count, seed=seed, progress=update,
                                 players=seats[0] if len(seats) == 1 else seats, workers=workers, scheduler=cluster)
    if json_out:
        emit_json(points_summary(result))
    else:
        render_points_simulation(result)
    if result.interrupted:
        interrupted(_("the figures cover the {n} games played so far").format(n=number(result.games, grouped=True)))
