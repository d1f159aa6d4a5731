"""Benchmark: holds chosen by the solved game's own values instead of equity against a field.

The solution keeps one hold per deal class and draw count, chosen by showdown equity against a
field. This measures whether choosing them by the solution's own values helps in the real game:
solve; for every class and draw count pick the legal hold with the largest expected value under
the solution's own play (both seats, every line and draw it reaches, its betting after the
draw; weighted by how often it gets there, times the chance it draws that many plus
``--floor``); recompute the exact transitions; solve again; repeat ``--rounds`` times. Each
solve is measured by the real game's best response. On the default game it moved the real
exploitability by a few hundredths of a milli-ante (see docs/benchmarks.md), so the product
keeps the field's holds.

    PYTHONPATH=src python benchmarks/bench_own_holds.py [--pre 1024] [--final 512] [--field-rounds 2]
        [--milli-antes 1] [--rounds 2] [--floor 1.0]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import resource  # noqa: E402
import time  # noqa: E402
from math import comb  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from drawodds.rules import preset  # noqa: E402
from drawodds.solver.abstraction import Abstraction, class_transitions, legal_hold_table, needed_levels  # noqa: E402
from drawodds.solver.best_response import RESOLUTIONS, _Game, best_response  # noqa: E402
from drawodds.solver.cache import cached_abstraction  # noqa: E402
from drawodds.solver.expectations import SubsetTables, hold_sums  # noqa: E402
from drawodds.solver.solution import DrawSolution  # noqa: E402
from drawodds.solver.solve import solve  # noqa: E402
from drawodds.solver.subsets import N_CARDS, N_MASKS, POPCOUNT, bucket_counts, hand_strengths  # noqa: E402

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def hold_scores(t: SubsetTables, vt: Floats, d: int, legal: npt.NDArray[np.bool_], weights: Floats,
                block: int = 16384) -> Floats:
    """(classes, 32): the sum over vectors of ``weights`` (classes x vectors) times the expected
    value per strength (``vt``: strengths x vectors) of each legal hold drawing ``d``; -inf else."""
    out = np.full((len(t.own), N_MASKS), -np.inf)
    for rows, sums in hold_sums(t, vt, d, block):
        for m, values in sums.items():
            score = (values * weights[rows]).sum(axis=1) / comb(N_CARDS - 5, d)
            out[rows, m] = np.where(legal[rows, m], score, -np.inf)
    return out


def own_holds(solution: DrawSolution, floor: float) -> Ints:
    """The legal hold of each (class, draw count) offered with the largest value under the
    solution's own play, weighted by own reach times (draw chance + ``floor``)."""
    a, g = solution.abstraction, solution.game
    game = _Game(solution, RESOLUTIONS["full"], (False, False, False))
    assert game.t is not None
    legal = legal_hold_table(a.classes, solution.rules)
    share = game.w / game.bucket_mass[a.class_bucket]
    scores = np.zeros((len(a.options), len(a.classes), N_MASKS))
    for seat in (0, 1):
        opp = 1 - seat
        pre_opp, pre_own = game._predraw_reach(opp), game._predraw_reach(seat)
        for q, members in g.groups.items():
            lines = [g.lines[m] for m in members]
            n = len(lines)
            post_reach = game._post_reach(opp, q, [pre_opp[ln.history] for ln in lines])
            stake = np.tile(np.array([ln.stake for ln in lines]), game.n_opt * game.n_opt)
            v = game._post_values(seat, q, post_reach, stake).reshape(game.n_opt, game.n_opt, n, -1)
            draw = solution.strategy[g.draw_nodes[(q, seat)]]
            assert draw is not None
            reach = np.stack([pre_own[ln.history] for ln in lines])          # (line, bucket)
            for k, d in enumerate(a.options):
                if d == 0:
                    continue
                if seat == 0:
                    vectors, w_rows = v[:, k].sum(axis=0), reach * (draw[:, :, k] + floor)
                else:
                    vectors = v[k].reshape(game.n_opt * n, -1)
                    w_rows = np.tile(reach, (game.n_opt, 1)) * (draw[:, :, k] + floor)
                weights = np.ascontiguousarray((w_rows[:, a.class_bucket] * share[None, :]).T)
                s = hold_scores(game.t, np.ascontiguousarray(vectors.T), d, legal, weights)
                scores[k] += np.where(np.isfinite(s), s, 0.0)
    out = a.class_holds.copy()
    rows = np.arange(len(a.classes))
    for k, d in enumerate(a.options):
        if d == 0:
            continue
        s = np.where((POPCOUNT == 5 - d)[None, :] & legal, scores[k], -np.inf)
        best = s.argmax(axis=1)
        better = (a.class_holds[:, k] >= 0) & (s[rows, best] > s[rows, a.class_holds[:, k].clip(0)] + 1e-15)
        out[better, k] = best[better]
    return out


def with_holds(a: Abstraction, holds: Ints) -> Abstraction:
    """The abstraction with other holds (same buckets, same legal draws), its transitions recomputed."""
    counts = bucket_counts(a.final_of_strength[hand_strengths()].astype(np.int64), a.final_buckets,
                           needed_levels(holds))
    w = a.class_weights.astype(np.float64)
    sums = class_transitions(a.classes, holds, a.final_of_strength, a.final_buckets, counts,
                             reduce=(a.class_bucket, w))
    mass = np.bincount(a.class_bucket, weights=w, minlength=a.pre_buckets)
    return dataclasses.replace(a, class_holds=holds, transitions=np.transpose(sums / mass[:, None, None], (1, 0, 2)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="morkpoker")
    parser.add_argument("--pre", type=int, default=1024)
    parser.add_argument("--final", type=int, default=512)
    parser.add_argument("--field-rounds", type=int, default=2)
    parser.add_argument("--milli-antes", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--floor", type=float, default=1.0)
    args = parser.parse_args()
    rules = preset(args.rules)
    a = cached_abstraction(rules, args.pre, args.final, args.field_rounds, workers=2)
    for r in range(args.rounds + 1):
        start = time.perf_counter()
        sol = solve(rules, abstraction=a, exploitability=args.milli_antes / 1000, iterations=100_000)
        real = best_response(sol, "full")
        print(f"round {r}: {sol.iterations} iterations, {time.perf_counter() - start:.0f} s; abstract "
              f"{1000 * sol.exploitability:.3f} mA, real {1000 * real.exploitability:.3f} mA, best responses "
              f"{real.best_response[0]:+.5f} {real.best_response[1]:+.5f}, value {sol.value[0]:+.5f}, peak "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GB, load {os.getloadavg()[0]:.1f}",
              flush=True)
        if r < args.rounds:
            holds = own_holds(sol, args.floor)
            changed = (holds != a.class_holds).any(axis=1)
            print(f"  holds changed for {changed.sum():,} deal classes "
                  f"({(a.class_weights * changed).sum() / a.class_weights.sum():.1%} of deals)", flush=True)
            a = with_holds(a, holds)


if __name__ == "__main__":
    main()
