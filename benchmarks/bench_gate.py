#!/usr/bin/env python3
"""The cost of isolation and of the sandbox: ``bpe-kata gate reference`` against in-process
``bpe-kata check`` and against the gate without its supervisor and sandbox (issue 22).

Both run the whole spec (every level, pretrained included, corpora required) on every
core, in a child process from the repository root, one after the other. The gate sends
each call over the stdio protocol to a child per xdist worker, with big tables defined
once per child. The figures to watch are the ratios (gate / check: at most 2x; sandboxed /
unsandboxed gate: at most 1.1x); ``uptime``'s load is printed beside them, since the
machine's other work moves every time. With ``--rounds N`` the two gates alternate order.

Usage:
    python benchmarks/bench_gate.py
    python benchmarks/bench_gate.py --workers 0     # one process each (no xdist)
    python benchmarks/bench_gate.py --skip-check --rounds 2   # the sandbox's cost only
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
    parser.add_argument("--workers", default="auto", help="pytest-xdist -n value for every run (default: auto)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the sandbox comparison, order alternated")
    parser.add_argument("--skip-check", action="store_true", help="leave out the in-process run")
    options = parser.parse_args()
    workers = ["-n", options.workers]
    cli = [sys.executable, "-m", "bpe_kata.cli"]
    # The gate as it was before the supervisor and the sandbox (issue 22): the same pytest run,
    # isolated and strict, with no supervisor, no sandbox and no budget.
    unsandboxed = [*cli, "check", "reference", "--isolated", "--strict-levels", "--require-data", *COMMON, *workers]
    sandboxed = [*cli, "gate", "reference", "--require-sandbox", *COMMON, *workers]
    print(f"before: {uptime()}")
    check = None if options.skip_check else timed([*cli, "check", *COMMON, *workers])
    plain, boxed = [], []
    for round_ in range(options.rounds):
        pair = [(plain, unsandboxed), (boxed, sandboxed)]
        for times, command in (pair if round_ % 2 == 0 else pair[::-1]):
            times.append(timed(command))
    print(f"after:  {uptime()}")
    if check is not None:
        print(f"bpe-kata check (in-process):              {check:6.1f} s")
    print(f"unsandboxed gate (check --isolated --strict-levels): {' '.join(f'{t:6.1f}' for t in plain)} s")
    print(f"bpe-kata gate reference (sandboxed):      {' '.join(f'{t:6.1f}' for t in boxed)} s")
    print(f"ratio sandboxed / unsandboxed gate:       {sum(boxed) / sum(plain):6.2f}x   (target: at most 1.1x)")
    if check is not None:
        print(
            f"ratio gate / check:                       {sum(boxed) / len(boxed) / check:6.2f}x   (target: at most 2x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
