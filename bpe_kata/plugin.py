"""The pytest plugin that turns the spec into a kata: options, the swappable implementation,
levels that are "not started" instead of erroring, corpora, and the level table.

This module holds what every run shares (options, markers, fixtures); a run's own state and
hooks live in one ``KataRun`` object registered on that run's plugin manager, so a run started
inside another (the suite's own tests do it all the time) keeps to its own.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from bpe_kata.run import bounded_diff, expectations, outcomes, recording, report, run_status, teaching
from bpe_kata.child import launch as isolation
from bpe_kata.mutation import mutmut_calls
from bpe_kata.data import corpora, corpus_tables
from bpe_kata.run import judging
from spec import compare, oracle, replay, shapes
from spec import pieces as spec_pieces
from bpe_kata.run import progress as spec_progress
from bpe_kata.run.hypothesis_profiles import load_profile_from_environment
from spec.ledger import load_claims
from bpe_kata.run import fixed_pattern
from bpe_kata.run.levels import BY_NAME, FREE, PUBLISHED_TABLES_GROUP, feature_not_started, holds_whatever_split, levels_up_to, not_started_reason
from bpe_kata.run.loader import DEFAULT_IMPL, ENV_VAR, ImplementationNotFound, load_implementation
from bpe_kata.child import client as isolated_client
from bpe_kata.run.outcomes import Outcome

load_profile_from_environment()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bpe-kata", "bpe-kata: the executable BPE specification")
    group.addoption("--impl", default=None,
                    help=f"implementation to check: dotted module name, package folder or .py file "
                         f"(default: ${ENV_VAR}, then {DEFAULT_IMPL!r})")
    group.addoption("--level", default=None,
                    help="run the spec only up to this level (facts, bytes, pairs, merge, train, decode, encode, roundtrip, ...)")
    group.addoption("--require-data", action="store_true", default=False,
                    help="fail, instead of reporting 'not run', when a corpus cannot be found or downloaded")
    group.addoption("--data-dir", default=None,
                    help=f"folder holding the corpora (default: ${corpora.ENV_VAR}, then ../shared/data, then the user cache)")
    group.addoption("--bpe-report", default=None, metavar="FILE",
                    help="also write the level table and per-claim results as JSON to FILE")
    group.addoption("--bpe-html", default=None, metavar="FILE",
                    help="also write the report as one standalone HTML page to FILE (no network, filterable by level)")
    group.addoption("--claim", action="append", default=[], metavar="ID",
                    help="run only the tests of this claim (repeatable; a trailing * matches a prefix, e.g. merge.*)")
    group.addoption("--one-failure-per-claim", action="store_true", default=False,
                    help="once a claim has a failing test, skip its remaining tests (a quick answer to 'which claims fail?')")
    group.addoption("--bpe-list-tests", default=None, metavar="FILE",
                    help="write every collected spec test with its level and claims as JSON to FILE (for the suite's own tests)")
    group.addoption("--isolated", action="store_true", default=False,
                    help="run the Python implementation in a child process (python -m bpe_kata.child.server); "
                         "--impl cmd:\"COMMAND ...\" runs any program speaking docs/PROTOCOL.md, always isolated")
    group.addoption("--call-timeout", type=float, default=isolated_client.DEFAULT_CALL_TIMEOUT, metavar="SECONDS",
                    help="isolated runs: the time limit of one call; past it the test fails 'timed out' and the child "
                         "is restarted (default: %(default)s)")
    group.addoption("--time-budget", type=float, default=None, metavar="SECONDS",
                    help="isolated runs: the total time all calls to the implementation may take (per process); "
                         "once spent, every later call fails 'over budget' (bpe-kata gate sets a default)")
    group.addoption("--strict-levels", action="store_true", default=False,
                    help="a level that is not started is a failure (unless --expect allows it); bpe-kata gate sets it")
    group.addoption("--expect", default=None, metavar="FILE",
                    help="expectations file (TOML or JSON): claims, tests or levels expected to fail, each with a reason")
    group.addoption("--strict-expect", action="store_true", default=False,
                    help="an expected failure that passes fails the run")
    group.addoption("--write-expect", default=None, metavar="FILE",
                    help="write this run's failures and not-started levels as a starting expectations file")


#: The spec's markers, registered here too so that an installed (non-editable) copy works
#: without this repository's pyproject.toml.
MARKERS = (
    "claim(*ids): the claim ids (spec/claims.toml) that this test checks",
    "level(name): the kata level this test belongs to (bpe_kata/run/levels.py)",
    "corpus(*names): the test reads these corpora (tiny Shakespeare, Alice)",
    "xdist_group(name): keep these tests on one pytest-xdist worker (with --dist loadgroup)",
)


def pytest_configure(config: pytest.Config) -> None:
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
        if not any(cid == pattern or (pattern.endswith("*") and cid.startswith(pattern[:-1])) for cid in ledger):
            raise pytest.UsageError(f"--claim {pattern}: no claim has this id; `bpe-kata claims` lists them "
                                    "(a trailing * matches a prefix, e.g. --claim 'merge.*')")
    value = config.getoption("--impl") or os.environ.get(ENV_VAR) or DEFAULT_IMPL
    isolated_client.BUDGET.total = config.getoption("--time-budget")
    config.pluginmanager.register(KataRun(config, value, _implementation(config, value), _expectations(config)),
                                  KataRun.NAME)


def _implementation(config: pytest.Config, value: str):
    """The module under test, or in isolated runs its stand-in (the child starts on first use)."""
    if isolation.is_isolated(config, value):
        return isolation.spawn(config, value)
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


def level_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("level")
    return marker.args[0] if marker else None


def claims_of(item: pytest.Item) -> tuple[str, ...]:
    return tuple(claim for marker in item.iter_markers("claim") for claim in marker.args)


def _claim_selected(claims: tuple[str, ...], patterns: list[str]) -> bool:
    return any(claim == p or (p.endswith("*") and claim.startswith(p[:-1])) for claim in claims for p in patterns)


#: pytest-xdist groups (``--dist loadgroup``) of tests that share an expensive session fixture
#: (a level's own group is its ``xdist_group`` in bpe_kata/run/levels.py).
CORPORA_GROUP = "corpora"


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
    return recording.Recorder(implementation)  # which operations the test calls (report: "not judged")


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


@pytest.fixture(scope="session")
def corpus_finder(request: pytest.FixtureRequest) -> corpora.CorpusFinder:
    return corpora.CorpusFinder(data_dir=request.config.getoption("--data-dir"))


@pytest.fixture(scope="session")
def corpus(request: pytest.FixtureRequest, corpus_finder):
    """``corpus(name)`` gives a corpus's text, or marks the test 'not run' with the fix."""
    require = request.config.getoption("--require-data")

    def read(name: str) -> str:
        try:
            return corpus_finder.text(name)
        except corpora.CorpusUnavailable as error:
            if require:
                pytest.fail(f"corpus unavailable (--require-data): {error}", pytrace=False)
            pytest.skip(f"not run: corpus unavailable: {error}")  # an unlabelled skip is "not run"

    return read


