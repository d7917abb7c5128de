"""GitHub Classroom: the result a grader step hands ``classroom-resources/autograding-grading-reporter``.

The reporter reads each runner's result from ``<RUNNER>_RESULTS``, base64 of a JSON object: ``version`` 1,
``status`` ("pass", "fail" or "error"), ``max_score`` and ``tests``, each with ``name``, ``status``, ``score``,
``message``, ``test_code``, ``filename``, ``line_no`` and ``duration`` (the shape autograding-command-grader
writes). The points sent to Classroom are the sum of the tests' ``score`` over ``max_score`` (its
notify-classroom.js); its console table instead scales ``max_score`` by the share of tests whose status is
"pass", so a level with partial credit shows fewer points there than Classroom records.
"""

from __future__ import annotations

import base64
import json

from bpe_kata.platforms.points import Points, level_scores, total


def payload(report: dict, points: Points | None = None) -> dict:
    scores = level_scores(report, points)
    earned, possible = total(scores)
    tests = [{"name": f"level {s.level}", "status": "pass" if s.full_marks else "fail", "score": s.points,
              "message": s.message, "test_code": f"bpe-kata check --level {s.level}", "filename": "", "line_no": 0,
              "duration": 0} for s in scores]
    status = "error" if not report.get("levels") else "pass" if earned >= possible else "fail"
    return {"version": 1, "status": status, "max_score": possible, "tests": tests}


def encoded(report: dict, points: Points | None = None) -> str:
    """The base64 text a workflow step sets as its ``result`` output."""
    return base64.b64encode(json.dumps(payload(report, points)).encode("utf-8")).decode("ascii")
