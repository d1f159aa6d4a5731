"""Evaluator throughput: drawodds.evaluate on 10^6 and 10^7 random hands vs the peer libraries.

Run by hand (not a test):  python benchmarks/bench_eval.py [--peer-hands 200000]
Peers (pip install -e ".[bench]"): each library's fastest public per-hand call, on the same
hands, converted to its own card type before timing. PokerKit is slow, so it gets fewer hands;
every rate is hands per second, so the ratios stay comparable.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from drawodds.cards import format_cards
from drawodds.evaluate import evaluate


def random_hands(n: int, rng: np.random.Generator) -> np.ndarray:
    """n valid hands (five distinct cards each), drawn by partial shuffles."""
    keys = rng.random((n, 52), dtype=np.float32)
    return np.argpartition(keys, 5, axis=1)[:, :5].astype(np.int8)


def best_rate(fn: Callable[[], object], n: int, repeats: int = 3) -> float:
    """Hands per second, best of ``repeats`` runs."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def peer_rates(hands: np.ndarray, pokerkit_hands: int) -> dict[str, float]:
    """Per-hand throughput of treys, phevaluator, eval7 and pokerkit on the same hands."""
    texts = [format_cards(h) for h in hands]
    rates: dict[str, float] = {}
    try:
        from phevaluator import evaluate_cards
        ints = [tuple(int(c) for c in h) for h in hands]  # same rank*4+suit encoding
        rates["phevaluator"] = best_rate(lambda: [evaluate_cards(*h) for h in ints], len(ints))
    except ImportError:
        pass
    try:
        import eval7
        cards7 = [[eval7.Card(c) for c in t] for t in texts]
        rates["eval7"] = best_rate(lambda: [eval7.evaluate(h) for h in cards7], len(cards7))
    except ImportError:
        pass
    try:
        from treys import Card, Evaluator
        ev = Evaluator()
        tcards = [[Card.new(c) for c in t] for t in texts]
        rates["treys"] = best_rate(lambda: [ev.evaluate(h[:2], h[2:]) for h in tcards], len(tcards))
    except ImportError:
        pass
    try:
        from pokerkit import StandardHighHand
        strs = ["".join(t) for t in texts[:pokerkit_hands]]
        rates["pokerkit"] = best_rate(lambda: [StandardHighHand(s) for s in strs], len(strs), repeats=1)
    except ImportError:
        pass
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--peer-hands", type=int, default=200_000)
    ap.add_argument("--pokerkit-hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    evaluate(random_hands(1000, rng))  # build the tables outside the timing
    ours: dict[str, float] = {}
    for n in (10**6, 10**7):
        hands = random_hands(n, rng)
        ours[f"{n:.0e}"] = best_rate(lambda hands=hands: evaluate(hands), n)
    peers = peer_rates(random_hands(args.peer_hands, rng), args.pokerkit_hands)
    best_ours = max(ours.values())
    print(f"{'drawodds.evaluate':<28}{'hands/s':>16}")
    for label, rate in ours.items():
        print(f"  batch of {label:<18}{rate:>16,.0f}")
    print(f"{'peer (per-hand API)':<28}{'hands/s':>16}{'drawodds / peer':>18}")
    for name, rate in peers.items():
        print(f"  {name:<26}{rate:>16,.0f}{best_ours / rate:>17,.1f}x")


if __name__ == "__main__":
    main()
