"""The language the command line speaks: ``--lang`` read before the application is built (its help
is written when it is built), every help text and typer's own words in that language.

English costs nothing here: no catalog is read and typer is left as it is. In Swedish and
Norwegian the built command's help texts are looked up in the catalog, typer's help words
(``Usage:``, ``Options``, ``[required]``) come from it for a help page, and the usage errors its
click writes in English (``Missing argument 'hand'.``) are worded again from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from drawodds import i18n
from drawodds.i18n import N_, _

FLAG = "--lang"
HELP = N_("The language to write in (default: DRAWODDS_LANG, else the locale, else English).")

# Help texts built from values (a range, the cores here): their English text -> how to word them now,
# and -> the catalog's sentence they are made from.
_WORDED: dict[str, Callable[[], str]] = {}
TEMPLATES: dict[str, str] = {}


def language_option(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` or ``--lang=X`` in ``args`` (before a lone ``--``), if any."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == FLAG and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith(FLAG + "="):
            found = arg[len(FLAG) + 1:]
    return found


def without_language(args: Sequence[str]) -> list[str]:
    """``args`` without the ``--lang`` that ``language_option`` read (``drawodds --lang sv`` alone is
    ``drawodds``: the help)."""
    kept: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
        elif "--" in args[:i]:
            kept.append(arg)
        elif arg == FLAG and i + 1 < len(args):
            skip = True
        elif not arg.startswith(FLAG + "="):
            kept.append(arg)
    return kept


def worded(template: str, **values: Any) -> str:
    """Help text ``template`` (marked with ``N_``) filled with ``values``, in English; the built command
    words it in the language of the run. A value that is a callable is called in that language."""

    def fill() -> str:
        return _(template).format(**{k: v() if callable(v) else v for k, v in values.items()})

    with i18n.use(i18n.ENGLISH):
        english = fill()
    _WORDED[english] = fill
    TEMPLATES[english] = template
    return english


def translated(text: str | None) -> str | None:
    """A help text of the application in the current language."""
    if not text:
        return text
    return _WORDED[text]() if text in _WORDED else _(text)


def dress(command: Any) -> Any:
    """The built click command (a group and its commands) with ``--lang`` on each, its help texts in
    the current language."""
    from typer.core import TyperOption

    def plain(text: str | None) -> str | None:     # help is plain text: "drawodds[dist]" is no markup
        return None if text is None else re.sub(r"(?<!\\)\[(?=[a-z#/@])", r"\\[", text)

    commands = [command, *getattr(command, "commands", {}).values()]
    english = i18n.language() == i18n.ENGLISH
    for each in commands:
        _trimmed_help(each)
        if not english:
            _localized_usage(each)
        each.help = plain(translated(each.help))
        each.short_help = plain(translated(each.short_help))
        each.epilog = plain(translated(each.epilog))
        for param in each.params:
            if getattr(param, "help", None):
                param.help = plain(translated(param.help))
        each.params.append(TyperOption(param_decls=[FLAG], type=str, expose_value=False,
                                       help=plain(_(HELP)), show_default=False))
    return command


# The words typer's click writes itself (help, usage errors): its English pattern -> our sentence.
CLICK_SENTENCES: tuple[tuple[str, str], ...] = (
    (r"No such option: (?P<option>.+)", N_("No such option: {option}")),
    (r"No such command (?P<name>'.*')\.", N_("No such command {name}.")),
    (r"Missing command\.", N_("Missing command.")),
    (r"Missing argument (?P<name>'.*')\.", N_("Missing argument {name}.")),
    (r"Missing option (?P<name>'.*')\.", N_("Missing option {name}.")),
    (r"Invalid value for (?P<param>.+?): (?P<message>.*)", N_("Invalid value for {param}: {message}")),
    (r"Invalid value: (?P<message>.*)", N_("Invalid value: {message}")),
    (r"(?P<value>'.*') is not a valid int(eger)?\.", N_("{value} is not a whole number.")),
    (r"(?P<value>'.*') is not a valid float\.", N_("{value} is not a number.")),
    (r"(?P<value>'.*') is not a valid boolean\..*", N_("{value} is neither true nor false.")),
    (r"(?P<value>'.*') is not one of (?P<choices>.*)\.", N_("{value} is not one of {choices}.")),
    (r"(?P<value>\S+) is not in the range (?P<range>.*)\.", N_("{value} is not in the range {range}.")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra arguments ({args})")),
    (r"Option (?P<name>'.*') requires an argument\.", N_("Option {name} requires a value.")),
    (r"Option (?P<name>'.*') does not take a value\.", N_("Option {name} does not take a value.")),
)
USAGE = N_("Usage:")
USAGE_PIECES = {"[OPTIONS]": N_("[OPTIONS]"), "COMMAND [ARGS]...": N_("COMMAND [ARGS]...")}   # click's usage words
HELP_OPTION = N_("Show this message and exit.")
# typer's help words, module constants of typer.rich_utils.
_TYPER_WORDS: dict[str, str] = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"), "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"), "REQUIRED_LONG_STRING": N_("[required]"),
    "DEFAULT_STRING": N_("[default: {}]"), "ERRORS_PANEL_TITLE": N_("Error"), "ABORTED_TEXT": N_("Aborted."),
}


def click_message(text: str) -> str:
    """A usage error typer's click wrote in English, in the current language (as it is if unknown)."""
    if i18n.language() == i18n.ENGLISH:
        return text
    for pattern, sentence in CLICK_SENTENCES:
        found = re.fullmatch(pattern, text, flags=re.DOTALL)
        if found:
            values = {k: v for k, v in found.groupdict().items() if v is not None}
            if "message" in values:
                values["message"] = click_message(values["message"])
            return _(sentence).format(**values)
    return text


