"""The user's folders: where drawodds keeps its cache (solutions, abstractions) and its data (history);
what the cache holds (list, bound, clear), and the one safe way every output file is written.

Each follows the platform's convention, so the files land where the user expects them and a cache
can be cleared without losing the training history.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from drawodds.errors import RequestError

APP = "drawodds"
T = TypeVar("T")


def _env(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def cache_dir() -> Path:
    """The cache folder: ``$DRAWODDS_CACHE``, else the platform's cache folder + drawodds
    (``$XDG_CACHE_HOME`` or ~/.cache on Linux, ~/Library/Caches on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    override = _env("DRAWODDS_CACHE")
    if override is not None:
        if override.exists() and not override.is_dir():
            raise RequestError("DRAWODDS_CACHE={path} is not a folder: name a folder for the cache (it is "
                               "created if need be)", path=str(override))
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


# --- the cache's contents -------------------------------------------------------------------------

# only what drawodds writes there
CACHE_PATTERNS = ("abstraction-*.npz", "solution-*.parquet", "strategy-*.npz", ".*.tmp*")
CACHE_LIMIT_ENV = "DRAWODDS_CACHE_LIMIT"
DEFAULT_CACHE_LIMIT_MB = 1000
TMP_GRACE = 3600.0       # seconds a temporary file in the cache is left alone by the bound


class CacheNote(UserWarning):
    """Something in the cache was damaged or evicted and is being rebuilt; a note, not an error."""


@dataclass(frozen=True)
class CacheEntry:
    """One file drawodds keeps in its cache."""

    path: Path
    size: int          # bytes
    used: float        # last written or read (seconds since the epoch)


def cache_entries(folder: Path | None = None) -> list[CacheEntry]:
    """The files drawodds wrote into its cache folder, the least recently used first."""
    base = folder or cache_dir()
    found: dict[Path, CacheEntry] = {}
    for pattern in CACHE_PATTERNS:
        for p in base.glob(pattern):
            st = p.lstat()
            if stat.S_ISREG(st.st_mode):
                found[p] = CacheEntry(p, st.st_size, st.st_mtime)
    return sorted(found.values(), key=lambda e: (e.used, e.path.name))


def cache_limit() -> int:
    """The cache's bound in bytes: ``$DRAWODDS_CACHE_LIMIT`` megabytes, else 1,000 MB."""
    text = os.environ.get(CACHE_LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_CACHE_LIMIT_MB * 1_000_000
    try:
        mb = float(text)
    except ValueError:
        mb = math.nan
    if not (math.isfinite(mb) and mb >= 0):
        raise RequestError("{variable} must be a size in megabytes, 0 or more, got {text}", variable=CACHE_LIMIT_ENV,
                           text=repr(text))
    return int(mb * 1_000_000)


def touch_cached(path: Path) -> None:
    """Mark a cache file as just used, so the bound evicts it last."""
    with contextlib.suppress(OSError):
        os.utime(path)


def read_cached(path: Path, read: Callable[[Path], T | None], what: str) -> T | None:
    """``read(path)`` for a cache file, marked as just used; None when ``read`` finds it damaged (None)
    or fails on it (truncated, edited): then a note says so and the file is removed, to be built again."""
    try:
        value = read(path)
    except Exception:   # noqa: BLE001 - any fault in a cache file means: build it again
        value = None
    if value is not None:
        touch_cached(path)
        return value
    warnings.warn(CacheNote(f"the cached {what} {path.name} was damaged; building it again"), stacklevel=4)
    with contextlib.suppress(OSError):
        path.unlink()
    return None


def trim_cache(keep: Path, folder: Path | None = None) -> list[CacheEntry]:
    """Evict the least recently used cache files until the cache fits its bound (``cache_limit``);
    ``keep`` (the file just written) stays even if it alone is larger. Returns what was removed."""
    limit = cache_limit()
    fresh = time.time() - TMP_GRACE          # another run may still be writing a young temporary file
    entries = [e for e in cache_entries(folder or keep.parent) if not (e.path.name.startswith(".") and e.used > fresh)]
    total = sum(e.size for e in entries)
    removed = []
    for e in entries:
        if total <= limit:
            break
        if e.path == keep:
            continue
        with contextlib.suppress(FileNotFoundError):
            e.path.unlink()
        total -= e.size
        removed.append(e)
    return removed


def clear_cache(folder: Path | None = None) -> list[CacheEntry]:
    """Remove every file drawodds wrote into its cache folder (nothing else there); returns them."""
    entries = cache_entries(folder)
    for e in entries:
        with contextlib.suppress(FileNotFoundError):
            e.path.unlink()
    return entries


# --- writing files --------------------------------------------------------------------------------

CHART_ENDINGS = (".png", ".pdf", ".svg")    # the formats a chart is written in, told by the file's ending


def check_writable(path: str | Path) -> None:
    """Refuse a path that exists and is not a regular file (a device, a FIFO, a socket, a folder):
    drawodds only ever replaces regular files."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise RequestError("{path}: cannot be written ({reason})", path=path, reason=exc.strerror or exc) from None
    if stat.S_ISDIR(st.st_mode):
        raise RequestError("{path}: is a folder, not a file", path=path)
    if not stat.S_ISREG(st.st_mode):
        raise RequestError("{path}: is not a regular file (a device or a pipe); drawodds writes only regular files",
                           path=path)


def write_file(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Write a file safely: ``write(tmp)`` fills a temporary file in the same folder (with the same
    ending), which then replaces ``path`` in one rename, so a failed write leaves the old file whole
    and a device or pipe of that name is refused rather than replaced (``check_writable``). A symlink
    is written through: the file it points to is replaced, the link stays. An error names ``path``
    (never the temporary file)."""
    out = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
    check_writable(out)
    tmp = out.with_name(f".{out.stem}.{os.getpid()}.tmp{out.suffix}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        os.replace(tmp, out)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return out


def write_text(path: str | Path, text: str) -> Path:
    """``write_file`` for text (UTF-8)."""
    return write_file(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
