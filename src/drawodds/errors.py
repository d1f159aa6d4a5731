"""The one exception type for requests drawodds cannot serve, and the ranges of its arguments.

Every error a user can cause (a bad card, an unknown rule option, an impossible analysis, an
illegal move) is a ``DrawoddsError`` whose message is one sentence they can act on; anything
else escaping the library is a bug. ``DrawoddsError`` is a ``ValueError``, so code that caught
``ValueError`` keeps working. An error about an argument names it by its parameter name, and
says which: a front end (the command line) words it with its own names for them (its flags).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from drawodds import i18n

_NAMED = re.compile(r"\{(\w+)\}")


class DrawoddsError(ValueError):
    """A request drawodds cannot serve; the message says why in one sentence.

    ``DrawoddsError("{trials} must be at least {low}, got {value}", "trials", low=2, value=1)`` is
    about the parameter ``trials``: its message reads "trials must be at least 2, got 1", and
    ``worded(names)`` gives the same sentence with each parameter named as ``names`` says
    (``--trials``). The template is the sentence's entry in the translation catalog, so it is
    worded in the language current when it is shown; ``values`` fill its other placeholders (a
    value that is itself a ``DrawoddsError`` is worded with the same names). A check shared by
    several parameters writes ``{parameter}``: the first parameter the error is about.
    """

    def __init__(self, message: str = "", *parameters: str, **values: object) -> None:
        self.template = message
        self.parameters = parameters
        self.values = values
        super().__init__(self.worded())

    @property
    def parameter(self) -> str | None:
        """The argument the error is about (the first one it names), or None."""
        return self.parameters[0] if self.parameters else None

    def worded(self, names: Mapping[str, str] | None = None) -> str:
        """The message in the current language, each parameter it names written as ``names``
        gives it (default: as is)."""
        template = i18n.gettext(self.template) if self.template else self.template
        if not self.parameters and not self.values:
            return template
        names = names or {}

        def fill(m: re.Match[str]) -> str:
            if m[1] in self.parameters:
                return names.get(m[1], m[1])
            if m[1] == "parameter" and self.parameters and m[1] not in self.values:
                return names.get(self.parameters[0], self.parameters[0])
            if m[1] in self.values:
                value = self.values[m[1]]
                return value.worded(names) if isinstance(value, DrawoddsError) else str(value)
            return m[0]

        return _NAMED.sub(fill, template)


class RequestError(DrawoddsError):
    """An analysis or simulation asked for something impossible (a size out of range, options
    that exclude each other, a draw count no player can make)."""


@dataclass(frozen=True)
class Bound:
    """The accepted range of a whole-number argument, checked before any work starts."""

    parameter: str
    lo: int
    hi: int
    standard_error: bool = False     # the lower bound is there because a standard error needs two

    def check(self, value: int | None) -> None:
        """Raise a ``RequestError`` naming the parameter unless ``value`` is None or in range."""
        if value is None or self.lo <= value <= self.hi:
            return
        got = i18n.local_number(f"{value:,}")
        if value > self.hi:
            raise RequestError("{parameter} can be at most {high}, got {value}", self.parameter,
                               high=i18n.local_number(f"{self.hi:,}"), value=got)
        low = i18n.local_number(f"{self.lo:,}")
        if self.standard_error:
            raise RequestError("{parameter} must be at least {low} (a standard error needs two), got {value}",
                               self.parameter, low=low, value=got)
        raise RequestError("{parameter} must be at least {low}, got {value}", self.parameter, low=low, value=got)

    def help(self, text: str, default: str = "") -> str:
        """A help text (already in the reader's language) with the range (and default) appended."""
        lo, hi = i18n.local_number(f"{self.lo:,}"), i18n.local_number(f"{self.hi:,}")
        if default:
            return i18n.gettext("{text} ({low}-{high}; default {default}).").format(
                text=text, low=lo, high=hi, default=default)
        return i18n.gettext("{text} ({low}-{high}).").format(text=text, low=lo, high=hi)


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``), else ``DRAWODDS_LANG``, else the locale, else
    English. An option or ``DRAWODDS_LANG`` that names no language drawodds speaks is refused."""
    choices = ", ".join(i18n.LANGUAGES)
    if option:
        if not i18n.known(option):
            raise DrawoddsError("{lang} must be one of {choices}, got {value}", "lang", choices=choices,
                                value=repr(option))
        return option
    chosen = i18n.from_environment(environ)
    if not i18n.known(chosen):
        raise DrawoddsError("DRAWODDS_LANG must be one of {choices}, got {value}", choices=choices, value=repr(chosen))
    return chosen


def check_seed(seed: int | None) -> None:
    """A random seed is a whole number, 0 or more (None: a fresh shuffle, where allowed)."""
    if seed is not None and seed < 0:
        raise RequestError("{seed} must be 0 or more, got {value}", "seed", value=seed)


def check_fraction(value: float | None, parameter: str) -> None:
    """A standard error or rate strictly between 0 and 1 (NaN and infinities refused)."""
    if value is not None and not (math.isfinite(value) and 0 < value < 1):
        raise RequestError("{parameter} must be a number between 0 and 1, got {value}", parameter,
                           value=i18n.local_number(str(value)))


def check_rate(value: float, parameter: str) -> None:
    """A rate from 0 to 1 (NaN and infinities refused)."""
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise RequestError("{parameter} is a rate from 0 to 1, got {value}", parameter,
                           value=i18n.local_number(str(value)))


def check_positive(value: float | None, parameter: str) -> None:
    """A positive finite number, or None."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise RequestError("{parameter} must be a positive number, got {value}", parameter,
                           value=i18n.local_number(str(value)))


