"""Benchmark: heads-up draw solved to a given exploitability in the abstract game.

Builds the abstraction (timed apart, on ``--workers`` processes or a local Dask cluster with
``--dask``; ``--build-only`` stops there), runs CFR until the exploitability of the average
strategy is at most ``--milli-antes`` per deal (or ``--iterations`` run out), and prints the
curve of exploitability against iterations and CFR seconds, the value per seat and the peak
memory. One BLAS thread: the matrices are small and a shared machine makes threads wait on each
other. The load average is printed next to the build time: on a shared machine it explains most
of the spread between runs.

    PYTHONPATH=src python benchmarks/bench_solve.py [--rules morkpoker] [--pre 1024] [--final 512]
        [--workers 1] [--dask] [--build-only] [--schedule dcfr] [--milli-antes 1.0]
        [--iterations 5000] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from drawodds.execution import LOCAL_DASK  # noqa: E402
from drawodds.rules import preset  # noqa: E402
from drawodds.solver.abstraction import build_abstraction
from drawodds.solver.solve import solve


def peak_memory_gb() -> float:
    """Peak resident memory of this process so far (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="morkpoker")
    parser.add_argument("--pre", type=int, default=1024, help="pre-draw buckets (budget)")
    parser.add_argument("--final", type=int, default=512, help="final-strength buckets")
    parser.add_argument("--schedule", default="dcfr", choices=("cfr+", "dcfr"))
    parser.add_argument("--milli-antes", type=float, default=1.0, help="stop at this exploitability")
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--raises", type=int, default=None)
    parser.add_argument("--workers", type=int, default=1, help="processes for the abstraction build")
    parser.add_argument("--dask", action="store_true", help="build on a Dask cluster started on this machine")
    parser.add_argument("--build-only", action="store_true", help="time the abstraction build alone")
    parser.add_argument("--json", action="store_true", help="print the result dictionary too")
    args = parser.parse_args()

    rules = preset(args.rules)
    where = "a local Dask cluster" if args.dask else f"{args.workers} worker{'s' * (args.workers > 1)}"
    load = os.getloadavg()[0]
    t = time.perf_counter()
    abstraction = build_abstraction(rules, args.pre, args.final, workers=args.workers,
                                    scheduler=LOCAL_DASK if args.dask else None)
    build = time.perf_counter() - t
    print(f"rules {rules.name}: {abstraction.pre_buckets} pre-draw buckets x {abstraction.final_buckets} "
          f"final buckets, built in {build:.1f} s on {where} (load average {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after; peak memory of this process so far {peak_memory_gb():.2f} GB)")
    if args.build_only:
        return

    def show(point) -> None:
        print(f"  {point.iteration:6d} it  {point.seconds:8.1f} s  {1000 * point.exploitability:10.4f} mA  "
              f"value seat 0 {point.value:+.5f}", flush=True)

    print("  iteration   CFR time   exploitability   (antes per deal, abstract game)")
    sol = solve(rules, abstraction=abstraction, iterations=args.iterations, schedule=args.schedule,
                exploitability=args.milli_antes / 1000, raises=args.raises, progress=show)
    curve = sol.curve_frame()
    late = curve[curve.iteration >= 20]
    slope = np.polyfit(np.log(late.iteration), np.log(late.exploitability), 1)[0] if len(late) > 2 else float("nan")
    for level in (10.0, 1.0, 0.1):
        hit = curve[curve.milli_antes <= level]
        if len(hit):
            print(f"first at or below {level:g} mA: iteration {int(hit.iteration.iloc[0])}, "
                  f"{hit.seconds.iloc[0]:.1f} s CFR")
    print(f"infosets {sol.infosets:,} (seat 0 {sol.game.tree.infosets[0]:,}, seat 1 {sol.game.tree.infosets[1]:,})")
    print(f"{sol.iterations} iterations, {sol.seconds:.1f} s CFR + {build:.1f} s abstraction; "
          f"exploitability {1000 * sol.exploitability:.4f} mA per deal; log-log slope {slope:.2f}")
    print(f"value (antes per deal): seat 0 (left of the dealer) {sol.value[0]:+.5f}, seat 1 (dealer) "
          f"{sol.value[1]:+.5f}")
    print(f"peak memory {peak_memory_gb():.2f} GB")
    if args.json:
        print(json.dumps(sol.to_dict()))


if __name__ == "__main__":
    main()
