"""The worked-example files: valid against their schema, unique ids, known claims, agreeing with the oracle."""

from __future__ import annotations

import json

import jsonschema
import pytest

from spec import cases, oracle
from spec.ledger import load_claims

FILES = [path for path in cases.case_files() if path.name != "schema.json"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_case_file_matches_schema(path):
    schema = json.loads(cases.SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(cases.load_file(path), schema, cls=jsonschema.Draft202012Validator)


def test_schema_rejects_a_lossy_bytes_field():
    schema = json.loads(cases.SCHEMA_PATH.read_text(encoding="utf-8"))
    bad = {"level": "decode", "description": "x", "cases": [{"id": "x", "claims": ["decode.vocab-order"],
           "operation": "build_vocab", "input": {"merges": []}, "expected": {"entries": {"97": "a"}}}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema, cls=jsonschema.Draft202012Validator)


def test_case_ids_are_unique_and_claims_known():
    ids = [case["id"] for case in cases.all_cases()]
    assert len(ids) == len(set(ids))
    claims = load_claims()
    assert [c for case in cases.all_cases() for c in case["claims"] if c not in claims] == []


def test_case_file_level_matches_its_name():
    assert all(cases.load_file(path)["level"] == path.stem for path in FILES)


@pytest.mark.parametrize("case", [c for c in cases.all_cases() if "corpus" not in c["input"]], ids=lambda c: c["id"])
def test_case_agrees_with_the_oracle(case):
    """The data is checked against the textbook definition, so a typo in a case cannot hide."""
    given, expected, op = case["input"], case["expected"], case["operation"]
    merges = cases.merges_from(given.get("merges", []))
    if op == "encode":
        result = oracle.encode(given["text"], merges)
        assert result == expected["ids"] if "ids" in expected else len(result) == expected["length"]
    elif op == "get_stats":
        assert [[a, b, n] for (a, b), n in oracle.get_stats(given["ids"]).items()] == expected["pairs"]
    elif op == "merge":
        assert oracle.merge(given["ids"], tuple(given["pair"]), given["idx"]) == expected["ids"]
    elif op == "train" and "error" in expected:
        assert given["vocab_size"] < 256
    elif op == "train":
        assert [[a, b, i] for (a, b), i in oracle.train(given["text"], given["vocab_size"]).items()] == expected["merges"]
    elif op == "decode":
        assert oracle.decode(given["ids"], oracle.build_vocab(merges)) == expected["text"]
    elif op == "build_vocab":
        vocab = oracle.build_vocab(merges)
        assert {k: vocab[int(k)].hex() for k in expected["entries"]} == expected["entries"]
    else:
        pytest.fail(f"no oracle check for operation {op}")
