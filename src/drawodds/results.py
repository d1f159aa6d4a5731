"""Typed results that know their own JSON and show well in a notebook.

Every analysis returns a frozen dataclass that inherits ``Result``: its fields are the data,
``to_dict()`` is the ``--json`` shape (one conversion for every result: numpy values become
Python numbers, NaN and infinities become ``None``), ``repr()`` is one short line and
``_repr_html_()`` a small table for Jupyter. Declare results with
``@dataclass(frozen=True, repr=False)`` so that the dataclass keeps this repr.

A field's metadata says how it appears in ``to_dict()``: ``HIDDEN`` leaves it out (raw arrays,
timings), ``shown_as(convert, name=...)`` converts it (card codes to text, a rule set to its
name) or gives it its JSON name. A result whose JSON has derived parts overrides ``to_dict`` and
starts from ``super().to_dict()``.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from drawodds import i18n

HIDDEN: Mapping[str, Any] = MappingProxyType({"json": False})   # keep this field out of to_dict()
_REPR_ITEMS = 6            # fields shown by repr() before it abbreviates
_REPR_TEXT = 40            # longest single value in a repr


def shown_as(convert: Callable[[Any], Any] | None = None, *, name: str | None = None) -> Mapping[str, Any]:
    """Field metadata: in ``to_dict()`` (and ``repr``) show ``convert(value)``, under ``name`` if given."""
    return MappingProxyType({"json": True, "convert": convert, "name": name})


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: numbers, strings, lists and dicts; NaN and infinities as None.

    Exact fractions become their text (``"3/8"``), so no precision is lost."""
    if isinstance(value, Result):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.metadata.get("json", True)}
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return value


def json_data(value: Any) -> Any:
    """``value`` (a result or any data) as the plain data of its JSON, always in English: the JSON
    shape is what other tools read, whatever language a person reads."""
    with i18n.use(i18n.ENGLISH):
        return jsonable(value if isinstance(value, Mapping) or not hasattr(value, "to_dict") else value.to_dict())


def _shown(result: Any, f: dataclasses.Field[Any]) -> tuple[str, Any]:
    """A field's JSON name and its value after the field's conversion."""
    value = getattr(result, f.name)
    convert = f.metadata.get("convert")
    return f.metadata.get("name") or f.name, convert(value) if convert is not None else value


def _short(value: Any) -> str:
    """A value for a one-line repr: arrays and long collections by size only."""
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    if isinstance(value, float | np.floating):
        return f"{value:.6g}"
    if dataclasses.is_dataclass(value) and hasattr(value, "name"):
        return repr(value.name)
    if isinstance(value, Result):
        text = repr(value)
        return text if len(text) <= _REPR_TEXT else f"{type(value).__name__}(...)"
    if isinstance(value, list | tuple) and value and all(isinstance(v, str) and len(v) <= 3 for v in value):
        text = " ".join(value)            # cards: 'As Ah Ks 7s 3s'
        if len(text) <= _REPR_TEXT:
            return repr(text)
    if isinstance(value, list | tuple | dict) and len(value) > 4:
        return f"<{len(value)} {type(value).__name__} items>"
    text = repr(value)
    return text if len(text) <= _REPR_TEXT else text[:_REPR_TEXT - 3] + "..."


class Result:
    """Mixin for frozen dataclass results: JSON, a one-line repr and an HTML view."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: every field not marked ``HIDDEN``, converted by ``jsonable``."""
        assert dataclasses.is_dataclass(self)
        return dict(jsonable_item(self, f) for f in dataclasses.fields(self) if f.metadata.get("json", True))

    def to_json(self, indent: int | None = 2) -> str:
        """``to_dict()`` as JSON text (UTF-8 cards, no NaN)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def _summary_items(self) -> list[tuple[str, Any]]:
        """The (name, value) pairs repr and the HTML view show: the fields, as JSON shows them."""
        assert dataclasses.is_dataclass(self)
        return [_shown(self, f) for f in dataclasses.fields(self) if f.repr]

    def __repr__(self) -> str:
        items = self._summary_items()
        shown = ", ".join(f"{k}={_short(v)}" for k, v in items[:_REPR_ITEMS])
        more = ", ..." if len(items) > _REPR_ITEMS else ""
        return f"{type(self).__name__}({shown}{more})"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(_short(v))}</td></tr>"
                       for k, v in self._summary_items())
        show = getattr(getattr(self, "table", None), "_repr_html_", None)   # a DataFrame shows itself
        frame = show() if callable(show) else ""
        return f"<b>{html.escape(type(self).__name__)}</b><table>{rows}</table>{frame}"


def jsonable_item(result: Any, f: dataclasses.Field[Any]) -> tuple[str, Any]:
    """One field of a result as its (JSON name, JSON value)."""
    key, value = _shown(result, f)
    return key, jsonable(value)
