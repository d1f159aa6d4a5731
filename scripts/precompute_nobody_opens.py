"""Recompute the exact Jacks-or-Better pass-out counts and write them to the package data file.

Usage:  PYTHONPATH=src python scripts/precompute_nobody_opens.py [MAX_PLAYERS]

Runs drawodds.analyses.nobody_opens.count_no_openers for 2..MAX_PLAYERS players (default 7) and writes
src/drawodds/data/nobody_opens.json: for each table size the number of labelled deals where
nobody holds openers and the number of all deals (exact integers, as strings). The small sizes
are recomputed by tests/test_openers.py; the large ones take minutes, so they are shipped.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from drawodds.analyses.nobody_opens import count_deals, count_no_openers
from drawodds.analyses.openers import DATA_FILE


def main(max_players: int = 7) -> None:
    path = Path(DATA_FILE)
    table = json.loads(path.read_text()) if path.exists() else {}
    for n in range(1, max_players + 1):
        if str(n) in table:
            print(f"{n} players: already in {path.name}", flush=True)
            continue
        start = time.perf_counter()
        good = count_no_openers(n)
        table[str(n)] = {"no_openers": str(good), "deals": str(count_deals(n))}
        path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        print(f"{n} players: {good / count_deals(n):.9f} nobody opens "
              f"({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
