"""Speed of the points games: vectorized tricks against a card-by-card reference, and whole games.

Run by hand (not a test):  PYTHONPATH=src python benchmarks/bench_points.py
No peer library plays Poengpoker tricks, so the references in the same run are Python loops
with a random legal card per play: a lean one over lists of ints (the fair comparison) and
``TrickGame``, the referee that checks every play. Ratios above 1 mean the vectorized path is
faster (the random strategy is the like-for-like row; sensible does more work per card). Whole
games and ``points_by_hold`` are reported as deals per second.
"""

from __future__ import annotations

import random
import time

import numpy as np

from drawodds.points.games import points_by_hold, simulate_points
from drawodds.points.tricks import TrickGame, play_tricks, random_play, sensible_play
from drawodds.rules import preset

ROWS = 20_000
LOOP_ROWS = 2_000


def deals(rows: int, players: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((rows, 52)), axis=1)[:, :5 * players]
    return order.reshape(rows, players, 5).astype(np.int8)


def referee_per_s(hands: np.ndarray, rules) -> float:
    """TrickGame (checks every play with the numpy legal mask): the slow, careful reference."""
    pick = random.Random(1)
    t = time.perf_counter()
    for h in hands:
        game = TrickGame(h, 0, rules)
        while not game.done:
            game.play(pick.choice(game.legal()))
    return len(hands) / (time.perf_counter() - t)


def plain_python_per_s(hands: np.ndarray) -> float:
    """A lean pure-Python loop (lists of ints, beat-or-any rule, random legal card): the fair
    scalar reference."""
    pick = random.Random(1)
    rows = [[list(map(int, seat)) for seat in h] for h in hands]
    t = time.perf_counter()
    for seats in rows:
        p, leader = len(seats), 0
        for _ in range(5):
            lead = win = -1
            win_seat = leader
            for j in range(p):
                seat = (leader + j) % p
                hand = seats[seat]
                if lead < 0:
                    legal = hand
                else:
                    higher = [c for c in hand if c % 4 == lead % 4 and c > lead]
                    legal = higher or hand
                card = pick.choice(legal)
                hand.remove(card)
                if lead < 0:
                    lead = win = card
                elif card % 4 == lead % 4 and card > win:
                    win, win_seat = card, seat
            leader = win_seat
    return len(rows) / (time.perf_counter() - t)


def vector_per_s(hands: np.ndarray, rules, strategy) -> float:
    t = time.perf_counter()
    play_tricks(hands, 0, rules, strategy, np.random.default_rng(1))
    return len(hands) / (time.perf_counter() - t)


def main() -> None:
    rules = preset("poengpoker")
    print("five tricks (deals/s; ratio = vectorized / loop)")
    for players in (2, 4, 6):
        table = rules.replace(players=players)
        hands = deals(ROWS, players, players)
        referee = referee_per_s(hands[:LOOP_ROWS], table)
        plain = plain_python_per_s(hands[:LOOP_ROWS])
        for name, strategy in (("random", random_play), ("sensible", sensible_play)):
            vec = vector_per_s(hands, table, strategy)
            print(f"  {players} players, {name:8s}: vectorized {vec:9,.0f}  plain Python {plain:8,.0f} "
                  f"({vec / plain:5.1f}x)  TrickGame referee {referee:6,.0f} ({vec / referee:5.1f}x)")
    for name in ("poengpoker", "chicago"):
        res = simulate_points(preset(name, players=4), games=2_000, seed=1)
        played = res.deals_per_game.value * res.games
        print(f"whole {name} games, 4 sensible players: {played / res.seconds:,.0f} deals/s "
              f"({res.games} games in {res.seconds:.1f} s)")
    t = time.perf_counter()
    df = points_by_hold("2c 2d As 9h 6c", preset("poengpoker"), opponents=3, trials=5_000, seed=1)
    dt = time.perf_counter() - t
    print(f"points_by_hold, {len(df)} holds x 5,000 trials: {dt:.1f} s "
          f"({len(df) * 5_000 / dt:,.0f} deal-holds/s)")


if __name__ == "__main__":
    main()
