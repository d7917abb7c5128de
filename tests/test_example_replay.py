"""A failed property is run again for evidence on the example it failed on, never on fresh draws
(bpe_kata/run/example_replay.py).

The kind: "the check passes in another form" said of examples the rerun happened to draw (a CI run charged a
split's failure to training without specials so), or never said since another example crashed first (ninth round).
The rule: each failure names its example (Hypothesis's blob); its rerun replays exactly that one.
"""

from __future__ import annotations

import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_kata.run import example_replay

#: What the property below checks against: flipped to pass, as an equivalent form would.
FIXED = [False]
DRAWN: list[int] = []


@settings(print_blob=True, database=None, derandomize=True, max_examples=200)
@given(st.integers(0, 1000))
def _property(number):
    DRAWN.append(number)
    assert FIXED[0] or number < 500, f"{number} is too big"


def _failure() -> BaseException:
    FIXED[0] = False
    try:
        _property()
    except AssertionError as error:
        return error
    raise AssertionError("the property did not fail")


def _replay():
    failure = _failure()
    item = types.SimpleNamespace(obj=_property)
    return failure, example_replay.replayer(item, _property)(failure)


def test_a_failure_names_its_example_and_its_replay_runs_that_example_alone():
    failure, replay = _replay()
    assert example_replay.blob_of(failure) is not None
    DRAWN.clear()
    with pytest.raises(AssertionError, match="is too big"):
        replay()
    assert len(DRAWN) == 1 and DRAWN[0] >= 500, DRAWN


def test_a_replay_that_no_longer_fails_returns():
    _, replay = _replay()
    FIXED[0] = True
    try:
        DRAWN.clear()
        replay()
        assert len(DRAWN) == 1, DRAWN
    finally:
        FIXED[0] = False


def test_a_failure_that_names_no_example_has_no_replay():
    item = types.SimpleNamespace(obj=_property)
    assert example_replay.replayer(item, _property)(AssertionError("no note")) is None
    plain = types.SimpleNamespace(obj=lambda: None)
    assert example_replay.replayer(plain, lambda: None)(_failure()) is None  # a worked case: run whole


def test_the_note_is_taken_off_what_the_learner_sees():
    failure = _failure()
    group = BaseExceptionGroup("two", [failure, ValueError("other")])
    example_replay.strip_blob_notes(group, None)
    assert not any("reproduce_failure" in note for note in getattr(failure, "__notes__", ()))
    assert example_replay.blob_of(failure) is None
