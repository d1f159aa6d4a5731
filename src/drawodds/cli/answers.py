"""The answers `drawodds train` reads: typed at the prompt, or one a line from a file or a pipe."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from drawodds.cli.errors import refuse
from drawodds.i18n import N_, _, number

MAX_ANSWER = 1000              # characters in one answer line: longer is not an answer (/dev/zero never ends)
MAX_ANSWERS_FILE = 10_000_000  # bytes in an answers file


def answer_lines(answers: str | None) -> Iterator[str] | None:
    """The answers to read, one a line ('-': standard input), or None to ask at the prompt. Any
    path that is not a folder reads: a file, /dev/stdin, a pipe such as <(...). Each line is at
    most ``MAX_ANSWER`` characters; a file is checked whole before the session starts, a pipe
    or device a line at a time as the answers are needed (its first line at once)."""
    if (answers is None or answers == "-") and sys.stdin is None:
        raise refuse(N_("standard input is closed: nothing can be answered; give the answers in a file with "
                        "--answers FILE"))
    if answers is None:
        return None
    if answers == "-":
        stream: Any = getattr(sys.stdin, "buffer", sys.stdin)
    else:
        path = Path(answers)
        if path.is_dir():
            raise refuse(N_("--answers {path}: is a folder, not a file"), path=answers)
        if not path.exists():
            raise refuse(N_("--answers {path}: no such file"), path=answers)
        try:
            stream = path.open("rb")
        except OSError as exc:
            raise refuse(N_("--answers {path}: {reason}"), path=answers,
                         reason=exc.strerror or _("cannot be read")) from None
        if path.is_file():
            with stream:
                if path.stat().st_size > MAX_ANSWERS_FILE:
                    raise refuse(N_("--answers {path}: larger than {size} MB; one short answer a line"),
                                 path=answers, size=MAX_ANSWERS_FILE // 1_000_000)
                return iter(list(bounded_lines(stream, answers)))
    lines = bounded_lines(stream, answers)
    first = next(lines, None)
    return iter(()) if first is None else itertools.chain([first], lines)


def bounded_lines(stream: Any, name: str) -> Iterator[str]:
    """The lines of a stream (bytes, or text already decoded) as text, refusing a line over
    ``MAX_ANSWER`` characters or bytes that are not UTF-8."""
    while raw := stream.readline(MAX_ANSWER + 1):
        if len(raw) > MAX_ANSWER and raw[-1:] not in (b"\n", "\n"):
            raise refuse(N_("--answers {path}: a line is longer than {size} characters; one answer a line"),
                         path=name, size=number(MAX_ANSWER, grouped=True))
        try:
            yield (raw.decode("utf-8") if isinstance(raw, bytes) else raw).rstrip("\r\n")
        except UnicodeDecodeError:
            raise refuse(N_("--answers {path}: not UTF-8 text"), path=name) from None


def ask(console: Console, prompt: str, lines: Iterator[str] | None) -> str | None:
    """One answer: the next line of --answers (echoed after the prompt) or typed; None at the end."""
    if lines is None:
        try:
            return console.input(prompt)
        except EOFError:
            return None
    line = next(lines, None)
    if line is not None:
        line = line.rstrip("\r\n")
        console.print(f"{prompt}{line}", highlight=False)
    return line
