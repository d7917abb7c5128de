"""What a failing run prints (issue 24): short tracebacks of the implementation's own frames, the details
first and the verdict last (likely mistake, level table, the claim to fix first, how to see more)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_kata.verdict import fix_first, judging
from tests.support import REPO_ROOT
from tests.test_blame import _Report

WRONG = REPO_ROOT / "tests" / "implementations"
INFO = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}


def _check(folder: Path, *args: str) -> list[str]:
    command = [shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata")), "check",
               str(WRONG / "wrong_decode_strict.py"), "--level", "decode", "-m", "not corpus", "-n", "0",
               "-p", "no:cacheprovider", "--hypothesis-profile", "fast", *args]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    run = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout.splitlines()


@pytest.mark.heavy
def test_a_failing_run_shows_the_implementations_frames_and_ends_with_the_verdict(tmp_path):
    short, full = _check(tmp_path), _check(tmp_path, "--tb=long")
    text = "\n".join(short)
    assert "wrong_decode_strict.py:12: in decode" in text  # the learner's line, in every failure
    assert "spec/cases/runner.py:" not in text and "def run(" not in text  # the spec's plumbing, left out
    assert "spec/cases/runner.py:" in "\n".join(full)  # ... which --tb=long still shows
    assert len(short) < len(full) * 0.6, (len(short), len(full))
    assert "short test summary info" not in text  # the verdict is the last thing before pytest's count
    tail = short[-8:]
    assert tail[-1].startswith("=") and " failed" in tail[-1]
    assert tail[-2].endswith("--tb=long shows every frame")
    fix = next(i for i, line in enumerate(short) if line.startswith("fix first: "))
    assert short[fix].startswith("fix first: decode.replace-128: ") and fix >= len(short) - 6
    table = next(i for i, line in enumerate(short) if line.startswith("level "))
    assert text.index("root causes (1)") < sum(len(line) + 1 for line in short[:table]) < text.index("fix first")


def _results(*tests):
    """Results from (nodeid, level, claims, blamed, calls): each test failed, blaming ``blamed``."""
    from bpe_kata.verdict.outcomes import Outcome
    from bpe_kata.verdict.tallies import Results

    results = Results()
    for nodeid, level, claims, blamed, calls in tests:
        verdict = judging.Verdict(judging.BROKEN, blamed, "", "", f"{blamed[0]}: expected x got y", calls=calls)
        results.record(_Report(nodeid, True), Outcome.FAILED, level, claims, verdict)
    return results


def test_the_claims_list_leads_with_the_root_not_an_earlier_level():
    """A get_stats bug breaks a pairs claim and, through training, bytes.no-normalization (level bytes,
    which rests on pairs.*): the pairs claim is the one to fix, though its level comes later."""
    from bpe_kata.verdict.summary import render_table

    results = _results(("t::bytes", "bytes", ("bytes.no-normalization",), ("bytes.no-normalization",), ("decode",)),
                       ("t::pairs", "pairs", ("pairs.adjacent-overlapping",), ("pairs.adjacent-overlapping",),
                        ("get_stats",)))
    assert set(results.broken_claims()) == {"bytes.no-normalization", "pairs.adjacent-overlapping"}
    lines = render_table(results, INFO, "hint: --tb=long")
    listed = [
        line.split(":")[0].strip()
        for line in lines[lines.index("claims broken (2): an assertion about them failed") + 1 :]
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert listed[:2] == ["pairs.adjacent-overlapping", "bytes.no-normalization"]
    fix = next(line for line in lines if line.startswith("fix first: "))
    assert fix.startswith("fix first: pairs.adjacent-overlapping: ")
    first_level = next(i for i, line in enumerate(lines) if line.startswith("level "))
    assert lines[-1] == "hint: --tb=long" and lines.index(fix) > first_level


def test_a_claim_a_confirmed_mistake_names_comes_before_a_fact_measured_on_a_corpus():
    """wrong_stats_once's run listed corpus.d1-space-left first; the mistake its probe saw is about
    train.merged-again, and a contract claim comes before a corpus fact of the same level."""
    broken = ["corpus.d1-space-left", "train.tie-recorded", "train.no-early-stop", "train.merged-again",
              "encode.the-thin"]
    assert fix_first.order(broken, {"train.merged-again"})[0] == "train.merged-again"
    ordered = fix_first.order(broken)
    assert ordered[0] != "corpus.d1-space-left" and ordered.index("corpus.d1-space-left") > ordered.index(
        "train.tie-recorded"
    )
    assert ordered[-1] == "encode.the-thin"  # a later level


def test_a_claim_resting_on_another_broken_one_is_never_first():
    assert fix_first.order(["bytes.no-normalization", "pairs.first-seen-order"]) == \
        ["pairs.first-seen-order", "bytes.no-normalization"]
    assert fix_first.order([]) == []


def _merge_failures(folder: Path) -> str:
    """wrong_merge_right_to_left on one worked case and one property of the merge level, short tracebacks."""
    command = [shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata")), "check",
               str(WRONG / "wrong_merge_right_to_left.py"), "--level", "merge", "-m", "not corpus", "-n", "0",
               "-p", "no:cacheprovider", "--hypothesis-profile", "fast",
               "-k", "merge_case and aaa] or overlapping_runs_from_the_left"]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    run = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


def test_a_short_traceback_shows_the_spec_line_that_checked_not_its_wrapper(tmp_path):
    """Issue 37, kind 8 (a): the property's asserting line, the worked case's checking line; not the
    ``@given`` decorator nor the case collector's ``runner.run(...)``."""
    text = _merge_failures(tmp_path)
    failures = text.split("= FAILURES =")[1].split("claims broken")[0]
    assert "spec/cases/collect.py" not in failures, failures
    assert "@given(" not in failures, failures
    assert "spec/cases/ops_core.py:" in failures and 'expect_equal(result, case["expected"]["ids"]' in failures
    assert "spec/test_merge.py:" in failures and "expect_equal(result, expected" in failures


