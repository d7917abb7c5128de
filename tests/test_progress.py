"""bpe_kata/run/progress_line.py: a slow corpus step says what it is doing; a fast one says nothing."""

from __future__ import annotations

import threading

import pytest

from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable
from bpe_kata.run import progress_line
from tests.support import run_spec_inline


def test_a_fast_step_prints_nothing():
    lines: list[str] = []
    with progress_line.Progress(lines.append, "training toy", after=60):
        pass
    assert lines == []


def test_a_slow_step_says_what_runs_its_latest_status_and_when_it_ended():
    lines: list[str] = []
    shown = threading.Event()

    def write(line: str) -> None:
        lines.append(line)
        shown.set()

    with progress_line.Progress(write, "encoding alice", after=0, every=60) as step:
        step.update("3 of 9 pieces")
        assert shown.wait(10)
    assert lines[0].startswith("bpe-kata: encoding alice: ")
    assert lines[-1].startswith("bpe-kata: encoding alice: done after ")
    assert len(lines) == 2


def test_a_step_that_raises_is_reported_as_failed():
    lines: list[str] = []
    shown = threading.Event()
    with pytest.raises(ZeroDivisionError):
        with progress_line.Progress(lambda line: (lines.append(line), shown.set()), "training toy", after=0):
            assert shown.wait(10)
            raise ZeroDivisionError("the step fails")
    assert "failed after" in lines[-1]


@pytest.mark.parametrize(("value", "expected"), [("", progress_line.DEFAULT_AFTER), ("0", 0.0), ("5.5", 5.5),
                                                 ("off", None), ("-1", None), ("soon", progress_line.DEFAULT_AFTER)])
def test_the_delay_comes_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv(progress_line.AFTER_VAR, value)
    assert progress_line.delay_from_environment() == expected


@pytest.mark.heavy
def test_the_line_crosses_output_capture_and_an_xdist_worker(tmp_path, capfd, monkeypatch):
    """A spec run on one xdist worker, capture on: the worker's line reaches this process's stderr."""
    try:
        CorpusFinder().path("alice")
    except CorpusUnavailable as error:
        pytest.skip(f"corpus unavailable: {error}")
    monkeypatch.setenv(progress_line.AFTER_VAR, "0")
    run = run_spec_inline(tmp_path, "--claim", "corpus.d1-merges", "-p", "xdist", "-n", "1",
                          files=["spec/test_train.py"], capsys=capfd)
    assert run.returncode == 0, run.output[-2000:]
    assert "bringing up nodes" in run.output  # xdist's own word that the tests ran on a worker
    assert "bpe-kata: training alice to vocab_size 268 with the implementation's train: " in run.output
    assert "done after" in run.output
