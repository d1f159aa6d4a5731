"""`drawodds policies [NAME]`: the draw policies as tables of hand patterns."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.errors import flag_names
from drawodds.cli.options import JsonOpt
from drawodds.render.console import show


def policies_cmd(
    name: Annotated[str | None, typer.Argument(help="One policy to show (default: all).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The draw policies as tables of hand patterns -> hold (first matching row wins).

    Examples: drawodds policies;  drawodds policies loose --json
    """
    from drawodds.analyses.reference import policy_book
    from drawodds.render.policies import render_policies

    flag_names(name="policies")
    show(policy_book(name), json_out, render_policies)
