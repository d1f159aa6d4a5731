"""Start-up: wall and CPU time of a fresh process for `drawodds --version`, `import drawodds` and the main job.

Each command runs in a new interpreter (the same Python as this script, with this environment), N
times; the median and the fastest wall time are printed, with the median CPU seconds (user + system,
of the command and any helper process it started: what the command costs whatever else the machine
runs), the median CPU seconds of the command's own process (on a quiet machine its wall time is about
this, since a helper runs beside it on another core) and the load average before and after. No
`-X importtime`: this is the time a user waits. As after an installation (pip compiles the package),
the commands run with compiled bytecode, kept in a temporary folder; `--no-bytecode` keeps the
environment's setting instead (PYTHONDONTWRITEBYTECODE makes every start compile the package again).

    PYTHONPATH=src python benchmarks/bench_startup.py [--runs 11] [--no-bytecode]

To compare versions under the same load, give each one's import path: the runs alternate between them.

    python benchmarks/bench_startup.py --runs 7 --path OLD/src --path src
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

# Each command reports its own process's CPU seconds (user + system) on stderr as it exits.
_OWN = ("import atexit, os, resource\n"
        "def _own():\n"
        "    r = resource.getrusage(resource.RUSAGE_SELF)\n"
        "    os.write(2, ('\\nOWN %r\\n' % (r.ru_utime + r.ru_stime)).encode())\n"
        "atexit.register(_own)\n")
# `python -m drawodds ARGS`, through runpy as -m does.
DRAWODDS = [sys.executable, "-c",
            _OWN + "import runpy; runpy.run_module('drawodds', run_name='__main__', alter_sys=True)"]

COMMANDS: dict[str, list[str]] = {
    "drawodds --version": [*DRAWODDS, "--version"],
    "import drawodds": [sys.executable, "-c", _OWN + "import drawodds"],
    "drawodds keep AsAhKs7s3s": [*DRAWODDS, "keep", "AsAhKs7s3s"],
    "python (nothing imported)": [sys.executable, "-c", _OWN],
}


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds from starting ``command`` to its exit (it must succeed), its CPU seconds with its
    helpers' (user + system), and its own process's."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command, stderr=err)
    own = float(err.decode().rsplit("OWN ", 1)[1])
    return elapsed, usage.ru_utime + usage.ru_stime, own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each command (the median is printed)")
    parser.add_argument("--no-bytecode", action="store_true", help="keep the environment's bytecode setting")
    parser.add_argument("--path", action="append", default=[],
                        help="PYTHONPATH of a version to time (repeat to compare; default: the environment's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        envs: dict[str, dict[str, str]] = {}
        for path in args.path or [None]:
            env = dict(os.environ) if path is None else dict(os.environ, PYTHONPATH=path)
            if not args.no_bytecode:
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                env["PYTHONPYCACHEPREFIX"] = cache
            envs["" if path is None else f" [{path}]"] = env
        jobs = {name + label: (command, env) for name, command in COMMANDS.items() for label, env in envs.items()}
        for command, env in jobs.values():   # warm the file cache and write the bytecode once
            run(command, env)
        load = os.getloadavg()[0]
        times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in jobs}
        for _ in range(args.runs):           # interleaved, so every command sees the same machine load
            for name, (command, env) in jobs.items():
                times[name].append(run(command, env))
    width = max(28, *map(len, times))
    print(f"{'command':<{width}} {'median':>8} {'fastest':>8} {'CPU':>7} {'own CPU':>8}  ({args.runs} runs each; "
          f"load {load:.2f} before, {os.getloadavg()[0]:.2f} after; "
          f"{'environment bytecode' if args.no_bytecode else 'compiled bytecode'})")
    for name, runs in times.items():
        walls = [w for w, _, _ in runs]
        cpu = statistics.median(c for _, c, _ in runs)
        own = statistics.median(o for _, _, o in runs)
        print(f"{name:<{width}} {statistics.median(walls):>7.3f}s {min(walls):>7.3f}s {cpu:>6.3f}s {own:>7.3f}s")


if __name__ == "__main__":
    main()
