"""How the command line reports: a library error in one line with the flags' names, Ctrl-C as exit 130,
and the checks of what only the command line has (output files, flags that go together).

The library names its arguments by their parameter names (``opponents``); a command tells
``flag_names`` where its flags differ from ``--`` and the name (``hand_range`` is ``--range``).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import NoReturn

from drawodds.cards import shown
from drawodds.errors import DrawoddsError, RequestError
from drawodds.execution import LOCAL_DASK
from drawodds.i18n import N_, _
from drawodds.paths import check_writable
from drawodds.render.console import note

INTERRUPTED = 130   # the shell's code for a command stopped by Ctrl-C

# A parameter whose flag is not simply "--" and the name with dashes, in every command.
FLAGS: dict[str, str] = {"hand_range": "--range", "max_consecutive_antes": "--max-antes",
                         "joker_is_ace_for_draw": "--joker-ace", "rounds": "--field-rounds",
                         "pre_buckets": "--buckets PRE", "final_buckets": "--buckets FINAL",
                         "equity_trials": "--trials", "json": "--json"}
_names: dict[str, str] = {}          # the running command's own differences (set by flag_names)


class Interrupted(Exception):
    """Ctrl-C: what finished has been printed; exit 130."""


def flag_names(**names: str) -> None:
    """Name the running command's flags where they differ from the usual (``trials="--mc"``)."""
    _names.clear()
    _names.update(names)


def message(exc: DrawoddsError) -> str:
    """A library error's sentence, each parameter it names written as the command's flag."""
    return exc.worded({p: _names.get(p) or FLAGS.get(p) or "--" + p.replace("_", "-") for p in exc.parameters})


def interrupted(done: str) -> NoReturn:
    """After a Ctrl-C: say what the printed figures cover, then exit 130."""
    note(_("interrupted: {what}").format(what=done))
    raise Interrupted


def refuse(template: str, **values: object) -> RequestError:
    """An error in how the flags were combined (the command line's own words: ``template``, marked
    with ``N_``, filled with ``values``)."""
    return RequestError(template, **values)


def scheduler(address: str | None, local: bool) -> str | None:
    """The Dask scheduler to use, if any: an address, or 'local' for a cluster on this machine."""
    if address is not None and local:
        raise refuse(N_("--dask starts a local cluster; --scheduler names one: give one of them"))
    if address is not None and not address.startswith(("tcp://", "tls://", "inproc://")):
        raise refuse(N_("--scheduler takes an address like tcp://host:8786, got {address}"),
                     address=repr(shown(address)))
    if (address is not None or local) and importlib.util.find_spec("distributed") is None:
        raise refuse(N_('--dask and --scheduler need Dask: pip install "drawodds[dist]"'))
    return LOCAL_DASK if local else address


def writable_file(path: str | None, option: str, *, endings: tuple[str, ...] = (), stdout: bool = False) -> None:
    """Refuse an output file that cannot be written, before the work it would hold is done: a name
    without one of ``endings`` (when given: the file's format), ``-`` unless the option writes it to
    standard output (``stdout``), a folder, a device, a missing or read-only folder."""
    if path is None or (path == "-" and stdout):
        return
    if not path.strip():
        raise refuse(N_("{option} needs a file name, got {path}"), option=option, path=repr(path))
    if path == "-":
        raise refuse(N_("{option} writes a file, not standard output: give a file name"), option=option)
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        check_writable(target)          # a folder, a device or a pipe is refused here
    except ValueError as exc:
        raise refuse("{option} {problem}", option=option, problem=exc) from None
    if endings and not path.lower().endswith(endings):
        raise refuse(N_("{option} {path}: the name must end in {endings} (the file's format)"), option=option,
                     path=path, endings=_or(endings))
    if not folder.is_dir():
        raise refuse(N_("{option} {path}: no such folder {folder}"), option=option, path=path, folder=folder)
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise refuse(N_("{option} {path}: not writable"), option=option, path=path)
    _try_writing(path, option)


def _try_writing(path: str, option: str) -> None:
    """Create and remove a file where the output will be written (beside the file a symlink points to),
    so a folder that only looks writable (``/proc``, a read-only mount) is refused before the work."""
    real = Path(os.path.realpath(path))
    probe = real.with_name(f".{real.stem}.{os.getpid()}.probe{real.suffix}")
    try:
        os.close(os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise refuse(N_("{option} {path}: cannot be written ({reason})"), option=option, path=path,
                     reason=exc.strerror or exc) from None
    probe.unlink(missing_ok=True)


def _or(words: tuple[str, ...]) -> str:
    """``.a``, ``.a or .b``, ``.a, .b or .c``."""
    return words[0] if len(words) == 1 else _("{first} or {last}").format(first=", ".join(words[:-1]), last=words[-1])


def writable_folder(path: str, option: str) -> None:
    """Create an output folder up front, or refuse it in one line."""
    if Path(path).exists() and not Path(path).is_dir():
        raise refuse(N_("{option} {path}: is a file, not a folder"), option=option, path=path)
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise refuse(N_("{option} {path}: cannot create the folder ({reason})"), option=option, path=path,
                     reason=exc.strerror or exc) from None
    if not os.access(path, os.W_OK):
        raise refuse(N_("{option} {path}: not writable"), option=option, path=path)


def names(text: str | None, option: str) -> list[str] | None:
    """A comma-separated list of names; an empty list or an empty name is refused."""
    if text is None:
        return None
    found = [n.strip() for n in text.split(",")]
    if not all(found):
        raise refuse(N_("{option} needs a name (or names separated by commas), got {text}"), option=option,
                     text=repr(text))
    return found
