"""Typed results that know their own JSON and show well in a notebook.

Every analysis returns a frozen dataclass that inherits ``Result``: its fields are the data,
``to_dict()`` is the ``--json`` shape (one conversion for every result: numpy values become
Python numbers, NaN and infinities become ``None``), ``repr()`` is one short line and
``_repr_html_()`` a small table for Jupyter. Declare results with
``@dataclass(frozen=True, repr=False)`` so that the dataclass keeps this repr.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

HIDDEN = {"json": False}   # field metadata: keep this field out of to_dict() (e.g. raw arrays)
_REPR_ITEMS = 6            # fields shown by repr() before it abbreviates


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: numbers, strings, lists and dicts; NaN and infinities as None."""
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
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return value


def _short(value: Any) -> str:
    """A value for a one-line repr: arrays and long collections by size only."""
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list | tuple | dict) and len(value) > 4:
        return f"<{len(value)} {type(value).__name__} items>"
    if dataclasses.is_dataclass(value) and hasattr(value, "name"):
        return repr(value.name)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Result:
    """Mixin for frozen dataclass results: JSON, a one-line repr and an HTML view."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: every field not marked ``HIDDEN``, converted by ``jsonable``."""
        assert dataclasses.is_dataclass(self)
        return {f.name: jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)
                if f.metadata.get("json", True)}

    def to_json(self, indent: int | None = 2) -> str:
        """``to_dict()`` as JSON text (UTF-8 cards, no NaN)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def _summary_items(self) -> list[tuple[str, Any]]:
        assert dataclasses.is_dataclass(self)
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self) if f.repr]

    def __repr__(self) -> str:
        items = self._summary_items()
        shown = ", ".join(f"{k}={_short(v)}" for k, v in items[:_REPR_ITEMS])
        more = ", ..." if len(items) > _REPR_ITEMS else ""
        return f"{type(self).__name__}({shown}{more})"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(_short(v))}</td></tr>"
                       for k, v in self._summary_items())
        table = getattr(self, "table", None)
        frame = table._repr_html_() if hasattr(table, "_repr_html_") else ""
        return f"<b>{html.escape(type(self).__name__)}</b><table>{rows}</table>{frame}"
