"""Engine speed vs PokerKit on the same job, in the same run.

The job: fixed-limit five-card draw, blinds 1/2, bets 2/4, 2 and 6 players, everyone calls
(checks when nothing is owed), everyone draws three, showdown. PokerKit has no five-card draw
high game, so it is assembled from its SingleDraw and StandardHighHand classes (the second
street is given the big bet). Both engines shuffle their own decks and evaluate every showdown.

    PYTHONPATH=src python benchmarks/bench_engine.py [--seconds 6]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable

import numpy as np

from drawodds.engine.deal import CALL, CHECK, Action, DealState, Observation, play
from drawodds.engine.session import DeckSupply
from drawodds.rules import preset

SMALL, BIG, BLINDS, STACK = 2, 4, (1, 2), 10_000


class CallAndDrawThree:
    """Calls (or checks), throws the first three cards, always shows."""

    name = "call-draw-3"
    always_shows = True

    def __call__(self, obs: Observation) -> Action:
        if obs.phase == "draw":
            return Action("draw", obs.hand[:3])
        return CALL if obs.to_call > 0 else CHECK


def drawodds_job(players: int) -> Callable[[int], None]:
    rules = preset("morkpoker", players=players, blinds=BLINDS, small_bet=SMALL, big_bet=BIG,
                   stack=STACK)
    decks = DeckSupply(np.random.default_rng(1), rules.deck_size)
    policies = [CallAndDrawThree()] * players

    def run(deals: int) -> None:
        for d in range(deals):
            state = DealState(rules, [STACK] * players, d % players, decks.next(), deal_id=d)
            result = play(state, policies)
            assert result.outcome == "showdown"
    return run


def pokerkit_job(players: int) -> Callable[[int], None]:
    from pokerkit import Automation, Deck, FixedLimitPokerMixin, SingleDraw, StandardHighHand

    class FixedLimitFiveCardDraw(FixedLimitPokerMixin, SingleDraw):
        deck = Deck.STANDARD
        hand_types = (StandardHighHand,)
        hole_dealing_count = 5

    game = FixedLimitFiveCardDraw(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
         Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
         Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
        True, 0, BLINDS, SMALL)
    game.streets = (game.streets[0], dataclasses.replace(
        game.streets[1], min_completion_betting_or_raising_amount=BIG))

    def run(deals: int) -> None:
        for _ in range(deals):
            state = game([STACK] * players, players)
            while state.status:
                if state.can_stand_pat_or_discard():
                    state.stand_pat_or_discard(state.hole_cards[state.stand_patter_or_discarder_index][:3])
                elif state.can_check_or_call():
                    state.check_or_call()
                else:
                    raise RuntimeError("unexpected PokerKit state")
    return run


def calibrate(run: Callable[[int], None], seconds: float) -> int:
    """A batch size that takes about ``seconds``."""
    run(20)
    batch = 20
    while True:
        start = time.perf_counter()
        run(batch)
        if time.perf_counter() - start > seconds:
            return batch
        batch *= 2


def compare(ours: Callable[[int], None], theirs: Callable[[int], None], seconds: float,
            rounds: int = 7) -> tuple[float, float, float]:
    """Best deals/s of each engine, and the median ratio of rounds that alternate between them.

    The machine is shared: each round times both engines back to back under the same background
    load, so the per-round ratio is steadier than either speed on its own.
    """
    batch_ours = calibrate(ours, seconds / (2 * rounds))
    batch_theirs = calibrate(theirs, seconds / (2 * rounds))
    speeds: list[tuple[float, float]] = []
    for _ in range(rounds):
        pair = []
        for run, batch in ((ours, batch_ours), (theirs, batch_theirs)):
            start = time.perf_counter()
            run(batch)
            pair.append(batch / (time.perf_counter() - start))
        speeds.append((pair[0], pair[1]))
    ratios = sorted(a / b for a, b in speeds)
    return max(a for a, _ in speeds), max(b for _, b in speeds), ratios[len(ratios) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per table size (both engines)")
    args = parser.parse_args()
    print(f"{'players':>7} {'drawodds deals/s':>17} {'PokerKit deals/s':>17} {'median ratio':>13}")
    for players in (2, 6):
        ours, theirs, ratio = compare(drawodds_job(players), pokerkit_job(players), args.seconds)
        print(f"{players:>7} {ours:>17,.0f} {theirs:>17,.0f} {ratio:>12.1f}x")


if __name__ == "__main__":
    main()
