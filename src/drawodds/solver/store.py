"""The store: the solver's own files, an abstraction (.npz) and a solution (Parquet) with a versioned
record of its own (not the ``--json`` output), each checked in full before anything is built from it."""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds import paths
from drawodds.errors import RequestError
from drawodds.rules import RuleError, RuleSet
from drawodds.solver import cfr
from drawodds.solver.abstraction import SPLIT, Abstraction, check_rules
from drawodds.solver.game import GameTree, TableGame
from drawodds.solver.settings import STORE_FORMAT
from drawodds.solver.subsets import N_STRENGTHS, Floats

MAX_PRE_BUCKETS = 4096      # the solver's bounds (the CLI's --buckets and --field-rounds)
MAX_FINAL_BUCKETS = 2048
MAX_ROUNDS = 5
MAX_RAISES = 10
COLUMNS = ("node", "seat", "street", "line", "row", "state", "action", "probability")
SLACK = 64                  # patterns and hand categories: buckets a build adds beyond a small budget
SUM_TOLERANCE = 1e-6        # an information set's probabilities sum to 1 within this
ABSTRACTION_ARRAYS = ("classes", "class_weights", "class_bucket", "class_holds", "class_natural", "prior",
                      "transitions", "legal_draws", "openers", "pattern", "final_of_strength", "final_mass",
                      "alt_holds", "alt_transitions")


class SolutionFileError(RequestError):
    """A file that is not a usable solution (damaged, edited or from elsewhere)."""


def unusable(path: str | Path, why: str) -> SolutionFileError:
    """The one-line error for a file that cannot be played, with the reason."""
    return SolutionFileError("{path} is not a usable solution file ({why}); solve again", path=path, why=why)


# --- the abstraction ------------------------------------------------------------------------------

def write_abstraction(a: Abstraction, path: Path) -> None:
    """Write an abstraction's arrays to an .npz file (its settings are in the file's name)."""
    np.savez(path, options=np.array(a.options), pattern_names=np.array(a.pattern_names), seconds=a.seconds,
             **{k: getattr(a, k) for k in ABSTRACTION_ARRAYS})


def read_abstraction(path: Path, rules: RuleSet, settings: tuple[int, int, int]) -> Abstraction | None:
    """The abstraction stored at ``path``, or None (with a note) when the file is damaged."""

    def read(path: Path) -> Abstraction | None:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in ABSTRACTION_ARRAYS}
            a = Abstraction(rules, tuple(int(o) for o in z["options"]),
                            pattern_names=tuple(str(n) for n in z["pattern_names"].tolist()),
                            seconds=float(z["seconds"]), settings=settings, **arrays)
        p, f = len(a.prior), a.transitions.shape[2] if a.transitions.ndim == 3 else -1
        whole = (a.transitions.shape == (len(a.options), p, f) and a.legal_draws.shape == (p, len(a.options))
                 and a.openers.shape == (p,) and a.pattern.shape == (p,) and len(a.class_bucket) == len(a.classes)
                 and a.class_holds.shape == (len(a.classes), len(a.options)) and len(a.final_mass) == f
                 and a.alt_holds is not None and a.alt_holds.shape == a.class_holds.shape
                 and a.alt_transitions is not None and a.alt_transitions.shape == a.transitions.shape
                 and len(a.final_of_strength) == N_STRENGTHS and int(a.class_bucket.max(initial=0)) < p
                 and int(a.final_of_strength.max(initial=0)) < f
                 and int(a.pattern.max(initial=0)) < len(a.pattern_names))
        return a if whole else None

    return paths.read_cached(path, read, "abstraction")


# --- the solution -------------------------------------------------------------------------------

@dataclass(frozen=True)
class StoredSolution:
    """What a solution file holds: its record (checked) and its strategy column (checked against it)."""

    rules: RuleSet
    settings: tuple[int, int, int]        # pre-draw buckets, final buckets, field rounds asked for
    pre_draw_buckets: int                 # as the solved abstraction had them
    final_buckets: int
    raises: int
    value: tuple[float, ...]              # one per seat
    exploitability: float
    nash_conv: float
    iterations: int
    seconds: float
    abstraction_seconds: float
    schedule: str
    interrupted: bool
    curve: tuple[cfr.Checkpoint, ...] = field(repr=False)
    node: npt.NDArray[np.integer] = field(repr=False, default_factory=lambda: np.zeros(0, dtype=np.int64))
    probability: Floats = field(repr=False, default_factory=lambda: np.zeros(0))
    players: int = 2                      # three: a table solution, with each seat's gain
    seat_gains: tuple[float, ...] = ()


