"""The points games' ace-or-small-pair question as a table (`drawodds charts points`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from drawodds.i18n import _, local_number
from drawodds.render.console import stdout
from drawodds.sim.stats import Estimate


def render_ace_vs_pair(frame: Any) -> None:
    """Two tables by table size: how often the ace or the pair scores more, and each hold's mean points,
    each ± one standard error."""
    rows = frame.to_dict("records")
    title = _("Keep the ace for the last trick, or the small pair? ({trials} hands per table size, seed {seed})")
    console = stdout()
    console.print(title.format(trials=local_number(f"{frame.attrs.get('trials', 0):,}"),
                               seed=frame.attrs.get("seed", "?")))
    for headers, keys, shown in (
            ((_("the ace scores more"), _("the pair scores more")), ("ace_beats_pair", "pair_beats_ace"),
             lambda e: e.percent(1)),
            ((_("points: pair"), _("points: ace"), _("points: pair + ace"), _("ace minus pair")),
             ("points_pair", "points_ace", "points_pair_ace", "ace_minus_pair"), lambda e: e.text(2))):
        table = Table()
        for header in (_("players"), *headers):
            table.add_column(header, justify="right", no_wrap=True)
        for row in rows:
            table.add_row(str(int(row["players"])),
                          *(local_number(shown(Estimate(row[k], row[f"{k}_se"]))) for k in keys))
        console.print(table)
