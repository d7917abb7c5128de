"""The platform files a run writes once its final report exists: one option per platform, one writer each.

The in-process run (bpe_kata/run/kata_run.py) calls :func:`write_all` where it writes ``--bpe-report``; under
the gate the supervisor takes these options out of the verdict process's (bpe_kata/gate/run_options.py) and
calls it on the report it has completed, so no child ever writes them. ``bpe-kata results`` calls
:func:`render` on a report file. Every file is written whole or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from bpe_kata.platforms import classroom_payload, exercism_results, gradescope_results, junit_levels, points
from bpe_kata.platforms.option_names import FORMAT_OPTIONS, OUTPUT_OPTIONS, POINTS_OPTION
from bpe_kata.verdict import atomic_file

__all__ = ["FORMATS", "OUTPUT_OPTIONS", "POINTS_OPTION", "asked", "check", "render", "write_all"]


def _json(document: dict) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


#: format -> (its run option, what it renders: (report, points, seconds) -> file text, and what it is).
FORMATS: dict[str, tuple[str, Callable[[dict, points.Points, float | None], str], str]] = {
    "gradescope": (FORMAT_OPTIONS["gradescope"], lambda r, p, s: _json(gradescope_results.results(r, p, seconds=s)),
                   "Gradescope's results.json (one test per level)"),
    "classroom": (FORMAT_OPTIONS["classroom"], lambda r, p, s: classroom_payload.encoded(r, p) + "\n",
                  "GitHub Classroom's grading-reporter result (base64 JSON)"),
    "junit-per-level": (FORMAT_OPTIONS["junit-per-level"],
                        lambda r, p, s: junit_levels.document(r, p).decode("utf-8") + "\n",
                        "JUnit XML with one test case per level (CodeGrade, any JUnit consumer)"),
    "exercism": (FORMAT_OPTIONS["exercism"], lambda r, p, s: _json(exercism_results.results(r, p)),
                 "Exercism's results.json v3 (a level is a task, a claim a test)"),
}


def render(name: str, report: dict, chosen: points.Points | None = None, seconds: float | None = None) -> str:
    """The text of format ``name``'s file for ``report``."""
    return FORMATS[name][1](report, chosen or points.Points(), seconds)


def asked(values: dict[str, str | None]) -> dict[str, Path]:
    """The formats a run's options ask for: format -> file."""
    return {name: Path(values[option]) for name, (option, _, _) in FORMATS.items() if values.get(option)}


def check(values: dict[str, str | None]) -> points.Points:
    """The points the options name (read before the run, so a wrong file costs no run). Raises PointsError."""
    return points.load(values.get(POINTS_OPTION))


def write_all(values: dict[str, str | None], report: dict, seconds: float | None = None) -> list[Path]:
    """Write every file ``values`` (option -> file) asks for from the final ``report``; the files written."""
    wanted = asked(values)
    if not wanted:
        return []
    chosen = check(values)
    return [atomic_file.write_text(path, render(name, report, chosen, seconds)) for name, path in wanted.items()]
