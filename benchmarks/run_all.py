#!/usr/bin/env python3
"""Every benchmark in one run, printed as one table with the machine's load beside each figure.

Runs, in this order: training with GPT-4's split against Hugging Face tokenizers, rustbpe
and bpeasy (bench_peers_train); training without a pattern against the textbook
(bench_train, textbook sampled); encoding with the published tables against tiktoken and
Hugging Face (bench_pretrained); scaling and memory (bench_scaling); the suite itself
(bench_suite); and a learner's loop (bench_learner, when that script is present). Each
section runs in a fresh Python process and prints its own lines as it goes; the table
comes last. The load column is the
one-minute load average (``uptime``) when the measurement started: on a shared machine
read the ratios, which come from runs interleaved in one process, not the seconds.

Usage:
    python benchmarks/run_all.py              # everything, under ten minutes on 2 cores
    python benchmarks/run_all.py --quick      # smaller sizes, no suite or learner runs: under a minute
    python benchmarks/run_all.py --markdown   # the table as Markdown, for benchmarks/README.md
Needs the ``bench`` extra for the peers: pip install -e '.[bench]'
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from _common import REPO_ROOT, Row, load_average, print_rows

BENCH_DIR = REPO_ROOT / "benchmarks"
LEARNER_SCRIPT = BENCH_DIR / "bench_learner.py"
ROWS_MARK = "@@run_all rows@@ "
_CHILD = """
import dataclasses, json, sys
sys.path[:0] = [{bench_dir!r}]
import {module}
rows = {module}.{function}({quick})
print({mark!r} + json.dumps([dataclasses.asdict(row) for row in rows]), flush=True)
"""


def in_child(module: str, function: str):
    """A section that runs ``module.function(quick)`` in a fresh Python process and reads its rows back.

    A fresh process per section keeps one section's heap (the peers' tables, the textbook's
    lists) from slowing the next one's garbage collection, and its peak memory from adding up.
    """
    def section(quick: bool) -> list[Row]:
        code = _CHILD.format(bench_dir=str(BENCH_DIR), module=module, function=function, quick=quick,
                             mark=ROWS_MARK)
        rows: list[Row] = []
        with subprocess.Popen([sys.executable, "-c", code], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                              text=True) as child:
            for line in child.stdout:
                if line.startswith(ROWS_MARK):
                    rows = [Row(**fields) for fields in json.loads(line[len(ROWS_MARK):])]
                else:
                    print(line, end="", flush=True)
        if child.returncode != 0:
            sys.exit(f"{module}.{function} failed (exit {child.returncode})")
        return rows
    return section


def learner_rows(quick: bool = False) -> list[Row]:
    """The learner's loop (bench_learner.py, when present): its wall times and ratio, from its output."""
    if not LEARNER_SCRIPT.exists():
        print("learner's loop: benchmarks/bench_learner.py not present; skipped", file=sys.stderr)
        return []
    load = load_average()
    done = subprocess.run([sys.executable, str(LEARNER_SCRIPT)], cwd=REPO_ROOT, capture_output=True, text=True)
    print(done.stdout, end="")
    found = re.search(r"ratio (\S+)x wall \((\S+)x CPU\).*target <= (\S+)x wall: ([^)]+)\)", done.stdout)
    walls = re.findall(r"wall\s+(\S+) s, CPU\s+(\S+) s", done.stdout)
    if done.returncode != 0 or not found or len(walls) < 2:
        return [Row("learner's loop (bench_learner.py)", "failed", verdict=f"exit {done.returncode}", load=load)]
    (ref_wall, ref_cpu), (learner_wall, learner_cpu) = walls[:2]
    return [Row("learner's loop: check --level roundtrip, textbook impl vs reference",
                f"{learner_wall}s wall, {learner_cpu}s CPU", f"reference {ref_wall}s wall, {ref_cpu}s CPU",
                f"{found.group(1)}x wall", f"<= {found.group(3)}x", found.group(4), load)]


SECTIONS = {
    "training with a split pattern, against the peers": in_child("bench_peers_train", "run"),
    "training without a pattern, against the textbook": in_child("bench_train", "rows"),
    "encoding with the published tables": in_child("bench_pretrained", "rows"),
    "scaling and memory": in_child("bench_scaling", "rows"),
    "the suite itself": in_child("bench_suite", "rows"),
    "a learner's loop": learner_rows,
}
FULL_ONLY = {"the suite itself", "a learner's loop"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes; the suite and learner runs left out")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"python {sys.version.split()[0]}; {before}", flush=True)
    rows: list[Row] = []
    for title, section in SECTIONS.items():
        if args.quick and title in FULL_ONLY:
            continue
        print(f"== {title}", flush=True)
        began = time.perf_counter()
        rows += section(args.quick)
        print(f"   ({title}: {time.perf_counter() - began:.0f}s)", flush=True)
    after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"\n{len(rows)} figures in {time.perf_counter() - start:.0f}s; before: {before}; after: {after}")
    print("CPU seconds unless marked wall; load = one-minute load average when the measurement started.\n")
    print_rows(rows, markdown=args.markdown)
    missed = [row.task for row in rows if row.verdict not in ("met", "")]
    if missed:
        print(f"\n{len(missed)} target(s) missed: see benchmarks/README.md for why", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
