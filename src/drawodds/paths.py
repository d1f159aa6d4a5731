"""The user's folders: where drawodds keeps its cache (solutions, abstractions) and its data (history).

Each follows the platform's convention, so the files land where the user expects them and a cache
can be cleared without losing the training history.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "drawodds"


def _env(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def cache_dir() -> Path:
    """The cache folder: ``$DRAWODDS_CACHE``, else the platform's cache folder + drawodds
    (``$XDG_CACHE_HOME`` or ~/.cache on Linux, ~/Library/Caches on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    override = _env("DRAWODDS_CACHE")
    if override is not None:
        return override
    if sys.platform == "win32":
        base = _env("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = _env("XDG_CACHE_HOME") or Path.home() / ".cache"
    return base / APP


def data_dir() -> Path:
    """The data folder + drawodds: ``$XDG_DATA_HOME`` or ~/.local/share on Linux,
    ~/Library/Application Support on macOS, ``%APPDATA%`` on Windows."""
    if sys.platform == "win32":
        base = _env("APPDATA") or Path.home() / "AppData" / "Roaming"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = _env("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return base / APP
