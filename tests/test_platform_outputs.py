"""The platform files a run writes (bpe_kata/platforms, issue 40): written by the run itself, checked against
each platform's documented fields (bpe_kata/schemas), scored by level, and equal to what ``bpe-kata results``
makes of the same report afterwards. GitHub Classroom's payload is decoded and replayed with the grading
reporter's own arithmetic (classroom-resources/autograding-grading-reporter, src/notify-classroom.js)."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from bpe_kata import cli
from bpe_kata.platforms import outputs, points
from spec.ledger import load_claims
from tests.support import REPO_ROOT, assert_valid, run_spec_inline

WRONG = str(REPO_ROOT / "tests" / "implementations" / "wrong_pairs_no_overlap.py")
FILES = {"gradescope": "results.json", "classroom": "classroom.b64", "junit-per-level": "levels.xml",
         "exercism": "exercism.json"}


def _run(folder: Path, impl: str) -> tuple[dict, dict[str, str]]:
    folder.mkdir(parents=True, exist_ok=True)
    options = [arg for name, file in FILES.items() for arg in (outputs.FORMATS[name][0], str(folder / file))]
    run = run_spec_inline(folder, "--impl", impl, "--level", "pairs", *options)
    assert run.report is not None
    return run.report, {name: (folder / file).read_text(encoding="utf-8") for name, file in FILES.items()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[dict, dict[str, str]]]:
    base = tmp_path_factory.mktemp("platforms")
    return {"reference": _run(base / "reference", "reference"), "wrong": _run(base / "wrong", WRONG)}


def test_gradescope_results_fit_its_fields_and_score_by_level(runs):
    right, wrong = (json.loads(runs[k][1]["gradescope"]) for k in ("reference", "wrong"))
    for document in (right, wrong):
        assert_valid("gradescope", document, "results.json")
        assert [t["name"] for t in document["tests"]] == ["level bytes", "level pairs"]
        assert document["score"] == pytest.approx(sum(t["score"] for t in document["tests"]))
        assert isinstance(document["execution_time"], int)
    assert right["score"] == 20 and all(t["status"] == "passed" for t in right["tests"])
    bytes_, pairs = wrong["tests"]
    assert (bytes_["score"], bytes_["status"]) == (10, "passed")
    assert pairs["status"] == "failed" and 0 < pairs["score"] < pairs["max_score"]
    assert "pairs.adjacent-overlapping" in pairs["output"] and "expected 4" in pairs["output"]
    assert "likely mistakes" in wrong["output"] and "get_stats" in wrong["output"]


def _notify_classroom(runner_results: list[dict]) -> tuple[float, float]:
    """notify-classroom.js: the points Classroom records (a runner without max_score is left out)."""
    total = maximum = 0
    for results in runner_results:
        if not results.get("max_score"):
            continue
        maximum += results["max_score"]
        total += sum(test["score"] for test in results["tests"])
    return total, maximum


def test_the_classroom_payload_decodes_and_replays_to_the_runs_points(runs):
    for key in ("reference", "wrong"):
        report, files = runs[key]
        payload = json.loads(base64.b64decode(files["classroom"].strip()))
        assert_valid("classroom", payload, "the Classroom payload")
        earned, possible = points.total(points.level_scores(report))
        assert _notify_classroom([payload]) == (pytest.approx(earned), possible)
        assert payload["status"] == ("pass" if key == "reference" else "fail")
    wrong = json.loads(base64.b64decode(runs["wrong"][1]["classroom"]))
    assert [t["status"] for t in wrong["tests"]] == ["pass", "fail"]


def test_junit_per_level_has_one_case_per_level_failing_where_points_were_lost(runs):
    for key, failing in (("reference", set()), ("wrong", {"pairs"})):
        root = ElementTree.fromstring(runs[key][1]["junit-per-level"].encode())
        cases = list(root.iter("testcase"))
        assert [c.get("name") for c in cases] == ["bytes", "pairs"]  # 14 and 9 tests: one case each
        assert {c.get("name") for c in cases if c.find("failure") is not None} == failing
        assert root.get("failures") == str(len(failing)) and root.get("tests") == "2"


def test_exercism_v3_has_a_task_per_level_and_a_test_per_claim(runs):
    ledger = load_claims()
    for key in ("reference", "wrong"):
        document = json.loads(runs[key][1]["exercism"])
        assert_valid("exercism", document, "Exercism results.json")
        assert {t["task_id"] for t in document["tests"]} == {1, 2}
        for test in document["tests"]:
            assert test["test_code"] == ledger[test["name"]].statement
            assert ledger[test["name"]].level == ("bytes", "pairs")[test["task_id"] - 1]
    wrong = json.loads(runs["wrong"][1]["exercism"])
    assert wrong["status"] == "fail"
    failed = [t for t in wrong["tests"] if t["status"] != "pass"]
    assert [t["name"] for t in failed] == ["pairs.adjacent-overlapping"] and "expected 4" in failed[0]["message"]
    assert json.loads(runs["reference"][1]["exercism"])["status"] == "pass"


def test_exercism_leaves_out_the_claims_a_run_says_nothing_about(runs):
    """A claim not run (a corpus the machine lacks: CI's front door has none) or never asserted (informative) is no
    test of the learner's: the reference passes without it; a claim not judged behind a broken one is an error."""
    import copy

    from bpe_kata.platforms.exercism_results import results

    report = copy.deepcopy(runs["reference"][0])
    some, other = sorted(cid for cid, c in report["claims"].items() if c.get("status") == "passed")[:2]
    report["claims"][some]["status"] = "not run"
    document = results(report)
    assert document["status"] == "pass" and some not in {t["name"] for t in document["tests"]}
    report["claims"][other]["status"] = "not judged"
    document = results(report)
    assert document["status"] == "fail" and {t["status"] for t in document["tests"] if t["name"] == other} == {"error"}


@pytest.mark.parametrize("name", sorted(FILES))
def test_bpe_kata_results_makes_the_same_file_from_the_report(runs, tmp_path, name):
    report, files = runs["wrong"]
    source = tmp_path / "report.json"
    source.write_text(json.dumps(report), encoding="utf-8")
    target = tmp_path / "out"
    assert cli.main(["results", name, "--from", str(source), "-o", str(target)]) == 0
    made, ran = target.read_text(encoding="utf-8"), files[name]
    if name == "gradescope":  # the run knows its time, a report read later does not
        made, ran = json.loads(made), json.loads(ran)
        ran.pop("execution_time")
    assert made == ran


def test_bpe_kata_results_refuses_what_is_no_report_and_a_wrong_points_file(tmp_path, capsys):
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}', encoding="utf-8")
    assert cli.main(["results", "gradescope", "--from", str(other)]) == 2
    assert "not a bpe-kata report" in capsys.readouterr().err
    report = tmp_path / "report.json"
    report.write_text('{"levels": {}}', encoding="utf-8")
    bad = tmp_path / "points.toml"
    bad.write_text("[levels]\nparis = 3\n", encoding="utf-8")
    assert cli.main(["results", "classroom", "--from", str(report), "--points", str(bad)]) == 2
    assert "'paris'" in capsys.readouterr().err