#: The largest table of an implementation's own training that the spec reads per corpus:
#: the first 20 merges of tiny Shakespeare, the first 12 of the Alice text. Each corpus is
#: trained once, at that size, and smaller tables are its prefixes (training is greedy:
#: claim train.prefix, tested on its own). Larger corpus tables are the spec's own
#: (bpe_kata/data/corpus_tables.py), through which the implementation's encode is checked.
LEARNER_TABLE_SIZES = {"tinyshakespeare": 276, "alice": 268}


@pytest.fixture(scope="session")
def progress(request: pytest.FixtureRequest):
    """``with progress("training alice ...") as step:`` says on the terminal what runs long (bpe_kata/run/progress.py)."""
    write = spec_progress.stderr_writer(request.config.pluginmanager.getplugin("capturemanager"))
    after = spec_progress.delay_from_environment()
    return lambda what: spec_progress.Progress(write, what, after=after)


@pytest.fixture(scope="session")
def trained(implementation, progress):
    """``trained(key, text, vocab_size)``: the implementation's merges, trained once per session."""
    cache: dict[tuple[str, int], object] = {}
    calls = mutmut_calls.SharedCalls()  # under mutmut, every test reusing a table depends on train

    def train(key: str, text: str, vocab_size: int):
        if isinstance(implementation, fixed_pattern.PatternFixed):  # a corpus's table is known without a split
            implementation.unsplit(f"the table train learns from {key}")
        size = max(vocab_size, LEARNER_TABLE_SIZES.get(key, vocab_size))
        if (key, size) not in cache:
            what = f"training {key} to vocab_size {size} with the implementation's train"
            with calls.computing((key, size)):
                try:
                    with progress(what if key in corpora.CORPORA else "training a case text"):
                        cache[key, size] = list(implementation.train(text, size).items())
                except Exception as error:  # remember failures: a slow wrong train runs once
                    cache[key, size] = error
        calls.reused((key, size))
        recording.note("train")  # the test uses the implementation's own table
        result = cache[key, size]
        if isinstance(result, Exception):
            raise result
        return dict(result[: vocab_size - 256])

    return train


