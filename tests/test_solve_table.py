"""`drawodds solve --players 3` and ``solver.table.solve_table``: three at the table, measured by each
seat's best response, on the small abstraction of the session (24 pre-draw, 12 final buckets asked);
the heads-up solve beside it is unchanged."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drawodds.cli import run as cli_run
from drawodds.errors import RequestError
from drawodds.rules import preset
from drawodds.solver.table import solve_table

SMALL = ("solve", "--players", "3", "--buckets", "24,12", "--field-rounds", "1", "--one-deck", "0")
HEADS_UP_FIELDS = {"rules", "value", "exploitability", "exploitability_milli_antes", "nash_conv", "iterations",
                   "seconds", "infosets", "infosets_per_seat", "abstraction_seconds", "schedule", "raises",
                   "interrupted", "abstraction", "curve", "real_exploitability", "peak_memory_mb"}


def run(capsys, *args):
    code = cli_run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_solution_knows_its_json_and_the_seats_values_sum_to_zero(small_abstraction):
    solution = solve_table(small_abstraction.rules, abstraction=small_abstraction, iterations=12, raises=0)
    data = json.loads(solution.to_json())
    assert data["players"] == 3 and data["rules"] == "morkpoker" and data["raises"] == 0
    assert len(data["value"]) == 3 and sum(data["value"]) == pytest.approx(0.0, abs=1e-12)
    assert len(data["seat_gains"]) == 3 and min(data["seat_gains"]) >= -1e-12
    assert data["exploitability"] == max(data["seat_gains"])
    assert data["exploitability_milli_antes"] == pytest.approx(1000 * data["exploitability"])
    assert data["iterations"] == 12 and data["seconds"] > 0 and data["curve"][-1]["iteration"] == 12
    assert data["buckets"] == {"pre_draw": small_abstraction.pre_buckets, "final": small_abstraction.final_buckets,
                               "pre_draw_asked": 24, "final_asked": 12, "field_rounds": 1}
    assert "independently" in data["model"] and "own 47-card stub" in data["model"]
    assert len(data["infosets_per_seat"]) == 3 and not data["interrupted"]
    assert "strategy" not in data and "game" not in data
    assert repr(solution).startswith("TableSolution(rules='morkpoker', players=3")


def test_the_stop_is_the_largest_seat_gain(small_abstraction):
    """CFR stops at the first checkpoint whose largest seat gain is at most the stop value."""
    stop = 0.3
    solution = solve_table(small_abstraction.rules, abstraction=small_abstraction, exploitability=stop,
                           iterations=400, raises=0)
    assert solution.iterations < 400 and solution.exploitability <= stop
    assert all(c.exploitability > stop for c in solution.curve[:-1])
    assert solution.curve[-1].exploitability == solution.exploitability
    timed = solve_table(small_abstraction.rules, abstraction=small_abstraction, seconds=1e-9, raises=0)
    assert timed.iterations == 1                            # the time limit is honoured at the first checkpoint


def test_the_table_size_and_rules_are_checked_before_any_work():
    for players in (1, 2, 4):
        with pytest.raises(RequestError, match="players"):
            solve_table(preset("morkpoker"), players)
    with pytest.raises(Exception, match="draw game"):
        solve_table(preset("poengpoker"))


def test_cli_json_three_handed(capsys, small_abstraction):
    code, out, _ = run(capsys, *SMALL, "--iterations", "2", "--no-real", "--json")
    data = json.loads(out)
    assert code == 0 and data["players"] == 3 and data["iterations"] == 2 and data["raises"] == 2
    assert len(data["value"]) == 3 and sum(data["value"]) == pytest.approx(0.0, abs=1e-12)
    assert data["exploitability"] == max(data["seat_gains"]) and data["peak_memory_mb"] > 0
    assert data["buckets"]["pre_draw"] == small_abstraction.pre_buckets and data["real_exploitability"] is None


def test_cli_measures_each_seats_best_response_in_the_real_game(capsys, small_abstraction, monkeypatch):
    """Without --no-real the command asks ``seat_gains`` for the real game's figures (stubbed
    here: the measure itself is tested in test_table_best_response) and reports them."""
    from drawodds.solver import best_response
    from drawodds.solver.best_response import SeatGains

    asked = []

    def measured(solution, resolution="full"):
        asked.append((solution.players, resolution))
        return SeatGains(resolution, (-0.07, -0.01, 0.08), (-0.065, -0.006, 0.0815), 2.5)

    monkeypatch.setattr(best_response, "seat_gains", measured)
    code, out, _ = run(capsys, *SMALL, "--iterations", "2", "--json")
    real = json.loads(out)["real_exploitability"]
    assert code == 0 and asked == [(3, "full")]
    assert real["seat_gains"] == pytest.approx([0.005, 0.004, 0.0015])
    assert real["antes_per_deal"] == pytest.approx(0.005) and real["milli_antes"] == pytest.approx(5.0)
    assert real["value"] == [-0.07, -0.01, 0.08] and real["seconds"] == 2.5
    code, out, _ = run(capsys, *SMALL, "--iterations", "2")
    text = " ".join(out.split())
    assert code == 0 and "seat gains, real game" in text and "5, 4, 1.5 milli-antes per deal" in text


def test_cli_plays_the_solution_out_with_one_deck(capsys, small_abstraction):
    """The one-deck check: every seat's result from one deck and from a deck each, with standard
    errors, the same for the same seed; 0 leaves it out."""
    args = (*SMALL, "--iterations", "2", "--no-real", "--one-deck", "20000", "--seed", "3", "--json")
    code, out, _ = run(capsys, *args)
    check = json.loads(out)["one_deck"]
    assert code == 0 and check["deals"] == 20000 and check["seed"] == 3
    assert len(check["value"]) == len(check["own_decks"]) == len(check["model_value"]) == 3
    assert sum(check["value"]) == pytest.approx(0.0, abs=1e-9) and min(check["standard_error"]) > 0
    model = zip(check["value"], check["model_value"], strict=True)
    assert check["difference"] == pytest.approx([v - m for v, m in model])
    assert "one deck" in check["model"]
    assert json.loads(run(capsys, *args)[1])["one_deck"] == check
    assert json.loads(run(capsys, *SMALL, "--iterations", "2", "--no-real", "--one-deck", "0", "--json")[1])[
        "one_deck"] is None
    code, out, _ = run(capsys, *SMALL, "--iterations", "2", "--no-real", "--one-deck", "20000")
    assert code == 0 and "one deck, as at the table" in out and "a deck for each seat" in out


def test_cli_shows_each_seats_leaks(capsys, small_abstraction, monkeypatch):
    """--leaks at a table asks ``best_response.leaks`` (stubbed here: the measure is tested in
    test_table_best_response) and shows a column per seat that sums to the seat's gain."""
    import pandas as pd

    from drawodds.solver import best_response

    rows = [{"seat": s, "hand": h, "stage": "after the draw", "milli_antes": m}
            for s, h, m in ((0, "two pair", 1.5), (0, "trips", 0.5), (1, "two pair", 2.0), (1, "trips", 0.0),
                            (2, "two pair", 0.25), (2, "trips", 0.75))]
    asked = []
    monkeypatch.setattr(best_response, "leaks", lambda solution: asked.append(solution.players) or pd.DataFrame(rows))
    args = (*SMALL, "--iterations", "2", "--no-real", "--one-deck", "0", "--leaks")
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0 and asked == [3] and json.loads(out)["leaks"] == rows
    code, out, _ = run(capsys, *args)
    text = " ".join(out.split())
    assert code == 0 and "Leaks: what each seat gains by deviating alone" in text
    assert "all hands 2.000 2.000 1.000" in text


