"""`drawodds policies [NAME]`: the draw policies as tables of hand patterns."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.errors import flag_names
from drawodds.cli.options import JsonOpt
from drawodds.i18n import N_
from drawodds.render.console import show

HELP = N_("""The draw policies as tables of hand patterns -> hold (first matching row wins).

Examples: drawodds policies;  drawodds policies loose --json""")


def policies_cmd(
    name: Annotated[str | None, typer.Argument(help=N_("One policy to show (default: all)."))] = None,
    json_out: JsonOpt = False,
) -> None:
    """The draw policies as tables of hand patterns -> hold (first matching row wins)."""
    from drawodds.analyses.reference import policy_book
    from drawodds.render.policies import render_policies

    flag_names(name="policies")
    show(policy_book(name), json_out, render_policies)
