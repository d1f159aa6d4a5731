"""`train`: deal hands, grade the player's holds and draw readings, and remember the mistakes.

A session asks two kinds of question. A *keep* question deals five cards and asks what to keep;
the answer is graded against ``keep``'s ranking of every legal hold (exact for the jacks and
points objectives, Monte Carlo with a standard error for equity against opponents), and the
difference is the answer's cost. A *reading* question gives our hand and an opponent's draw count
and asks what they most likely hold and what our equity is, graded against ``read_draw``.

Deals are not uniform: from a batch of random deals, each is weighted by how close its best two
holds are (exact strategy-table values, cheap for thousands of deals) and by how often this player
got its pattern wrong before, so the trainer deals more of the decisions that are missed. One
numpy Generator drives every choice, so a seed (with the same history and answers) replays a
session. The history is a JSON-lines file, one line per graded question.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from drawodds import paths
from drawodds.analyses.keep import KeepResult, keep, ranking
from drawodds.analyses.read import DrawReading, read_draw
from drawodds.analyses.strategy import Solver, make_solver, parse_objective, suit_classes
from drawodds.cards import JOKER, RANK_NAMES, RANK_PLURALS, CardError, card_str, format_cards, parse_cards
from drawodds.errors import DrawoddsError, RequestError
from drawodds.evaluate import CATEGORIES, describe, evaluate
from drawodds.patterns import HOLD_TYPES, HoldKind, hold_pattern_codes, hold_pattern_label, hold_type, kept_cards
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.rules import RuleSet, preset

OBJECTIVES = ("equity", "jacks", "points")
TRIALS = 20_000           # Monte Carlo trials per keep question (equity against opponents)
POINTS_TRIALS = 5_000     # the same in Poengpoker and Chicago, where every trial plays out five tricks
DRILLS = ("mixed", "keep", "read")
READ_EVERY = 4            # mixed drill: every fourth question is a reading
READ_BAND = 0.05          # an equity estimate within 5 points of the pot counts as right
BATCH = 256               # candidate deals weighed for each keep question
FOCUS_BATCHES = 64        # batches searched for a deal of the focus pattern before giving up
CLOSE_WEIGHT = 3.0        # extra weight of a deal whose best two holds are level
ERROR_WEIGHT = 4.0        # extra weight of a pattern this player always gets wrong
# Gap between the best two holds at which a deal counts as a close call (objective units).
CLOSE_SCALE = {"equity": 0.01, "jacks": 0.01, "points": 0.05}
UNITS = {"equity": "points of equity", "jacks": "percentage points", "points": "points"}
HISTORY_FILE = "train.jsonl"

# The patterns drilled and tallied: the type of the best hold (``drawodds.patterns.HOLD_TYPES``).
PATTERNS: dict[str, int] = {"pat": 0, "made": 1, "pair": 2, "kicker": 3, "flush-draw": 4, "straight-draw": 5,
                            "sf-draw": 6, "two-cards": 7, "one-card": 8, "draw-five": 9, "other": 10}
PATTERN_NAMES: dict[str, str] = {slug: HOLD_TYPES[i] for slug, i in PATTERNS.items()}
_PATTERN_KEEPS = {"one-card": 1, "draw-five": 0}    # cards kept: these need a draw of 4 or 5

# Reading answers: the posterior's labels grouped into classes a player can name.
READ_CLASSES = ("pair", "two pair", "trips", "four flush", "open-ended", "inside straight", "high cards",
                "straight", "flush", "full house", "four of a kind", "straight flush", "bluff", "broken pat")
_READ_ALIASES: dict[str, str] = {
    "pair": "pair", "one pair": "pair", "a pair": "pair", "1p": "pair",
    "two pair": "two pair", "2 pair": "two pair", "twopair": "two pair", "2p": "two pair",
    "trips": "trips", "three of a kind": "trips", "set": "trips", "3k": "trips",
    "four flush": "four flush", "4 flush": "four flush", "flush draw": "four flush", "4f": "four flush",
    "open ended": "open-ended", "open": "open-ended", "straight draw": "open-ended", "oesd": "open-ended",
    "inside straight": "inside straight", "inside": "inside straight", "gutshot": "inside straight",
    "high cards": "high cards", "high card": "high cards", "high": "high cards", "nothing": "high cards",
    "straight": "straight", "flush": "flush", "full house": "full house", "full": "full house",
    "boat": "full house", "four of a kind": "four of a kind", "quads": "four of a kind",
    "straight flush": "straight flush", "royal flush": "straight flush", "bluff": "bluff", "snow": "bluff",
    "broken pat": "broken pat", "broken": "broken pat",
}
HELP = ("Answer a keep question with the cards to keep (As Ah, or AsAh), the cards to throw after "
        "'throw' or '-' (throw 7s 3s, -7s3s), a draw count (3: the best hold that draws three), or "
        "'pat'. Answer a reading with a class and your equity in percent (two pair 55). Also: "
        "'score' for the running score, 'help', 'quit'.")

Objective = Literal["equity", "jacks", "points"]


class AnswerError(DrawoddsError):
    """An answer the trainer cannot grade (not in the hand, an illegal hold): say why, ask again."""


# --- the set-up -----------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class TrainSetup(Result):
    """What a session drills: rule set, objective, opponents, trials, the drill and its focus."""

    rules: RuleSet = field(metadata=shown_as(lambda r: r.name))
    objective: str
    opponents: int
    trials: int
    drill: str
    focus: str | None = None
    policy: str = "standard"

    @property
    def unit(self) -> str:
        return UNITS[self.objective]


def focus_names() -> str:
    return ", ".join(PATTERNS)


def resolve_pattern(name: str) -> str:
    """A pattern's short name from its short or long name ('flush-draw', 'flush draw')."""
    key = name.strip().lower().replace("_", "-")
    for slug, long in PATTERN_NAMES.items():
        if key in (slug, long, long.replace(" ", "-")):
            return slug
    raise RequestError(f"unknown pattern {name!r}; patterns: {focus_names()}")


