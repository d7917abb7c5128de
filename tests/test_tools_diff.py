"""bpe-kata diff: a planted divergence is found, shrunk, classified and saved as a case the spec can run;
two right implementations do not diverge; the JSON, the exit status and the errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_kata.tools import diff, diff_report
from bpe_kata.tools.diff_sides import SideError, resolve
from spec.cases import runner

ROOT = Path(__file__).resolve().parents[1]
PLANTED = str(ROOT / "benchmarks" / "planted_one_merge.py")
LOWEST_PAIR = str(ROOT / "tests" / "implementations" / "right_default_lowest_pair.py")
SCHEMA = ROOT / "spec" / "cases" / "schema.json"


def diff_of(a: str, b: str, **options) -> diff.Result:
    options.setdefault("budget", 10.0)
    return diff.run(resolve(a), resolve(b), **options)


def test_the_planted_one_merge_divergence_is_found_and_shrunk():
    result = diff_of("reference", PLANTED, operations=("encode",), seed=3)
    (found,) = result.found
    assert found.divergence.operation == "encode"
    assert diff_report.input_bytes(found.divergence) <= 8
    assert found.verdict.off == ["b"]  # the planted side is off the contract, the reference is not
    assert found.verdict.claims == ["encode.lowest-rank"]
    assert found.divergence.a.value != found.divergence.b.value


@pytest.mark.heavy
def test_the_same_seed_gives_the_same_divergence():
    first = diff_of("reference", PLANTED, operations=("encode",), seed=5).found[0].divergence
    again = diff_of("reference", PLANTED, operations=("encode",), seed=5).found[0].divergence
    assert first.given == again.given


@pytest.mark.heavy
def test_reference_and_oracle_do_not_diverge_within_a_small_budget():
    result = diff_of("reference", "spec.oracle", budget=4.0, examples=5)  # small rounds: every operation has its turn
    assert result.found == []
    assert set(result.compared.values()) == {"compared"}
    assert all(result.examples.get(op, 0) > 0 for op in ("train", "encode", "decode"))


def test_another_documented_tie_rule_is_a_documented_alternative():
    result = diff_of("reference", LOWEST_PAIR, operations=("train",))
    (found,) = result.found
    assert found.verdict.kind == diff_report.ALTERNATIVE
    assert found.verdict.claims == ["train.tie-first-counted"]
    assert "lowest-pair" in found.verdict.note


@pytest.mark.heavy
def test_saved_case_validates_passes_on_the_reference_and_fails_on_the_planted_one(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    target = tmp_path / "found.json"
    status = diff.main(["reference", PLANTED, "--only", "encode", "--budget", "10", "--seed", "1",
                        "--save-case", str(target)])
    assert status == 1
    document = json.loads(target.read_text(encoding="utf-8"))
    jsonschema.validate(document, json.loads(SCHEMA.read_text(encoding="utf-8")))
    (case,) = document["cases"]
    assert case["claims"] == ["encode.lowest-rank"]
    runner.run(case, runner.ORACLE)  # the expected value is the contract's
    runner.run(case, resolve("reference").impl)
    with pytest.raises(AssertionError):
        runner.run(case, resolve(PLANTED).impl)


@pytest.mark.heavy
def test_json_output_has_the_divergence_side_by_side(capsys):
    status = diff.main(["reference", PLANTED, "--only", "encode", "--budget", "10", "--json"])
    assert status == 1
    report = json.loads(capsys.readouterr().out)
    assert {"a", "b", "seed", "budget", "seconds", "examples", "operations", "table", "divergences"} <= set(report)
    (found,) = report["divergences"]
    assert found["operation"] == "encode" and found["off_contract"] == ["b"]
    assert found["first_difference"] is not None and found["a"]["value"] != found["b"]["value"]
    assert found["contract"] == found["a"]["value"]
    assert found["class"] == diff_report.REAL and found["claims"] == ["encode.lowest-rank"]


def test_text_output_shows_ids_with_their_bytes(capsys):
    assert diff.main(["reference", PLANTED, "--only", "encode", "--budget", "10"]) == 1
    out = capsys.readouterr().out
    assert ">>" in out and "first difference at position" in out and "encode.lowest-rank" in out


@pytest.mark.heavy
def test_no_divergence_exits_zero(capsys):
    assert diff.main(["reference", "spec.oracle", "--budget", "2", "--only", "encode"]) == 0
    assert "0 divergence(s)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, said", [
    (["reference", "no_such_module_here"], "no_such_module_here"),
    (["reference", "tiktoken:no_such_table"], "unknown published tokenizer"),
    (["reference", "file:/no/such/file.bpe"], "no such file"),
    (["reference", "spec.oracle", "--only", "tokenize"], "--only"),
    (["reference", "spec.oracle", "--budget", "0"], "--budget"),
    (["reference", "spec.oracle", "--save-case", "/no/such/folder/x.json"], "no such folder"),
    (["reference", "spec.oracle", "--table", "nosuchcorpus:300"], "nosuchcorpus"),
])
def test_bad_input_is_a_usage_error_that_says_what_is_wrong(capsys, argv, said):
    assert diff.main(argv) == 2
    assert said in capsys.readouterr().err


def test_missing_arguments_are_a_usage_error():
    with pytest.raises(SystemExit) as raised:
        diff.main(["reference"])
    assert raised.value.code == 2


@pytest.mark.heavy
def test_a_saved_file_is_a_side_with_its_own_table(tmp_path):
    from spec import oracle

    path = tmp_path / "table.bpe"
    oracle.save(path, oracle.train("abababcabc", 260))
    result = diff_of("reference", f"file:{path}", budget=2.0)
    assert result.found == []
    assert result.compared["train"].startswith("not compared")
    with pytest.raises(SideError):
        resolve(f"file:{tmp_path / 'missing.bpe'}")


@pytest.mark.heavy
def test_a_published_tokenizer_agrees_with_the_reference_on_its_table():
    from bpe_kata.data import pretrained

    try:
        pretrained.load("gpt2")
    except pretrained.TableUnavailable as error:
        pytest.skip(f"not run: published table unavailable: {error}")
    result = diff_of("reference", "tiktoken:gpt2", budget=4.0, operations=("encode", "decode"))
    assert result.found == []
    assert result.examples["encode"] > 0


@pytest.mark.parametrize("name", ["r50k_base", "p50k_base", "o200k_base"])
@pytest.mark.heavy
def test_more_published_tables_are_verified_and_agree_with_the_reference(name):
    from bpe_kata.data import published_more
    from bpe_kata.data.published import TableUnavailable

    try:
        published_more.rank_file(name)
    except TableUnavailable as error:
        pytest.skip(f"not run: published table unavailable: {error}")
    result = diff_of("reference", f"tiktoken:{name}", budget=2.0, operations=("encode",))
    assert result.found == [] and result.examples["encode"] > 0


@pytest.mark.heavy
def test_a_rank_file_that_is_not_the_published_one_is_refused(monkeypatch):
    from bpe_kata.data import published_more
    from bpe_kata.data.published import TableUnavailable

    monkeypatch.setitem(published_more.HASHES, "r50k_base", "0" * 64)
    published_more.rank_file.cache_clear()
    try:
        with pytest.raises(TableUnavailable, match="not the published"):
            published_more.rank_file("r50k_base")
    finally:
        published_more.rank_file.cache_clear()


@pytest.mark.heavy
def test_two_published_tables_differ_by_their_tables_not_by_a_claim():
    from bpe_kata.data import pretrained

    try:
        pretrained.load("gpt2"), pretrained.load("cl100k_base")
    except pretrained.TableUnavailable as error:
        pytest.skip(f"not run: published table unavailable: {error}")
    result = diff_of("tiktoken:gpt2", "tiktoken:cl100k_base", budget=5.0)
    (found,) = result.found
    assert found.verdict.claims == [] and found.verdict.kind == "different tables"
    assert result.compared["decode"].startswith("not compared")


@pytest.mark.heavy
def test_a_side_in_a_child_process_is_compared_through_the_protocol():
    side = resolve("cmd:python -m bpe_kata.child.server spec.oracle")
    try:
        result = diff.run(resolve("reference"), side, budget=3.0, examples=5)
    finally:
        from bpe_kata.tools.diff_sides import close

        close(side)
    assert result.found == [] and all(result.examples.get(op, 0) > 0 for op in ("train", "encode", "decode"))


def test_a_side_that_answers_at_random_still_gives_a_divergence(tmp_path):
    flaky = tmp_path / "flaky_impl.py"
    # every third call answers wrong (not random: Hypothesis seeds the random module for each example)
    flaky.write_text("import itertools\nfrom reference import build_vocab, decode, train  # noqa: F401\n"
                     "import reference\n\nCALLS = itertools.count()\n\n"
                     "def encode(text, merges, **keywords):\n"
                     "    ids = reference.encode(text, merges, **keywords)\n"
                     "    return ids + [32] if next(CALLS) % 3 == 2 else ids\n", encoding="utf-8")
    result = diff_of("reference", str(flaky), operations=("encode",), budget=5.0)
    (found,) = result.found
    assert found.divergence.a.value != found.divergence.b.value
