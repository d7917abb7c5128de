#!/usr/bin/env python3
"""Time the README's two commands (install aside), as a user runs them, against the suite's budget.

``bpe-kata check`` (the spec against the reference) and ``pytest`` (the spec and the suite's own
tests, the heavy group left out) each run in a child process from the repository root, as
configured in pyproject.toml (every core). The figures to watch are pytest's wall time against its
30 s budget and its CPU time (children included) against 50 CPU-s, and check's wall time against
6 s. ``--heavy`` also times ``pytest -m heavy``, the group CI runs beside them.

By default the project's bytecode is cached as on a contributor's machine (PYTHONDONTWRITEBYTECODE
is dropped from the environment, and a first run of each command that writes the caches is not
counted). ``--no-bytecode`` runs as a fresh clone in CI does, with PYTHONDONTWRITEBYTECODE set: the
project's ``__pycache__`` folders are removed before each run and none is written, so every process
compiles (and assertion-rewrites) the project's modules again.

``--baseline DIR --baseline-python PY`` times the same commands in another checkout (say, main
before a refactor, with the Python of its own virtual environment), alternating runs of the two,
and prints this tree's wall and CPU time as ratios to the baseline's: both measured in the same run,
under the same load, so the ratio holds where absolute seconds on a shared machine do not.

``--where`` runs pytest once more with benchmarks/cpu_per_test.py and prints the CPU seconds and
nested spec runs per test file: where the time goes (benchmarks/README.md).

Usage:
    python benchmarks/bench_suite.py                 # each command once
    python benchmarks/bench_suite.py --repeat 3 --no-bytecode
    python benchmarks/bench_suite.py --repeat 3 --baseline ../before --baseline-python ../before/.venv/bin/python
    python benchmarks/bench_suite.py --heavy --where
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

#: Wall-clock budgets in seconds on a 2-core machine (issue 27), and pytest's CPU budget.
BUDGETS = {"pytest": 30.0, "bpe-kata check": 6.0}
CPU_BUDGETS = {"pytest": 50.0}
COMMANDS = {
    "bpe-kata check": [sys.executable, "-m", "bpe_kata.cli", "check", "-q", "-p", "no:cacheprovider"],
    "pytest": [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=12"],
    "pytest -m heavy": [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "heavy"],
}
#: Timed unless asked otherwise; the heavy group (minutes) only with --heavy.
DEFAULT_COMMANDS = ("bpe-kata check", "pytest")


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


def environment(no_bytecode: bool) -> dict[str, str]:
    """The commands' environment: the user's, without settings that would change what runs."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL", "PYTHONDONTWRITEBYTECODE")}
    if no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def rows(quick: bool = False) -> list:
    """run_all's rows: check and pytest once each, bytecode cached (after a run that writes it)."""
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    from _common import Row, load_average, verdict

    env = environment(no_bytecode=False)
    out = []
    for name in DEFAULT_COMMANDS:
        run(name, env)  # writes the bytecode caches
        load = load_average()
        wall, cpu, _ = run(name, env)
        budget = BUDGETS.get(name)
        out.append(Row(f"suite: {name}", f"{wall:.1f}s wall, {cpu:.1f}s CPU", f"budget {budget:.0f}s" if budget else "",
                       f"{wall / budget:.2f} of budget" if budget else "", f"<= {budget:.0f}s wall" if budget else "",
                       verdict(wall, budget) if budget else "", load))
    return out


def where(env: dict[str, str]) -> None:
    """pytest once with benchmarks/cpu_per_test.py: CPU seconds and nested spec runs per test file."""
    import tempfile

    sys.path.insert(0, str(REPO_ROOT))
    from benchmarks.cpu_per_test import totals

    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "cpu.json"
        command = [*COMMANDS["pytest"][1:], "-p", "benchmarks.cpu_per_test", "--cpu-report", str(report)]
        before = children_cpu()
        done = subprocess.run([sys.executable, *command], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
        total = children_cpu() - before
        if done.returncode != 0:
            sys.exit(f"pytest failed (exit {done.returncode}):\n{done.stdout[-3000:]}")
        cpu, nested = totals(report)
    tests = sum(cpu.values())
    print(f"where pytest's {total:.1f} CPU-s went: {tests:.1f} in tests (spec/ "
          f"{sum(v for k, v in cpu.items() if k.startswith('spec/')):.1f}), {total - tests:.1f} in start-up, "
          f"collection and xdist; {sum(nested.values())} nested spec runs")
    for file, seconds in sorted(cpu.items(), key=lambda row: -row[1])[:25]:
        print(f"  {seconds:6.2f} CPU-s  {nested[file]:3d} nested  {file}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (default 1)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="as a fresh clone with PYTHONDONTWRITEBYTECODE: no cached bytecode of the project")
    parser.add_argument("--heavy", action="store_true", help="also time `pytest -m heavy` (minutes)")
    parser.add_argument("--where", action="store_true", help="also print pytest's CPU seconds per test file")
    parser.add_argument("--baseline", type=Path, help="another checkout to time the same commands in, alternately")
    parser.add_argument("--baseline-python", default=sys.executable,
                        help="the Python (of a virtual environment) that has the baseline installed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.baseline is not None and not (args.baseline / "pyproject.toml").is_file():
        parser.error(f"--baseline {args.baseline}: not a checkout of the project (no pyproject.toml there)")
    env = environment(args.no_bytecode)
    names = [*DEFAULT_COMMANDS, *(["pytest -m heavy"] if args.heavy else [])]
    print(f"{os.cpu_count()} cores; project bytecode {'never cached' if args.no_bytecode else 'cached as usual'}; "
          f"load {os.getloadavg()[0]:.1f}")
    sides = [("this", REPO_ROOT, sys.executable)]
    if args.baseline is not None:
        sides.append(("baseline", args.baseline.resolve(), args.baseline_python))
    outputs = {}
    for name in names:
        times: dict[str, list[tuple[float, float]]] = {"this": [], "baseline": []}
        if not args.no_bytecode:
            for _, root, python in sides:
                run(name, env, root, python)  # writes the bytecode caches; not counted
        for i in range(args.repeat):
            for side, root, python in sides if i % 2 == 0 else reversed(sides):
                if args.no_bytecode:
                    remove_project_bytecode(root)
                load = os.getloadavg()[0]
                wall, cpu, output = run(name, env, root, python)
                times[side].append((wall, cpu))
                if side == "this":
                    outputs[name] = output
                budget, cpu_budget = BUDGETS.get(name), CPU_BUDGETS.get(name)
                share = f" = {wall / budget:.2f} of its {budget:.0f} s budget" if budget and side == "this" else ""
                cpu_share = f" = {cpu / cpu_budget:.2f} of {cpu_budget:.0f}" if cpu_budget and side == "this" else ""
                print(f"  {name:15s} {side:8s} run {i + 1}: wall {wall:5.1f} s{share}; "
                      f"CPU {cpu:5.1f} s{cpu_share}; load {load:.1f}")
        if args.baseline is not None:
            wall_ratio = min(w for w, _ in times["this"]) / min(w for w, _ in times["baseline"])
            cpu_ratio = min(c for _, c in times["this"]) / min(c for _, c in times["baseline"])
            print(f"  {name:15s} this tree / baseline, best of {args.repeat} each: wall {wall_ratio:.2f}x, "
                  f"CPU {cpu_ratio:.2f}x")
    print("slowest tests of the last pytest run:")
    for line in slowest(outputs["pytest"]):
        print("  " + line)
    if args.where:
        where(env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
