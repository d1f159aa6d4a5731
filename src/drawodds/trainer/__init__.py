"""The trainer (`drawodds train`): deal hands, grade the player's holds and draw readings, remember the mistakes.

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

from drawodds.trainer.answers import HELP, READ_CLASSES, READ_WORDS, Answer, AnswerError, parse_answer
from drawodds.trainer.dealing import BATCH, CLOSE_SCALE, CLOSE_WEIGHT, FOCUS_BATCHES, candidate_weights, choose_deal
from drawodds.trainer.drills import (
    DRILLS,
    OBJECTIVES,
    PATTERN_NAMES,
    PATTERN_WORDS,
    PATTERNS,
    POINTS_TRIALS,
    TRIALS,
    UNITS,
    Objective,
    TrainSetup,
    best_patterns,
    focus_names,
    resolve_pattern,
    train_setup,
)
from drawodds.trainer.grading import JSON_DIGITS, READ_BAND, Grade, ReadGrade, grade, grade_read
from drawodds.trainer.history import (
    ERROR_WEIGHT,
    HISTORY_FILE,
    append_history,
    default_history_path,
    load_history,
    next_session,
    pattern_weights,
)
from drawodds.trainer.phrases import Line, Phrase
from drawodds.trainer.questions import (
    READ_EVERY,
    Position,
    Question,
    ReadQuestion,
    hold_codes,
    next_question,
    position,
    question_kind,
    read_class,
    read_question,
)
from drawodds.trainer.session import PROMPTS, Help, Score, Welcome, plural, run_session
from drawodds.trainer.summary import PatternRow, SessionRow, TrainingSummary, history_record, summarise
from drawodds.trainer.whylines import WHY_RULES, WHY_WIDTH, HoldFacts, hold_facts, why, why_points

__all__ = ["Answer", "AnswerError", "BATCH", "CLOSE_SCALE", "CLOSE_WEIGHT", "DRILLS", "ERROR_WEIGHT",
           "FOCUS_BATCHES", "Grade", "HELP", "HISTORY_FILE", "Help", "HoldFacts", "JSON_DIGITS", "Line",
           "OBJECTIVES", "Objective", "PATTERNS", "PATTERN_NAMES", "PATTERN_WORDS", "POINTS_TRIALS", "PROMPTS",
           "PatternRow", "Phrase", "Position", "Question", "READ_BAND", "READ_CLASSES", "READ_EVERY", "READ_WORDS",
           "ReadGrade", "ReadQuestion", "Score", "SessionRow", "TRIALS", "TrainSetup", "TrainingSummary", "UNITS",
           "WHY_RULES", "WHY_WIDTH", "Welcome", "append_history", "best_patterns", "candidate_weights",
           "choose_deal", "default_history_path", "focus_names", "grade", "grade_read", "history_record",
           "hold_codes", "hold_facts", "load_history", "next_question", "next_session", "parse_answer",
           "pattern_weights", "plural", "position", "question_kind", "read_class", "read_question",
           "resolve_pattern", "run_session", "summarise", "train_setup", "why", "why_points"]
