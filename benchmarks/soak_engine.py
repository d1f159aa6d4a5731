"""Soak the rules engine: a million random deals, every one checked against the invariants.

Random draw-game presets and options (a fresh rule set every 50 deals), stacks of 1-40 chips so
all-ins and side pots are common, random legal actions, mucks and exposed false openers. Each
finished deal goes through ``drawodds.engine.invariants.violations`` (the same checker the test
suite uses). Prints deals per second and the number of violations, which must be 0.

    PYTHONPATH=src python benchmarks/soak_engine.py [--deals 1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time

from drawodds.engine.history import text_log
from drawodds.engine.invariants import soak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="random deals to play and check")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random rules, stacks, decks and actions")
    parser.add_argument("--show", type=int, default=3, help="deals with violations to print in full")
    args = parser.parse_args()

    start = time.perf_counter()
    report = soak(args.deals, seed=args.seed)
    seconds = time.perf_counter() - start
    violations = sum(len(why) for _, _, _, why in report.bad)
    print(f"deals {report.deals:,}  seconds {seconds:,.1f}  deals/s {report.deals / seconds:,.0f}  "
          f"violations {violations}  (deals with any: {len(report.bad)})")
    met = ", ".join(f"{k} {report.seen[k]:,}" for k in (
        "side pots", "a pot no live hand may claim", "a side pot kept after mucking", "split",
        "reshuffle", "false_opener", "void", "blind", "openers split at a later draw",
        "a folded false opener exposed", "a dead hand left alone after mucks",
        "a biggest blind all-in for less", "a carried pot kept from a short ante",
        "a false opener exposed at seven players"))
    print(f"met: {met}")
    for deal, rules, state, why in report.bad[:args.show]:
        print(f"\ndeal {deal} under {rules}:\n  " + "\n  ".join(why))
        print(text_log(state))
    return 1 if report.bad else 0


if __name__ == "__main__":
    sys.exit(main())
