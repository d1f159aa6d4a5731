"""Every result type is a frozen dataclass with a one-line repr, an HTML view and strict JSON."""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import pkgutil
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import drawodds
from drawodds.results import Result, jsonable

MAX_REPR = 200


def all_result_types() -> set[type[Result]]:
    """Every Result subclass the package defines (each module imported first)."""
    for info in pkgutil.walk_packages(drawodds.__path__, "drawodds."):
        if info.name not in ("drawodds.cli", "drawodds.__main__"):
            importlib.import_module(info.name)
    found: set[type[Result]] = set()
    todo = [Result]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("drawodds.") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def _strategy_samples() -> dict[str, Any]:
    from drawodds.analyses.best_holds import Dilemma, best_hold_grid
    from drawodds.analyses.condensed import HandCheck, condense
    from drawodds.analyses.removal import RemovalFix
    from drawodds.analyses.strategy import CardRemovalCheck, StrategyTable, jacks_objective, make_solver

    rules = drawodds.preset()
    solver = make_solver(jacks_objective(), rules)
    deals = np.sort(np.stack([drawodds.parse_hand(h) for h in ("AsAhKs7s3s", "9c9d5h5s2c", "Kh Qh Jh Th 2c")]), axis=1)
    holds = solver.hold_values(deals)
    table = StrategyTable(solver.objective, rules, holds, np.ones(len(deals), dtype=np.int64))
    condensed = condense(table)
    z = np.zeros(2)
    return {
        "Objective": solver.objective, "Solver": solver, "SubsetSums": solver.sums, "HoldValues": holds,
        "StrategyTable": table, "CondensedStrategy": condensed, "StrategyLine": condensed.lines[0],
        "CardRemovalCheck": CardRemovalCheck(deals[:2], np.zeros(2, np.int64), z + 0.5, z + 0.4, z + 0.01,
                                             z + 0.1, z + 0.1, z + 0.01, 100, 1),
        "HoldGrid": best_hold_grid({1: table}),
        "Dilemma": Dilemma("Pair or flush?", "7♠ 7♥ K♠ 9♠ 3♠", (1, 2), (("keep 7-7", (0.4, 0.3)),)),
        "RemovalFix": RemovalFix(0.025, 1000, 2, 1, 3, 4, 1, 0.01),
        "HandCheck": HandCheck(("As", "Ah", "Ks", "7s", "3s"), "pair of aces", 3, ("As", "Ah"), ("As", "Ah", "Ks"),
                               0.49, 0.5, "probability"),
        "WorstDeal": condensed.worst,
    }


def _engine_samples() -> dict[str, Any]:
    from drawodds.engine.players import make_player
    from drawodds.engine.session import DeckSupply, Session

    rules = drawodds.preset()
    sim = drawodds.simulate(rules, deals=40, seed=1)
    session = Session(rules, [make_player("rule", rules, np.random.default_rng(i)) for i in range(4)],
                      decks=DeckSupply(np.random.default_rng(1), 52))
    session.play_deal()
    return {"SimulationResult": sim, "SeatResult": sim.seats[0], "PlayerResult": sim.by_player[0],
            "Standing": session.standings()[0]}


def _points_samples() -> dict[str, Any]:
    from drawodds.points import games
    from drawodds.points.tricks import play_tricks, sensible_play
    from drawodds.policies import draw_policy

    rules = drawodds.preset("poengpoker")
    rng = np.random.default_rng(1)
    keep_fn = games.policy_keep([draw_policy()] * rules.players, rules, rng)
    deals = games.play_deals(20, rules, 0, keep_fn, sensible_play, rng)
    return {
        "PointsDeals": deals,
        "TrickResult": play_tricks(deals.hands, 0, rules, sensible_play, rng),
        "GameRecord": games.play_games(rules, 5, [games.points_player("sensible")] * rules.players, rng),
        "PointsSimulationResult": drawodds.simulate_points(rules, games=20, seed=1),
    }


def _model_samples() -> dict[str, Any]:
    from drawodds.holds import exact_holds, legal_holds
    from drawodds.policies import draw_policy, hold_plan
    from drawodds.sim.equity import OpponentModel, hold_equities
    from drawodds.sim.ranges import holdings
    from drawodds.sim.stats import mean_se

    rules = drawodds.preset()
    hand = drawodds.parse_hand("AsAhKs7s3s")
    return {
        "ExactHolds": exact_holds(hand, rules),
        "HoldPlan": hold_plan(draw_policy(), hand[None, :], rules),
        "DrawPolicy": draw_policy("loose"),
        "Estimate": mean_se([1.0, 2.0, 4.0]),
        "EquityResult": hold_equities(hand, legal_holds(hand, rules), rules, OpponentModel(1), trials=2_000),
        "Holdings": holdings(rules, draw_policy(), tuple(int(c) for c in hand)),
    }


