"""Benchmark: the heads-up equilibrium at the table, against the rule players and the exploiters.

Plays ``--deals`` deals of heads-up draw in the full rules engine for each opponent, half with
the equilibrium in seat 0 and half in seat 1 (the button moves every deal, so it sits in both
chairs), and prints the equilibrium's chips per deal with a standard error. Next to it, the
solution's measured abstraction error: its own value with real cards dealt from one deck against
each seat dealt from its own deck (``play_out``, see docs/solve.md) — what card removal, which
the abstract game leaves out, does to the value. A row's verdict: "yes" when the equilibrium
loses by more than that error with two standard errors to spare (the row's and the error's
together), "no" when it cannot be losing by that much, "not yet" when more deals are needed.

    PYTHONPATH=src python benchmarks/bench_equilibrium.py [--rules morkpoker] [--deals 200000]
        [--opponents rule,reader,station,pat,raiser,snower,trips] [--playout-deals 2000000]
        [--solution FILE] [--workers 1] [--seed 1] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from drawodds.engine.session import simulate  # noqa: E402
from drawodds.execution import Runner  # noqa: E402
from drawodds.rules import preset  # noqa: E402
from drawodds.solver.player import NAME, equilibrium_factories  # noqa: E402
from drawodds.solver.playout import play_out

OPPONENTS = "rule,reader,station,pat,raiser,snower,trips"


def verdict(net: float, se: float, error: float, error_se: float) -> str:
    """Is the equilibrium beaten by more than the abstraction error (two standard errors)?"""
    margin = 2 * math.hypot(se, error_se)
    if net + margin < -error:
        return "yes"
    if net - margin > -error:
        return "no"
    return "not yet"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="morkpoker")
    parser.add_argument("--deals", type=int, default=200_000, help="deals per opponent (both seats together)")
    parser.add_argument("--opponents", default=OPPONENTS)
    parser.add_argument("--playout-deals", type=int, default=2_000_000,
                        help="deals per play_out row for the abstraction error")
    parser.add_argument("--solution", default=None, help="a solution file (default: the cached equilibrium)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result dictionary too")
    args = parser.parse_args()

    rules = preset(args.rules, players=2)
    t = time.perf_counter()
    factories = equilibrium_factories(rules, [NAME], solution=args.solution)
    tables = factories[NAME].tables()
    solution = tables.solution
    print(f"rules {rules.name}, heads-up: solution {solution.abstraction.pre_buckets} x "
          f"{solution.abstraction.final_buckets} buckets, exploitability "
          f"{1000 * solution.exploitability:.2f} milli-antes per deal in the abstract game, value seat 0 "
          f"{solution.value[0]:+.4f} (ready in {time.perf_counter() - t:.1f} s)", flush=True)

    t = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    shared = play_out(solution, args.playout_deals, rng, shared_deck=True)
    separate = play_out(solution, args.playout_deals, rng, shared_deck=False)
    diff = shared.value - separate.value
    diff_se = math.hypot(shared.standard_error, separate.standard_error)
    error = abs(diff) * rules.ante            # chips per deal
    print(f"abstraction error (seat 0, real cards: one deck {shared.value:+.4f} ± {shared.standard_error:.4f}, "
          f"own decks {separate.value:+.4f} ± {separate.standard_error:.4f} antes per deal): "
          f"{diff:+.4f} ± {diff_se:.4f} antes = {error:.4f} chips per deal "
          f"({2 * args.playout_deals / (time.perf_counter() - t):,.0f} deals/s)", flush=True)

    rows = []
    half = args.deals // 2
    print(f"\n{'opponent':<10} {'chips/deal':>11} {'± se':>7} {'deals/s':>9}  beaten?")
    with Runner(args.workers) as runner:
        for opponent in [o.strip() for o in args.opponents.split(",") if o.strip()]:
            t = time.perf_counter()
            parts = []
            for k, order in enumerate(([NAME, opponent], [opponent, NAME])):
                r = simulate(rules, deals=half, seed=args.seed + k, players=order, factories=factories,
                             runner=runner)
                parts.append(next(p for p in r.by_player if p.player == NAME))
            seconds = time.perf_counter() - t
            net = sum(p.net_per_deal for p in parts) / 2
            se = math.sqrt(sum(p.net_per_deal_se ** 2 for p in parts)) / 2
            row = {"opponent": opponent, "deals": 2 * half, "net_per_deal": net, "net_per_deal_se": se,
                   "deals_per_second": 2 * half / seconds, "beaten": verdict(net, se, error, diff_se * rules.ante)}
            rows.append(row)
            print(f"{opponent:<10} {net:>+11.4f} {se:>7.4f} {row['deals_per_second']:>9,.0f}  "
                  f"{row['beaten']}", flush=True)
    print(f"\nchips per deal from the equilibrium's side; beaten? = loses by more than the abstraction "
          f"error ({error:.4f}) with two standard errors to spare ('not yet': cannot tell).")
    if args.json:
        print(json.dumps({"rules": rules.name, "deals_per_opponent": 2 * half,
                          "solution": solution.to_dict() | {"curve": None},
                          "abstraction_error": {"one_deck": shared.to_dict(), "own_decks": separate.to_dict(),
                                                "difference": diff, "difference_se": diff_se,
                                                "chips_per_deal": error},
                          "matchups": rows}, indent=2))


if __name__ == "__main__":
    main()
