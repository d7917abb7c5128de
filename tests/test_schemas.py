"""The JSON Schemas of bpe_kata/schemas (docs/SCHEMAS.md) against what the suite writes (issue 26).

tests/conftest.py validates every report and grade table a test leaves in its ``tmp_path``, and
tests/support.py every report of an inline run; here: the schemas themselves, their version lock,
every protocol message of real runs (recorded by tests/protocol_tee.py), the expectations files
the suite reads and writes, and the grade table.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from bpe_kata import schemas
from bpe_kata.tools import grade_json
from bpe_kata.tools.grade import Graded
from bpe_kata.verdict import expectations
from tests.support import REPO_ROOT, assert_valid, run_gate_inline, run_spec_inline, schema_errors

#: Every version each schema has had, with the sha256 of its file: a schema whose text changes keeps its
#: recorded hash only under a new version in its ``$id`` (.../vN.json), recorded here beside the old ones.
VERSIONS = REPO_ROOT / "tests" / "schema_versions.json"
TEE = REPO_ROOT / "tests" / "protocol_tee.py"


def _version(schema: dict) -> str:
    found = re.fullmatch(r"https://bpe-kata\.invalid/schemas/([a-z]+)/(v[0-9]+)\.json", schema.get("$id", ""))
    assert found, f"$id {schema.get('$id')!r} does not name the schema and its version"
    return found.group(2)


@pytest.mark.parametrize("name", schemas.NAMES)
def test_each_schema_is_draft_2020_12_and_names_its_version(name):
    schema = schemas.load(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert f"/schemas/{name}/" in schema["$id"]
    _version(schema)


@pytest.mark.parametrize("name", schemas.NAMES)
def test_a_schema_changes_only_with_a_new_version(name):
    """Tools pin a schema by its ``$id``; the same ``$id`` must always mean the same text."""
    recorded = json.loads(VERSIONS.read_text(encoding="utf-8"))
    version = _version(schemas.load(name))
    digest = hashlib.sha256(schemas.path(name).read_bytes()).hexdigest()
    known = recorded.get(name, {})
    assert version in known, (f"{name} schema {version} is not recorded: add \"{version}\": \"{digest}\" under "
                              f"\"{name}\" in {VERSIONS.name}")
    assert known[version] == digest, (
        f"bpe_kata/schemas/{name}.schema.json changed but its $id still says {version}: bump the version in "
        f"its $id (and the CHANGELOG), then record the new version's sha256 {digest} in {VERSIONS.name}")


def test_the_published_schemas_are_the_shipped_ones():
    text = (REPO_ROOT / "docs" / "SCHEMAS.md").read_text(encoding="utf-8")
    for name in schemas.NAMES:
        assert f"../bpe_kata/schemas/{name}.schema.json" in text
        assert schemas.load(name)["$id"] in text


# --- the report ---------------------------------------------------------------------------------


@pytest.mark.heavy
def test_gate_and_check_reports_fit_the_schema_and_a_changed_one_does_not(tmp_path):
    expect = tmp_path / "expect.toml"
    expect.write_text('[[expected]]\nlevel = "merge"\nreason = "known"\n', encoding="utf-8")
    gated = run_gate_inline(tmp_path, "tests/implementations/wrong_merge_end_guard.py", "--level", "merge",
                            "--expect", str(expect), "-m", "not slow")
    assert gated.report and gated.report["expectations"]["expected_failures"]  # validated by run_spec_inline
    crashed = run_spec_inline(tmp_path, "--impl", "tests/implementations/wrong_train_deep_type_error.py",
                              "--claim", "train.ids-from-256", "--claim", "train.exhausted", "-m", "not slow")
    assert crashed.report and crashed.report["root_causes"]
    for report in (gated.report, crashed.report):
        assert_valid("report", report)
        assert report["suite_version"] == schemas_version()
    assert schema_errors("report", {**gated.report, "surprise": 1})  # the top-level keys are closed
    broken = json.loads(json.dumps(crashed.report))
    next(iter(broken["claims"].values()))["status"] = "fine"
    assert schema_errors("report", broken)
    broken = {**gated.report, "levels": {"merge": {**gated.report["levels"]["merge"], "failed": -1}}}
    assert schema_errors("report", broken)


def schemas_version() -> str:
    from importlib import metadata

    return metadata.version("bpe-kata")


# --- the protocol -------------------------------------------------------------------------------


def _messages(folder: Path) -> list[tuple[str, dict, str | None]]:
    """Every recorded line: (direction, message, the operation it answers or asks)."""
    found = []
    for log in sorted(folder.glob("*.log")):
        ops: dict = {}
        for line in log.read_bytes().splitlines():
            direction, message = line[:1].decode(), json.loads(line[2:])
            if direction == ">":
                ops[message.get("id")] = message.get("op")
            found.append((direction, message, ops.get(message.get("id"))))
    return found


def _protocol_errors(direction: str, message: dict, op: str | None) -> list[str]:
    errors = schema_errors("protocol", message)
    if direction == "<" and message.get("ok") is True and op is not None:
        ref = "#/$defs/hello_result" if op == "hello" else f"#/$defs/result/{op}"
        errors += [f"result of {op}: {e}" for e in schema_errors("protocol", message["result"], ref)]
    return errors


@pytest.mark.parametrize("impl", [
    "reference",  # every operation and the hello
    "solutions/starter",  # NotImplemented
    "tests/implementations/wrong_train_deep_type_error.py",  # a contract error
    "boom.py",  # Error, with its frame and type
    "tests/implementations/wrong_encode_mutates_merges.py",  # ChangedInput
])
@pytest.mark.heavy
def test_every_protocol_message_of_a_run_fits_the_schema(tmp_path, impl):
    """The worked examples (``-k _case``) exchange every operation with small values; the properties' hundreds
    of large tables would spend a minute in the validator and show no shape the examples do not."""
    logs = tmp_path / "logs"
    logs.mkdir()
    source = REPO_ROOT / impl
    if impl == "boom.py":
        source = tmp_path / impl
        source.write_text("def encode(text, merges):\n    raise RuntimeError('boom')\n", encoding="utf-8")
    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", f"cmd:{sys.executable} {TEE} {logs} {source}",
                    "-k", "_case", "-m", "not slow and not corpus", "-q", "-n", "0", "-p", "no:cacheprovider",
                    "--hypothesis-profile", "fast", "--bpe-report", str(report)],
                   cwd=REPO_ROOT, capture_output=True, timeout=600)
    assert_valid("report", json.loads(report.read_text(encoding="utf-8")))
    messages = _messages(logs)
    ops = {op for direction, _, op in messages if direction == ">"}
    bad = [(direction, str(message)[:200], errors) for direction, message, op in messages
           if (errors := _protocol_errors(direction, message, op))]
    assert not bad, bad[:5]
    if impl == "reference":
        assert {"hello", "get_stats", "merge", "train", "build_vocab", "decode", "encode", "save", "load",
                "stream_decode", "train_words", "segment_word"} <= ops, ops
    kinds = {m["error"]["kind"] for d, m, _ in messages if d == "<" and m.get("ok") is False}
    expected_kind = {"solutions/starter": "NotImplemented", "tests/implementations/wrong_train_deep_type_error.py":
                     "TypeError", "boom.py": "Error",
                     "tests/implementations/wrong_encode_mutates_merges.py": "ChangedInput"}.get(impl)
    assert expected_kind is None or expected_kind in kinds, kinds


def test_the_protocol_schema_refuses_what_the_suite_would_refuse():
    ok = {"id": 1, "op": "encode", "args": {"text": "ab", "merges": {"ref": "m"}}}
    assert not schema_errors("protocol", ok)
    assert not schema_errors("protocol", {"id": 2, "op": "define", "args": {"name": "m", "kind": "merges",
                                                                            "value": [[97, 98, 256]]}})
    for bad in ({**ok, "op": "tokenize"}, {**ok, "args": {"txt": "ab", "merges": []}},
                {"id": 1, "ok": True}, {"id": 1, "ok": False, "error": {"kind": "Oops", "message": "x"}},
                {"id": 1, "ok": True, "result": 1, "error": {"kind": "Error", "message": "x"}}):
        assert schema_errors("protocol", bad), bad


# --- the expectations file ------------------------------------------------------------------------


@pytest.mark.parametrize("entry, accepted", [
    ({"claim": "stream.hold-*", "reason": "not written yet"}, True),
    ({"test": "spec/test_merge.py::test_merge_case[merge-aaaa]", "reason": "known"}, True),
    ({"level": "stream", "reason": "later"}, True),
    ({"claim": "stream.*", "reason": "  "}, False),
    ({"claim": "stream.*"}, False),
    ({"claim": "stream.*", "level": "stream", "reason": "two keys"}, False),
    ({"claim": 3, "reason": "not a string"}, False),
    ({"reason": "no key"}, False),
])
def test_the_expectations_schema_accepts_what_expect_accepts(tmp_path, entry, accepted):
    """The schema and bpe_kata/verdict/expectations.py agree, entry by entry, on the file's shape (the names an entry
    gives are checked against the spec by expectations.py alone: tests/test_verdict_attacks.py)."""
    path = tmp_path / "expect.json"
    path.write_text(json.dumps({"expected": [entry]}), encoding="utf-8")
    try:
        expectations.load(path)
        loaded = True
    except expectations.ExpectationsError:
        loaded = False
    assert loaded is accepted
    assert (not schema_errors("expectations", {"expected": [entry]})) is accepted


@pytest.mark.heavy
def test_write_expect_writes_a_file_that_fits_the_schema(tmp_path):
    written = tmp_path / "written.toml"
    run_spec_inline(tmp_path, "--impl", "tests/implementations/wrong_merge_end_guard.py", "--level", "merge",
                    "-m", "not slow", "--write-expect", str(written))
    data = tomllib.loads(written.read_text(encoding="utf-8"))
    assert data["expected"]
    assert_valid("expectations", data)


def test_the_repositorys_expectations_files_fit_the_schema():
    files = [p for p in REPO_ROOT.rglob("*expect*.toml") if ".venv" not in p.parts and "mutants" not in p.parts]
    for path in files:
        assert_valid("expectations", tomllib.loads(path.read_text(encoding="utf-8")), str(path))


# --- the grade table ------------------------------------------------------------------------------


def test_the_grade_table_fits_the_schema(tmp_path):
    # Without the corpus tests: a fresh clone without the corpora leaves them "not run", and the row would not be green.
    green = run_spec_inline(tmp_path, "--impl", "reference", "--level", "pairs", "-m", "not slow and not corpus").report
    assert green is not None
    rows = [Graded("reference", "reference", seconds=1.5, exit_code=0, levels=green["levels"], similarity=1.0),
            Graded("a/b", "b", seconds=300.0, ended="timed out", detail="no result within 300 s; stopped"),
            Graded("c", "c", seconds=2.0, exit_code=1, levels={"bytes": {"status": "FAILED", "failed": 2}},
                   failed_claims=["bytes.examples"], mistakes=["utf-16"])]
    table = tmp_path / "class.json"
    grade_json.write(table, rows)
    data = json.loads(table.read_text(encoding="utf-8"))
    assert [row["verdict"] for row in data["submissions"]] == ["green", "timed out", "failed"]
    assert data["submissions"][2]["cells"]["bytes"] == "failed 2"
    assert_valid("grade", data)
    data["submissions"][0]["verdict"] = "top of the class"
    assert schema_errors("grade", data)
