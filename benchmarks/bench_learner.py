#!/usr/bin/env python3
"""A learner's loop: ``bpe-kata check --level roundtrip`` with a textbook implementation, against the reference.

A learner's first correct implementation is the textbook one (recount every pair per
merge, ``min`` over ranks to encode: spec/oracle/core.py). This runs the core
levels once with the reference and once with that file, in child processes from the
repository root, as configured in pyproject.toml (every core), and prints both wall times
and their ratio, with the machine's load (``uptime``) before and after. CPU times (all of a
run's processes) are printed too: on a busy machine their ratio moves less. Both runs must
check the same claims and pass them all, or the script exits with status 1.

Target: the textbook run within 3x of the reference's.

The spec's own corpus tables (bpe_kata/data/corpus_tables.py) are trained into the user cache first,
as any earlier run leaves them, so neither run pays that one-off second.

Usage:
    python benchmarks/bench_learner.py
    python benchmarks/bench_learner.py --level encode --learner tests/implementations/right_counter.py
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

TARGET_RATIO = 3.0


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load: " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def warm_spec_tables() -> None:
    """Train (or find) the spec's own corpus tables, as the first run on a machine does once."""
    from bpe_kata.data import corpus_tables
    from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable

    finder = CorpusFinder()
    for name, size in corpus_tables.SPEC_TABLE_SIZES.items():
        try:
            corpus_tables.table(name, finder.text(name), size)
        except CorpusUnavailable as error:
            sys.exit(f"corpus {name} unavailable: {error}")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check(impl: str, level: str, report: Path, env: dict[str, str]) -> tuple[float, float, dict]:
    """One ``bpe-kata check`` run: its wall seconds, CPU seconds (all its processes) and JSON report."""
    command = [sys.executable, "-m", "bpe_kata.cli", "check", impl, "--level", level, "-q", "-p", "no:cacheprovider",
               "--require-data", "--bpe-report", str(report)]
    cpu_before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu_before
    if done.returncode != 0:
        sys.exit(f"bpe-kata check {impl} failed (exit {done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return wall, cpu, json.loads(report.read_text(encoding="utf-8"))


def checked_claims(report: dict) -> dict[str, str]:
    return {claim: row.get("status") for claim, row in report.get("claims", {}).items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="roundtrip", help="run the spec up to this level (default roundtrip)")
    parser.add_argument("--learner", default="spec/oracle/core.py",
                        help="the learner's implementation (default: the textbook one)")
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL")}
    warm_spec_tables()
    print(f"{os.cpu_count()} cores; before: {uptime()}")
    with tempfile.TemporaryDirectory() as tmp:
        ref_wall, ref_cpu, ref_report = check("reference", args.level, Path(tmp) / "reference.json", env)
        print(f"  reference: wall {ref_wall:5.1f} s, CPU {ref_cpu:5.1f} s")
        learner_wall, learner_cpu, learner_report = check(args.learner, args.level, Path(tmp) / "learner.json", env)
        print(f"  {args.learner}: wall {learner_wall:5.1f} s, CPU {learner_cpu:5.1f} s")
    print(f"after: {uptime()}")
    ref_claims, learner_claims = checked_claims(ref_report), checked_claims(learner_report)
    if ref_claims != learner_claims or any(status != "passed" for status in ref_claims.values()):
        differ = sorted(
            c for c in ref_claims.keys() | learner_claims.keys() if ref_claims.get(c) != learner_claims.get(c)
        )
        print(f"the two runs did not pass the same claims: {', '.join(differ) or 'some claim did not pass'}")
        return 1
    ratio = learner_wall / ref_wall
    verdict = "met" if ratio <= TARGET_RATIO else "NOT met"
    print(f"ratio {ratio:.2f}x wall ({learner_cpu / ref_cpu:.2f}x CPU) over the same {len(ref_claims)} claims "
          f"(target <= {TARGET_RATIO:.0f}x wall: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
