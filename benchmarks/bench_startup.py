"""Start-up: wall time of a fresh process for `drawodds --version`, `import drawodds` and the main job.

Each command runs in a new interpreter (the same Python as this script, with this environment), N
times; the median and the fastest run are printed. No `-X importtime`: this is the time a user waits.

    PYTHONPATH=src python benchmarks/bench_startup.py [--runs 11]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS: dict[str, list[str]] = {
    "drawodds --version": [sys.executable, "-m", "drawodds", "--version"],
    "import drawodds": [sys.executable, "-c", "import drawodds"],
    "drawodds keep AsAhKs7s3s": [sys.executable, "-m", "drawodds", "keep", "AsAhKs7s3s"],
    "python (nothing imported)": [sys.executable, "-c", "pass"],
}


def wall(command: list[str]) -> float:
    """Seconds from starting ``command`` to its exit (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each command (the median is printed)")
    args = parser.parse_args()
    for command in COMMANDS.values():    # warm the file cache and any compiled bytecode once
        wall(command)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):           # interleaved, so every command sees the same machine load
        for name, command in COMMANDS.items():
            times[name].append(wall(command))
    print(f"{'command':<28} {'median':>8} {'fastest':>8}  ({args.runs} runs each)")
    for name, runs in times.items():
        print(f"{name:<28} {statistics.median(runs):>7.3f}s {min(runs):>7.3f}s")


if __name__ == "__main__":
    main()
