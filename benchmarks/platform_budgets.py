#!/usr/bin/env python3
"""The budgets grading platforms impose, measured on ONE core (issue 40, item 5).

Gradescope stops an autograder after 10 minutes by default (up to 40 if the teacher raises it) and gives it
half a virtual CPU; Exercism's test runner has one full CPU for a 20 s window. Both are budgets of one core or
less, so every run here is pinned to one core with ``taskset -c N`` (Linux) and ``-n 0`` (no xdist workers):

1. a baseline: ``python -c pass``, and the spec's start-up alone (a check that selects no test);
2. the README's main job, ``bpe-kata check -q -p no:cacheprovider -n 0`` on the reference, and the gate,
   ``bpe-kata gate reference -q -p no:cacheprovider -n 0`` (wall and CPU time of the whole process tree);
3. ``--level L`` for every level L (the levels up to L: what a per-level exercise runs), with the run's
   per-test durations (``--durations=0``) summed by level, which gives each level's own share;
4. for each ``--level L`` run over ``--margin`` x 20 s of CPU, the same run with ``--hypothesis-profile fast``.

CPU time (user + system of the whole process tree) is what a dedicated core would take as wall time; on this
shared machine wall time is longer, so both are printed, with the one-minute load (``uptime``) beside each
figure, and ratios against the bytes level's run measured in the same invocation.

Usage:
    python benchmarks/platform_budgets.py                 # everything: about 10 minutes at load 14 on 2 cores
    python benchmarks/platform_budgets.py --cpu 0 --json /tmp/budgets.json
    python benchmarks/platform_budgets.py --levels bytes,train --skip-full
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from spec.levels import LEVELS  # noqa: E402

EXERCISM_WINDOW = 20.0  # s, one full CPU (exercism.org/docs/building/tooling/test-runners/interface)
GRADESCOPE_DEFAULT = 600.0  # s, half a vCPU by default (gradescope-autograders.readthedocs.io troubleshooting)
GRADESCOPE_CPU_SHARE = 0.5
COMMON = ["-q", "-p", "no:cacheprovider", "-n", "0"]
DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")


@dataclass
class Run:
    label: str
    command: list[str]
    wall: float
    cpu: float
    load: float
    status: int
    output: str

    def row(self, baseline: float | None) -> str:
        ratio = f"{self.cpu / baseline:6.2f}x" if baseline else "    -  "
        return f"{self.label:<44} {self.wall:7.2f} {self.cpu:7.2f} {ratio} {self.load:5.1f} {self.status:3d}"


def pinned(cpu: int, command: list[str]) -> list[str]:
    if shutil.which("taskset") is None:
        sys.exit("taskset not found: this benchmark pins every run to one core and needs Linux's util-linux")
    return ["taskset", "-c", str(cpu), *command]


def measure(label: str, command: list[str]) -> Run:
    """Run command from the repository root; wall time, and CPU time of it and every process it waited for."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    run = Run(label, command, wall, cpu, load, done.returncode, done.stdout + done.stderr)
    print(run.row(None), flush=True)
    return run


