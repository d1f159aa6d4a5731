"""Charts for ``reports/``: matplotlib figures written to files, one module per topic.

- ``reading``: what an opponent ends with, by the number of cards drawn (``read_draws.png``)
- ``openers``: Jacks-or-Better pass-outs by table size, pot at opening
- ``points``: Poengpoker, keeping a high card for the last trick vs a small pair
- ``strategy``: best hold heatmap, classic dilemmas, condensed strategies
- ``solve``: the heads-up Mørkpoker equilibrium: convergence, and the strategy before, at and
  after the draw (solved once, about two minutes, then read from the cache)

``regenerate`` redraws them all (``drawodds charts``); each module can also be run alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from drawodds.charts.openers import passout_by_table_size, pot_at_opening
from drawodds.charts.points import write_report
from drawodds.charts.reading import plot_read_draws
from drawodds.charts.solve import write_solve_charts
from drawodds.charts.strategy import write_reports
from drawodds.errors import RequestError
from drawodds.rules import preset
from drawodds.solver.solve import equilibrium_solution

TOPICS = ("reading", "openers", "points", "strategy", "solve")


def regenerate(out_dir: str | Path = "charts", only: Sequence[str] | None = None,
               progress: Callable[[str], None] | None = None,
               table: Callable[[Any], None] | None = None) -> list[Path]:
    """Redraw the charts of the given topics (all by default) into ``out_dir``; returns the files.
    ``table`` is handed the figures a chart draws where they are a table to read (the points topic's)."""
    topics = list(only) if only else list(TOPICS)
    unknown = [t for t in topics if t not in TOPICS]
    if unknown:
        raise RequestError("unknown chart topic {name}; topics: {choices}", name=repr(unknown[0]),
                           choices=', '.join(TOPICS))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for topic in topics:
        if progress is not None:
            progress(topic)
        if topic == "reading":
            written.append(plot_read_draws(out / "read_draws.png"))
        elif topic == "openers":
            written += [passout_by_table_size(out / "passout_by_table_size.png"),
                        pot_at_opening(out / "pot_at_opening.png")]
        elif topic == "points":
            path, frame = write_report(out)
            written.append(path)
            if table is not None:
                table(frame)
        elif topic == "solve":
            written += write_solve_charts(equilibrium_solution(preset("morkpoker")), out)
        else:
            written += write_reports(out)
    return written
