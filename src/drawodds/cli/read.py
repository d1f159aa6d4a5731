"""`drawodds read DRAW`: what an opponent's draw count says, from ``drawodds.read_draw``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from drawodds.cli.errors import interrupted, refuse
from drawodds.cli.options import (
    JokerAceOpt,
    JokerOpt,
    JsonOpt,
    LineOpt,
    MaxDrawOpt,
    RangeOpt,
    RulesOpt,
    SeedOpt,
    SolutionOpt,
    WorkersOpt,
    bounded,
    build_rules,
)
from drawodds.cli.solved import check_options, solved_range, table_solution
from drawodds.errors import READ_TRIALS
from drawodds.i18n import N_, _
from drawodds.render.console import progress_bar, show, spinner

HELP = N_("""What an opponent's draw count says: their holding before the draw, their final hand, our equity.

Examples:

  drawodds read 3

  drawodds read 1 --policy loose

  drawodds read 0 --snow 0.05

  drawodds read 2 --rules jackpot --opener

  drawodds read 3 --hand "AsAhKs7s3s" --json

  drawodds read 1 --range "JJ+, 2P+, 4F, OESD"

  drawodds read 1 --policy equilibrium --line check-bet-call

  drawodds read 1 --policy equilibrium --opponents 2 --line check-bet-call-call --opponent-second --first-draw 3""")


def read_cmd(
    draw: Annotated[int, typer.Argument(help=N_("How many cards the opponent drew (0 = stood pat)."))],
    policy: Annotated[str, typer.Option(
        "--policy", help=N_("The opponent's draw policy: standard, loose or tight; or equilibrium (the solution, "
                     "after a betting --line: heads-up, or three-handed with --opponents 2)."))] = "standard",
    snow: Annotated[float, typer.Option(
        "--snow", help=N_("Rate at which a weak hand stands pat anyway, a bluff (0-1)."))] = 0.0,
    break_rate: Annotated[float, typer.Option(
        "--break-rate", help=N_("Rate of breaking a pat straight or flush to draw to a straight flush (0-1)."))] = 0.0,
    rules: RulesOpt = "morkpoker",
    opener: Annotated[bool, typer.Option(
        "--opener", help=N_("Jacks or Better: the opponent opened (holds jacks or better)."))] = False,
    hand: Annotated[str | None, typer.Option(
        "--hand", help=N_("Our five cards: card removal, and our equity per hold."))] = None,
    trials: Annotated[int, typer.Option("--trials", "-t", help=bounded(READ_TRIALS,
        N_("Monte Carlo trials for the final hand when it is not exact, and for our equity")))] = 100_000,
    seed: SeedOpt = 1,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    joker_ace: JokerAceOpt = None,
    workers: WorkersOpt = None,
    hand_range: RangeOpt = None,
    line: LineOpt = None,
    opponent_first: Annotated[bool, typer.Option(
        "--opponent-first/--opponent-dealer",
        help=N_("With --policy equilibrium: the opponent sits left of the dealer, acts and draws first "
             "(default), or is the dealer and drew after us (give --our-draw)."))] = True,
    our_draw: Annotated[int | None, typer.Option(
        "--our-draw", help=N_("With --opponent-dealer: the cards we drew before the dealer drew."))] = None,
    opponents: Annotated[int | None, typer.Option(
        "--opponents", "-n", help=N_("With --policy equilibrium: 1 (heads-up, the default) or 2 (the three-handed "
                                  "solution; we are the dealer and read the first or the second seat)."))] = None,
    opponent_second: Annotated[bool, typer.Option(
        "--opponent-second", help=N_("With --opponents 2: read the second seat from the dealer's left, who drew "
                                  "after the first (give --first-draw)."))] = False,
    first_draw: Annotated[int | None, typer.Option(
        "--first-draw", help=N_("With --opponent-second: the cards the first seat drew."))] = None,
    solution: SolutionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """What an opponent's draw count says: their holding before the draw, their final hand, our equity."""
    from drawodds.analyses.read import read_draw
    from drawodds.cards import as_hand
    from drawodds.render.read import render_read

    rs = build_rules(rules, joker=joker, max_draw=max_draw, joker_is_ace_for_draw=joker_ace)
    solved = policy.strip().lower() == "equilibrium"
    check_options(solved, line, solution, extra={"--our-draw": our_draw is not None,
                                                 "--opponent-dealer": not opponent_first,
                                                 "--opponents": opponents is not None,
                                                 "--opponent-second": opponent_second,
                                                 "--first-draw": first_draw is not None})
    table = opponents == 2
    if opponents is not None and opponents not in (1, 2):
        raise refuse(N_("--policy equilibrium reads one opponent of a heads-up or three-handed game: --opponents "
                        "is 1 or 2, not {opponents}"), opponents=opponents)
    if (opponent_second or first_draw is not None) and not table:
        raise refuse(N_("--opponent-second and --first-draw read the three-handed solution: add --opponents 2"))
    if table and (our_draw is not None or not opponent_first or hand is not None or line is None):
        raise refuse(N_("with --opponents 2 we are the dealer and read a seat that drew before us: give --line, "
                        "and no --our-draw, --opponent-dealer or --hand (our equity against both is keep's)"))
    if opponent_second and first_draw is None:
        raise refuse(N_("--opponent-second: the second seat drew after the first; say how many cards the first "
                        "drew (--first-draw)"))
    cards: Any = hand
    player: Any = policy
    if solved:       # refused before the equilibrium is solved (the library refuses them too)
        if snow or break_rate or opener:
            raise refuse(N_("--snow, --break-rate and --opener shape a draw policy; the equilibrium plays its own "
                            "strategy (its betting --line says who opened)"))
        READ_TRIALS.check(trials)
        if not opponent_first and our_draw is None:
            raise refuse(N_("--opponent-dealer: the dealer drew after us; say how many cards we drew (--our-draw)"))
        cards = None if hand is None else as_hand(hand, joker=rs.joker)    # parsed once, for the range and the read
        if table:
            from drawodds.solver.solved_range import table_range

            player = table_range(table_solution(rs, solution, json_out), line=str(line),
                                 seat="second" if opponent_second else "first",
                                 before=() if first_draw is None else (first_draw,))
        else:
            player = solved_range(rs, solution, line, "first" if opponent_first else "dealer", our_draw, cards,
                                  json_out)
    with (spinner(_("reading the draw..."), enabled=not json_out) if hand is None else
          progress_bar(_("our holds"), _("trials"), enabled=not json_out)) as update:
        result = read_draw(draw, policy=player, rules=rs, hand=cards, opener=opener, snow=snow, break_rate=break_rate,
                           trials=trials, seed=seed, workers=workers, hand_range=hand_range,
                           progress=update if hand is not None else None)
    show(result, json_out, render_read)
    if result.interrupted:
        interrupted(_("our equities cover the trials run so far"))
