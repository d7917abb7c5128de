"""``bpe-kata summary`` (bpe_kata/tools/ci_summary.py): the job summary and the badge from a report."""

from __future__ import annotations

import json

from bpe_kata.tools import ci_summary


def _report(statuses: dict[str, str], exit_status: int, **extra) -> dict:
    levels = {name: {"passed": 3, "failed": 2 if status == "FAILED" else 0, "not started": 0, "not run": 0,
                     "status": status} for name, status in statuses.items()}
    return {"suite": "bpe-kata", "suite_version": "0.1.0", "implementation": "mine", "python": "3.11.7",
            "complete": True, "exit_status": exit_status, "levels": levels, "claims": {}, **extra}


def test_the_badge_says_how_many_levels_are_green_and_colours_the_verdict():
    green = ci_summary.badge(_report({"bytes": "green", "merge": "green"}, 0))
    assert green == {"schemaVersion": 1, "label": "bpe-kata", "message": "2/2 levels green", "color": "brightgreen"}
    expected = ci_summary.badge(_report({"bytes": "green", "merge": "FAILED"}, 0))  # failures the expectations know
    assert expected["color"] == "yellowgreen" and expected["message"] == "1/2 levels green"
    assert ci_summary.badge(_report({"bytes": "green", "merge": "FAILED"}, 1))["color"] == "red"
    assert ci_summary.badge({**_report({"bytes": "green"}, 0), "complete": False})["color"] == "red"
    assert ci_summary.badge(_report({}, 1))["message"] == "no report"


def test_the_summary_tables_levels_and_broken_claims_in_safe_cells():
    claims = {"merge.end-guard": {"status": "failed", "level": "merge", "tests": {"failed": ["a", "b"]},
                                  "first_failure": "got [1|2]\nsecond line"},
              "bytes.examples": {"status": "passed", "level": "bytes", "tests": {"passed": ["c"]}}}
    text = ci_summary.markdown(_report({"bytes": "green", "merge": "FAILED"}, 1, claims=claims,
                                       likely_mistakes=["stops early"]))
    assert text.startswith("## bpe-kata: FAILED")
    assert "| merge | 3 | 2 | 0 | 0 | ❌ FAILED |" in text
    assert "| `merge.end-guard` | merge | 2 | got [1\\|2] |" in text and "second line" not in text
    assert "bytes.examples" not in text and "Broken claims (1)" in text and "- stops early" in text


def test_the_command_appends_the_summary_and_writes_the_badge(tmp_path, capsys):
    report, summary, badge = tmp_path / "r.json", tmp_path / "summary.md", tmp_path / "b" / "badge.json"
    report.write_text(json.dumps(_report({"bytes": "green"}, 0)), encoding="utf-8")
    summary.write_text("earlier step\n", encoding="utf-8")
    assert ci_summary.main([str(report), "--markdown", str(summary), "--badge", str(badge)]) == 0
    assert summary.read_text(encoding="utf-8").startswith("earlier step\n## bpe-kata: passed")
    assert json.loads(badge.read_text(encoding="utf-8"))["color"] == "brightgreen"
    (tmp_path / "bad.json").write_text("[]", encoding="utf-8")
    assert ci_summary.main([str(tmp_path / "bad.json")]) == 2
    assert ci_summary.main([str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