@pytest.fixture(scope="session")
def spec_table(corpus, progress):
    """``spec_table(corpus_name, vocab_size)``: the spec's own table (bpe_kata/data/corpus_tables.py), trained once."""
    tables: dict[str, list] = {}

    def table(name: str, vocab_size: int) -> dict:
        size = max(vocab_size, corpus_tables.SPEC_TABLE_SIZES.get(name, vocab_size))
        if name not in tables or len(tables[name]) < size - 256:
            with progress(f"training {name} to vocab_size {size} with the spec's own trainer (cached on disk)"):
                tables[name] = corpus_tables.table(name, corpus(name), size)
        return dict(tables[name][: vocab_size - 256])

    return table


@pytest.fixture(scope="session")
def corpus_table(trained, spec_table, corpus):
    """``corpus_table(corpus_name, vocab_size)``: the table the corpus cases read at that size.

    Up to ``LEARNER_TABLE_SIZES`` it is the implementation's own training; beyond, the spec's own.
    """
    def table(name: str, vocab_size: int) -> dict:
        if vocab_size <= LEARNER_TABLE_SIZES.get(name, 0):
            return dict(shapes.merges_of(trained(name, corpus(name), vocab_size)))
        return spec_table(name, vocab_size)

    return table


@pytest.fixture(scope="session")
def encoded(implementation, corpus_table, corpus, progress):
    """``encoded(corpus_name, vocab_size, text=None)``: ids of ``text`` under a corpus's table.

    Up to ``LEARNER_TABLE_SIZES`` the table is the implementation's own training; with no
    ``text`` the result is then the corpus itself, i.e. the sequence training ended with,
    read off by replaying the merges (spec/replay.py): the claims measured there are about
    training, and encode's own claims are tested on their own.

    Beyond those sizes the table is the spec's own and the ids are the implementation's
    encode. With no ``text`` that is the whole corpus, encoded in token-aligned pieces
    (spec/pieces.py), each checked against the spec's replay of the table: an
    AssertionError names the first piece that differs.
    """
    cache: dict[tuple[str, int, str | None], list[int]] = {}
    replayers: dict[tuple[str, str], replay.Replayer] = {}

    def replayed(name: str, whose: str, merges: dict) -> list[int]:
        replayer = replayers.setdefault((name, whose), replay.Replayer(corpus(name)))
        return replayer.after(shapes.merges_of(merges))

    calls = mutmut_calls.SharedCalls()

    def encode(name: str, vocab_size: int, text: str | None = None) -> list[int]:
        key = (name, vocab_size, text)
        if key not in cache:
            with calls.computing(key):
                merges = corpus_table(name, vocab_size)
                if text is not None:
                    cache[key] = shapes.ids_of(implementation.encode(text, merges))
                elif vocab_size <= LEARNER_TABLE_SIZES.get(name, 0):
                    cache[key] = replayed(name, "implementation", merges)
                else:
                    cache[key] = encode_in_pieces(name, vocab_size, merges)
        calls.reused(key)
        recording.note("encode")  # the test uses the implementation's own encoding
        return cache[key]

    def encode_in_pieces(name: str, vocab_size: int, merges: dict) -> list[int]:
        expected = replayed(name, "spec", merges)
        pieces = spec_pieces.token_aligned_pieces(corpus(name), expected, oracle.build_vocab(merges))
        distinct = {text: want for text, want in pieces}
        done: dict[str, list[int]] = {}
        with progress(f"encoding {name} at vocab_size {vocab_size} with the implementation's encode, "
                      f"in {len(distinct):,} distinct pieces") as step:
            for count, (text, want) in enumerate(distinct.items(), start=1):
                got = shapes.ids_of(implementation.encode(text, merges))
                compare.expect_equal(got, want, f"encode({text!r}), a piece of {name}, at vocab_size {vocab_size}",
                                     merges=merges)
                done[text] = got
                if count % 500 == 0:
                    step.update(f"{count:,} of {len(distinct):,} pieces")
        return [idx for text, _ in pieces for idx in done[text]]

    return encode


