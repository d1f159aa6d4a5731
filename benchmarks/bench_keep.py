"""Speed of `keep`: exact all-holds enumeration and the equity Monte Carlo, with peer ratios.

Run by hand (not a test):  python benchmarks/bench_keep.py
- exact: all 32 holds of a hand (every one of the 2,598,960 final hands once), warm, median over
  hands, and the ratio to phevaluator evaluating the same final hands one by one.
- command: `drawodds keep HAND --exact` wall time including start-up.
- equity: every legal hold x 100,000 trials against 3 opponents on one core, and with --workers 2.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import numpy as np

from drawodds.analyses.keep import keep
from drawodds.cards import parse_hand, unseen
from drawodds.combinatorics import combinations
from drawodds.holds import all_hold_masks, exact_holds
from drawodds.rules import preset

HANDS = ["AsAhKs7s3s", "9c9d5h5s2c", "Kh Qh Jh Th 2c", "7c5d4h3s2c", "QsQhQd7c2s", "AdKd9h6c2s"]


def exact_ms() -> float:
    rules, masks = preset(), all_hold_masks()
    exact_holds(parse_hand(HANDS[0]), rules, masks=masks)  # warm the combination caches
    times = []
    for text in HANDS:
        hand = parse_hand(text)
        for _ in range(3):
            t = time.perf_counter()
            exact_holds(hand, rules, masks=masks)
            times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def phevaluator_seconds_for_all_holds(sample: int = 300_000) -> float | None:
    """phevaluator's time for the same 2,598,960 final hands, from its rate on a sample of them."""
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        return None
    hand = parse_hand(HANDS[0])
    stub = unseen(hand.tolist())
    finals = [tuple(int(c) for c in stub[d]) for d in combinations(47, 5)[:sample]]
    t = time.perf_counter()
    for h in finals:
        evaluate_cards(*h)
    rate = sample / (time.perf_counter() - t)
    return 2_598_960 / rate


def command_seconds() -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "drawodds", "keep", HANDS[0], "--exact"], check=True,
                       capture_output=True)
        best = min(best, time.perf_counter() - t)
    return best


def equity_seconds(workers: int) -> tuple[float, int]:
    keep(HANDS[0], opponents=3, trials=2_000, seed=1)  # warm imports
    t = time.perf_counter()
    r = keep(HANDS[0], opponents=3, trials=100_000, seed=1, workers=workers)
    return time.perf_counter() - t, len(r.table)


def main() -> None:
    ms = exact_ms()
    print(f"exact, all 32 holds (2,598,960 final hands): {ms:.1f} ms median")
    peer = phevaluator_seconds_for_all_holds()
    if peer is not None:
        print(f"phevaluator per-hand API, same hands:        {1000 * peer:,.0f} ms  "
              f"-> drawodds is {1000 * peer / ms:,.0f}x faster")
    print(f"`drawodds keep {HANDS[0]} --exact` wall time incl. start-up: {command_seconds():.2f} s")
    for w in (1, 2):
        sec, n = equity_seconds(w)
        print(f"equity: {n} legal holds x 100,000 trials vs 3 opponents, {w} worker(s): {sec:.2f} s")
    print(f"(numpy {np.__version__}, python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
