"""Red team: implementations that try to fool the verdict, run under ``bpe-kata gate``.

The gate runs each one in a child process, so what it does there (hooks, exits, hangs,
prints, a changed table, junk on stdout) cannot reach the process that decides; each
of them carries a real mistake or a fault, and the run says so.
"""

from __future__ import annotations

import sys

import pytest

from tests.support import REPO_ROOT, run_gate_inline

RED_TEAM = REPO_ROOT / "tests" / "red_team"
WRONG_MERGE = ("--claim", "merge.left-to-right")


def red(name: str) -> str:
    return str(RED_TEAM / f"{name}.py")


def assert_failed_and_complete(run, claim: str) -> None:
    assert run.returncode == 1, run.output[-3000:]
    assert run.report is not None and run.report["complete"] is True
    assert run.claim_status(claim) == "failed", run.report["claims"]


def test_a_hook_registered_at_import_cannot_turn_failures_into_passes(tmp_path):
    run = run_gate_inline(tmp_path, red("hook_turns_failures_into_passes"), *WRONG_MERGE,
                          files=["spec/test_merge.py"])
    assert_failed_and_complete(run, "merge.left-to-right")
    assert run.level_status("merge") == "FAILED"


def test_an_exit_at_import_fails_the_levels(tmp_path):
    run = run_gate_inline(tmp_path, red("exit_at_import"), *WRONG_MERGE, files=["spec/test_merge.py"])
    assert_failed_and_complete(run, "merge.left-to-right")
    assert set(run.report["faults"].values()) == {"crashed"}


def test_an_exit_at_exit_changes_nothing(tmp_path):
    run = run_gate_inline(tmp_path, red("exit_at_exit"), *WRONG_MERGE, files=["spec/test_merge.py"])
    assert_failed_and_complete(run, "merge.left-to-right")


@pytest.mark.heavy
def test_an_exit_mid_call_fails_that_test_and_the_run_goes_on(tmp_path):
    run = run_gate_inline(tmp_path, red("exit_mid_call"), "--claim", "bytes.*", *WRONG_MERGE,
                          files=["spec/test_bytes.py", "spec/test_merge.py"])
    assert_failed_and_complete(run, "bytes.examples")
    assert "crashed" in run.report["faults"].values()
    assert run.claim_status("merge.left-to-right") == "passed"  # a new child served the later tests


@pytest.mark.heavy
def test_a_hang_times_out_and_the_run_completes(tmp_path):
    run = run_gate_inline(tmp_path, red("hangs"), "--call-timeout", "2", "--claim", "merge.pure",
                          "--claim", "pairs.adjacent-overlapping", files=["spec/test_merge.py", "spec/test_pairs.py"])
    assert_failed_and_complete(run, "merge.pure")
    assert set(run.report["faults"].values()) == {"timed out"}
    assert run.claim_status("pairs.adjacent-overlapping") == "passed"


@pytest.mark.heavy
def test_debug_prints_on_stdout_change_nothing(tmp_path):
    run = run_gate_inline(tmp_path, red("prints"), "--claim", "merge.*", "--claim", "bytes.*",
                          "--claim", "train.deterministic", files=["spec/test_bytes.py", "spec/test_merge.py",
                                                                   "spec/test_train.py"])
    assert run.returncode == 0, run.output[-3000:]
    assert run.report["complete"] and run.claim_status("train.deterministic") == "passed"


def test_a_changed_table_is_blamed_on_encode_frozen(tmp_path):
    run = run_gate_inline(tmp_path, red("changes_published_table"), "--claim", "pretrained.reproduce",
                          "-k", "test_document_examples_reproduce_tiktoken and strawberry",
                          files=["spec/test_pretrained.py"])
    assert_failed_and_complete(run, "encode.frozen")
    # the table's change is not pretrained's failure: the test's own claim was not checked (and an expectations
    # entry for it is what excuses the test: tests/test_verdict_attacks.py)
    assert run.claim_status("pretrained.reproduce") == "not checked"
    assert set(run.report["faults"].values()) == {"changed its input"}


def test_junk_on_stdout_is_a_protocol_error_showing_the_line(tmp_path, capsys):
    command = f'cmd:"{sys.executable}" "{RED_TEAM / "junk_server.py"}"'
    run = run_gate_inline(tmp_path, command, "--claim", "merge.pure", files=["spec/test_merge.py"], capsys=capsys)
    assert_failed_and_complete(run, "merge.pure")
    assert set(run.report["faults"].values()) == {"protocol error"}
    assert "merging now, please wait" in run.output


def test_what_the_child_printed_is_shown_with_a_failure(tmp_path, capsys):
    chatty = tmp_path / "chatty_wrong_merge.py"
    chatty.write_text("import sys\n"
                      "from tests.implementations import wrong_merge_right_to_left as wrong\n"
                      "from tests.implementations.wrong_merge_right_to_left import *  # noqa: F403\n\n\n"
                      "def merge(ids, pair, idx):\n"
                      "    print('looking at', list(ids))\n"
                      "    print('merging from the right', file=sys.stderr)\n"
                      "    return wrong.merge(ids, pair, idx)\n", encoding="utf-8")
    run = run_gate_inline(tmp_path, str(chatty), *WRONG_MERGE, "-x", files=["spec/test_merge.py"], capsys=capsys)
    assert run.returncode == 1
    assert "implementation stderr" in run.output and "merging from the right" in run.output
    assert "looking at [" in run.output  # its stdout prints went to stderr, not into the protocol
