"""`drawodds policies`: the draw policies as tables of hand patterns and holds."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.reference import PolicyBook
from drawodds.i18n import _, worded
from drawodds.render.console import stdout


def render_policies(book: PolicyBook) -> None:
    """One table per policy (first matching row wins), then the options that change them."""
    console = stdout()
    for sheet in book.policies:
        table = Table(title=_("{name}: {description}").format(name=sheet.name, description=_(sheet.description)),
                      title_justify="left")
        table.add_column("#", justify="right")
        table.add_column(_("hand pattern (first match wins)"))
        table.add_column(_("keeps"))
        for i, (pattern, hold) in enumerate(sheet.rows, start=1):
            table.add_row(str(i), worded(pattern), worded(hold))
        console.print(table)
    console.print(_("[dim]Options: --snow S (weak hands stand pat at rate S), --break-rate B (pat straights/flushes "
                    "break to a straight-flush draw at rate B). Every hold respects the rule set's draw limit.[/dim]"))
