"""The `drawodds` command line: the typer application, one command per module of ``drawodds.cli``.

Each command parses its options, makes one library call and renders; the library checks every
argument and holds every default. A library error is one line on stderr with the command's flag
names and exit code 2; Ctrl-C stops a long command within a second: it prints what finished,
says so, and exits 130. The analyses and the renderers are imported inside the commands, so
start-up stays quick and a command loads only what it runs.
"""

from __future__ import annotations

import difflib
import os
import sys
import warnings
from typing import Annotated

import typer

from drawodds import __version__
from drawodds.cli.cache import cache_cmd
from drawodds.cli.charts import charts_cmd
from drawodds.cli.errors import INTERRUPTED, Interrupted, flag_names, message
from drawodds.cli.eval import eval_cmd
from drawodds.cli.keep import keep_cmd
from drawodds.cli.lesson import lesson_cmd
from drawodds.cli.openers import openers_cmd
from drawodds.cli.policies import policies_cmd
from drawodds.cli.read import read_cmd
from drawodds.cli.report import report_cmd
from drawodds.cli.rules import rules_cmd
from drawodds.cli.simulate import simulate_cmd
from drawodds.cli.solve import solve_cmd
from drawodds.cli.strategy import strategy_cmd
from drawodds.cli.train import train_cmd
from drawodds.errors import DrawoddsError
from drawodds.paths import CacheNote
from drawodds.render.console import note

app = typer.Typer(
    name="drawodds",
    help=(
        "Odds and strategy for five-card draw as played in Scandinavian homes "
        "(Mørkpoker, Jackpott, Poengpoker, Chicago).\n\n"
        "Examples:\n\n"
        "  drawodds keep As Ah Ks 7s 3s\n\n"
        '  drawodds eval "A♠A♥K♠7♠3♠" --json\n\n'
        "  drawodds rules jackpot"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        print(f"drawodds {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Odds and strategy for five-card draw."""


# The commands in the order of `drawodds --help`.
for _name, _command in (("eval", eval_cmd), ("rules", rules_cmd), ("keep", keep_cmd), ("simulate", simulate_cmd),
                        ("read", read_cmd), ("policies", policies_cmd), ("strategy", strategy_cmd),
                        ("lesson", lesson_cmd), ("openers", openers_cmd), ("solve", solve_cmd),
                        ("charts", charts_cmd), ("train", train_cmd), ("cache", cache_cmd), ("report", report_cmd)):
    app.command(_name)(_command)


# typer may bundle its own click: take its exception classes from the ones typer raises.
_CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_message(exc: Exception) -> str:
    """A click usage error as one line, with a 'did you mean' for a misspelt option."""
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    name, choices = getattr(exc, "option_name", None), getattr(exc, "possibilities", None)
    if name and choices:
        close = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.5)
        message = f"No such option: {name}." + (f" Did you mean {close[0]}?" if close else "")
    ctx = getattr(exc, "ctx", None)
    if ctx is not None and type(exc).__name__ != "NoArgsIsHelpError":
        message += f" (see {ctx.command_path} --help)"
    return " ".join(message.split())


LONGEST_WORD = 60   # a longer word in an error (pasted input, say) is cut short


def _error(message: str) -> int:
    """Print one error line: control characters escaped, runaway words cut; return exit code 2."""
    words = ["".join(c if c.isprintable() else repr(c)[1:-1] for c in word) for word in str(message).split()]
    words = [w if len(w) <= LONGEST_WORD else w[:LONGEST_WORD - 3] + "..." for w in words]
    print(f"drawodds: error: {' '.join(words)}", file=sys.stderr)
    return 2


def _cache_note(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
    """Show the library's cache notes (a damaged file rebuilt, an old one evicted) as one line."""
    if issubclass(category, CacheNote):
        note(str(message))
    else:
        _show_warning(message, category, *args, **kwargs)  # type: ignore[arg-type]


_show_warning = warnings.showwarning


def run(argv: list[str] | None = None) -> int:
    """Run the app and return its exit code; user errors print one line and give 2."""
    flag_names()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", CacheNote)
            warnings.showwarning = _cache_note
            code = app(args=argv, standalone_mode=False, prog_name="drawodds")
    except typer.Exit as exc:
        return exc.exit_code
    except Interrupted:
        return INTERRUPTED
    except (KeyboardInterrupt, typer.Abort):
        note("interrupted before anything finished")
        return INTERRUPTED
    except _CLICK_ERROR as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            return 0          # `drawodds` alone: the help was printed
        return _error(_usage_message(exc))
    except MemoryError:
        return _error("not enough memory for this request: ask for fewer trials or deals")
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return _error(f"cannot use{where}: {exc.strerror or exc}")
    except DrawoddsError as exc:   # the library's words, its parameters named as this command's flags
        return _error(message(exc))
    except ValueError as exc:      # a click or typer value error
        return _error(str(exc))
    except Exception as exc:      # a bug: one line, and the traceback on request
        if os.environ.get("DRAWODDS_DEBUG"):
            raise
        print(f"drawodds: internal error: {type(exc).__name__}: {' '.join(str(exc).split())} "
              "(set DRAWODDS_DEBUG=1 for the traceback)", file=sys.stderr)
        return 1
    if code == INTERRUPTED:       # typer turned a Ctrl-C into 130 before anything was printed
        note("interrupted before anything finished")
    return int(code or 0)


