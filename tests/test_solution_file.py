"""Stored solutions and the cache: a damaged file is refused in one line (or rebuilt when it is the
cache's own), the cache can be listed, bounded and cleared, and every output is written safely."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from drawodds import paths
from drawodds.cli import run
from drawodds.errors import RequestError
from drawodds.rules import preset
from drawodds.solver import cache as cache_mod
from drawodds.solver import solution as solution_mod
from drawodds.solver import solve as solve_mod
from drawodds.solver import store
from drawodds.solver.cache import cached_abstraction, equilibrium_path
from drawodds.solver.settings import DEFAULT_SETTINGS, SolverSettings
from drawodds.solver.solution import load_solution
from drawodds.solver.solve import equilibrium_solution, store_equilibrium
from drawodds.solver.store import SolutionFileError


@pytest.fixture(scope="module")
def saved(small_solution, tmp_path_factory) -> Path:
    return small_solution.save(tmp_path_factory.mktemp("solution") / "good.parquet")


def _rewrite(saved: Path, out: Path, edit_meta=None, edit_frame=None) -> Path:
    meta = json.loads(pl.read_parquet_metadata(saved)["drawodds"])
    frame = pl.read_parquet(saved)
    if edit_meta:
        edit_meta(meta)
    if edit_frame:
        frame = edit_frame(frame)
    frame.write_parquet(out, metadata={"drawodds": json.dumps(meta)})
    return out


def _set_probability(frame: pl.DataFrame, at: int, value: float, shift: float = 0.0) -> pl.DataFrame:
    p = frame["probability"].to_numpy().copy()
    p[at] = value
    p[at + 1] += shift
    return frame.with_columns(pl.Series("probability", p))


DAMAGE = {
    "no solve record": (lambda m: m.pop("solve"), None, "solve record is missing"),
    "no rules": (lambda m: m.pop("rules"), None, "rules are missing"),
    "bad value": (lambda m: m["solve"].update(raises="x"), None, "bad value"),
    "curve without values": (lambda m: m["curve"][0].pop("value"), None, "bad value"),
    "huge buckets": (lambda m: m["settings"].update(pre_buckets=10**9, final_buckets=10**9), None, "bucket settings"),
    "settings as a list": (lambda m: m.update(settings=[24, 12, 1]), None, "bucket settings"),
    "absurd buckets": (lambda m: m.update(settings={"pre_buckets": 4096, "final_buckets": 2048, "rounds": 5}), None,
                       "do not fit its bucket settings"),
    "unknown rules": (lambda m: m["rules"].update(game="chicago"), None, "not a game the solver plays"),
    "dropped column": (None, lambda f: f.drop("state"), "column is missing"),
    "text probabilities": (None, lambda f: f.with_columns(pl.col("probability").cast(pl.String)), "column"),
    "missing rows": (None, lambda f: f.head(len(f) - 3), "rows do not match"),
    "nan": (None, lambda f: _set_probability(f, 4, np.nan), "not a number"),
    "negative": (None, lambda f: _set_probability(f, 0, -0.5, 0.5), "outside 0 to 1"),
    "rows not summing to one": (None, lambda f: f.with_columns(pl.col("probability") * 0.9), "sum to 1"),
}


@pytest.mark.parametrize("name", list(DAMAGE))
def test_a_damaged_solution_is_refused_before_use(name, saved, tmp_path, monkeypatch):
    edit_meta, edit_frame, fragment = DAMAGE[name]
    bad = _rewrite(saved, tmp_path / "bad.parquet", edit_meta, edit_frame)
    if name in ("huge buckets", "absurd buckets"):    # refused before any abstraction is built or allocated
        monkeypatch.setattr(solution_mod, "cached_abstraction", lambda *a, **k: pytest.fail("built an abstraction"))
    with pytest.raises(SolutionFileError, match=fragment) as info:
        load_solution(bad)
    assert str(bad) in str(info.value) and "\n" not in str(info.value)


def test_the_file_keeps_a_record_of_its_own_not_the_json_output(saved, small_solution, tmp_path):
    meta = json.loads(pl.read_parquet_metadata(saved)["drawodds"])
    assert set(meta) == {"format", "rules", "settings", "abstraction", "solve", "curve"}
    assert meta["format"] == store.STORE_FORMAT and meta["settings"] == {"pre_buckets": 24, "final_buckets": 12,
                                                                          "rounds": 1}
    read = load_solution(saved)
    assert read.to_dict() == small_solution.to_dict() and read.curve == small_solution.curve
    older = _rewrite(saved, tmp_path / "older.parquet", lambda m: m.update(format=store.STORE_FORMAT - 1))
    with pytest.raises(SolutionFileError, match="written by another version of drawodds; solve again") as info:
        load_solution(older)
    assert "\n" not in str(info.value)


def test_a_good_file_still_reads_and_a_truncated_one_is_refused(saved, tmp_path):
    assert load_solution(saved).iterations > 0
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(saved.read_bytes()[:4000])
    with pytest.raises(SolutionFileError, match="not a solution file"):
        load_solution(cut)


@pytest.mark.parametrize("command", [["keep", "AsAhKs7s3s", "--policy", "equilibrium", "--vs", "1", "-t", "200"],
                                     ["read", "1", "--policy", "equilibrium", "--json", "-t", "200"],
                                     ["simulate", "--policy", "equilibrium,rule", "--deals", "10"]])
def test_commands_refuse_a_damaged_solution_in_one_line(command, saved, tmp_path, capsys):
    bad = _rewrite(saved, tmp_path / "nan.parquet", None, lambda f: _set_probability(f, 4, np.nan))
    assert run([*command, "--solution", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "is not a usable solution file" in err


# --- the cache -----------------------------------------------------------------------------------

@pytest.fixture
def built(small_abstraction, monkeypatch):
    """Abstraction builds counted, and answered with the session's small abstraction (no real build)."""
    calls: list[int] = []

    def build(*args, **kwargs):
        calls.append(1)
        return small_abstraction
    monkeypatch.setattr(cache_mod, "build_abstraction", build)
    return calls


