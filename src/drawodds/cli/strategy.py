"""`drawodds strategy`: the exact strategy table and its condensed list, from ``drawodds.strategy``
(with --mc, the Monte Carlo equity table of ``cli.equity_table``)."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.errors import flag_names, interrupted, refuse, scheduler, writable_file
from drawodds.cli.options import (
    DaskOpt,
    JokerAceOpt,
    JokerOpt,
    JsonOpt,
    MaxDrawOpt,
    SchedulerOpt,
    SeedOpt,
    WorkersOpt,
    bounded,
)
from drawodds.errors import CHECK_REMOVAL, LINES, MC_TRIALS, STRATEGY_OPPONENTS
from drawodds.i18n import N_, _
from drawodds.render.console import show, stage_bar

HELP = N_("""Exact strategy table for every deal, and a condensed strategy derived from it.

Examples: drawodds strategy;  drawodds strategy --objective vp96;  drawodds strategy
--objective equity --opponents 3 --out table.parquet;  drawodds strategy --objective vp96 --hand
"Kh Qd Js 7c 3s";  drawodds strategy --objective equity --opponents 3 --mc 10000 --out table.parquet
(Monte Carlo with card removal; --resume continues it)""")


def strategy_cmd(
    objective: Annotated[str | None, typer.Option("--objective", "-o", help=N_(
        "What to maximise: equity (showdown equity against --opponents), vp96 (9/6 Jacks or Better "
        "video poker), vp:800/50/25/9/6/4/3/2/1 (any pay table), jacks (P at least jacks), points "
        "(table points of the final hand alone), at_least:<category>, category:<category>. Default: "
        "the rule set's own game, showdown equity."))] = None,
    opponents: Annotated[int | None, typer.Option("--opponents", "-n", help=bounded(STRATEGY_OPPONENTS,
        N_("Opponents for the equity objective"), N_("the table size less one")))] = None,
    rules_name: Annotated[str | None, typer.Option("--rules", "-r", help=N_(
        "Rule set preset (default: morkpoker; video poker draws any number of cards for vp*, "
        "poengpoker for points)."))] = None,
    max_draw: MaxDrawOpt = None,
    joker: JokerOpt = None,
    joker_ace: JokerAceOpt = None,
    policy: Annotated[str, typer.Option(
        "--policy", help=N_("Opponents' draw policy for equity: standard, loose, tight."))] = "standard",
    out_path: Annotated[str | None, typer.Option("--out", help=N_("Write the table (.parquet or .csv)."))] = None,
    lines: Annotated[int, typer.Option("--lines", help=bounded(LINES,
        N_("Most patterns in the condensed strategy, before same-kind runs are merged")))] = 60,
    check_removal: Annotated[int, typer.Option("--check-removal", help=bounded(CHECK_REMOVAL,
        N_("Equity only: measure the card-removal error on this many random deals by Monte Carlo")))] = 0,
    mc: Annotated[int | None, typer.Option("--mc", help=bounded(MC_TRIALS,
        N_("Equity only: instead of the exact table, score every hold of every deal class by Monte Carlo "
        "with real card removal, this many trials per class, into the folder --out (a long job)")))] = None,
    hand: Annotated[str | None, typer.Option("--hand", help=N_(
        "Check one hand against the printed list: the line it meets, what the list keeps, the table's "
        "best hold and what the list's hold gives up."))] = None,
    card_removal: Annotated[bool, typer.Option("--card-removal/--no-card-removal", help=N_(
        "Equity only: where two holds are within 3.5% of the pot, let a simulation with real card removal "
        "decide between them (a minute or a few); --no-card-removal keeps the exact table throughout."))] = True,
    resume: Annotated[bool, typer.Option(
        "--resume", help=N_("With --mc: continue the table already in --out."))] = False,
    memory: Annotated[str, typer.Option("--memory", help=N_("With --mc: memory budget, e.g. 2GB or 500MB."))] = "2GB",
    limit: Annotated[int | None, typer.Option("--limit", help=N_(
        "With --mc: only the first N deal classes (a quick look at the cost)."))] = None,
    workers: WorkersOpt = None,
    scheduler_address: SchedulerOpt = None,
    dask: DaskOpt = False,
    seed: SeedOpt = 1,
    json_out: JsonOpt = False,
) -> None:
    """Exact strategy table for every deal, and a condensed strategy derived from it."""
    from drawodds.analyses.condensed import check_hand, strategy_report
    from drawodds.analyses.list_store import check_hand_cached
    from drawodds.cards import as_hand
    from drawodds.render.strategy import render_hand_check, render_strategy

    overrides = {k: v for k, v in {"max_draw": max_draw, "joker": joker, "joker_is_ace_for_draw": joker_ace}.items()
                 if v is not None}
    if mc is not None:
        from drawodds.cli.equity_table import equity_table_cmd

        return equity_table_cmd(objective, rules_name, overrides, opponents, policy, mc, out_path, resume, memory,
                                limit, workers, scheduler(scheduler_address, dask), seed, json_out)
    flag_names(keep=f"`drawodds keep HAND --rules {rules_name}`",     # a points game has no strategy table
               card_removal="--no-card-removal")
    if resume or limit is not None:
        raise refuse(N_("--resume and --limit go with --mc (the Monte Carlo table)"))
    writable_file(out_path, "--out", endings=(".parquet", ".csv"))
    cards = None if hand is None else as_hand(hand, joker=True)    # a bad hand fails before the table is solved
    if cards is not None and out_path is None and not check_removal:
        with stage_bar(enabled=not json_out) as stage:
            check = check_hand_cached(cards, objective, rules_name, opponents=opponents, policy=policy, lines=lines,
                                      card_removal=card_removal, seed=seed, progress=stage, overrides=overrides)
        show(check, json_out, render_hand_check)
        return
    with stage_bar(enabled=not json_out) as stage:
        report = strategy_report(objective, rules_name, opponents=opponents, policy=policy, lines=lines,
                                 check_removal=check_removal, seed=seed, out=out_path, card_removal=card_removal,
                                 progress=stage, **overrides)
    if cards is not None:
        show(check_hand(report, cards), json_out, render_hand_check)
        return
    show(report, json_out, render_strategy)
    if report.interrupted:
        interrupted(_("the card-removal check did not finish; the table above is complete"))