def _trimmed_help(command: Any) -> None:
    """``command``'s help page without the spaces typer's rich console leaves at the ends of lines."""
    original_format_help = command.format_help

    def format_help(ctx: Any, formatter: Any) -> None:
        from typer import rich_utils

        from drawodds.render.trimmed import Trimmed

        make = rich_utils._get_rich_console

        def trimmed(stderr: bool = False) -> Any:
            console = make(stderr)
            if not stderr:
                console.file = Trimmed(console.file)  # type: ignore[assignment]
            return console

        rich_utils._get_rich_console = trimmed
        try:
            original_format_help(ctx, formatter)
        finally:
            rich_utils._get_rich_console = make

    command.format_help = format_help


def _localized_usage(command: Any) -> None:
    """``command``'s usage line, help option and help page in the current language (for this built command only)."""
    original_help_option = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = original_help_option(ctx)
        if option is not None:
            option.help = _(HELP_OPTION)
        return option

    def format_usage(ctx: Any, formatter: Any) -> None:
        pieces = [_(USAGE_PIECES[p]) if p in USAGE_PIECES else p for p in command.collect_usage_pieces(ctx)]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_(USAGE) + " ")

    original_format_help = command.format_help

    def format_help(ctx: Any, formatter: Any) -> None:
        _typer_words()          # typer's help module is loaded for a help page only
        original_format_help(ctx, formatter)

    command.get_help_option = get_help_option
    command.format_usage = format_usage
    command.format_help = format_help


_saved_words: dict[str, str] = {}      # typer's own words while ours stand in for them


def _typer_words() -> None:
    """Put typer's help words in the current language (once a run; ``speaking`` puts them back)."""
    from typer import rich_utils

    if not _saved_words:
        _saved_words.update({attr: getattr(rich_utils, attr) for attr in _TYPER_WORDS})
        for attr, sentence in _TYPER_WORDS.items():
            setattr(rich_utils, attr, _(sentence))


@contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (``i18n.use``); typer's help words, changed for a help page
    shown in it, are put back after it."""
    with i18n.use(lang):
        try:
            yield lang
        finally:
            if _saved_words:
                from typer import rich_utils

                for attr, value in _saved_words.items():
                    setattr(rich_utils, attr, value)
                _saved_words.clear()