def _record(stored: StoredSolution) -> dict[str, object]:
    """The metadata of a solution file (format ``STORE_FORMAT``); a table of three also records its
    players and each seat's gain (a heads-up record is as it was)."""
    table = {"players": stored.players} if stored.players != 2 else {}
    gains = {"seat_gains": list(stored.seat_gains)} if stored.players != 2 else {}
    return {"format": STORE_FORMAT, **table, "rules": stored.rules.to_dict(),
            "settings": {"pre_buckets": stored.settings[0], "final_buckets": stored.settings[1],
                         "rounds": stored.settings[2]},
            "abstraction": {"pre_draw_buckets": stored.pre_draw_buckets, "final_buckets": stored.final_buckets},
            "solve": {"value": list(stored.value), "exploitability": stored.exploitability,
                      "nash_conv": stored.nash_conv, "iterations": stored.iterations, "seconds": stored.seconds,
                      "abstraction_seconds": stored.abstraction_seconds, "schedule": stored.schedule,
                      "raises": stored.raises, "interrupted": stored.interrupted, **gains},
            "curve": [{"iteration": c.iteration, "seconds": c.seconds, "value": c.value,
                       "exploitability": c.exploitability} for c in stored.curve]}


def write_solution(path: str | Path, game: GameTree | TableGame, strategy: tuple[Floats | None, ...],
                   stored: StoredSolution) -> Path:
    """Write a strategy to a Parquet file, one row per (decision, row, private state, action), with
    ``stored``'s record (its node and probability are not used) in the file's metadata."""
    parts: dict[str, list[npt.NDArray]] = {k: [] for k in COLUMNS}
    words: dict[str, dict[str, int]] = {"street": {}, "line": {}, "action": {}}   # text columns, coded

    def code(column: str, text: str) -> int:
        return words[column].setdefault(text, len(words[column]))

    streets = {**{n: "pre-draw" for n in game.pre_nodes.values()}, **{n: "draw" for n in game.draw_nodes.values()},
               **{n: "draw" for n in game.hold_nodes.values()}, **{n: "post-draw" for n in game.post_nodes.values()}}
    for i in game.tree.strategic:
        d = game.tree.nodes[i]
        s = strategy[i]
        assert isinstance(d, cfr.Decision | cfr.Choice) and s is not None
        rows, states, acts = s.shape
        size = rows * states * acts
        parts["node"].append(np.full(size, i, dtype=np.int32))
        parts["seat"].append(np.full(size, d.player, dtype=np.int8))
        parts["street"].append(np.full(size, code("street", streets.get(i, "")), dtype=np.int32))
        parts["line"].append(np.full(size, code("line", d.label), dtype=np.int32))
        grid = np.indices((rows, states, acts), dtype=np.int32).reshape(3, -1)
        parts["row"].append(grid[0])
        parts["state"].append(grid[1])
        parts["action"].append(np.array([code("action", a) for a in d.actions], dtype=np.int32)[grid[2]])
        parts["probability"].append(s.reshape(-1))
    import polars as pl  # only here: importing polars would slow every command's start

    # The text columns are gathered from their few words by code: far less memory than a string per row.
    frame = pl.DataFrame({k: pl.Series(k, list(words[k])).gather(np.concatenate(v)).cast(pl.Categorical)
                          if k in words else np.concatenate(v) for k, v in parts.items()})
    meta = json.dumps(_record(stored))
    return paths.write_file(path, lambda tmp: frame.write_parquet(tmp, metadata={"drawodds": meta}))


def read_solution(path: str | Path) -> StoredSolution:
    """A solution file's record and strategy column, checked in full before anything is built from it."""
    import polars as pl  # only here: importing polars would slow every command's start

    try:
        meta = json.loads(pl.read_parquet_metadata(path)["drawodds"])
    except FileNotFoundError as exc:
        raise RequestError("no such solution file: {path}", path=path) from exc
    except (OSError, KeyError, ValueError, pl.exceptions.PolarsError) as exc:
        raise SolutionFileError("{path} is not a solution file written by drawodds solve", path=path) from exc
    stored = check_metadata(meta, path)
    try:
        frame = pl.read_parquet(path, columns=list(COLUMNS))
        if not (frame["probability"].dtype.is_float() and frame["state"].dtype.is_integer()
                and frame["node"].dtype.is_integer()):
            raise ValueError("a column has the wrong type")
        street = frame["street"].cast(pl.String).to_numpy()
    except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
        raise unusable(path, "a column is missing or damaged") from exc
    check_states(stored, street, frame["state"].to_numpy(), path)
    return dataclasses.replace(stored, node=frame["node"].to_numpy(), probability=frame["probability"].to_numpy())


def strategy_of(stored: StoredSolution, game: GameTree | TableGame, path: str | Path) -> tuple[Floats | None, ...]:
    """The stored strategy per node of ``game`` (the tree its settings describe), every row checked."""
    probability, nodes = stored.probability, stored.node
    strategy: list[Floats | None] = [None] * len(game.tree.nodes)
    at = 0
    for i in game.tree.strategic:
        d = game.tree.nodes[i]
        assert isinstance(d, cfr.Decision | cfr.Choice)
        states = game.tree.spaces[int(game.tree.node_spaces[i, d.player])].size
        size = d.rows * states * len(d.actions)
        if at + size > len(probability) or not (nodes[at:at + size] == i).all():
            raise unusable(path, "its rows do not match the game its settings describe")
        strategy[i] = probability[at:at + size].reshape(d.rows, states, len(d.actions))
        at += size
    if at != len(probability):
        raise unusable(path, "its rows do not match the game its settings describe")
    check_strategy(strategy, path)
    return tuple(strategy)


