"""`drawodds solve`, the solve charts and the equilibrium part of `lesson pat`, on the small
abstraction of the session (24 pre-draw, 12 final buckets asked; the CLI reads it from the cache)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from drawodds.cli import run as cli_run
from drawodds.solver.solution import load_solution
from drawodds.solver.solve import solve

SMALL = ("solve", "--buckets", "24,12", "--field-rounds", "1", "--one-deck", "0", "--no-real")   # one deck: apart


def run(capsys, *args):
    code = cli_run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_has_the_contract_fields(capsys, tmp_path, small_abstraction, small_solution):
    chart = tmp_path / "curve.png"
    code, out, _ = run(capsys, *SMALL, "--iterations", "30", "--json", "--chart", str(chart))
    data = json.loads(out)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert code == 0 and data["rules"] == "morkpoker"
    assert isinstance(data["value"], list) and len(data["value"]) == 2
    assert all(isinstance(v, float) for v in data["value"]) and data["value"][0] == -data["value"][1]
    assert isinstance(data["exploitability"], float) and data["exploitability"] > 0
    assert data["exploitability_milli_antes"] == pytest.approx(1000 * data["exploitability"])
    assert data["iterations"] == 30 and isinstance(data["seconds"], float)
    assert data["infosets"] == small_solution.infosets          # the game of the session's abstraction
    assert data["peak_memory_mb"] > 0 and data["real_exploitability"] is None     # --no-real


def test_the_real_games_exploitability_is_measured_by_default(capsys, small_abstraction):
    code, out, _ = run(capsys, *SMALL[:-1], "--iterations", "30", "--json")
    real = json.loads(out)["real_exploitability"]
    assert code == 0 and set(real) == {"antes_per_deal", "milli_antes", "best_response", "seconds", "model"}
    assert "dealt independently" in real["model"]             # the one-deck check stands beside it
    assert real["milli_antes"] == pytest.approx(1000 * real["antes_per_deal"])
    assert sum(real["best_response"]) / 2 == pytest.approx(real["antes_per_deal"])
    assert real["antes_per_deal"] > 0


def test_exploitability_is_given_in_milli_antes_and_stops_early(capsys, small_abstraction):
    code, out, _ = run(capsys, *SMALL, "--exploitability", "50", "--iterations", "500", "--json", "--workers", "1")
    data = json.loads(out)
    assert code == 0 and data["iterations"] < 500
    assert data["exploitability"] <= 0.050 < data["curve"][-2]["exploitability"]   # the first checkpoint below


def test_out_writes_a_solution_that_reads_back_equal(capsys, tmp_path, small_abstraction):
    path = tmp_path / "s.parquet"
    code, out, _ = run(capsys, *SMALL, "--iterations", "20", "--out", str(path), "--json")
    assert code == 0 and path.exists()
    loaded = load_solution(path)
    printed = json.loads(out)
    assert loaded.value == tuple(printed["value"]) and loaded.iterations == 20
    assert loaded.exploitability == printed["exploitability"]
    again = solve(small_abstraction.rules, abstraction=small_abstraction, iterations=20)   # the solver is deterministic
    for a, b in zip(loaded.strategy, again.strategy, strict=True):
        assert (a is None and b is None) or np.allclose(a, b)


@pytest.mark.parametrize("args, fragment", [
    (["--rules", "poengpoker"], "draw game"),
    (["--joker"], "joker"),
    (["--draws", "2"], "one draw"),
    (["--buckets", "24"], "PRE,FINAL"),
    (["--exploitability", "-1"], "--exploitability must be a positive number"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--dask", "--scheduler", "tcp://127.0.0.1:1"], "give one of them"),
])
def test_unsupported_rules_and_bad_options_are_one_line_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, "solve", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err


def test_the_report_fits_80_columns_and_the_tables_are_written(capsys, monkeypatch, tmp_path, small_abstraction):
    monkeypatch.setenv("COLUMNS", "80")
    tables = tmp_path / "tables"
    code, out, _ = run(capsys, *SMALL, "--iterations", "10", "--tables", str(tables))
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80 and "…" not in out
    for words in ("milli-antes per deal", "Before the draw", "stands", "Facing a bet", "peak memory",
                  "exploitability, abstract game"):
        assert words in out
    assert {p.name for p in tables.iterdir()} >= {"predraw.csv", "draw.csv", "postdraw.csv"}


def test_ctrl_c_prints_the_strategy_so_far_and_exits_130(capsys, monkeypatch, small_abstraction):
    import drawodds.solver.solve as solve_module

    real = solve_module.solve
    monkeypatch.setattr(solve_module, "solve", lambda *a, **k: dataclasses.replace(real(*a, **k), interrupted=True))
    code, out, err = run(capsys, *SMALL, "--iterations", "5", "--json")
    assert code == 130 and json.loads(out)["interrupted"] is True
    assert err == "drawodds: interrupted: the strategy is the average of the 5 iterations run\n"


def test_solve_charts_are_written(tmp_path, small_solution):
    from drawodds.charts.solve import write_solve_charts

    paths = write_solve_charts(small_solution, tmp_path)
    assert [p.name for p in paths] == ["solve_exploitability.png", "solve_predraw.png", "solve_draw.png",
                                       "solve_postdraw.png"]
    for p in paths:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 10_000


def test_pat_overview_agrees_with_the_draw_summary(small_solution):
    from drawodds.solver.summary import pat_overview

    pat = pat_overview(small_solution)
    table = small_solution.draw_summary()
    rows = table[table["hand"] == "two pair"]
    w = rows["share"] * rows["reaches_draw"]
    assert pat["stand_pat"]["two_pair"] == pytest.approx((w * rows["pat"]).sum() / w.sum())
    for group in pat.values():
        assert all(0 <= v <= 1 for v in group.values())


def test_the_lesson_adds_the_equilibrium_beside_todays_numbers(small_solution):
    from drawodds.analyses.lessons import standing_pat

    lesson = standing_pat(deals=100, seed=3, equity_trials=1000, equilibrium=small_solution)
    plain = dataclasses.replace(lesson, equilibrium=None)
    assert "unexploitable" not in plain.to_markdown() and plain.to_markdown() in lesson.to_markdown()
    assert lesson.equilibrium["iterations"] == small_solution.iterations
    assert "What unexploitable play does" in lesson.to_markdown()
    json.dumps(lesson.to_dict(), allow_nan=False)


def test_the_commands_defaults_are_the_librarys_default_solve():
    """`drawodds solve` with no sizes or limits asks for the default settings, the cached equilibrium's."""
    import inspect
    import typing

    from drawodds.cli.solve import abstraction_sizes, solve_cmd
    from drawodds.solver.settings import DEFAULT_SETTINGS
    from drawodds.solver.table import TABLE_SETTINGS

    params = inspect.signature(solve_cmd).parameters
    sizes = f"{DEFAULT_SETTINGS.pre_buckets},{DEFAULT_SETTINGS.final_buckets}"
    table = f"{TABLE_SETTINGS.pre_buckets},{TABLE_SETTINGS.final_buckets}"
    assert params["buckets"].default is None and params["field_rounds"].default is None     # by table size:
    assert abstraction_sizes(None, None, 2) == DEFAULT_SETTINGS.abstraction
    assert abstraction_sizes(None, None, 3) == TABLE_SETTINGS.abstraction
    helps = {k: v.__metadata__[0].help for k, v in typing.get_type_hints(solve_cmd, include_extras=True).items()
             if hasattr(v, "__metadata__")}
    assert f"default {sizes}, three-handed {table})" in helps["buckets"]
    assert f"Neither limit given: {1000 * DEFAULT_SETTINGS.exploitability:g}." in helps["exploitability"]
