"""`drawodds eval`: one hand's name, category and strength."""

from __future__ import annotations

from drawodds.analyses.reference import HandReport
from drawodds.i18n import _, worded
from drawodds.kinds import Category
from drawodds.render.console import pretty_cards, stdout


def render_eval(report: HandReport) -> None:
    """One line: the cards, the hand in words, its category and strength."""
    category = Category.from_slug(report.category).words if report.category in Category.slugs() else report.category
    stdout().print(_("{cards}  [bold]{description}[/bold]  ({category}, strength {strength} of {strengths})").format(
        cards=pretty_cards(report.cards), description=worded(report.description), category=category,
        strength=report.strength, strengths=report.strengths))
