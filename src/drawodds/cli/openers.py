"""`drawodds openers`: Jacks or Better pass-outs, waits and pots, from ``drawodds.openers`` (with
--hand, ``drawodds.p_somebody_else_opens``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from drawodds.cli.errors import interrupted, refuse
from drawodds.cli.options import JsonOpt, SeedOpt, WorkersOpt, bounded
from drawodds.errors import ANTE, MAX_ANTES, OPENERS_DEALS
from drawodds.i18n import N_, _
from drawodds.render.console import progress_bar, show, spinner

HELP = N_("""Jacks or Better: how often nobody can open, how long a pot waits, how big it gets.

Exact pass-out odds over one shared deck beside the independence approximation (1-p)^n;
with --deals, how opened pots end under play (rule-based policies), each with its SE.

Examples:

  drawodds openers --players 2-8

  drawodds openers --players 4 --ante 5 --max-antes 3 --deals 20000 --seed 1 --json

  drawodds openers --hand "AsAhKs7s3s" --players 4""")


def openers_cmd(
    players: Annotated[str, typer.Option("--players", help=N_("Table sizes, 2-8: 4, 2-8 or 2,4,6."))] = "2-8",
    ante: Annotated[int, typer.Option("--ante", help=bounded(ANTE, N_("Ante per player per deal in chips")))] = 1,
    max_antes: Annotated[int | None, typer.Option("--max-antes", help=bounded(MAX_ANTES,
        N_("House limit on consecutive antes into one pot"), N_("none")))] = None,
    deals: Annotated[int | None, typer.Option("--deals", help=bounded(OPENERS_DEALS,
        N_("Deals to play per table size with the rules engine (rule-based policies); 0 skips play. "
        "With --hand: Monte Carlo deals when the count is not exact, up to 10,000,000"), N_("0; 200,000 with --hand")
    ))] = None,
    seed: SeedOpt = 1,
    hand: Annotated[str | None, typer.Option(
        "--hand", help=N_("My five cards: chance somebody else can open."))] = None,
    workers: WorkersOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Jacks or Better: how often nobody can open, how long a pot waits, how big it gets."""
    from drawodds.analyses import openers as op
    from drawodds.render.openers import render_openers, render_somebody_else

    count: dict[str, Any] = {"deals": deals} if deals else {}      # 0, like no --deals, means the default
    if hand is not None:
        sizes = op.table_sizes(players)
        if len(sizes) != 1:
            raise refuse(N_("--hand needs one table size, e.g. --players 4"))
        with spinner(_("counting..."), enabled=not json_out):
            odds = op.p_somebody_else_opens(hand, sizes[0], seed=seed, **count)
        show(odds, json_out, render_somebody_else)
        return
    with progress_bar(_("playing"), _("deals"), enabled=bool(deals) and not json_out) as update:
        result = op.table(players, ante=ante, max_consecutive_antes=max_antes, seed=seed, progress=update,
                          workers=workers, **count)
    show(result, json_out, render_openers)
    if result.interrupted:
        interrupted(_("only the table sizes shown finished ({sizes})").format(
            sizes=", ".join(str(r.n) for r in result.rows)))
