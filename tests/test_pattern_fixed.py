"""Implementations that always split with one pattern (FIXED_PATTERN; spec/CONTRACT.md, "A fixed split
pattern"): judged on the levels whose checks hold whatever the split, "not started" with the reason on
the others, in process and through the protocol."""

from __future__ import annotations

import pytest

from bpe_kata.child.client import IsolatedImplementation, python_path_env, server_command
from bpe_kata.run.loader import load_implementation
from spec import fixed_pattern
from spec.levels import BY_NAME, FREE, feature_not_started, not_started_reason
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from tests.support import files_of_levels, run_spec_inline

RIGHT = "tests/pattern_fixed/right_gpt2_fixed.py"
WRONG = "tests/pattern_fixed/wrong_gpt2_fixed_decode_drops_bytes.py"
JUDGED = ("bytes", "pairs", "merge", "decode", "roundtrip", "stream", "words")
NOT_JUDGED = ("encode", "surrogates", "regex", "special", "persist", "ties")
#: judged only on the checks that hold whatever the split (spec/levels.py SPLIT_FREE_CLAIMS)
PARTLY = ("train",)


def _run(tmp_path, spec_tests, impl, *options):
    return run_spec_inline(tmp_path, "--impl", impl, "-m", "not corpus", *options,
                           files=files_of_levels(spec_tests, JUDGED + NOT_JUDGED + PARTLY))


def test_the_levels_that_hold_whatever_the_split_are_the_ones_judged():
    assert {name for name, level in BY_NAME.items() if level.split == FREE} == {"facts", *JUDGED}


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "protocol"])
def test_a_right_pattern_fixed_implementation_is_green_where_judged(tmp_path, spec_tests, isolated):
    run = _run(tmp_path, spec_tests, RIGHT, *(["--isolated"] if isolated else []))
    assert run.report is not None
    assert {level: run.level_status(level) for level in JUDGED} == dict.fromkeys(JUDGED, "green")
    assert {level: run.level_status(level) for level in NOT_JUDGED} == dict.fromkeys(NOT_JUDGED, "not started")
    for level in NOT_JUDGED + PARTLY:
        assert any("always splits with gpt2 (FIXED_PATTERN)" in reason for reason in run.report["skip_reasons"][level])
    assert run.report["claims"]["train.min-vocab"]["status"] == "passed"
    assert not [c for c, r in run.report["claims"].items() if r["status"] == "failed"]
    assert run.report["likely_mistakes"] == []


def test_a_wrong_pattern_fixed_implementation_is_caught_on_its_claim(tmp_path, spec_tests):
    run = _run(tmp_path, spec_tests, WRONG, "--level", "roundtrip")
    failed = {c: r["level"] for c, r in run.report["claims"].items() if r["status"] == "failed"}
    # the bytes it drops break the claims that read U+FFFD too (a partial character, decode then encode)
    assert "decode.replace-128" in failed and set(failed.values()) <= {"decode", "roundtrip"}, failed
    assert run.level_status("decode") == "FAILED" and run.level_status("train") != "FAILED"
    assert [m["name"] for m in run.report["likely_mistakes_seen"]] == ["decoding drops bytes"]


def test_calls_with_the_fixed_pattern_reach_the_implementation_and_others_are_refused():
    refused: list[str] = []

    def refuse(reason):
        refused.append(reason)
        raise NotImplementedError(reason)

    impl = fixed_pattern.PatternFixed(load_implementation(RIGHT), GPT2_SPLIT_PATTERN, refuse, split_free=lambda: False)
    assert impl.encode("a b", {}, pattern=GPT2_SPLIT_PATTERN) == [97, 32, 98]
    for call in (lambda: impl.encode("a b", {}), lambda: impl.train("a b", 257, pattern=GPT4_SPLIT_PATTERN)):
        with pytest.raises(NotImplementedError):
            call()
    assert "with the split pattern gpt4" in refused[1] and "without a split pattern" in refused[0]


def test_the_pattern_features_are_met_by_the_fixed_pattern_and_a_bad_declaration_is_refused():
    impl = load_implementation(RIGHT)
    assert (
        feature_not_started(impl, "train(pattern=)") is None and feature_not_started(impl, "encode(pattern=)") is None
    )
    assert "FIXED_PATTERN" in not_started_reason(impl, BY_NAME["encode"])
    assert not_started_reason(impl, BY_NAME["train"]) is None  # train.min-vocab, train.prefix hold whatever the split
    assert not_started_reason(impl, BY_NAME["decode"]) is None

    class Bad:
        FIXED_PATTERN = 3

    with pytest.raises(fixed_pattern.BadFixedPattern):
        fixed_pattern.fixed_pattern(Bad())
    assert fixed_pattern.fixed_pattern(load_implementation("spec.oracle")) is None


def test_the_hello_carries_the_fixed_pattern():
    impl = IsolatedImplementation(server_command(RIGHT), env=python_path_env()).connect()
    try:
        assert impl.child.hello["fixed_pattern"] == "gpt2" and fixed_pattern.fixed_pattern(impl) == GPT2_SPLIT_PATTERN
    finally:
        impl.close()
