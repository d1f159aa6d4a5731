"""The command line, ``drawodds COMMAND``: the typer application is in :mod:`drawodds.cli.application`,
each command in a module of its own (``drawodds.cli.keep``, ``drawodds.cli.solve``, ...).

This entry module answers ``drawodds --version`` without loading it (nor numpy), so the question
costs no more than the interpreter's start; ``app`` and ``run``'s other names are the application's,
loaded on use.
"""

from __future__ import annotations

import io
import os
import sys
from typing import Any


def run(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (the process's arguments by default) and return the exit code."""
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:
        from drawodds import __version__

        print(f"drawodds {__version__}")
        return 0
    from drawodds.cli.application import run as run_application

    return run_application(argv)


MATRIX_COMMANDS = frozenset({"solve"})    # their time is large matrix products: OpenBLAS keeps every core


def _command(args: list[str]) -> str | None:
    """The command named in ``args`` (past the global options and the value of ``--lang``)."""
    from drawodds.cli.language import without_language  # light: no numpy, no typer

    return next((arg for arg in without_language(args) if not arg.startswith("-")), None)


def _tune_process() -> None:
    """Settings for a process that is drawodds itself (not a program that calls ``run``), before numpy loads.

    One BLAS thread unless the user says otherwise: the commands' products are small or already split
    over worker processes, and OpenBLAS's idle threads spin for a tenth of a CPU second at start-up;
    only a solve (``MATRIX_COMMANDS``), whose CFR multiplies large matrices, keeps them.
    glibc's malloc keeps freed memory for the next array instead of handing it back to the system: each
    chunk of a Monte Carlo allocates the same large temporaries again, and by default glibc mapped them
    afresh, so every chunk paid about 2,800 page faults (a fifth of its time). Arrays under 32 MB now
    come from the heap, which keeps up to 256 MB of free memory for reuse. Elsewhere than glibc there
    is no ``mallopt`` and nothing changes."""
    if sys.argv[1:] == ["--version"]:
        return
    if _command(sys.argv[1:]) not in MATRIX_COMMANDS:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(-3, 32 << 20)       # M_MMAP_THRESHOLD
        libc.mallopt(-1, 256 << 20)      # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass


class StandardOutputError(OSError):
    """Standard output cannot take what is written to it (a full device, a closed stream): the error
    says which stream it was, where a file's error names the file."""


class _StandardOutput(io.FileIO):
    """File descriptor 1, its write errors told apart from those of files (a broken pipe stays one)."""

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StandardOutputError(exc.errno, exc.strerror) from None


def _tagged_stdout() -> None:
    """Standard output rebuilt on ``_StandardOutput``, as Python set it up (encoding, line buffering)."""
    old = sys.stdout
    if old is None or not hasattr(old, "fileno"):
        return
    try:
        raw = _StandardOutput(old.fileno(), "w", closefd=False)
    except (OSError, ValueError, io.UnsupportedOperation):
        return
    old.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=old.encoding, errors=old.errors,
                                  line_buffering=bool(old.line_buffering))


TERMINATED = 143     # the shell's code for a command ended by SIGTERM (128 + 15)
_terminated: list[bool] = []    # set by the SIGTERM handler: the run ends as on Ctrl-C, with code 143


def _stop_on_signals() -> None:
    """SIGINT and SIGTERM stop the program as Ctrl-C does (what finished is printed; exit 130 or 143),
    whoever sends them: to the whole process group, as a terminal does, or to this process alone, as
    process managers, editors and ``kill`` do. SIGINT stops it even where it came in ignored (a command
    started with ``&`` in a script): an analysis that runs for minutes must be stoppable."""
    import signal

    def terminate(signum: int, frame: object) -> None:
        _terminated.append(True)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminate)


def main(argv: list[str] | None = None) -> None:
    """The console entry point: exit with ``run``'s code.

    As the program itself (no ``argv``: the process's own arguments) it then leaves at once, without
    the interpreter tearing down every module and object one by one (a few hundredths of a second the
    user would wait for): the output is flushed and the exit handlers run first, as on a normal exit.
    Such a process also gets ``_tune_process``'s settings and stops on SIGINT and SIGTERM."""
    if argv is None:
        _tune_process()
        _stop_on_signals()
        if sys.stderr is None:      # closed (2>&-): errors are lost, but they must not end the run
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (open for the rest of the process)
        _tagged_stdout()
    code = run(argv)
    if argv is None:
        if _terminated and code == 130:
            code = TERMINATED
        _leave(code)
    sys.exit(code)


def _leave(code: int) -> None:
    """Flush, run the exit handlers and end the process now; a normal exit where that is not safe (other
    threads still running, or output that cannot be flushed, which Python's own exit reports)."""
    import atexit
    import threading

    if threading.active_count() > 1:
        return
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:     # the reader left (| head): nothing more to say, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = code or 1
    except (OSError, ValueError) as exc:
        from drawodds.cli.application import unwritable_output

        code = code or unwritable_output(exc)
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    atexit._run_exitfuncs()
    os._exit(code)


def __getattr__(name: str) -> Any:
    if name == "application":      # the submodule itself: left to the import system, which loads it
        raise AttributeError(name)
    from drawodds.cli import application

    return getattr(application, name)
