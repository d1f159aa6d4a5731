"""`drawodds strategy --mc`: the Monte Carlo equity table, in Parquet parts, resumable."""

from __future__ import annotations

import math
from typing import Any

from drawodds.cards import shown
from drawodds.cli.errors import interrupted, refuse
from drawodds.i18n import N_, _, number
from drawodds.render.console import progress_bar, show


def memory_bytes(text: str) -> int:
    """'2GB', '500MB', '1.5G' as bytes."""
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    number = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = number[-1:] if number[-1:] in units else ""
    try:
        value = float(number[: len(number) - len(unit)]) * units[unit]
    except ValueError:
        raise refuse(N_("--memory takes a size like 2GB or 500MB, got {size}"), size=repr(shown(text))) from None
    if not math.isfinite(value) or value <= 0:
        raise refuse(N_("--memory must be a positive size, got {size}"), size=repr(shown(text)))
    return int(value)


def equity_table_cmd(objective: str | None, rules_name: str | None, overrides: dict[str, Any], opponents: int | None,
                     policy: str, trials: int, out: str | None, resume: bool, memory: str, limit: int | None,
                     workers: int | None, cluster: str | None, seed: int, json_out: bool) -> None:
    """The table of every hold of every deal class by Monte Carlo, into the folder ``out``."""
    from drawodds.analyses.equity_table import equity_table
    from drawodds.analyses.strategy import default_opponents
    from drawodds.cli.errors import flag_names
    from drawodds.render.strategy import render_equity_table
    from drawodds.rules import preset

    flag_names(trials="--mc")
    if objective is None or objective.strip().lower() != "equity":
        raise refuse(N_("--mc computes the equity objective: add --objective equity"))
    rules = preset(rules_name or "morkpoker", **overrides)
    if out is None:
        raise refuse(N_("--mc writes a table folder: give it with --out, e.g. --out table.parquet"))
    with progress_bar(_("deal classes"), _("classes"), enabled=not json_out) as update:
        run = equity_table(rules, opponents=opponents or default_opponents(rules), trials=trials, out=out, seed=seed,
                           policy=policy, resume=resume, workers=workers, scheduler=cluster,
                           memory=memory_bytes(memory), limit=limit, progress=update)
    show(run, json_out, render_equity_table)
    if run.interrupted:
        interrupted(_("{done} of {classes} classes are in {out}; add --resume to continue").format(
            done=number(run.classes_done, grouped=True), classes=number(run.classes, grouped=True), out=out))