def train_setup(rules: str | RuleSet = "morkpoker", *, objective: str | None = None, opponents: int | None = None,
                trials: int | None = None, drill: str = "mixed", focus: str | None = None,
                policy: str = "standard") -> TrainSetup:
    """Check a session's options before any dealing; an impossible combination raises ``RequestError``.

    In Poengpoker and Chicago the points objective is what ``keep --rules poengpoker`` ranks by:
    the points this deal, best hand plus last trick, by Monte Carlo against the other players
    (``trials`` default POINTS_TRIALS there, TRIALS elsewhere)."""
    rs = preset(rules) if isinstance(rules, str) else rules.validate()
    points_game = rs.game != "draw"
    objective = (objective or ("points" if points_game else "equity")).strip().lower()
    if objective not in OBJECTIVES:
        raise RequestError(f"--objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    sampled = objective == "equity" or (points_game and objective == "points")
    if objective == "equity" and points_game:
        raise RequestError(f"{rs.name} scores points, not a showdown: use --objective points (or jacks)")
    if sampled:
        opponents = min(rs.players - 1, 5) if opponents is None else opponents
        if not 1 <= opponents <= 5:
            raise RequestError(f"--opponents must be 1-5 for the {objective} objective, got {opponents}")
    elif opponents:
        raise RequestError(f"--opponents goes with --objective equity (or points in Poengpoker and Chicago); "
                           f"{objective} is exact for your hand alone")
    trials = trials if trials is not None else (POINTS_TRIALS if points_game else TRIALS)
    if trials < 2:
        raise RequestError(f"--trials must be at least 2 (a standard error needs two), got {trials}")
    drill = drill.strip().lower()
    if drill not in DRILLS:
        raise RequestError(f"--drill must be one of {', '.join(DRILLS)}, got {drill!r}")
    if points_game and drill == "read":
        raise RequestError(f"reading a draw count is about the betting game; {rs.name} has no betting")
    if focus is not None:
        if drill == "read":
            raise RequestError("--focus drills holds: use --drill keep or mixed")
        focus = resolve_pattern(focus)
        kept = _PATTERN_KEEPS.get(focus)
        if kept is not None and 5 - kept > rs.max_draw_cards:
            raise RequestError(f"'{focus}' draws {5 - kept} cards, more than {rs.name} allows "
                               f"(max draw {rs.max_draw})")
        possible = best_patterns(rs, objective, opponents or 0, policy)
        if focus not in possible:
            raise RequestError(f"'{focus}' is the best hold of no deal under {rs.name} and the {objective} "
                               f"objective: choose one of {', '.join(p for p in PATTERNS if p in possible)}")
    return TrainSetup(rs, objective, opponents or 0, trials, drill, focus, policy)


@functools.cache
def best_patterns(rules: RuleSet, objective: str, opponents: int, policy: str) -> frozenset[str]:
    """The patterns that are the best hold of some deal in the exact strategy table the deals are
    chosen by (every suit class; a few seconds, once per set-up): the focuses that can be drilled."""
    deals, _ = suit_classes(rules.joker)
    hv = _solver(rules, objective, opponents, policy).hold_values(deals)
    codes = hold_pattern_codes(hv.deals, rules.joker)[np.arange(len(deals)), hv.best.astype(np.int64)]
    slugs = list(PATTERNS)
    return frozenset(slugs[t] for t in np.unique(hold_type(codes)))


# --- the history ----------------------------------------------------------------------------------

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


# --- dealing ---------------------------------------------------------------------------------------

@functools.cache
def _solver(rules: RuleSet, objective: str, opponents: int, policy: str) -> Solver:
    """The exact strategy-table solver that weighs candidate deals (one draw; no card removal)."""
    rs = rules if rules.draws == 1 else rules.replace(draws=1)
    return make_solver(parse_objective(objective, rs, opponents=max(opponents, 1), policy=policy), rs)


def _random_deals(rng: np.random.Generator, n: int, deck: int) -> npt.NDArray[np.int8]:
    """n random five-card deals, each sorted (rows independent, no card twice in a row)."""
    return np.sort(np.argsort(rng.random((n, deck)), axis=1)[:, :5], axis=1).astype(np.int8)


def candidate_weights(setup: TrainSetup, deals: npt.NDArray[np.int8],
                      weights: Mapping[str, float]) -> tuple[npt.NDArray[np.float64], list[str]]:
    """Each deal's weight (close calls and missed patterns count more) and its pattern."""
    hv = _solver(setup.rules, setup.objective, setup.opponents, setup.policy).hold_values(deals)
    gap = hv.best_value - hv.runner_up_value
    codes = hold_pattern_codes(hv.deals, setup.rules.joker)[np.arange(len(deals)), hv.best.astype(np.int64)]
    slugs = list(PATTERNS)
    patterns = [slugs[t] for t in hold_type(codes)]
    close = 1.0 + CLOSE_WEIGHT * np.exp(-np.nan_to_num(gap, nan=1.0) / CLOSE_SCALE[setup.objective])
    missed = np.array([weights.get(p, 1.0) for p in patterns])
    # Variety: a pattern's deals weigh less the more common it is (no batch of junk hands alone).
    counts = {p: patterns.count(p) for p in set(patterns)}
    missed = missed / np.sqrt([counts[p] for p in patterns])
    if setup.focus is not None:
        missed = missed * np.array([p == setup.focus for p in patterns])
    return close * missed, patterns


def choose_deal(setup: TrainSetup, weights: Mapping[str, float], rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """One deal, drawn from a batch of random deals by weight (``candidate_weights``)."""
    for _ in range(FOCUS_BATCHES):
        deals = _random_deals(rng, BATCH, setup.rules.deck_size)
        w, _ = candidate_weights(setup, deals, weights)
        if w.sum() > 0:
            return deals[rng.choice(len(deals), p=w / w.sum())]
    raise RequestError(f"no deal in {FOCUS_BATCHES * BATCH:,} has '{setup.focus}' as its best hold under "
                       f"{setup.rules.name} and the {setup.objective} objective: choose another --focus")


# --- questions ----------------------------------------------------------------------------------

def _cards(cards: npt.NDArray[np.integer]) -> list[str]:
    return format_cards(cards)


@dataclass(frozen=True, repr=False)
class Position(Result):
    """A keep question: the deal, and every legal hold ranked under the session's objective."""

    index: int
    hand: npt.NDArray[np.int8] = field(metadata=shown_as(_cards))
    objective: str
    result: KeepResult = field(metadata=HIDDEN)
    pattern: str                 # the type of the best hold (a key of PATTERNS)
    codes: tuple[int, ...] = field(default=(), metadata=HIDDEN)   # hold pattern code of each ranked hold
    seed: int | None = None      # the Monte Carlo's seed (equity objective)

    @property
    def kind(self) -> str:
        return "keep"

    @property
    def dealt(self) -> str:
        return describe(int(evaluate(self.hand, joker=self.result.rules.joker)))


@dataclass(frozen=True, repr=False)
class ReadQuestion(Result):
    """A reading question: our hand, an opponent's draw count, and the exact reading of it."""

    index: int
    hand: npt.NDArray[np.int8] = field(metadata=shown_as(_cards))
    draw: int
    opener: bool                 # Jacks or Better: the opponent opened, so holds openers
    classes: dict[str, float]    # exact posterior of their holding, by answer class, likeliest first
    reading: DrawReading = field(metadata=HIDDEN)

    @property
    def kind(self) -> str:
        return "read"

    @property
    def likely(self) -> str:
        return next(iter(self.classes))


Question = Position | ReadQuestion


def position(setup: TrainSetup, hand: npt.NDArray[np.integer], index: int, seed: int) -> Position:
    """Rank every legal hold of ``hand`` for a keep question (``keep``: exact, or Monte Carlo)."""
    cards = np.sort(np.asarray(hand, dtype=np.int8))[::-1].copy()   # high cards first
    if setup.opponents:   # equity, or the points this deal in Poengpoker and Chicago: as keep ranks them
        result = keep(cards, rules=setup.rules, opponents=setup.opponents, policy=setup.policy,
                      trials=setup.trials, seed=seed, workers=1, by=setup.objective)  # type: ignore[arg-type]
    else:
        result = keep(cards, rules=setup.rules, opponents=0, by=setup.objective)  # type: ignore[arg-type]
    if result.interrupted:      # a table cut short by Ctrl-C grades nothing: the session ends here
        raise KeyboardInterrupt
    codes = hold_codes(cards, list(result.columns["keep"]), setup.rules.joker)
    pattern = list(PATTERNS)[int(hold_type(codes[0]))]
    return Position(index, cards, setup.objective, result, pattern, tuple(codes),
                    seed if setup.opponents else None)


def hold_codes(hand: npt.NDArray[np.integer], holds: Sequence[Sequence[str]], joker: bool = False) -> list[int]:
    """The hold pattern code (``drawodds.patterns``) of each hold (its kept cards) of the hand."""
    deal = np.sort(np.asarray(hand, dtype=np.int64))
    codes = hold_pattern_codes(deal[None, :], joker)[0]
    names = [card_str(int(c)) for c in deal]
    return [int(codes[sum(1 << i for i, c in enumerate(names) if c in set(kept))]) for kept in holds]


def read_class(label: str) -> str:
    """A posterior label of ``drawodds.sim.ranges`` as an answer class ('pair_of_kings' -> 'pair')."""
    if label.startswith("pair_of_"):
        return "pair"
    if label.startswith("pat_"):
        name = label[4:].replace("_", " ")
        return {"three of a kind": "trips", "one pair": "pair", "high card": "high cards"}.get(name, name)
    return {"snow": "bluff", "broken_pat": "broken pat"}.get(label, label.replace("_", " "))


def read_question(setup: TrainSetup, rng: np.random.Generator, index: int) -> ReadQuestion:
    """A reading question: a random hand of ours and a draw count, read exactly (``read_draw``)."""
    rs = setup.rules
    hand = np.sort(_random_deals(rng, 1, rs.deck_size)[0])[::-1].copy()
    opener = rs.opener == "jacks"
    seed = int(rng.integers(2**31))
    for draw in rng.permutation([1, 3, 0, 2]):    # a count some holding of the range draws
        try:
            reading = read_draw(int(draw), rules=rs, policy=setup.policy, hand=hand, opener=opener,
                                equity_trials=setup.trials, seed=seed, workers=1)
        except RequestError:
            continue
        if reading.interrupted:
            raise KeyboardInterrupt
        classes: dict[str, float] = {}
        for label, p in reading.holding.items():
            classes[read_class(label)] = classes.get(read_class(label), 0.0) + p
        ordered = dict(sorted(classes.items(), key=lambda kv: -kv[1]))
        return ReadQuestion(index, hand, int(draw), opener, ordered, reading)
    raise RequestError(f"no draw count can be read under {rs.name} with the '{setup.policy}' policy")


def question_kind(setup: TrainSetup, index: int) -> str:
    """'keep' or 'read' for the index-th question (1-based) of a session."""
    if setup.drill == "read":
        return "read"
    if setup.drill == "mixed" and setup.rules.game == "draw" and index % READ_EVERY == 0:
        return "read"
    return "keep"


def next_question(setup: TrainSetup, records: Sequence[Mapping[str, Any]], index: int,
                  rng: np.random.Generator) -> Question:
    """The index-th question of a session, dealt from ``rng`` and weighted by ``records`` (the
    history so far, this session's answers included)."""
    if question_kind(setup, index) == "read":
        return read_question(setup, rng, index)
    weights = pattern_weights(records, setup)
    for _ in range(20):
        hand = choose_deal(setup, weights, rng)
        pos = position(setup, hand, index, int(rng.integers(2**31)))
        # The table's best hold ignores card removal: under --focus, trust keep's ranking.
        if setup.focus is None or pos.pattern == setup.focus:
            return pos
    return pos


# --- answers ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """A parsed answer: a hold (kept cards), a reading, or a command (quit, help, score)."""

    kind: Literal["hold", "read", "quit", "help", "score"]
    text: str
    keep: tuple[str, ...] = ()
    how: str = ""                   # hold: cards, throw, draw or pat
    read_class: str | None = None
    read_equity: float | None = None


_COMMANDS = {"q": "quit", "quit": "quit", "exit": "quit", "?": "help", "h": "help", "help": "help",
             "score": "score"}


def parse_answer(text: str, question: Question, rules: RuleSet) -> Answer:
    """Read one answer line for ``question``; a bad one raises ``AnswerError`` (one line)."""
    raw = " ".join(text.split())
    low = raw.lower()
    if low in _COMMANDS:
        return Answer(_COMMANDS[low], raw)  # type: ignore[arg-type]
    if not low:
        raise AnswerError("no answer: " + ("cards to keep, throw CARDS, a draw count or pat"
                                           if question.kind == "keep" else "a class and an equity, e.g. pair 60"))
    if isinstance(question, ReadQuestion):
        return _parse_read(raw)
    return _parse_hold(raw, question, rules)


def _parse_hold(raw: str, question: Position, rules: RuleSet) -> Answer:
    hand = format_cards(question.hand)
    low = raw.lower()
    rows = question.result.rows()
    if low in ("pat", "stand", "stand pat") or low.isdigit():
        count = 0 if not low.isdigit() else int(low)
        drawing = [r for r in rows if r["draw"] == count]
        if not drawing:
            most = max(r["draw"] for r in rows)
            raise AnswerError(f"no legal hold draws {count} under {rules.name}: draw 0-{most} "
                              f"(max draw {rules.max_draw})")
        return Answer("hold", raw, tuple(drawing[0]["keep"]), "pat" if count == 0 else "draw")
    throw = low.startswith(("throw", "discard", "-"))
    body = raw.lstrip("-").strip()
    for word in ("throw", "discard", "keep", "hold"):
        if body.lower().startswith(word):
            body = body[len(word):]
    try:
        cards = [card_str(c) for c in parse_cards(body.replace("-", " "), joker=rules.joker)]
    except CardError as exc:
        raise AnswerError(f"{exc} (answer with cards from your hand, a draw count, pat, or help)") from None
    stray = [c for c in cards if c not in hand]
    if stray:
        raise AnswerError(f"{stray[0]} is not in your hand ({' '.join(hand)})")
    if throw and not cards:
        raise AnswerError("throw which cards? e.g. throw 7s 3s")
    kept = [c for c in hand if (c not in cards) == throw]
    match = next((r for r in rows if sorted(r["keep"]) == sorted(kept)), None)
    if match is None:
        limit = rules.draw_limit_for(parse_cards(kept, joker=rules.joker))
        raise AnswerError(f"that draws {5 - len(kept)}; under {rules.name} you may draw at most {limit}"
                          + (" (4 when you keep an ace)" if rules.max_draw == "4-ace" else ""))
    return Answer("hold", raw, tuple(match["keep"]), "throw" if throw else "cards")


def _parse_read(raw: str) -> Answer:
    words = raw.lower().replace(",", " ").replace("%", " ").split()
    number = words[-1] if words else ""
    try:
        equity = float(number)
    except ValueError:
        raise AnswerError("give a class and your equity in percent, e.g. two pair 45") from None
    if not (math.isfinite(equity) and 0 <= equity <= 100):
        raise AnswerError(f"equity is a percentage from 0 to 100, got {number}")
    name = " ".join(words[:-1]).replace("-", " ").strip()
    cls = _READ_ALIASES.get(name)
    if cls is None:
        raise AnswerError(f"unknown class {name!r}; classes: {', '.join(READ_CLASSES)}")
    return Answer("read", raw, read_class=cls, read_equity=equity / 100)


# --- grading -----------------------------------------------------------------------------------

JSON_DIGITS = 12     # significant digits of a cost or value in JSON: past the float noise of sums


def _rounded(value: Any) -> Any:
    """JSON data with every float to ``JSON_DIGITS`` significant digits (0.0017500000000000016 -> 0.00175)."""
    if isinstance(value, float):
        return float(f"{value:.{JSON_DIGITS}g}") if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


@dataclass(frozen=True, repr=False)
class Grade(Result):
    """One keep decision graded: the best hold, the player's, what the difference costs and why."""

    index: int
    hand: list[str]
    dealt: str
    objective: str
    answer: str
    best: list[str]
    best_draw: int
    chosen: list[str]
    chosen_draw: int
    best_value: float
    chosen_value: float
    cost: float                  # best value - chosen value (objective units; 0 for the best hold)
    cost_se: float               # 0 when exact
    exact: bool
    mistake: bool                # exact: any cost; sampled: more than two standard errors
    pattern: str                 # the best hold's type (a key of PATTERNS)
    best_pattern: str
    chosen_pattern: str
    why: str
    seed: int | None = None

    @property
    def kind(self) -> str:
        return "keep"

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict())


@dataclass(frozen=True, repr=False)
class ReadGrade(Result):
    """One reading graded: the likeliest holding and our equity, against the player's answer."""

    index: int
    hand: list[str]
    draw: int
    answer: str
    answer_class: str
    answer_equity: float
    likely: str
    likely_p: float
    classes: dict[str, float]
    equity: float                # our best hold's equity against them (Monte Carlo)
    equity_se: float
    best: list[str]
    band: float                  # an equity answer within this of ``equity`` counts as right
    class_right: bool
    equity_right: bool
    why: str

    @property
    def kind(self) -> str:
        return "read"

    @property
    def mistake(self) -> bool:
        return not (self.class_right and self.equity_right)

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict())


