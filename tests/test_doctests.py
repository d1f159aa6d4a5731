"""The examples in the core modules' docstrings run as written (each module shows an error case too)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("drawodds.cards", "drawodds.evaluate", "drawodds.rules", "drawodds.handrange")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert sum(len(t.examples) for t in tests) >= 4, f"{name} shows too few examples"
    assert any(e.exc_msg for t in tests for e in t.examples), f"{name} shows no error case"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (printed above)"
