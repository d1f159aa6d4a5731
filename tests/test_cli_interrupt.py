"""Ctrl-C, as a terminal sends it (to the process group) or as a process manager does (to the main process
alone), and SIGTERM stop a command on worker processes at once: what finished, exit 130 (143), no process left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
STOP_WITHIN = 4.0    # seconds from Ctrl-C to the exit, table printed (about 1 s on a quiet machine; workers get 1 s)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)   # as from a terminal, even where the tests ignore SIGINT


def interrupt(*args: str, work: float = 1.5) -> tuple[int, float, str, str]:
    """Run ``drawodds ARGS`` in a process group of its own; once its two workers run and have had
    ``work`` seconds, Ctrl-C the group. Returns (exit code, seconds to exit, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "120", "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "drawodds", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True, preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 60
        while len(children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the command ended before Ctrl-C"
        assert len(children(proc.pid)) >= 2, "no worker processes started"
        time.sleep(work)
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        return proc.returncode, time.monotonic() - sent, out.decode(), err.decode()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
                                reason="needs Linux /proc and two cores")


def test_ctrl_c_stops_a_long_simulation_on_two_workers_with_the_deals_played():
    code, seconds, out, err = interrupt("simulate", "--deals", "10000000", "--policy", "station", "--workers", "2")
    assert code == 130, err
    assert seconds < STOP_WITHIN, f"took {seconds:.1f}s to stop"
    assert "interrupted: the figures cover the" in err and "deals played so far" in err
    assert "Interrupted" in out and "seat" in out      # the table of what was played is printed


def test_ctrl_c_stops_a_long_keep_on_two_workers_with_the_trials_run():
    code, seconds, out, err = interrupt("keep", "AsAhKs7s3s", "--trials", "100000000", "--workers", "2")
    assert code == 130, err
    assert seconds < STOP_WITHIN, f"took {seconds:.1f}s to stop"
    assert "interrupted: the figures cover the" in err
    trials = int(err.split("cover the ")[1].split(" trials")[0].replace(",", ""))
    assert 0 < trials < 100_000_000
    assert "A♠ A♥" in out      # the ranked holds of the trials run


def alive(pids: list[int]) -> list[int]:
    """The processes of ``pids`` that still run (a zombie has ended: only its exit status waits)."""
    running = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            running.append(pid)
    return running


def stop_alone(args: list[str], sig: int, wait_for_workers: bool, tmp: Path) -> tuple[int, float, str, list[int]]:
    """Run ``drawodds ARGS`` with a cache of its own; once two workers run (or after a second), send ``sig``
    to the main process alone. Returns (exit code, seconds to exit, stderr, processes still running)."""
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "120", "NO_COLOR": "1", "DRAWODDS_CACHE": str(tmp / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "drawodds", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True,
                            preexec_fn=_ignored_sigint)
    try:
        deadline = time.monotonic() + (60 if wait_for_workers else 1.0)
        while (len(children(proc.pid)) < 2 or not wait_for_workers) and time.monotonic() < deadline:
            assert proc.poll() is None, "the command ended before the signal"
            time.sleep(0.05)
        assert not wait_for_workers or len(children(proc.pid)) >= 2, "no worker processes started"
        time.sleep(0.5)
        while not catches_sigint(proc.pid) and time.monotonic() < deadline + 30:     # a slow start on a busy machine
            time.sleep(0.05)
        workers = children(proc.pid)
        sent = time.monotonic()
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=30)
        seconds = time.monotonic() - sent
        time.sleep(0.2)
        return proc.returncode, seconds, err.decode(), alive(workers)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def catches_sigint(pid: int) -> bool:
    """Whether the process has its own SIGINT handler yet (it came in with SIGINT ignored, and the
    program installs one as it starts: a signal sent before that would be lost, not a fault)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) >> (signal.SIGINT - 1) & 1)


def _ignored_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # as for a command started with & in a script


STOP_ALONE = 3.0     # seconds from the signal to the exit


@pytest.mark.parametrize("args", [
    ["keep", "AsAhKs7s3s", "--trials", "100000000", "--workers", "2"],
    ["simulate", "--deals", "10000000", "--policy", "station", "--workers", "2"],
    ["openers", "--deals", "1000000", "--workers", "2"],
    ["report", "--quick", "--workers", "2", "--out", "{tmp}/guide"],
    ["strategy", "--workers", "2", "--opponents", "2"],
], ids=lambda args: args[0])
def test_sigint_to_the_main_process_alone_stops_it_and_its_workers(args, tmp_path):
    """kill -INT of the main process alone, as process managers, editors and notebooks send it, even where
    the shell started it with SIGINT ignored: exit 130 within 3 s, no worker left."""
    args = [a.format(tmp=tmp_path) for a in args]
    code, seconds, err, left = stop_alone(args, signal.SIGINT, args[0] != "strategy", tmp_path)
    assert code == 130, err
    assert seconds < STOP_ALONE, f"took {seconds:.1f}s to stop"
    assert left == [], "worker processes left behind"
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "interrupted" in err


def test_sigterm_to_the_main_process_alone_stops_it_with_143_and_no_worker_left(tmp_path):
    code, seconds, err, left = stop_alone(["simulate", "--deals", "10000000", "--policy", "station", "--workers",
                                           "2"], signal.SIGTERM, True, tmp_path)
    assert code == 143, err
    assert seconds < STOP_ALONE, f"took {seconds:.1f}s to stop"
    assert left == []
    assert "deals played so far" in err


def test_workers_die_with_a_main_process_killed_hard(tmp_path):
    """SIGKILL leaves the main process no say: the workers end by themselves (the parent's death signal)."""
    code, _, _, left = stop_alone(["keep", "AsAhKs7s3s", "--trials", "100000000", "--workers", "2"],
                                  signal.SIGKILL, True, tmp_path)
    assert code == -signal.SIGKILL
    assert left == []
