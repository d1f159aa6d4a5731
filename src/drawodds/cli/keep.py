"""`drawodds keep HAND`: every legal hold ranked, from ``drawodds.keep``."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from drawodds.cli.errors import interrupted, refuse, scheduler, writable_file
from drawodds.cli.options import (
    DaskOpt,
    HandArg,
    JokerAceOpt,
    JokerOpt,
    JsonOpt,
    LineOpt,
    MaxDrawOpt,
    PlayersOpt,
    RangeOpt,
    RulesOpt,
    SchedulerOpt,
    SeedOpt,
    SolutionOpt,
    WorkersOpt,
    bounded,
    build_rules,
)
from drawodds.cli.solved import check_options, solved_range, table_solution
from drawodds.errors import KEEP_OPPONENTS, KEEP_TRIALS, Bound
from drawodds.i18n import N_, _, ngettext, number
from drawodds.paths import write_text
from drawodds.render.console import emit_json, progress_bar

TOP = Bound("top", 1, 32)


HELP = N_("""Rank every legal hold of a hand: exact odds of each final hand, and equity against opponents.

Examples:

  drawodds keep As Ah Ks 7s 3s

  drawodds keep "AsAhKs7s3s" --exact

  drawodds keep "Kh Qh Jh Th 2c" --opponents 2 --trials 200000 --seed 7 --json

  drawodds keep "AsAhKs7s3s" --rules jackpot --opener

  drawodds keep "9c9d5h5s2c" --vs 3 --vs 1

  drawodds keep "AsAhKs7s3s" --against "QcQdJhJd2c"

  drawodds keep "9c9d5h5s2c" --vs 1 --range "2P+, 4F, OESD"

  drawodds keep "Kc Kd 8h 5s 2c" --vs 1 --policy equilibrium --line check-bet-call

  drawodds keep "Kc Kd 8h 5s 2c" --policy equilibrium --opponents 2 --line check-bet-call-call --vs 3 --vs 1""")


def keep_cmd(
    hand: HandArg,
    rules: RulesOpt = "morkpoker",
    opponents: Annotated[int | None, typer.Option(
        "--opponents", "-n", help=N_("Opponents who draw (0-5; default: the table size less one)."))] = None,
    policy: Annotated[str, typer.Option(
        "--policy", help=N_("Opponents' draw policy: standard, loose or tight (see `drawodds policies`); or "
                         "equilibrium: the solution's players after a betting --line, who drew before us: heads-up "
                         "the first to act; with --opponents 2 (or --players 3) the three-handed solution's first "
                         "and second seats, we the dealer (give both draw counts with --vs)."))
    ] = "standard",
    trials: Annotated[int | None, typer.Option("--trials", "-t", help=bounded(KEEP_TRIALS,
        N_("Monte Carlo trials, the most it may run with --se; at most 200,000 in Poengpoker and Chicago"),
        N_("100,000, 10,000 in Poengpoker and Chicago, 1,000,000 with --se")))] = None,
    seed: SeedOpt = 1,
    se: Annotated[float | None, typer.Option(
        "--se", help=N_("Stop once the best holds are separated to this standard error (a fraction, 0-1: "
                     "0.002 is 0.2 percentage points)."))] = None,
    workers: WorkersOpt = None,
    scheduler_address: SchedulerOpt = None,
    dask: DaskOpt = False,
    by: Annotated[str | None, typer.Option(
        "--by", help=N_("Rank by equity, field, jacks, improve or points (default: equity against opponents; "
                     "without them field, the exact equity against the table's other players dealt from "
                     "the cards we do not hold; points in Poengpoker and Chicago)."))] = None,
    vs: Annotated[list[int] | None, typer.Option(
        "--vs", help=N_("An opponent's draw count (repeat once per opponent)."))] = None,
    against: Annotated[list[str] | None, typer.Option(
        "--against", help=N_("A known opponent hand that stands pat (repeat once per opponent)."))] = None,
    opener: Annotated[bool, typer.Option(
        "--opener", help=N_("Jacks or Better: we opened; show the holds that split openers."))] = False,
    exact: Annotated[bool, typer.Option("--exact", help=N_(
        "Exact odds only (no opponents, no sampling); the draw game ranks by exact equity against a field "
        "of the table's other players."))] = False,
    top: Annotated[int | None, typer.Option("--top", help=bounded(
        TOP, N_("Show only the best N holds"), N_("all")))] = None,
    wide: Annotated[bool, typer.Option(
        "--wide", help=N_("Every column (discard, final hand, J+, improve, points) whatever the width."))] = False,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    joker_ace: JokerAceOpt = None,
    players: PlayersOpt = None,
    hand_range: RangeOpt = None,
    line: LineOpt = None,
    solution: SolutionOpt = None,
    json_out: JsonOpt = False,
    csv: Annotated[str | None, typer.Option(
        "--csv", help=N_("Write the rows flat to this CSV file ('-' for standard output)."))] = None,
) -> None:
    """Rank every legal hold of a hand: exact odds of each final hand, and equity against opponents."""
    from drawodds.analyses.keep import keep
    from drawodds.cards import parse_hand
    from drawodds.render.keep import render_keep

    if exact:
        if opponents or vs or against:
            raise refuse(N_("--exact computes the exact odds alone: drop --opponents/--vs/--against"))
        opponents = 0
    if csv == "-" and json_out:
        raise refuse(N_("--csv - and --json both print to standard output: choose one"))
    solved = policy.strip().lower() == "equilibrium"
    check_options(solved, line, solution)
    table = solved and (opponents == 2 or len(vs or ()) == 2 or players == 3)
    if solved and (against or exact):
        raise refuse(N_("--policy equilibrium deals the solution's own opponents: no --against, no --exact"))
    if solved and ((opponents or 0) > 2 or len(vs or ()) > 2 or (players or 0) > 3):
        raise refuse(N_("--policy equilibrium is solved for two or three players: at most two opponents"))
    if table and line is None:
        raise refuse(N_("at a table of three, give the betting --line: it says who is still in"))
    if players is not None and opponents and opponents != players - 1:
        raise refuse(N_("--opponents {opponents} means {seats} players at the table, but --players is {players}: "
                        "give one of them"), opponents=opponents, seats=opponents + 1, players=players)
    rule_set = build_rules(rules, joker=joker, max_draw=max_draw, players=players, joker_is_ace_for_draw=joker_ace)
    TOP.check(top)
    writable_file(csv, "--csv", stdout=True)
    cards: Any = " ".join(hand)
    player: Any = policy
    quiet = json_out or csv == "-"
    if solved:       # the sizes refused before the equilibrium is solved (the library refuses them too)
        KEEP_TRIALS.check(trials)
        KEEP_OPPONENTS.check(opponents)
        cards = parse_hand(cards, joker=rule_set.joker)
        if table:
            from drawodds.solver.solved_range import table_opponents

            player = table_opponents(table_solution(rule_set, solution, quiet), line=str(line), vs=vs or ())
        else:
            player = solved_range(rule_set, solution, line, "first", None, cards, quiet)
    with progress_bar(_("simulating"), _("trials"), enabled=not quiet and opponents != 0) as update:
        result = keep(cards, rules=rule_set, opponents=opponents, policy=player, trials=trials, seed=seed, se=se,
                      workers=workers, scheduler=scheduler(scheduler_address, dask), by=by,  # type: ignore[arg-type]
                      vs=vs or (), hand_range=hand_range, against=against or (), opener=opener, progress=update)
    if csv == "-":
        result.flat().to_csv(sys.stdout, index=False)
    elif csv:
        write_text(csv, result.flat().to_csv(index=False))
    if json_out:
        emit_json(result)
    elif csv != "-":
        render_keep(result, top, wide)
    if result.interrupted:
        run = result.trials or 0
        interrupted(ngettext("the figures cover the {n} trial run so far",
                             "the figures cover the {n} trials run so far", run).format(n=number(run, grouped=True)))
