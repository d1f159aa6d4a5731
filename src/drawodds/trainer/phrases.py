"""Sentences kept as their catalog entry and named values, said in the reader's language when shown.

The trainer's why-lines are built from a grade's exact figures before anyone reads them, and the
same grade is shown to a player (in their language) and written as JSON (always English). A
``Phrase`` keeps the English template (the catalog's key) and its values (numbers, cards, other
phrases); ``text()`` says it in the current language. ``Line`` is such a phrase as a ``str`` that
holds its English text, so the JSON and every comparison read English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from drawodds import i18n


@dataclass(frozen=True)
class Percent:
    """A share shown as a percentage (``52.9%``; ``52,9 %`` in Swedish and Norwegian)."""

    fraction: float
    decimals: int = 1

    def text(self) -> str:
        return i18n.percent(self.fraction, self.decimals)


@dataclass(frozen=True)
class Number:
    """A number shown to ``decimals`` places as the reader's language writes it."""

    value: float
    decimals: int = 0

    def text(self) -> str:
        return i18n.number(self.value, self.decimals)


@dataclass(frozen=True)
class Phrase:
    """A sentence to say when shown: its catalog entry (English), a plural form and count, or a
    context, and its named values."""

    message: str
    values: tuple[tuple[str, Any], ...] = ()
    plural: str = ""
    n: int = 0
    context: str = ""

    @staticmethod
    def gettext(message: str, **values: Any) -> Phrase:
        return Phrase(message, tuple(values.items()))

    @staticmethod
    def ngettext(singular: str, plural: str, n: int, **values: Any) -> Phrase:
        """The form for ``n`` things (``{n}`` in the template is the count)."""
        return Phrase(singular, (("n", n), *values.items()), plural, n)

    @staticmethod
    def pgettext(context: str, message: str, **values: Any) -> Phrase:
        return Phrase(message, tuple(values.items()), context=context)

    def text(self) -> str:
        """The sentence in the current language."""
        if self.plural:
            template = i18n.ngettext(self.message, self.plural, self.n)
        elif self.context:
            template = i18n.pgettext(self.context, self.message)
        else:
            template = i18n.gettext(self.message)
        return template.format(**{k: said(v) for k, v in self.values}) if self.values else template

    def english(self) -> str:
        with i18n.use(i18n.ENGLISH):
            return self.text()

    __str__ = text


def said(value: Any) -> str:
    """A phrase's value as shown: phrases and numbers in the current language, anything else as text."""
    return value.text() if isinstance(value, Phrase | Percent | Number) else str(value)


_BRACKETS = re.compile(r" \([^)]*\)")


class Line(str):
    """A phrase as its English text (what JSON and comparisons read) that can be said in any
    language; ``short`` lines leave out their bracketed asides, in every language."""

    phrase: Phrase
    short: bool

    def __new__(cls, phrase: Phrase, short: bool = False) -> Line:
        english = phrase.english()
        line = super().__new__(cls, _BRACKETS.sub("", english) if short else english)
        line.phrase, line.short = phrase, short
        return line

    def __reduce__(self) -> tuple[Any, ...]:
        return Line, (self.phrase, self.short)

    def text(self) -> str:
        """The line in the current language."""
        said_now = self.phrase.text()
        return _BRACKETS.sub("", said_now) if self.short else said_now


def local(text: str) -> str:
    """A ``Line`` in the current language; other text as it is."""
    return text.text() if isinstance(text, Line) else text
