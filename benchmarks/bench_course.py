#!/usr/bin/env python3
"""A course solution's full check against the reference's, in one run (issue 38: within 2x).

``bpe-kata check cs336:tests/course_shapes/cs336_right`` (a right CS336-shaped solution, as a
student's repository holds it) and ``bpe-kata check reference``, every level, corpora required,
alternated over the rounds from the repository root. The shape's check costs more than the
reference's: each training goes through a file on disk, as ``run_train_bpe`` reads it, and the
course's tie rule and split are probed. Wall and CPU seconds (all of a run's processes) per run,
then the medians and their ratio, with the machine's load (``uptime``) before, during and after.
Both runs must fail no claim, or the script exits with status 1.

Usage:
    python benchmarks/bench_course.py                     # 2 rounds, the CS336 shape
    python benchmarks/bench_course.py --rounds 3 --course minbpe:tests/course_shapes/minbpe_right
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO = 2.0


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def check(impl: str, report: Path) -> tuple[float, float, dict]:
    """One full ``bpe-kata check IMPL``: wall seconds, CPU seconds of the process tree, its JSON report."""
    argv = [sys.executable, "-m", "bpe_kata.cli", "check", impl, "-q", "-p", "no:cacheprovider", "--require-data",
            "--bpe-report", str(report)]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL")}
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)  # the process and every descendant it waited for
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bpe-kata check {impl} exited {os.waitstatus_to_exitcode(status)}:\n"
                 f"{output.decode('utf-8', 'replace')[-3000:]}")
    return wall, usage.ru_utime + usage.ru_stime, json.loads(report.read_text(encoding="utf-8"))


def judged(report: dict) -> dict[str, str]:
    """Claim -> status, for the claims a test of ran."""
    return {cid: row["status"] for cid, row in report["claims"].items()
            if row["status"] in ("passed", "failed", "not judged")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", default="cs336:tests/course_shapes/cs336_right", help="the course solution")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, the order alternated (default 2)")
    options = parser.parse_args(argv)
    sides = {"reference": "reference", "course": options.course}
    runs: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    print(f"{os.cpu_count()} cores; before: {uptime()}")
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(options.rounds):
            for side in (list(sides) if round_ % 2 == 0 else list(sides)[::-1]):
                wall, cpu, report = check(sides[side], Path(tmp) / f"{side}.json")
                claims = judged(report)
                if any(status == "failed" for status in claims.values()):
                    print(f"{sides[side]} failed a claim: {sorted(c for c, s in claims.items() if s == 'failed')}")
                    return 1
                runs[side].append((wall, cpu))
                print(f"round {round_ + 1}: {side:9} {wall:6.1f} s wall {cpu:6.1f} CPU-s, {len(claims)} claims judged"
                      f"   ({uptime().split('load average: ')[-1]})", flush=True)
    print(f"after: {uptime()}")
    wall = {side: statistics.median(run[0] for run in runs[side]) for side in sides}
    cpu = {side: statistics.median(run[1] for run in runs[side]) for side in sides}
    ratio = wall["course"] / wall["reference"]
    print(f"ratio course / reference: {ratio:.2f}x wall, {cpu['course'] / cpu['reference']:.2f}x CPU "
          f"(target at most {TARGET_RATIO:.0f}x wall: {'met' if ratio <= TARGET_RATIO else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
