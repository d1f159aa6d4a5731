"""Closed or broken standard streams end a command in one line, never a traceback; every output file is
checked before any work, by one rule (its name, its format, ``-``, a symlink written through), and an
error names the file and says what went wrong."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from drawodds.cli import run as main

SRC = str(Path(__file__).resolve().parents[1] / "src")


def drawodds(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``drawodds ARGS`` through a shell (the streams are closed the shell's way, ``>&-``)."""
    command = "exec " + " ".join(f"{sys.executable} -m drawodds" if a == "drawodds" else a for a in args)
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={**os.environ, "PYTHONPATH": SRC, "NO_COLOR": "1", **env})


@pytest.mark.parametrize("command", ["rules", "rules jackpot", "eval AsAhKs7s3s --json", "cache", "policies"])
def test_closed_stdout_is_one_line_and_exit_1(command):
    done = drawodds("drawodds", command, ">&-")
    assert done.returncode == 1
    assert done.stderr == "drawodds: error: cannot write to standard output: it is closed\n"


def test_closed_stdout_and_stderr_exit_without_a_word():
    done = drawodds("drawodds", "rules", ">&-", "2>&-")
    assert done.returncode == 1
    assert done.stdout == done.stderr == ""


def test_a_full_stdout_is_named():
    done = drawodds("drawodds", "rules", ">/dev/full")
    assert done.returncode == 1
    assert done.stderr == "drawodds: error: cannot write to standard output: No space left on device\n"


def test_a_reader_that_leaves_early_ends_the_command_quietly():
    done = drawodds("drawodds", "rules", "|", "head", "-1")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Exception" not in done.stderr
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m drawodds keep AsAhKs7s3s --trials 2000 | head -c 10;"
                           " echo ${PIPESTATUS[0]} >&2"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": SRC})
    assert done.stderr.strip() in ("0", "1"), done.stderr


@pytest.mark.parametrize("answers", [[], ["--answers", "-"]])
def test_train_without_stdin_is_one_line(answers):
    done = drawodds("drawodds", "train", "--hands", "2", "--seed", "1", *answers, "<&-")
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["drawodds: error: standard input is closed: nothing can be answered; give "
                                        "the answers in a file with --answers FILE"]


def test_solve_checks_both_files_before_it_solves(tmp_path, capsys):
    assert main(["solve", "--out", str(tmp_path / "x.parquet"), "--chart", str(tmp_path / "c.txt")]) == 2
    assert "must end in .png, .pdf or .svg" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, words", [
    (["solve", "--out", "x.parquet", "--chart", "c.txt"], "--chart c.txt: the name must end in .png, .pdf or .svg"),
    (["solve", "--out", "x.csv"], "--out x.csv: the name must end in .parquet (the file's format)"),
    (["solve", "--out", "x.txt"], "--out x.txt: the name must end in .parquet"),
    (["strategy", "--out", "x.txt"], "--out x.txt: the name must end in .parquet or .csv"),
    (["simulate", "--history", "-", "--deals", "10"], "--history writes a file, not standard output"),
    (["lesson", "pat", "--markdown", "-", "--deals", "1000"], "--markdown writes a file, not standard output"),
    (["train", "--history", "", "--hands", "1"], "--history needs a file name, got ''"),
    (["solve", "--out", "/proc/no-such-folder/x.parquet"], "no such folder"),
    (["solve", "--out", "/proc/x.parquet"], "--out /proc/x.parquet: cannot be written (No such file or directory)"),
    (["keep", "AsAhKs7s3s", "--csv", "/proc/x.csv"], "--csv /proc/x.csv: cannot be written"),
])
def test_output_files_are_checked_before_any_work(tmp_path, monkeypatch, capsys, args, words):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert words in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_keep_csv_dash_is_standard_output(capsys):
    assert main(["keep", "AsAhKs7s3s", "--trials", "500", "--csv", "-"]) == 0
    assert capsys.readouterr().out.startswith("keep,")


def test_a_cache_setting_that_names_a_file_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("file").write_text("x")
    monkeypatch.setenv("DRAWODDS_CACHE", "file")
    assert main(["cache"]) == 2
    assert capsys.readouterr().err == ("drawodds: error: DRAWODDS_CACHE=file is not a folder: name a folder for the "
                                       "cache (it is created if need be)\n")


def test_the_cache_header_fits_80_columns(capsys):
    assert main(["cache"]) == 0
    assert all(len(line) <= 80 for line in capsys.readouterr().out.splitlines())


def test_a_symlinked_output_is_written_through(tmp_path):
    from drawodds.paths import write_text

    target = tmp_path / "real.md"
    target.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "real.md"]


def test_a_write_error_names_the_file_not_a_temporary_one(tmp_path):
    from drawodds.paths import write_text

    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who may write anywhere")
        with pytest.raises(OSError) as caught:
            write_text(folder / "out.md", "x")
        assert caught.value.filename == str(folder / "out.md")
    finally:
        folder.chmod(0o700)


def test_a_write_error_on_proc_names_the_file(tmp_path, capsys):
    from drawodds.paths import write_text

    with pytest.raises(OSError) as caught:
        write_text("/proc/version.md", "x")
    assert caught.value.filename == "/proc/version.md"


def test_a_long_wait_in_a_pipe_says_how_far_it_is(monkeypatch, capsys):
    """stderr is no terminal here: the bar becomes a line every few seconds (a tenth here)."""
    from drawodds.render import console

    monkeypatch.setattr(console, "PIPED_EVERY", 0.05)
    assert main(["keep", "AsAhKs7s3s", "--trials", "300000", "--workers", "1"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "so far" in line]
    assert any("of 300,000 trials" in line for line in lines)
    assert lines and all(re.fullmatch(r"drawodds: simulating(: [\d,]+ of 300,000 trials)? \([\d,]+ s so far\)", line)
                         for line in lines)


def test_a_quick_command_in_a_pipe_says_nothing_more(capsys):
    assert main(["keep", "AsAhKs7s3s", "--trials", "2000", "--workers", "1"]) == 0
    assert capsys.readouterr().err == ""
