"""Checking a stored solution before anything is built from it.

A solution file is read in two steps, each checked here in full: its metadata (format, rule
fields, bucket settings within the solver's bounds, the summary's keys and types) before any
abstraction is built or allocated, and its strategy (every column present, node numbers in the
order of the game, probabilities finite, in [0, 1], each information set's row summing to 1)
before it is played. Any fault is one ``SolutionFileError`` sentence naming the file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.errors import RequestError

MAX_PRE_BUCKETS = 4096      # the solver's bounds (the CLI's --buckets and --field-rounds)
MAX_FINAL_BUCKETS = 2048
MAX_ROUNDS = 5
MAX_RAISES = 10
COLUMNS = ("node", "seat", "street", "line", "row", "state", "action", "probability")
SLACK = 64                  # patterns and hand categories: buckets a build adds beyond a small budget
SUM_TOLERANCE = 1e-6        # an information set's probabilities sum to 1 within this


class SolutionFileError(RequestError):
    """A file that is not a usable solution (damaged, edited or from elsewhere)."""


def unusable(path: str | Path, why: str) -> SolutionFileError:
    """The one-line error for a file that cannot be played, with the reason."""
    return SolutionFileError(f"{path} is not a usable solution file ({why}); solve again")


@dataclass(frozen=True)
class StoredSettings:
    """What a solution file's metadata says, checked: its rule fields, abstraction settings and summary."""

    rules: dict[str, object]
    settings: tuple[int, int, int]        # pre-draw buckets, final buckets, field rounds
    summary: dict[str, Any]
    raises: int
    pre_draw_buckets: int                 # as the solved abstraction had them
    final_buckets: int


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _count(value: object, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _near(count: object, budget: int) -> bool:
    """Whether an abstraction built for ``budget`` buckets could have ``count``: the build gives each
    draw pattern at least one, so counts run a little over small budgets, never far from large ones."""
    return _count(count, 1, 2 * budget + SLACK) and budget <= 4 * int(count) + SLACK  # type: ignore[call-overload]


def check_metadata(meta: object, path: str | Path, fmt: int) -> StoredSettings:
    """The file's metadata, every key and type checked, bucket counts within the solver's bounds
    (checked before anything is allocated); ``fmt`` is the format this version writes."""
    if not isinstance(meta, dict):
        raise unusable(path, "its metadata is not a record")
    if meta.get("format") != fmt:
        raise SolutionFileError(f"{path} was written by another version of drawodds; solve again")
    rules, settings, summary = meta.get("rules"), meta.get("settings"), meta.get("summary")
    if not isinstance(rules, dict) or not isinstance(rules.get("name"), str):
        raise unusable(path, "its rules are missing")
    if not (isinstance(settings, list) and len(settings) == 3 and _count(settings[0], 1, MAX_PRE_BUCKETS)
            and _count(settings[1], 1, MAX_FINAL_BUCKETS) and _count(settings[2], 1, MAX_ROUNDS)):
        raise unusable(path, f"its bucket settings {settings!r} are not PRE (1-{MAX_PRE_BUCKETS:,}), "
                             f"FINAL (1-{MAX_FINAL_BUCKETS:,}), ROUNDS (1-{MAX_ROUNDS})")
    if not isinstance(summary, dict):
        raise unusable(path, "its summary is missing")
    value, curve, abstraction = summary.get("value"), summary.get("curve"), summary.get("abstraction")
    fields_ok = (isinstance(value, list) and len(value) == 2 and all(_number(v) for v in value)
                 and all(_number(summary.get(k)) for k in ("exploitability", "seconds", "abstraction_seconds"))
                 and _count(summary.get("iterations"), 0, 10**9) and _count(summary.get("raises"), 0, MAX_RAISES)
                 and isinstance(summary.get("schedule"), str) and isinstance(curve, list)
                 and all(isinstance(c, dict) and _count(c.get("iteration"), 0, 10**9) and _number(c.get("seconds"))
                         and _number(c.get("exploitability")) for c in curve))
    if not fields_ok:
        raise unusable(path, "its summary is incomplete or has a bad value")
    if not (isinstance(abstraction, dict) and _near(abstraction.get("pre_draw_buckets"), settings[0])
            and _near(abstraction.get("final_buckets"), settings[1])):
        raise unusable(path, "its bucket counts do not fit its bucket settings")
    return StoredSettings(rules, (settings[0], settings[1], settings[2]), summary, int(summary["raises"]),
                          int(abstraction["pre_draw_buckets"]), int(abstraction["final_buckets"]))


def check_states(stored: StoredSettings, street: npt.NDArray, state: npt.NDArray, path: str | Path) -> None:
    """The file's own states agree with its metadata's bucket counts (before the abstraction is built)."""
    pre = state[street == "pre-draw"]
    post = state[street == "post-draw"]
    if len(pre) == 0 or len(post) == 0 or int(pre.min()) < 0 or int(post.min()) < 0:
        raise unusable(path, "its strategy rows are missing")
    if int(pre.max()) + 1 != stored.pre_draw_buckets or int(post.max()) + 1 != stored.final_buckets:
        raise unusable(path, "its strategy does not match the bucket counts it states")


def check_strategy(strategy: list[npt.NDArray | None], path: str | Path) -> None:
    """Every probability finite and in [0, 1]; every information set's row sums to 1."""
    for s in strategy:
        if s is None:
            continue
        if not np.isfinite(s).all():
            raise unusable(path, "a probability is not a number")
        if (s < 0).any() or (s > 1).any():
            raise unusable(path, "a probability is outside 0 to 1")
        if not np.allclose(s.sum(axis=-1), 1.0, rtol=0, atol=SUM_TOLERANCE):
            raise unusable(path, "an information set's probabilities do not sum to 1")
