"""Grading: an answer's cost against the best hold, or a reading against the exact posterior."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from drawodds import i18n
from drawodds.analyses.keep import ranking
from drawodds.cards import format_cards
from drawodds.patterns import hold_pattern_label
from drawodds.results import Result
from drawodds.trainer.answers import READ_WORDS, Answer
from drawodds.trainer.phrases import Line, Percent, Phrase
from drawodds.trainer.questions import Position, ReadQuestion
from drawodds.trainer.whylines import COUNT, NOTHING, _shown, hold_facts, why, why_points

READ_BAND = 0.05          # an equity estimate within 5 points of the pot counts as right
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
    why: str                     # a ``Line``: English here and in JSON, said in the reader's language when shown
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
    with i18n.use(i18n.ENGLISH):          # the grade's words are data (JSON), English in every language
        dealt, patterns = question.dealt, (hold_pattern_label(question.codes[0]), hold_pattern_label(question.codes[i]))
    return Grade(question.index, format_cards(question.hand), dealt, question.objective, answer.text,
                 list(rows[0]["keep"]), int(rows[0]["draw"]), list(rows[i]["keep"]), int(rows[i]["draw"]),
                 float(rank.value[0]), float(rank.value[i]), gap, gap_se, exact, mistake, question.pattern,
                 *patterns, because, question.seed)


def _listed(items: list[Phrase]) -> Phrase:
    """'a, b, c': the items of a list, as the reader's language separates them."""
    line = items[0]
    for item in items[1:]:
        line = Phrase.pgettext("list", "{items}, {item}", items=line, item=item)
    return line


def grade_read(question: ReadQuestion, answer: Answer) -> ReadGrade:
    """Grade a reading: the class must be the posterior's likeliest, the equity within the band."""
    best = question.reading.equity[0]
    band = max(READ_BAND, 2 * best.equity_se)
    likely = question.likely
    top = list(question.classes.items())[:3]
    told = [Phrase.pgettext("reading", "{holding} {percent}", holding=READ_WORDS.get(c, c), percent=Percent(p, 0))
            for c, p in top]
    count = COUNT[question.draw] if question.draw < len(COUNT) else question.draw
    drawing = (Phrase.pgettext("reading", "standing pat") if question.draw == 0 else
               Phrase.pgettext("reading", "drawing {count}", count=count))
    line = Line(Phrase.gettext("{drawing} they hold {holdings}; you win {equity} keeping {cards}, draw {n}",
                               drawing=drawing, holdings=_listed(told), equity=Percent(best.equity),
                               cards=_shown(best.keep) or NOTHING, n=best.draw))
    return ReadGrade(question.index, format_cards(question.hand), question.draw, answer.text,
                     answer.read_class or "", float(answer.read_equity or 0.0), likely, question.classes[likely],
                     dict(question.classes), best.equity, best.equity_se, list(best.keep), band,
                     answer.read_class == likely or math.isclose(question.classes.get(answer.read_class or "", -1.0),
                                                                 question.classes[likely]),
                     abs(float(answer.read_equity or 0.0) - best.equity) <= band, line)
