"""A crash is no refusal (spec/refusals.py): a check that the implementation refuses an argument passes only when the
same call with the argument made right does not raise the same error (tenth round, development: train.min-vocab
passed on a trainer whose every call without special tokens crashed with a ValueError, and which never refused)."""

from __future__ import annotations

import pytest

from spec.refusals import refused
from tests.support import run_spec_inline


def _raise(message: str):
    raise ValueError(message)


def test_a_refusal_the_right_argument_does_not_meet_is_one():
    assert str(refused(lambda: _raise("vocab_size must be at least 256"), lambda: {})) == \
        "vocab_size must be at least 256"
    assert str(refused(lambda: _raise("too small"), lambda: _raise("another error"))) == "too small"


def test_the_same_error_for_the_right_argument_is_the_crash_raised_as_the_tests_own():
    with pytest.raises(ValueError, match="max"):
        refused(lambda: _raise("max() arg is an empty sequence"), lambda: _raise("max() arg is an empty sequence"))
    with pytest.raises(pytest.fail.Exception):  # no error at all: no refusal either
        refused(lambda: None, lambda: None)


CRASHES_WITHOUT_SPECIALS = '''
from reference import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from reference import train as _train


def train(text, vocab_size, special_tokens=None, **options):
    """Without specials every call crashes (its cut leaves no pair); with them, no check of vocab_size at all."""
    if not special_tokens:
        return max({})
    return _train(text, max(vocab_size, 256), special_tokens=special_tokens, **options)
'''


def test_a_trainer_that_crashes_without_specials_and_never_refuses_fails_min_vocab(tmp_path, capsys):
    impl = tmp_path / "crashes.py"
    impl.write_text(CRASHES_WITHOUT_SPECIALS, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "-k", "below_256 or min_vocab",
                          files=["spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    assert run.report["claims"]["train.min-vocab"]["status"] == "failed", run.report["claims"]["train.min-vocab"]
