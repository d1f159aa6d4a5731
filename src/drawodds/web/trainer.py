"""The trainer's sessions on the server: each browser's session (a random token in its page) holds its
set-up, the question on the table and the graded answers; every graded answer is added to the
history file the server keeps (the same file `drawodds train` keeps), so the deals lean towards the
patterns this player misses, visit after visit."""

from __future__ import annotations

import datetime
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from drawodds.cards import format_cards
from drawodds.errors import RequestError
from drawodds.trainer import (
    Grade,
    Position,
    Question,
    TrainingSummary,
    TrainSetup,
    append_history,
    grade,
    history_record,
    load_history,
    next_question,
    next_session,
    parse_answer,
    summarise,
    train_setup,
)

SESSIONS = 64        # sessions remembered at once (the oldest is forgotten first)


@dataclass
class Session:
    """One trainer session: its set-up, random stream, the question asked and the answers graded."""

    setup: TrainSetup
    number: int
    seed: int
    records: tuple[dict[str, Any], ...]        # the history before this session
    rng: np.random.Generator
    question: Question | None = None
    graded: list[Grade] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def deal(self) -> Question:
        """The next question (``trainer.next_question``, weighted by the history and this session)."""
        now = [history_record(g, self.setup, self.number) for g in self.graded]
        self.question = next_question(self.setup, [*self.records, *now], len(self.graded) + 1, self.rng)
        return self.question

    def summary(self, history: Path) -> TrainingSummary:
        return summarise(self.setup, self.graded, self.records, self.number, self.seed, str(history))


class Sessions:
    """The sessions of this server, by token, and the history file they write."""

    def __init__(self, history: Path) -> None:
        self.history = history
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, rules: str, objective: str | None) -> tuple[str, Session]:
        """A new session of keep questions (the library checks the rules and the objective)."""
        setup = train_setup(rules, objective=objective, drill="keep")
        records = load_history(self.history)
        seed = int(np.random.SeedSequence().entropy % 2**32)  # type: ignore[operator]
        session = Session(setup, next_session(records), seed, records, np.random.default_rng(seed))
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._sessions[token] = session
            while len(self._sessions) > SESSIONS:
                self._sessions.popitem(last=False)
        return token, session

    def get(self, token: str | None) -> Session | None:
        with self._lock:
            return self._sessions.get(token or "")

    def answer(self, session: Session, kept: list[str]) -> Grade:
        """Grade the cards kept for the question on the table and add the grade to the history."""
        question = session.question
        if not isinstance(question, Position):
            raise RequestError("no hand is dealt: start a session")
        text = " ".join(kept) if kept else "throw " + " ".join(format_cards(question.hand))
        graded = grade(question, parse_answer(text, question, session.setup.rules))
        record = history_record(graded, session.setup, session.number)
        append_history(self.history, record | {
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")})
        session.graded.append(graded)
        return graded
