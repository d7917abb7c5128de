"""A right but slow learner gets a complete verdict (bpe_kata/run/slow_calls.py; issue 37, kind 7): when the plainest
calls are slow in wall time, each property draws fewer examples, and the run says so."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import reference
from bpe_kata.run import slow_calls
from tests.support import REPO_ROOT


class _Waits:
    """The reference, each train call waiting ``seconds`` first (a process pool started per call)."""

    def __init__(self, seconds: float, encode_raises: bool = False) -> None:
        self.seconds, self.encode_raises = seconds, encode_raises

    def train(self, *args, **kwargs):
        time.sleep(self.seconds)
        return reference.train(*args, **kwargs)

    def encode(self, *args, **kwargs):
        if self.encode_raises:
            raise NotImplementedError
        return reference.encode(*args, **kwargs)


@pytest.fixture
def no_wall_clock_timer():
    """pytest-timeout's alarm for this test, set aside: with one running, nothing is timed (a nested run)."""
    delay, interval = signal.setitimer(signal.ITIMER_REAL, 0)
    yield
    signal.setitimer(signal.ITIMER_REAL, delay, interval)


def test_with_a_wall_clock_timer_running_nothing_is_timed_and_the_timer_is_kept():
    delay, interval = signal.setitimer(signal.ITIMER_REAL, 100)
    try:
        assert slow_calls.decide(_Waits(0.1), usual=40) is None
        assert 99 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, delay, interval)


@pytest.mark.usefixtures("no_wall_clock_timer")
def test_a_fast_implementation_draws_every_example():
    assert slow_calls.decide(reference, usual=40) is None


@pytest.mark.usefixtures("no_wall_clock_timer")
@pytest.mark.parametrize("encode_raises", [False, True])
def test_a_slow_plainest_call_cuts_the_examples_and_the_slower_the_fewer(encode_raises):
    drawn, usual, seconds = slow_calls.decide(_Waits(0.1, encode_raises), usual=40)
    assert usual == 40 and seconds >= 0.1 and slow_calls.MINIMUM <= drawn < 40
    slower, _, _ = slow_calls.decide(_Waits(0.3, encode_raises), usual=40)
    assert slow_calls.MINIMUM <= slower < drawn


@pytest.mark.usefixtures("no_wall_clock_timer")
def test_a_call_that_raises_counts_by_the_time_it_took():
    """Ninth round: a trainer whose split left 'ab' no pair raised after starting its pool, 0.1 s a call."""
    class Raises:
        def __init__(self, seconds: float) -> None:
            self.seconds = seconds

        def train(self, *args, **kwargs):
            time.sleep(self.seconds)
            raise ValueError("max() arg is an empty sequence")

        encode = train

    assert slow_calls.decide(Raises(0), usual=40) is None
    assert slow_calls.decide(Raises(0.1), usual=40)[0] < 40


@pytest.mark.usefixtures("no_wall_clock_timer")
def test_a_trainer_that_raises_at_once_without_specials_is_timed_by_its_training_with_one():
    """Eleventh round: a trainer asserting it was given specials, slow on every test that gave one."""
    class NeedsSpecials(_Waits):
        def train(self, text, vocab_size, special_tokens=None):
            assert special_tokens, "no special tokens to split on"
            return super().train(text, vocab_size, special_tokens=special_tokens)

    cut = slow_calls.decide(NeedsSpecials(0.2), usual=40)
    assert cut is not None and cut[2] >= 0.2 and cut[0] < 40


@pytest.mark.usefixtures("no_wall_clock_timer")
def test_a_call_that_hangs_is_given_up_and_counts_as_that_slow_even_when_it_catches_every_exception(monkeypatch):
    monkeypatch.setattr(slow_calls, "PATIENCE", 0.3)

    class Swallows(_Waits):
        def train(self, *args, **kwargs):
            while True:
                try:
                    time.sleep(30)
                except Exception:  # noqa: BLE001 - the learner's habit
                    pass

    for hangs in (_Waits(30), Swallows(0)):
        start = time.perf_counter()
        drawn, _, seconds = slow_calls.decide(hangs, usual=40)
        assert time.perf_counter() - start < 5 and seconds == pytest.approx(0.3, abs=0.1) and drawn < 40


SLOW_LEARNER = '''
"""Right, but train and encode each wait a tenth of a second; every call is counted in calls.txt."""
import pathlib, time

import reference
from reference import build_vocab, decode, encode_iterable, get_stats, merge  # noqa: F401

_CALLS = pathlib.Path(__file__).with_name("calls.txt")


def _slow(function):
    def call(*args, **kwargs):
        with _CALLS.open("a") as calls:
            calls.write(function.__name__ + "\\n")
        time.sleep(0.1)
        return function(*args, **kwargs)
    return call


train, encode = _slow(reference.train), _slow(reference.encode)
'''


def _check(folder, *options: str, inherited: str = "") -> tuple[str, int]:
    (folder / "calls.txt").write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", str(folder / "slow_learner.py"),
                           "--level", "bytes", "-k", "test_empty_table_encodes_to_utf8_bytes", "-m", "not corpus",
                           "-p", "no:cacheprovider", *options],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=600,
                          env={**{k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"},
                               slow_calls.ENV_VAR: inherited})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    calls = len((folder / "calls.txt").read_text(encoding="utf-8").split())
    return done.stdout + done.stderr, calls


def test_a_slow_learners_run_draws_fewer_examples_and_says_so_and_a_chosen_profile_is_kept(tmp_path):
    (tmp_path / "slow_learner.py").write_text(SLOW_LEARNER, encoding="utf-8")
    cut, cut_calls = _check(tmp_path)
    assert cut.count("slow calls: the plainest call took") == 2, cut[-3000:]  # at the start, under the table
    kept, kept_calls = _check(tmp_path, "--hypothesis-profile", "default", inherited="5 40 1.0")  # a stale one
    assert "slow calls" not in kept
    assert cut_calls < kept_calls * 0.75, (cut_calls, kept_calls)  # 19 examples and the timing calls, not 40