def grade(question: Position, answer: Answer) -> Grade:
    """Grade a hold answer: cost against the best hold (± its standard error when sampled)."""
    result = question.result
    rank = ranking(result)
    rows = result.rows()
    i = next(k for k, r in enumerate(rows) if sorted(r["keep"]) == sorted(answer.keep))
    gap = float(rank.gap[i]) if i else 0.0
    gap_se = float(rank.gap_se[i]) if i else 0.0
    exact = not rank.sampled
    mistake = (gap > 1e-12) if exact else bool(not rank.near_best[i])
    j = i if i else min(1, len(rows) - 1)      # a right answer: why it beats the runner-up
    best, other = (hold_facts(question, k, rows[k], float(rank.value[k])) for k in (0, j))
    because = why_points(rows[0], rows[j]) if "points_trick" in rows[0] else why(best, other, question.objective)
    return Grade(question.index, format_cards(question.hand), question.dealt, question.objective, answer.text,
                 list(rows[0]["keep"]), int(rows[0]["draw"]), list(rows[i]["keep"]), int(rows[i]["draw"]),
                 float(rank.value[0]), float(rank.value[i]), gap, gap_se, exact, mistake, question.pattern,
                 hold_pattern_label(question.codes[0]), hold_pattern_label(question.codes[i]),
                 because, question.seed)


