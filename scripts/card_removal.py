"""Where card removal between the seats acts: in the deal or in the draw.

Usage:  PYTHONPATH=src python scripts/card_removal.py [--rules morkpoker] [--players 2] [--deals 20000000]
            [--seed 1] [--json]

A solution plays itself with real cards three ways (``playout``'s loops, the showdown by true
strength): every seat dealt from its own deck and drawing from its own stub (the solver's model);
the hands dealt from one deck but each seat drawing from a stub of its own (the 47 cards it does
not hold, shuffled apart from the others' draws); and one deck for everything (the table). The
first step is what the joint deal of the pre-draw hands does, the second what drawing from the
stub the other hands leave does. Each row is its own Monte Carlo run, seeded apart.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from drawodds.rules import preset  # noqa: E402
from drawodds.solver.playout import (  # noqa: E402
    Deal,
    SolutionSeat,
    deal_block,
    deal_table,
    monte_carlo,
    play_block,
    play_table_block,
)
from drawodds.solver.solution import DrawSolution  # noqa: E402
from drawodds.solver.solve import equilibrium_solution  # noqa: E402
from drawodds.solver.subsets import N_CARDS, Floats, Ints  # noqa: E402
from drawodds.solver.table import TableSolution, table_equilibrium  # noqa: E402

DECKS = ("own", "hands", "one")     # a deck each; one deck for the hands, a stub each; one deck


def own_stub(hand: Ints, rng: np.random.Generator) -> Ints:
    """(n, 47) the cards not in ``hand``, in a fresh random order per deal."""
    n = len(hand)
    perm = rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (n, 1)), axis=1)
    held = np.zeros((n, N_CARDS), dtype=bool)
    held[np.arange(n)[:, None], hand] = True
    return perm[~np.take_along_axis(held, perm, axis=1)].reshape(n, N_CARDS - 5)


def deal(solution: DrawSolution | TableSolution, n: int, rng: np.random.Generator, deck: str) -> Deal:
    """``n`` deals dealt as ``deck`` says (``DECKS``)."""
    shared = deck != "own"
    one = (deal_table(solution, n, rng, shared) if isinstance(solution, TableSolution)
           else deal_block(solution, n, rng, shared))
    if deck != "hands":
        return one
    stubs = tuple(own_stub(h, rng) for h in one.hands)
    return Deal(one.hands, stubs, one.classes, one.buckets)


def run(solution: DrawSolution | TableSolution, players: int, deals: int, seed: int, deck: str
        ) -> tuple[list[float], list[float]]:
    """Every seat's mean result and standard error, in antes per deal."""
    rng = np.random.default_rng([seed, DECKS.index(deck)])
    shared = deck == "one"

    def block_pay(n: int) -> Floats:
        d = deal(solution, n, rng, deck)
        seats = [SolutionSeat(solution, s, d, rng) for s in range(players)]
        if isinstance(solution, TableSolution):
            return play_table_block(solution, d, seats, shared)
        pay = play_block(solution, d, (seats[0], seats[1]), shared)
        return np.stack([pay, -pay], axis=1)

    mean, se = monte_carlo(block_pay, deals, 50_000)
    return mean.tolist(), se.tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="morkpoker")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3))
    parser.add_argument("--deals", type=int, default=20_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = preset(args.rules)
    solution = table_equilibrium(rules) if args.players > 2 else equilibrium_solution(rules)
    out: dict[str, object] = {"rules": rules.name, "players": args.players, "deals": args.deals, "seed": args.seed,
                              "model": list(solution.value) if args.players > 2 else
                              [solution.value[0], -solution.value[0]]}
    rows = {}
    for deck in DECKS:
        start = time.perf_counter()
        mean, se = run(solution, args.players, args.deals, args.seed, deck)
        rows[deck] = (mean, se)
        print(f"{deck:>5}: " + ", ".join(f"{m:+.4f} ± {s:.4f}" for m, s in zip(mean, se, strict=True))
              + f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    for name, (a, b) in {"the joint deal (hands - own)": ("hands", "own"),
                         "the draw from one stub (one - hands)": ("one", "hands"),
                         "card removal in all (one - own)": ("one", "own")}.items():
        diff = [x - y for x, y in zip(rows[a][0], rows[b][0], strict=True)]
        se = [math.hypot(x, y) for x, y in zip(rows[a][1], rows[b][1], strict=True)]
        out[name] = {"difference": diff, "standard_error": se}
        print(f"{name}: " + ", ".join(f"{1000 * d:+.1f} ± {1000 * s:.1f} mA" for d, s in zip(diff, se, strict=True)))
    out["rows"] = {k: {"value": v[0], "standard_error": v[1]} for k, v in rows.items()}
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
