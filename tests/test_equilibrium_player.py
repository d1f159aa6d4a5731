"""The equilibrium player: it plays the solution's probabilities at the right points of the
engine's betting, only legal actions, and the same deals on any number of workers."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from drawodds.engine import session
from drawodds.engine.deal import BET, CALL, CHECK, RAISE, DealState, draw, play
from drawodds.engine.invariants import random_deal, violations
from drawodds.engine.players import make_player
from drawodds.errors import RequestError
from drawodds.rules import preset
from drawodds.solver.abstraction import hand_keep
from drawodds.solver.classes import classify
from drawodds.solver.player import (
    EquilibriumFactory,
    EquilibriumPlayer,
    SolutionFile,
    _canonical,
    equilibrium_factories,
)

HEADS_UP = preset("morkpoker", players=2)
NAMES = {"x": "check", "b": "bet", "r": "raise", "c": "call", "f": "fold"}
CALLS = 3000


@pytest.fixture(scope="module")
def factory(small_solution) -> EquilibriumFactory:
    return EquilibriumFactory(small_solution)


def stacked(first: list[int], dealer: list[int], stub: list[int] = ()) -> list[int]:
    head = [c for pair in zip(first, dealer, strict=True) for c in pair] + list(stub)
    return head + [c for c in range(52) if c not in head]


def mixed_hand(probabilities, rng: np.random.Generator, avoid: list[int] = ()) -> list[int]:
    """A random hand whose action probabilities (a function of the hand) are well mixed."""
    for _ in range(2000):
        hand = rng.choice([c for c in range(52) if c not in avoid], 5, replace=False).tolist()
        p = sorted(probabilities(hand).values())
        if p[-1] < 0.85 and p[-2] > 0.1:
            return hand
    raise AssertionError("no mixed hand found")


def frequencies(player: EquilibriumPlayer, obs, key=lambda a: a.kind) -> dict:
    out: dict = {}
    for _ in range(CALLS):
        k = key(player(obs))
        out[k] = out.get(k, 0) + 1
    return {k: v / CALLS for k, v in out.items()}


def agree(seen: dict, expected: dict) -> None:
    """Each frequency within 4.5 standard errors of its probability."""
    for k in set(seen) | set(expected):
        p = expected.get(k, 0.0)
        se = max(np.sqrt(p * (1 - p) / CALLS), 1e-9)
        assert abs(seen.get(k, 0.0) - p) <= 4.5 * se + 1e-12, (k, seen, expected)


def test_after_check_bet_the_first_seat_plays_the_solution_at_xb(factory, small_solution):
    rng = np.random.default_rng(1)
    hand = mixed_hand(lambda h: small_solution.predraw_probabilities(h, "xb"), rng)
    other = [c for c in range(52) if c not in hand][:5]
    s = DealState(HEADS_UP, [40, 40], 1, stacked(hand, other))    # seat 1 deals: seat 0 first
    s.apply(CHECK)
    s.apply(BET)
    player = factory(HEADS_UP, np.random.default_rng(2))
    agree(frequencies(player, s.observe(0)), small_solution.predraw_probabilities(hand, "xb"))


def test_the_dealer_is_the_solutions_second_seat(factory, small_solution):
    rng = np.random.default_rng(3)
    hand = mixed_hand(lambda h: small_solution.predraw_probabilities(h, "b"), rng)
    other = [c for c in range(52) if c not in hand][:5]
    s = DealState(HEADS_UP, [40, 40], 0, stacked(other, hand))    # seat 0 deals: seat 1 first
    s.apply(BET)
    assert s.actor == 0
    player = factory(HEADS_UP, np.random.default_rng(4))
    agree(frequencies(player, s.observe(0)), small_solution.predraw_probabilities(hand, "b"))


def test_the_draw_follows_the_solution_and_keeps_its_holds(factory, small_solution):
    rng = np.random.default_rng(5)
    hand = mixed_hand(lambda h: {d: p for d, p in small_solution.draw_probabilities(h, "bc", 1, 2).items()}, rng)
    other = [c for c in range(52) if c not in hand][:5]
    s = DealState(HEADS_UP, [40, 40], 1, stacked(other, hand))
    s.apply(BET)
    s.apply(CALL)
    s.apply(draw(*other[:2]))                                     # seat 0 draws two
    player = factory(HEADS_UP, np.random.default_rng(6))
    obs = s.observe(1)
    seen = frequencies(player, obs, key=lambda a: len(a.discards))
    agree(seen, small_solution.draw_probabilities(hand, "bc", 1, 2))
    for d in seen:
        keep = small_solution.keep(hand, d)
        assert {c for c, k in zip(hand, keep, strict=True) if not k} == set(
            next(a.discards for a in iter(lambda: player(obs), None) if len(a.discards) == d))


def test_after_the_draw_the_seat_plays_the_solution_at_its_line_draws_and_history(factory, small_solution):
    rng = np.random.default_rng(7)
    first = [0, 5, 10, 15, 20]                                     # seat 0 draws three to a deuce
    stub_order = [c for c in range(52) if c not in first]
    for _ in range(500):                                           # seat 1's dealt hand and final hand
        dealt = rng.choice(stub_order, 5, replace=False).tolist()
        rest = [c for c in stub_order if c not in dealt]
        stub = rng.permutation(rest)[:4].tolist()                  # seat 0 gets three, seat 1 one
        final = dealt[1:] + stub[3:]
        p = sorted(small_solution.postdraw_probabilities(final, "bc", (3, 1), "x").values())
        if p[-1] < 0.85 and p[-2] > 0.1:
            break
    else:
        raise AssertionError("no mixed hand found")
    s = DealState(HEADS_UP, [40, 40], 1, stacked(first, dealt, stub))
    s.apply(BET)
    s.apply(CALL)
    s.apply(draw(*first[2:]))
    s.apply(draw(dealt[0]))
    assert sorted(s.hands[1]) == sorted(final) and s.actor == 0
    s.apply(CHECK)
    player = factory(HEADS_UP, np.random.default_rng(8))
    agree(frequencies(player, s.observe(1)), small_solution.postdraw_probabilities(final, "bc", (3, 1), "x"))


def test_raises_past_the_models_cap_are_answered_as_at_the_cap_and_never_reraised(factory, small_solution):
    assert small_solution.raises == 4
    assert _canonical("brrrrr", 5) == ("brrr", True) and _canonical("brrrrrr", 5) == ("brrrr", True)
    assert _canonical("xbrr", 5) == ("xbrr", False)
    rng = np.random.default_rng(9)
    hand = mixed_hand(lambda h: small_solution.predraw_probabilities(h, "brrr"), rng)
    other = [c for c in range(52) if c not in hand][:5]
    s = DealState(HEADS_UP, [40, 40], 1, stacked(hand, other))
    s.apply(BET)
    for _ in range(5):                                             # heads-up the engine has no cap
        s.apply(RAISE)
    assert s.actor == 0 and s.observe(0).can("raise")
    p = small_solution.predraw_probabilities(hand, "brrr")
    seen = frequencies(factory(HEADS_UP, np.random.default_rng(10)), s.observe(0))
    agree(seen, {"fold": p["fold"], "call": p["call"] + p["raise"]})


def test_only_legal_actions_over_random_short_stacked_deals(factory):
    rng = random.Random(11)
    rules = HEADS_UP.replace(cap_heads_up=True)
    mine = factory(rules, np.random.default_rng(12))
    theirs = factory(rules, np.random.default_rng(13))
    others = [make_player(n, rules, np.random.default_rng(14)) for n in ("random", "raiser", "snower", "trips")]
    for d in range(400):
        state = random_deal(rules if d % 2 else HEADS_UP, rng, deal_id=d)
        opponent = theirs if d % 5 == 0 else others[d % len(others)]
        play(state, [mine, opponent] if d % 3 else [opponent, mine])
        assert violations(state) == []
    assert mine.unmapped == 0 and theirs.unmapped == 0


def test_tables_it_cannot_play_are_refused_before_play(factory, small_solution):
    with pytest.raises(RequestError, match="heads-up"):
        factory(preset("morkpoker", players=3), np.random.default_rng(0))
    with pytest.raises(RequestError, match="other rules"):
        factory(preset("jackpot", players=2), np.random.default_rng(0))
    with pytest.raises(RequestError, match="opening with a raise"):
        factory(HEADS_UP.replace(open_with_raise=True), np.random.default_rng(0))
    with pytest.raises(RequestError, match="heads-up"):
        session.simulate(preset("morkpoker", players=3), deals=10, seed=1, players="equilibrium",
                         factories={"equilibrium": factory})
    with pytest.raises(RequestError, match="unknown policy"):
        session.simulate(HEADS_UP, deals=10, seed=1, players="equilibrium,rule")
    with pytest.raises(RequestError, match="only used by the equilibrium"):
        equilibrium_factories(HEADS_UP, ["rule"], solution="x.parquet")


def test_a_solution_file_plays_the_same_deals_on_one_and_two_workers(small_solution, factory, tmp_path,
                                                                      monkeypatch):
    path = small_solution.save(tmp_path / "small.parquet")
    from_file = SolutionFile(str(path))
    assert len(pickle.dumps(from_file)) < 1000                      # what each chunk sends a worker
    monkeypatch.setattr(session, "CHUNK_DEALS", 100)               # three chunks: the pool is used
    one = session.simulate(HEADS_UP, deals=300, seed=5, players="equilibrium,snower",
                           factories={"equilibrium": from_file}, workers=1).to_dict()
    two = session.simulate(HEADS_UP, deals=300, seed=5, players="equilibrium,snower",
                           factories={"equilibrium": from_file}, workers=2).to_dict()
    memory = session.simulate(HEADS_UP, deals=300, seed=5, players="equilibrium,snower",
                              factories={"equilibrium": factory}).to_dict()
    assert one == two == memory
    assert [s["policy"] for s in one["seats"]] == ["equilibrium", "snower"]


def test_the_hand_lookup_matches_the_solutions_buckets_and_holds(factory, small_solution):
    a = small_solution.abstraction
    hands = np.sort(np.random.default_rng(15).random((3000, 52)).argsort(axis=1)[:, :5], axis=1)
    classes, _ = classify(hands)
    found = [factory.tables.hand(h) for h in hands.tolist()]
    assert [b for b, _ in found] == a.class_bucket[classes].tolist()
    for k in range(len(a.options)):
        keep = hand_keep(hands, a, np.full(len(hands), k))
        legal = a.class_holds[classes, k] >= 0
        masks = np.array([holds[k] for _, holds in found])
        assert (masks[legal] == (keep[legal] << np.arange(5)).sum(axis=1)).all()
        assert (masks[~legal] == 255).all()


def test_the_command_line_seats_it_heads_up_from_a_solution_file(small_solution, tmp_path, capsys):
    import json

    from drawodds.cli import main

    path = small_solution.save(tmp_path / "small.parquet")

    def run(*args):
        with pytest.raises(SystemExit) as exc:
            main(["simulate", *args])
        return exc.value.code, capsys.readouterr()

    code, out = run("--policy", "equilibrium,trips", "--solution", str(path), "--deals", "100", "--workers", "1",
                    "--json")
    result = json.loads(out.out)
    assert code == 0 and result["players"] == 2
    assert [p["policy"] for p in result["policies"]] == ["equilibrium", "trips"]
    code, out = run("--policy", "equilibrium,rule,rule", "--players", "3", "--solution", str(path))
    assert code == 2 and "not a solution for three players" in out.err and len(out.err.strip().splitlines()) == 1
    code, out = run("--policy", "equilibrium,rule", "--solution", str(tmp_path / "none.parquet"))
    assert code == 2 and "no such solution file" in out.err
