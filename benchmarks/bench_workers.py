"""Workers side by side: the same keep and simulate jobs on 1 and N processes, in one run.

Prints wall time, speed-up and whether the answers are identical (they must be: every chunk of
work draws from its own (seed, chunk) stream, whatever runs it).

    PYTHONPATH=src python benchmarks/bench_workers.py [--trials 2000000] [--deals 200000] [--workers 2]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import drawodds
from drawodds.engine.session import simulate
from drawodds.rules import preset


def timed(job: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = job()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2_000_000, help="keep: Monte Carlo trials")
    parser.add_argument("--deals", type=int, default=200_000, help="simulate: deals")
    parser.add_argument("--workers", type=int, default=2, help="the parallel run's worker count")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each (the best is kept)")
    parser.add_argument("--players", default="station", help="simulate: betting player at every seat")
    args = parser.parse_args()

    jobs: dict[str, Callable[[int], Any]] = {
        f"keep AsAhKs7s3s, 3 opponents, {args.trials:,} trials":
            lambda w: {k: v for k, v in drawodds.keep("AsAhKs7s3s", opponents=3, trials=args.trials, seed=3,
                                                      workers=w).to_dict().items() if k != "workers"},
        f"simulate morkpoker, 4 {args.players} players, {args.deals:,} deals":
            lambda w: simulate(preset("morkpoker", players=4), deals=args.deals, seed=1, players=args.players,
                               workers=w).to_dict(),
    }
    print(f"{'job':<52} {'1 worker':>9} {f'{args.workers} workers':>10} {'speed-up':>9}  same answer")
    for name, job in jobs.items():
        one = many = float("inf")
        answers = []
        for _ in range(args.repeat):   # alternate, so both see the same machine load
            t1, a1 = timed(lambda job=job: job(1))
            tn, an = timed(lambda job=job: job(args.workers))
            one, many = min(one, t1), min(many, tn)
            answers += [a1, an]
        same = all(a == answers[0] for a in answers)
        print(f"{name:<52} {one:>8.2f}s {many:>9.2f}s {one / many:>8.2f}x  {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
