"""`drawodds charts [TOPIC...]`: the charts, topic by topic, from ``drawodds.charts.regenerate``."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.errors import refuse, writable_folder


def charts_cmd(
    topics: Annotated[list[str] | None, typer.Argument(
        help="reading, openers, points, strategy, solve (default: all).")] = None,
    out_dir: Annotated[str, typer.Option("--out", help="Folder for the PNG files.")] = "charts",
) -> None:
    """Draw charts topic by topic from the library (a few minutes for all of them); the guide in
    reports/ is written whole by `drawodds report`.

    Examples:

      drawodds charts

      drawodds charts reading openers --out /tmp/charts
    """
    from drawodds.charts import TOPICS, regenerate
    from drawodds.render.console import stdout

    bad = [t for t in topics or () if t not in TOPICS]
    if bad:
        raise refuse(f"unknown chart topic {bad[0]!r}; topics: {', '.join(TOPICS)}")
    writable_folder(out_dir, "--out")
    console = stdout()
    for path in regenerate(out_dir, topics, progress=lambda t: console.print(f"[dim]drawing {t} ...[/dim]")):
        console.print(f"wrote {path}")
