"""The fixtures that hand a spec test the implementation: the module under test once its level has started
(``bpe``), a feature's or a process's precondition, children of its own, and calls made for a test by a session
fixture.

Each is the runner's answer to a need the spec names (spec/cases/runner.py and the test modules ask for them by
name); the run's state they read lives in ``KataRun``. The data the tests read is data_fixtures.py's.
"""

from __future__ import annotations

import pytest

from bpe_kata.child import client as isolated_client
from bpe_kata.run import cpu_pairs, leftover_children, spawning
from bpe_kata.run.collection import level_of
from bpe_kata.run.kata_run import KataRun
from bpe_kata.verdict import equivalent_forms, outcomes, recording, substitution
from bpe_kata.verdict.outcomes import Outcome
from spec import trainer_at_hand
from spec.levels import BY_NAME, feature_not_started, not_started_reason


@pytest.fixture(scope="session")
def implementation(request: pytest.FixtureRequest):
    """The module under test, whatever level asks for it (in isolated runs, its child is started here)."""
    run = KataRun.of(request.config)
    implementation = run.implementation
    if isinstance(implementation, isolated_client.IsolatedImplementation):
        implementation.connect()
    return run.pattern_fixed(implementation)


@pytest.fixture
def bpe(request: pytest.FixtureRequest, implementation):
    """The implementation, once its test's level has started (else the test is 'not started')."""
    name = level_of(request.node)
    if name in BY_NAME:
        started = KataRun.of(request.config).started
        if name not in started:
            started[name] = not_started_reason(implementation, BY_NAME[name])
        if started[name]:
            outcomes.skip(request.node, Outcome.NOT_STARTED, started[name])
    # explanations' evidence, not a call; in a rerun, asked in the rerun's form as the test's own calls are
    # (equivalent_forms.rewrite: ninth round, a probe met the crash of the form the rerun was made to leave behind)
    at_hand = trainer_at_hand.put(_in_force(implementation) if callable(getattr(implementation, "train", None))
                                  else None)
    with leftover_children.ended_after():  # a learner's pool or Manager left running is ended with its test
        yield recording.Recorder(implementation)  # which operations the test calls (report: "not judged")
    trainer_at_hand.reset(at_hand)


def _in_force(implementation):
    """The implementation's train, called in the equivalent form while one is in force (a rerun behind a crash)."""
    return lambda *args, **kwargs: equivalent_forms.call(implementation, "train", *args, **kwargs)


@pytest.fixture
def require_feature(request: pytest.FixtureRequest, bpe):
    """``require_feature("train(tie_rule=lowest-pair)")`` skips the test as "not started" without it.

    For optional parts of a started level (the ties level credits each rule on its own):
    only the tests of the missing part are "not started", the rest of the level runs.
    """
    started = KataRun.of(request.config).started

    def require(feature: str) -> None:
        if feature not in started:
            started[feature] = feature_not_started(bpe, feature)
        if started[feature]:
            outcomes.skip(request.node, Outcome.FEATURE_NOT_STARTED, started[feature])

    return require


@pytest.fixture
def in_process(request: pytest.FixtureRequest, implementation) -> None:
    """Skips the test as "not run" when the implementation answers through the stdio protocol, which carries
    whole values: for what only a call in this process can see (how much of an iterable a call has read)."""
    from spec.fixed_pattern import unwrap

    if isinstance(unwrap(implementation), isolated_client.IsolatedImplementation):
        outcomes.skip(request.node, Outcome.NOT_RUN, "not run: the stdio protocol sends an iterable whole, so how "
                      "much of it a call reads is judged only in process (bpe-kata check)")


@pytest.fixture
def encode_iterable_memory(request: pytest.FixtureRequest):
    """``encode_iterable_memory(request_dict)``: the implementation's ``encode_iterable`` measured in a child of its own
    under an address-space limit (bpe_kata/child/launch.py ``encode_iterable_memory``): the child's answer. Skips the
    test as "not run" off Linux (``RLIMIT_AS``, ``/proc``) and for ``cmd:`` implementations (the protocol carries an
    iterable whole: a lazy input cannot reach another language's program)."""
    import sys

    if not sys.platform.startswith("linux"):
        outcomes.skip(request.node, Outcome.NOT_RUN, "not run: the address-space limit (RLIMIT_AS) and its measure "
                      "(/proc/self/status) are Linux's; on this system the memory of encode_iterable is not judged")
    value = KataRun.of(request.config).impl_value
    if value.startswith("cmd:"):
        outcomes.skip(request.node, Outcome.NOT_RUN, "not run: the stdio protocol sends an iterable whole, so the "
                      "memory of encode_iterable over a lazy input is judged only for a Python implementation")

    def measure(arguments: dict) -> dict:
        recording.note("encode_iterable")
        answer = spawning.encode_iterable_memory(request.config, value, arguments,
                                                  request.config.getoption("--call-timeout"))
        error = str(answer.get("error") or "")
        if error.startswith("not loaded:"):  # the run loaded it; a fresh child could not: the environment's, no claim's
            outcomes.skip(request.node, Outcome.NOT_RUN, f"not run: the memory test's child could not load the "
                          f"implementation this run loaded ({error[:300]})")
        return answer

    return measure


class Spawner:
    """``spawn(**options)``: the implementation in a fresh child process of its own, connected;
    ``spawn.each(options, ...)``: one such child per set of options, launched side by side (each loads
    its interpreter while the others do) and then connected in order. Options: ``env_changes``,
    ``file_size_limit``. Every child is closed after the test."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.children: list[isolated_client.IsolatedImplementation] = []

    def __call__(self, **options) -> isolated_client.IsolatedImplementation:
        return self.each(options)[0]

    def each(self, *option_sets: dict) -> list:
        value = KataRun.of(self.config).impl_value
        started = [spawning.spawn(self.config, value, **options) for options in option_sets]
        self.children += started
        for child in started:
            child.launch()
            if child.child.process is not None:
                cpu_pairs.release(child.child.process.pid)
        # their calls are the test's calls too (bpe_kata/verdict/recording.py): a check made on a child's result
        # is judged by what the test called, never as resting on an operation it did not call
        return [recording.Recorder(child.connect()) for child in started]

    def close(self) -> None:
        for child in self.children:
            child.close()


@pytest.fixture
def spawn_implementation(request: pytest.FixtureRequest):
    """``spawn_implementation(env_changes=None, file_size_limit=None)``, ``spawn_implementation.each(...)``:
    the implementation in fresh child processes (``Spawner``). For claims that need a process."""
    spawner = Spawner(request.config)
    yield spawner
    spawner.close()


@pytest.fixture(scope="session")
def implementation_call():
    """``implementation_call(operation)``, for a session fixture that calls the implementation itself: the call
    counts as the running test's (bpe_kata/verdict/recording.py), and the value returned belongs in the fixture's
    cache key (the operations swapped for the oracle's while a failed test runs again,
    bpe_kata/verdict/substitution.py)."""
    def reached(operation: str) -> tuple[str, ...]:
        recording.note(operation)
        return substitution.active()

    return reached
