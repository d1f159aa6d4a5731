"""The consoles, JSON output, progress bars and the formatting every command shares.

Width: ``COLUMNS`` when it is set (a user's and a test's way to ask for 80), else the terminal's;
piped output without ``COLUMNS`` gets a stable wide page. Progress goes to stderr, and only when
stderr is a terminal, so piped output and error lines stay clean.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from rich import _wrap
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from drawodds.cards import JOKER, RANK_PLURALS, SUIT_GLYPHS, SUITS, card_str
from drawodds.execution import Stage
from drawodds.i18n import N_, _, local_number, number, pgettext
from drawodds.kinds import Category
from drawodds.render.trimmed import Trimmed
from drawodds.results import json_data

PIPED_WIDTH = 160   # piped output (files, documented examples) gets a stable wide page

# Swedish and Norwegian numbers hold no-break spaces ("100 000", "25,9 %"); rich's wrapping takes any
# space for a break. Its word pattern here keeps a no-break space inside the word, so no number is
# split across lines.
_wrap.re_word = re.compile(r"[^\S\u00a0\u202f]*(?:\S|[\u00a0\u202f])+[^\S\u00a0\u202f]*")


class HasDict(Protocol):
    """A result that knows its JSON shape."""

    def to_dict(self) -> Mapping[str, Any]: ...


R = TypeVar("R", bound=HasDict)
Update = Callable[[int, int], None]


def page_width() -> int | None:
    """``COLUMNS`` when set, else the terminal's width (None), else a wide page for pipes."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return None if sys.stdout.isatty() else PIPED_WIDTH


def stdout() -> Console:
    """A console on stdout at the page width (no line ends in spaces)."""
    return Console(width=page_width(), file=Trimmed(sys.stdout))  # type: ignore[arg-type]


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def emit_json(result: HasDict | Mapping[str, Any]) -> None:
    """Print a result's dict as JSON on stdout (NaN becomes null so other tools can read it)."""
    print(json.dumps(json_data(result), indent=2, ensure_ascii=False))


def show(result: R, json_out: bool, render: Callable[[R], None]) -> None:
    """Print ``result`` as JSON with ``--json``, else with its renderer."""
    if json_out:
        emit_json(result)
    else:
        render(result)


def natural_width(console: Console, renderable: RenderableType) -> int:
    """The width ``renderable`` takes when nothing squeezes it."""
    return Measurement.get(console, console.options.update(width=100_000), renderable).maximum


def fits(console: Console, renderable: RenderableType) -> bool:
    """Whether ``renderable`` prints at its natural width within the console."""
    return natural_width(console, renderable) <= console.width


def note(text: str) -> None:
    """One line for the user on stderr (an interruption, a timing): never part of the output."""
    print(f"drawodds: {text}", file=sys.stderr)


# --- progress -----------------------------------------------------------------------------------

class _Rate(ProgressColumn):
    """Items per second, e.g. ``12,300 trials/s``."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(_("{speed} {unit}/s").format(speed=number(speed, grouped=True), unit=self.unit) if speed else "",
                    style="progress.data.speed")


PIPED_EVERY = 5.0   # seconds between progress lines when stderr is not a terminal (a pipe, a log file)


@contextmanager
def pulse(status: str, enabled: bool) -> Iterator[Callable[[str], None]]:
    """Where stderr is not a terminal, a line on it every ``PIPED_EVERY`` seconds while the block runs:
    the latest status (``set(text)`` changes it) and the time so far, so a long wait in a pipe or a log
    is never silent. Yields ``set``; does nothing when not ``enabled``, and nothing for work that ends
    before the first line is due."""
    import threading
    import time

    latest = [status]
    if not enabled:
        yield lambda text: None
        return
    done = threading.Event()
    start = time.monotonic()

    def beat() -> None:
        while not done.wait(PIPED_EVERY):
            seconds = number(time.monotonic() - start, grouped=True)
            with contextlib.suppress(OSError, ValueError):
                note(_("{status} ({seconds} s so far)").format(status=latest[0], seconds=seconds))
                sys.stderr.flush()

    thread = threading.Thread(target=beat, name="drawodds-progress", daemon=True)
    thread.start()
    try:
        yield lambda text: latest.__setitem__(0, text)
    finally:
        done.set()
        thread.join()


@contextmanager
def progress_bar(label: str, unit: str, enabled: bool = True) -> Iterator[Update | None]:
    """A bar with rate and time left on stderr (a terminal); yields ``update(done, total)``. Elsewhere
    a line every few seconds says how far the work is (``pulse``)."""
    if not (enabled and stderr_is_terminal()):
        with pulse(label, enabled) as status:
            yield lambda done, total: status(_("{label}: {done} of {total} {unit}").format(
                label=label, done=number(done, grouped=True), total=number(total, grouped=True), unit=unit))
        return
    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                   _Rate(unit), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=1)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update




@contextmanager
def stage_bar(enabled: bool = True) -> Iterator[Stage]:
    """A bar that names the stage of a long computation; yields ``stage(description, fraction)``. Where
    stderr is not a terminal, a line every few seconds names the stage (``pulse``)."""
    if not (enabled and stderr_is_terminal()):
        with pulse(_("starting"), enabled) as status:
            yield lambda stage, f: status(_("{stage}, {percent} done").format(stage=stage, percent=pct_sign(f, 0)))
        return
    bar = Progress(TextColumn("{task.description:<40}"), BarColumn(), TimeRemainingColumn(elapsed_when_finished=True),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(_("starting"), total=100)
    with bar:
        yield lambda stage, f: bar.update(task, description=stage, completed=100 * f)


@contextmanager
def spinner(label: str, enabled: bool = True) -> Iterator[None]:
    """A spinner on stderr while work of unknown length runs (a terminal); elsewhere a line every few
    seconds (``pulse``)."""
    if not (enabled and stderr_is_terminal()):
        with pulse(label, enabled):
            yield
        return
    with Console(stderr=True).status(label, spinner="dots"):
        yield


# --- formatting ---------------------------------------------------------------------------------

def pct(p: float) -> str:
    """A probability as a percentage (the number only): one decimal, two below 0.1%; as the
    reader's language writes numbers."""
    return local_number(f"{100 * p:.1f}" if p >= 0.001 or p == 0 else f"{100 * p:.2f}")


