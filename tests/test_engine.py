"""The rules engine: rule-document scenarios step by step, and properties over random play."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawodds.cards import parse_cards
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
    DealState,
    IllegalAction,
    Legal,
    Observation,
    draw,
    play,
)
from drawodds.engine.history import replay, text_log
from drawodds.engine.invariants import soak, violations
from drawodds.engine.players import CallingStation, RandomLegal, RuleBased
from drawodds.engine.pots import side_pots, uncalled_excess
from drawodds.engine.session import DeckSupply, Session, simulate
from drawodds.engine.table import _LIMITS
from drawodds.errors import DrawoddsError, RequestError
from drawodds.evaluate import evaluate
from drawodds.rules import RuleSet, preset


def stacked(hands: list[str], stub: str = "", joker: bool = False) -> list[int]:
    """A deck that deals ``hands[k]`` to the k-th player left of the dealer, then ``stub``, then the rest.

    A card asked for twice (the same filler hand at several seats) is replaced by the next
    unused card of its rank, or any unused card once the rank is gone: a deck holds each card once.
    """
    size = 53 if joker else 52
    used: set[int] = set()

    def fresh(c: int) -> int:
        if c in used:
            same_rank = [(c // 4) * 4 + (c + i) % 4 for i in range(4)] if c < 52 else []
            c = next((x for x in same_rank if x not in used), None) or \
                next(x for x in range(size) if x not in used)
        used.add(c)
        return c
    parsed = [[fresh(c) for c in parse_cards(h, joker=joker)] for h in hands]
    m = len(parsed)
    deck = [0] * (5 * m)
    for k, cards in enumerate(parsed):
        for j, c in enumerate(cards):
            deck[k + m * j] = c
    head = deck + [fresh(c) for c in parse_cards(stub, joker=joker)] if stub else deck
    rest = [c for c in range(size) if c not in head]
    return head + rest


def cards(text: str) -> list[int]:
    return parse_cards(text)


def legal_kinds(state: DealState) -> dict[str, int]:
    return {a.kind: a.amount for a in state.legal()}


def level(state: DealState) -> int:
    return max(state.committed)


# Hands for scenario tests (positions from the dealer's left).
JJ = "JsJh8c5d2c"
QQ = "QdQc8s5h2d"
NOTHING = "Kc9d7h4s3c"
TENS = "TsTdAc7h4d"


# ----- betting ladders and caps --------------------------------------------------------------

def test_swedish_ladder_5_10_15_20_then_call_or_fold() -> None:
    rules = preset("svensk")  # 6 players, 5/10, bet + 3 raises
    s = DealState(rules, [200] * 6, 5, stacked([NOTHING] * 6))
    assert s.actor == 0 and legal_kinds(s) == {"check": 0, "bet": 5}
    s.apply(BET)
    for seat, target in ((1, 10), (2, 15), (3, 20)):
        assert s.actor == seat
        assert legal_kinds(s)["raise"] == target - s.committed[seat]
        s.apply(RAISE)
        assert level(s) == target
    for seat in (4, 5, 0, 1, 2):
        assert s.actor == seat and set(legal_kinds(s)) == {"fold", "call"}
        s.apply(CALL)
    assert s.phase == "draw" and s.committed == [20] * 6


def test_roberts_rules_cap_10_to_50_and_20_to_100() -> None:
    rules = preset("jackpot", players=3)  # 10/20, bet + 4 raises
    s = DealState(rules, [400] * 3, 2, stacked([JJ, NOTHING, NOTHING]))
    s.apply(BET)
    targets = []
    while "raise" in legal_kinds(s):
        s.apply(RAISE)
        targets.append(level(s))
    assert [10, *targets] == [10, 20, 30, 40, 50]
    while s.phase == "bet":
        s.apply(CALL)
    for _ in range(3):
        s.apply(STAND_PAT)
    assert s.phase == "bet" and s.actor == 0 and s.bet_size == 20
    s.apply(BET)
    seen = [20]
    while "raise" in legal_kinds(s):
        s.apply(RAISE)
        seen.append(level(s))
    assert seen == [20, 40, 60, 80, 100]


def test_cap_lifted_heads_up_unless_house_rule() -> None:
    rules = preset("morkpoker", players=2, stack=100)
    s = DealState(rules, [100, 100], 1, stacked([NOTHING, NOTHING]))
    s.apply(BET)
    for _ in range(8):
        assert "raise" in legal_kinds(s)
        s.apply(RAISE)
    assert level(s) == 9
    kept = DealState(rules.replace(cap_heads_up=True), [100, 100], 1, stacked([NOTHING, NOTHING]))
    kept.apply(BET)
    for _ in range(4):
        kept.apply(RAISE)
    assert set(legal_kinds(kept)) == {"fold", "call"}


def test_cap_reached_multiway_stays_when_two_remain() -> None:
    rules = preset("morkpoker", players=3, stack=100)
    s = DealState(rules, [100] * 3, 2, stacked([NOTHING] * 3))
    s.apply(BET)
    for _ in range(4):
        s.apply(RAISE)  # seats 1, 2, 0, 1: bet + 4 raises, capped with three players
    assert s.actor == 2 and set(legal_kinds(s)) == {"fold", "call"}
    s.apply(FOLD)
    assert s.actor == 0 and set(legal_kinds(s)) == {"fold", "call"}


def test_seed_000_call_example_one_bet_raise_to_two() -> None:
    rules = preset("morkpoker", players=3)
    s = DealState(rules, [40] * 3, 2, stacked([NOTHING] * 3))
    s.apply(BET)          # seat 0 bets 1
    s.apply(RAISE)        # seat 1 raises to 2
    assert s.actor == 2 and legal_kinds(s)["call"] == 2   # fresh player puts in 2
    s.apply(CALL)
    assert s.actor == 0 and legal_kinds(s)["call"] == 1   # the first bettor adds 1
    s.apply(CALL)
    assert s.phase == "draw"


# ----- order of play -------------------------------------------------------------------------

def _ola_per_chic_christer(ola_folds: bool, first_after_draw: str = "opener") -> DealState:
    rules = preset("jackpot", first_after_draw=first_after_draw)
    # Ola is left of the dealer (Christer deals): Ola 0, Per 1, Chic 2, Christer 3.
    s = DealState(rules, [400] * 4, 3, stacked([JJ, QQ, NOTHING, NOTHING]))
    s.apply(BET)     # Ola opens for 10
    s.apply(RAISE)   # Per raises to 20
    s.apply(CALL)    # Chic calls 20
    s.apply(CALL)    # Christer calls 20
    s.apply(FOLD if ola_folds else CALL)
    assert s.phase == "draw" and s.opener == 0
    while s.phase == "draw":
        s.apply(STAND_PAT)
    return s


def test_opener_acts_first_after_the_draw_not_the_raiser() -> None:
    assert _ola_per_chic_christer(ola_folds=False).actor == 0


def test_next_player_from_opener_acts_first_when_opener_folded() -> None:
    assert _ola_per_chic_christer(ola_folds=True).actor == 1


def test_swedish_base_rule_left_of_button_acts_first_after_the_draw() -> None:
    rules = preset("svensk", players=4)
    s = DealState(rules, [200] * 4, 3, stacked([NOTHING] * 4))
    s.apply(CHECK)
    s.apply(BET)     # seat 1 opens
    s.apply(CALL)
    s.apply(CALL)
    s.apply(CALL)
    while s.phase == "draw":
        s.apply(STAND_PAT)
    assert s.actor == 0


def test_heads_up_non_dealer_acts_and_draws_first() -> None:
    rules = preset("morkpoker", players=2)
    s = DealState(rules, [40, 40], 0, stacked([NOTHING, NOTHING]))
    assert s.actor == 1
    s.apply(CHECK)
    s.apply(BET)     # the dealer opens
    s.apply(CALL)
    assert s.phase == "draw" and s.actor == 1
    s.apply(STAND_PAT)
    s.apply(STAND_PAT)
    assert s.actor == 0  # the opener speaks first after the draw


def test_all_check_in_round_one_redeals_and_the_pot_stays() -> None:
    rules = preset("morkpoker")
    s = DealState(rules, [40] * 4, 0, stacked([NOTHING] * 4), carried=3)
    for _ in range(4):
        s.apply(CHECK)
    r = s.result
    assert r is not None and r.outcome == "passed_out" and r.carried_out == 4 + 3
    assert r.net == (-1, -1, -1, -1)


def test_swedish_all_check_plays_on_to_the_draw() -> None:
    s = DealState(preset("svensk", players=3), [200] * 3, 2, stacked([NOTHING] * 3))
    for _ in range(3):
        s.apply(CHECK)
    assert s.phase == "draw"


def test_blinds_come_in_by_calling_the_biggest_blind_and_big_blind_has_the_option() -> None:
    rules = preset("morkpoker", blinds=(1, 2), small_bet=2, big_bet=4, players=4)
    s = DealState(rules, [40] * 4, 3, stacked([NOTHING] * 4))
    assert s.contributed == [1, 2, 0, 0] and s.actor == 2
    assert legal_kinds(s) == {"fold": 0, "call": 2, "raise": 4}
    s.apply(CALL)
    s.apply(CALL)
    s.apply(CALL)    # small blind completes
    assert s.actor == 1 and legal_kinds(s) == {"check": 0, "raise": 2}
    s.apply(CHECK)
    assert s.phase == "draw"


@pytest.mark.parametrize("blinds, overrides, message", [
    ((2, 1), {}, "must increase"),
    ((1, 3), {}, "twice the one before"),
    ((1, 2, 4), {"players": 2}, "at most one per player"),
    ((5,), {}, "2-4 blinds"),
    ((0, 1), {"blinds_doubling": False}, "positive"),
])
def test_blinds_are_validated_with_one_clear_sentence(blinds, overrides, message) -> None:
    from drawodds.rules import RuleError

    with pytest.raises(RuleError, match=message):
        preset("morkpoker", blinds=blinds, **overrides)
    assert preset("morkpoker", blinds=(1, 3), blinds_doubling=False).blinds == (1, 3)
    with pytest.raises(RuleError, match="ante, not blinds"):
        preset("jackpot", blinds=(5, 10))


def test_two_blinds_heads_up_the_small_blind_acts_first() -> None:
    rules = preset("morkpoker", players=2, blinds=(1, 2), small_bet=2, big_bet=4)
    s = DealState(rules, [40, 40], 1, stacked([NOTHING, QQ]))
    assert s.contributed == [1, 2] and s.actor == 0      # the non-dealer posts 1, the dealer 2
    assert legal_kinds(s) == {"fold": 0, "call": 1, "raise": 3}
    s.apply(CALL)
    assert s.actor == 1 and legal_kinds(s) == {"check": 0, "raise": 2}
    s.apply(CHECK)
    assert s.phase == "draw" and s.actor == 0


@pytest.mark.parametrize("blind_opener, first_after_draw", [("big_blind", 1), ("first_in", 2)])
def test_who_counts_as_the_opener_in_a_blind_game_is_an_option(blind_opener, first_after_draw) -> None:
    rules = preset("morkpoker", players=3, blinds=(1, 2), small_bet=2, big_bet=4, blind_opener=blind_opener)
    s = DealState(rules, [40] * 3, 2, stacked([NOTHING] * 3))
    s.apply(CALL)      # seat 2 comes in
    s.apply(CALL)      # the small blind completes
    s.apply(CHECK)     # the big blind
    while s.phase == "draw":
        s.apply(STAND_PAT)
    assert s.opener == first_after_draw and s.actor == first_after_draw
    s.apply(CHECK)
    s.apply(CHECK)
    s.apply(CHECK)
    assert s.phase == "showdown" and s.actor == first_after_draw   # checked through: opener shows


# ----- Jacks or Better ---------------------------------------------------------------------

def test_jacks_or_better_needs_openers_but_anyone_may_call_and_check_raise() -> None:
    rules = preset("jackpot", players=3)
    s = DealState(rules, [400] * 3, 2, stacked([TENS, JJ, NOTHING]))
    assert "bet" not in legal_kinds(s)  # tens cannot open
    with pytest.raises(IllegalAction):
        s.apply(BET)
    s.apply(CHECK)
    s.apply(BET)                        # jacks open
    s.apply(CALL)                       # nothing may call
    assert s.actor == 0 and "raise" in legal_kinds(s)  # check-raise
    s.apply(RAISE)
    assert level(s) == 20


def test_nobody_opens_pot_stays_and_consecutive_ante_limit() -> None:
    rules = preset("jackpot", players=3, max_consecutive_antes=2)
    players = [CallingStation(rules, np.random.default_rng(i)) for i in range(3)]
    session = Session(rules, players, decks=DeckSupply(np.random.default_rng(5), 52))
    seen = []
    while len(seen) < 3:
        r = session.play_deal()
        if r.outcome != "passed_out":  # stations never open: every deal is passed out
            raise AssertionError("a calling station opened")
        seen.append(r.carried_out)
    assert seen == [15, 30, 30]  # two antes of 5 x 3, then no new antes


def test_split_openers_are_announced_kept_aside_and_prove_the_opening() -> None:
    rules = preset("jackpot", players=2)
    s = DealState(rules, [400, 400], 1, stacked(["AsAhKs7s3s", "QdQc8s5h2d"], stub="2s4c"))
    s.apply(BET)
    s.apply(CALL)
    s.apply(draw(*cards("Ah")))          # split the aces for the flush
    assert (0, "split", 1) in s.events and s.aside[0] == cards("Ah")
    s.apply(draw(*cards("8s")))
    s.apply(CHECK)
    s.apply(CHECK)
    assert s.phase == "showdown"
    s.apply(Action("show"))
    s.apply(Action("show"))
    r = s.result
    assert r is not None and r.winners == (0,) and not r.dead_opener
    assert "split openers Ah" in text_log(s)


def test_false_opener_caught_at_showdown_cannot_win() -> None:
    rules = preset("jackpot", players=3, false_openers=True)
    # Ola opens with tens (false), Per and Chic call; Ola draws to a flush (hearts).
    s = DealState(rules, [400] * 3, 2, stacked(["ThTdAh7h4h", "9c9d5s5c2h", "8s8d6c3d2s"],
                                                stub="KhQh"))
    s.apply(BET)
    assert not s.opener_genuine
    s.apply(CALL)
    s.apply(CALL)
    s.apply(draw(*cards("Th Td")))
    s.apply(STAND_PAT)
    s.apply(STAND_PAT)
    while s.phase == "bet":
        s.apply(CHECK)
    while s.phase == "showdown":
        s.apply(Action("show"))
    r = s.result
    assert r is not None
    assert evaluate(np.array(s.hands[0])) > evaluate(np.array(s.hands[1]))  # Ola made the flush
    assert r.winners == (1,) and r.dead_opener and r.net == (-15, 30, -15)


def test_lone_opener_without_openers_leaves_the_pot_for_the_next_deal() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, NOTHING, NOTHING, NOTHING]))
    s.apply(BET)
    for _ in range(3):
        s.apply(FOLD)
    r = s.result
    assert r is not None and r.outcome == "uncontested" and r.dead_opener
    # The opening bet stays in the pot, as when the false opener is exposed before the draw.
    assert r.winners == () and r.carried_out == 30 and r.net == (-15, -5, -5, -5)
    assert not [e for e in s.events if e[1] == "return"]
    exposed = DealState(rules, [400] * 4, 3, stacked([TENS, NOTHING, NOTHING, NOTHING]))
    exposed.apply(BET)
    exposed.expose_false_opener()      # nobody holds openers to declare: the deal is void
    e = exposed.result
    assert e is not None and (e.net, e.carried_out) == (r.net, r.carried_out)


def test_false_opener_found_before_draw_after_a_raise_play_goes_on() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, QQ, NOTHING, NOTHING]))
    s.apply(BET)
    s.apply(RAISE)
    s.apply(CALL)
    s.expose_false_opener()
    assert s.folded[0] and s.actor == 3 and s.contributed[0] == 15  # Ola's chips stay in
    s.apply(CALL)
    assert s.phase == "draw" and s.actor == 1
    while s.phase == "draw":
        s.apply(STAND_PAT)
    assert s.actor == 1  # next player from the (dead) opener speaks first


def test_false_opener_found_at_once_another_player_with_openers_declares() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, NOTHING, JJ, NOTHING]))
    s.apply(BET)
    s.apply(CALL)         # one caller only: the deal does not go on by itself
    s.expose_false_opener()
    assert s.phase == "declare" and s.actor == 2  # seat 1 has no openers; seat 2 has jacks
    s.apply(Action("declare"))
    assert s.opener == 2 and s.phase == "bet" and s.contributed[2] == 15 and s.actor == 3
    s.apply(CALL)
    s.apply(CHECK)        # seat 1 had already called
    assert s.phase == "draw"


def test_false_opener_found_at_once_nobody_declares_deal_is_void() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s2 = DealState(rules, [400] * 4, 3, stacked([NOTHING, TENS, JJ, NOTHING]))
    s2.apply(CHECK)
    s2.apply(BET)         # seat 1 opens falsely
    s2.expose_false_opener()
    assert s2.phase == "declare" and s2.actor == 2
    s2.apply(Action("pass"))
    r = s2.result
    assert r is not None and r.outcome == "void" and r.carried_out == 20 + 10
    assert r.net == (-5, -15, -5, -5)


# ----- all-in, side pots, odd chips ------------------------------------------------------------

def test_side_pots_with_three_different_all_ins() -> None:
    rules = preset("morkpoker", players=4, max_raises=None, small_bet=2, big_bet=4, ante=1)
    # Best hand to the shortest stack, then the next: A > B > C > D.
    hands = ["AsAhAdKc2c", "KsKhKd3c4c", "QsQhQd5c6c", "JsJhJd7c8c"]
    s = DealState(rules, [4, 7, 10, 40], 3, stacked(hands))
    s.apply(BET)       # A bets 2 of 3: 1 left
    s.apply(RAISE)     # B to 4
    s.apply(RAISE)     # C to 6
    s.apply(RAISE)     # D to 8
    s.apply(CALL)      # A all-in for 3 in total this round
    s.apply(CALL)      # B all-in: 6
    s.apply(CALL)      # C: 8 of 9
    assert s.stacks == [0, 0, 1, 31] and s.phase == "draw"
    while s.phase == "draw":
        s.apply(STAND_PAT)
    assert s.phase == "bet" and s.actor == 2  # C and D still have chips
    s.apply(BET)       # C all-in for 1
    s.apply(CALL)
    while s.phase == "showdown":
        s.apply(Action("show"))
    r = s.result
    assert r is not None
    # Contributions: A 4, B 7, C 10, D 10. Main 16 to A; 9 to B; 6 to C.
    assert [p.amount for p in r.pots] == [16, 9, 6]
    assert r.net == (12, 2, -4, -10) and sum(r.net) == 0


def test_side_pot_belongs_to_its_contenders_an_all_in_wins_only_what_it_matched() -> None:
    rules = preset("morkpoker", players=3, max_raises=None)
    s = DealState(rules, [3, 40, 40], 2, stacked(["2c3d5h7s9c", "AsAhAdKc2d", "KsKhKdQc2h"]))
    s.apply(BET)
    s.apply(RAISE)
    s.apply(CALL)
    s.apply(CALL)                       # seat 0 all-in: 3 in all
    assert s.stacks[0] == 0 and s.phase == "draw"
    while s.phase == "draw":
        s.apply(STAND_PAT)
    s.apply(BET)                        # seat 1
    s.apply(CALL)                       # seat 2: a side pot of 4 between seats 1 and 2
    assert s.phase == "showdown" and s.actor == 1
    s.apply(MUCK)                       # seat 2 is left alone in the side pot: it is seat 2's
    assert s.actor == 2
    s.apply(MUCK)                       # ... and mucking for the main pot does not give it up
    r = s.result
    assert r is not None and s.stacks == [9, 35, 39]
    assert r.net == (6, -5, -1) and r.carried_out == 0
    assert [(p.amount, a) for p, a in zip(r.pots, r.awards, strict=False)] == [(9, (0,)), (4, (2,))]


def test_chips_no_live_hand_may_claim_stay_for_the_next_deal() -> None:
    rules = preset("jackpot", players=3, false_openers=True)
    s = DealState(rules, [400, 15, 400], 2, stacked([TENS, "2c3d5h7s9c", "KsKhKdQc2h"]))
    s.apply(BET)                        # a false opener
    s.apply(CALL)                       # all-in for 10 (15 with the ante)
    s.apply(RAISE)
    s.apply(CALL)
    while s.phase == "draw":
        s.apply(STAND_PAT)
    s.apply(BET)
    s.apply(FOLD)
    while s.phase == "showdown":
        s.apply(SHOW)
    r = s.result
    assert r is not None and r.dead_opener and r.winners == (1,)
    assert s.stacks == [375, 45, 375] and r.carried_out == 20    # 15 from each of three; 20 stays
    assert r.net == (-25, 30, -25)


def test_an_all_in_for_less_is_paid_what_it_matched_and_the_side_pot_goes_to_its_last_contender() -> None:
    # A deal a random four-player session once paid 23 chips to a seat all-in for 5.
    rules = preset("morkpoker")
    hands = ["7c9d8cJs3s", "6cQc6hTsJd", "8s7sJh5d9c", "5cAsQdKcTh"]
    s = DealState(rules, [77, 54, 24, 5], 3, stacked(hands, stub="4cQhTdAc9s8h8d"))
    for action in (BET, CALL, RAISE, RAISE, RAISE, RAISE, CALL, CALL, CALL):
        s.apply(action)
    assert s.contributed == [6, 6, 6, 5] and s.stacks[3] == 0
    for thrown in ("Js 9d 3s", "Jd Qc 6h", "", "5c"):
        s.apply(draw(*cards(thrown)) if thrown else STAND_PAT)
    s.apply(BET)
    s.apply(FOLD)
    s.apply(FOLD)
    assert s.phase == "showdown" and s.actor == 0
    s.apply(MUCK)
    r = s.result
    assert r is not None and r.winners == (0, 3)
    assert {seat: chips for seat, kind, chips in s.events if kind == "win"} == {3: 20, 0: 3}
    assert r.net == (-3, -6, -6, 15)


def test_simulated_histories_keep_every_invariant(tmp_path) -> None:
    from typer.testing import CliRunner

    from drawodds.cli import app
    from drawodds.engine.history import read_history, replay_deal
    from drawodds.rules import RuleSet

    path = tmp_path / "h.jsonl"
    out = CliRunner().invoke(app, ["simulate", "--players", "4", "--deals", "660", "--seed", "1",
                                   "--policy", "random", "--history", str(path)])
    assert out.exit_code == 0, out.output
    header, deals = read_history(path)
    rules = RuleSet.from_dict(header["rules"])
    for record in deals:
        state = replay_deal(rules, record)
        assert violations(state) == [], (record["deal"], violations(state))


def test_unmatched_bet_is_returned() -> None:
    rules = preset("morkpoker", players=3)
    s = DealState(rules, [2, 40, 40], 2, stacked([NOTHING] * 3))
    s.apply(CHECK)     # seat 0 (1 chip left)
    s.apply(BET)
    s.apply(RAISE)     # seat 2 to 2
    s.apply(CALL)      # seat 0 all-in for 1
    s.apply(FOLD)      # seat 1 folds 1
    assert s.stacks[2] == 38 and (2, "return", 1) in s.events and s.phase == "draw"


def test_incomplete_all_in_raise_reopens_only_from_half_a_step() -> None:
    rules = preset("morkpoker", players=3, small_bet=10, big_bet=20, ante=0, stack=100)
    # Seat 1 has 16: an all-in raise to 16 is 6 over the bet (>= half of 10): reopens.
    s = DealState(rules, [100, 16, 100], 2, stacked([NOTHING] * 3))
    s.apply(BET)
    s.apply(RAISE)
    assert s.stacks[1] == 0 and level(s) == 16
    s.apply(CALL)
    assert s.actor == 0 and "raise" in legal_kinds(s)
    # Seat 1 has 13: 3 over the bet does not reopen for those who already acted.
    t = DealState(rules, [100, 13, 100], 2, stacked([NOTHING] * 3))
    t.apply(BET)
    t.apply(RAISE)
    t.apply(CALL)
    assert t.actor == 0 and set(legal_kinds(t)) == {"fold", "call"} and legal_kinds(t)["call"] == 3


@pytest.mark.parametrize("complete, ladder", [(True, [10, 20, 30, 40, 50]), (False, [13, 23, 33, 43, 50])])
def test_short_all_in_bet_completed_or_raised_over_and_never_past_the_cap(complete, ladder) -> None:
    rules = preset("morkpoker", players=4, small_bet=10, big_bet=20, ante=0, complete_short_bet=complete)
    s = DealState(rules, [3, 400, 400, 400], 3, stacked([NOTHING] * 4))
    s.apply(BET)                         # all-in for 3: less than half a step
    assert level(s) == 3 and s.bets == 0
    seen = []
    while "raise" in legal_kinds(s):
        s.apply(RAISE)
        seen.append(level(s))
    assert seen == ladder                # bet + 4 raises; the cap is 50 per player
    assert set(legal_kinds(s)) == {"fold", "call"}


def test_opening_directly_with_a_raise_is_an_option() -> None:
    rules = preset("jackpot", players=3)
    s = DealState(rules, [400] * 3, 2, stacked([JJ, NOTHING, NOTHING]))
    assert legal_kinds(s) == {"check": 0, "bet": 10}
    with pytest.raises(IllegalAction):
        s.apply(RAISE)
    rules = preset("jackpot", players=3, open_with_raise=True)
    s = DealState(rules, [400] * 3, 2, stacked([JJ, NOTHING, NOTHING]))
    assert legal_kinds(s) == {"check": 0, "bet": 10, "raise": 20}
    s.apply(RAISE)
    assert s.opener == 0 and level(s) == 20 and s.bets == 2
    seen = []
    while "raise" in legal_kinds(s):
        s.apply(RAISE)
        seen.append(level(s))
    assert seen == [30, 40, 50]          # the opening raise counts as the bet and one raise
    tens = DealState(rules, [400] * 3, 2, stacked([TENS, NOTHING, NOTHING]))
    assert legal_kinds(tens) == {"check": 0}   # openers are still needed to open with a raise
    from drawodds.rules import RuleError
    with pytest.raises(RuleError, match="at least 1"):
        preset("jackpot", open_with_raise=True, max_raises=0)


def _dead_reraise(takes_back: bool) -> DealState:
    rules = preset("jackpot", players=4, false_openers=True, false_opener_takes_back=takes_back)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, QQ, NOTHING, NOTHING]))
    s.apply(BET)       # Ola opens without openers: 10
    s.apply(RAISE)     # Per 20
    s.apply(RAISE)     # Chic 30
    s.apply(CALL)      # Christer 30
    s.apply(RAISE)     # Ola re-raises to 40
    s.apply(CALL)      # Per calls the 40
    assert s.actor == 2
    s.expose_false_opener()
    return s


def test_exposed_false_opener_takes_back_its_later_bets_unless_the_house_says_no() -> None:
    s = _dead_reraise(takes_back=True)
    # Ola's bets after the opening go back, and Per's 10 that only answered them.
    assert (0, "return", 30) in s.events and (1, "return", 10) in s.events
    assert s.contributed == [15, 35, 35, 35] and s.phase == "draw" and s.actor == 1
    kept = _dead_reraise(takes_back=False)
    assert kept.contributed == [45, 45, 35, 35] and kept.phase == "bet" and kept.actor == 2
    assert legal_kinds(kept)["call"] == 10   # the dead hand's raise must be called


def test_a_cap_reached_multiway_stays_after_a_false_openers_raise_is_taken_back() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, QQ, NOTHING, NOTHING]))
    for action in (BET, RAISE, RAISE, FOLD, RAISE, RAISE):   # 10 20 30, fold, 40 (dead), 50: capped
        s.apply(action)
    assert level(s) == 50 and s.actor == 2
    s.expose_false_opener()             # Ola's 10 and Per's 10 over it go back: 40 to Chic
    assert level(s) == 40 and s.live == 2 and s.actor == 2
    s.apply(RAISE)
    assert level(s) == 50               # heads-up now, but the cap was reached with three
    assert set(legal_kinds(s)) == {"fold", "call"}


def test_exposed_false_opener_keeps_its_opening_bet_in_the_pot_even_unmatched() -> None:
    rules = preset("jackpot", players=3, false_openers=True)
    s = DealState(rules, [400, 9, 400], 2, stacked([TENS, JJ, NOTHING]))
    s.apply(BET)
    s.expose_false_opener()
    s.apply(Action("declare"))          # jacks declare the pot open, all-in for 4
    s.apply(FOLD)
    r = s.result
    assert r is not None and r.outcome == "uncontested" and not [e for e in s.events if e[1] == "return"]
    assert r.net == (-15, 14, -5) and r.carried_out == 6   # the unmatched 6 of the false bet stays


def test_exposed_false_opener_with_a_raise_to_answer_the_round_goes_on() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, QQ, NOTHING, NOTHING]))
    s.apply(BET)
    s.apply(RAISE)     # Per 20
    s.apply(CALL)      # Chic 20
    s.apply(CALL)      # Christer 20
    s.apply(RAISE)     # Ola 30: Per to act
    s.expose_false_opener()
    assert (0, "return", 20) in s.events and level(s) == 20 and s.phase == "draw"
    assert s.contributed == [15, 25, 25, 25]


# ----- edge rulings --------------------------------------------------------------------------

def _play_out(s: DealState) -> None:
    """Finish a deal calling or checking, standing pat and showing."""
    while s.actor is not None:
        if s.phase == "bet":
            s.apply(CALL if "call" in legal_kinds(s) else CHECK)
        else:
            s.apply(STAND_PAT if s.phase == "draw" else SHOW)


def test_a_false_opener_that_folded_keeps_its_chips_in_the_pot_when_exposed() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([NOTHING, TENS, "Jd9s7c4h3d", "Th8s6d5s2h"]))
    for action in (CHECK, BET, RAISE, CALL, RAISE, CALL, CALL, RAISE, CALL, FOLD):
        s.apply(action)
    assert s.folded[1] and s.stacks[1] == 365 and not s.opener_genuine
    s.expose_false_opener()
    # Folded chips stay in the pot (the Mørkpoker guide): nothing goes back to the dead hand.
    assert s.stacks[1] == 365 and s.contributed[1] == 35
    assert not [e for e in s.events if e[1] == "return"]
    assert s.phase == "bet" and s.actor == 2 and legal_kinds(s)["call"] == 10
    _play_out(s)
    r = s.result
    assert r is not None and r.net[1] == -35 and violations(s) == []


def test_taking_back_a_false_openers_raise_never_returns_folded_chips() -> None:
    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, QQ, NOTHING, "Th8s6d5s2h"]))
    # 10, 20, 20, 20, the false opener's 30, 30, 30, 40; the queens, who matched its raise, fold.
    for action in (BET, RAISE, CALL, CALL, RAISE, CALL, CALL, RAISE, CALL, FOLD):
        s.apply(action)
    assert s.actor == 2
    s.expose_false_opener()
    returns = {seat: chips for seat, kind, chips in s.events if kind == "return"}
    # The live seats get back what only answered the dead raise; the folded queens get nothing.
    assert returns == {0: 30, 2: 10, 3: 10}
    assert s.contributed == [15, 35, 25, 35] and legal_kinds(s)["call"] == 10
    _play_out(s)
    assert s.result is not None and violations(s) == []


def test_double_draw_openers_broken_at_the_second_draw_are_set_aside_and_prove_the_opening() -> None:
    rules = preset("jackpot", players=2, draws=2)
    s = DealState(rules, [400, 400], 1, stacked(["AsAhKs7s3s", QQ], stub="2c4c8h"))
    s.apply(BET)
    s.apply(CALL)
    s.apply(draw(*cards("3s")))          # keeps the aces: nothing to announce
    s.apply(draw(*cards("8s")))
    assert not [e for e in s.events if e[1] == "split"]
    s.apply(CHECK)
    s.apply(CHECK)
    s.apply(draw(*cards("Ah")))          # breaks the aces at the second draw
    assert (0, "split", 1) in s.events and s.aside[0] == cards("Ah")
    assert cards("Ah")[0] not in s.pile  # never reshuffled, never dealt to another player
    s.apply(STAND_PAT)
    s.apply(CHECK)
    s.apply(CHECK)
    s.apply(SHOW)
    s.apply(SHOW)
    r = s.result
    assert r is not None and not r.dead_opener and violations(s) == []
    assert "split openers Ah" in text_log(s)


def test_a_false_opener_whose_opponents_all_muck_leaves_the_pot_for_the_next_deal() -> None:
    rules = preset("jackpot", players=3, false_openers=True)
    s = DealState(rules, [400] * 3, 2, stacked([TENS, "9c9d5s5c2h", "8s8d6c3d2s"]))
    s.apply(BET)                          # opens with tens: a false opener
    s.apply(CALL)
    s.apply(CALL)
    for _ in range(3):
        s.apply(STAND_PAT)
    s.apply(BET)
    s.apply(CALL)
    s.apply(CALL)
    assert s.phase == "showdown" and s.actor == 0
    s.apply(SHOW)                         # it cannot prove openers: a dead hand
    s.apply(MUCK)
    s.apply(MUCK)                         # a mucked hand gave up its claim
    r = s.result
    assert r is not None and r.dead_opener and r.winners == ()
    assert r.net == (-35, -35, -35) and r.carried_out == 105 and violations(s) == []
    # A hand that does not muck still takes it from the dead opener.
    t = DealState(rules, [400] * 3, 2, stacked([TENS, "9c9d5s5c2h", "8s8d6c3d2s"]))
    for action in (BET, CALL, CALL, STAND_PAT, STAND_PAT, STAND_PAT, BET, CALL, CALL, SHOW, MUCK, SHOW):
        t.apply(action)
    assert t.result is not None and t.result.net == (-35, -35, 70)


@pytest.mark.parametrize("short_blind, to_call", [("full", 4), ("posted", 2)])
def test_a_biggest_blind_all_in_for_less_still_sets_the_full_blind(short_blind, to_call) -> None:
    rules = preset("morkpoker", players=3, blinds=(2, 4), small_bet=4, big_bet=8, short_blind=short_blind)
    s = DealState(rules, [40, 1, 40], 2, stacked([NOTHING, QQ, JJ]))
    assert s.contributed == [2, 1, 0] and s.actor == 2
    assert legal_kinds(s)["call"] == to_call
    _play_out(s)
    r = s.result
    assert r is not None and violations(s) == []
    # The all-in blind wins only what it matched, 1 from each; the side pot goes to the jacks.
    # Posted: the most anybody actually posted (the small blind's 2) is the bet to call.
    assert r.net[1] == 2 and r.net[2] == to_call - 2


def test_a_seat_all_in_on_the_ante_when_everybody_checks() -> None:
    rules = preset("morkpoker", players=3)
    s = DealState(rules, [1, 40, 40], 2, stacked(["AsAhAdKc2c", NOTHING, NOTHING]))
    assert s.stacks[0] == 0 and s.actor == 1      # all-in on the ante: it has no say
    s.apply(CHECK)
    s.apply(CHECK)
    r = s.result
    # The pot stays whole, its chip too (the Mørkpoker guide); with rebuy it plays for it next deal.
    assert r is not None and r.outcome == "passed_out" and r.carried_out == 3 and r.net == (-1, -1, -1)
    nxt = DealState(rules, [40, 39, 39], 0, stacked([NOTHING, NOTHING, "AsAhAdKc2c"]), carried=r.carried_out)
    assert nxt.pot == 6
    # Heads-up there is nobody to check with: no betting, the hands are shown.
    duo = DealState(preset("morkpoker", players=2), [1, 40], 1, stacked(["AsAhAdKc2c", NOTHING]))
    assert duo.phase == "draw"
    duo.apply(STAND_PAT)
    duo.apply(STAND_PAT)
    assert duo.phase == "showdown"
    duo.apply(SHOW)
    duo.apply(SHOW)
    assert duo.result is not None and duo.result.net == (1, -1)


@pytest.mark.parametrize("carried_pot, net", [("everyone", (92, 8, -10)), ("full_ante", (2, 98, -10))])
def test_a_one_chip_all_in_and_a_carried_pot(carried_pot, net) -> None:
    rules = preset("morkpoker", players=3, ante=5, small_bet=5, big_bet=10, carried_pot=carried_pot)
    s = DealState(rules, [1, 100, 100], 2, stacked(["AsAhAdKc2c", QQ, JJ]), carried=90)
    s.apply(CHECK)
    s.apply(CHECK)          # all check: with the ante all-in seat, the pot still stays
    assert s.result is not None and s.result.outcome == "passed_out"
    s = DealState(rules, [1, 100, 100], 2, stacked(["AsAhAdKc2c", QQ, JJ]), carried=90)
    s.apply(BET)
    s.apply(CALL)
    for _ in range(3):
        s.apply(STAND_PAT)
    s.apply(CHECK)
    s.apply(CHECK)
    for _ in range(3):
        s.apply(SHOW)
    r = s.result
    # The trips win 1 from each; the queens the side pot of 18, and under full_ante the carried 90.
    assert r is not None and r.net == net and r.carried_out == 0 and violations(s) == []


def test_an_exposed_false_opener_lifts_the_seven_player_draw_limit() -> None:
    rules = preset("jackpot", players=7, false_openers=True)
    hands = [TENS, QQ, *[NOTHING] * 5]
    s = DealState(rules, [400] * 7, 6, stacked(hands))
    s.apply(BET)
    s.apply(RAISE)
    while s.phase == "bet":
        s.apply(CALL)
    assert s.draw_limit(1) == 2              # nobody folded: two cards each
    t = DealState(rules, [400] * 7, 6, stacked(hands))
    t.apply(BET)
    t.apply(RAISE)
    t.expose_false_opener()                  # a dead hand draws nothing, like a fold
    while t.phase == "bet":
        t.apply(CALL)
    assert t.phase == "draw" and t.actor == 1 and t.draw_limit(1) == 3
    t.apply(draw(*cards("8s 5h 2d")))
    _play_out(t)
    assert t.result is not None and violations(t) == []


def test_odd_chip_goes_to_the_winner_nearest_the_dealers_left_or_is_carried() -> None:
    hands = ["AsKs9d7c3c", "AhKh9c7d3d", "QsJd8c6h2s"]  # seats 0 and 1 tie exactly
    for odd_chip, expected_net, carried in (("left_of_dealer", (1, 0, -1), 0), ("carry", (0, 0, -1), 1)):
        rules = preset("morkpoker", players=3, odd_chip=odd_chip)
        s = DealState(rules, [40] * 3, 2, stacked(hands))
        s.apply(BET)
        s.apply(CALL)
        s.apply(FOLD)    # pot 3 antes + 2 = 5: 2 each and one odd chip
        while s.phase == "draw":
            s.apply(STAND_PAT)
        s.apply(CHECK)
        s.apply(CHECK)
        while s.phase == "showdown":
            s.apply(Action("show"))
        r = s.result
        assert r is not None and r.winners == (0, 1)
        assert r.net == expected_net and r.carried_out == carried


def test_mucking_forfeits_and_folded_players_never_win() -> None:
    rules = preset("morkpoker", players=3)
    s = DealState(rules, [40] * 3, 2, stacked(["AsAhAdKc2c", "2s3h5d7c9c", "QsJd8c6h2h"]))
    s.apply(BET)
    s.apply(CALL)
    s.apply(FOLD)
    s.apply(STAND_PAT)
    s.apply(STAND_PAT)
    s.apply(CHECK)
    s.apply(CHECK)
    assert s.phase == "showdown" and s.actor == 0  # checked through: the opener shows first
    s.apply(Action("muck"))
    r = s.result
    assert r is not None and r.winners == (1,) and r.net == (-2, 3, -1)


def test_showdown_starts_with_the_last_bettor_of_the_final_round() -> None:
    rules = preset("morkpoker", players=3)
    s = DealState(rules, [40] * 3, 2, stacked([NOTHING] * 3))
    s.apply(BET)
    s.apply(CALL)
    s.apply(CALL)
    while s.phase == "draw":
        s.apply(STAND_PAT)
    s.apply(CHECK)
    s.apply(BET)   # seat 1 bets after the draw
    s.apply(CALL)
    s.apply(CALL)
    assert s.phase == "showdown" and s.actor == 1


# ----- the draw ------------------------------------------------------------------------------

def test_draw_limits_three_four_with_an_ace_and_seven_players() -> None:
    s = DealState(preset("morkpoker", players=2), [40, 40], 1, stacked([NOTHING, NOTHING]))
    s.apply(BET)
    s.apply(CALL)
    with pytest.raises(IllegalAction):
        s.apply(draw(*cards("Kc 9d 7h 4s")))
    ace = DealState(preset("morkpoker", players=2, max_draw="4-ace"), [40, 40], 1,
                    stacked(["AcKd7h4s3c", "Ks9d7c4d3h"]))
    ace.apply(BET)
    ace.apply(CALL)
    with pytest.raises(IllegalAction):
        ace.apply(draw(*cards("Ac Kd 7h 4s")))  # four, but the ace goes
    ace.apply(draw(*cards("Kd 7h 4s 3c")))
    assert ace.actor == 1 and legal_kinds(ace) == {"draw": 3}
    seven = DealState(preset("morkpoker", players=7), [40] * 7, 6, stacked([NOTHING] * 7))
    for _ in range(7):
        seven.apply(CALL if seven.level else BET)
    assert legal_kinds(seven) == {"draw": 2}


@pytest.mark.parametrize("joker_is_ace", [True, False])
def test_joker_and_four_with_an_ace_one_rule_for_engine_keep_and_policies(joker_is_ace: bool) -> None:
    from drawodds import keep
    from drawodds.holds import all_hold_masks, legal_hold_table, legal_holds
    from drawodds.policies import choose_holds, draw_policy

    rules = preset("morkpoker", players=2, joker=True, max_draw="4-ace", joker_is_ace_for_draw=joker_is_ace)
    for hand in ("JkKd7h4s3c", "AsKd7h4s3c", "JkAsKd7h4s", "Kc9d7h4s3c"):
        dealt = parse_cards(hand, joker=True)
        legal = {tuple(m) for m in legal_holds(np.array(dealt), rules).tolist()}
        strategy_masks = legal_hold_table(np.array([dealt]), rules)[0]  # index m: bit i = card i kept
        assert legal == {tuple(bool(m >> i & 1) for i in range(5)) for m in range(32) if strategy_masks[m]}
        fresh = DealState(rules, [40, 40], 1, stacked([hand, NOTHING], joker=True))
        fresh.apply(BET)
        fresh.apply(CALL)
        assert legal_kinds(fresh)["draw"] == max(5 - sum(m) for m in legal)
        for m in all_hold_masks().tolist():  # the engine accepts exactly the holds keep lists
            s = DealState(rules, [40, 40], 1, stacked([hand, NOTHING], joker=True))
            s.apply(BET)
            s.apply(CALL)
            thrown = [c for c, kept in zip(dealt, m, strict=False) if not kept]
            try:
                s.apply(draw(*thrown))
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (tuple(m) in legal), (hand, thrown)
    # The reported case: Jk Kd 7h 4s 3c may draw four exactly when the joker counts as the ace.
    assert keep("JkKd7h4s3c", opponents=0, by="points", joker=True, max_draw="4-ace",
                joker_is_ace_for_draw=joker_is_ace).table.keep.map(len).min() == (1 if joker_is_ace else 2)
    hands = np.array([parse_cards(h, joker=True) for h in ("JkKd7h4s3c", "Jk9d7h4s2c")])
    for name in ("standard", "loose"):
        kept = choose_holds(draw_policy(name), hands, rules)
        assert ((5 - kept.sum(1)) <= np.where((kept & rules.draw_aces(hands)).any(1), 4, 3)).all()


def test_stub_rebuilt_from_discards_never_returns_a_players_own_discards() -> None:
    rules = preset("morkpoker", players=8, seven_player_limit=False, max_draw="3")
    rng = np.random.default_rng(3)
    for trial in range(30):
        deck = rng.permutation(52).tolist()
        s = DealState(rules, [40] * 8, trial % 8, deck,
                      reshuffle=lambda c: [c[i] for i in rng.permutation(len(c))])
        while s.phase == "bet":
            s.apply(CALL if "call" in legal_kinds(s) else (BET if "bet" in legal_kinds(s) else CHECK))
        while s.phase == "draw":
            seat = s.actor
            thrown = s.hands[seat][:3]
            s.apply(draw(*thrown))
            assert not set(s.hands[seat]) & s.own_discards[seat]
            held = [c for h in s.hands for c in h]
            assert len(held) == len(set(held))
        assert any(k == "reshuffle" for _, k, _ in s.events)


def test_double_draw_has_a_betting_round_after_each_draw() -> None:
    rules = preset("morkpoker", players=2, draws=2)
    s = DealState(rules, [40, 40], 1, stacked([NOTHING, NOTHING]))
    s.apply(BET)
    s.apply(CALL)
    phases = []
    while s.phase != "done":
        phases.append((s.phase, s.round, s.bet_size if s.phase == "bet" else 0))
        s.apply(STAND_PAT if s.phase == "draw" else (CHECK if s.phase == "bet" else Action("show")))
    assert [p for p in phases if p[0] == "bet"] == [("bet", 1, 2)] * 2 + [("bet", 2, 2)] * 2
    assert len(s.draw_counts) == 2


def test_joker_deck_deals_the_bug_and_it_counts_as_an_ace() -> None:
    rules = preset("morkpoker", players=2, joker=True)
    s = DealState(rules, [40, 40], 1, stacked(["JkAsAd7c2h", "KsKhQd7d2s"], joker=True))
    s.apply(BET)
    s.apply(CALL)
    s.apply(STAND_PAT)
    s.apply(STAND_PAT)
    s.apply(CHECK)
    s.apply(CHECK)
    s.apply(Action("show"))
    s.apply(Action("show"))
    assert s.result is not None and s.result.winners == (0,)  # three aces beat kings


# ----- privacy, errors, histories ---------------------------------------------------------------

def test_observation_shows_only_own_cards_and_public_facts() -> None:
    # Every field is either the own hand, hands already shown at showdown, or public numbers.
    card_free = set(Observation._fields) - {"hand", "shown", "rules", "legal", "events"}
    assert card_free == {"seat", "phase", "button", "seats", "stacks", "contributed", "folded", "pot",
                         "to_call", "bet_size", "raises", "round", "opener", "draw_counts",
                         "max_draw", "deal_id"}
    rules = preset("jackpot", players=4, false_openers=True)
    rng = np.random.default_rng(8)
    players = [RandomLegal(np.random.default_rng(i)) for i in range(4)]
    for d in range(300):
        s = DealState(rules, [400] * 4, d % 4, rng.permutation(52).tolist(), deal_id=d)
        while s.actor is not None:
            seat = s.actor
            obs = s.observe(seat)
            assert obs.hand == s.hands[seat]
            assert all(kind != "deal" and isinstance(x, int) for _, kind, x in obs.events)
            shown_now = {seat_ for seat_, kind, *_ in s.private if kind == "show"}
            assert {seat_ for seat_, _ in obs.shown} == shown_now
            assert all(a.kind in {"fold", "check", "call", "bet", "raise", "draw", "show", "muck",
                                  "declare", "pass"} for a in obs.legal)
            s.apply(players[seat](obs))


def test_illegal_actions_raise_clear_errors() -> None:
    s = DealState(preset("morkpoker", players=2), [40, 40], 1, stacked([NOTHING, NOTHING]))
    with pytest.raises(IllegalAction, match="cannot fold"):
        s.apply(FOLD)
    with pytest.raises(IllegalAction, match="may not raise"):
        s.apply(RAISE)
    s.apply(BET)
    with pytest.raises(IllegalAction, match="cannot check"):
        s.apply(CHECK)
    s.apply(CALL)
    with pytest.raises(IllegalAction, match="own hand"):
        s.apply(draw(*cards("As")))
    with pytest.raises(IllegalAction, match="must draw"):
        s.apply(CALL)


# ----- bad set-ups and actions ------------------------------------------------------------------

@pytest.mark.parametrize("rules, message", [
    (RuleSet(opener="jacks", blinds=(1, 2)), "ante, not blinds"),
    (RuleSet(blinds=(2, 1)), "must increase"),
    (RuleSet(max_raises=-1), "max_raises must be >= 0"),
    (RuleSet(max_draw="7"), "max draw must be one of"),  # type: ignore[arg-type]
    (RuleSet(odd_chip="cary"), "odd_chip must be left_of_dealer or carry"),  # type: ignore[arg-type]
    (RuleSet(empty_stub="short"), "points games"),
    ("morkpoker", "rules must be a RuleSet"),
])
def test_a_rule_set_built_directly_is_validated_by_the_deal(rules, message) -> None:
    with pytest.raises(DrawoddsError, match=message):
        DealState(rules, [40] * 4, 3, list(range(52)))
    assert all(hit[0] is not rules for hit in _LIMITS.values())   # nothing kept of a bad rule set


FULL = list(range(52))


@pytest.mark.parametrize("stacks, button, deck, carried, message", [
    ([40] * 4, 3, [7] * 52, 0, "holds a card twice"),
    ([40] * 4, 3, [*FULL[:-1], 99], 0, "card 99"),
    ([40] * 4, 3, [*FULL[:-1], 52], 0, "the joker, but these rules play without it"),
    ([40] * 4, 3, [*FULL[:-1], -1], 0, "card -1"),
    ([40] * 4, 3, [0.5, *FULL[1:]], 0, "card codes"),
    ([40] * 4, 3, FULL, -10, "carried must be a whole number of chips, at least 0, got -10"),
    ([40] * 4, 3, FULL, 1.5, "carried must be"),
    ([40] * 5, 3, FULL, 0, "5 stacks but the rules seat at most 4 players"),
    ([40] * 4, 9, FULL, 0, "button must be a seat from 0 to 3, got 9"),
    ([40] * 4, -1, FULL, 0, "button must be a seat"),
    ([40] * 4, "3", FULL, 0, "button must be a seat"),
    ([40, -5, 40, 40], 3, FULL, 0, "none negative"),
    ([40, 4.5, 40, 40], 3, FULL, 0, "stacks must be whole numbers"),
    ([40, "40", 40, 40], 3, FULL, 0, "stacks must be whole numbers"),
    ([40, 0, 0, 0], 0, FULL, 0, "at least two players with chips"),
    ([40] * 4, 3, FULL[:19], 0, "20 are needed"),
])
def test_a_deal_refuses_a_bad_set_up_in_one_sentence(stacks, button, deck, carried, message) -> None:
    with pytest.raises(RequestError, match=message) as caught:
        DealState(preset("morkpoker"), stacks, button, deck, carried=carried)
    assert "\n" not in str(caught.value)


def test_a_deal_takes_numpy_stacks_deck_and_button() -> None:
    s = DealState(preset("morkpoker"), np.array([40] * 4), np.int64(3), np.arange(52))
    assert s.deck == FULL and all(type(c) is int for c in s.stacks) and s.actor == 0
    joker = DealState(preset("morkpoker", joker=True), [40] * 4, 3, list(range(53)))
    assert len(joker.deck) == 53


@pytest.mark.parametrize("action", [None, 42, 4.5, ("bet",), ("bet", None), Action(3), ["call", ()],
                                    Action("draw", ("As",)), Action("draw", (1.0,))])
def test_an_action_that_is_no_action_is_illegal_and_changes_nothing(action) -> None:
    s = DealState(preset("morkpoker", players=2), [40, 40], 1, stacked([NOTHING, QQ]))
    s.apply(BET)
    s.apply(CALL)
    before = (s.phase, s.actor, list(s.events), list(s.actions), s.hands[:], list(s.stacks))
    with pytest.raises(IllegalAction):
        s.apply(action)
    assert (s.phase, s.actor, list(s.events), list(s.actions), s.hands[:], list(s.stacks)) == before


def test_history_replays_to_the_same_result_and_reads_as_text(tmp_path) -> None:
    path = tmp_path / "deals.jsonl"
    rules = preset("jackpot", false_openers=True)
    result = simulate(rules, deals=300, seed=4, players="random", history=path)
    replayed = replay(path)
    assert len(replayed) == 300
    header = json.loads(path.read_text().splitlines()[0])
    assert header["seed"] == 4 and header["rules"]["opener"] == "jacks"
    assert sum(r.net[0] for r in replayed) == result.seats[0].net
    text = tmp_path / "deals.txt"
    simulate(rules, deals=20, seed=4, players="random", history=text)
    body = text.read_text()
    assert "is dealt" in body and "outcome:" in body


def test_replay_detects_a_tampered_history(tmp_path) -> None:
    path = tmp_path / "deals.jsonl"
    simulate(preset("morkpoker"), deals=30, seed=2, players="random", history=path)
    lines = path.read_text().splitlines()
    record = json.loads(lines[5])
    record["net"][0] += 1
    lines[5] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="replays to"):
        replay(path)


def test_public_api_plays_a_deal_from_the_package_root() -> None:
    import drawodds

    for name in ("DealState", "BET", "CALL", "RAISE", "FOLD", "CHECK", "STAND_PAT", "SHOW", "MUCK",
                 "draw", "IllegalAction", "preset", "RuleSet"):
        assert name in drawodds.__all__ and hasattr(drawodds, name)
    assert isinstance(drawodds.preset("jackpot"), drawodds.RuleSet)
    deck = stacked(["AsAhAdKc2d", NOTHING])      # the top of the deck, one card at a time
    s = drawodds.DealState(drawodds.preset("morkpoker", players=2), [40, 40], 1, deck)
    assert s.hands[0] == tuple(deck[0:10:2]) and s.hands[1] == tuple(deck[1:10:2])
    s.apply(drawodds.BET)
    s.apply(drawodds.CALL)
    with pytest.raises(drawodds.IllegalAction):
        s.apply(drawodds.FOLD)
    s.apply(drawodds.draw(*cards("Kc 2d")))
    s.apply(drawodds.STAND_PAT)
    s.apply(drawodds.CHECK)
    s.apply(drawodds.CHECK)
    s.apply(drawodds.SHOW)
    s.apply(drawodds.MUCK)
    assert s.result is not None and s.result.winners == (0,) and s.result.net == (2, -2)
    raised = drawodds.DealState(drawodds.preset("morkpoker", players=2), [40, 40], 1, deck)
    raised.apply(drawodds.BET)
    raised.apply(drawodds.RAISE)
    assert raised.committed == [1, 2]


def test_invariants_hold_over_20000_random_deals_every_preset_and_option() -> None:
    # Random presets and options, stacks of 1-40 chips: all-ins and side pots are everyday.
    report = soak(20_000, seed=11)
    assert report.bad == (), [(d, why) for d, _, _, why in report.bad[:5]]
    for seen in ("preset morkpoker", "preset svensk", "preset jackpot", "side pots",
                 "a pot no live hand may claim", "a side pot kept after mucking", "split",
                 "reshuffle", "false_opener", "declare", "void", "blind", "return", "carry",
                 "passed_out", "uncontested", "showdown", "muck",
                 "openers split at a later draw", "a folded false opener exposed",
                 "a dead hand left alone after mucks", "a biggest blind all-in for less",
                 "a carried pot kept from a short ante", "a false opener exposed at seven players"):
        assert report.seen[seen] > 0, seen


# ----- pots helpers ----------------------------------------------------------------------------

def test_side_pot_layers_and_uncalled_excess() -> None:
    pots = side_pots([4, 7, 10, 10], [True] * 4, carried=2)
    assert [(p.amount, p.eligible) for p in pots] == [(18, (0, 1, 2, 3)), (9, (1, 2, 3)), (6, (2, 3))]
    assert side_pots([5, 9, 9], [True, False, True]) == side_pots([5, 9, 9], [True, False, True])
    assert uncalled_excess([3, 10, 6]) == (1, 4)
    assert uncalled_excess([6, 6, 2]) == (-1, 0)


# ----- properties over random play ------------------------------------------------------------

def _check_deal(state: DealState, policies, start_total: int, expose_rate: float = 0.0,
                coin_seed: int = 0) -> None:
    """Play to the end checking the invariants after every action.

    With ``expose_rate`` a false opener is exposed before the draw at that rate per action.
    """
    rules = state.rules
    dealt = {c for s in state.order for c in state.hands[s]}
    assert len(dealt) == 5 * len(state.order)
    coin = np.random.default_rng(coin_seed)
    while state.actor is not None:
        seat = state.actor
        if (expose_rate and state.opener is not None and not state.opener_genuine
                and not state.dead_opener and coin.random() < expose_rate):
            try:
                state.expose_false_opener()
            except IllegalAction:
                pass  # already past the draw: the showdown will catch it
            continue
        state.apply(policies[seat](state.observe(seat)))
        if state.result is None:  # during the deal every chip is behind or in the middle
            assert sum(state.stacks) + sum(state.contributed) + state.carried_in == start_total
        assert min(state.stacks) >= 0
        held = [c for s in state.order for c in state.hands[s]]
        assert len(held) == len(set(held)), "a card is in two hands"
        for s in state.order:
            assert not set(state.hands[s]) & state.own_discards[s], "own discard dealt back"
        if state.phase == "bet" and rules.max_raises is not None:
            capped = rules.cap_heads_up or state.live > 2 or state.capped_multiway
            assert not capped or state.bets <= 1 + rules.max_raises
    r = state.result
    assert r is not None
    assert sum(r.stacks) + r.carried_out == start_total
    assert violations(state) == []


RULE_VARIANTS = st.fixed_dictionaries({
    "name": st.sampled_from(["morkpoker", "svensk", "jackpot"]),
    "players": st.integers(2, 7),
    "joker": st.booleans(),
    "max_draw": st.sampled_from(["3", "4-ace", "4", "5"]),
    "draws": st.integers(1, 3),
    "blinds": st.sampled_from([(), (1, 2), (1, 2, 4)]),
    "cap_heads_up": st.booleans(),
    "odd_chip": st.sampled_from(["left_of_dealer", "carry"]),
    "false_openers": st.booleans(),
    "max_raises": st.sampled_from([None, 0, 1, 3, 4]),
    "first_after_draw": st.sampled_from(["opener", "left_of_button"]),
    "all_check_redeal": st.booleans(),
})


def _rules_from(v: dict):
    overrides = {k: v[k] for k in ("players", "joker", "max_draw", "draws", "cap_heads_up",
                                   "odd_chip", "max_raises", "first_after_draw")}
    if v["max_draw"] in ("4", "5"):
        overrides["players"] = min(v["players"], 5)
    if v["name"] == "jackpot":
        overrides["false_openers"] = v["false_openers"]
    else:
        overrides["all_check_redeal"] = v["all_check_redeal"]
        if v["blinds"] and len(v["blinds"]) < overrides["players"]:
            overrides["blinds"] = v["blinds"]
    return preset(v["name"], **overrides)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=RULE_VARIANTS, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_play_conserves_chips_and_respects_the_rules(variant, seed, data) -> None:
    rules = _rules_from(variant)
    n = rules.players
    rng = np.random.default_rng(seed)
    stacks = data.draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    if sum(1 for x in stacks if x > 0) < 2:
        stacks[:2] = [7, 30]
    button = next(i for i in range(n) if stacks[(i + seed) % n] > 0)
    button = (button + seed) % n
    policies = [RandomLegal(np.random.default_rng(seed + i)) for i in range(n)]
    carried = data.draw(st.integers(0, 9))
    state = DealState(rules, stacks, button, rng.permutation(rules.deck_size).tolist(),
                      carried=carried, reshuffle=lambda c: [c[i] for i in rng.permutation(len(c))])
    _check_deal(state, policies, sum(stacks) + carried, expose_rate=0.3 if rules.false_openers else 0.0,
                coin_seed=seed)


@pytest.mark.parametrize("name", ["morkpoker", "svensk", "jackpot"])
def test_long_random_runs_under_every_preset(name: str) -> None:
    rules = preset(name, false_openers=True) if name == "jackpot" else preset(name)
    rng = np.random.default_rng(11)
    n = rules.players
    policies = [RandomLegal(np.random.default_rng(100 + i)) for i in range(n)]
    stacks = [rules.stack] * n
    carried = 0
    seen: set[str] = set()
    for d in range(1500):
        if sum(1 for x in stacks if x > 0) < 2:
            stacks = [rules.stack] * n
        button = d % n
        while stacks[button] <= 0:
            button = (button + 1) % n
        total = sum(stacks) + carried
        state = DealState(rules, stacks, button, rng.permutation(rules.deck_size).tolist(),
                          carried=carried, deal_id=d,
                          reshuffle=lambda c: [c[i] for i in rng.permutation(len(c))])
        _check_deal(state, policies, total, expose_rate=0.5 if rules.false_openers else 0.0,
                    coin_seed=d)
        assert state.result is not None
        seen.add(state.result.outcome)
        seen.update(kind for _, kind, _ in state.events)
        stacks, carried = list(state.result.stacks), state.result.carried_out
    assert {"uncontested", "showdown", "raise", "fold", "muck", "return", "win"} <= seen
    if name == "jackpot":  # every false-opener branch was played
        assert {"void", "declare", "false_opener", "split", "passed_out"} <= seen


def test_policies_play_whole_sessions_and_nets_balance() -> None:
    rules = preset("morkpoker")
    r = simulate(rules, deals=400, seed=9, players=["rule", "rule", "station", "random"])
    assert sum(s.net for s in r.seats) + r.pot_carried_at_end == 0
    assert abs(r.passed_out + r.uncontested + r.showdown - 1) < 1e-12
    again = simulate(rules, deals=400, seed=9, players="rule,rule,station,random")
    assert again.to_dict() == r.to_dict()
    d = r.to_dict()
    for key in ("rules", "players", "deals", "seed", "passed_out", "uncontested", "showdown",
                "average_pot", "pot_carried_at_end", "seats"):
        assert key in d
    assert set(d["seats"][0]) >= {"seat", "policy", "net", "net_per_deal_se"}


def test_rule_based_player_respects_openers_and_opens_good_hands() -> None:
    rules = preset("jackpot", players=2)
    player = RuleBased(rules, np.random.default_rng(0))
    s = DealState(rules, [400, 400], 1, stacked(["AsAdAhKc2c", NOTHING]))
    assert player(s.observe()).kind == "bet"
    s2 = DealState(rules, [400, 400], 1, stacked([TENS, NOTHING]))
    assert player(s2.observe()).kind == "check"  # tens may not open


def test_station_and_rule_player_draw_through_the_draw_policy() -> None:
    rules = preset("morkpoker", players=2)
    station = CallingStation(rules, np.random.default_rng(0))
    s = DealState(rules, [40, 40], 1, stacked(["7s7h2d9cKc", NOTHING]))
    s.apply(BET)
    s.apply(CALL)
    act = station(s.observe())
    assert act.kind == "draw" and sorted(act.discards) == sorted(cards("2d 9c Kc"))


def test_legal_amounts_are_what_the_action_costs() -> None:
    s = DealState(preset("morkpoker", players=3), [40, 2, 3], 2, stacked([NOTHING] * 3))
    s.apply(BET)
    assert s.legal() == (Legal("fold"), Legal("call", 1))  # seat 1 has 1 chip: all-in to call
    s.apply(CALL)
    assert s.legal() == (Legal("fold"), Legal("call", 1), Legal("raise", 2))


# ----- the command line ----------------------------------------------------------------------

def _cli(capsys, *args: str) -> tuple[int, str, str]:
    from drawodds.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(args))
    cap = capsys.readouterr()
    return int(exc.value.code or 0), cap.out, cap.err


def test_simulate_cli_json_contract_and_history(capsys, tmp_path) -> None:
    path = tmp_path / "out.jsonl"
    code, out, _ = _cli(capsys, "simulate", "--rules", "morkpoker", "--players", "4", "--deals", "200",
                        "--seed", "1", "--policy", "rule,rule,station,random", "--history", str(path),
                        "--json")
    assert code == 0
    d = json.loads(out)
    assert (d["rules"], d["players"], d["deals"], d["seed"]) == ("morkpoker", 4, 200, 1)
    assert [s["policy"] for s in d["seats"]] == ["rule", "rule", "station", "random"]
    assert sum(s["net"] for s in d["seats"]) + d["pot_carried_at_end"] == 0
    for key in ("passed_out", "uncontested", "showdown", "average_pot"):
        assert 0 <= d[key] and d[key + "_se"] >= 0
    assert len(replay(path)) == 200


@pytest.mark.parametrize("args, fragment", [
    (["simulate", "--rules", "poengpoker", "--deals", "10"], "use --games"),
    (["simulate", "--games", "10"], "--games is for"),
    (["simulate", "--deals", "10", "--policy", "rule,station"], "one policy per seat"),
    (["simulate", "--deals", "10", "--policy", "shark"], "unknown policy"),
    (["simulate", "--deals", "0"], "--deals must be at least 1"),
])
def test_simulate_cli_errors_are_one_line(capsys, args, fragment) -> None:
    code, _, err = _cli(capsys, *args)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_simulate_cli_table(capsys) -> None:
    code, out, _ = _cli(capsys, "simulate", "--rules", "jackpot", "--deals", "100", "--seed", "3",
                        "--policy", "station")
    assert code == 0 and "passed out" in out and "station" in out


def test_exposed_false_opener_replays_from_its_record() -> None:
    from drawodds.engine.history import deal_record, replay_deal

    rules = preset("jackpot", players=4, false_openers=True)
    s = DealState(rules, [400] * 4, 3, stacked([TENS, NOTHING, JJ, NOTHING]))
    s.apply(BET)
    s.apply(CALL)
    s.expose_false_opener()
    s.apply(Action("declare"))
    policies = [CallingStation(rules, np.random.default_rng(i)) for i in range(4)]
    play(s, policies)
    record = json.loads(json.dumps(deal_record(s)))
    again = replay_deal(rules, record)
    assert again.result == s.result and again.events == s.events


def test_jackpot_pass_out_rate_matches_the_chance_nobody_holds_openers() -> None:
    # Rule players open whenever they hold jacks or better, so a deal is passed out exactly when
    # no hand qualifies; compare with that chance from 60,000 dealt tables (Monte Carlo vs MC).
    from drawodds.evaluate import jacks_or_better_floor

    rng = np.random.default_rng(20)
    decks = rng.permuted(np.tile(np.arange(52), (60_000, 1)), axis=1)[:, :20]
    tables = np.stack([decks[:, k::4] for k in range(4)], axis=1)
    p = float((evaluate(tables) < jacks_or_better_floor()).all(axis=1).mean())
    r = simulate(preset("jackpot", stack=10**6), deals=1500, seed=5, players="rule")
    se = (r.passed_out_se ** 2 + p * (1 - p) / 60_000) ** 0.5
    assert abs(r.passed_out - p) < 4 * se
    assert r.dead_opener == 0


@pytest.mark.parametrize("rebuy", [False, True])
def test_sessions_bust_players_sit_out_or_rebuy(rebuy: bool) -> None:
    rules = preset("morkpoker", stack=4, rebuy=rebuy)
    players = [RandomLegal(np.random.default_rng(i)) for i in range(4)]
    session = Session(rules, players, decks=DeckSupply(np.random.default_rng(1), 52))
    sat_out = False
    while session.deals_played < rules.deals and session.can_deal():
        before = list(session.stacks)
        result = session.play_deal()
        busted = [s for s in range(4) if before[s] == 0]
        sat_out |= bool(busted)
        assert all(result.net[s] == 0 for s in busted)  # not dealt in
    rows = session.standings()
    assert sum(r.net for r in rows) + session.carried == 0
    assert [r.chips for r in rows] == sorted((r.chips for r in rows), reverse=True)
    if rebuy:
        assert sum(r.rebuys for r in rows) > 0 and not sat_out
    else:
        assert sum(r.rebuys for r in rows) == 0 and sat_out


def test_simulate_cli_plays_points_games_with_games(capsys) -> None:
    code, out, _ = _cli(capsys, "simulate", "--rules", "poengpoker", "--games", "20", "--seed", "2",
                        "--json")
    assert code == 0 and json.loads(out)["games"] == 20


@pytest.mark.parametrize("hand, thrown, aside", [
    ("AsAhKs7s3s", "Ah", "Ah"),              # the flush draw breaks the aces: one ace proves them
    ("KsKh3d3c9c", "3d 9c", ""),             # K-K still proves: nothing to announce
    ("QsQhQdJcJd", "Jc Jd", ""),             # Q-Q-Q still proves
    ("5s5h3d3cTc", "5h 3d 3c Tc", "5h 3d 3c"),  # two small pairs: both are needed
    ("5s5h3d3cTc", "3d 3c Tc", "3d 3c"),
    ("9sTdJcQhKh", "Kh", "Kh"),              # a straight: the whole hand proves it
    ("JsJhJd7c2c", "Jd 7c 2c", ""),
])
def test_openers_aside_keeps_only_what_proves_the_opening(hand: str, thrown: str, aside: str) -> None:
    from drawodds.holds import all_hold_masks, hold_openers_split, openers_aside

    dealt, discards = cards(hand), cards(thrown)
    kept = [c for c in dealt if c not in discards]
    assert set(openers_aside(kept, discards)) == set(cards(aside))
    mask = np.array([[c not in discards for c in dealt]])
    assert hold_openers_split(np.array(dealt), mask)[0] == bool(aside)
    # The engine's scalar rule agrees with the vectorized one on every hold of many hands.
    rng = np.random.default_rng(0)
    masks = all_hold_masks()
    for _ in range(300):
        h = rng.choice(53, 5, replace=False)
        split = hold_openers_split(h, masks)
        if evaluate(h, joker=True) < evaluate(np.array(cards("JsJh4c3d2s"))):
            continue
        for m, sp in zip(masks, split, strict=False):
            k, d = [int(c) for c in h[m]], [int(c) for c in h[~m]]
            assert bool(openers_aside(k, d)) == bool(sp)


@pytest.mark.parametrize("hand, thrown, aside", [
    ("KsKh3d3c9c", "3d 9c", ""), ("QsQhQdJcJd", "Jc Jd", ""), ("AsAhKs7s3s", "Ah", "Ah"),
    ("5s5h3d3cTc", "5h 3d 3c Tc", "5h 3d 3c"),
])
def test_split_openers_announced_only_when_the_kept_cards_cannot_prove(hand, thrown, aside) -> None:
    rules = preset("jackpot", players=2, max_draw="4")
    s = DealState(rules, [400, 400], 1, stacked([hand, NOTHING]))
    s.apply(BET)
    s.apply(CALL)
    s.apply(draw(*cards(thrown)))
    splits = [e for e in s.events if e[1] == "split"]
    if aside:
        assert splits == [(0, "split", len(cards(aside)))] and set(s.aside[0]) == set(cards(aside))
    else:
        assert splits == [] and 0 not in s.aside
    # What is not set aside may be reshuffled into a new stub; what is set aside may not.
    assert set(s.pile) == set(cards(thrown)) - set(cards(aside))


def test_rule_player_can_snow_stand_pat_on_nothing_then_bet() -> None:
    rules = preset("morkpoker", players=2)
    snowman = RuleBased(rules, np.random.default_rng(0), snow=1.0)
    honest = RuleBased(rules, np.random.default_rng(0))
    for player, pat in ((snowman, True), (honest, False)):
        s = DealState(rules, [40, 40], 0, stacked([NOTHING, "QsJd8c6h2h"]))
        s.apply(CHECK)
        s.apply(BET)
        s.apply(CALL)
        act = player(s.observe())           # seat 1 (the non-dealer) draws first
        assert (act.discards == ()) is pat
        s.apply(act)
        s.apply(draw(*cards("8c 6h 2h")))
        assert s.phase == "bet" and s.actor == 0
        s.apply(CHECK)
        if pat:  # the snow: nothing in hand, yet it bets into the opener
            assert s.hands[1] == tuple(cards(NOTHING)) and player(s.observe()).kind == "bet"
