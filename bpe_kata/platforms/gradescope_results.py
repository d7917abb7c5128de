"""Gradescope's ``results.json`` (its autograder specification, "Output format"): one test per level, scored by
the teacher's points; the top-level output is the verdict a learner reads.

Fields written: top level ``score``, ``output``, ``output_format``, ``tests``, ``leaderboard`` and, when the run's
time is known, ``execution_time`` (whole seconds); each test ``name``, ``number``, ``score``, ``max_score``,
``status`` ("passed"/"failed"), ``output``, ``output_format`` and ``visibility``.
bpe_kata/schemas/gradescope_results.schema.json holds these fields as a schema.
"""

from __future__ import annotations

from bpe_kata.platforms import learner_text
from bpe_kata.platforms.points import Points, level_scores, total

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


def results(report: dict, points: Points | None = None, *, seconds: float | None = None,
            visibility: str = "visible") -> dict:
    """The results.json document for ``report`` (``--bpe-report``'s JSON)."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility {visibility!r}: Gradescope knows {', '.join(VISIBILITIES)}")
    scores = level_scores(report, points)
    earned, _ = total(scores)
    tests = []
    for number, score in enumerate(scores, 1):
        output = "\n".join([score.message, *learner_text.claim_lines(report, score.failed_claims)])
        tests.append({"name": f"level {score.level}", "number": str(number), "score": score.points,
                      "max_score": score.max_points, "status": "passed" if score.full_marks else "failed",
                      "output": output, "output_format": "text", "visibility": visibility})
    document = {"score": earned, "output": learner_text.verdict(report, scores), "output_format": "text",
                "tests": tests,
                "leaderboard": [{"name": "levels green", "value": sum(s.status == "green" for s in scores),
                                 "order": "desc"}]}
    if seconds is not None:
        document["execution_time"] = max(0, round(seconds))
    return document
