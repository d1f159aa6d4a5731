"""Speed of draw policies and draw-count reading, with ratios measured in the same run.

Run: PYTHONPATH=src python benchmarks/bench_reading.py
- choose_holds on 300,000 hands;
- read_draw for each draw count in a fresh process;
- conditioned sampling vs naive rejection (deal random hands, keep those whose policy draws d),
  per accepted opponent hand: the point of weighting every holding exactly;
- equity trial rate against conditioned opponents (--vs) vs random opponents (keep's default).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import numpy as np

from drawodds.cards import parse_hand
from drawodds.policies import choose_holds, draw_policy
from drawodds.rules import preset


def best_of(fn, repeats: int = 3) -> float:
    """Best CPU time of a few runs (process time: the machine is shared, wall time is noisy)."""
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    rules = preset()
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((300_000, 52)), axis=1)[:, :5].astype(np.int8)
    for name in ("standard", "loose", "tight"):
        policy = draw_policy(name)
        choose_holds(policy, hands[:1000], rules)
        t = best_of(lambda policy=policy: choose_holds(policy, hands, rules), repeats=5)
        print(f"choose_holds {name:8s} 300,000 hands: {t:.3f} s CPU ({len(hands) / t / 1e6:.1f} M hands/s)")

    for d in range(4):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "drawodds", "read", str(d), "--json"], check=True,
                       capture_output=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"drawodds read {d} --json (fresh process, incl. start-up): {wall:.2f} s wall, {cpu:.2f} s CPU")

    from drawodds.sim.ranges import sample_conditioned

    ours = parse_hand("9c 9d 5h 5s 2c")
    policy = draw_policy("standard")
    sample_conditioned(rules, policy, [0], ours, 10, rng)          # build the cached weights
    for d in (0, 1, 3):
        n = 20_000
        t_cond = best_of(lambda d=d, n=n: sample_conditioned(rules, policy, [d], ours, n, rng))
        stub = np.setdiff1d(np.arange(52), ours).astype(np.int8)
        batch = 200_000

        def naive(d: int = d, n: int = n, stub: np.ndarray = stub, batch: int = batch) -> int:
            got = 0
            while got < n:
                dealt = rng.permuted(np.broadcast_to(stub, (batch, len(stub))), axis=1)[:, :5]
                got += int((5 - choose_holds(policy, dealt, rules).sum(1) == d).sum())
            return got
        t_naive = best_of(naive, repeats=1)
        print(f"opponent hands drawing {d}: conditioned {n / t_cond / 1e6:.2f} M/s, naive rejection "
              f"{n / t_naive / 1e6:.3f} M/s -> {t_naive / t_cond:.0f}x")

    from drawodds.holds import legal_holds
    from drawodds.sim.equity import OpponentModel, hold_equities

    hand = parse_hand("9c 9d 5h 5s 2c")
    masks = legal_holds(hand, rules)
    trials = 60_000
    plain = OpponentModel(opponents=2)
    vs = OpponentModel(opponents=2, draw_counts=(3, 1))
    hold_equities(hand, masks, rules, vs, trials=2_000)
    t_plain = best_of(lambda: hold_equities(hand, masks, rules, plain, trials=trials), repeats=2)
    t_vs = best_of(lambda: hold_equities(hand, masks, rules, vs, trials=trials), repeats=2)
    print(f"equity, 2 opponents, {len(masks)} holds: random opponents {trials / t_plain:,.0f} trials/s, "
          f"conditioned --vs 3 --vs 1 {trials / t_vs:,.0f} trials/s -> ratio {t_plain / t_vs:.2f}")


if __name__ == "__main__":
    main()
