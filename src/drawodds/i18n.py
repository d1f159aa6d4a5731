"""The language a user reads: which one, its translation catalog, and numbers as it writes them.

drawodds speaks English (``en``), Swedish (``sv``) and Norwegian bokmål (``nb``). Every sentence a
person reads is written in English in the code, marked with ``gettext`` (``_``) where it is
printed, or with ``N_`` where it is defined ahead of use, and looked up in the current language's
catalog at the moment it is shown. JSON output never goes through the catalog.

The current language is a context variable (``use("sv")`` for a block), so a front door that
serves several people at once gives each its own. The catalogs are gettext ``.po`` files under
``drawodds/locale/<language>/`` (one per part of the program), compiled into one
``LC_MESSAGES/drawodds.mo`` when the package is built; a checkout whose ``.po`` files are newer
than the compiled catalog compiles them again in memory (with Babel) at first use.

``x-pseudo`` is a translator's language: every marked sentence comes back with its letters
accented (``Kéép``), so any plain English word left in the output was never marked.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

ENGLISH = "en"
LANGUAGES: tuple[str, ...] = ("en", "sv", "nb")
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "sv": "svenska", "nb": "norsk bokmål"}
PSEUDO = "x-pseudo"          # accents every marked sentence; for finding unmarked ones
DOMAIN = "drawodds"
LOCALE_DIR = Path(__file__).with_name("locale")
ENVIRONMENT = "DRAWODDS_LANG"

# What a locale name's language part means here (sv_SE.UTF-8 -> sv; Norwegian in any form -> bokmål).
_LOCALE_LANGUAGES: Mapping[str, str] = {"en": "en", "sv": "sv", "nb": "nb", "no": "nb", "nn": "nb"}

_current: ContextVar[str] = ContextVar("drawodds_language", default=ENGLISH)


# --- choosing the language --------------------------------------------------------------------------

def language() -> str:
    """The language of the current context (English unless a caller chose another)."""
    return _current.get()


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (one of ``LANGUAGES`` or ``PSEUDO``; ``errors.choose_language``
    checks a user's choice)."""
    if not known(lang):
        raise KeyError(lang)
    token = _current.set(lang)
    try:
        yield lang
    finally:
        _current.reset(token)


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language ``DRAWODDS_LANG`` names as written (checked by ``errors.choose_language``), else
    the locale's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them): one
    drawodds speaks, or English."""
    env = os.environ if environ is None else environ
    if env.get(ENVIRONMENT):
        return env[ENVIRONMENT]
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if value:
            code = value.split(":")[0].split(".")[0].split("@")[0].split("_")[0].lower()
            return _LOCALE_LANGUAGES.get(code, ENGLISH)
    return ENGLISH


def known(lang: str) -> bool:
    """Whether drawodds speaks ``lang`` (the pseudo language included)."""
    return lang in LANGUAGES or lang == PSEUDO


# --- looking sentences up -----------------------------------------------------------------------------

def N_(message: str) -> str:
    """Mark ``message`` for the catalog where it is defined; translate it with ``_`` where it is shown."""
    return message


def gettext(message: str) -> str:
    """``message`` in the current language (itself in English or when the catalog lacks it)."""
    lang = _current.get()
    return message if lang == ENGLISH else catalog(lang).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence about ``n`` things that the current language uses for ``n``."""
    lang = _current.get()
    if lang == ENGLISH:
        return singular if n == 1 else plural
    return catalog(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` translated in ``context``, for a short word that means different things in places."""
    lang = _current.get()
    return message if lang == ENGLISH else catalog(lang).pgettext(context, message)


@cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang``, loaded once per process."""
    if lang == PSEUDO:
        return _Pseudo()
    folder = LOCALE_DIR / lang
    compiled = folder / "LC_MESSAGES" / f"{DOMAIN}.mo"
    sources = sorted(folder.glob("*.po"))
    if compiled.exists() and all(compiled.stat().st_mtime >= s.stat().st_mtime for s in sources):
        with compiled.open("rb") as f:
            return _gettext.GNUTranslations(f)
    return compile_catalog(sources)


def compile_catalog(sources: list[Path]) -> _gettext.NullTranslations:
    """One catalog from a language's ``.po`` files (compiled in memory with Babel)."""
    import io

    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, merged(sources))
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def merged(sources: list[Path]) -> Any:
    """The Babel catalog of all ``sources`` of one language (the first translation of a sentence wins)."""
    from babel.messages.pofile import read_po

    whole = None
    for source in sources:
        with source.open("rb") as f:
            part = read_po(f)
        if whole is None:
            whole = part
            continue
        for message in part:
            if message.id and whole.get(message.id, context=message.context) is None:
                whole[message.id] = message
    if whole is None:
        from babel.messages.catalog import Catalog
        whole = Catalog()
    return whole


class _Pseudo(_gettext.NullTranslations):
    """Every sentence with its letters accented, keeping placeholders and markup as they are."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


_ACCENTED = str.maketrans("AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPpQqRrSsTtUuVvWwXxYyZz",
                          "ÀàɃƀÇçĎďÉéƑƒĜĝĤĥÍíĴĵĶķĹĺṀɱÑñÓóƤƥɊʠŔŕŠšŢţÚúṼṽŴŵẊẋÝýŽž")


def pseudo(message: str) -> str:
    """``message`` with every letter outside ``{placeholders}`` and ``[markup]`` accented."""
    out, depth, square = [], 0, 0
    for ch in message:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == "[":
            square += 1
        elif ch == "]":
            square = max(square - 1, 0)
        out.append(ch if depth or square else ch.translate(_ACCENTED))
    return "".join(out)


class Phrase(str):
    """Words for a player that data keeps in English: the string is the English text (``template``
    filled with ``values``; mark the template with ``N_``); ``worded`` words it in the reader's
    language from its catalog template and values (phrases among the values are worded too)."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Phrase:
        phrase = super().__new__(cls, template.format(**values))
        phrase.template = template
        phrase.values = values
        return phrase

    def __reduce__(self) -> tuple[object, ...]:
        return (_phrase, (self.template, self.values))


def _phrase(template: str, values: dict[str, object]) -> Phrase:
    return Phrase(template, **values)


def worded(text: str) -> str:
    """``text`` in the reader's language: a ``Phrase`` from its template, a sentence marked for the
    catalog by its translation, a run of rank letters (``J-T-3``) with the language's letters
    (``Kn-10-3``); an empty text stays empty."""
    if isinstance(text, Phrase):
        return gettext(text.template).format(**{k: worded(v) if isinstance(v, str) else v
                                                 for k, v in text.values.items()})
    if _RANK_RUN.fullmatch(text):
        return "-".join(_rank_letter(letter) for letter in text.split("-"))
    return gettext(text) if text else text


_RANK_RUN = re.compile(r"[2-9TJQKA](?:-[2-9TJQKA])*")      # kickers or a flush's cards, as a hand's words give them


def _rank_letter(letter: str) -> str:
    """A rank's letter as the reader's language writes it (Swedish and Norwegian: 10, Kn, D, K, E)."""
    letters = {"T": pgettext("rank letter", "T"), "J": pgettext("rank letter", "J"),
               "Q": pgettext("rank letter", "Q"), "K": pgettext("rank letter", "K"), "A": pgettext("rank letter", "A")}
    return letters.get(letter, letter)


# --- numbers as the language writes them --------------------------------------------------------------

_NBSP = "\u00a0"
_MINUS = "\u2212"


def local_number(text: str) -> str:
    """Numbers written the English way in ``text`` (``-1,234.5``, ``52.9%``) as the current language
    writes them (``−1 234,5``, ``52,9 %`` in Swedish and Norwegian); other characters stay."""
    if _current.get() in (ENGLISH, PSEUDO):
        return text
    return _NUMBER.sub(_localized, text)


_NUMBER = re.compile(r"(?<![\w.,])(-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%?)")


def _localized(match: re.Match[str]) -> str:
    sign, whole, fraction, percent_sign = match.groups()
    return ((_MINUS if sign else "") + whole.replace(",", _NBSP) + (fraction or "").replace(".", ",")
            + (_NBSP + "%" if percent_sign else ""))


def number(value: float, decimals: int = 0, *, signed: bool = False, grouped: bool = False) -> str:
    """``value`` to ``decimals`` places in the current language (``+``/``−`` sign if ``signed``,
    thousands grouped if ``grouped``)."""
    spec = ("+" if signed else "") + ("," if grouped else "") + f".{decimals}f"
    return local_number(format(value, spec))


def percent(fraction: float, decimals: int = 1, *, signed: bool = False) -> str:
    """``fraction`` as a percentage: ``52.9%`` in English, ``52,9 %`` in Swedish and Norwegian."""
    spec = ("+" if signed else "") + f".{decimals}%"
    return local_number(format(fraction, spec))