def level_shares(output: str, report: Path) -> dict[str, float]:
    """Seconds of setup + call + teardown per level, from ``--durations=0`` and the report's test levels."""
    levels = {test: info["level"] for test, info in json.loads(report.read_text())["tests"].items()}
    shares: dict[str, float] = {}
    for line in output.splitlines():
        found = DURATION.match(line)
        if found and found.group(3) in levels:
            level = levels[found.group(3)]
            shares[level] = shares.get(level, 0.0) + float(found.group(1))
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu", type=int, default=1, help="the core every run is pinned to (default 1)")
    parser.add_argument("--levels", default=None, help="comma-separated levels to run with --level (default all)")
    parser.add_argument("--skip-full", action="store_true", help="leave out the full check and the gate")
    parser.add_argument("--margin", type=float, default=0.75,
                        help="rerun with --hypothesis-profile fast when a level's CPU passes this share of 20 s")
    parser.add_argument("--json", default=None, metavar="FILE", help="also write every figure as JSON to FILE")
    args = parser.parse_args()
    kata = shutil.which("bpe-kata", path=str(Path(sys.executable).parent)) or shutil.which("bpe-kata")
    if kata is None:
        sys.exit("bpe-kata is not installed: pip install -e '.[test]' in this repository first")
    names = [level.name for level in LEVELS if level.name != "facts"]
    chosen = args.levels.split(",") if args.levels else names
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        sys.exit(f"--levels: {', '.join(unknown)} is no level of the spec ({', '.join(names)})")

    print(f"start: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"{'run (pinned to core ' + str(args.cpu) + ')':<44} {'wall s':>7} {'CPU s':>7} {'/bytes':>7} "
          f"{'load':>5} {'rc':>3}")
    runs: list[Run] = [measure("python -c pass", pinned(args.cpu, [sys.executable, "-c", "pass"])),
                       measure("start-up: check selecting no test",
                               pinned(args.cpu, [kata, "check", *COMMON, "-k", "no_test_has_this_name"]))]
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        if not args.skip_full:
            runs.append(measure("check (README's main job), full", pinned(args.cpu, [
                kata, "check", *COMMON, "--durations=0", "--durations-min=0", "--bpe-report", str(report)])))
            shares = level_shares(runs[-1].output, report) if report.exists() else {}
            runs.append(measure("gate reference, full", pinned(args.cpu, [kata, "gate", "reference", *COMMON])))
        else:
            shares = {}
        by_level: dict[str, Run] = {}
        for name in chosen:
            command = [kata, "check", *COMMON, "--level", name]
            by_level[name] = measure(f"check --level {name}", pinned(args.cpu, command))
            runs.append(by_level[name])
        fast: dict[str, Run] = {}
        for name, run in by_level.items():
            if run.cpu > args.margin * EXERCISM_WINDOW:
                fast[name] = measure(f"check --level {name} --hypothesis-profile fast", pinned(
                    args.cpu, [kata, "check", *COMMON, "--level", name, "--hypothesis-profile", "fast"]))
                runs.append(fast[name])
    print(f"end: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")

    base = by_level["bytes"].cpu if "bytes" in by_level else None
    print(f"\n{'run':<44} {'wall s':>7} {'CPU s':>7} {'/bytes':>7} {'load':>5} {'rc':>3}")
    for run in runs:
        print(run.row(base))
    if shares:
        print("\neach level's own tests in the full check (setup + call + teardown, s):")
        for name in names:
            print(f"  {name:<12} {shares.get(name, 0.0):6.2f}")
    print(f"\nExercism ({EXERCISM_WINDOW:.0f} s of one CPU): --level runs whose CPU time fits, with a 25% margin:")
    for name, run in by_level.items():
        verdict = "fits" if run.cpu <= args.margin * EXERCISM_WINDOW else (
            "fits, no margin" if run.cpu <= EXERCISM_WINDOW else "does not fit")
        extra = f"; with --hypothesis-profile fast {fast[name].cpu:.1f} CPU-s" if name in fast else ""
        print(f"  --level {name:<11} {run.cpu:5.1f} CPU-s  {verdict}{extra}")
    for run in runs:
        if run.label.endswith(", full"):
            need = run.cpu / GRADESCOPE_CPU_SHARE
            print(f"Gradescope: {run.label}: {run.cpu:.1f} CPU-s, about {need:.0f} s on half a vCPU, "
                  f"{need / GRADESCOPE_DEFAULT:.0%} of the default {GRADESCOPE_DEFAULT:.0f} s")
    bad = [run.label for run in runs if run.status not in (0, 5)]
    if bad:
        print(f"\nWARNING: these runs did not pass: {', '.join(bad)}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"runs": [{k: v for k, v in vars(run).items() if k != "output"} for run in runs], "shares": shares},
            indent=1))


if __name__ == "__main__":
    main()
