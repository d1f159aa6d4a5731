"""The command line and the library do the same work with the same defaults: each command's ``--json``
is the library result's dict. Where a default would be slow, the same explicit value goes to both."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import drawodds
from drawodds.analyses import reference
from drawodds.cli import main
from drawodds.results import jsonable

HAND = "AsAhKs7s3s"


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    with pytest.raises(SystemExit) as exc:
        main([*args, "--json"])
    out = capsys.readouterr().out
    assert exc.value.code in (0, None), out
    return json.loads(out)


def as_json(data: Any) -> Any:
    """What ``--json`` prints for ``data`` (a result or a dict), read back."""
    return json.loads(json.dumps(jsonable(data if isinstance(data, dict) else data.to_dict()), ensure_ascii=False))


def _points_summary(result: Any) -> Any:
    from drawodds.render.simulate import points_summary

    return points_summary(result)


CASES: list[tuple[list[str], Callable[[], Any]]] = [
    (["eval", HAND], lambda: drawodds.hand_report(HAND)),
    (["rules", "jackpot"], lambda: reference.rule_sheet("jackpot")),
    (["policies"], lambda: reference.policy_book()),
    (["keep", HAND, "--trials", "3000"], lambda: drawodds.keep(HAND, trials=3000)),
    (["keep", HAND, "--exact"], lambda: drawodds.keep(HAND, opponents=0)),
    (["keep", HAND, "--rules", "chicago", "--trials", "200"], lambda: drawodds.keep(HAND, rules="chicago", trials=200)),
    (["keep", HAND, "--vs", "1", "--se", "0.01", "--trials", "4000"],
     lambda: drawodds.keep(HAND, vs=[1], se=0.01, trials=4000)),
    (["read", "3"], lambda: drawodds.read_draw(3)),
    (["read", "1", "--hand", HAND, "--trials", "2000"], lambda: drawodds.read_draw(1, hand=HAND, trials=2000)),
    (["openers"], lambda: drawodds.openers()),
    (["openers", "--hand", HAND, "--players", "6", "--deals", "20000"],
     lambda: drawodds.p_somebody_else_opens(HAND, 6, deals=20_000)),
    (["simulate", "--deals", "300"], lambda: drawodds.simulate(drawodds.preset(), deals=300)),
    (["simulate", "--rules", "poengpoker", "--games", "30"],
     lambda: _points_summary(drawodds.simulate_points(drawodds.preset("poengpoker"), games=30))),
    (["strategy", "--objective", "jacks"], lambda: drawodds.strategy("jacks")),
    (["lesson", "--deals", "100", "--no-equilibrium"], lambda: drawodds.standing_pat(deals=100, equilibrium=False)),
]


@pytest.mark.parametrize(("args", "library"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_the_command_line_prints_the_library_result_at_the_same_defaults(capsys, args, library) -> None:
    printed = cli_json(capsys, *args)
    assert printed == as_json(library())


def test_solve_at_its_defaults_but_the_size_is_the_library_solve(capsys, small_abstraction) -> None:
    """The command line's solve stops where ``solve`` stops and reads the same cached abstraction."""
    from drawodds.solver.playout import one_deck
    from drawodds.solver.solve import solve

    printed = cli_json(capsys, "solve", "--buckets", "24,12", "--field-rounds", "1", "--iterations", "30", "--no-real",
                       "--one-deck", "20000")
    solution = solve(drawodds.preset(), pre_buckets=24, final_buckets=12, rounds=1, iterations=30)
    assert printed.pop("real_exploitability") is None and printed.pop("peak_memory_mb") > 0
    assert printed.pop("one_deck") == as_json(one_deck(solution, 20000))       # the library's seed by default
    assert untimed(printed) == untimed(as_json(solution))


def untimed(data: Any) -> Any:
    """``data`` without its clock readings (every key that ends in "seconds")."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if not k.endswith("seconds")}
    return [untimed(v) for v in data] if isinstance(data, list) else data


def _library_functions() -> dict[str, tuple[Callable[..., Any], ...]]:
    from drawodds.analyses.report import guide
    from drawodds.solver.solve import solve
    from drawodds.trainer import run_session, train_setup

    return {"keep": (drawodds.keep,), "read": (drawodds.read_draw,), "openers": (drawodds.openers,),
            "simulate": (drawodds.simulate,), "strategy": (drawodds.strategy,), "lesson": (drawodds.standing_pat,),
            "solve": (solve,), "train": (train_setup, run_session), "report": (guide,)}


@pytest.mark.parametrize("name", sorted(_library_functions()))
def test_every_option_the_library_also_takes_leaves_the_default_to_the_library(name: str) -> None:
    """An option named as the library's parameter defaults to None (the library decides) or to the
    library's own default, so no command can hold a default of its own."""
    import inspect

    from drawodds.cli.application import command

    library = {p: q for f in _library_functions()[name] for p, q in inspect.signature(f).parameters.items()}
    options = inspect.signature(command(name)).parameters
    shared = [p for p in options if p in library and library[p].default is not inspect.Parameter.empty]
    assert shared, f"{name} shares no option with its library call"
    drifted = {p: (options[p].default, library[p].default) for p in shared
               if options[p].default is not None and options[p].default != library[p].default}
    assert drifted == {}
