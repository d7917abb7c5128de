"""Exercism's test-runner ``results.json``, version 3, for self-hosted runners: a level is a task, a claim a
test, the claim's statement (spec/claims.toml) its ``test_code``.

Top level: ``version`` 3, ``status`` ("pass" every test passed, "fail" one did not, "error" no test ran, with
``message``), ``tests``. Each test: ``name``, ``status`` ("pass", "fail" or "error"), ``message`` (when it did
not pass), ``test_code`` and ``task_id`` (1 for the first graded level, in the kata's order).
"""

from __future__ import annotations

from bpe_kata.platforms import learner_text
from bpe_kata.platforms.points import Points, level_scores

#: A claim's status in the report, as an Exercism test status ("could not run": the call raised; "not judged": its
#: check failed but rests on a broken claim; "not started": the learner has not written it yet).
STATUS = {"passed": "pass", "failed": "fail", "could not run": "error", "not judged": "error", "not started": "fail"}
#: Claims this run says nothing about are no test of it: not run (a corpus or table the machine lacks, or not
#: selected), and the informative claims, recorded and never asserted for any implementation.
NOT_A_TEST = ("not run",)
#: Exercism caps the top-level message and each test's message.
MESSAGE_CHARS = 65535


def results(report: dict, points: Points | None = None) -> dict:
    from spec.ledger import load_claims

    ledger = load_claims()
    claims = report.get("claims") or {}
    scores = level_scores(report, points)
    tests = []
    for task_id, score in enumerate(scores, 1):
        for cid, claim in ledger.items():
            if claim.level != score.level:
                continue
            found = claims.get(cid)
            if found is None or found.get("status") in NOT_A_TEST or claim.kind == "informative":
                continue
            status = STATUS.get(found.get("status"), "fail")
            test = {"name": cid, "status": status, "test_code": claim.statement, "task_id": task_id}
            if status != "pass":
                test["message"] = _why(found, score.status)[:MESSAGE_CHARS]
            tests.append(test)
    document: dict = {"version": 3, "status": "pass", "tests": tests}
    if not report.get("levels"):
        document = {"version": 3, "status": "error",
                    "message": "\n".join(learner_text.run_state(report) or ["no test ran"])[:MESSAGE_CHARS]}
    elif any(test["status"] != "pass" for test in tests):
        document["status"] = "fail"
    return document


def _why(claim: dict | None, level_status: str) -> str:
    if claim is None:
        return f"no result: its level is {level_status}"
    status = claim.get("status")
    text = claim.get("first_failure") or claim.get("not_judged_reason") or ""
    return f"{status}" + (f": {text}" if text else f" (its level is {level_status})")
