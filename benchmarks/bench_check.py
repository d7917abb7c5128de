#!/usr/bin/env python3
"""``bpe-kata check`` and ``bpe-kata gate`` on the reference, this checkout against a baseline
checkout, in one run (issue 27: check at most 6 s of wall time, gate at most 1.3x check).

Each round runs, in alternating order, the baseline's and this checkout's ``check`` (then,
unless ``--skip-gate``, their ``gate``), each with its own virtual environment, from its own
root, every level, corpora required: the same command a learner and CI type. Wall time and the
CPU time of the whole process tree (``os.wait4``'s rusage) are printed per run, then the medians
and the ratios new / baseline and gate / check; ``uptime`` before and after, since the machine's
other work moves every figure. The first round warms the disk caches both checkouts keep in
``~/.cache/bpe-kata`` (published tables, corpus tables); ``--warmup`` runs one round that is not
counted.

Usage:
    python benchmarks/bench_check.py --baseline ../base27              # 3 rounds, check and gate
    python benchmarks/bench_check.py --baseline ../base27 --rounds 1 --skip-gate
    python benchmarks/bench_check.py --baseline ../base27 --same-python   # both trees on one interpreter
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
COMMON = ["-q", "-p", "no:cacheprovider", "--require-data"]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def python_of(root: Path) -> str:
    """The checkout's own interpreter (its .venv), else this one."""
    candidate = root / ".venv" / "bin" / "python"
    return str(candidate) if candidate.is_file() else sys.executable


def timed(root: Path, command: str, python: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of ``bpe-kata COMMAND reference`` run in ``root``
    (``python -m`` from ``root`` imports that checkout's code first, whichever interpreter runs it)."""
    argv = [python or python_of(root), "-m", "bpe_kata.cli", command, "reference", *COMMON]
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(argv)} (in {root}) exited {process.returncode}:\n"
                 f"{output.decode('utf-8', 'replace')[-3000:]}")
    # wait4 counts the process and every descendant it waited for (pytest-xdist workers, children)
    return wall, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=Path, help="a checkout to compare with (its .venv is used)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the order alternated (default 3)")
    parser.add_argument("--warmup", action="store_true", help="one uncounted round first (fills the disk caches)")
    parser.add_argument("--skip-gate", action="store_true", help="time check only")
    parser.add_argument("--same-python", action="store_true",
                        help="run the baseline's code with this checkout's interpreter and packages, not its own .venv "
                             "(a second virtual environment alone moved the same code's CPU time by 6-10%%)")
    options = parser.parse_args()
    pythons = {"baseline": python_of(REPO_ROOT) if options.same_python else None, "new": None}
    sides = {"baseline": options.baseline.resolve(), "new": REPO_ROOT}
    commands = ["check"] + ([] if options.skip_gate else ["gate"])
    results: dict[tuple[str, str], list[tuple[float, float]]] = {(s, c): [] for s in sides for c in commands}
    print(f"before: {uptime()}")
    for round_ in range(-1 if options.warmup else 0, options.rounds):
        order = list(sides) if round_ % 2 == 0 else list(sides)[::-1]
        for command in commands:
            for side in order:
                wall, cpu = timed(sides[side], command, pythons[side])
                print(f"round {round_ + 1}{' (warm-up)' if round_ < 0 else ''}: {side:8} {command:5} "
                      f"{wall:6.2f} s wall {cpu:6.2f} CPU-s   ({uptime().split('load average: ')[-1]})", flush=True)
                if round_ >= 0:
                    results[side, command].append((wall, cpu))
    print(f"after:  {uptime()}")

    def median(side: str, command: str, which: int) -> float:
        return statistics.median(run[which] for run in results[side, command])

    for command in commands:
        for side in sides:
            print(f"{side:8} {command:5} median {median(side, command, 0):6.2f} s wall, "
                  f"{median(side, command, 1):6.2f} CPU-s")
        print(f"ratio new / baseline, {command}: {median('new', command, 0) / median('baseline', command, 0):5.2f}x "
              f"wall, {median('new', command, 1) / median('baseline', command, 1):5.2f}x CPU")
    if not options.skip_gate:
        for side in sides:
            print(f"ratio gate / check, {side:8}: {median(side, 'gate', 0) / median(side, 'check', 0):5.2f}x wall "
                  "(target: at most 1.3x)")
    print("targets: check at most 6 s wall on the quiet 2-core machine; gate / check at most 1.3x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
