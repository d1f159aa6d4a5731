"""The `drawodds` command line: the typer application, one command per module of ``drawodds.cli``.

Each command parses its options, makes one library call and renders; the library checks every
argument and holds every default. A library error is one line on stderr with the command's flag
names and exit code 2; Ctrl-C stops a long command within a second: it prints what finished,
says so, and exits 130. The analyses and the renderers are imported inside the commands, so
start-up stays quick and a command loads only what it runs.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from drawodds import __version__
from drawodds.cli import StandardOutputError
from drawodds.cli.errors import INTERRUPTED, Interrupted, flag_names, message
from drawodds.cli.language import click_message, dress, language_option, speaking, without_language
from drawodds.errors import DrawoddsError, choose_language
from drawodds.i18n import N_, _
from drawodds.paths import CacheNote
from drawodds.render.console import note

# The commands in the order of `drawodds --help`; each is a module of its own, imported when it runs.
COMMANDS = ("eval", "rules", "keep", "simulate", "read", "policies", "strategy", "lesson", "openers", "solve",
            "charts", "train", "cache", "report", "serve")
HELP = N_(
    "Odds and strategy for five-card draw as played in Scandinavian homes "
    "(Mørkpoker, Jackpott, Poengpoker, Chicago).\n\n"
    "Examples:\n\n"
    "  drawodds keep As Ah Ks 7s 3s\n\n"
    '  drawodds eval "A♠A♥K♠7♠3♠" --json\n\n'
    "  drawodds rules jackpot"
)


def _version(value: bool) -> None:
    if value:
        print(f"drawodds {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help=N_("Show the version and exit."))] = False,
) -> None:
    """Odds and strategy for five-card draw (the application's own options)."""


def command(name: str) -> Callable[..., None]:
    """The function of command ``name``, its module loaded now."""
    if name == "eval":
        from drawodds.cli.eval import eval_cmd
        return eval_cmd
    elif name == "rules":
        from drawodds.cli.rules import rules_cmd
        return rules_cmd
    elif name == "keep":
        from drawodds.cli.keep import keep_cmd
        return keep_cmd
    elif name == "simulate":
        from drawodds.cli.simulate import simulate_cmd
        return simulate_cmd
    elif name == "read":
        from drawodds.cli.read import read_cmd
        return read_cmd
    elif name == "policies":
        from drawodds.cli.policies import policies_cmd
        return policies_cmd
    elif name == "strategy":
        from drawodds.cli.strategy import strategy_cmd
        return strategy_cmd
    elif name == "lesson":
        from drawodds.cli.lesson import lesson_cmd
        return lesson_cmd
    elif name == "openers":
        from drawodds.cli.openers import openers_cmd
        return openers_cmd
    elif name == "solve":
        from drawodds.cli.solve import solve_cmd
        return solve_cmd
    elif name == "charts":
        from drawodds.cli.charts import charts_cmd
        return charts_cmd
    elif name == "train":
        from drawodds.cli.train import train_cmd
        return train_cmd
    elif name == "cache":
        from drawodds.cli.cache import cache_cmd
        return cache_cmd
    elif name == "serve":
        from drawodds.cli.serve import serve_cmd
        return serve_cmd
    from drawodds.cli.report import report_cmd

    return report_cmd


def build_app(names: Sequence[str] = COMMANDS) -> typer.Typer:
    """The typer application with the commands ``names`` (all of them by default)."""
    built = typer.Typer(name="drawodds", help=HELP, no_args_is_help=True, add_completion=False,
                        pretty_exceptions_enable=False, rich_markup_mode="rich",
                        context_settings={"help_option_names": ["-h", "--help"]})
    built.callback()(_root)
    for name in names:
        function = command(name)
        # each module's HELP, marked for the catalog (else typer takes the function's docstring)
        built.command(name, help=getattr(sys.modules[function.__module__], "HELP", None))(function)
    return built


def __getattr__(name: str) -> Any:
    if name == "app":              # the whole application, for typer's test runner and documentation tools
        return build_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# typer may bundle its own click: take its exception classes from the ones typer raises.
_CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_message(exc: Exception) -> str:
    """A click usage error as one line, with a 'did you mean' for a misspelt option."""
    message = click_message(exc.format_message() if hasattr(exc, "format_message") else str(exc))
    name, choices = getattr(exc, "option_name", None), getattr(exc, "possibilities", None)
    if name and choices:
        close = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.5)
        message = _("No such option: {option}.").format(option=name)
        if close:
            message += " " + _("Did you mean {option}?").format(option=close[0])
    ctx = getattr(exc, "ctx", None)
    if ctx is not None and type(exc).__name__ != "NoArgsIsHelpError":
        message += " " + _("(see {command} --help)").format(command=ctx.command_path)
    return " ".join(message.split())


