"""Load on the web page's API: 20 clients at once on 127.0.0.1 asking `/api/keep` at its defaults.

Starts `drawodds serve --no-open` on a free local port (this environment, a fresh cache folder),
then for a bounded time each client asks for one hand after another and waits for the answer; the
median and 95th-percentile latency, the answers per second and the errors (any answer but 200, or
no answer) are printed, with the load average before and after (the machine may be shared).

Two rounds: ``same`` asks every client for the same hand (as a page reloaded, or many players at
one table: the server computes a seeded call once and shares it), ``varied`` gives each request a
random hand (every answer computed).

    PYTHONPATH=src python benchmarks/bench_web.py [--clients 20] [--seconds 30] [--rounds same,varied]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import numpy as np

RANKS, SUITS = "23456789TJQKA", "cdhs"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server at {url} did not answer within {seconds:.0f} s")


def hand(rng: np.random.Generator) -> str:
    return "".join(RANKS[c // 4] + SUITS[c % 4] for c in rng.choice(52, 5, replace=False))


def round_of(base: str, clients: int, seconds: float, varied: bool) -> tuple[list[float], int, float]:
    """(latencies of the answered requests, errors, wall seconds) of one round."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def client(index: int) -> None:
        rng = np.random.default_rng(index)
        while time.monotonic() < end:
            url = f"{base}/api/keep?hand={hand(rng) if varied else 'AsAhKs7s3s'}"
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(url, timeout=300) as answer:
                    answer.read()
                    ok = answer.status == 200
            except (urllib.error.URLError, OSError):
                ok = False
            with lock:
                if ok:
                    latencies.append(time.perf_counter() - start)
                else:
                    errors[0] += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0], time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", default="same,varied")
    args = parser.parse_args()
    port = free_port()
    env = dict(os.environ, DRAWODDS_CACHE=tempfile.mkdtemp(prefix="drawodds-bench-web-"))
    server = subprocess.Popen([sys.executable, "-m", "drawodds", "serve", "--no-open", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(base + "/")
        print(f"{args.clients} clients, {args.seconds:.0f} s a round, GET /api/keep?hand=... (keep's defaults); "
              f"{os.cpu_count()} cores; load average before {os.getloadavg()[0]:.2f}")
        for name in args.rounds.split(","):
            latencies, errors, wall = round_of(base, args.clients, args.seconds, varied=name == "varied")
            if latencies:
                ordered = sorted(latencies)
                p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
                print(f"{name:>7}: {len(latencies)} answers in {wall:.1f} s ({len(latencies) / wall:.1f}/s), "
                      f"median {statistics.median(latencies):.3f} s, p95 {p95:.3f} s, errors {errors}")
            else:
                print(f"{name:>7}: no answer in {wall:.1f} s, errors {errors}")
        print(f"load average after {os.getloadavg()[0]:.2f}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
