#!/usr/bin/env python3
"""The same verdicts before and after a speed change: every implementation the suite ships, checked by this
tree and by a baseline checkout, claim by claim.

A change made for speed (shared work, caches, fewer processes) must not change what the spec says of any
implementation. This runs ``bpe-kata check IMPL --bpe-report FILE`` in both trees, with the derandomized
``fast`` Hypothesis profile so both draw the same examples, and compares the status of every claim and level.
Both sides run under one ``PYTHONHASHSEED`` (``--hash-seed``, default 0): a known-wrong implementation whose
mistake follows set order (wrong_merge_hash_seed_overlaps) fails differently under each seed, and a different
draw is not a different verdict. Corpus tests are left out by default (``--corpus`` keeps them): the right
implementations in tests/ are deliberately slow trainers.

Besides each claim's and level's status, the whole JSON report is compared once what may differ between two
trees is taken out (``--statuses-only`` compares the statuses alone): timings, and each tree's own path
(written ``<tree>``), pytest's numbered temporary folders and objects' addresses, so a failure's text, its
root causes and likely mistakes must be the same too.

Usage:
    python benchmarks/verdicts_before_after.py --baseline ../before --baseline-python ../before/.venv/bin/python
    python benchmarks/verdicts_before_after.py --baseline ../before --only wrong_merge --gate
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def implementations() -> list[str]:
    """What the suite ships: the reference, the oracle, the starter and every file in tests/implementations."""
    shipped = ["reference", "spec.oracle", "solutions.starter"]
    folder = REPO_ROOT / "tests" / "implementations"
    shipped += [f"tests/implementations/{path.name}" for path in sorted(folder.glob("*.py"))
                if path.stem.startswith(("wrong_", "right_"))]
    return shipped


def verdict(root: Path, python: str, impl: str, options: list[str], folder: Path, hash_seed: str) -> dict:
    """Claim and level statuses of one run (or the run's failure to report)."""
    report = folder / f"{abs(hash((str(root), impl)))}.json"
    command = [python, "-m", "bpe_kata.cli", "check", impl, "-n", "0", "-q", "-p", "no:cacheprovider",
               "--hypothesis-profile", "fast", "--bpe-report", str(report), *options]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL", "HYPOTHESIS_PROFILE")}
    env["PYTHONHASHSEED"] = hash_seed
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    if not report.exists():
        return {"exit": done.returncode, "error": (done.stdout + done.stderr)[-400:]}
    data = json.loads(RUN_SPECIFIC.sub(lambda found: found.group(1) or "0x…",
                                       report.read_text(encoding="utf-8").replace(str(root), "<tree>")))
    return {"exit": done.returncode,
            "claims": {claim: row["status"] for claim, row in data["claims"].items()},
            "levels": {level: row["status"] for level, row in data["levels"].items()},
            "report": without_timings(data)}


#: What differs between two runs of one tree inside a failure's text: pytest's numbered temporary folder, an
#: object's address.
RUN_SPECIFIC = re.compile(r"(pytest-of-[^/\\]+/pytest-)\d+|0x[0-9a-f]{6,}")

#: Report fields that differ between two runs of one tree: what the run cost, not what it decided.
TIMING_WORDS = ("time", "seconds", "duration", "elapsed", "cpu", "wall")


def without_timings(value):
    """The report with every timing field taken out, at any depth."""
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items()
                if not any(word in key.lower() for word in TIMING_WORDS)}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the checkout before the change")
    parser.add_argument("--baseline-python", default=sys.executable, help="the Python that has the baseline installed")
    parser.add_argument("--only", default="", help="only implementations whose name contains this")
    parser.add_argument("--corpus", action="store_true", help="keep the corpus tests (slow for the textbook trainers)")
    parser.add_argument("--gate", action="store_true", help="run through the gate (isolated, sandboxed) instead")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    parser.add_argument("--hash-seed", default="0", help="PYTHONHASHSEED of both sides' runs (default 0)")
    parser.add_argument("--statuses-only", action="store_true", help="compare claim and level statuses only")
    parser.add_argument("--sample", type=int, default=0, help="every Nth implementation only (a quick look)")
    args = parser.parse_args(argv)
    if not (args.baseline / "pyproject.toml").is_file():
        parser.error(f"--baseline {args.baseline}: not a checkout of the project")
    options = [] if args.corpus else ["-m", "not corpus"]
    if args.gate:
        options = ["--isolated", *options]
    chosen = [impl for impl in implementations() if args.only in impl]
    if args.sample > 1:
        chosen = chosen[::args.sample]
    sides = {"this": (REPO_ROOT, sys.executable), "baseline": (args.baseline.resolve(), args.baseline_python)}
    print(f"{len(chosen)} implementations, {' '.join(options) or 'all tests'}; load {os.getloadavg()[0]:.1f}")
    differing = 0
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.jobs) as pool:
        for impl in chosen:
            futures = {side: pool.submit(verdict, root, python, str(impl), options, Path(folder), args.hash_seed)
                       for side, (root, python) in sides.items()}
            this, baseline = futures["this"].result(), futures["baseline"].result()
            if args.statuses_only:
                this.pop("report", None)
                baseline.pop("report", None)
            if this == baseline:
                print(f"  same       {impl}  (exit {this['exit']}, {len(this.get('claims', {}))} claims)")
                continue
            differing += 1
            print(f"  DIFFERENT  {impl}")
            for key in ("exit", "error"):
                if this.get(key) != baseline.get(key):
                    print(f"      {key}: this {this.get(key)!r} / baseline {baseline.get(key)!r}")
            for key in ("claims", "levels", "report"):
                mine, theirs = this.get(key, {}), baseline.get(key, {})
                for name in sorted(set(mine) | set(theirs)):
                    if mine.get(name) != theirs.get(name):
                        shown = (f"this {mine.get(name)} / baseline {theirs.get(name)}" if key != "report"
                                 else f"this {json.dumps(mine.get(name))[:300]}\n        baseline "
                                      f"{json.dumps(theirs.get(name))[:300]}")
                        print(f"      {key.rstrip('s')} {name}: {shown}")
    print(f"{len(chosen) - differing} of {len(chosen)} the same; {differing} different; "
          f"load {os.getloadavg()[0]:.1f}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