def _analysis_samples() -> dict[str, Any]:
    from drawodds.analyses.lessons import (
        TABLE_LINES,
        TABLE_MODEL,
        LineResult,
        PatLesson,
        TableLineResult,
        TablePatLesson,
    )
    from drawodds.analyses.openers import pot_growth
    from drawodds.analyses.read import HoldEquity

    line = LineResult("reader", "stand pat", 100, 2.9, 0.02, 0.4, 0.05)
    table_lines = tuple(TableLineResult(hand, ln, 30, 1.0, 0.1, 0.0 if ln == "own" else -0.3, 0.05)
                        for hand, lines in TABLE_LINES.items() for ln in lines)
    reading = drawodds.read_draw(0)
    return {
        "KeepResult": drawodds.keep("AsAhKs7s3s", opponents=2, trials=2_000),
        "DrawReading": reading,
        "HoldEquity": HoldEquity(["As", "Ah"], ["Ks", "7s", "3s"], 3, 0.6, 0.01),
        "SomebodyElseOpens": drawodds.p_somebody_else_opens(drawodds.parse_hand("AsAhKs7s3s"), 6, deals=2_000),
        "PotGrowth": pot_growth(2),
        "TableOdds": drawodds.table_odds(2),
        "LineResult": line,
        "PatLesson": PatLesson("morkpoker", ["Qs", "Qd", "5h", "5c", "9s"], 4 / 47, 0.88, 0.001, 0.87, 0.001,
                               0.0003, 1000, 100, 1, (line,)),
        "TableLineResult": table_lines[0],
        "TablePatLesson": TablePatLesson("morkpoker", 3, {"two pair": 100, "nothing": 100},
                                         {"two pair": 0.01, "nothing": 0.02}, {"two pair": 0.01, "nothing": 0.01},
                                         1, table_lines, TABLE_MODEL, {"iterations": 30, "exploitability": 0.002}),
    }


def _command_samples() -> dict[str, Any]:
    from drawodds.analyses.condensed import strategy_report
    from drawodds.analyses.equity_table import EquityTableRun
    from drawodds.analyses.keep import ranking
    from drawodds.analyses.openers import table
    from drawodds.analyses.reference import hand_report, policy_book, preset_list, rule_sheet

    book = policy_book()
    return {
        "HandReport": hand_report("AsAhKs7s3s"),
        "PresetList": preset_list(),
        "RuleSheet": rule_sheet("jackpot"),
        "PolicyBook": book,
        "PolicySheet": book.policies[0],
        "HoldRanking": ranking(drawodds.keep("AsAhKs7s3s", opponents=1, trials=200, seed=1)),
        "OpenersTable": table([2]),
        "StrategyReport": strategy_report("jacks", drawodds.preset("morkpoker")),
        "EquityTableRun": EquityTableRun(path="t", rules="morkpoker", opponents=1, policy="standard", trials=2,
                                         seed=1, classes=1, classes_done=0, parts=1, interrupted=True),
    }


def _train_samples() -> dict[str, Any]:
    from drawodds import trainer as tr

    setup = tr.train_setup("morkpoker", objective="jacks", drill="keep")
    pos = tr.position(setup, drawodds.parse_hand("AsAhKs7s3s"), 1, 1)
    grade = tr.grade(pos, tr.parse_answer("As Ah Ks", pos, setup.rules))
    reading = tr.read_question(tr.train_setup(trials=500), np.random.default_rng(1), 2)
    read = tr.grade_read(reading, tr.parse_answer("pair 40", reading, setup.rules))
    summary = tr.summarise(setup, [grade, read], [], 1, 1)
    return {"TrainSetup": setup, "Position": pos, "Grade": grade, "ReadQuestion": reading, "ReadGrade": read,
            "TrainingSummary": summary, "PatternRow": summary.patterns[0], "SessionRow": summary.sessions[0]}


