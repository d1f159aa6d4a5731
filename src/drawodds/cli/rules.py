"""`drawodds rules [NAME]`: the presets, or every option of one with its source."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.options import JsonOpt
from drawodds.i18n import N_
from drawodds.render.console import show

HELP = N_("""List the rule-set presets, or show every option of one with its source.

Examples: drawodds rules;  drawodds rules jackpot""")


def rules_cmd(
    name: Annotated[str | None, typer.Argument(help=N_("A preset to show in full."))] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the rule-set presets, or show every option of one with its source."""
    from drawodds.analyses.reference import preset_list, rule_sheet
    from drawodds.render.rules import render_presets, render_rule_sheet

    if name is None:
        show(preset_list(), json_out, render_presets)
    else:
        show(rule_sheet(name), json_out, render_rule_sheet)
