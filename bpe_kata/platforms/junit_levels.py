"""JUnit with one test case per level (``--junit-per-level``), for CodeGrade and any JUnit consumer.

A consumer that scores passed test cases over all of them would weigh levels by their number of tests from
pytest's own JUnit (105 tests of ``pretrained`` against 9 of ``pairs``); here each graded level is one case,
failing unless it earned all its points, with its points as properties. As the gate's own JUnit does
(bpe_kata/verdict/junit_verdict.py), the file agrees with the verdict: a run the supervisor stopped, an
incomplete run, or a non-zero exit status with every level full adds one failing case ``bpe-kata.verdict``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from bpe_kata.platforms import learner_text
from bpe_kata.platforms.points import Points, level_scores, total

SUITE_NAME = "bpe-kata levels"


def document(report: dict, points: Points | None = None) -> bytes:
    scores = level_scores(report, points)
    earned, possible = total(scores)
    root = ElementTree.Element("testsuites")
    suite = ElementTree.SubElement(root, "testsuite", name=SUITE_NAME)
    properties = ElementTree.SubElement(suite, "properties")
    for name, value in (("points", earned), ("max_points", possible)):
        ElementTree.SubElement(properties, "property", name=name, value=f"{value:g}")
    for score in scores:
        case = ElementTree.SubElement(suite, "testcase", classname="bpe-kata.levels", name=score.level, time="0")
        props = ElementTree.SubElement(case, "properties")
        for name, value in (("status", score.status), ("passed", score.passed), ("total", score.total),
                            ("points", f"{score.points:g}"), ("max_points", f"{score.max_points:g}")):
            ElementTree.SubElement(props, "property", name=name, value=str(value))
        if not score.full_marks:
            failure = ElementTree.SubElement(case, "failure", message=score.message)
            failure.text = "\n".join([score.message, *learner_text.claim_lines(report, score.failed_claims)])
    state = learner_text.run_state(report)
    all_full = all(s.full_marks for s in scores)
    if state or (report.get("exit_status", 0) != 0 and all_full):
        message = "; ".join(state) or f"the run exits {report.get('exit_status')} (see its output and report)"
        case = ElementTree.SubElement(suite, "testcase", classname="bpe-kata.verdict", name="run", time="0")
        ElementTree.SubElement(case, "failure", message=message).text = message
    cases = suite.findall("testcase")
    failures = sum(case.find("failure") is not None for case in cases)
    for element in (suite, root):
        element.set("tests", str(len(cases)))
        element.set("failures", str(failures))
        element.set("errors", "0")
        element.set("skipped", "0")
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
