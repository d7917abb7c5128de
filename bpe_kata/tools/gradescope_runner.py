"""One Gradescope submission: find its shape in ``ROOT/submission``, run the gate on it, and make sure
``ROOT/results/results.json`` exists whatever happened (run by the kit's ``run_autograder``).

The gate's supervisor writes results.json from its final report (``--gradescope``), scored by
``ROOT/source/points.toml``; a run that wrote none (a submission that cannot be found, a usage error) gets one
with no points and the reason, since Gradescope shows a student nothing without it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from bpe_kata.platforms.gradescope_results import VISIBILITIES

#: The gate's wall limit: below the autograder timeout set in Gradescope's settings, so the run is stopped and
#: scored before Gradescope stops it. Override with BPE_KATA_WALL_LIMIT.
DEFAULT_WALL_LIMIT = 540
#: Names a plain module solution is likely to have, tried in this order when several .py files are submitted.
LIKELY_NAMES = ("bpe.py", "solution.py", "tokenizer.py", "submission.py", "main.py")
CONTRACT_FUNCTIONS = re.compile(r"^def (train|encode|decode|get_stats|merge)\(", re.MULTILINE)
MINBPE_CLASS = re.compile(r"^class \w+\((\w+\.)?Tokenizer\)|^class (Basic|Regex)Tokenizer\b", re.MULTILINE)


class NotFound(Exception):
    """No implementation in a shape ``check`` accepts."""


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts and not p.name.startswith("."))


def impl_value(submission: Path) -> str:
    """The ``--impl`` value for what a student uploaded (docs/LEARNERS.md lists the shapes)."""
    files = _python_files(submission)
    if not files:
        raise NotFound(f"no Python file in the submission ({submission}): upload your .py file(s) or package")
    adapters = [p for p in files if p.name == "adapters.py" and p.parent.name == "tests"]
    if adapters:
        return f"cs336:{adapters[0].parent.parent}"
    if any(MINBPE_CLASS.search(p.read_text(encoding="utf-8", errors="replace")) for p in files):
        return f"minbpe:{submission}"
    if (submission / "__init__.py").is_file():
        return str(submission)
    packages = [p.parent for p in files if p.name == "__init__.py" and p.parent.parent == submission]
    if len(packages) == 1:
        return str(packages[0])
    top = [p for p in files if p.parent == submission]
    for name in LIKELY_NAMES:
        if submission / name in top:
            return str(submission / name)
    best = max(top or files, key=lambda p: len(CONTRACT_FUNCTIONS.findall(p.read_text(encoding="utf-8",
                                                                                      errors="replace"))))
    return str(best)


def no_result(results: Path, reason: str, seconds: float) -> None:
    """results.json for a run that wrote none: no points, and why."""
    from bpe_kata.verdict import atomic_file

    document = {"score": 0.0, "execution_time": round(seconds), "output_format": "text",
                "output": f"bpe-kata could not grade this submission: {reason}\n", "tests": []}
    atomic_file.write_text(results, json.dumps(document, indent=1) + "\n")


def set_visibility(results: Path, visibility: str) -> None:
    """Every test's visibility (Gradescope's: visible, hidden, after_due_date, after_published)."""
    from bpe_kata.verdict import atomic_file

    document = json.loads(results.read_text(encoding="utf-8"))
    for test in document.get("tests", []):
        test["visibility"] = visibility
    atomic_file.write_text(results, json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def run(root: Path, gate_options: list[str], visibility: str = "visible") -> int:
    results = root / "results" / "results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    try:
        value = impl_value(root / "submission")
    except NotFound as error:
        no_result(results, str(error), time.monotonic() - began)
        return 0
    points = root / "source" / "points.toml"
    wall = os.environ.get("BPE_KATA_WALL_LIMIT", str(DEFAULT_WALL_LIMIT))
    command = [sys.executable, "-m", "bpe_kata.cli", "gate", value, "--gradescope", str(results),
               "--wall-limit", wall, *(["--points", str(points)] if points.is_file() else []), *gate_options]
    print("bpe-kata autograder: " + " ".join(command), flush=True)
    completed = subprocess.run(command, cwd=root, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(completed.stderr)
    if not results.is_file():
        lines = [line for line in completed.stderr.splitlines() if line.strip()]
        no_result(results, "\n".join(lines[-5:]) or f"the gate exited {completed.returncode}",
                  time.monotonic() - began)
    elif visibility != "visible":
        set_visibility(results, visibility)
    return 0  # the verdict is in results.json; a non-zero exit is Gradescope's "autograder failed"


def main(argv: list[str] | None = None) -> int:
    """``--root ROOT [-- GATE OPTIONS]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="python -m bpe_kata.tools.gradescope_runner")
    parser.add_argument("--root", default="/autograder")
    parser.add_argument("--visibility", default="visible", choices=VISIBILITIES)
    options = parser.parse_args(argv[:cut])
    return run(Path(options.root), argv[cut + 1:], options.visibility)


if __name__ == "__main__":
    sys.exit(main())
