"""The pytest plugin that turns the spec into a kata (``-p bpe_kata.plugin``): its options,
markers and hook registration.

The rooms it registers: the fixtures the spec asks for (bpe_kata/run/implementation_fixtures.py, the
implementation; bpe_kata/run/data_fixtures.py, corpora and tables) and, per run, one ``KataRun`` holding the
run's state and verdict (bpe_kata/run/kata_run.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bpe_kata.child import client as isolated_client
from bpe_kata.child import deadlines, gc_policy
from bpe_kata.data import corpora
from bpe_kata.impl.loader import DEFAULT_IMPL, ENV_VAR, ImplementationNotFound, load_implementation, require_utf8
from bpe_kata.platforms import outputs as platform_outputs
from bpe_kata.platforms.points import PointsError
from bpe_kata.run import budgets, leftover_children, quick_exit, slow_calls, spawning, stop_signal
from bpe_kata.run.hypothesis_profiles import load_profile_from_environment, private_storage
from bpe_kata.run.kata_run import KataRun
from bpe_kata.verdict import bounded_diff, expectations, missing_data, selection, traceback_cache
from spec import compare
from spec.ledger import load_claims
from spec.levels import levels_up_to

pytest_plugins = ["bpe_kata.run.implementation_fixtures", "bpe_kata.run.data_fixtures"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bpe-kata", "bpe-kata: the executable BPE specification")
    group.addoption("--impl", default=None,
                    help=f"implementation to check: dotted module name, package folder or .py file "
                         f"(default: ${ENV_VAR}, then {DEFAULT_IMPL!r})")
    group.addoption(
        "--level",
        default=None,
        help="run the spec only up to this level (facts, bytes, pairs, merge, train, decode, encode, roundtrip, ...)",
    )
    group.addoption("--require-data", action="store_true", default=False,
                    help="a corpus or published table that cannot be had ends the run with exit status 2 (no "
                         "verdict) instead of an exit status 0 with its tests 'not run'")
    group.addoption(
        "--data-dir",
        default=None,
        help=f"folder holding the corpora (default: ${corpora.ENV_VAR}, then ../shared/data, then the user cache)",
    )
    group.addoption("--bpe-report", default=None, metavar="FILE",
                    help="also write the level table and per-claim results as JSON to FILE")
    group.addoption("--bpe-html", default=None, metavar="FILE",
                    help="also write the report as one standalone HTML page to FILE (no network, filterable by level)")
    group.addoption("--points", default=None, metavar="FILE",
                    help="a TOML of points per level (docs/TEACHERS.md); the platform files below are scored by it")
    for option, _, what in platform_outputs.FORMATS.values():
        group.addoption(option, default=None, metavar="FILE", help=f"also write {what} to FILE")
    group.addoption("--claim", action="append", default=[], metavar="ID",
                    help="run only the tests of this claim (repeatable; a trailing * matches a prefix, e.g. merge.*)")
    group.addoption(
        "--one-failure-per-claim",
        action="store_true",
        default=False,
        help="once a claim has a failing test, skip its remaining tests (a quick answer to 'which claims fail?')",
    )
    group.addoption(
        "--bpe-list-tests",
        default=None,
        metavar="FILE",
        help="write every collected spec test with its level and claims as JSON to FILE (for the suite's own tests)",
    )
    group.addoption("--isolated", action="store_true", default=False,
                    help="run the Python implementation in a child process (python -m bpe_kata.child.server); "
                         "--impl cmd:\"COMMAND ...\" runs any program speaking docs/PROTOCOL.md, always isolated")
    group.addoption("--call-timeout", type=float, default=isolated_client.DEFAULT_CALL_TIMEOUT, metavar="SECONDS",
                    help="isolated runs: the time limit of one call; past it the test fails 'timed out' and the child "
                         "is restarted (default: %(default)s)")
    group.addoption("--time-budget", type=float, default=None, metavar="SECONDS",
                    help="isolated runs: the total time all calls to the implementation may take (per process); "
                         "once spent, every later call fails 'over budget' (bpe-kata gate sets a default)")
    group.addoption("--give-up-after-hangs", type=int, default=None, metavar="N",
                    help="isolated runs: once a function's calls have hung N times running, later calls to it fail at "
                         "once (bpe-kata grade sets 2, so one hanging function does not spend the run's time budget)")
    group.addoption("--test-budget", default=None, metavar="SECONDS",
                    help="each spec test's time limit: past it the test fails 'too slow' and the run goes on; "
                         "'auto' (default; also BPE_KATA_TEST_BUDGET) sizes it from the reference's time for that "
                         "test with a wide margin, a number gives every test that many seconds, 'off' none")
    group.addoption("--strict-levels", action="store_true", default=False,
                    help="a level that is not started is a failure (unless --expect allows it); bpe-kata gate sets it")
    group.addoption(
        "--expect",
        default=None,
        metavar="FILE",
        help="expectations file (TOML or JSON): claims, tests or levels expected to fail, each with a reason",
    )
    group.addoption("--strict-expect", action="store_true", default=False,
                    help="an expected failure that passes fails the run")
    group.addoption("--write-expect", default=None, metavar="FILE",
                    help="write this run's failures and not-started levels as a starting expectations file")


#: The spec's markers, registered here too so that an installed (non-editable) copy works
#: without this repository's pyproject.toml.
MARKERS = (
    "claim(*ids): the claim ids (spec/claims.toml) that this test checks",
    "level(name): the kata level this test belongs to (spec/levels.py)",
    "corpus(*names): the test reads these corpora (tiny Shakespeare, Alice)",
    "xdist_group(name): keep these tests on one pytest-xdist worker (with --dist loadgroup)",
)


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's own: its --hypothesis-profile wins over the environment
def pytest_configure(config: pytest.Config) -> None:
    load_profile_from_environment()
    traceback_cache.install()  # a failing run formats hundreds of tracebacks through the same few files
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    level = config.getoption("--level")
    if level is not None:
        try:
            levels_up_to(level)
        except ValueError as error:
            raise pytest.UsageError(f"--level: {error}") from None
    ledger = load_claims()
    for pattern in config.getoption("--claim"):
        if not any(selection.matches(pattern, cid) for cid in ledger):
            raise pytest.UsageError(f"--claim {pattern}: no claim has this id; `bpe-kata claims` lists them "
                                    "(a trailing * matches a prefix, e.g. --claim 'merge.*')")
    try:
        platform_outputs.check({platform_outputs.POINTS_OPTION: config.getoption("--points")})
    except PointsError as error:
        raise pytest.UsageError(str(error)) from None
    value = config.getoption("--impl") or os.environ.get(ENV_VAR) or DEFAULT_IMPL
    config.pluginmanager.register(missing_data, "bpe-kata-missing-data")  # missing data: never a failure
    deadlines.BUDGET.total = config.getoption("--time-budget")
    deadlines.HUNG_CALLS.limit = config.getoption("--give-up-after-hangs")
    try:
        chosen = budgets.setting(config.getoption("--test-budget"))
    except ValueError as error:
        raise pytest.UsageError(str(error)) from None
    implementation = _implementation(config, value)
    config.pluginmanager.register(budgets.TestBudgets(chosen, implementation), budgets.TestBudgets.NAME)
    isolated = isinstance(implementation, isolated_client.IsolatedImplementation)
    config.pluginmanager.register(slow_calls.SlowCalls(config, implementation, isolated), slow_calls.SlowCalls.NAME)
    config.pluginmanager.register(KataRun(config, value, implementation, _expectations(config)), KataRun.NAME)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """After every plugin's configure (Hypothesis's loads --hypothesis-profile), before the spec is imported."""
    if session.config.getoption("--isolated"):
        private_storage()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    gc_policy.settle()  # the modules and items collection loaded stay out of every later collection


@pytest.hookimpl(tryfirst=True, specname="pytest_unconfigure")
def freeze_before_the_last_collection(config: pytest.Config) -> None:
    """A process that ends with this run has nothing left to collect (bpe_kata/child/gc_policy.py)."""
    if quick_exit.ending(config):
        gc_policy.freeze()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """A pytest-xdist worker is done: its results are sent and its children closed (bpe_kata/run/quick_exit.py)."""
    leftover_children.end_all()  # what the implementation left running past its tests and probes
    quick_exit.arm(config)


def _implementation(config: pytest.Config, value: str):
    """The module under test, or in isolated runs its stand-in (the child starts on first use)."""
    try:
        require_utf8(value)
    except ImplementationNotFound as error:
        raise pytest.UsageError(str(error)) from None
    if spawning.is_isolated(config, value):
        return spawning.spawn(config, value)
    try:
        return load_implementation(value)
    except ImplementationNotFound as error:
        raise pytest.UsageError(str(error)) from None


def _expectations(config: pytest.Config) -> list[expectations.Expected] | None:
    path = config.getoption("--expect")
    if path is None:
        return [] if config.getoption("--strict-levels") else None
    try:
        return expectations.load(Path(config.invocation_params.dir) / path)
    except expectations.ExpectationsError as error:
        raise pytest.UsageError(str(error)) from None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Explanations of failed asserts on large values stay bounded, even where $CI is set (bounded_diff). A SIGTERM
    that arrived while the call forked stops the run here, as Ctrl-C would (bpe_kata/run/stop_signal.py)."""
    with bounded_diff.bounded_explanations(item.config):
        try:
            return (yield)
        finally:
            stop_signal.stop_if_asked_during_a_fork()


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> list[str] | None:
    """``assert actual == expected`` on ids, merges or bytes: where they first differ, with the bytes shown."""
    if op != "==" or not isinstance(left, (list, tuple, bytes)) or type(left) is not type(right):
        return None
    if isinstance(left, (list, tuple)) and not all(isinstance(x, (int, tuple)) for x in (*left, *right)):
        return None
    lines = compare.describe(left, right, "actual == expected")
    return [f"{left!r:.60} == {right!r:.60}", *lines] if lines else None




