"""`drawodds policies`: the draw policies as tables of hand patterns and holds."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.reference import PolicyBook
from drawodds.render.console import stdout


def render_policies(book: PolicyBook) -> None:
    """One table per policy (first matching row wins), then the options that change them."""
    console = stdout()
    for sheet in book.policies:
        table = Table(title=f"{sheet.name}: {sheet.description}", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("hand pattern (first match wins)")
        table.add_column("keeps")
        for i, (pattern, hold) in enumerate(sheet.rows, start=1):
            table.add_row(str(i), pattern, hold)
        console.print(table)
    console.print("[dim]Options: --snow S (weak hands stand pat at rate S), --break-rate B (pat straights/flushes "
              "break to a straight-flush draw at rate B). Every hold respects the rule set's draw limit.[/dim]")
