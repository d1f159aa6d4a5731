"""The command line as a person meets it: tables that fit the terminal, one-line errors that exit 2,
ranges checked before any work, Ctrl-C that keeps what finished, input as people type it."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import drawodds
from drawodds.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The CLI in this process: exit code, stdout, stderr."""
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    cap = capsys.readouterr()
    return int(exc.value.code or 0), cap.out, cap.err


def run_process(*args: str, columns: str | None = "80", **kw) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it, piped, with COLUMNS set (or unset)."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env.update(PYTHONPATH=SRC, NO_COLOR="1", TERM="dumb")
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-m", "drawodds", *args], capture_output=True, text=True,
                          env=env, timeout=120, **kw)


def longest(text: str) -> int:
    return max(len(line.rstrip()) for line in text.splitlines())


# --- tables that fit -------------------------------------------------------------------------

def test_keep_at_80_columns_shows_cards_draw_equity_and_gap_in_full() -> None:
    res = run_process("keep", "AsAhKs7s3s", "--top", "5", "--trials", "4000")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert longest(out) <= 80 and "…" not in out
    assert out.splitlines()[0].startswith("Keep A♠ A♥, draw 3 — ")
    assert "% equity against 3 opponents; keeping the K♠ too costs" in out.replace("\n", " ")
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 5
    assert "A♠ A♥ K♠ 7♠" in out and "★ best" in rows[0] and " ± " in rows[1]
    assert all(cell.strip() for cell in rows[1].split("│")[1:-1])      # no blanked column
    assert "Legend:" in out and "--wide" in out


def test_piped_output_without_columns_keeps_the_wide_layout() -> None:
    res = run_process("keep", "AsAhKs7s3s", "--exact", "--top", "3", columns=None)
    assert res.returncode == 0 and 80 < longest(res.stdout) <= 160
    assert "final hand % (exact)" in res.stdout and "1P one pair" in res.stdout


def test_wide_adds_every_column_and_the_legend_names_each_abbreviation(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "keep", "AsAhKs7s3s", "--exact", "--top", "3", "--wide")
    assert code == 0 and "final hand % (exact)" in out and "improve %" in out
    assert "1P one pair, 2P two pair, 3K three of a kind, FH full house, 4K four of a kind" in out
    assert "J+ at least a pair of jacks" in " ".join(out.split())


def test_columns_that_do_not_apply_are_left_out(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    _, morkpoker, _ = run(capsys, "keep", "AsAhKs7s3s", "--opponents", "1", "--trials", "2000")
    header = next(line for line in morkpoker.splitlines() if line.startswith("┃"))
    assert "pts" not in header and "J+ %" in header             # no Poengpoker points in Mørkpoker
    _, poeng, _ = run(capsys, "keep", "2c 2d As 9h 6c", "--rules", "poengpoker", "--exact", "--top", "3")
    header = next(line for line in poeng.splitlines() if line.startswith("┃"))
    assert "pts" in header and "J+" not in header               # no Jacks-or-Better column in Poengpoker


@pytest.mark.parametrize("args", [
    ("read", "1", "--rules", "jackpot", "--opener", "--hand", "Qs Qd 8h 5c 2d", "--trials", "2000"),
    ("read", "3", "--trials", "2000"),
    ("simulate", "--deals", "200", "--policy", "rule,rule,station,random"),
    ("simulate", "--rules", "poengpoker", "--games", "20"),
    ("openers", "--players", "2,3", "--deals", "100"),
    ("openers", "--players", "2-8", "--max-antes", "3"),
    ("lesson", "pat", "--deals", "100", "--no-equilibrium"),
    ("rules", "jackpot"),
    ("policies",),
    ("keep", "Js Jh Ts 9s 8s", "--rules", "jackpot", "--opener", "--trials", "2000"),
    ("keep", "2c 2d As 9h 6c", "--rules", "poengpoker", "--opponents", "2", "--trials", "200", "--top", "4"),
])
def test_every_command_fits_80_columns(capsys, monkeypatch, args) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, *args)
    assert code == 0 and longest(out) <= 80 and "…" not in out


def test_cards_are_printed_one_way(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    _, out, _ = run(capsys, "read", "1", "--hand", "Qs Qd 8h 5c 2d", "--trials", "2000")
    assert "8♥ 5♣ 2♦" in out and "8h" not in out
    _, out, _ = run(capsys, "keep", "AsAhKs7s3s", "--against", "QcQdJhJd2c", "--trials", "2000")
    assert "Q♣ Q♦ J♥ J♦ 2♣" in out and "Qc" not in out


def test_strategy_names_what_it_optimises_and_refuses_a_points_game_by_default(capsys, monkeypatch) -> None:
    from drawodds.analyses.strategy import default_objective, default_opponents

    assert default_objective(drawodds.preset("jackpot")) == "equity"
    assert default_opponents(drawodds.preset("morkpoker")) == 3
    code, _, err = run(capsys, "strategy", "--rules", "poengpoker")
    assert code == 2 and "keep HAND --rules poengpoker" in err and len(err.splitlines()) == 1
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "strategy", "--objective", "jacks", "--lines", "8")
    assert code == 0 and out.startswith("Best play for every deal under morkpoker (max draw 3). It maximises: "
                                        "probability")
    assert longest(out) <= 80


