"""A failed assert on a large value is explained in bounded time, with or without $CI
(bpe_kata/verdict/bounded_diff.py)."""

from __future__ import annotations

import pytest

from bpe_kata.verdict import bounded_diff
from tests.support import REPO_ROOT, run_spec_inline


def test_large_id_lists_are_explained_by_their_first_difference():
    expected = [256] * 50_000
    actual = [257] * 33_333
    lines = bounded_diff.explain("==", actual, expected)
    assert len(lines) < 10 and sum(map(len, lines)) < 2_000
    assert any("expected 50000 ids, got 33333; first difference at index 0" in line for line in lines)


def test_other_operators_on_large_values_say_their_sizes():
    lines = bounded_diff.explain("in", "a" * 5_000, "b" * 9_000)
    assert "5000 and 9000 items" in lines[-1]


@pytest.mark.parametrize("value, large", [([0] * 201, True), ("x" * 201, True), (b"x" * 201, True),
                                          ({i: i for i in range(201)}, True), ([0] * 200, False), (12345, False)])
def test_only_values_over_the_bound_count_as_large(value, large):
    assert bounded_diff.is_large(value) is large


def test_small_values_keep_pytests_own_explanation(pytestconfig):
    from _pytest.assertion import util

    calls = []
    util_before = util._reprcompare
    util._reprcompare = lambda op, left, right: calls.append((op, left, right)) or "pytest's own"
    try:
        with bounded_diff.bounded_explanations(pytestconfig):
            assert util._reprcompare("==", [1], [2]) == "pytest's own"
            assert "first difference" in util._reprcompare("==", [1] * 300, [2] * 300)
    finally:
        util._reprcompare = util_before
    assert calls == [("==", [1], [2])]


@pytest.mark.timeout(240)
@pytest.mark.heavy
def test_a_wrong_implementation_fails_fast_under_ci(tmp_path, monkeypatch):
    """pytest's full diff of 50,000 ids against 33,333 (computed whenever $CI is set) ran past pytest-timeout's
    ten minutes in CI; bounded, the same failing test takes about a second."""
    monkeypatch.setenv("CI", "true")
    run = run_spec_inline(tmp_path, "--impl", str(REPO_ROOT / "tests/implementations/wrong_merge_overlapping_runs.py"),
                          "-k", "test_pathological_run_of_one_letter", files=["spec/test_encode.py"])
    assert run.returncode == 1 and run.report is not None
    assert run.report["claims"]["encode.replays-training"]["status"] == "failed"
