"""The verdict: expectations files, strict levels, unexpected passes, incomplete runs, the report's run record."""

from __future__ import annotations

import json

import pytest

from bpe_kata.verdict import expectations, run_status
from tests.support import REPO_ROOT, run_gate_inline, run_spec_inline

WRONG_MERGE = str(REPO_ROOT / "tests" / "implementations" / "wrong_merge_right_to_left.py")
MERGE_AND_PAIRS = ("--claim", "merge.*", "--claim", "pairs.*", "-m", "not corpus")
FILES = ["spec/test_merge.py", "spec/test_pairs.py"]


def write_expect(tmp_path, *entries: dict, suffix=".toml"):
    path = tmp_path / f"expect{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps({"expected": list(entries)}), encoding="utf-8")
    else:
        path.write_text(expectations.dumps([expectations.Expected(*next((k, v) for k, v in e.items() if k != "reason"),
                                                                  e["reason"]) for e in entries]), encoding="utf-8")
    return str(path)


def test_without_expectations_a_failure_fails_the_gate(tmp_path):
    run = run_gate_inline(tmp_path, WRONG_MERGE, *MERGE_AND_PAIRS, files=FILES)
    assert run.returncode == 1 and run.report["expectations"]["unexpected_failures"]


@pytest.mark.parametrize("suffix", [".toml", pytest.param(".json", marks=pytest.mark.heavy)])
def test_expected_failures_pass_the_gate(tmp_path, suffix):
    expect = write_expect(tmp_path, {"level": "merge", "reason": "scans from the right, on purpose"},
                          {"claim": "train.wikipedia-walkthrough", "reason": "same mistake"}, suffix=suffix)
    run = run_gate_inline(tmp_path, WRONG_MERGE, *MERGE_AND_PAIRS, "--expect", expect, files=FILES)
    assert run.returncode == 0, run.report["expectations"]
    assert run.claim_status("merge.left-to-right") == "failed" and run.report["complete"]
    assert all(reason == "scans from the right, on purpose"
               for reason in run.report["expectations"]["expected_failures"].values())


@pytest.mark.heavy
def test_an_unexpected_pass_is_reported_and_fails_with_strict_expect(tmp_path):
    expect = write_expect(tmp_path, {"level": "merge", "reason": "wrong merge"},
                          {"level": "pairs", "reason": "stale: pairs were fixed"})
    run = run_gate_inline(tmp_path, WRONG_MERGE, *MERGE_AND_PAIRS, "--expect", expect, files=FILES)
    assert run.returncode == 0 and run.report["expectations"]["unexpected_passes"] == ["level pairs"]
    strict = run_gate_inline(
        tmp_path, WRONG_MERGE, *MERGE_AND_PAIRS, "--expect", expect, "--strict-expect", files=FILES
    )
    assert strict.returncode == 1


def test_a_run_that_stops_early_never_exits_zero(tmp_path):
    expect = write_expect(tmp_path, {"level": "merge", "reason": "wrong merge"})
    run = run_gate_inline(tmp_path, WRONG_MERGE, *MERGE_AND_PAIRS, "--expect", expect, "-x", files=FILES)
    assert run.returncode == 1
    assert run.report["complete"] is False and run.report["finished"] < run.report["selected"]


@pytest.mark.heavy
def test_not_started_levels_fail_the_gate_unless_expected(tmp_path):
    run = run_gate_inline(tmp_path, "solutions.starter", "--level", "pairs", "-m", "not corpus")
    assert run.returncode == 1 and run.level_status("pairs") == "not started"
    written = tmp_path / "written.toml"
    run_gate_inline(tmp_path, "solutions.starter", "--level", "pairs", "-m", "not corpus",
                    "--write-expect", str(written))
    assert {e.value for e in expectations.load(written)} == {"bytes", "pairs"}
    allowed = run_gate_inline(tmp_path, "solutions.starter", "--level", "pairs", "-m", "not corpus",
                              "--expect", str(written))
    assert allowed.returncode == 0


def test_in_process_check_keeps_not_started_levels_green(tmp_path):
    run = run_spec_inline(tmp_path, "--impl", "solutions.starter", "--level", "pairs", "-m", "not corpus")
    assert run.returncode == 0 and run.report["expectations"] is None and run.report["isolated"] is False


def test_the_report_records_the_run(tmp_path):
    run = run_gate_inline(tmp_path, "reference", "--claim", "merge.*", files=["spec/test_merge.py"])
    report = run.report
    assert run.returncode == 0 and report["complete"] is True and report["exit_status"] == 0
    assert report["spec_fingerprint"] == run_status.spec_fingerprint() and len(report["spec_fingerprint"]) == 64
    assert report["command"][-3:] == ["-m", "bpe_kata.child.server", "reference"] and report["suite_version"]
    assert report["selected"] == report["finished"] and report["faults"] == {}


@pytest.mark.parametrize("content, problem", [
    ('[[expected]]\nclaim = "merge.*"\n', "reason"),
    ('[[expected]]\nclaim = "merge.*"\ntest = "x"\nreason = "r"\n', "exactly one"),
    ("expected = 3\n", "list"),
    ("not toml [", "expect"),
])
def test_a_broken_expectations_file_is_a_usage_error(tmp_path, content, problem):
    path = tmp_path / "broken.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(expectations.ExpectationsError, match=problem):
        expectations.load(path)
    assert (
        run_spec_inline(tmp_path, "--expect", str(path), "--claim", "merge.*", files=["spec/test_merge.py"]).returncode
        == 4
    )


def test_workers_never_decide():
    class Worker:
        workerinput: dict = {}

    assert run_status.is_worker(Worker()) and not run_status.is_worker(object())
