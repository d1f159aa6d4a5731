"""`drawodds solve`: heads-up limit draw solved, from ``solver.solve.solve``, with the real game's
best response and the leaks."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from drawodds.cards import shown
from drawodds.cli.errors import interrupted, refuse, scheduler, writable_file, writable_folder
from drawodds.cli.language import worded
from drawodds.cli.options import (
    DaskOpt,
    DrawsOpt,
    JokerOpt,
    JsonOpt,
    MaxDrawOpt,
    SchedulerOpt,
    SeedOpt,
    bounded,
    build_rules,
)
from drawodds.errors import FIELD_ROUNDS, ONE_DECK, SOLVE_PLAYERS, check_positive, check_seed
from drawodds.execution import available_cores
from drawodds.i18n import N_, _, number
from drawodds.render.console import emit_json, note, spinner
from drawodds.solver.settings import ONE_DECK_DEALS


class Schedule(StrEnum):
    """The CFR variants the solver runs."""

    DCFR = "dcfr"
    CFR_PLUS = "cfr+"


def bucket_sizes(text: str) -> tuple[int, int]:
    """'1024,512' -> (1024, 512) (the solver checks their ranges)."""
    parts = text.split(",")
    try:
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise refuse(N_("--buckets takes two sizes, PRE,FINAL, e.g. 1024,512; got {sizes}"), sizes=repr(shown(text)))


def abstraction_sizes(buckets: str | None, field_rounds: int | None, players: int) -> tuple[int, int, int]:
    """(pre-draw buckets, final buckets, field rounds) asked for: the options given, else the
    default of the table size (heads-up ``DEFAULT_SETTINGS``, three-handed ``TABLE_SETTINGS``)."""
    from drawodds.solver.settings import DEFAULT_SETTINGS
    from drawodds.solver.table import TABLE_SETTINGS

    default = TABLE_SETTINGS if players == 3 else DEFAULT_SETTINGS
    pre, final = (default.pre_buckets, default.final_buckets) if buckets is None else bucket_sizes(buckets)
    return pre, final, default.rounds if field_rounds is None else field_rounds


HELP = N_("""Solve heads-up limit draw: an approximate equilibrium and what it plays, in plain words.

--exploitability is in milli-antes per deal. The abstraction is built once, then read from the cache.

Its build runs on --workers processes or a Dask cluster, with the same result on any of them.

