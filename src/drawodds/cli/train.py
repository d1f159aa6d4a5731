"""`drawodds train`: hands dealt and graded, from ``drawodds.analyses.train``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from drawodds.cli.answers import answer_lines, ask
from drawodds.cli.errors import interrupted, message, writable_file, writable_folder
from drawodds.cli.options import RulesOpt, bounded
from drawodds.errors import TRAIN_HANDS, TRAIN_TRIALS
from drawodds.i18n import N_, _, ngettext
from drawodds.render.console import emit_json, spinner

HELP = N_("""Deal hands, grade what you keep and how you read draws, and deal more of what you miss.

Keep questions take the cards to keep (As Ah, or AsAh), the cards to throw after 'throw' or
'-' (throw 7s 3s, -7s3s), a draw count (3: the best hold drawing three) or 'pat'. Readings
take a class and an equity in percent (two pair 45). Also: score, help, quit.

Examples:

  drawodds train

  drawodds train --focus kicker

  drawodds train --answers answers.txt --seed 1 --hands 2 --json""")


def train_cmd(
    rules: RulesOpt = "morkpoker",
    opponents: Annotated[int | None, typer.Option(
        "--opponents", "-n", help=N_("Opponents for the equity objective, and for the points this deal in "
                                  "Poengpoker and Chicago (1-5; default: the table less one)."))] = None,
    objective: Annotated[str | None, typer.Option(
        "--objective", help=N_("Grade by equity (Monte Carlo against opponents), jacks (the chance of jacks or "
                            "better, exact) or points (in the draw game the table points of your final hand, "
                            "exact; in Poengpoker and Chicago the points this deal, best hand plus last "
                            "trick, by Monte Carlo as keep ranks them); default: equity, points in "
                            "Poengpoker and Chicago."))] = None,
    drill: Annotated[str, typer.Option(
        "--drill", help=N_("keep (what to keep), read (what an opponent's draw count says) or mixed "
                        "(every fourth question a reading)."))] = "mixed",
    focus: Annotated[str | None, typer.Option(
        "--focus", help=N_("Deal only hands whose best hold is this pattern: pat, made, pair, kicker, "
                        "flush-draw, straight-draw, sf-draw, two-cards, one-card, draw-five, other (one "
                        "that is the best hold of no deal under the rules and objective is refused)."))] = None,
    hands: Annotated[int | None, typer.Option("--hands", help=bounded(TRAIN_HANDS,
        N_("End after this many questions"), N_("until quit")))] = None,
    answers: Annotated[str | None, typer.Option(
        "--answers", help=N_("Read the answers from this file, one a line ('-': standard input), instead "
                          "of asking."))] = None,
    history: Annotated[str | None, typer.Option(
        "--history", help=N_("The history file: one JSON line per answer, read at the start to resume "
                          "(default: drawodds/train.jsonl in your data folder, $XDG_DATA_HOME or "
                          "~/.local/share on Linux)."))] = None,
    trials: Annotated[int | None, typer.Option("--trials", "-t", help=bounded(TRAIN_TRIALS,
        N_("Monte Carlo trials per hand for the equity objective, the points this deal in Poengpoker and "
        "Chicago, and readings"), N_("20,000; 5,000 in Poengpoker and Chicago")))] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help=N_("Random seed, 0 or more: the same seed, history and answers give the same "
                       "session (default: a new shuffle each time)."))] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help=N_("At the end, print the session summary as JSON (the questions go to stderr)."))] = False,
) -> None:
    """Deal hands, grade what you keep and how you read draws, and deal more of what you miss."""
    from drawodds import trainer as tr
    from drawodds.render import train as view
    from drawodds.render.console import page_width

    setup = tr.train_setup(rules, objective=objective, opponents=opponents, trials=trials, drill=drill,
                           focus=focus)
    path = Path(history) if history is not None else tr.default_history_path()
    if history is not None:
        writable_file(history, "--history")
    else:
        writable_folder(str(path.parent), "--history")
    lines = answer_lines(answers)
    console = Console(stderr=json_out, width=page_width())
    summary = tr.run_session(setup, lambda prompt: ask(console, prompt, lines),
                             lambda item: view.render_bad(console, message(item)) if isinstance(item, tr.AnswerError)
                             else view.render_item(console, item), history=path, hands=hands, seed=seed,
                             busy=lambda: spinner(_("dealing..."), enabled=lines is None))
    if json_out:
        emit_json(summary)
    else:
        view.render_summary(console, summary)
    if summary.stopped == "interrupted":
        answered = len(summary.grades) + len(summary.readings)
        interrupted(ngettext("the {n} answer before Ctrl-C is graded and saved",
                             "the {n} answers before Ctrl-C are graded and saved", answered).format(n=answered))
