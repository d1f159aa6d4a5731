"""`drawodds cache [list|clear]`: the files drawodds keeps between runs."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from drawodds.cli.options import JsonOpt
from drawodds.i18n import N_, _, ngettext, number
from drawodds.render.console import emit_json


class CacheAction(StrEnum):
    """What `drawodds cache` does."""

    LIST = "list"
    CLEAR = "clear"


HELP = N_("""The files drawodds keeps between runs (solved equilibria, abstractions): list them with their
sizes, or clear them.

The cache is bounded by DRAWODDS_CACHE_LIMIT megabytes (default 1,000): when a new file takes it
over, the least recently used files are removed, with a note. DRAWODDS_CACHE moves the folder.

Examples:

  drawodds cache

  drawodds cache clear""")


def cache_cmd(
    action: Annotated[CacheAction, typer.Argument(help=N_("list (the default) or clear."))] = CacheAction.LIST,
    json_out: JsonOpt = False,
) -> None:
    """The command `drawodds cache` (its help is HELP)."""
    from drawodds import paths

    clear = action is CacheAction.CLEAR
    folder, limit = paths.cache_dir(), paths.cache_limit()
    entries = paths.clear_cache(folder) if clear else paths.cache_entries(folder)
    total = sum(e.size for e in entries)
    files = ngettext("{n} file", "{n} files", len(entries)).format(n=number(len(entries), grouped=True))
    if json_out:
        emit_json({"folder": str(folder), "limit_bytes": limit, "cleared": clear,
                   "files": [{"name": e.path.name, "bytes": e.size} for e in entries], "total_bytes": total})
    elif clear:
        print(_("Removed {files} ({size} MB) from {folder}").format(
            files=files, size=number(total / 1e6, 1, grouped=True), folder=folder))
    else:
        print(_("Cache folder {folder}").format(folder=folder))
        print(_("bound {size} MB, set by {variable}").format(size=number(limit / 1e6, grouped=True),
                                                             variable=paths.CACHE_LIMIT_ENV))
        for e in reversed(entries):          # the most recently used first
            print(f"{number(e.size / 1e6, 1, grouped=True):>9} MB  {e.path.name}")
        print(_("{size} MB  in {files}").format(size=f"{number(total / 1e6, 1, grouped=True):>9}", files=files))
