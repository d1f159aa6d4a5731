"""The history file: one JSON line per graded question, and the pattern weights it gives the next deals."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from drawodds import paths
from drawodds.trainer.drills import TrainSetup

ERROR_WEIGHT = 4.0        # extra weight of a pattern this player always gets wrong
HISTORY_FILE = "train.jsonl"


def default_history_path() -> Path:
    """Where the history lives: the user's data folder (``drawodds.paths.data_dir``)."""
    return paths.data_dir() / HISTORY_FILE


def _valid_record(record: object) -> bool:
    """A history line the trainer can use: a keep or read record of a numbered session, with text
    where text belongs and a true/false mistake (anything else is a corrupt line)."""
    if not isinstance(record, dict) or record.get("kind") not in ("keep", "read"):
        return False
    session = record.get("session")
    if not isinstance(session, int) or isinstance(session, bool) or session < 1:
        return False
    if not all(isinstance(record.get(k), str) for k in ("rules", "objective")):
        return False
    if record["kind"] == "keep" and not isinstance(record.get("pattern"), str):
        return False
    return isinstance(record.get("mistake", False), bool)


def load_history(path: str | Path) -> tuple[dict[str, Any], ...]:
    """Every record of a history file (none when it does not exist yet); unreadable lines are skipped."""
    target = Path(path)
    if not target.is_file():
        return ()
    records = []
    for raw in target.read_bytes().splitlines():
        try:
            record = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):      # not UTF-8, not JSON, or nested past the parser
            continue
        if _valid_record(record):
            records.append(record)
    return tuple(records)


def append_history(path: str | Path, record: Mapping[str, Any]) -> None:
    """Add one record as a line of JSON (the folder is created on first use)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as out:
        out.write(json.dumps(dict(record), ensure_ascii=False, allow_nan=False) + "\n")


def next_session(records: Iterable[Mapping[str, Any]]) -> int:
    """The number of the session about to start: one more than the last recorded."""
    return 1 + max((s for r in records if type(s := r.get("session")) is int), default=0)


def _same_game(record: Mapping[str, Any], setup: TrainSetup) -> bool:
    return record.get("rules") == setup.rules.name and record.get("objective") == setup.objective


def pattern_weights(records: Iterable[Mapping[str, Any]], setup: TrainSetup) -> dict[str, float]:
    """How much more often each pattern is dealt, from this player's record under the same rules
    and objective: 1 + ERROR_WEIGHT x mistakes / (decisions + 2), so a pattern never missed keeps 1."""
    seen: dict[str, list[int]] = {}
    for r in records:
        if r.get("kind") == "keep" and _same_game(r, setup):
            tally = seen.setdefault(str(r.get("pattern")), [0, 0])
            tally[0] += 1
            tally[1] += bool(r.get("mistake"))
    return {p: 1.0 + ERROR_WEIGHT * m / (n + 2) for p, (n, m) in seen.items()}
