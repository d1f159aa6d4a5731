"""The equilibrium as a player for `keep`, `read`, `simulate` and `lesson`, heads-up or three-handed:
from a saved solution or the cached one (solved once, with a note and progress)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from drawodds.cli.errors import interrupted, refuse
from drawodds.i18n import N_, _
from drawodds.render.console import note, spinner
from drawodds.rules import RuleSet


def check_options(solved: bool, line: str | None, solution: str | None, extra: dict[str, bool] | None = None
                  ) -> None:
    """The equilibrium's options only go with --policy equilibrium; a line must parse."""
    given = [name for name, on in {"--line": line is not None, "--solution": solution is not None,
                                   **(extra or {})}.items() if on]
    if given and not solved:
        raise refuse(N_("{option} goes with --policy equilibrium"), option=given[0])
    if solved and line is not None:
        from drawodds.solver.solved_range import parse_line

        parse_line(line)
    if solution is not None and not Path(solution).exists():
        raise refuse(N_("--solution: no such file: {path}"), path=solution)
    if solution is not None and not Path(solution).is_file():
        raise refuse(N_("--solution {path}: is not a regular file (a folder, a device or a pipe)"), path=solution)


def solved_range(rules: RuleSet, solution: str | None, line: str | None, seat: str, our_draw: int | None,
                 hand: Any, quiet: bool) -> Any:
    """The equilibrium's player as a range: from a saved solution, or the cached equilibrium
    (solved, with a note and progress, the first time)."""
    from drawodds.solver.abstraction import check_rules
    from drawodds.solver.seat_play import check_same_game
    from drawodds.solver.solution import load_solution
    from drawodds.solver.solved_range import solved_range as range_of

    check_rules(rules)
    if solution is not None:
        sol = load_solution(solution)
        check_same_game(sol.rules, rules)
    else:
        sol = equilibrium(rules, quiet)
    return range_of(sol, line=line, seat=seat, our_draw=our_draw, our_hand=hand)


def table_solution(rules: RuleSet, solution: str | None, quiet: bool) -> Any:
    """The three-handed solution: from a saved file (``solve --players 3 --save``), or the cached one
    (solved, with a note and progress, the first time)."""
    from drawodds.solver.abstraction import check_rules
    from drawodds.solver.seat_play import check_same_game
    from drawodds.solver.table import load_table_solution

    check_rules(rules)
    if solution is None:
        return table_equilibrium_cli(rules, quiet)
    sol = load_table_solution(solution)
    check_same_game(sol.rules, rules)
    return sol


NOT_SOLVED = N_("the equilibrium was not solved")


def equilibrium(rules: RuleSet, quiet: bool, stopped: str = NOT_SOLVED) -> Any:
    """The cached equilibrium of ``rules``; the first time, solved with a note and progress (Ctrl-C
    then ends the command with ``stopped``, marked with ``N_``)."""
    from drawodds.render.solve import solve_progress
    from drawodds.solver.cache import equilibrium_cached
    from drawodds.solver.settings import DEFAULT_EXPLOITABILITY
    from drawodds.solver.solve import equilibrium_solution

    if equilibrium_cached(rules):
        with spinner(_("loading the equilibrium..."), enabled=not quiet):
            return equilibrium_solution(rules)
    note(_("solving the heads-up {rules} equilibrium once (about ten minutes on two cores, more on a busy "
           "machine; kept for next time, and drawodds solve can do it ahead)").format(rules=rules.name))
    with solve_progress(100_000, DEFAULT_EXPLOITABILITY, enabled=not quiet) as (stage, checkpoint):
        solved = equilibrium_solution(rules, progress=checkpoint, stage=stage or (lambda s, f: None))
    if solved.interrupted:
        interrupted(_(stopped))
    return solved


def table_equilibrium_cli(rules: RuleSet, quiet: bool, stopped: str = NOT_SOLVED) -> Any:
    """The cached three-handed solution of ``rules``; the first time, solved with a note and progress
    (Ctrl-C then ends the command with ``stopped``)."""
    from drawodds.render.solve import solve_progress
    from drawodds.solver.table import TABLE_SETTINGS, table_equilibrium, table_path

    if table_path(rules).exists():
        with spinner(_("loading the three-handed solution..."), enabled=not quiet):
            return table_equilibrium(rules)
    note(_("solving the three-handed {rules} game once (five to ten minutes on two cores, more on a busy "
           "machine; kept for next time, and drawodds solve --players 3 can do it ahead)").format(rules=rules.name))
    with solve_progress(100_000, TABLE_SETTINGS.exploitability, enabled=not quiet) as (stage, checkpoint):
        solved = table_equilibrium(rules, progress=checkpoint, stage=stage or (lambda s, f: None))
    if solved.interrupted:
        interrupted(_(stopped))
    return solved
