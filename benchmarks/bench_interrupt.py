"""Ctrl-C: how long each long command takes to stop, its exit code and its last words.

Each command starts in a process group of its own, as a shell starts it; after --after seconds it
gets SIGINT, sent to the whole group (what Ctrl-C in a terminal does) or, with --alone, to the
command's process only. Prints the seconds from the signal to the exit, the exit code (130 is
right) and the last line it printed. A command still running --patience seconds later is killed.

    PYTHONPATH=src python benchmarks/bench_interrupt.py [--after 4] [--workers 2] [--only simulate,report]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time


def commands(workers: int, out: str) -> dict[str, list[str]]:
    """The long commands, each big enough to run for minutes."""
    w = ["--workers", str(workers)]
    return {
        "simulate": ["simulate", "--deals", "10000000", *w],
        "openers": ["openers", "--deals", "1000000", *w],
        "simulate-chicago": ["simulate", "--rules", "chicago", "--games", "1000000", *w],
        "strategy-mc": ["strategy", "--objective", "equity", "--mc", "100000", "--out", f"{out}/table.parquet", *w],
        "lesson": ["lesson", "--deals", "1000000", "--no-equilibrium"],
        "keep-chicago": ["keep", "AsAhKs7s3s", "--rules", "chicago", "--trials", "200000", *w],
        "keep": ["keep", "AsAhKs7s3s", "--trials", "100000000", *w],
        "report": ["report", "--out", f"{out}/guide", *w],
        "train": ["train", "--answers", "-", "--hands", "3", "--trials", "1000000", "--seed", "1",
                  "--history", f"{out}/train.jsonl"],
    }


def _default_sigint() -> None:
    """In the child: Ctrl-C as a terminal gives it, even when this script runs where SIGINT is ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_time(argv: list[str], after: float, patience: float, alone: bool) -> tuple[float, int | None, str]:
    """(seconds from SIGINT to exit, exit code or None if killed, last output line)."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, "-m", "drawodds", *argv], stdin=subprocess.PIPE, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_default_sigint)
        if argv[0] == "train":
            assert proc.stdin is not None
            proc.stdin.write(b"pat\n")   # the first answer: its grade is being worked out at the signal
            proc.stdin.flush()
        time.sleep(after)
        sent = time.perf_counter()
        if alone:
            proc.send_signal(signal.SIGINT)
        else:
            os.killpg(proc.pid, signal.SIGINT)
        try:
            code: int | None = proc.wait(patience)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = None
        seconds = time.perf_counter() - sent
        try:
            os.killpg(proc.pid, signal.SIGKILL)   # any worker left behind
        except ProcessLookupError:
            pass
        log.seek(0)
        lines = [ln for ln in log.read().decode(errors="replace").replace("\r", "\n").splitlines() if ln.strip()]
    return seconds, code, lines[-1].strip() if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=float, default=4.0, help="seconds of work before the SIGINT")
    parser.add_argument("--patience", type=float, default=60.0, help="seconds to wait for the exit")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--alone", action="store_true", help="signal the command's process only, not its group")
    parser.add_argument("--only", help="comma-separated command names to run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        jobs = commands(args.workers, out)
        for name in (args.only.split(",") if args.only else jobs):
            seconds, code, last = stop_time(jobs[name], args.after, args.patience, args.alone)
            shown = "killed" if code is None else str(code)
            print(f"{name:<17} {seconds:>6.2f}s  exit {shown:>6}  {last[:90]}", flush=True)


if __name__ == "__main__":
    main()
