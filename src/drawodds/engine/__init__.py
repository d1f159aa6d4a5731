"""The betting game, deal by deal: one deal as a state machine, pots, betting players, sessions, histories."""

from drawodds.engine.deal import (
    BET,
    CALL,
    CHECK,
    FOLD,
    MUCK,
    RAISE,
    SHOW,
    STAND_PAT,
    Action,
    DealResult,
    DealState,
    IllegalAction,
    Legal,
    Observation,
    draw,
    play,
)

__all__ = ["BET", "CALL", "CHECK", "FOLD", "MUCK", "RAISE", "SHOW", "STAND_PAT", "Action", "DealResult",
           "DealState", "IllegalAction", "Legal", "Observation", "draw", "play"]
