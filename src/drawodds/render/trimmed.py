"""Output without trailing spaces: rich pads the lines it wraps or centres, which leaves spaces that
a reader never sees and a diff always does."""

from __future__ import annotations

import re
from typing import Any


class Trimmed:
    """Standard output without the spaces rich leaves at the end of a line (where it wraps a sentence or
    centres a title): a line is passed on when it ends, the rest at a flush."""

    def __init__(self, stream: Any) -> None:
        self._stream, self._pending = stream, ""

    def write(self, text: str) -> int:
        head, newline, self._pending = (self._pending + text).rpartition("\n")
        if newline:
            self._stream.write(_LINE_END.sub("\n", head + newline))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._stream.write(self._pending)
            self._pending = ""
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:     # isatty, fileno, encoding: the stream's own
        return getattr(self._stream, name)


_LINE_END = re.compile(r"[ \t]+\n")
