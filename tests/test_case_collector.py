"""The one case collector (spec/cases/collect.py): every worked case is one spec test, under the id it has
always had, marked with the level its file declares and the claims it names; the modules keep their order."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from spec import cases
from spec.cases import collect
from spec.cases.collect import CASE_TESTS, CaseTest
from tests.support import nested_pytest


def _budget_rows() -> set[str]:
    """The words cases test_merge_budget_row runs by hand, under ids that are the table's rows."""
    return {case["id"] for case in cases.cases_of("words", "train_words") if "tokens" in case["expected"]}


def test_every_case_runs_under_exactly_one_case_test():
    runs = {case["id"]: 0 for case in cases.all_cases()}
    for test in CASE_TESTS:
        for case in collect.cases_run_by(test):
            runs[case["id"]] += 1
    assert {case_id for case_id, n in runs.items() if n != 1} == _budget_rows()
    assert all(runs[case_id] == 0 for case_id in _budget_rows())


def test_every_case_test_has_cases_and_a_name_of_its_own():
    """An empty parametrization would be a silent skip; two tests of one name, one test's cases lost."""
    assert [test for test in CASE_TESTS if not collect.cases_run_by(test)] == []
    names = [(test.module, test.name) for test in CASE_TESTS]
    assert len(names) == len(set(names))


def test_each_case_is_a_spec_test_marked_with_its_files_level_and_its_claims(spec_tests):
    for test in CASE_TESTS:
        level = cases.load_file(cases.CASES_DIR / test.file)["level"]
        for case in collect.cases_run_by(test):
            row = spec_tests[f"spec/{test.module}::{test.name}[{case['id']}]"]
            assert row["level"] == level, (test, case["id"])
            assert row["claims"][:len(case["claims"])] == case["claims"], (test, case["id"])  # then the module's


def _listing(tmp_path, *paths: str) -> dict[str, dict]:
    listing = tmp_path / "tests.json"
    assert nested_pytest(list(paths), "--collect-only", "--bpe-list-tests", str(listing)) == 0
    return json.loads(listing.read_text(encoding="utf-8"))


def test_the_level_is_the_one_the_case_file_declares(tmp_path, monkeypatch):
    """Not the module's: bytes.json declaring another level moves its cases, and only them, to that level."""
    read = cases.load_file

    def declaring_ties(path):
        return {**read(path), "level": "ties"} if path.name == "bytes.json" else read(path)

    monkeypatch.setattr(cases, "load_file", declaring_ties)
    levels = {nodeid: row["level"] for nodeid, row in _listing(tmp_path, "spec/test_bytes.py").items()}
    made = {nodeid for nodeid in levels if "::test_encode_with_no_merges_case[" in nodeid}
    assert len(made) == len(cases.cases_of("bytes", "encode"))
    assert {levels[nodeid] for nodeid in made} == {"ties"}
    assert {level for nodeid, level in levels.items() if nodeid not in made} == {"bytes"}


def test_a_module_that_writes_a_case_test_itself_fails_to_collect(tmp_path, monkeypatch):
    clash = CaseTest("bytes.json", "encode", "test_bytes.py", "test_empty_table_encodes_to_utf8_bytes")
    monkeypatch.setattr(collect, "CASE_TESTS", (*CASE_TESTS, clash))
    assert nested_pytest(["spec/test_bytes.py"], "--collect-only") == pytest.ExitCode.INTERRUPTED


def _node(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, originalname=name.split("[")[0])


def test_case_tests_come_first_or_after_the_test_they_name():
    own = [_node("test_a"), _node("test_b[1]"), _node("test_b[2]"), _node("test_c")]
    first = CaseTest("x.json", "op", "m.py", "test_x")
    after_b = CaseTest("y.json", "op", "m.py", "test_y", after="test_b")
    x, y1, y2 = _node("test_x[1]"), _node("test_y[1]"), _node("test_y[2]")
    arranged = collect.arrange(own, [(after_b, [y1, y2]), (first, [x])])
    assert [node.name for node in arranged] == ["test_x[1]", "test_a", "test_b[1]", "test_b[2]", "test_y[1]",
                                               "test_y[2]", "test_c"]
    with pytest.raises(LookupError, match="test_gone"):
        collect.arrange(own, [(CaseTest("y.json", "op", "m.py", "test_y", after="test_gone"), [y1])])
