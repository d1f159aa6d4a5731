"""Ctrl-C, as a terminal sends it, stops a command on worker processes at once: what finished, and exit 130."""

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