Examples:

  drawodds solve --rules morkpoker --exploitability 1

  drawodds solve --rules jackpot --iterations 500 --out jackpot.parquet --json

  drawodds solve --buckets 64,32 --iterations 200 --chart curve.png --tables tables/

  drawodds solve --buckets 2048,1024 --workers 2 --iterations 1000

  drawodds solve --rules morkpoker --leaks""")


def solve_cmd(
    rules: Annotated[str, typer.Option("--rules", "-r", help=N_(
        "Rule set: morkpoker, svensk or jackpot (one draw, antes, no joker)."))] = "morkpoker",
    max_draw: MaxDrawOpt = None,
    joker: JokerOpt = None,
    draws: DrawsOpt = None,
    iterations: Annotated[int | None, typer.Option("--iterations", "-i", help=N_(
        "Stop after this many CFR iterations (1-1,000,000). With --exploitability too, whichever comes "
        "first."))] = None,
    exploitability: Annotated[float | None, typer.Option("--exploitability", "-e", help=N_(
        "Stop once the exploitability is at most this many MILLI-antes per deal (1 = 0.001 antes per "
        "deal). Neither limit given: 0.2."))] = None,
    seconds: Annotated[float | None, typer.Option(
        "--seconds", help=N_("Also stop after this many seconds of CFR."))] = None,
    buckets: Annotated[str | None, typer.Option("--buckets", help=N_(
        "Abstraction size: pre-draw and final-hand buckets, PRE,FINAL (1-4,096 and 1-2,048; "
        "default 4096,512, three-handed 128,64). Smaller solves faster and coarser."))] = None,
    field_rounds: Annotated[int | None, typer.Option("--field-rounds", help=bounded(FIELD_ROUNDS,
        N_("Fixed-point passes of the field the holds are chosen against (three-handed: 1)"), 2))] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help=N_(
        "Players at the table: 2 (heads-up, the default) or 3. Three-handed, each seat's gain from "
        "deviating alone is measured, in the abstract game and in the real game, and with no limit given "
        "CFR stops at 2 or after 30 minutes; --out, --chart and --tables are heads-up only."))] = None,
    schedule: Annotated[Schedule, typer.Option(
        "--schedule", help=N_("CFR variant: dcfr (discounted CFR, the default) or cfr+."))] = Schedule.DCFR,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help=worded(N_(
        "Processes for the abstraction build: 1 to the cores available ({cores} here; the default is all of "
        "them). The abstraction is the same on any number."), cores=available_cores()))] = None,
    scheduler_address: SchedulerOpt = None,
    dask: DaskOpt = False,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", help=N_("Write the solution to this Parquet file (read it with load_solution)."))] = None,
    chart: Annotated[str | None, typer.Option(
        "--chart", help=N_("Draw the exploitability curve to this PNG file."))] = None,
    tables: Annotated[str | None, typer.Option(
        "--tables", help=N_("Write the strategy tables as CSV files into this folder."))] = None,
    real: Annotated[bool, typer.Option("--real/--no-real", help=N_(
        "Measure the real game's exploitability: an exact best response that knows its exact hand and "
        "keeps any cards (under a minute; three-handed, one for each seat)."))] = True,
    leaks: Annotated[bool, typer.Option("--leaks", help=N_(
        "Also show where a perfect exploiter in the real game gains most: by kind of hand and where it "
        "plays differently, in milli-antes per deal (a few minutes more)."))] = False,
    one_deck: Annotated[int, typer.Option("--one-deck", help=N_(
        "Deals of the one-deck check: the solution plays itself with real cards from one deck, as at the "
        "table, and from a deck for each seat, as the model deals them (a few seconds; 0 leaves it out)."))
    ] = ONE_DECK_DEALS,
    seed: SeedOpt = 1,
    json_out: JsonOpt = False,
) -> None:
    """Solve heads-up limit draw: an approximate equilibrium and what it plays, in plain words."""
    from drawodds.paths import CHART_ENDINGS
    from drawodds.render.solve import solve_progress
    from drawodds.solver.abstraction import check_rules
    from drawodds.solver.settings import DEFAULT_EXPLOITABILITY
    from drawodds.solver.solve import MAX_ITERATIONS, solve, store_equilibrium
    from drawodds.solver.summary import write_tables

    rule_set = build_rules(rules, max_draw=max_draw, joker=joker, draws=draws)
    SOLVE_PLAYERS.check(players)
    check_rules(rule_set)
    check_positive(exploitability, "exploitability")      # milli-antes here, antes in the library
    if one_deck:
        ONE_DECK.check(one_deck)
    check_seed(seed)
    check = (one_deck, seed)
    if players == 3:
        _table(rule_set, iterations, exploitability, seconds, buckets, field_rounds, schedule, workers,
               scheduler(scheduler_address, dask), {"--out": out, "--chart": chart, "--tables": tables},
               real, leaks, check, json_out)
        return
    pre, final, rounds = abstraction_sizes(buckets, field_rounds, 2)
    cluster = scheduler(scheduler_address, dask)
    writable_file(out, "--out", endings=(".parquet",))
    writable_file(chart, "--chart", endings=CHART_ENDINGS)
    if tables is not None:
        writable_folder(tables, "--tables")
    target = None if exploitability is None else exploitability / 1000
    shown_target = DEFAULT_EXPLOITABILITY if iterations is None and target is None else target   # solve's default
    with solve_progress(iterations or MAX_ITERATIONS, shown_target, enabled=not json_out) as (stage, checkpoint):
        solution = solve(rule_set, pre_buckets=pre, final_buckets=final, iterations=iterations, exploitability=target,
                         seconds=seconds, schedule=schedule.value, rounds=rounds, stage=stage,
                         progress=checkpoint, workers=workers, scheduler=cluster)
    if out:
        solution.save(out)
    if store_equilibrium(solution) is not None and not json_out:
        note(_("kept as the cached equilibrium of these rules: lesson pat and --policy equilibrium will use it"))
    if chart:
        from drawodds.charts.solve import plot_exploitability

        plot_exploitability(solution, chart)
    if tables is not None:
        write_tables(solution, tables)
    _measured(solution, real, leaks, check, json_out)


def _measured(solution: Any, real: bool, leaks: bool, check: tuple[int, int], json_out: bool) -> None:
    """The real game's best responses, the one-deck check and the leaks (each stopped by Ctrl-C),
    then the report: heads-up or, for a ``TableSolution``, each seat's."""
    from drawodds.render.solve import render_solve, render_table, solve_json, table_json
    from drawodds.solver.best_response import best_response, seat_gains
    from drawodds.solver.best_response import leaks as leak_table
    from drawodds.solver.playout import one_deck
    from drawodds.solver.table import TableSolution

    at_table = isinstance(solution, TableSolution)
    deals, seed = check
    measured: Any = None        # BestResponse heads-up, SeatGains at a table
    dealt, table, stopped = None, None, False
    try:
        if real and not solution.interrupted:
            if at_table:
                with spinner(_("measuring each seat's best response in the real game..."), enabled=not json_out):
                    measured = seat_gains(solution, "full")
            else:
                with spinner(_("measuring the real game's exploitability (an exact best response)..."),
                             enabled=not json_out):
                    measured = best_response(solution, "full")
        if deals and not solution.interrupted:
            with spinner(_("playing the solution out with one deck..."), enabled=not json_out):
                dealt = one_deck(solution, deals, seed)
        if leaks and not solution.interrupted:
            with spinner(_("finding the leaks (four exact passes per seat)..."), enabled=not json_out):
                table = leak_table(solution)
    except KeyboardInterrupt:
        stopped = True
    if json_out:
        emit_json(table_json(solution, measured, dealt, table) if at_table else
                  solve_json(solution, measured, table, dealt))
    elif at_table:
        render_table(solution, measured, dealt, table)
    else:
        render_solve(solution, measured, table, dealt)
    if stopped:
        interrupted(_("the real game's seat gains, the one-deck check or the leaks were not measured") if at_table
                    else _("the real game's exploitability, the one-deck check or the leaks were not measured"))
    if solution.interrupted:
        interrupted(_("the strategy is the average of the {n} iterations run").format(
            n=number(solution.iterations, grouped=True)))


