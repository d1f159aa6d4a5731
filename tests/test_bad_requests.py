"""Requests that used to run forever or grow without bound are refused at once, in one line."""

from __future__ import annotations

import time

import numpy as np
import pytest

from drawodds.cards import parse_cards
from drawodds.cli import run
from drawodds.errors import RequestError
from drawodds.policies import draw_policy
from drawodds.rules import preset
from drawodds.sim.ranges import as_source, sample_conditioned

OURS = parse_cards("As Ah Ks 7s 3s")


@pytest.mark.parametrize(("hand_range", "opponents", "most"), [("AK", 3, 2), ("AA", 2, 1), ("QQ-QQ", 3, 2),
                                                               ("AQ+", 3, 2)])
def test_a_range_that_cannot_be_dealt_to_every_opponent_is_refused_at_once(hand_range, opponents, most):
    source = as_source(draw_policy("standard"), hand_range)
    start = time.perf_counter()
    with pytest.raises(RequestError, match=f"{opponents} opponents cannot all be dealt .* at most {most} can"):
        sample_conditioned(preset("morkpoker"), source, [None] * opponents, OURS, 500, np.random.default_rng(1))
    assert time.perf_counter() - start < 20        # the probe, not a sampler that never finishes


def test_a_tight_but_possible_range_is_sampled_without_shared_cards():
    source = as_source(draw_policy("standard"), "AK")
    hands, _ = sample_conditioned(preset("morkpoker"), source, [None, None], OURS, 300, np.random.default_rng(2))
    ranks = hands // 4
    assert ((ranks == 12).any(axis=2) & (ranks == 11).any(axis=2)).all()      # each holds an ace and a king
    flat = hands.reshape(len(hands), -1)
    assert all(len(set(row.tolist())) == 10 for row in flat) and not np.isin(flat, OURS).any()


def test_keep_refuses_an_impossible_range_in_one_line(capsys):
    assert run(["keep", "AsAhKs7s3s", "--range", "AK", "-t", "2000", "--workers", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "3 opponents cannot all be dealt" in err


@pytest.mark.parametrize("source", ["/dev/zero", "long"])
def test_train_refuses_an_endless_answer_line_at_once(source, tmp_path, capsys):
    if source == "long":
        source = tmp_path / "long.txt"
        source.write_text("k" * 5000 + "\npat\n")
    assert run(["train", "--answers", str(source), "--objective", "jacks", "--hands", "1", "--seed", "1",
                "--history", str(tmp_path / "h.jsonl")]) == 2
    cap = capsys.readouterr()
    assert "a line is longer than 1,000 characters" in cap.err and not cap.out


@pytest.mark.parametrize("args", [["train", "--objective", ""], ["train", "--objective", "  "], ["policies", ""]])
def test_empty_names_are_refused(args, capsys):
    assert run(args) == 2
    assert "name" in capsys.readouterr().err


def _numbers(text: str) -> list[str]:
    import re

    return sorted(re.findall(r"\d+\.\d+(?: ± \d+\.\d+)?|\d+%", text))


@pytest.mark.parametrize("args", [["openers", "--players", "2", "--deals", "100"]])
def test_tables_fold_at_60_columns_without_cutting_a_value(args, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert run(args) == 0
    wide = capsys.readouterr().out
    monkeypatch.setenv("COLUMNS", "60")
    assert run(args) == 0
    narrow = capsys.readouterr().out
    assert max(len(line) for line in narrow.splitlines()) <= 60 and "…" not in narrow
    assert _numbers(narrow) == _numbers(wide)          # every value is still there, whole


def test_the_solve_report_folds_at_60_columns(small_solution, capsys, monkeypatch):
    from drawodds.render.solve import render_solve

    monkeypatch.setenv("COLUMNS", "60")
    render_solve(small_solution)
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 60 and "…" not in out
    assert "(continued)" in out and "raises" in out and "stands" in out