@pytest.fixture
def spawn_implementation(request: pytest.FixtureRequest):
    """``spawn_implementation(env_changes=None, file_size_limit=None)``: the implementation in a fresh
    child process of its own, connected; closed after the test. For claims that need a process."""
    children: list[isolated_client.IsolatedImplementation] = []

    def spawn(**options) -> isolated_client.IsolatedImplementation:
        children.append(isolation.spawn(request.config, KataRun.of(request.config).impl_value, **options))
        return children[-1].connect()

    yield spawn
    for child in children:
        child.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Explanations of failed asserts on large values stay bounded, even where $CI is set (bounded_diff)."""
    with bounded_diff.bounded_explanations(item.config):
        return (yield)


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> list[str] | None:
    """``assert actual == expected`` on ids, merges or bytes: where they first differ, with the bytes shown."""
    if op != "==" or not isinstance(left, (list, tuple, bytes)) or type(left) is not type(right):
        return None
    if isinstance(left, (list, tuple)) and not all(isinstance(x, (int, tuple)) for x in (*left, *right)):
        return None
    lines = compare.describe(left, right, "actual == expected")
    return [f"{left!r:.60} == {right!r:.60}", *lines] if lines else None




class KataRun:
    """One pytest run: its implementation, expectations, results and verdict, and the hooks that keep them.

    Registered on the run's own plugin manager at configure time, so its hooks see only that
    run's tests (pytest_runtest_logreport gets no config to tell runs apart by); fixtures reach
    it with ``KataRun.of(request.config)``. Each pytest-xdist worker has one, and so has the
    controller, which alone decides the verdict.
    """

    NAME = "bpe-kata-run"

    def __init__(self, config: pytest.Config, impl_value: str, implementation: object,
                 expected: list[expectations.Expected] | None) -> None:
        self.config = config
        self.impl_value = impl_value  # the --impl value (or its default), as given
        self.implementation = implementation  # the module, or in isolated runs its stand-in
        self.expected = expected  # None: no --expect and no --strict-levels
        self.tracker = run_status.Tracker()
        self.results = report.Results()
        self.started: dict[str, str | None] = {}  # level or feature -> why it is not started (None: started)
        self.listed_ids: dict[pytest.Item, str] = {}  # before xdist appends its group to the id
        self.log_offsets: dict[str, int] = {}  # isolated runs: nodeid -> the child's stderr size at setup
        self.verdict_lines: list[str] = []
        self.current_item: pytest.Item | None = None
        self.diagnosed = False  # the likely mistakes are probed once, after the last test

    @classmethod
    def of(cls, config: pytest.Config) -> KataRun:
        return config.pluginmanager.get_plugin(cls.NAME)

    def pattern_fixed(self, implementation):
        """The implementation as tests see it: behind bpe_kata.run.fixed_pattern.PatternFixed when it declares
        the split pattern it always uses (a bad declaration is a usage error, said once)."""
        try:
            pattern = fixed_pattern.fixed_pattern(implementation)
        except fixed_pattern.BadFixedPattern as error:
            raise pytest.UsageError(str(error)) from None
        if pattern is None:
            return implementation

        def refuse(reason: str):
            if self.current_item is None:
                raise NotImplementedError(reason)
            outcomes.skip(self.current_item, Outcome.FEATURE_NOT_STARTED, reason)

        def split_free() -> bool:
            level = BY_NAME.get(level_of(self.current_item) or "") if self.current_item is not None else None
            return level is None or level.split == FREE or holds_whatever_split(claims_of(self.current_item))

        return fixed_pattern.PatternFixed(implementation, pattern, refuse, split_free)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        """Remember the running test (a pattern-fixed implementation's calls are judged by its level)."""
        self.current_item = item
        try:
            return (yield)
        finally:
            self.current_item = None

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if isinstance(self.implementation, isolated_client.IsolatedImplementation):
            self.implementation.close()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Keep the tests of ``--level`` and ``--claim``, and group those sharing an expensive fixture.

        With pytest-xdist's ``--dist loadgroup``, tests with the same ``xdist_group`` run on one
        worker, so a corpus training or a published table is built once; each corpus is a group of
        its own, so two corpora can train on two workers at once. xdist reads the marks
        in this same hook, hence tryfirst.
        """
        wanted, patterns = config.getoption("--level"), config.getoption("--claim")
        allowed = set(levels_up_to(wanted)) if wanted else None
        kept, dropped = [], []
        for item in items:
            level, claims = level_of(item), claims_of(item)
            keep = (allowed is None or level is None or level in allowed) and (
                not patterns or (level is None and not claims) or _claim_selected(claims, patterns))
            (kept if keep else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
        for item in items:
            self.listed_ids[item] = item.nodeid
            level = BY_NAME.get(level_of(item) or "")
            if level and level.xdist_group:
                item.add_marker(pytest.mark.xdist_group(level.xdist_group))
            elif item.get_closest_marker("corpus"):
                name = item.get_closest_marker("corpus").args[0]
                item.add_marker(pytest.mark.xdist_group(f"{CORPORA_GROUP}-{name}"))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids) -> None:
        """The controller learns the selected tests from its workers (it collects none itself)."""
        self.tracker.selected.update(ids)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """``--bpe-list-tests FILE``: every selected test with its level, claims and corpus need."""
        if not run_status.is_worker(session.config):
            self.tracker.selected.update(item.nodeid for item in session.items)
        listing = session.config.getoption("--bpe-list-tests")
        if listing:
            import json
            rows = {self.listed_ids.get(item, item.nodeid): {
                        "level": level_of(item), "claims": list(claims_of(item)),
                        "corpus": item.get_closest_marker("corpus") is not None}
                    for item in session.items}
            # Every xdist worker writes the same rows: each writes whole, none half.
            partial = Path(f"{listing}.{os.getpid()}.tmp")
            partial.write_text(json.dumps(rows, indent=1), encoding="utf-8")
            os.replace(partial, listing)

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        recording.reset()
        if isinstance(self.implementation, isolated_client.IsolatedImplementation):
            self.log_offsets[item.nodeid] = self.implementation.child.log_size()
        if not item.config.getoption("--one-failure-per-claim"):
            return
        claims = claims_of(item)
        failed = self.results.failed_claims()
        if claims and all(claim in failed for claim in claims):
            outcomes.skip(item, Outcome.NOT_RUN, "not run: its claims already failed (--one-failure-per-claim)")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        """Report NotImplementedError as 'not started', and label each report with its outcome, level and claims.

        The labels travel with the report (JUnit XML shows them; pytest-xdist carries them
        from its workers), so the tally below works however the run is distributed.
        """
        rep = yield
        fault = isolation.fault_of(call)
        if fault is not None:
            rep.user_properties.append(("bpe_fault", fault.outcome))
        if rep.failed and item.nodeid in self.log_offsets:
            log = self.implementation.child.log_since(self.log_offsets[item.nodeid]).strip()
            if log:
                rep.sections.append(("implementation stderr", log[-4000:]))
        not_implemented = rep.failed and call.excinfo is not None and judging.only_not_implemented(call.excinfo.value)
        if not_implemented and self._started_already(item):
            not_implemented = False  # the level's probe passed: a NotImplementedError now is a failure
            rep.sections.append(("bpe-kata", "NotImplementedError raised by a level whose probe passed: "
                                 "counted as a failure, not as 'not started'"))
        if not_implemented:
            rep.outcome = "skipped"
            where = str(call.excinfo.traceback[-1].path) if call.excinfo.traceback else str(item.path)
            rep.longrepr = (where, 0, "Skipped: not started: a function raised NotImplementedError")
        level, claims = level_of(item), claims_of(item)
        claims = isolation.blamed_claims(fault, claims) if fault is not None else claims
        outcome = outcomes.decide(item, rep, not_implemented)
        if outcome is not None and (level or claims):
            outcomes.label(item, rep, outcome)
        if level:
            rep.user_properties.append(("bpe_level", level))
        if claims:
            rep.user_properties.append(("claims", " ".join(claims)))
        self._label_failure(item, call, rep, claims)
        return rep

    def _started_already(self, item: pytest.Item) -> bool:
        """Isolated runs: the test's level was probed in this process and found started, so the
        implementation cannot turn a wrong answer into "not started" by raising NotImplementedError."""
        level = level_of(item)
        return (isinstance(self.implementation, isolated_client.IsolatedImplementation) and level in self.started
                and self.started[level] is None and "require_feature" not in getattr(item, "fixturenames", ()))

    def _label_failure(self, item: pytest.Item, call: pytest.CallInfo, rep: pytest.TestReport,
                       claims: tuple[str, ...]) -> None:
        """Attach the verdict (bpe_kata/run/judging.py): which claims a failed assertion breaks, or the error's root cause."""
        if rep.failed and call.excinfo is not None and (level_of(item) or claims):
            fault = isolation.fault_of(call)
            verdict = (isolation.fault_verdict(fault, claims) if fault is not None else
                       judging.judge(call.excinfo.value, claims, self.implementation, rep.longreprtext))
            verdict = dataclasses.replace(verdict, calls=recording.calls())
            rep.user_properties.append(("bpe_verdict", verdict.to_json()))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        properties = dict(report.user_properties)
        is_spec_test = "bpe_level" in properties or "claims" in properties
        self.tracker.observe(report, is_spec_test)
        outcome = outcomes.of_report(report)
        if is_spec_test and outcome is not None:
            verdict = properties.get("bpe_verdict")
            self.results.record(report, outcome, properties.get("bpe_level"),
                                tuple(properties.get("claims", "").split()),
                                judging.Verdict.from_json(verdict) if verdict else None)

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config: pytest.Config) -> None:
        if not self.results.any_level_results():
            return
        self._diagnose()
        info = report.run_info(self.impl_value, self.implementation)
        for line in report.render_table(self.results, info):
            terminalreporter.write_line(line)
        for line in self.verdict_lines:
            terminalreporter.write_line(line)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus) -> None:
        """The main process alone decides the exit status and writes the report; workers never do."""
        config = session.config
        if run_status.is_worker(config) or config.option.collectonly:
            return
        tracker, entries, results = self.tracker, self.expected, self.results
        complete = tracker.complete(int(exitstatus))
        judgement = (run_status.judge(results.by_test, entries, config.getoption("--strict-levels"))
                     if entries is not None else None)
        status = run_status.exit_status(int(exitstatus), complete, judgement, tracker,
                                        config.getoption("--strict-expect"))
        self.verdict_lines = _verdict_lines(tracker, judgement, complete)
        self._write_expectations()
        target, page = config.getoption("--bpe-report", None), config.getoption("--bpe-html", None)
        if target or page:
            self._diagnose()
            info = {**report.run_info(self.impl_value, self.implementation),
                    **self._run_record(judgement, complete, status)}
            if target:
                report.write_json(Path(target), results, info)
            if page:
                from bpe_kata.tools import html_report

                html_report.write(Path(page), report.as_json(results, info))
        session.exitstatus = status

    def _diagnose(self) -> None:
        """Probe the implementation for the mistakes its broken claims point to (bpe_kata/run/teaching.py)."""
        if not self.diagnosed:
            self.diagnosed = True
            self.results.diagnoses = teaching.diagnose(self.results.broken_claims(), self.implementation)

    def _run_record(self, judgement, complete: bool, status: int) -> dict:
        config, tracker = self.config, self.tracker
        command = getattr(getattr(self.implementation, "child", None), "command", None)
        return {"complete": complete, "exit_status": status, "spec_fingerprint": run_status.spec_fingerprint(),
                "isolated": command is not None, "command": command, "selected": len(tracker.selected),
                "finished": len(tracker.finished & tracker.selected), "faults": dict(sorted(tracker.faults.items())),
                "expectations": None if judgement is None else {
                    "file": config.getoption("--expect"), "strict_levels": config.getoption("--strict-levels"),
                    "unexpected_failures": judgement.unexpected, "expected_failures": judgement.expected,
                    "unexpected_passes": judgement.unexpected_passes}}

    def _write_expectations(self) -> None:
        target = self.config.getoption("--write-expect")
        if target:
            path = Path(self.config.invocation_params.dir) / target
            entries = run_status.starting_entries(self.results.by_test, self.results.failures)
            path.write_text(expectations.dumps(entries), encoding="utf-8")


def _verdict_lines(tracker: run_status.Tracker, judgement, complete: bool) -> list[str]:
    """Printed after the level table: completeness, faults, and the expectations' outcome."""
    lines = [""] if complete else [f"bpe-kata: INCOMPLETE run: {len(tracker.finished & tracker.selected)} of "
                                 f"{len(tracker.selected)} selected tests were seen to finish"]
    for nodeid, outcome in sorted(tracker.faults.items()):
        lines.append(f"bpe-kata: {outcome}: {nodeid}")
    if judgement is not None:
        lines.append(f"bpe-kata: {len(judgement.unexpected)} unexpected failures, "
                     f"{len(judgement.expected)} expected, {len(judgement.unexpected_passes)} unexpected passes")
        lines += [f"  unexpected {outcome}: {nodeid}" for nodeid, outcome in list(judgement.unexpected.items())[:20]]
        lines += [f"  unexpected pass (remove it from --expect): {label}" for label in judgement.unexpected_passes]
    return lines if any(lines) else []