def test_a_failed_worked_case_shows_its_file_id_input_expected_and_got(tmp_path):
    """Issue 37, kind 8 (b): as toml-test shows input, output and want."""
    text = _merge_failures(tmp_path)
    failures = text.split("= FAILURES =")[1].split("claims broken")[0]
    assert "worked case merge-aaa in spec/cases/merge.json" in failures, failures
    assert "input:" in failures and "[97, 97, 97]" in failures, failures
    assert "expected: ids [256, 97]" in failures and "got:      ids [97, 256]" in failures, failures


def test_one_screen_from_the_bottom_says_what_to_fix():
    """Issue 37, kind 8 (c): with every level in the table and three likely mistakes above it, the last 25 lines
    hold the claim to fix first, its failing test, the first failure and the likely mistake that names it."""
    from bpe_kata.verdict import teaching
    from bpe_kata.verdict.outcomes import Outcome
    from bpe_kata.verdict.summary import render_table
    from spec import mistakes as probes
    from spec.levels import LEVELS

    results = _results(("spec/test_merge.py::test_merge_case[merge-aaa]", "merge", ("merge.left-to-right",),
                        ("merge.left-to-right",), ("merge",)))
    for number, level in enumerate(LEVELS):  # every level in the table, as in a whole run
        results.record(_Report(f"spec/test_x.py::test_{number}", False), Outcome.PASSED, level.name, (), None)
    mistakes = [teaching.Mistake(f"m{i}", ("merge.left-to-right",), "p", (), f"mistake number {i}.") for i in range(3)]
    results.diagnoses = [teaching.Diagnosis(m, probes.Seen(2, "merge([7, 7, 7], (7, 7), 300) gave [7, 300]"))
                         for m in mistakes]
    lines = render_table(results, INFO, "hint: --tb=long")
    screen = "\n".join(lines[-25:])
    assert "fix first: merge.left-to-right" in screen
    assert "test_merge_case[merge-aaa]" in screen and "expected x got y" in screen
    assert "likely mistake: mistake number 0." in screen, screen


def test_a_likely_mistake_of_a_later_level_never_hides_a_broken_lower_one():
    """Dev half of the outside corpus: a port whose bytes were wrong (code points cut to one byte) was told to
    fix its pair order first, because a likely mistake named it. Levels are climbed in order."""
    assert fix_first.order(["pairs.first-seen-order", "bytes.examples"], {"pairs.first-seen-order"})[0] == \
        "bytes.examples"
    assert fix_first.order(["train.tie-recorded", "train.merged-again"], {"train.merged-again"})[0] == \
        "train.merged-again"


def test_a_claim_others_rest_on_comes_before_an_input_check_nothing_rests_on():
    """Dev half of the outside corpus: most CS336 solutions were told to fix train.min-vocab (an assert where
    ValueError is asked) first, ahead of a crash when no pair is left that dozens of claims rest on."""
    assert fix_first.order(["train.min-vocab", "train.exhausted"])[0] == "train.exhausted"


def test_a_failure_through_a_frame_without_line_numbers_is_reported_not_an_internal_error():
    """A frame of code with no line information has ``tb_lineno`` None and pytest crashed formatting it (an
    INTERNALERROR ended a held-out CS336 run at 151 of 485 tests, with no table): such entries are left out."""
    from _pytest._code import ExceptionInfo

    from bpe_kata.verdict.tracebacks import without_lineless_frames

    def raising():
        raise ValueError("deep in generated code")

    lineless = type(raising)(raising.__code__.replace(co_linetable=b""), {})
    try:
        lineless()
    except ValueError as error:
        info = ExceptionInfo.from_exception(error)
    with pytest.raises(TypeError):
        info.getrepr()  # pytest's own formatting: None - 1
    shown = str(without_lineless_frames(info).getrepr())
    assert "ValueError: deep in generated code" in shown