def grade_read(question: ReadQuestion, answer: Answer) -> ReadGrade:
    """Grade a reading: the class must be the posterior's likeliest, the equity within the band."""
    best = question.reading.equity[0]
    band = max(READ_BAND, 2 * best.equity_se)
    likely = question.likely
    top = list(question.classes.items())[:3]
    told = ", ".join(f"{c} {100 * p:.0f}%" for c, p in top)
    words = {0: "standing pat", 1: "drawing one", 2: "drawing two", 3: "drawing three"}.get(
        question.draw, f"drawing {question.draw}")
    line = (f"{words} they hold {told}; you win {_pc(best.equity)} keeping {_shown(best.keep) or 'nothing'}, "
            f"draw {best.draw}")
    return ReadGrade(question.index, format_cards(question.hand), question.draw, answer.text,
                     answer.read_class or "", float(answer.read_equity or 0.0), likely, question.classes[likely],
                     dict(question.classes), best.equity, best.equity_se, list(best.keep), band,
                     answer.read_class == likely or math.isclose(question.classes.get(answer.read_class or "", -1.0),
                                                                 question.classes[likely]),
                     abs(float(answer.read_equity or 0.0) - best.equity) <= band, line)


# --- why ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HoldFacts:
    """The exact figures of one hold that explain it: final-hand odds, outs, the objective's value."""

    keep: tuple[str, ...]
    draw: int
    code: int                    # hold pattern code
    label: str
    cats: tuple[float, ...]      # exact chance of each final category (CATEGORIES order)
    value: float                 # the objective's value (equity, chance of jacks, points)
    unseen: int                  # cards it draws from

    @property
    def kind(self) -> int:
        return self.code >> 8 if self.code < 1 << 13 else -1

    def at_least(self, category: int) -> float:
        return float(sum(self.cats[category:]))


def hold_facts(question: Position, k: int, row: Mapping[str, Any], value: float) -> HoldFacts:
    """The figures of the k-th ranked hold of a keep question."""
    rs = question.result.rules
    cats = tuple(float(row.get(c, 0.0)) for c in CATEGORIES)
    code = question.codes[k]
    return HoldFacts(tuple(row["keep"]), int(row["draw"]), code, hold_pattern_label(code), cats, value,
                     rs.deck_size - 5)


def _pc(p: float) -> str:
    return f"{100 * p:.1f}%"


K = HoldKind
_PAIRS = {K.PAIR, K.PAIR_K, K.PAIR_KK}
_MADE = {*_PAIRS, K.TRIPS, K.TRIPS_K, K.TWO_PAIR, K.QUADS}
_DRAWS = {K.ROYAL_DRAW, K.SF_DRAW, K.FLUSH_DRAW, K.STRAIGHT_DRAW}
_HIGH = {K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW, K.ONE_CARD, K.UNRELATED, K.DISCARD}
_AT_LEAST = {1: "a pair", 2: "two pair", 3: "trips", 4: "a straight", 5: "a flush", 6: "a full house",
             7: "four of a kind", 8: "a straight flush", 9: "five of a kind"}
_MADE_WORDS = {1: "pair", 2: "two pair", 3: "trips", 4: "straight", 5: "flush", 6: "full house",
               7: "four of a kind", 8: "straight flush", 9: "five of a kind"}
_COUNT_WORDS = ("none", "one", "two", "three", "four", "five")