LONGEST_WORD = 60   # a longer word in an error (pasted input, say) is cut short


def _error(message: str) -> int:
    """Print one error line: control characters escaped, runaway words cut; return exit code 2."""
    words = ["".join(c if c.isprintable() else repr(c)[1:-1] for c in word) for word in str(message).split()]
    words = [w if len(w) <= LONGEST_WORD else w[:LONGEST_WORD - 3] + "..." for w in words]
    print("drawodds: " + _("error: {message}").format(message=" ".join(words)), file=sys.stderr)
    return 2


def _cache_note(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
    """Show the library's cache notes (a damaged file rebuilt, an old one evicted) as one line."""
    if issubclass(category, CacheNote):
        note(str(message))
    else:
        _show_warning(message, category, *args, **kwargs)  # type: ignore[arg-type]


_show_warning = warnings.showwarning


def run(argv: list[str] | None = None) -> int:
    """Run the app and return its exit code; user errors print one line and give 2. The language is
    chosen first (``--lang``, else ``DRAWODDS_LANG``, else the locale), as the help is written in it."""
    flag_names()
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        lang = choose_language(language_option(args))
    except DrawoddsError as exc:
        return _error(message(exc))
    with speaking(lang):
        return _run(without_language(args))


def unwritable_output(exc: BaseException) -> int:
    """Standard output cannot take the output (``> /dev/full``, a closed stream): one line, code 1 (as
    Python's own tools, whose output failed rather than their request)."""
    reason = getattr(exc, "strerror", None) or _("it is closed")
    if sys.stdout is not None:      # what is still buffered goes nowhere, so the exit says nothing more
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    _error(_("cannot write to standard output: {reason}").format(reason=reason))
    return 1


def _run(args: list[str]) -> int:
    """``run`` in the chosen language."""
    if sys.stdout is None and any(a in COMMANDS for a in args):     # closed (>&-): the output has nowhere to go
        return unwritable_output(OSError())
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", CacheNote)
            warnings.showwarning = _cache_note
            name = next((a for a in args if not a.startswith("-")), None)     # only the command that runs is loaded
            built = typer.main.get_command(build_app((name,) if name in COMMANDS else COMMANDS))
            code = dress(built).main(args=args, standalone_mode=False, prog_name="drawodds")
    except typer.Exit as exc:
        return exc.exit_code
    except Interrupted:
        return INTERRUPTED
    except (KeyboardInterrupt, typer.Abort):
        note(_("interrupted before anything finished"))
        return INTERRUPTED
    except _CLICK_ERROR as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            return 0          # `drawodds` alone: the help was printed
        return _error(_usage_message(exc))
    except MemoryError:
        return _error(_("not enough memory for this request: ask for fewer trials or deals"))
    except BrokenPipeError:        # the reader of the output left (| head): as other tools, no word
        return 1
    except OSError as exc:
        if isinstance(exc, StandardOutputError):
            return unwritable_output(exc)
        reason = exc.strerror or str(exc)
        return _error(_("cannot use {path}: {reason}").format(path=exc.filename, reason=reason) if exc.filename
                      else _("cannot use: {reason}").format(reason=reason))
    except DrawoddsError as exc:   # the library's words, its parameters named as this command's flags
        return _error(message(exc))
    except ValueError as exc:      # a click or typer value error
        return _error(click_message(str(exc)))
    except Exception as exc:      # a bug: one line, and the traceback on request
        if os.environ.get("DRAWODDS_DEBUG"):
            raise
        print("drawodds: " + _("internal error: {kind}: {message} (set DRAWODDS_DEBUG=1 for the traceback)").format(
            kind=type(exc).__name__, message=" ".join(str(exc).split())), file=sys.stderr)
        return 1
    if code == INTERRUPTED:       # typer turned a Ctrl-C into 130 before anything was printed
        note(_("interrupted before anything finished"))
    return int(code or 0)