def check_name(value: str, parameter: str, example: str) -> str:
    """A name that is not empty (nor spaces): returned stripped."""
    if not value.strip():
        raise RequestError("{parameter} needs a name: {example}", parameter, example=example)
    return value.strip()


# The sizes the analyses accept: each entry function checks its own, and the command line shows them in its help.
KEEP_TRIALS = Bound("trials", 2, 100_000_000, standard_error=True)
POINTS_TRIALS = Bound("trials", 2, 200_000, standard_error=True)     # every trial is kept
READ_TRIALS = Bound("trials", 2, 2_000_000, standard_error=True)     # every sampled hand is kept
KEEP_OPPONENTS = Bound("opponents", 0, 5)
DEALS = Bound("deals", 1, 10_000_000)
GAMES = Bound("games", 2, 1_000_000, standard_error=True)
OPENERS_DEALS = Bound("deals", 0, 1_000_000)
HAND_DEALS = Bound("deals", 1, 10_000_000)
ANTE = Bound("ante", 0, 1_000_000)
MAX_ANTES = Bound("max_consecutive_antes", 1, 100)
LESSON_DEALS = Bound("deals", 100, 1_000_000)
LINES = Bound("lines", 1, 200)
CHECK_REMOVAL = Bound("check_removal", 0, 10_000)
MC_TRIALS = Bound("trials", 2, 100_000_000, standard_error=True)
STRATEGY_OPPONENTS = Bound("opponents", 1, 7)
SOLVE_ITERATIONS = Bound("iterations", 1, 1_000_000)
PRE_BUCKETS = Bound("pre_buckets", 1, 4096)
FINAL_BUCKETS = Bound("final_buckets", 1, 2048)
FIELD_ROUNDS = Bound("rounds", 1, 5)
SOLVE_PLAYERS = Bound("players", 2, 3)     # solve: heads-up or three at the table
TABLE_PLAYERS = Bound("players", 3, 3)     # the table solve (heads-up is solve.solve)
ONE_DECK = Bound("one_deck", 2, 10_000_000, standard_error=True)     # deals of a solution's one-deck check
TRAIN_TRIALS = Bound("trials", 2, 1_000_000, standard_error=True)
TRAIN_HANDS = Bound("hands", 1, 100_000)     # questions in one session (None: until the answers end)
