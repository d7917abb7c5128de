"""``bpe-kata grade --csv``: the class for a gradebook, one row per submission, every cell a spreadsheet can read.

The terminal's cells ("failed 3", "—", "7%") are for eyes; a spreadsheet needs a status word it can count with
COUNTIF and numbers it can add. So each level has three columns: its status word (``green``, ``failed``,
``not started``, ``partly started``, ``partly run``, ``not run``; empty when the run did not select it), its
passed tests and its tests in all; then the totals, the result word (``green``, ``failed``, ``incomplete``,
``timed out``, ``crashed``, ``could not load``, ``no report``) with its detail apart, ``accepted`` (yes/no),
the flags, the similarity as a fraction and the seconds.

Points (a teacher's weights per level) are another module's job: ``extra`` columns, each a heading and a
function of the row, go right after ``accepted``, so a gradebook's most-read columns stay together.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path

from bpe_kata.tools.grade import Graded
from bpe_kata.tools.shipped import shown

#: The counts a level's tests fall in (bpe_kata/verdict's level counts); their sum is the level's tests ("not judged"
#: is not one: it counts failed tests that rest on a broken claim, already among the failed).
COUNTED = ("passed", "failed", "not started", "not run")

Column = tuple[str, Callable[[Graded], object]]


def level_tests(counts: dict | None) -> tuple[int, int]:
    """(passed, tests) of one level's counts; (0, 0) for a level not in the run."""
    if not counts:
        return 0, 0
    return int(counts.get("passed", 0)), sum(int(counts.get(name, 0)) for name in COUNTED)


def header(levels: Sequence[str], extra: Sequence[Column] = ()) -> list[str]:
    per_level = [name for level in levels for name in (level, f"{level} passed", f"{level} tests")]
    return ["submission", "result", "detail", "accepted", *(name for name, _ in extra), *per_level,
            "passed", "tests", "levels green", "flags", "similarity", "seconds"]


def row(outcome: Graded, levels: Sequence[str], extra: Sequence[Column] = ()) -> list[object]:
    cells: list[object] = []
    passed = tests = green = 0
    for level in levels:
        counts = outcome.levels.get(level)
        done, total = level_tests(counts)
        status = str(counts["status"]).lower() if counts else ""  # the report's "FAILED" is shouted for eyes
        cells += [status, done if counts else "", total if counts else ""]
        passed, tests, green = passed + done, tests + total, green + (status == "green")
    similarity = "" if outcome.similarity is None else round(outcome.similarity, 3)
    return [outcome.name, outcome.verdict, outcome.detail, "yes" if outcome.accepted else "no",
            *(value(outcome) for _, value in extra), *cells, passed, tests, green,
            "; ".join(outcome.flags), similarity, round(outcome.seconds, 1)]


def inert(cell: object) -> object:
    """A text cell a spreadsheet shows as text: one starting as a formula would (``=``, ``+``, ``-``, ``@``, a tab or
    a carriage return; a submission's name is the student's text) gets a leading apostrophe (OWASP's advice)."""
    if not isinstance(cell, str):
        return cell
    cell = shown(cell)
    return f"'{cell}" if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def write(path: Path, outcomes: list[Graded], levels: Sequence[str], extra: Sequence[Column] = ()) -> None:
    """The CSV at ``path`` (``levels``: the table's level columns, in order)."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header(levels, extra))
        writer.writerows([inert(cell) for cell in row(outcome, levels, extra)] for outcome in outcomes)
