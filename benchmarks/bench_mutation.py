#!/usr/bin/env python3
"""Time ``bpe-kata mutate`` against one plain spec run, ``bpe-kata check``, made in the same run.

The baseline is ``bpe-kata check`` as a user runs it (against the reference, its default
options, ``--require-data``), timed just before the mutation run so that both see the same
load. The figures to watch are the mutation run's wall and CPU time as ratios to it, and the
CPU seconds over the number of cores: on a machine shared with other work the wall time
stretches, while CPU seconds over the cores project the wall time the run would take alone
on the machine. ``uptime`` is printed before and after.

Usage (from a clone with the dev extra; it replaces mutants/):
    python benchmarks/bench_mutation.py                      # the full run over reference/
    python benchmarks/bench_mutation.py "reference.stream.*" # only these mutants (others not checked)
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
BUDGET_S = 20 * 60  # the budget for a full run on 2 cores
BASELINE = [sys.executable, "-m", "bpe_kata.cli", "check", "-q", "-p", "no:cacheprovider", "--require-data"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float, str]:
    cpu_before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu_before
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return wall, cpu, done.stdout


def load() -> str:
    """``uptime``'s line (the load averages over 1, 5 and 15 minutes)."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load average: " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mutmut_args", nargs="*", help="passed to bpe-kata mutate, e.g. mutant names")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    options = parser.parse_args()
    cores = os.cpu_count() or 1

    print(f"before: {load()}  ({cores} cores)")
    base_wall, base_cpu, _ = timed(BASELINE)
    print(f"bpe-kata check:              {base_wall:7.1f} s wall {base_cpu:7.1f} s CPU")
    wall, cpu, out = timed([sys.executable, "-m", "bpe_kata.cli", "mutate", "--max-children",
                            str(options.max_children), *options.mutmut_args])
    total = next((line for line in out.splitlines() if line.startswith("all ")), "all ? (no table)")
    print(f"bpe-kata mutate:             {wall:7.1f} s wall {cpu:7.1f} s CPU   [{' '.join(total.split())}]")
    projected = cpu / cores
    print(f"ratio to one spec run:       {wall / base_wall:7.1f} x wall {cpu / base_cpu:5.1f} x CPU")
    print(f"projected alone on {cores} cores: {projected / 60:5.1f} min (CPU / cores); budget {BUDGET_S // 60} min"
          + ("" if projected <= BUDGET_S else "  OVER BUDGET"))
    fields = total.split()
    if len(fields) >= 4 and fields[3].isdigit() and int(fields[3]):
        print(f"timeouts: {fields[3]} (limits on CPU time, (estimate + 5 s) x 3: the load does not move them)")
    print(f"after:  {load()}")


if __name__ == "__main__":
    main()