def test_cli_text_labels_a_seat_gain_as_no_two_player_exploitability(capsys, small_abstraction):
    code, out, _ = run(capsys, *SMALL, "--iterations", "2", "--no-real")
    assert code == 0 and "Three-handed morkpoker" in out
    assert "gain of seat 2 (the dealer) deviating alone" in out and "largest seat gain" in out
    assert "not a two-player exploitability" in " ".join(out.split())
    assert "own 47-card stub" in " ".join(out.split())


@pytest.mark.parametrize("args, fragment", [
    (["--players", "1"], "--players must be at least 2, got 1"),
    (["--players", "8"], "--players can be at most 3, got 8"),
    (["--players", "3", "--rules", "poengpoker"], "draw game"),
    (["--players", "3", "--draws", "2"], "one draw"),
    (["--players", "3", "--out", "x.parquet"], "--out is for the heads-up solve"),
    (["--players", "3", "--exploitability", "0"], "--exploitability must be a positive number"),
    (["--players", "3", "--one-deck", "1"], "--one-deck must be at least 2"),
    (["--one-deck", "-5"], "--one-deck must be at least 2"),
    (["--seed", "-1"], "--seed must be 0 or more"),
])
def test_bad_players_and_options_are_one_line_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, "solve", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err


def test_heads_up_is_unchanged(capsys, small_abstraction):
    """Without --players (or with 2) solve is the heads-up solve, every JSON field as before."""
    args = ("solve", "--buckets", "24,12", "--field-rounds", "1", "--no-real", "--iterations", "5", "--json")
    code, out, _ = run(capsys, *args)
    plain = json.loads(out)
    code2, out2, _ = run(capsys, *args, "--players", "2")
    two = json.loads(out2)
    assert code == code2 == 0 and set(plain) == set(two) == HEADS_UP_FIELDS | {"one_deck"}
    assert plain["value"] == two["value"] and plain["value"][0] == -plain["value"][1]
    assert plain["exploitability"] == two["exploitability"] and "players" not in plain


def test_a_table_solution_is_cached_under_its_own_key(small_abstraction, cache_directory, tmp_path):
    """Kept once it reaches its stop (a key of its own: never the heads-up file), read back the
    same; a heads-up loader refuses it and the table loader refuses a heads-up file."""
    from drawodds.solver.solution import load_solution, save_solution
    from drawodds.solver.solve import solve
    from drawodds.solver.store import SolutionFileError
    from drawodds.solver.table import load_table_solution, store_table_equilibrium, table_equilibrium, table_path

    rules = small_abstraction.rules
    stop = 1.0
    settings = {"exploitability": stop, "pre_buckets": 24, "final_buckets": 12, "rounds": 1, "raises": 0}
    path = table_path(rules, **settings)
    assert path.name.startswith("solution-3-handed-") and not path.exists()
    assert path != table_path(rules, **{**settings, "raises": 1})
    solved = table_equilibrium(rules, **settings)
    assert path.exists() and solved.exploitability <= stop and solved.raises == 0
    read = table_equilibrium(rules, **settings)
    assert read.to_dict() == solved.to_dict()
    for a, b in zip(read.strategy, solved.strategy, strict=True):
        assert (a is None and b is None) or (a is not None and b is not None and np.allclose(a, b))
    assert store_table_equilibrium(solved, exploitability=stop) is None        # one is stored already
    with pytest.raises(SolutionFileError, match="not heads-up"):
        load_solution(path)
    heads_up = save_solution(solve(rules, abstraction=small_abstraction, iterations=2), tmp_path / "two.parquet")
    with pytest.raises(SolutionFileError, match="not a solution for three"):
        load_table_solution(heads_up)
