"""`drawodds eval`: one hand's name, category and strength."""

from __future__ import annotations

from drawodds.analyses.reference import STRENGTHS, HandReport
from drawodds.render.console import pretty_cards, stdout


def render_eval(report: HandReport) -> None:
    """One line: the cards, the hand in words, its category and strength."""
    stdout().print(f"{pretty_cards(report.cards)}  [bold]{report.description}[/bold]  "
                   f"({report.category}, strength {report.strength} of {STRENGTHS})")
