"""The Python blocks of docs/api.md run as written, in order, in one namespace.

A statement whose comment starts with a Python literal shows its result: ``x = f()  # 4094: ...``
or ``f()  # 'pair of aces, K-7-3'``; the test checks that value.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
_NO_CLAIM = object()


def python_blocks(text: str) -> list[str]:
    """The ```python fenced blocks of a Markdown page, in order."""
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def claimed(comment: str) -> Any:
    """The literal a comment starts with (``# 4094: larger is better`` -> 4094), or _NO_CLAIM."""
    text = comment.lstrip("#").strip()
    for candidate in (text, text.split(":")[0], text.split(" ")[0]):
        try:
            return ast.literal_eval(candidate)
        except (ValueError, SyntaxError):
            continue
    return _NO_CLAIM


def comments_by_line(source: str) -> dict[int, str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0]: t.string for t in tokens if t.type == tokenize.COMMENT}


def run_block(source: str, namespace: dict[str, Any]) -> int:
    """Run one block statement by statement; return how many shown values it checked."""
    comments = comments_by_line(source)
    checked = 0
    for statement in ast.parse(source).body:
        expected = claimed(comments.get(statement.end_lineno or statement.lineno, ""))
        if isinstance(statement, ast.Expr):
            value = eval(compile(ast.Expression(statement.value), "api.md", "eval"), namespace)
        else:
            exec(compile(ast.Module([statement], []), "api.md", "exec"), namespace)
            target = statement.targets[0] if isinstance(statement, ast.Assign) else None
            value = namespace[target.id] if isinstance(target, ast.Name) else _NO_CLAIM
        if expected is not _NO_CLAIM and value is not _NO_CLAIM:
            assert value == expected, f"{ast.unparse(statement)} gives {value!r}; docs/api.md shows {expected!r}"
            checked += 1
    return checked


def test_claimed_literals_are_read_from_comments() -> None:
    assert claimed("# 4094: larger is better") == 4094
    assert claimed("# 'pair of aces, K-7-3'") == "pair of aces, K-7-3"
    assert claimed("# pandas DataFrame, best hold first") is _NO_CLAIM


def test_every_python_block_of_the_api_page_runs_and_shows_what_it_gives() -> None:
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert blocks, "docs/api.md has no python block"
    namespace: dict[str, Any] = {"__name__": "api_md"}
    checked = sum(run_block(block, namespace) for block in blocks)
    assert checked >= 2
