"""Speed of play with the betting players: deals per second on one core, and `openers` wall times.

Each figure comes from a fresh process with ``PYTHONPATH=SRC`` (default: this checkout's src), so
the same script times any checkout of drawodds, e.g. an older commit in a second worktree:

    python benchmarks/bench_play.py [--src /path/to/other/checkout/src] [--deals 10000]

A speed is one chunk of ``simulate`` (``--deals`` deals, Mørkpoker, one worker) timed inside the
process, imports excluded, every table the players build on the way included; it is reported per
CPU second (``process_time``) and per wall second. The two ``openers`` commands run whole, start-up
included, on the default workers (every core).
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

CHILD = """
import sys, time
from drawodds.engine.session import simulate
from drawodds.rules import preset
game, players, name, deals = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rules = preset(game, players=players)
wall, cpu = time.perf_counter(), time.process_time()
simulate(rules, deals=deals, seed=1, players=name, workers=1)
print(time.perf_counter() - wall, time.process_time() - cpu)
"""

SPEEDS = (("morkpoker", 2, "rule"), ("morkpoker", 4, "rule"), ("morkpoker", 6, "rule"),
          ("jackpot", 4, "rule"), ("morkpoker", 4, "station"), ("morkpoker", 4, "raiser"),
          ("morkpoker", 4, "trips"))
COMMANDS = (("openers", "--players", "4", "--deals", "2000"),
            ("openers", "--players", "2-7", "--deals", "20000"))


def environment(src: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(src))
    env.setdefault("DRAWODDS_CACHE", "/tmp/drawodds-bench-play-cache")
    return env


def speed(src: Path, game: str, players: int, name: str, deals: int) -> tuple[float, float]:
    """(deals per CPU second, deals per wall second) of one chunk of simulate."""
    out = subprocess.run([sys.executable, "-c", CHILD, game, str(players), name, str(deals)],
                         env=environment(src), check=True, capture_output=True, text=True).stdout
    wall, cpu = (float(x) for x in out.split())
    return deals / cpu, deals / wall


def command(src: Path, args: tuple[str, ...], timeout: float) -> tuple[float, float] | None:
    """(wall seconds, CPU seconds of the command and its workers), or None past ``timeout``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # A session of its own, so that a command past the timeout is stopped with its workers.
    proc = subprocess.Popen([sys.executable, "-m", "drawodds", *args], env=environment(src),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        if proc.wait(timeout=timeout):
            raise subprocess.CalledProcessError(proc.returncode, args)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return None
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="the src folder of the checkout to time")
    parser.add_argument("--deals", type=int, default=10_000, help="deals per speed measurement")
    parser.add_argument("--timeout", type=float, default=900.0, help="give up on a command after this")
    parser.add_argument("--skip-commands", action="store_true", help="time the speeds only")
    args = parser.parse_args()
    print(f"src: {args.src}")
    print(f"{'game':<10} {'players':>7} {'player':<8} {'deals/CPU s':>12} {'deals/wall s':>13}")
    for game, players, name in SPEEDS:
        cpu, wall = speed(args.src, game, players, name, args.deals)
        print(f"{game:<10} {players:>7} {name:<8} {cpu:>12,.0f} {wall:>13,.0f}", flush=True)
    if args.skip_commands:
        return
    for cmd in COMMANDS:
        timed = command(args.src, cmd, args.timeout)
        text = "drawodds " + " ".join(cmd)
        if timed is None:
            print(f"{text:<46} did not finish in {args.timeout:.0f} s", flush=True)
        else:
            print(f"{text:<46} {timed[0]:7.1f} s wall, {timed[1]:7.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
