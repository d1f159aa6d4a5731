"""`drawodds cache [list|clear]`: the files drawodds keeps between runs."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from drawodds.cli.options import JsonOpt
from drawodds.render.console import emit_json


class CacheAction(StrEnum):
    """What `drawodds cache` does."""

    LIST = "list"
    CLEAR = "clear"


def cache_cmd(
    action: Annotated[CacheAction, typer.Argument(help="list (the default) or clear.")] = CacheAction.LIST,
    json_out: JsonOpt = False,
) -> None:
    """The files drawodds keeps between runs (solved equilibria, abstractions): list them with their
    sizes, or clear them.

    The cache is bounded by DRAWODDS_CACHE_LIMIT megabytes (default 1,000): when a new file takes it
    over, the least recently used files are removed, with a note. DRAWODDS_CACHE moves the folder.

    Examples:

      drawodds cache

      drawodds cache clear
    """
    from drawodds import paths

    clear = action is CacheAction.CLEAR
    folder, limit = paths.cache_dir(), paths.cache_limit()
    entries = paths.clear_cache(folder) if clear else paths.cache_entries(folder)
    total = sum(e.size for e in entries)
    files = f"{len(entries):,} file{'s' if len(entries) != 1 else ''}"
    if json_out:
        emit_json({"folder": str(folder), "limit_bytes": limit, "cleared": clear,
                   "files": [{"name": e.path.name, "bytes": e.size} for e in entries], "total_bytes": total})
    elif clear:
        print(f"Removed {files} ({total / 1e6:,.1f} MB) from {folder}")
    else:
        print(f"Cache folder {folder} (bound {limit / 1e6:,.0f} MB, set by {paths.CACHE_LIMIT_ENV})")
        for e in reversed(entries):          # the most recently used first
            print(f"{e.size / 1e6:9,.1f} MB  {e.path.name}")
        print(f"{total / 1e6:9,.1f} MB  in {files}")