def pct_sign(p: float, decimals: int | None = None) -> str:
    """A probability as a percentage with its sign (``52.9%``, ``52,9 %``): ``pct``'s decimals, or
    ``decimals``."""
    raw = f"{100 * p:.{decimals}f}" if decimals is not None else (f"{100 * p:.1f}" if p >= 0.001 or p == 0
                                                                   else f"{100 * p:.2f}")
    return local_number(raw + "%")


def fmt(value: float | None, digits: int = 5) -> str:
    """A number with fixed decimals, ``n/a`` for a missing one."""
    return _("n/a") if value is None else number(value, digits)


def pretty_cards(cards: Sequence[str]) -> str:
    """Canonical card strings (``As``, ``Jk``: the library's own, not parsed again) as the glyphs
    every table prints (``A♠``, ``🃏``)."""
    return " ".join(card_str(JOKER, pretty=True) if c == "Jk" else c[:-1] + _GLYPHS[c[-1]] for c in cards)


_GLYPHS = dict(zip(SUITS, SUIT_GLYPHS, strict=True))


_HOLDING_WORDS = {"two_pair": N_("two pair"), "trips": N_("trips"), "four_flush": N_("four flush"),
                  "open_ended": N_("open ended"), "inside_straight": N_("inside straight"),
                  "high_cards": N_("high cards"), "snow": N_("snow"), "broken_pat": N_("broken pat"),
                  "pair": N_("pair"), "jacks": N_("jacks"), "straight": N_("straight"), "pat": N_("pat"),
                  "pair_with_kicker": N_("pair with kicker")}


def holding_words(name: str) -> str:
    """A holding's or range's name (``pair_of_aces_ace_kicker``, ``pat_flush``, ``four_flush``) in the
    reader's language (in English: its words, ``pair of aces ace kicker``)."""
    kicker = name.endswith("_ace_kicker")
    stem = name.removesuffix("_ace_kicker")
    if stem.startswith("pair_of_") and stem[8:] in RANK_PLURALS:
        ranks = _(stem[8:])   # cards.RANK_PLURALS are catalog entries
        return (_("pair of {ranks} ace kicker") if kicker else _("pair of {ranks}")).format(ranks=ranks)
    if name.startswith("pat_") and name[4:] in Category.slugs():
        return _("pat {category}").format(category=Category.from_slug(name[4:]).words)
    if name in Category.slugs():
        return Category.from_slug(name).words
    return _(_HOLDING_WORDS[name]) if name in _HOLDING_WORDS else name.replace("_", " ")


def max_draw_words(text: str) -> str:
    """A rule set's draw limit as printed (``RuleSet.max_draw_text``) in the reader's language."""
    words = {"any": pgettext("max draw", "any"), "4-ace": pgettext("max draw", "4-ace"),
             "4-ace, the joker counting as the ace": _("4-ace, the joker counting as the ace"),
             "4-ace, a real ace only": _("4-ace, a real ace only")}
    return words.get(text, text)


def pretty_hand(text: str) -> str:
    """A hand given as canonical text (``Qc Qd Jh``) in glyphs."""
    return pretty_cards(text.split())


def folded(console: Console, build: Callable[[list[int], bool], RenderableType], n: int) -> list[RenderableType]:
    """A table of ``n`` value columns that fits the page: whole if it fits, else folded, its value
    columns split into parts (``build(columns, continued)`` makes each part, with its label
    column), so that no value is cut."""
    tables: list[RenderableType] = []
    for parts in range(1, n + 1):
        size = -(-n // parts)
        tables = [build(list(range(k, min(k + size, n))), k > 0) for k in range(0, n, size)]
        if all(fits(console, t) for t in tables):
            break
    return tables
