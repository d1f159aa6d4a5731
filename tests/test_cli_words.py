"""The small words of the command line: help kept whole, values in words, a conflict named, -h."""

from __future__ import annotations

import re

import pytest

from drawodds.cli import run


@pytest.mark.parametrize("lang", ["en", "sv", "nb"])
def test_help_keeps_the_extra_in_brackets(lang, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert run(["--lang", lang, "keep", "--help"]) == 0
    assert "pip install 'drawodds[dist]'" in capsys.readouterr().out


def test_dash_h_is_help(capsys):
    assert run(["-h"]) == 0 and "keep" in capsys.readouterr().out
    assert run(["keep", "-h"]) == 0 and "--opponents" in capsys.readouterr().out


@pytest.mark.parametrize("lang, usage", [("sv", "Användning: drawodds [FLAGGOR] KOMMANDO [ARGUMENT]..."),
                                         ("nb", "Bruk: drawodds [VALG] KOMMANDO [ARGUMENTER]...")])
def test_the_usage_line_is_in_the_language(lang, usage, capsys):
    assert run(["--lang", lang, "--help"]) == 0
    assert usage in capsys.readouterr().out


def test_keep_refuses_players_that_disagree_with_opponents(capsys):
    assert run(["keep", "AsAhKs7s3s", "--opponents", "5", "--players", "2"]) == 2
    assert "--opponents 5 means 6 players at the table, but --players is 2" in capsys.readouterr().err


def test_rules_values_are_words(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert run(["rules", "jackpot"]) == 0
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in capsys.readouterr().out.splitlines() if line.startswith("│") and line.split("│")[1].strip()}
    assert rows["joker"] == "no" and rows["joker_is_ace_for_draw"] == "yes"
    assert rows["blinds"] == "none" and rows["max_consecutive_antes"] == "none"
    assert rows["hand_points"] == "0, 1, 2, 3, 4, 5, 6, 7, 8"
    assert not {"True", "False", "None", "()"} & set(rows.values())
    assert not any(re.search(r"^\(.*\)$", value) for value in rows.values())


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("args", [["--help"], ["keep", "--help"], ["rules"], ["rules", "jackpot"], ["policies"],
                                  ["keep", "AsAhKs7s3s", "-t", "2000", "--workers", "1"], ["eval", "AsAhKs7s3s"],
                                  ["simulate", "--deals", "200", "--workers", "1"]], ids=" ".join)
def test_no_printed_line_ends_in_spaces(lang, args, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert run(["--lang", lang, *args]) == 0
    out = capsys.readouterr().out
    assert out.strip() and [line for line in out.splitlines() if line != line.rstrip()] == []


def test_the_points_chart_table_is_a_readable_table_within_80_columns(capsys, monkeypatch):
    import pandas as pd

    from drawodds.render.points import render_ace_vs_pair

    monkeypatch.setenv("COLUMNS", "80")
    keys = ("ace_beats_pair", "pair_beats_ace", "points_pair", "points_ace", "points_pair_ace", "ace_minus_pair")
    frame = pd.DataFrame([{"players": n, **{k: 0.3 + n / 100 for k in keys}, **{f"{k}_se": 0.005 for k in keys}}
                          for n in (2, 3)])
    frame.attrs.update(trials=10_000, seed=2024)
    render_ace_vs_pair(frame)
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "the ace scores more" in out and "32.0% ± 0.5%" in out and "0.33 ± 0.01" in out
    assert "ace_beats_pair" not in out and "10,000 hands per table" in out
