#!/usr/bin/env python3
"""The cost of isolation: ``bpe-kata gate reference`` against in-process ``bpe-kata check``.

Both run the whole spec (every level, pretrained included, corpora required) on every
core, in a child process from the repository root, one after the other. The gate sends
each call over the stdio protocol to a child per xdist worker, with big tables defined
once per child. The figure to watch is the ratio (target: at most 2x); ``uptime``'s load
is printed beside it, since the machine's other work moves both times.

Usage:
    python benchmarks/bench_gate.py
    python benchmarks/bench_gate.py --workers 0     # one process each (no xdist)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
COMMON = ["-q", "-p", "no:cacheprovider", "--require-data"]


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return elapsed


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="auto", help="pytest-xdist -n value for both runs (default: auto)")
    options = parser.parse_args()
    workers = ["-n", options.workers]
    cli = [sys.executable, "-m", "bpe_kata.cli"]
    print(f"before: {uptime()}")
    check = timed([*cli, "check", *COMMON, *workers])
    gate = timed([*cli, "gate", "reference", *COMMON, *workers])
    print(f"after:  {uptime()}")
    print(f"bpe-kata check (in-process):  {check:6.1f} s")
    print(f"bpe-kata gate reference:      {gate:6.1f} s")
    print(f"ratio gate / check:           {gate / check:6.2f}x   (target: at most 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
