"""Benchmark: `strategy --hand` with its list already in the cache, at 1 to 5 opponents.

Each run is a fresh `drawodds strategy --objective equity --opponents N --hand HAND --json`
process (interpreter start-up, imports, the stored list read back, and for a hand whose holds are
close, their simulation): its wall time and its CPU time (user + system of the child). The first
call at a table size builds the list and stores it (`--build` does that first, and says how long
it took); the cache is ``$DRAWODDS_CACHE``.

    PYTHONPATH=src python benchmarks/bench_strategy_hand.py [--opponents 1 2 3 4 5] [--repeat 5] [--build]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

HANDS = ("As Ad Kh Qc 4s", "2s 7h 8h 9h Th", "Kh Qd Js 7c 3s")


def run(opponents: int, hand: str) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh process answering one hand."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "drawodds", "strategy", "--objective", "equity", "--opponents",
                    str(opponents), "--hand", hand, "--json"], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--build", action="store_true", help="build (or check) each list in the cache first")
    args = parser.parse_args()
    print(f"cache {os.environ.get('DRAWODDS_CACHE', '(default)')}; load average {os.getloadavg()[0]:.1f}")
    print("| opponents | hand | wall s, median (all) | CPU s, median |")
    print("|---|---|---|---|")
    for n in args.opponents:
        if args.build:
            wall, cpu = run(n, HANDS[0])
            print(f"| {n} | first call (builds the list if not cached) | {wall:.1f} | {cpu:.1f} |", flush=True)
        for hand in HANDS:
            runs = [run(n, hand) for _ in range(args.repeat)]
            walls = [w for w, _ in runs]
            print(f"| {n} | {hand} | {statistics.median(walls):.2f} ({', '.join(f'{w:.2f}' for w in walls)}) | "
                  f"{statistics.median(c for _, c in runs):.2f} |", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
