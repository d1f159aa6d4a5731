"""A session: deal, ask, grade, save, and return the summary."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from drawodds.errors import TRAIN_HANDS, check_seed
from drawodds.i18n import N_, gettext
from drawodds.trainer.answers import HELP, Answer, AnswerError, parse_answer
from drawodds.trainer.drills import TrainSetup
from drawodds.trainer.grading import Grade, ReadGrade, grade, grade_read
from drawodds.trainer.history import append_history, load_history, next_session
from drawodds.trainer.questions import Position, Question, next_question
from drawodds.trainer.summary import TrainingSummary, history_record, summarise

PROMPTS = {"keep": N_("Keep? "), "read": N_("Read? ")}


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
    """Shown on 'help': how to answer (``text``: the catalog's English, said when shown)."""

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
    TRAIN_HANDS.check(hands)
    check_seed(seed)
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
        text = ask(gettext(PROMPTS[question.kind]))
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