def test_a_damaged_cached_abstraction_is_built_again_with_a_note(built, small_abstraction, tmp_path):
    first = cached_abstraction(small_abstraction.rules, 24, 12, 1, directory=tmp_path)
    (path,) = tmp_path.glob("abstraction-*.npz")
    path.write_bytes(path.read_bytes()[:5000])
    with pytest.warns(paths.CacheNote, match="damaged; building it again"):
        again = cached_abstraction(small_abstraction.rules, 24, 12, 1, directory=tmp_path)
    assert len(built) == 2 and np.array_equal(again.transitions, first.transitions)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cached_abstraction(small_abstraction.rules, 24, 12, 1, directory=tmp_path)   # healed: read back quietly
    assert len(built) == 2


def test_a_damaged_cached_equilibrium_is_solved_again_never_blaming_the_user(built, small_abstraction, tmp_path):
    rules = small_abstraction.rules
    settings = {"exploitability": 0.05, "pre_buckets": 24, "final_buckets": 12, "rounds": 1, "directory": tmp_path}
    equilibrium_solution(rules, **settings)
    path = equilibrium_path(rules, **settings)
    path.write_bytes(path.read_bytes()[:3000])
    with pytest.warns(paths.CacheNote, match=f"cached {rules.name} equilibrium was damaged") as notes:
        again = equilibrium_solution(rules, **settings)
    assert again.exploitability <= 0.05 and str(path) not in str(notes[0].message)
    assert load_solution(path, directory=tmp_path).iterations == again.iterations


def test_solve_keeps_its_result_as_the_cached_equilibrium(small_solution, tmp_path, monkeypatch):
    rules = small_solution.rules
    loose = 2 * small_solution.exploitability
    assert store_equilibrium(small_solution, exploitability=small_solution.exploitability / 2,
                             directory=tmp_path) is None          # not solved closely enough: not kept
    path = store_equilibrium(small_solution, exploitability=loose, directory=tmp_path)
    assert path == equilibrium_path(rules, exploitability=loose, pre_buckets=24, final_buckets=12, rounds=1,
                                    directory=tmp_path)
    monkeypatch.setattr(solve_mod, "solve", lambda *a, **k: pytest.fail("solved again"))
    read = equilibrium_solution(rules, exploitability=loose, pre_buckets=24, final_buckets=12, rounds=1,
                                directory=tmp_path)
    assert read.value == small_solution.value and read.iterations == small_solution.iterations


def test_the_solver_settings_name_the_cache_files(tmp_path):
    """One settings object keys the cache: the stopping point names the solution, not the abstraction,
    and the functions' defaults are the default settings."""
    rules = preset("morkpoker")
    s = SolverSettings(24, 12, 1, 0.01)
    assert equilibrium_path(rules, exploitability=0.01, pre_buckets=24, final_buckets=12, rounds=1,
                            directory=tmp_path) == tmp_path / f"solution-{s.key(rules)}.parquet"
    looser = SolverSettings(24, 12, 1, 0.02)
    assert s.key(rules) != looser.key(rules)
    assert s.key(rules, solution=False) == looser.key(rules, solution=False) != s.key(rules)
    assert SolverSettings(48, 12, 1, 0.01).key(rules, solution=False) != s.key(rules, solution=False)
    assert equilibrium_path(rules, directory=tmp_path) == tmp_path / f"solution-{DEFAULT_SETTINGS.key(rules)}.parquet"


def _file(folder: Path, name: str, size: int, age: float) -> Path:
    p = folder / name
    p.write_bytes(b"x" * size)
    t = 1_700_000_000 - age
    os.utime(p, (t, t))
    return p


