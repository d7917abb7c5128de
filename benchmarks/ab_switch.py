#!/usr/bin/env python3
"""One speed mechanism's gain on its own: a ``bpe-kata`` command run with and without an environment switch that
turns the mechanism off, interleaved (with, without, with, ...) so the machine's load falls on both alike.

A mechanism is kept only where it pays (issue 39): a median ratio with / without of at most 0.97 on the run it
serves, beyond the spread of the pairs. Wall time and the CPU time of the whole process tree (``os.wait4``) are
printed per run, then each pair's ratio, their median and interquartile range, and the load before and after.

Usage:
    python benchmarks/ab_switch.py --switch BPE_KATA_NO_PIN=1 --pairs 5 -- gate reference
    python benchmarks/ab_switch.py --switch BPE_KATA_FULL_EXIT=1 -- check reference
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the process tree, and the exit status of one run."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4)
    return low, high


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--switch", required=True, metavar="NAME=VALUE", help="the variable that turns it off")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("command", nargs="+", help="the bpe-kata subcommand and its arguments, after --")
    args = parser.parse_args(argv)
    name, _, value = args.switch.partition("=")
    command = [sys.executable, "-m", "bpe_kata.cli", *args.command]
    base = {key: val for key, val in os.environ.items() if key != name}
    print(f"load before: {os.getloadavg()[0]:.1f}; {' '.join(args.command)}; off with {name}={value}")
    walls, cpus = [], []
    for pair in range(args.pairs):
        on = run(command, base)
        off = run(command, {**base, name: value})
        print(f"pair {pair + 1}: with {on[0]:6.1f} s {on[1]:6.1f} CPU-s (exit {on[2]})   "
              f"without {off[0]:6.1f} s {off[1]:6.1f} CPU-s (exit {off[2]})   load {os.getloadavg()[0]:.1f}")
        walls.append(on[0] / off[0])
        cpus.append(on[1] / off[1])
    for label, ratios in (("wall", walls), ("CPU", cpus)):
        low, high = quartiles(ratios)
        print(f"{label}: median ratio with / without {statistics.median(ratios):.3f} (IQR {low:.3f}-{high:.3f}, "
              f"range {min(ratios):.3f}-{max(ratios):.3f})")
    print(f"load after: {os.getloadavg()[0]:.1f}. Keep it where the median is at most 0.97 and the IQR below 1.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
