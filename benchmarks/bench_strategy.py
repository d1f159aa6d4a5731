"""Benchmark: the full 9/6 Jacks-or-Better strategy table over all 2,598,960 deals.

Times a fresh process (interpreter start-up, imports, every table built from scratch) and its
peak memory, then, in the same run, a per-deal direct enumeration (all 32 holds, every draw
evaluated with ``evaluate``) on a sample of deals, extrapolated to every suit class and every
deal, as the in-run baseline. No C++ solver is installed here; the open videopoker-solver is
reported to take 12-13 s for the same table.

    PYTHONPATH=src python benchmarks/bench_strategy.py [--sample 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

import numpy as np

CHILD = """
import time, resource
t = time.perf_counter()
from drawodds.rules import preset
from drawodds.analyses.strategy import paytable_objective, solve
table = solve(paytable_objective(), preset("morkpoker", max_draw="any"))
print(f"{table.value:.6f} {table.classes} {time.perf_counter() - t:.3f} "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
"""


def full_table_in_fresh_process() -> tuple[float, str, float, int]:
    """Wall time including start-up, the printed return, in-process time, peak RSS (kB)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - t
    value, classes, inner, rss = out.stdout.split()
    return wall, value, float(inner), int(rss)


def direct_enumeration_seconds_per_deal(sample: int, seed: int) -> tuple[float, float]:
    """Per-deal time of the direct methods (32 holds, C(47, k) draws each, 2,598,960 final hands):
    ``keep --exact``'s enumerator (``holds.exact_holds``, shared draw key sums) and a plain one
    (``evaluate`` on every final hand of every hold)."""
    from drawodds.analyses.strategy import paytable_objective
    from drawodds.combinatorics import combinations
    from drawodds.evaluate import evaluate
    from drawodds.holds import exact_holds
    from drawodds.rules import preset

    values = paytable_objective().values
    rules = preset("morkpoker", max_draw="any")
    rng = np.random.default_rng(seed)
    deals = [np.sort(rng.choice(52, 5, replace=False)).astype(np.int8) for _ in range(sample)]
    for k in range(6):
        combinations(47, k)
    exact_holds(deals[0], rules)                         # warm the tables
    t = time.perf_counter()
    for deal in deals:
        exact_holds(deal, rules).value(values).max()
    keep_exact = (time.perf_counter() - t) / sample
    t = time.perf_counter()
    for deal in deals:
        stub = np.setdiff1d(np.arange(52), deal)
        best = -1.0
        for m in range(32):
            kept = deal[[i for i in range(5) if m >> i & 1]]
            draws = stub[combinations(47, 5 - len(kept))]
            hands = np.hstack([np.broadcast_to(kept, (len(draws), len(kept))), draws])
            best = max(best, float(values[evaluate(hands)].mean()))
    plain = (time.perf_counter() - t) / sample
    return keep_exact, plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=20, help="deals for the direct baseline")
    parser.add_argument("--repeat", type=int, default=3, help="fresh-process runs of the full table")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    runs = [full_table_in_fresh_process() for _ in range(args.repeat)]
    wall = min(r[0] for r in runs)
    value, inner, rss = runs[0][1], min(r[2] for r in runs), max(r[3] for r in runs)
    keep_exact, plain = direct_enumeration_seconds_per_deal(args.sample, args.seed)
    classes = 134_459
    print(f"9/6 Jacks or Better, optimal return over all 2,598,960 deals: {value}")
    print(f"whole table, fresh process incl. start-up: {wall:.2f} s (best of {args.repeat}; "
          f"all: {', '.join(f'{r[0]:.2f}' for r in runs)}), in-process {inner:.2f} s")
    print(f"peak memory (ru_maxrss of the child): {rss / 1024:.0f} MiB")
    for name, per_deal in (("keep --exact enumerator (holds.exact_holds)", keep_exact),
                           ("plain evaluate() per hold", plain)):
        print(f"direct, {name}: {per_deal * 1000:.1f} ms per deal ({args.sample} deals, seed "
              f"{args.seed}) -> {per_deal * classes / 60:.0f} min for the {classes:,} suit classes, "
              f"{per_deal * 2_598_960 / 3600:.1f} h for all deals; whole-table speed-up "
              f"{per_deal * classes / wall:,.0f}x (classes), {per_deal * 2_598_960 / wall:,.0f}x (deals)")
    print(f"vs the reported C++ videopoker-solver figure (12-13 s, not installed here, "
          f"not re-measured): {12.5 / wall:.1f}x")
    print(f"cpu: {os.cpu_count()} cores visible, 1 used; benchmark process peak "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