def _report_samples() -> dict[str, Any]:
    from drawodds.analyses import report as r
    from drawodds.analyses.best_holds import Dilemma, best_hold_grid
    from drawodds.analyses.condensed import condense
    from drawodds.analyses.lessons import LineResult, PatLesson
    from drawodds.analyses.openers import table
    from drawodds.analyses.strategy import StrategyTable, jacks_objective, make_solver

    rules = drawodds.preset()
    solver = make_solver(jacks_objective(), rules)
    deals = np.sort(np.stack([drawodds.parse_hand(h) for h in ("AsAhKs7s3s", "9c9d5h5s2c")]), axis=1)
    tab = StrategyTable(solver.objective, rules, solver.hold_values(deals), np.ones(2, dtype=np.int64))
    plan = condense(tab)
    line = LineResult("reader", "stand pat", 100, 2.9, 0.02, 0.4, 0.05)
    dilemma = Dilemma("Pair or flush?", "7♠ 7♥ K♠ 9♠ 3♠", (1,), (("7-7", (0.4,)),))
    keep = r.KeepSection((r.CheatSheet("cheatsheet_x", "Mørkpoker", 2, 1, "1 opponent", 0.5, plan),),
                         best_hold_grid({1: tab}), (dilemma,), 1.0)
    hold = r.PointsHold("As", 4, 1.0, 0.03, 0.3, 0.7, 0.0, 0.0)
    points = r.PointsSection(plan, 1.18, ({"players": 2.0, "points_ace": 1.6},), 10,
                             (r.PointsExample("poengpoker", "2c 2d As 9h 6c", 3, 10, (hold,)),))
    guide = r.Guide("0.1.0", 1, True, r.QUICK, keep, r.ReadingSection((drawodds.read_draw(0),), ()),
                    r.OpenersSection(table([2]), table([2])),
                    PatLesson("morkpoker", ["Qs", "Qd", "5h", "5c", "9s"], 4 / 47, 0.88, 0.001, 0.87, 0.001,
                              0.0003, 1000, 100, 1, (line,)), points)
    return {"Guide": guide, "Report": r.Report("reports", ("README.md",), guide.sections, True, 1, 2.5)}


def _solver_samples() -> dict[str, Any]:
    from drawodds.solver.best_response import SeatGains
    from drawodds.solver.cfr import Checkpoint
    from drawodds.solver.playout import ONE_DECK_MODEL, OneDeck
    from drawodds.solver.table import MODEL, TableSolution

    buckets = {"pre_draw": 164, "final": 20, "pre_draw_asked": 24, "final_asked": 12, "field_rounds": 1}
    table = TableSolution(drawodds.preset(), 3, (-0.07, -0.01, 0.08), (0.0009, 0.0008, 0.001), 0.001, 700, 300.0,
                          buckets, MODEL, 2, "dcfr", 6.0, (758572, 777760, 827944), False,
                          (Checkpoint(1, 0.5, 0.17, 4.7), Checkpoint(700, 300.0, -0.07, 0.001)),
                          None, None, ())     # type: ignore[arg-type]   # no game behind the figures
    gains = SeatGains("full", (-0.0725, -0.0142, 0.0868), (-0.0665, -0.0091, 0.0928), 327.2)
    one_deck = OneDeck(200_000, 1, (-0.0700, -0.0175, 0.0875), (0.0016, 0.0016, 0.0016), (-0.0716, -0.0128, 0.0844),
                       (0.0016, 0.0016, 0.0016), (-0.0724, -0.0141, 0.0865), ONE_DECK_MODEL)
    return {"TableSolution": table, "SeatGains": gains, "OneDeck": one_deck}


SAMPLES: tuple[Callable[[], dict[str, Any]], ...] = (
    _strategy_samples, _engine_samples, _points_samples, _model_samples, _analysis_samples, _command_samples,
    _train_samples, _report_samples, _solver_samples)


@pytest.fixture(scope="module")
def samples() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for make in SAMPLES:
        out.update(make())
    return out


def test_every_result_type_has_a_sample(samples: dict[str, Any]) -> None:
    names = {t.__name__ for t in all_result_types()}
    assert names == set(samples), "add a sample for each new Result type"


def test_results_are_frozen_dataclasses_with_a_short_repr_and_an_html_view(samples: dict[str, Any]) -> None:
    for name, result in samples.items():
        assert type(result).__name__ == name and isinstance(result, Result)
        assert dataclasses.is_dataclass(result) and type(result).__dataclass_params__.frozen, name
        text = repr(result)
        assert len(text) <= MAX_REPR and "\n" not in text and text.startswith(name + "("), (name, text)
        page = result._repr_html_()
        assert page.startswith(f"<b>{name}</b><table>"), name


def test_to_dict_is_strict_json(samples: dict[str, Any]) -> None:
    for name, result in samples.items():
        text = json.dumps(result.to_dict(), allow_nan=False)   # NaN and infinities became null
        assert json.loads(text) == json.loads(result.to_json()), name


def test_a_keep_result_prints_as_one_short_line_in_a_notebook(samples: dict[str, Any]) -> None:
    text = repr(samples["KeepResult"])
    assert text.startswith("KeepResult(hand='As Ah Ks 7s 3s', rules='morkpoker', opponents=2")
    assert "<table" in samples["KeepResult"]._repr_html_().split("</table>", 1)[1]   # the holds


def test_jsonable_converts_numpy_nan_and_fractions() -> None:
    from fractions import Fraction

    value = {"a": np.float64(math.nan), "b": np.arange(3), "c": (np.int8(2), Fraction(3, 8)), "d": math.inf}
    assert jsonable(value) == {"a": None, "b": [0, 1, 2], "c": [2, "3/8"], "d": None}
