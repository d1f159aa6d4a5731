"""A request's query read as a command's options: each name is the command's flag without its dashes
(``max-draw``, ``joker-ace``, ``range``), each value typed as the flag's, a repeatable flag given again
(``vs=3&vs=1``). What only a name or a type can tell is refused here, in the command line's words;
the library checks every value and holds every default."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from drawodds.errors import RequestError

LONGEST_QUERY = 4096      # characters of a query string
MOST_VALUES = 32          # values of one repeatable option
_TRUE = ("", "1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True)
class Option:
    """One option of a command: its query name (the flag without dashes), the library parameter it
    fills, its type (int, float, str or bool) and whether it repeats."""

    name: str
    parameter: str
    kind: type = str
    many: bool = False


def _value(option: Option, text: str) -> Any:
    """``text`` as the option's type, or a one-line refusal in the command line's words."""
    if option.kind is bool:
        low = text.strip().lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise RequestError("Invalid value for '{flag}': {value} is not a valid boolean.", flag="--" + option.name,
                           value=repr(text[:60]))
    if option.kind is int:
        try:
            return int(text.strip())
        except ValueError:
            raise RequestError("Invalid value for '{flag}': {value} is not a valid integer.",
                               flag="--" + option.name, value=repr(text[:60])) from None
    if option.kind is float:
        try:
            return float(text.strip())
        except ValueError:
            raise RequestError("Invalid value for '{flag}': {value} is not a valid float.",
                               flag="--" + option.name, value=repr(text[:60])) from None
    return text


def parse(query: Iterable[tuple[str, str]], options: Sequence[Option]) -> dict[str, Any]:
    """The library keyword arguments a query gives (an option not given is left out)."""
    by_name = {o.name: o for o in options}
    found: dict[str, Any] = {}
    for name, text in query:
        option = by_name.get(name)
        if option is None:
            raise RequestError("No such option: {flag}.", flag="--" + name[:60])
        if "\x00" in text:
            raise RequestError("Invalid value for '{flag}': it holds a NUL character.", flag="--" + name)
        value = _value(option, text)
        if option.many:
            values = found.setdefault(option.parameter, [])
            if len(values) >= MOST_VALUES:
                raise RequestError("{flag} can be given at most {count} times", flag="--" + name, count=MOST_VALUES)
            values.append(value)
        elif option.parameter in found:
            raise RequestError("{flag} was given twice: give it once", flag="--" + name)
        else:
            found[option.parameter] = value
    return found


def check_length(query: str) -> None:
    """Refuse a query string longer than any form sends."""
    if len(query) > LONGEST_QUERY:
        raise RequestError("the request is too long: at most {count} characters of options", count=LONGEST_QUERY)
