"""The questions: a keep question ranks every hold of a deal, a reading question reads an opponent's draw count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.analyses.keep import KeepResult, keep
from drawodds.analyses.read import DrawReading, read_draw
from drawodds.cards import card_str, format_cards
from drawodds.errors import RequestError
from drawodds.evaluate import describe, evaluate
from drawodds.kinds import Category, HoldType, PolicyPattern, ReadClass
from drawodds.patterns import hold_pattern_codes, hold_type
from drawodds.results import HIDDEN, Result, shown_as
from drawodds.trainer.dealing import _random_deals, choose_deal
from drawodds.trainer.drills import TrainSetup
from drawodds.trainer.history import pattern_weights

READ_EVERY = 4            # mixed drill: every fourth question is a reading


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
    pattern = HoldType(int(hold_type(codes[0]))).slug
    return Position(index, cards, setup.objective, result, pattern, tuple(codes),
                    seed if setup.opponents else None)


def hold_codes(hand: npt.NDArray[np.integer], holds: Sequence[Sequence[str]], joker: bool = False) -> list[int]:
    """The hold pattern code (``drawodds.patterns``) of each hold (its kept cards) of the hand."""
    deal = np.sort(np.asarray(hand, dtype=np.int64))
    codes = hold_pattern_codes(deal[None, :], joker)[0]
    names = [card_str(int(c)) for c in deal]
    return [int(codes[sum(1 << i for i, c in enumerate(names) if c in set(kept))]) for kept in holds]


def read_class(label: str) -> str:
    """A posterior label of ``drawodds.sim.ranges`` as an answer class (a ``kinds.ReadClass`` slug:
    'pair_of_kings' -> 'pair', 'open_ended' -> 'open-ended', 'pat_flush' -> 'flush')."""
    if label.startswith("pair_of_"):
        return ReadClass.PAIR.slug
    pat = f"{PolicyPattern.PAT.slug}_"
    if label.startswith(pat):
        return ReadClass.of_pattern(PolicyPattern.PAT, Category.from_slug(label[len(pat):])).slug
    return ReadClass.of_pattern(PolicyPattern.from_slug(label)).slug


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
    raise RequestError("no draw count can be read under {rule_set} with the '{policy}' policy", rule_set=rs.name,
                       policy=setup.policy)


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