# --- one line, exit code 2 -------------------------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (["keep", "AsAhKs7s3s", "--oponents", "3"], "Did you mean --opponents?"),
    (["keep", "AsAhKs7s3s", "--trials", "many"], "'--trials'"),
    (["keep"], "Missing argument"),
    (["kep", "AsAhKs7s3s"], "Did you mean 'keep'?"),
    (["keep", "AsAhKs7s3s", "--workers", "0"], "--workers must be at least 1"),
    (["keep", "AsAhKs7s3s", "--workers", "-2"], "--workers must be at least 1"),
    (["keep", "AsAhKs7s3s", "--workers", "100000"], "--workers can be at most"),
    (["keep", "AsAhKs7s3s", "--top", "0"], "--top must be at least 1"),
    (["keep", "AsAhKs7s3s", "--top", "-1"], "--top must be at least 1"),
    (["keep", "AsAhKs7s3s", "--se", "0"], "--se must be"),
    (["keep", "AsAhKs7s3s", "--se", "nan"], "--se must be"),
    (["keep", "AsAhKs7s3s", "--se", "inf"], "--se must be"),
    (["keep", "AsAhKs7s3s", "--se", "-1"], "--se must be"),
    (["keep", "AsAhKs7s3s", "--by", ""], "--by must be one of"),
    (["keep", "AsAhKs7s3s", "--policy", ""], "--policy needs a name"),
    (["keep", "AsAhKs7s3s", "--csv", "-", "--json"], "choose one"),
    (["keep", "AsAhKs7s3s", "--trials", "1"], "a standard error needs two"),
    (["keep", "AsAhKs7s3s", "--trials", "10000000000"], "--trials can be at most 100,000,000"),
    (["keep", "AsAhKs7s3s", "--rules", "chicago", "--trials", "1000000"], "--trials can be at most 200,000"),
    (["keep", "AsAhKs7s3s", "--seed", "-1"], "--seed must be 0 or more"),
    (["keep", "AsAhKs7s3s", "--players", "8"], "--players 8 would deal 7 opponents"),
    (["keep", "AsAhKs7s3s", "--opponents", "7"], "--opponents can be at most 5"),
    (["keep", "AsAhKs7s3s", "--csv", ""], "--csv needs a file name"),
    (["keep", "AsAhKs7s3s", "--csv", "/dev/null"], "--csv /dev/null: is not a regular file"),
    (["keep", "1s Ks Qs Js Ts"], "did you mean 10s or As?"),
    (["simulate", "--deals", "10000000000"], "--deals can be at most"),
    (["simulate", "--policy", ""], "--policy needs a name"),
    (["simulate", "--policy", "rule,,rule"], "--policy needs a name"),
    (["simulate", "--rules", "poengpoker", "--games", "1"], "a standard error needs two"),
    (["openers", "--players", "2-"], "--players takes a number or a range"),
    (["openers", "--players", "2-1000000000000"], "--players must lie in 2-8"),
    (["openers", "--max-antes", "10000000000"], "--max-antes can be at most 100"),
    (["strategy", "--lines", "0"], "--lines must be at least 1"),
    (["strategy", "--objective", "equity", "--check-removal", "-1"], "--check-removal must be at least 0"),
    (["strategy", "--objective", ""], "--objective needs a name"),
    (["lesson", "--rules", "poengpoker"], "points game"),
    (["lesson", "--deals", "10000000000"], "--deals can be at most"),
    (["read", "3", "--trials", "1"], "a standard error needs two"),
    (["read", "1", "--snow", "2"], "--snow is a rate from 0 to 1"),
    (["read", "1", "--break-rate", "nan"], "--break-rate is a rate from 0 to 1"),
    (["read", "3", "--trials", "10000000000"], "--trials can be at most 2,000,000"),
    (["rules", "x" * 10_000], "unknown rule set"),
    (["eval", "As\x01Ah Ks 7s 3s"], "\\x01"),
])
def test_user_errors_are_one_line_and_exit_2(capsys, args, fragment) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("drawodds: error: ") and err.count("\n") == 1 and fragment in err
    assert len(err) < 400 and "\x01" not in err


