"""`drawodds charts [TOPIC...]`: the charts, topic by topic, from ``drawodds.charts.regenerate``."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.errors import refuse, writable_folder
from drawodds.i18n import N_, _

HELP = N_("""Draw charts topic by topic from the library (a few minutes for all of them); the guide in
reports/ is written whole by `drawodds report`.

Examples:

  drawodds charts

  drawodds charts reading openers --out /tmp/charts""")


def charts_cmd(
    topics: Annotated[list[str] | None, typer.Argument(
        help=N_("reading, openers, points, strategy, solve (default: all)."))] = None,
    out_dir: Annotated[str, typer.Option("--out", help=N_("Folder for the PNG files."))] = "charts",
) -> None:
    """The command `drawodds charts` (its help is HELP)."""
    from drawodds.charts import TOPICS, regenerate
    from drawodds.render.console import pulse, stderr_is_terminal, stdout
    from drawodds.render.points import render_ace_vs_pair

    bad = [t for t in topics or () if t not in TOPICS]
    if bad:
        raise refuse(N_("unknown chart topic {topic}; topics: {topics}"), topic=repr(bad[0]), topics=", ".join(TOPICS))
    writable_folder(out_dir, "--out")
    console = stdout()
    # a topic may take minutes (solve solves the equilibrium the first time): in a pipe, a line every few seconds
    with pulse(_("drawing {topic} ...").format(topic=", ".join(topics or TOPICS)), not stderr_is_terminal()):
        for path in regenerate(out_dir, topics, progress=lambda t: console.print(
                "[dim]" + _("drawing {topic} ...").format(topic=t) + "[/dim]"), table=render_ace_vs_pair):
            console.print(_("wrote {path}").format(path=path))