def test_a_run_the_supervisor_stopped_still_gets_every_file_saying_so(tmp_path):
    """The supervisor's report of a run stopped at its wall limit has no levels: no points, never full marks."""
    stopped = {"complete": False, "exit_status": 1, "levels": {}, "claims": {},
               "note": "the verdict process wrote no report (exit status 1)",
               "sandbox": {"failure": "the wall limit (20 s, --wall-limit) was reached; the run was stopped"}}
    values = {option: str(tmp_path / FILES[name]) for name, (option, _, _) in outputs.FORMATS.items()}
    outputs.write_all(values, stopped, 20.4)
    gradescope = json.loads((tmp_path / FILES["gradescope"]).read_text(encoding="utf-8"))
    assert_valid("gradescope", gradescope)
    assert gradescope["score"] == 0 and gradescope["execution_time"] == 20 and "wall limit" in gradescope["output"]
    exercism = json.loads((tmp_path / FILES["exercism"]).read_text(encoding="utf-8"))
    assert_valid("exercism", exercism)
    assert exercism["status"] == "error" and "wall limit" in exercism["message"]
    junit = ElementTree.fromstring((tmp_path / FILES["junit-per-level"]).read_bytes())
    assert any(c.get("classname") == "bpe-kata.verdict" for c in junit.iter("testcase"))
    payload = json.loads(base64.b64decode((tmp_path / FILES["classroom"]).read_text(encoding="utf-8")))
    assert payload["status"] == "error" and _notify_classroom([payload]) == (0, payload["max_score"])


def test_the_gate_takes_the_platform_options_out_of_the_verdict_process():
    """Under the gate only the supervisor writes them (from its final report): no child ever sees their paths."""
    from bpe_kata.gate.run_options import split_options

    argv = ["--impl", "x", "--points", "p.toml", *(a for o in outputs.OUTPUT_OPTIONS for a in (o, f"{o[2:]}.out"))]
    rest, values, _ = split_options(argv)
    assert rest == ["--impl", "x"]
    assert set(values) == {"--points", *outputs.OUTPUT_OPTIONS}


def test_a_wrong_points_file_stops_the_gate_and_check_before_any_test(tmp_path, capsys):
    bad = tmp_path / "points.toml"
    bad.write_text("defalt = 3\n", encoding="utf-8")
    gate = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "gate", "reference", "--points", str(bad),
                           "--gradescope", str(tmp_path / "results.json")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert gate.returncode == 2 and "'defalt'" in gate.stderr and "passed" not in gate.stdout
    assert not (tmp_path / "results.json").exists()
    run = run_spec_inline(tmp_path, "--level", "bytes", "--points", str(bad), capsys=capsys)
    assert run.returncode == 4 and "'defalt'" in run.output  # pytest's usage error: `bpe-kata check` exits 2
