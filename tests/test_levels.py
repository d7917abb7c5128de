"""A level is "not started" only when a function or keyword is missing, or refuses by NotImplementedError.

An exception raised inside a call, even a TypeError about positional arguments, is a bug
for the level's tests to show (issue 11): it never turns the level into "not started".
"""

from __future__ import annotations

from types import SimpleNamespace

from spec.levels import BY_NAME, feature_not_started, not_started_reason
from spec.oracle import core
from tests.support import REPO_ROOT, run_spec_inline


def _helper(ids, pair, idx):
    return ids


def test_a_type_error_raised_inside_train_is_not_a_missing_feature():
    def train(text, vocab_size, *, pattern=None):
        return _helper(list(text.encode()), (1, 2))  # missing positional argument: a bug

    impl = SimpleNamespace(**{**{name: getattr(core, name) for name in core.__all__}, "train": train})
    assert not_started_reason(impl, BY_NAME["train"]) is None
    assert feature_not_started(impl, "train(pattern=)") is None


def test_a_keyword_the_signature_lacks_is_not_started():
    impl = SimpleNamespace(**{name: getattr(core, name) for name in core.__all__})
    reason = feature_not_started(impl, "train(pattern=)")
    assert reason is not None and reason.startswith("not started") and "pattern=" in reason


def test_a_function_taking_any_keyword_is_started_and_judged_by_its_tests():
    def train(text, vocab_size, **options):
        raise TypeError(f"train() got an unexpected keyword argument {next(iter(options))!r}")

    impl = SimpleNamespace(train=train)
    assert feature_not_started(impl, "train(pattern=)") is None


def test_a_builtin_without_a_signature_falls_back_to_the_call():
    class NoSignature:
        """Stands for C code: inspect.signature cannot read it."""

        @property
        def __signature__(self):
            raise ValueError("no signature found")

        def __call__(self, *args, **kwargs):
            if kwargs:
                raise TypeError(f"encode() got an unexpected keyword argument {next(iter(kwargs))!r}")
            return []

    impl = SimpleNamespace(encode=NoSignature())
    assert feature_not_started(impl, "encode") is None
    assert feature_not_started(impl, "encode(pattern=)").startswith("not started")


def test_not_implemented_is_not_started_per_tie_rule():
    def train(text, vocab_size, *, tie_rule="bytes-greatest"):
        if tie_rule != "bytes-greatest":
            raise NotImplementedError(tie_rule)
        return {}

    impl = SimpleNamespace(train=train)
    assert feature_not_started(impl, "train(tie_rule=bytes-greatest)") is None
    assert feature_not_started(impl, "train(tie_rule=lowest-pair)").startswith("not started")
    assert feature_not_started(impl, "train(tie_rule=)") is None  # one rule is enough for the level


def test_a_deep_type_error_fails_the_level_instead_of_skipping_it(tmp_path):
    run = run_spec_inline(tmp_path, "--impl", str(REPO_ROOT / "tests/implementations/wrong_train_deep_type_error.py"),
                          "--level", "train", "-m", "not corpus", "--one-failure-per-claim",
                          files=["spec/test_train.py"])
    assert run.returncode == 1
    assert run.level_status("train") == "FAILED", run.report["levels"]
    assert run.report["levels"]["train"]["not started"] == 0
