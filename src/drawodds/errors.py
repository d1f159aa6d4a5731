"""The one exception type for requests drawodds cannot serve.

Every error a user can cause (a bad card, an unknown rule option, an impossible analysis, an
illegal move) is a ``DrawoddsError`` whose message is one sentence they can act on; anything
else escaping the library is a bug. ``DrawoddsError`` is a ``ValueError``, so code that caught
``ValueError`` keeps working.
"""

from __future__ import annotations


class DrawoddsError(ValueError):
    """A request drawodds cannot serve; the message says why in one sentence."""


class RequestError(DrawoddsError):
    """An analysis or simulation asked for something impossible (a size out of range, options
    that exclude each other, a draw count no player can make)."""
