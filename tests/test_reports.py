"""What a run shows: the level table, the failing claims, the JSON report, --level and corpus reporting."""

from __future__ import annotations

import json

from tests.support import REPO_ROOT, run_spec_inline


def test_json_report_describes_the_run(tmp_path):
    run = run_spec_inline(tmp_path, "--claim", "merge.*", "--level", "merge")
    assert run.returncode == 0
    report = run.report
    assert report["suite"] == "bpe-kata" and report["suite_version"]
    assert report["implementation"] == "reference" and report["python"]
    assert report["levels"]["merge"]["status"] == "green" and report["levels"]["merge"]["passed"] > 5
    assert set(report["levels"]) == {"merge"}
    assert report["claims"]["merge.left-to-right"]["status"] == "passed"
    assert report["claims"]["merge.left-to-right"]["statement"] and report["claims"]["merge.left-to-right"]["sources"]
    json.dumps(report)  # plain JSON all the way down


def test_table_lists_levels_and_failing_claims_with_statement_and_source(tmp_path, capsys):
    wrong = REPO_ROOT / "tests" / "implementations" / "wrong_merge_right_to_left.py"
    run = run_spec_inline(tmp_path, "--impl", str(wrong), "--claim", "merge.*",
                          files=["spec/test_merge.py"], capsys=capsys)
    assert run.returncode == 1
    assert "level" in run.output and "merge" in run.output and "FAILED" in run.output
    assert "merge.left-to-right:" in run.output and "source: The Merge Table Is the Tokenizer" in run.output
    assert run.report["levels"]["merge"]["failed"] >= 1


def test_level_option_runs_up_to_a_level(tmp_path):
    run = run_spec_inline(tmp_path, "--level", "pairs", "-m", "not corpus")
    assert run.returncode == 0
    assert set(run.report["levels"]) == {"facts", "bytes", "pairs"}


def test_unknown_level_is_a_usage_error(tmp_path, capsys):
    run = run_spec_inline(tmp_path, "--level", "nope", capsys=capsys)
    assert run.returncode == 4
    assert "unknown level 'nope'" in run.output and "bytes" in run.output


def _no_corpora_env(tmp_path) -> dict[str, str]:
    return {"BPE_KATA_SHARED_DATA": str(tmp_path / "no-shared"), "BPE_KATA_DATA": str(tmp_path / "no-data"),
            "XDG_CACHE_HOME": str(tmp_path / "cache"), "BPE_KATA_OFFLINE": "1"}


def test_missing_corpus_is_reported_not_run_with_the_fix(tmp_path, monkeypatch):
    for name, value in _no_corpora_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    run = run_spec_inline(tmp_path, "--claim", "train.shakespeare-20")
    assert run.returncode == 0
    assert run.report["levels"]["train"]["not run"] >= 1 and run.report["levels"]["train"]["status"] == "not run"
    reasons = " ".join(run.report["skip_reasons"]["train"])
    assert "corpus unavailable" in reasons and "BPE_KATA_DATA" in reasons


def test_require_data_turns_a_missing_corpus_into_a_set_up_error(tmp_path, monkeypatch):
    """No verdict (exit status 2), and the implementation is charged with nothing."""
    for name, value in _no_corpora_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    run = run_spec_inline(tmp_path, "--claim", "train.shakespeare-20", "--require-data")
    assert run.returncode == 2 and run.report["exit_status"] == 2
    assert run.report["levels"]["train"]["failed"] == 0 and run.report["levels"]["train"]["not run"] >= 1
    assert run.report["failures"] == {}


def test_unknown_claim_is_a_usage_error(tmp_path):
    assert run_spec_inline(tmp_path, "--claim", "no.such-claim").returncode == 4
    assert run_spec_inline(tmp_path, "--claim", "merge.*", "-m", "not corpus").returncode == 0
