"""`drawodds eval HAND`: one hand's category, description and strength."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.options import HandArg, JsonOpt
from drawodds.i18n import N_
from drawodds.render.console import show

HELP = N_("""Evaluate one hand: category, description and strength.

Examples: drawodds eval As Ah Ks 7s 3s;  drawodds eval "AsAhKs7s3s" --json""")


def eval_cmd(
    hand: HandArg,
    joker: Annotated[bool, typer.Option("--joker", help=N_("Allow the joker (Jk)."))] = False,
    json_out: JsonOpt = False,
) -> None:
    """Evaluate one hand: category, description and strength."""
    from drawodds.analyses.reference import hand_report
    from drawodds.render.eval import render_eval

    show(hand_report(" ".join(hand), joker=joker), json_out, render_eval)
