"""`drawodds report`: the player's guide written whole, from ``drawodds.charts.report.report``."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.errors import interrupted, writable_folder
from drawodds.cli.options import JsonOpt, SeedOpt, WorkersOpt
from drawodds.i18n import N_, _
from drawodds.render.console import show, stage_bar

HELP = N_("""Write the player's guide: what to keep, reading draws, pass-outs, standing pat, points games.

README.md in --out is the guide; beside it a printable cheat sheet per table size (PNG, PDF) and the charts.

The same version and seed write the same files. The full guide takes a few minutes; --quick about 2 minutes.
A file in --out that an earlier guide did not write is not replaced without --force.

Examples:

  drawodds report

  drawodds report --quick --out /tmp/guide""")


def report_cmd(
    out_dir: Annotated[str, typer.Option(
        "--out", help=N_("Folder for the guide (README.md, cheat sheets, charts)."))] = "reports",
    quick: Annotated[bool, typer.Option(
        "--quick", help=N_("Far fewer simulated deals: about two minutes on two cores, larger standard errors, "
                            "same files."))] = False,
    seed: SeedOpt = 1,
    workers: WorkersOpt = None,
    force: Annotated[bool, typer.Option(
        "--force",
        help=N_("Replace files in --out that an earlier guide did not write (a README.md of yours)."))] = False,
    json_out: JsonOpt = False,
) -> None:
    """Write the player's guide: what to keep, reading draws, pass-outs, standing pat, points games."""
    from drawodds.analyses.report import GuideInterrupted
    from drawodds.charts.report import check_guide_folder, report
    from drawodds.errors import check_seed
    from drawodds.execution import resolve_workers
    from drawodds.render.report import render_report

    check_seed(seed)
    resolve_workers(workers)
    check_guide_folder(out_dir, force=force)
    writable_folder(out_dir, "--out")
    try:
        with stage_bar(enabled=not json_out) as stage:
            result = report(out_dir, quick=quick, seed=seed, workers=workers, progress=stage, force=force)
    except GuideInterrupted as stop:
        if stop.finished:
            interrupted(_("{done} of the guide's {parts} parts had finished ({names}); nothing was written, as "
                          "the guide is written whole").format(done=len(stop.finished), parts=stop.parts,
                                                              names=", ".join(stop.finished)))
        interrupted(_("0 of the guide's {parts} parts had finished; nothing was written, as the guide is written "
                      "whole").format(parts=stop.parts))
    show(result, json_out, render_report)
