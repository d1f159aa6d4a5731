"""The deal refuses what it cannot play: each bad input is one sentence from the library (a
``DrawoddsError``), before any chip moves or any card is trusted."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from drawodds.engine.actions import IllegalAction, draw
from drawodds.engine.deal import DealState
from drawodds.errors import DrawoddsError
from drawodds.rules import RuleError, preset

DECK = list(range(52))


def refused(make: Callable[[], object]) -> DrawoddsError:
    with pytest.raises(DrawoddsError) as caught:
        make()
    text = str(caught.value)
    assert text and "\n" not in text and not text.startswith("<")
    return caught.value


def test_a_deck_that_is_no_deck() -> None:
    error = refused(lambda: DealState(preset(), [40] * 4, 3, None))   # type: ignore[arg-type]
    assert "the deck must be card codes" in str(error)


@pytest.mark.parametrize("reshuffle", [5, "shuffle", [1, 2]])
def test_a_reshuffle_that_cannot_be_called(reshuffle: object) -> None:
    assert "reshuffle must be a function" in str(refused(lambda: DealState(preset(), [40] * 4, 3, DECK,
                                                                          reshuffle=reshuffle)))  # type: ignore[arg-type]


@pytest.mark.parametrize("antes", ["no", 0, 1, None, "False"])
def test_antes_must_be_true_or_false(antes: object) -> None:
    assert "antes must be True or False" in str(refused(
        lambda: DealState(preset(), [40] * 4, 3, DECK, antes=antes)))  # type: ignore[arg-type]
    assert DealState(preset(), [40] * 4, 3, DECK, antes=False).contributed == [0] * 4


@pytest.mark.parametrize("game", ["chicago", "poengpoker"])
def test_a_points_game_plays_no_betting_deal(game: str) -> None:
    assert "is a points game" in str(refused(lambda: DealState(preset(game), [40] * 4, 3, DECK)))


def test_the_draw_game_has_no_instant_win() -> None:
    error = refused(lambda: preset("morkpoker", royal_instant_win=True))
    assert isinstance(error, RuleError) and "Chicago rule" in str(error)
    assert preset("chicago").royal_instant_win


def test_an_ante_larger_than_the_stack() -> None:
    error = refused(lambda: preset("morkpoker", ante=50, stack=40))
    assert isinstance(error, RuleError) and "more than a starting stack" in str(error)
    assert preset("morkpoker", ante=40, stack=40).ante == 40


def test_discards_belong_to_a_draw_only() -> None:
    state = DealState(preset(), [40] * 4, 3, DECK)
    mine = state.hands[state.actor][:2]
    error = refused(lambda: state.apply(("bet", tuple(mine))))
    assert isinstance(error, IllegalAction) and "only a draw takes discards" in str(error)
    assert state.actions == [] and state.contributed == [1] * 4       # nothing happened


def _play_to_the_reshuffle(reshuffle: Callable[[list[int]], list[int]]) -> DealState:
    """Eight players who all call and draw as many as they may: the stub runs out at the last draws."""
    state = DealState(preset("morkpoker", players=8), [40] * 8, 0, DECK, reshuffle=reshuffle)
    while state.phase != "done":
        kinds = [legal.kind for legal in state.legal()]
        if state.phase == "bet":
            state.apply("bet" if "bet" in kinds and state.round == 0 and state.opener is None
                        else "call" if "call" in kinds else "check")
        elif state.phase == "draw":
            most = next(legal.amount for legal in state.legal() if legal.kind == "draw")
            state.apply(draw(*state.hands[state.actor][:most]))
        else:
            state.apply(kinds[0])
    return state


def test_a_reshuffle_is_checked_not_trusted() -> None:
    given: list[list[int]] = []
    assert _play_to_the_reshuffle(lambda cards: given.append(list(cards)) or cards[::-1]).phase == "done"
    assert given, "the stub never ran out: the scenario no longer tests the reshuffle"
    for bad in (lambda cards: [cards[0]] * len(cards),               # a card twice
                lambda cards: [99, *cards[1:]],                       # no such card
                lambda cards: cards[:-1],                             # a card lost
                lambda cards: None):                                  # nothing at all
        error = refused(lambda bad=bad: _play_to_the_reshuffle(bad))  # type: ignore[misc]
        assert "the reshuffle must return the cards it was given" in str(error)
