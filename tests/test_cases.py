"""The worked-example files: valid against their schema, unique ids, known claims, each operation runnable,
every case agreeing with the oracle through the spec's own case runner."""

from __future__ import annotations

import functools
import json

import jsonschema
import pytest

from spec import cases
from spec.cases import registry, runner
from spec.ledger import load_claims

FILES = cases.case_files()


@functools.cache
def case_validator() -> jsonschema.Draft202012Validator:
    """Built once: checking the schema itself costs a tenth of a second, every file would pay it."""
    return jsonschema.Draft202012Validator(json.loads(cases.SCHEMA_PATH.read_text(encoding="utf-8")))


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(case_validator().schema)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_case_file_matches_schema(path):
    case_validator().validate(cases.load_file(path))


def test_schema_rejects_a_lossy_bytes_field():
    bad = {"level": "decode", "description": "x", "cases": [{"id": "x", "claims": ["decode.vocab-order"],
           "operation": "build_vocab", "input": {"merges": []}, "expected": {"entries": {"97": "a"}}}]}
    with pytest.raises(jsonschema.ValidationError):
        case_validator().validate(bad)


def test_case_ids_are_unique_and_claims_known():
    ids = [case["id"] for case in cases.all_cases()]
    assert len(ids) == len(set(ids))
    claims = load_claims()
    assert [c for case in cases.all_cases() for c in case["claims"] if c not in claims] == []


@pytest.mark.parametrize("case", [c for c in cases.all_cases() if "corpus" not in c["input"]], ids=lambda c: c["id"])
def test_case_agrees_with_the_oracle(case, tmp_path):
    """Every case, run by the spec's own runner against the oracle, passes: a typo in a case cannot hide.
    (The corpus cases read whole corpora: they are checked against the reference by the spec itself.)"""
    runner.run(case, runner.ORACLE, runner.PlainFixtures(runner.ORACLE, tmp_path))


def _schema_operations() -> tuple[set[str], set[str]]:
    """The operations the schema lists, and those it has an input/expected branch for."""
    schema = case_validator().schema["$defs"]["case"]
    listed = set(schema["properties"]["operation"]["enum"])
    branches = {rule["if"]["properties"]["operation"]["const"] for rule in schema["allOf"]}
    return listed, branches


def test_every_operation_has_one_runner_entry_and_one_schema_branch():
    listed, branches = _schema_operations()
    assert listed == branches, "an operation without its schema branch, or a branch for no listed operation"
    assert set(registry.OPERATIONS) == listed, "an operation the runner cannot run, or a runner entry the schema lacks"


def test_the_runner_catches_a_wrong_case():
    """The self-test can fail: a case whose expected result is off by one id fails against the oracle."""
    case = next(c for c in cases.cases_of("encode", "encode") if c["expected"].get("ids"))
    wrong = {**case, "expected": {"ids": [*case["expected"]["ids"][:-1], case["expected"]["ids"][-1] + 1]}}
    with pytest.raises(AssertionError):
        runner.run(wrong, runner.ORACLE)