def _shown(cards: Sequence[str]) -> str:
    return " ".join(format_cards(parse_cards(list(cards), joker=True), pretty=True))


def _hold(f: HoldFacts) -> str:
    return "standing pat" if f.draw == 0 else f"{_shown(f.keep) or 'nothing'} drawing {f.draw}"


def _ranks(f: HoldFacts) -> list[int]:
    """The ranks of the kept cards, highest first (the joker left out)."""
    return sorted((c // 4 for c in parse_cards(list(f.keep), joker=True) if c != JOKER), reverse=True)


def _group_rank(f: HoldFacts) -> int:
    """The rank of the hold's pair, trips or quads (the higher pair of two pair)."""
    ranks = _ranks(f)
    return max(ranks, key=lambda r: (ranks.count(r), r))


def _group(f: HoldFacts) -> set[str]:
    """The kept cards that make a pair, trips or quads."""
    ranks = [c // 4 for c in parse_cards(list(f.keep), joker=True)]
    return {c for c, r in zip(f.keep, ranks, strict=True) if ranks.count(r) >= 2}


def _count(f: HoldFacts, category: int) -> int | None:
    """How many of the unseen cards end a one-card draw at ``category`` or better (exact: each
    card gives one final hand), or None for a bigger draw."""
    if f.draw != 1:
        return None
    n = f.at_least(category) * f.unseen
    return round(n) if abs(n - round(n)) < 1e-6 else None


def _odds(f: HoldFacts, category: int, pc: bool = False) -> str:
    """'9 times in 47' on a one-card draw (with the percentage if ``pc``), else a percentage."""
    n = _count(f, category)
    if n is None:
        return _pc(f.at_least(category))
    if n == 0:
        return "never"
    text = f"{'once' if n == 1 else f'{n} times'} in {f.unseen}"
    return f"{text} ({_pc(f.at_least(category))})" if pc else text


def _name(f: HoldFacts) -> str:
    """The hold in a player's words: 'the four-flush', 'the pair of fours', 'ace-king suited'."""
    kind, kept = f.kind, kept_cards(f.code)
    ranks = _ranks(f)
    if kind < 0:
        return _shown(f.keep)
    low = f.code & 0xF
    if kind in (K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW):
        suited = len({c[-1] for c in f.keep}) == 1
        return f"{RANK_NAMES[ranks[0]]}-{RANK_NAMES[ranks[1]]}" + (" suited" if suited else "")
    if kind in (K.FLUSH_DRAW, K.STRAIGHT_DRAW, K.SF_DRAW, K.ROYAL_DRAW) and kept == 3:
        what = {K.FLUSH_DRAW: "a flush", K.STRAIGHT_DRAW: "a straight", K.SF_DRAW: "a straight flush",
                K.ROYAL_DRAW: "a royal"}[HoldKind(kind)]
        return f"three to {what}"
    if kind in (K.PAIR, K.PAIR_K, K.PAIR_KK, K.TRIPS, K.TRIPS_K, K.QUADS, K.PAIR_PAT, K.TRIPS_PAT, K.QUADS_PAT):
        plural = RANK_PLURALS[_group_rank(f)]
        kickers = [RANK_NAMES[r] for r in ranks if ranks.count(r) == 1]
        return {K.PAIR: f"the pair of {plural}", K.PAIR_K: f"the {plural} and the {kickers[0] if kickers else 'joker'}",
                K.PAIR_KK: f"the {plural} and two kickers", K.TRIPS: f"three {plural}",
                K.TRIPS_K: f"three {plural} and a kicker", K.QUADS: f"four {plural}",
                K.PAIR_PAT: f"the pat pair of {plural}", K.TRIPS_PAT: f"the pat three {plural}",
                K.QUADS_PAT: f"the pat four {plural}"}[HoldKind(kind)]
    names: dict[int, str] = {
        K.DISCARD: "drawing five", K.ONE_CARD: f"the {RANK_NAMES[ranks[0]] if ranks else 'joker'} alone",
        K.UNRELATED: _shown(f.keep), K.FLUSH_DRAW: "the four-flush",
        K.STRAIGHT_DRAW: "the inside straight draw" if low >> 3 else "the open-ended draw",
        K.SF_DRAW: "four to a straight flush", K.ROYAL_DRAW: "four to a royal", K.TWO_PAIR: "two pair",
        K.TWO_PAIR_PAT: "the pat two pair", K.FULL_HOUSE: "the pat full house", K.PAT_FLUSH: "the pat flush",
        K.PAT_STRAIGHT: "the pat straight", K.PAT_SF: "the pat straight flush",
        K.PAT_NOTHING: f"{RANK_NAMES[ranks[0]]} high" if ranks else "nothing",
    }
    return names.get(kind, _shown(f.keep))


def _subject(f: HoldFacts) -> str:
    """The hold as the subject of a sentence: its name, and the draw when the name does not say it."""
    if f.draw == 0 and f.kind == K.PAT_NOTHING:
        return f"standing pat on {_name(f)}"
    if f.draw == 0 or f.kind == K.DISCARD or (f.kind in _DRAWS and kept_cards(f.code) + f.draw == 5):
        return _name(f)
    return f"{_name(f)} drawing {_COUNT_WORDS[f.draw] if f.draw < len(_COUNT_WORDS) else f.draw}"


@dataclass(frozen=True)
class _Prospect:
    """What a hold does on the draw: a verb phrase and the figure it is measured by."""

    verb: str
    figure: str = ""
    key: int | str = ""          # what the figure counts (a category, or "value": the objective's value)
    p: float = 0.0

    def text(self, only: bool = False) -> str:
        if self.figure == "never":
            return f"never {self.verb}"
        return " ".join(w for w in (self.verb, "only" if only else "", self.figure) if w)


def _prospect(f: HoldFacts, objective: str) -> _Prospect | None:
    """The figure a teacher would quote for this hold: the outs of a draw, a pair's improvement,
    the chance of jacks or better under the jacks objective; None for a hold with no plain figure."""
    kind, kept = f.kind, kept_cards(f.code)
    if kind < 0 or kind == K.QUADS:
        return None
    if f.draw == 0:
        return _Prospect("never improves")
    jacks = objective == "jacks"
    if jacks and f.value >= 1 - 1e-12:
        return _Prospect("already", key="value", p=1.0)
    if kind in _DRAWS and kept == 4:
        cat = 5 if kind == K.FLUSH_DRAW else 4
        verb = "fills" if kind in (K.FLUSH_DRAW, K.STRAIGHT_DRAW) else "hits"
        k = _count(f, 8)
        sf = "" if kind not in (K.SF_DRAW, K.ROYAL_DRAW) else (
            f", {'one a straight flush' if k == 1 else f'{k} of them straight flushes'}"
            if k is not None else f", a straight flush {_pc(f.at_least(8))}")
        n, m = _count(f, cat), round(f.value * f.unseen)
        if jacks and n is not None and m > n and abs(f.value * f.unseen - m) < 1e-6:
            noun = {K.FLUSH_DRAW: "flushes", K.STRAIGHT_DRAW: "straights"}.get(HoldKind(kind), "straights or better")
            return _Prospect("ends jacks or better", f"{m} times in {f.unseen}, {n} of them {noun}", "value", f.value)
        pairs = (_count(f, 1) or 0) - (n or 0)
        more = f", pairs {pairs} more" if pairs > 0 and not jacks and not sf else ""
        return _Prospect(verb, _odds(f, cat, pc=not (sf or more)) + sf + more, "value" if jacks else cat,
                         f.value if jacks else f.at_least(cat))
    if jacks:
        return _Prospect("ends jacks or better", _value_odds(f), "value", f.value)
    if kind in _DRAWS and kept == 3:
        cat = 5 if kind == K.FLUSH_DRAW else 4
        made = "a flush" if cat == 5 else "a straight or better"
        return _Prospect("ends a pair or better", f"{_pc(f.at_least(1))} ({made} {_pc(f.at_least(cat))})", 1,
                         f.at_least(1))
    if kind in _PAIRS:
        return _Prospect("improves", _odds(f, 2), 2, f.at_least(2))
    if kind == K.TWO_PAIR:
        return _Prospect("fills up", _odds(f, 6), 6, f.at_least(6))
    if kind in (K.TRIPS, K.TRIPS_K):
        return _Prospect("improves", _odds(f, 6), 6, f.at_least(6))
    return _Prospect("ends a pair or better", _pc(f.at_least(1)), 1, f.at_least(1))


def _value_odds(f: HoldFacts) -> str:
    """The chance of jacks or better: a count of the unseen cards on a one-card draw, else a percentage."""
    m = f.value * f.unseen
    if f.draw == 1 and abs(m - round(m)) < 1e-6:
        return "never" if round(m) == 0 else f"{round(m)} times in {f.unseen}"
    return _pc(f.value)


def _only_fig(figure: str) -> str:
    return figure if figure == "never" else f"only {figure}"


def _only(a: _Prospect, b: _Prospect) -> bool:
    """Whether the other hold's figure reads 'only': both count the same thing and it shows less."""
    return a.key == b.key != "" and b.p < a.p - 1e-12 and a.figure != b.figure


def _say(f: HoldFacts, p: _Prospect, only: bool = False, subject: str | None = None) -> str:
    """'<hold> <does this>'; a hold already jacks or better says just that."""
    if p.verb == "already":
        name = subject or _name(f)
        plural = name.startswith(("three ", "four ", "the pat three", "the pat four")) and " to " not in name
        return f"{name} {'are' if plural else 'is'} jacks or better already"
    return f"{subject or _subject(f)} {p.text(only)}"


def _say_other(f: HoldFacts, a: _Prospect, b: _Prospect, subject: str) -> str:
    """The other hold's half of a line; a verb the best hold's half just used is not repeated."""
    if a.verb == b.verb and a.key == b.key and b.verb != "already" and b.figure != "never":
        return f"{subject} {'only ' if _only(a, b) else ''}{b.figure}"
    return _say(f, b, _only(a, b), subject)


def _values(best: HoldFacts, other: HoldFacts, objective: str) -> str:
    """The objective's figures of the two holds: 'equity 14.1% to 13.0%'."""
    if objective == "points":
        return f"{best.value:.3f} points to {other.value:.3f}"
    what = "equity" if objective == "equity" else "jacks or better"
    if abs(best.value - other.value) < 1e-12:
        return "both jacks or better" if objective == "jacks" and best.value >= 1 - 1e-12 else \
            f"{what} {_pc(best.value)} either way"
    return f"{what} {_pc(best.value)} to {_pc(other.value)}"


def _with_values(line: str, best: HoldFacts, other: HoldFacts, objective: str, quoted: tuple[float, float] = (-1, -1),
                 ) -> str:
    """The line and the objective's figures, unless the line quotes them already (jacks or better)."""
    if objective == "jacks" and abs(quoted[0] - best.value) < 1e-12 and abs(quoted[1] - other.value) < 1e-12:
        return line
    return f"{line}; {_values(best, other, objective)}"


def _why_snow(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The other hold stands pat with nothing: it never improves, and wins only if everyone ends worse."""
    a = _prospect(best, objective)
    if other.kind != K.PAT_NOTHING or a is None:
        return None
    never = {"jacks": "is never jacks or better", "equity": "wins only if everyone ends worse"}.get(
        objective, "never improves")
    line = f"a snow: {_name(other)} {never}; {_say(best, a)}"
    return _with_values(line, best, other, objective, (a.p if a.key == "value" else -1, other.value))


def _why_break_pat(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The best hold stands pat on a made hand the other breaks (or draws to)."""
    if best.draw != 0 or other.draw == 0 or best.kind in (K.PAT_NOTHING, -1):
        return None
    cat = int(np.argmax(best.cats))
    if cat == 0:
        return None
    made = _MADE_WORDS[cat]
    if set(other.keep) < set(best.keep) and other.at_least(cat) >= 1 - 1e-12:
        return (f"{_subject(other)} improves {_odds(other, cat + 1)}, but standing pat on the {made} does "
                f"better; {_values(best, other, objective)}")
    k = _count(other, 8)
    sf = "" if other.kind not in (K.SF_DRAW, K.ROYAL_DRAW) or cat >= 8 else (
        f", a straight flush {_odds(other, 8)}" if k is None or k < 2 else f", {k} of them straight flushes")
    return (f"breaking the pat {made} for {_name(other)}: {_AT_LEAST[cat]} or better only "
            f"{_odds(other, cat, pc=not sf)}{sf}; {_values(best, other, objective)}").replace("only never", "never")


def _why_kicker(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The other hold keeps the best one's pair, trips or two pair plus a kicker (or stands pat on them)."""
    if best.kind not in _MADE - {K.QUADS} or not set(best.keep) < set(other.keep):
        return None
    extra = _shown([c for c in other.keep if c not in best.keep])
    if best.kind == K.TWO_PAIR:
        if objective == "jacks" and abs(best.value - other.value) < 1e-12:
            return f"two pair drawing one fills up {_odds(best, 6, pc=True)}; the {extra} kicker adds nothing"
        return (f"two pair drawing one fills up {_odds(best, 6)}; " +
                (f"standing pat with the {extra} never improves" if other.draw == 0
                 else f"keeping the {extra} too, {_odds(other, 6)}") + f"; {_values(best, other, objective)}")
    if objective == "jacks" and best.value < 1 - 1e-12:
        figures = (best.value, other.value)
        improve, a, b = "ends jacks or better", _pc(best.value), _pc(other.value)
    else:
        cat = 6 if best.kind in (K.TRIPS, K.TRIPS_K) else 2
        figures = (-1, -1)
        improve = "improves"
        a, b = _odds(best, cat, pc=True), _odds(other, cat, pc=True)
    name = _name(best).replace("the pair", "a pair")
    kicker = "kicker" if other.draw == best.draw - 1 else "kickers"
    keeping = (f"standing pat with the {extra} never improves" if other.draw == 0
               else f"with the {extra} {kicker} only {b}")
    draws = _COUNT_WORDS[best.draw]
    return _with_values(f"{name} drawing {draws} {improve} {a}; {keeping}", best, other, objective, figures)


def _why_extra_kicker(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The best hold keeps a kicker the other throws: fewer improvements, but better ones."""
    if other.kind not in _MADE - {K.QUADS} or not set(other.keep) < set(best.keep) or _group(best) != _group(other):
        return None
    extra = [c for c in best.keep if c not in other.keep]
    cat = 6 if other.kind in (K.TRIPS, K.TRIPS_K) else 2
    plural = RANK_PLURALS[_group_rank(other)]
    count = "three " if other.kind in (K.TRIPS, K.TRIPS_K) else ""
    kicker = "kicker" if len(extra) == 1 else "kickers"
    line = f"with the {_shown(extra)} {kicker} the {count}{plural} improve {_odds(best, cat)}, drawing "
    line += f"{_COUNT_WORDS[other.draw]} {_odds(other, cat)}"
    kicks = [r for r in _ranks(best) if _ranks(best).count(r) == 1]
    if other.kind in _PAIRS and len(kicks) == 1 and kicks[0] > _group_rank(other) and \
            best.at_least(cat) < other.at_least(cat):
        line += f", but pairing the {RANK_NAMES[kicks[0]]} makes {RANK_PLURALS[kicks[0]]} up"
    return f"{line}; {_values(best, other, objective)}"


def _why_plain(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """Each hold's own figure side by side: a draw's outs, a pair's improvement, high cards' pairing;
    'breaking' when the other throws part of the best hold's pair, trips or two pair."""
    a, b = _prospect(best, objective), _prospect(other, objective)
    if a is None or b is None or (best.draw == 0 and other.draw == 0):
        return None
    group = _group(best) if best.kind in _MADE else set()
    if group and not group <= set(other.keep):
        return _broken(best, other, objective, a, b, "breaking" if group & set(other.keep) else "throwing")
    if a.key == b.key and a.figure == b.figure:      # level on the quoted figure: say where they differ
        return None
    quoted = (a.p if a.key == "value" else -1.0, b.p if b.key == "value" else -1.0)
    if set(best.keep) < set(other.keep):
        other_subject = f"adding the {_shown([c for c in other.keep if c not in best.keep])}"
    elif set(other.keep) < set(best.keep) and other.kind in _HIGH:
        other_subject = f"throwing the {_shown([c for c in best.keep if c not in other.keep])}"
    else:
        other_subject = _subject(other)
    line = f"{_say(best, a)}; {_say_other(other, a, b, other_subject)}"
    return _with_values(line, best, other, objective, quoted)


def _broken(best: HoldFacts, other: HoldFacts, objective: str, a: _Prospect, b: _Prospect, verb: str) -> str:
    """The other hold throws (part of) the best one's pair, trips or two pair: what that gives up."""
    mine = _name(best)
    if objective == "jacks" and a.verb == "already" and b.verb != "already":
        mine = f"{mine}, already jacks or better,"
    lead = f"{verb} {mine} for {_subject(other) if other.kind not in _DRAWS else _name(other)}"
    if objective == "jacks" and b.key == "value" and b.p < a.p:
        instead = "" if a.verb == "already" else f" instead of {a.figure}"
        return f"{lead}: jacks or better {_only_fig(b.figure)}{instead}"
    if other.kind in _DRAWS and kept_cards(other.code) == 4 and a.key != "value":
        return f"{_say(best, a)}; {lead}, which {b.text()}; {_values(best, other, objective)}"
    made = max(c for c in range(len(best.cats)) if best.at_least(c) >= 1 - 1e-12)
    return f"{lead}: {_AT_LEAST[made]} or better {_only_fig(_odds(other, made))}; {_values(best, other, objective)}"


def _why_compare(best: HoldFacts, other: HoldFacts, objective: str) -> str:
    """Fallback: the exact figure where the two holds differ most, and the objective's values."""
    gain, c = max((best.at_least(c) - other.at_least(c), c) for c in range(1, len(best.cats)))
    if gain <= 1e-12:   # ahead on no threshold: the value alone decides (it counts the whole table)
        gain, c = max((abs(best.at_least(c) - other.at_least(c)), c) for c in range(1, len(best.cats)))
    if gain < 1e-12:    # level on every final hand: the ranks of what they make decide
        mine, theirs = (_name(best), _name(other)) if _name(best) != _name(other) else (_hold(best), _hold(other))
        higher = f", but {mine} pairs higher" if best.kind in _HIGH and _ranks(best) > _ranks(other) else ""
        return f"{mine} and {theirs} end alike{higher}; {_values(best, other, objective)}"
    return (f"{_hold(best)} ends {_AT_LEAST[c]} or better {_pc(best.at_least(c))}, {_hold(other)} "
            f"{_pc(other.at_least(c))}; {_values(best, other, objective)}")


def why_points(best: Mapping[str, Any], other: Mapping[str, Any]) -> str:
    """Poengpoker and Chicago: the points this deal of two holds, split into best hand and last trick."""
    def part(row: Mapping[str, Any]) -> str:
        return f"{row['points_hand']:.3f} + {row['points_trick']:.3f} = {row['points']:.3f}"

    what = "nothing" if not len(best["keep"]) else _shown(best["keep"])
    if best["keep"] == other["keep"]:
        return f"keeping {what} scores {part(best)} points this deal (best hand + last trick)"
    hand = best["points_hand"] - other["points_hand"]
    trick = best["points_trick"] - other["points_trick"]
    lead = "the last trick decides" if abs(trick) >= abs(hand) else "the best hand decides"
    rival = "nothing" if not len(other["keep"]) else _shown(other["keep"])
    return (f"{lead}: keeping {what} scores {part(best)} points this deal (best hand + last trick), "
            f"keeping {rival} {part(other)}")


WHY_RULES = (_why_snow, _why_break_pat, _why_kicker, _why_extra_kicker, _why_plain)
WHY_WIDTH = 130      # a longer line drops its bracketed percentages; one past 140 is said the short way


def why(best: HoldFacts, other: HoldFacts, objective: str) -> str:
    """One line on why the best hold beats the other, in a player's words, from their exact figures:
    the first of ``WHY_RULES`` that fits, else (and with the joker) the figure where the two differ most."""
    if best.keep == other.keep:
        return f"{_hold(best)}: the only legal hold"
    if any(JOKER in parse_cards(list(f.keep), joker=True) for f in (best, other)):   # no kicker, no out
        return _why_compare(best, other, objective)
    for rule in WHY_RULES:
        line = rule(best, other, objective)
        if line:
            if len(line) > WHY_WIDTH:
                line = re.sub(r" \([^)]*\)", "", line)
            return line if len(line) <= WHY_WIDTH + 10 else _why_compare(best, other, objective)
    return _why_compare(best, other, objective)


# --- records and the summary ---------------------------------------------------------------------

def history_record(item: Grade | ReadGrade, setup: TrainSetup, session: int) -> dict[str, Any]:
    """The history line of one graded question (the time is added when it is written)."""
    base = {"session": session, "kind": item.kind, "rules": setup.rules.name, "objective": setup.objective,
            "opponents": setup.opponents, "mistake": item.mistake}
    if isinstance(item, Grade):
        return base | {"pattern": item.pattern, "hand": item.hand, "answer": item.answer, "best": item.best,
                       "chosen": item.chosen, "cost": item.cost, "cost_se": item.cost_se}
    return base | {"hand": item.hand, "draw": item.draw, "answer": item.answer, "likely": item.likely,
                   "equity": item.equity, "class_right": item.class_right, "equity_right": item.equity_right}


@dataclass(frozen=True, repr=False)
class PatternRow(Result):
    """Mistakes on one pattern: this session, all sessions, and its weight in the next deals."""

    pattern: str
    name: str
    decisions: int
    mistakes: int
    cost: float
    all_decisions: int
    all_mistakes: int
    weight: float

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict())


@dataclass(frozen=True, repr=False)
class SessionRow(Result):
    """One session's keep decisions and mistakes (under the same rules and objective)."""

    session: int
    decisions: int
    mistakes: int

    @property
    def rate(self) -> float:
        return self.mistakes / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict() | {"mistake_rate": self.rate})


@dataclass(frozen=True, repr=False)
class TrainingSummary(Result):
    """A session's score, its mistakes by pattern, progress over sessions and every graded answer."""

    rules: str
    objective: str
    opponents: int
    unit: str
    seed: int
    session: int
    decisions: int
    mistakes: int
    cost: float
    cost_se: float
    reads: int
    reads_right: int
    all_decisions: int           # every session under these rules and objective, this one included
    all_mistakes: int
    patterns: tuple[PatternRow, ...] = field(metadata=shown_as(list))
    sessions: tuple[SessionRow, ...] = field(metadata=shown_as(list))
    grades: tuple[Grade, ...] = field(metadata=shown_as(list))
    readings: tuple[ReadGrade, ...] = field(metadata=shown_as(list))
    history: str | None = None
    stopped: str = "end"         # quit, hands (--hands reached), end (no more answers)

    def to_dict(self) -> dict[str, Any]:
        return _rounded(super().to_dict())


def summarise(setup: TrainSetup, items: Sequence[Grade | ReadGrade], records: Sequence[Mapping[str, Any]],
              session: int, seed: int, history: str | None = None, stopped: str = "end") -> TrainingSummary:
    """The session's score and tables; ``records`` is the history before this session."""
    grades = tuple(g for g in items if isinstance(g, Grade))
    reads = tuple(g for g in items if isinstance(g, ReadGrade))
    now = [history_record(g, setup, session) for g in items]
    every = [r for r in (*records, *now) if r.get("kind") == "keep" and _same_game(r, setup)]
    weights = pattern_weights(every, setup)
    rows = []
    for slug in PATTERNS:
        mine = [g for g in grades if g.pattern == slug]
        ever = [r for r in every if r.get("pattern") == slug]
        if ever:
            rows.append(PatternRow(slug, PATTERN_NAMES[slug], len(mine), sum(g.mistake for g in mine),
                                   sum(g.cost for g in mine), len(ever), sum(bool(r.get("mistake")) for r in ever),
                                   weights.get(slug, 1.0)))
    sessions: dict[int, list[int]] = {}
    for r in every:
        tally = sessions.setdefault(int(r["session"]), [0, 0])
        tally[0] += 1
        tally[1] += bool(r.get("mistake"))
    return TrainingSummary(
        setup.rules.name, setup.objective, setup.opponents, setup.unit, seed, session, len(grades),
        sum(g.mistake for g in grades), sum(g.cost for g in grades),
        math.sqrt(sum(g.cost_se**2 for g in grades)), len(reads), sum(not r.mistake for r in reads),
        len(every), sum(bool(r.get("mistake")) for r in every), tuple(rows),
        tuple(SessionRow(s, n, m) for s, (n, m) in sorted(sessions.items())), grades, reads, history, stopped)


# --- a session ------------------------------------------------------------------------------------

PROMPTS = {"keep": "Keep? ", "read": "Read? "}


@dataclass(frozen=True)
class Welcome:
    """Shown first: what the session drills, and the player's record so far."""

    setup: TrainSetup
    records: tuple[Mapping[str, Any], ...]
    session: int
    seed: int


@dataclass(frozen=True)
class Score:
    """Shown on 'score': the session's graded answers so far."""

    items: tuple[Grade | ReadGrade, ...]
    objective: str


@dataclass(frozen=True)
class Help:
    """Shown on 'help': how to answer."""

    text: str = HELP


def _no_busy() -> AbstractContextManager[object]:
    return contextlib.nullcontext()


def run_session(setup: TrainSetup, ask: Callable[[str], str | None], show: Callable[[object], None], *,
                history: str | Path | None = None, hands: int | None = None, seed: int | None = None,
                busy: Callable[[], AbstractContextManager[object]] = _no_busy) -> TrainingSummary:
    """Play a session: deal, ``ask(prompt)`` for each answer (None ends the session), grade it,
    save it to ``history`` (none kept when None) and return the summary.

    ``show`` receives, in order, a ``Welcome``, then each question (``Position``/``ReadQuestion``),
    ``AnswerError``, ``Help``, ``Score``, and graded answer (``Grade``/``ReadGrade``); ``busy()`` wraps
    each deal (a spinner). Ctrl-C ends the session with what was graded (stopped: interrupted)."""
    records = list(load_history(history)) if history is not None else []
    session = next_session(records)
    seed = seed if seed is not None else int(np.random.SeedSequence().entropy % 2**32)  # type: ignore[operator]
    rng = np.random.default_rng(seed)
    show(Welcome(setup, tuple(records), session, seed))
    items: list[Grade | ReadGrade] = []
    now: list[dict[str, Any]] = []
    stopped = "hands"
    try:
        while hands is None or len(items) < hands:
            with busy():
                question = next_question(setup, records + now, len(items) + 1, rng)
            show(question)
            answer = _answer(question, setup, ask, show, items)
            if answer is None or answer.kind == "quit":
                stopped = "end" if answer is None else "quit"
                break
            graded = grade(question, answer) if isinstance(question, Position) else grade_read(question, answer)
            show(graded)
            record = history_record(graded, setup, session)
            if history is not None:
                append_history(history, record | {
                    "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")})
            items.append(graded)
            now.append(record)
    except KeyboardInterrupt:
        stopped = "interrupted"
    return summarise(setup, items, records, session, seed, None if history is None else str(history), stopped)


def _answer(question: Question, setup: TrainSetup, ask: Callable[[str], str | None], show: Callable[[object], None],
            items: Sequence[Grade | ReadGrade]) -> Answer | None:
    """The next gradable answer (or quit), asking again after a bad one, help or the score; None at the end."""
    while True:
        text = ask(PROMPTS[question.kind])
        if text is None:
            return None
        try:
            answer = parse_answer(text, question, setup.rules)
        except AnswerError as exc:
            show(exc)
            continue
        if answer.kind == "help":
            show(Help())
        elif answer.kind == "score":
            show(Score(tuple(items), setup.objective))
        else:
            return answer


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"
