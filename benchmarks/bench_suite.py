#!/usr/bin/env python3
"""Time the README's two commands (install aside), as a user runs them, against the suite's budget.

``bpe-kata check`` (the spec against the reference) and ``pytest`` (the spec and the
suite's own tests) each run in a child process from the repository root, as configured in
pyproject.toml (every core). The figure to watch is pytest's wall time as a share of its
30 s budget; CPU time (children included) says how much of the machine it took. The slowest
tests of the ``pytest`` run follow, to show where the time goes.

``--no-bytecode`` runs as on a fresh clone in an environment with PYTHONDONTWRITEBYTECODE
set (CI's case): the project's ``__pycache__`` folders are removed before each run and none
is written, so every process compiles (and assertion-rewrites) the project's modules again.

``--baseline DIR --baseline-python PY`` times the same commands in another checkout (say, main
before a refactor, with the Python of its own virtual environment), alternating runs of the two,
and prints this tree's time as a ratio to the baseline's: both measured in the same run, under
the same load, so the ratio holds where absolute seconds on a shared machine do not.

Usage:
    python benchmarks/bench_suite.py                 # each command once
    python benchmarks/bench_suite.py --repeat 3 --no-bytecode
    python benchmarks/bench_suite.py --repeat 3 --baseline ../before --baseline-python ../before/.venv/bin/python
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

#: Wall-clock budget in seconds on a 2-core machine, from the issue that asked for the suite.
BUDGETS = {"pytest": 30.0}
COMMANDS = {
    "bpe-kata check": [sys.executable, "-m", "bpe_kata.cli", "check", "-q", "-p", "no:cacheprovider"],
    "pytest": [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=12"],
}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(
    name: str, env: dict[str, str], root: Path = REPO_ROOT, python: str = sys.executable
) -> tuple[float, float, str]:
    """One run in ``root`` with ``python``: wall seconds, CPU seconds of the run's processes, and its output."""
    cpu_before, start = children_cpu(), time.perf_counter()
    command = [python, *COMMANDS[name][1:]]
    if not (root / "bpe_kata" / "cli.py").is_file():  # a checkout from before the CLI moved out of spec/
        command = [part.replace("bpe_kata.cli", "spec.cli") for part in command]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu_before
    if done.returncode != 0:
        sys.exit(f"{name} failed (exit {done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return wall, cpu, done.stdout


DURATION_LINE = re.compile(r"\d+\.\d+s (call|setup|teardown) ")


def slowest(output: str) -> list[str]:
    """The lines of pytest's --durations table."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if "slowest" in line and "durations" in line), None)
    return [] if start is None else [line for line in lines[start + 1:] if DURATION_LINE.match(line)]


def remove_project_bytecode(root: Path = REPO_ROOT) -> None:
    """Delete the ``__pycache__`` folders of the project's own code (not of any virtualenv)."""
    for folder in root.rglob("__pycache__"):
        if not any(part.startswith(".") for part in folder.relative_to(root).parts):
            shutil.rmtree(folder, ignore_errors=True)


def rows(quick: bool = False) -> list:
    """run_all's rows: each command once, bytecode cached as usual."""
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    from _common import Row, load_average, verdict

    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL")}
    out = []
    for name in COMMANDS:
        load = load_average()
        wall, cpu, _ = run(name, env)
        budget = BUDGETS.get(name)
        out.append(Row(f"suite: {name}", f"{wall:.1f}s wall, {cpu:.1f}s CPU", f"budget {budget:.0f}s" if budget else "",
                       f"{wall / budget:.2f} of budget" if budget else "", f"<= {budget:.0f}s wall" if budget else "",
                       verdict(wall, budget) if budget else "", load))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (default 1)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="as a fresh clone with PYTHONDONTWRITEBYTECODE: no cached bytecode of the project")
    parser.add_argument("--baseline", type=Path, help="another checkout to time the same commands in, alternately")
    parser.add_argument("--baseline-python", default=sys.executable,
                        help="the Python (of a virtual environment) that has the baseline installed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.baseline is not None and not (args.baseline / "pyproject.toml").is_file():
        parser.error(f"--baseline {args.baseline}: not a checkout of the project (no pyproject.toml there)")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL")}
    if args.no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    print(f"{os.cpu_count()} cores; project bytecode {'never cached' if args.no_bytecode else 'cached as usual'}")
    outputs = {}
    for name in COMMANDS:
        walls: dict[str, list[float]] = {"this": [], "baseline": []}
        for i in range(args.repeat):
            sides = [("this", REPO_ROOT, sys.executable)]
            if args.baseline is not None:
                sides.append(("baseline", args.baseline.resolve(), args.baseline_python))
            for side, root, python in sides if i % 2 == 0 else reversed(sides):
                if args.no_bytecode:
                    remove_project_bytecode(root)
                load = os.getloadavg()[0]
                wall, cpu, output = run(name, env, root, python)
                walls[side].append(wall)
                if side == "this":
                    outputs[name] = output
                budget = BUDGETS.get(name)
                share = f" = {wall / budget:.2f} of its {budget:.0f} s budget" if budget and side == "this" else ""
                print(
                    f"  {name:15s} {side:8s} run {i + 1}: wall {wall:5.1f} s{share}; CPU {cpu:5.1f} s; load {load:.1f}"
                )
        if args.baseline is not None:
            ratio = min(walls["this"]) / min(walls["baseline"])
            print(f"  {name:15s} this tree / baseline, best of {args.repeat} each: {ratio:.2f}x")
    print("slowest tests of the last pytest run:")
    for line in slowest(outputs["pytest"]):
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