# --- the checks ---------------------------------------------------------------------------------

def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _count(value: object, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _near(count: object, budget: int, split: int = 1) -> bool:
    """Whether an abstraction built for ``budget`` buckets, each split in up to ``split``, could have
    ``count``: the build gives each draw pattern at least one, so counts run a little over small
    budgets, never far from large ones."""
    return _count(count, 1, split * (2 * budget + SLACK)) and budget <= 4 * int(count) + SLACK  # type: ignore[call-overload]


def check_metadata(meta: object, path: str | Path) -> StoredSolution:
    """The file's record, every key and type checked, bucket counts within the solver's bounds
    (checked before anything is allocated), its rules a game the solver plays."""
    if not isinstance(meta, dict):
        raise unusable(path, "its metadata is not a record")
    if meta.get("format") != STORE_FORMAT:
        raise SolutionFileError("{path} was written by another version of drawodds; solve again", path=path)
    rules, settings, solved, curve = meta.get("rules"), meta.get("settings"), meta.get("solve"), meta.get("curve")
    if not isinstance(rules, dict) or not isinstance(rules.get("name"), str):
        raise unusable(path, "its rules are missing")
    sizes: list[Any] = ([settings.get(k) for k in ("pre_buckets", "final_buckets", "rounds")]
                        if isinstance(settings, dict) else [])
    if not (len(sizes) == 3 and _count(sizes[0], 1, MAX_PRE_BUCKETS) and _count(sizes[1], 1, MAX_FINAL_BUCKETS)
            and _count(sizes[2], 1, MAX_ROUNDS)):
        raise unusable(path, f"its bucket settings {settings!r} are not PRE (1-{MAX_PRE_BUCKETS:,}), "
                             f"FINAL (1-{MAX_FINAL_BUCKETS:,}), ROUNDS (1-{MAX_ROUNDS})")
    if not isinstance(solved, dict):
        raise unusable(path, "its solve record is missing")
    players = meta.get("players", 2)
    if players not in (2, 3) or isinstance(players, bool):
        raise unusable(path, "its number of players is not 2 or 3")
    value, abstraction, gains = solved.get("value"), meta.get("abstraction"), solved.get("seat_gains", [])
    fields_ok = (isinstance(value, list) and len(value) == players and all(_number(v) for v in value)
                 and isinstance(gains, list) and len(gains) == (players if players != 2 else 0)
                 and all(_number(g) for g in gains)
                 and all(_number(solved.get(k)) for k in ("exploitability", "nash_conv", "seconds",
                                                          "abstraction_seconds"))
                 and _count(solved.get("iterations"), 0, 10**9) and _count(solved.get("raises"), 0, MAX_RAISES)
                 and isinstance(solved.get("schedule"), str) and isinstance(solved.get("interrupted"), bool)
                 and isinstance(curve, list)
                 and all(isinstance(c, dict) and _count(c.get("iteration"), 0, 10**9) and _number(c.get("seconds"))
                         and _number(c.get("value")) and _number(c.get("exploitability")) for c in curve))
    if not fields_ok:
        raise unusable(path, "its solve record is incomplete or has a bad value")
    if not (isinstance(abstraction, dict) and _near(abstraction.get("pre_draw_buckets"), sizes[0], SPLIT)
            and _near(abstraction.get("final_buckets"), sizes[1])):
        raise unusable(path, "its bucket counts do not fit its bucket settings")
    try:
        rule_set = RuleSet.from_dict(rules)
        check_rules(rule_set)
    except (RuleError, ValueError, TypeError, KeyError) as exc:
        raise unusable(path, "its rules are not a game the solver plays") from exc
    assert isinstance(value, list) and isinstance(curve, list) and isinstance(abstraction, dict)
    return StoredSolution(rule_set, (sizes[0], sizes[1], sizes[2]), int(abstraction["pre_draw_buckets"]),
                          int(abstraction["final_buckets"]), int(solved["raises"]), tuple(value),
                          solved["exploitability"], solved["nash_conv"], solved["iterations"], solved["seconds"],
                          solved["abstraction_seconds"], solved["schedule"], solved["interrupted"],
                          tuple(cfr.Checkpoint(c["iteration"], c["seconds"], c["value"], c["exploitability"])
                                for c in curve), players=players, seat_gains=tuple(gains))


def check_states(stored: StoredSolution, street: npt.NDArray, state: npt.NDArray, path: str | Path) -> None:
    """The file's own states agree with its record's bucket counts (before the abstraction is built)."""
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