def test_the_cache_is_bounded_least_recently_used_first(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.CACHE_LIMIT_ENV, "0.0025")           # 2,500 bytes
    old = _file(tmp_path, "solution-a.parquet", 1000, 300)
    mid = _file(tmp_path, "abstraction-b.npz", 1000, 200)
    new = _file(tmp_path, "solution-c.parquet", 1000, 0)
    mine = _file(tmp_path, "notes.txt", 5000, 400)                 # not the cache's: never listed or removed
    paths.touch_cached(old)                                        # just read: now the most recent
    removed = paths.trim_cache(keep=new)
    assert [e.path for e in removed] == [mid]
    assert old.exists() and new.exists() and mine.exists()
    assert [e.path for e in paths.cache_entries(tmp_path)] == [new, old]
    monkeypatch.setenv(paths.CACHE_LIMIT_ENV, "-1")
    with pytest.raises(RequestError, match="megabytes"):
        paths.cache_limit()


def test_cache_command_lists_and_clears_only_its_own_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DRAWODDS_CACHE", str(tmp_path))
    _file(tmp_path, "solution-a.parquet", 2_000_000, 10)
    mine = _file(tmp_path, "notes.txt", 10, 0)
    assert run(["cache"]) == 0
    out = capsys.readouterr().out
    assert "solution-a.parquet" in out and "2.0 MB  in 1 file" in out and "notes.txt" not in out
    assert run(["cache", "clear", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cleared"] and data["total_bytes"] == 2_000_000
    assert paths.cache_entries(tmp_path) == [] and mine.exists()
    assert run(["cache", "purge"]) == 2


# --- writing files ---------------------------------------------------------------------------------

def test_special_files_are_refused_and_a_failed_write_keeps_the_old_file(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, Path("/dev/null")):
        with pytest.raises(RequestError, match="not a regular file"):
            paths.write_text(target, "x")
    assert fifo.is_fifo()
    old = paths.write_text(tmp_path / "a.txt", "old")

    def broken(tmp: Path) -> None:
        tmp.write_text("half")
        raise OSError("disk full")
    with pytest.raises(OSError):
        paths.write_file(old, broken)
    assert old.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "pipe"]


def test_solve_out_refuses_a_device_before_solving(capsys):
    assert run(["solve", "--buckets", "24,12", "--iterations", "5", "--out", "/dev/null"]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_a_first_solve_is_announced_and_an_uncovered_game_refused_at_once(small_solution, monkeypatch, capsys):
    monkeypatch.setattr(cache_mod, "equilibrium_cached", lambda rules, **k: False)
    monkeypatch.setattr(solve_mod, "equilibrium_solution", lambda rules, **k: small_solution)
    assert run(["keep", "AsAhKs7s3s", "--policy", "equilibrium", "--vs", "1", "-t", "200"]) == 0
    assert "solving the heads-up morkpoker equilibrium once" in capsys.readouterr().err
    monkeypatch.setattr(solve_mod, "equilibrium_solution", lambda rules, **k: pytest.fail("solved"))
    assert run(["simulate", "--rules", "jackpot", "--joker", "--policy", "equilibrium", "--deals", "10"]) == 2
    assert "joker is not supported" in capsys.readouterr().err


def test_report_does_not_replace_files_it_did_not_write(tmp_path, capsys):
    from drawodds.charts.report import MANIFEST, check_guide_folder

    folder = tmp_path / "guide"
    folder.mkdir()
    (folder / "README.md").write_text("my notes")
    (folder / "notes.txt").write_text("unrelated")          # not a name the guide writes: no objection
    assert run(["report", "--quick", "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "README.md" in err and "--force" in err and (folder / "README.md").read_text() == "my notes"
    (folder / MANIFEST).write_text("README.md\n")              # written by an earlier guide: replaced freely
    check_guide_folder(folder)
    outside = tmp_path / "outside.md"
    outside.write_text("outside")
    (folder / "standing_pat.md").symlink_to(outside)
    with pytest.raises(RequestError, match="standing_pat.md in .* would be replaced"):
        check_guide_folder(folder)
    check_guide_folder(folder, force=True)
    paths.write_text(folder / "standing_pat.md", "guide")   # with --force: written through, as every output file
    assert outside.read_text() == "guide" and (folder / "standing_pat.md").is_symlink()


def test_dask_options_without_dask_leave_no_folder(tmp_path, monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else real(name, *a))
    out = tmp_path / "table"
    assert run(["strategy", "--objective", "equity", "--mc", "100", "--dask", "--out", str(out)]) == 2
    assert "need Dask" in capsys.readouterr().err and not out.exists()


def test_simulate_heals_a_damaged_cached_equilibrium_without_blaming_the_user(small_solution, tmp_path, monkeypatch,
                                                                             capsys):
    monkeypatch.setattr(cache_mod, "cache_directory", lambda: tmp_path)
    rules = small_solution.rules
    path = equilibrium_path(rules.replace(players=2))
    path.write_bytes(b"PAR1 cut short")
    monkeypatch.setattr(solve_mod, "solve", lambda *a, **k: small_solution)
    monkeypatch.setattr(solve_mod, "cached_abstraction", lambda *a, **k: small_solution.abstraction)
    assert run(["simulate", "--policy", "equilibrium,rule", "--deals", "20", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert "cached morkpoker equilibrium was damaged; solving it again" in err and str(path) not in err
