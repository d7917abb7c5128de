#!/usr/bin/env python3
"""The sandbox's cost in ``bpe-kata grade``: ten submissions on the machine's cores, supervised and
sandboxed (today's grade) against the same ten run as grade ran them before issue 22
(``bpe-kata check SUBMISSION --isolated``, no supervisor, no sandbox), side by side.

The submissions are ten copies of the reference under other names (a sandboxed child cannot
read the suite's own), each graded up to ``--level`` without the corpora. Rounds alternate
the order; ``uptime`` is printed before and after. Target: at most 1.1x.

Usage:
    python benchmarks/bench_grade.py
    python benchmarks/bench_grade.py --level encode --rounds 2
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bpe_kata.tools import grade  # noqa: E402

BEFORE = [sys.executable, "-m", "bpe_kata.cli", "check"]  # grade.command adds --isolated for this runner


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def timed(submissions: list[str], extra: list[str], jobs: int, runner: list[str]) -> float:
    start = time.perf_counter()
    outcomes = grade.grade(submissions, extra, 600.0, jobs, runner=runner)
    elapsed = time.perf_counter() - start
    # Copies of the reference are flagged as such (bpe_kata/tools/similarity.py); their levels must be green.
    bad = [f"{o.name}: {o.verdict} {o.detail}" for o in outcomes
           if not o.levels or any(c["status"] != "green" for c in o.levels.values())]
    if bad:
        sys.exit(f"not every copy of the reference was green: {bad}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--level", default="train")
    parser.add_argument("--jobs", type=int, default=None, help="submissions at once (default: the cores)")
    parser.add_argument("--rounds", type=int, default=1)
    options = parser.parse_args()
    extra = ["--level", options.level, "-m", "not corpus"]
    with tempfile.TemporaryDirectory(prefix="bench-grade-") as folder:
        submissions = []
        for k in range(options.count):
            target = Path(folder) / f"student_{k:02d}"
            shutil.copytree(REPO_ROOT / "reference", target, ignore=shutil.ignore_patterns("__pycache__"))
            submissions.append(str(target))
        print(f"before: {uptime()}")
        plain, boxed = [], []
        for round_ in range(options.rounds):
            pair = [(plain, BEFORE), (boxed, grade.RUNNER)]
            for times, runner in (pair if round_ % 2 == 0 else pair[::-1]):
                times.append(timed(submissions, extra, options.jobs, runner))
        print(f"after:  {uptime()}")
    print(f"grade as before (check --isolated):  {' '.join(f'{t:6.1f}' for t in plain)} s")
    print(f"grade, supervised and sandboxed:     {' '.join(f'{t:6.1f}' for t in boxed)} s")
    print(f"ratio:                               {sum(boxed) / sum(plain):6.2f}x   (target: at most 1.1x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