def _table(rule_set: Any, iterations: int | None, exploitability: float | None, seconds: float | None,
           buckets: str | None, field_rounds: int | None, schedule: Schedule, workers: int | None,
           cluster: str | None, heads_up_only: dict[str, object], real: bool, leaks: bool,
           check: tuple[int, int], json_out: bool) -> None:
    """``--players 3``: the three-handed solve (``solver.table.solve_table``), each seat's best
    response in the real game (``best_response.seat_gains``), the one-deck check, the leaks and
    the report."""
    from drawodds.render.solve import solve_progress
    from drawodds.solver.table import (
        MAX_ITERATIONS,
        TABLE_SECONDS,
        TABLE_SETTINGS,
        solve_table,
        store_table_equilibrium,
    )

    given = [flag for flag, value in heads_up_only.items() if value]
    if given:
        raise refuse(N_("{flag} is for the heads-up solve; leave it out with --players 3"), flag=given[0])
    pre, final, rounds = abstraction_sizes(buckets, field_rounds, 3)
    target = None if exploitability is None else exploitability / 1000
    limits = (iterations, target, seconds)
    if limits == (None, None, None):        # the library's default stop
        target, seconds = TABLE_SETTINGS.exploitability, TABLE_SECONDS
    with solve_progress(iterations or MAX_ITERATIONS, target, enabled=not json_out) as (stage, checkpoint):
        solution = solve_table(rule_set, 3, pre_buckets=pre, final_buckets=final, rounds=rounds,
                               iterations=iterations, exploitability=target, seconds=seconds,
                               schedule=schedule.value, stage=stage, progress=checkpoint, workers=workers,
                               scheduler=cluster)
    if store_table_equilibrium(solution) is not None and not json_out:
        note(_("kept as the cached three-handed solution of these rules"))
    _measured(solution, real, leaks, check, json_out)
