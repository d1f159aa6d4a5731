"""The consoles, JSON output, the progress bar and the formatting every command shares."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from drawodds.cards import format_cards, parse_cards
from drawodds.results import jsonable

PIPED_WIDTH = 160   # piped output (files, documented examples) gets a stable wide page


class HasDict(Protocol):
    """A result that knows its JSON shape."""

    def to_dict(self) -> Mapping[str, Any]: ...


R = TypeVar("R", bound=HasDict)


# Piped output gets a wide page instead of rich's 80-column default.
out = Console(width=None if sys.stdout.isatty() else PIPED_WIDTH)


def emit_json(result: HasDict | Mapping[str, Any]) -> None:
    """Print a result's dict as JSON on stdout (NaN becomes null so other tools can read it)."""
    data = result if isinstance(result, Mapping) else result.to_dict()
    print(json.dumps(jsonable(data), indent=2, ensure_ascii=False))


Update = Callable[[int, int], None]


@contextmanager
def progress_bar(label: str, enabled: bool = True) -> Iterator[Update | None]:
    """A rich progress bar on stderr while the block runs; yields ``update(done, total)``."""
    if not enabled:
        yield None
        return
    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=1)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update


def pct(p: float) -> str:
    """A probability as a percentage: one decimal, two below 0.1%."""
    return f"{100 * p:.1f}" if p >= 0.001 or p == 0 else f"{100 * p:.2f}"


def fmt(value: float | None, digits: int = 5) -> str:
    """A number with fixed decimals, ``n/a`` for a missing one."""
    return "n/a" if value is None else f"{value:.{digits}f}"


def pretty_cards(cards: Sequence[str]) -> str:
    """Canonical card strings (``As``) as the glyphs the tables print (``A♠``)."""
    return " ".join(format_cards(parse_cards(list(cards), joker=True), pretty=True))


def show(result: R, json_out: bool, render: Callable[[R], None]) -> None:
    """Print ``result`` as JSON with ``--json``, else with its renderer."""
    if json_out:
        emit_json(result)
    else:
        render(result)
