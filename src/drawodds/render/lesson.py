"""`drawodds lesson`: the lesson's page, rendered from its Markdown."""

from __future__ import annotations

from rich.markdown import Markdown

from drawodds.analyses.lessons import PatLesson, TablePatLesson
from drawodds.render.console import stdout


def render_lesson(lesson: PatLesson | TablePatLesson) -> None:
    """The lesson as formatted Markdown."""
    console = stdout()
    console.print(Markdown(lesson.to_markdown()))