@pytest.mark.parametrize("args, option", [
    (["keep", "AsAhKs7s3s", "--exact", "--csv", "/nonexistent/x.csv"], "--csv"),
    (["strategy", "--objective", "vp96", "--out", "/nonexistent/dir/x.parquet"], "--out"),
    (["simulate", "--deals", "10", "--history", "/nonexistent/h.txt"], "--history"),
    (["lesson", "pat", "--markdown", "/nonexistent/x.md"], "--markdown"),
    (["charts", "reading", "--out", "/proc/x"], "--out"),
])
def test_unwritable_paths_are_refused_before_any_work(capsys, args, option) -> None:
    start = time.perf_counter()
    code, _, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"drawodds: error: {option} ")
    assert time.perf_counter() - start < 5


def test_a_usage_error_from_a_pipe_is_one_line_without_a_blank_line() -> None:
    res = run_process("keep", "AsAhKs7s3s", "--oponents", "3")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.splitlines() == [res.stderr.strip()] and res.stderr.startswith("drawodds: error: No such option")


def test_help_documents_every_range(capsys) -> None:
    _, out, _ = run(capsys, "keep", "--help")
    assert "2-100,000,000" in " ".join(out.split()) and "1-32" in out


# --- Ctrl-C ----------------------------------------------------------------------------------

def test_ctrl_c_in_simulate_prints_the_deals_played_and_exits_130(tmp_path: Path) -> None:
    history = tmp_path / "deals.jsonl"
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "80", "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "drawodds", "simulate", "--deals", "5000000", "--history",
                             str(history)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not history.exists() or history.stat().st_size < 20_000):
        time.sleep(0.1)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - sent < 5
    assert "passed out" in out and "Interrupted: the figures cover the" in out
    assert err.startswith("drawodds: interrupted: the figures cover the") and err.count("\n") == 1


def test_an_interrupted_keep_prints_its_table_and_exits_130(capsys, monkeypatch) -> None:
    import drawodds.analyses.keep as keep_module

    real = keep_module.keep
    monkeypatch.setattr(keep_module, "keep", lambda *a, **k: dataclasses.replace(real(*a, **k), interrupted=True))
    code, out, err = run(capsys, "keep", "AsAhKs7s3s", "--opponents", "1", "--trials", "2000")
    assert code == 130 and "★ best" in out and "Interrupted" in out
    assert err == "drawodds: interrupted: the figures cover the 2,000 trials run so far\n"


def test_ctrl_c_before_anything_finished_says_so_and_exits_130(capsys, monkeypatch) -> None:
    import drawodds.analyses.read as read_module

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(read_module, "read_draw", stopped)
    code, out, err = run(capsys, "read", "3")
    assert (code, out, err) == (130, "", "drawodds: interrupted before anything finished\n")


# --- reproducible output, input as people type it, notebooks ------------------------------------

def test_the_same_seed_gives_byte_identical_output(capsys) -> None:
    args = ("simulate", "--rules", "poengpoker", "--games", "20", "--seed", "4", "--json")
    first, second = run(capsys, *args)[1], run(capsys, *args)[1]
    assert first == second and "seconds" not in json.loads(first)
    args = ("keep", "AsAhKs7s3s", "--opponents", "1", "--trials", "3000", "--seed", "9")
    assert run(capsys, *args)[1] == run(capsys, *args)[1]


def test_cards_may_come_as_separate_arguments_and_the_joker_as_its_glyph(capsys) -> None:
    one = run(capsys, "keep", "AsAhKs7s3s", "--exact", "--json")[1]
    assert run(capsys, "keep", "As", "Ah", "Ks", "7s", "3s", "--exact", "--json")[1] == one
    code, out, _ = run(capsys, "eval", "🃏", "A♠", "A♥", "A♦", "A♣", "--joker", "--json")
    assert code == 0 and json.loads(out)["category"] == "five_of_a_kind"


def test_the_analyses_are_reachable_from_the_package_root() -> None:
    reading = drawodds.read(3, trials=2000)
    assert isinstance(reading, drawodds.DrawReading) and reading.draw == 3
    table = drawodds.openers([2, 3])
    assert [r.n for r in table.rows] == [2, 3] and len(repr(table)) < 300
    assert callable(drawodds.strategy) and callable(drawodds.simulate) and callable(drawodds.standing_pat)


def test_exact_ranking_column_shows_at_80_columns(capsys, monkeypatch) -> None:
    """keep --exact in the draw game ranks by the field's exact equity, and at 80 columns that
    column is the one shown beside the gap; four with an ace keeps ace-king, not A♠ 2♠."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "keep", "AsKd9h6c2s", "--max-draw", "4-ace", "--exact", "--top", "3")
    header = next(line for line in out.splitlines() if line.startswith("┃"))
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert code == 0 and "field eq %" in header and "pts" not in header
    assert out.startswith("Keep A♠ K♦, draw 3") and "A♠ K♦" in rows[0] and "★ best" in rows[0]
    assert longest(out) <= 80
