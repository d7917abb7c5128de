"""The run's state and verdict: one ``KataRun`` per pytest run, and the hooks that keep it.

Results, expectations, which levels started, the level table and the exit status belong to one
run; a run started inside another (the suite's own tests do it all the time) keeps to its own.
"""

from __future__ import annotations

import time
from pathlib import Path

import hypothesis.errors
import pytest

from bpe_kata.child import client as isolated_client
from bpe_kata.impl import course_shapes
from bpe_kata.platforms import outputs as platform_outputs
from bpe_kata.run import collection, cpu_pairs, example_replay, fixed_split
from bpe_kata.run.collection import claims_of, level_of
from bpe_kata.verdict import (
    bounded_diff,
    crash_probes,
    expectations,
    failure_verdict,
    fault_verdicts,
    judging,
    malformed,
    missing_data,
    outcomes,
    pattern_probe,
    recording,
    report,
    reruns,
    run_status,
    summary,
    teaching,
    tracebacks,
)
from bpe_kata.verdict.outcomes import Outcome
from bpe_kata.verdict.tallies import Results
from spec import fixed_pattern
from spec.oracle import split


class KataRun:
    """One pytest run: its implementation, expectations, results and verdict, and the hooks that keep them.

    Registered on the run's own plugin manager at configure time, so its hooks see only that run's tests
    (pytest_runtest_logreport gets no config to tell runs apart by); fixtures reach it with
    ``KataRun.of(request.config)``. Each pytest-xdist worker has one, and so has the controller, which alone decides.
    """

    NAME = "bpe-kata-run"

    def __init__(self, config: pytest.Config, impl_value: str, implementation: object,
                 expected: list[expectations.Expected] | None) -> None:
        self.config = config
        self.impl_value = impl_value  # the --impl value (or its default), as given
        self.implementation = implementation  # the module, or in isolated runs its stand-in
        self.expected = expected  # None: no --expect and no --strict-levels
        self.tracker = run_status.Tracker()
        self.results = Results()
        self.started: dict[str, str | None] = {}  # level or feature -> why it is not started (None: started)
        self.listed_ids: dict[pytest.Item, str] = {}  # before xdist appends its group to the id
        self.log_offsets: dict[str, int] = {}  # isolated runs: nodeid -> the child's stderr size at setup
        self.verdict_lines: list[str] = []
        self.current_item: pytest.Item | None = None
        self.diagnosed = False  # the likely mistakes are probed once, after the last test
        self.evidence: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # nodeid -> (swaps tried, cleared)
        self.split: split.Split | None = None  # the implementation's fixed split, in force in every test
        self.began = time.monotonic()  # the platform files' execution time

    @classmethod
    def of(cls, config: pytest.Config) -> KataRun:
        return config.pluginmanager.get_plugin(cls.NAME)

    def pattern_fixed(self, implementation):
        """The implementation as tests see it: behind spec.fixed_pattern.PatternFixed when it declares
        the split pattern it always uses (a bad declaration is a usage error, said once); the oracle then
        splits with that pattern in every test (spec/oracle/split.py)."""
        fixed = fixed_split.declared(implementation, self._refuse)
        if fixed is None:
            return implementation
        self.split = fixed
        split.put(self.split)  # the running test's too: its fixtures asked first
        return fixed_pattern.PatternFixed(implementation, fixed.pattern, self._refuse)

    def _refuse(self, reason: str):
        """A call the running test cannot be judged on (bpe_kata/run/fixed_split.py)."""
        fixed_split.refuse(self.current_item, reason)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        """Remember the running test, and put the implementation's fixed split in force for it."""
        self.current_item = item
        try:
            with split.splitting_with(self.split):
                return (yield)
        finally:
            self.current_item = None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item):
        """A property whose every example called with another split is "not started" with that reason. A failed
        test is run again for evidence (bpe_kata/verdict/reruns.py): swaps of operations, calls in another form."""
        try:
            return (yield)
        except (hypothesis.errors.Unsatisfiable, hypothesis.errors.FailedHealthCheck):
            if fixed_split.REFUSED not in item.stash:
                raise
            outcomes.skip(item, Outcome.FEATURE_NOT_STARTED, item.stash[fixed_split.REFUSED])
        except (Exception, pytest.fail.Exception) as error:
            def rerun() -> None:  # its failed asserts explained as the first run's are: a diff of two
                with bounded_diff.bounded_explanations(item.config):  # 100,000-id lists took minutes
                    item.runtest()
            found, behind = reruns.after_failure(self.implementation, self.pattern_fixed, claims_of(item), error, rerun,
                                                 property=getattr(item.obj, "is_hypothesis_test", False),
                                                 replay_of=example_replay.replayer(item, rerun))
            if found is not None:
                self.evidence[item.nodeid] = found
            example_replay.strip_blob_notes(error, behind)
            if behind is not None:  # a failed check behind a crash (bpe_kata/verdict/equivalent_forms.py)
                raise behind from None
            raise

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if isinstance(self.implementation, isolated_client.IsolatedImplementation):
            self.implementation.close()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Keep the tests of ``--level`` and ``--claim``, and group those sharing an expensive fixture
        (bpe_kata/run/collection.py). xdist reads the marks in this same hook, hence tryfirst."""
        collection.select(config, items)
        tracebacks.install(config, items)  # --tb=short: the implementation's frames only (verdict/tracebacks.py)
        for item in items:
            self.listed_ids[item] = item.nodeid
        collection.group(items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids) -> None:
        """The controller learns the selected tests from its workers (it collects none itself)."""
        self.tracker.selected.update(ids)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """An isolated run's xdist worker takes a CPU of its own, which the children it starts share
        (bpe_kata/run/cpu_pairs.py): in a process that runs tests, not an xdist controller, nor under
        --collect-only. The child itself starts when the first test needs it."""
        config = session.config
        malformed.reset()  # the tables another run's implementation returned are not this one's
        if (isinstance(self.implementation, isolated_client.IsolatedImplementation) and not config.option.collectonly
                and not config.pluginmanager.hasplugin("dsession")):
            cpu_pairs.pin_worker(getattr(config, "workerinput", None))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """``--bpe-list-tests FILE``: every selected test with its level, claims and corpus need."""
        if not run_status.is_worker(session.config):
            self.tracker.selected.update(item.nodeid for item in session.items)
        listing = session.config.getoption("--bpe-list-tests")
        if listing:
            collection.write_listing(listing, session.items, self.listed_ids)

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
        if call.excinfo is not None:  # a frame with no line number crashes pytest's report (tracebacks.py)
            call.excinfo = tracebacks.without_lineless_frames(call.excinfo)
        rep = yield
        fault = fault_verdicts.fault_of(call)
        if fault is not None:
            rep.user_properties.append(("bpe_fault", fault.outcome))
        if rep.failed and item.nodeid in self.log_offsets:
            log = self.implementation.child.log_since(self.log_offsets[item.nodeid]).strip()
            if log:
                rep.sections.append(("implementation stderr", log[-4000:]))
        not_implemented = rep.failed and call.excinfo is not None and judging.only_not_implemented(call.excinfo.value)
        # a course-shaped implementation's adapter refusing a call its shape cannot express (never the learner's)
        refused = course_shapes.refusal(call.excinfo.value, self.impl_value) if not_implemented else None
        if not_implemented and not refused and self._started_already(item):
            not_implemented = False  # the level's probe passed: a NotImplementedError now is a failure
            rep.sections.append(("bpe-kata", "NotImplementedError raised by a level whose probe passed: "
                                 "counted as a failure, not as 'not started'"))
        if not_implemented:
            rep.outcome = "skipped"
            where = str(call.excinfo.traceback[-1].path) if call.excinfo.traceback else str(item.path)
            rep.longrepr = (where, 0, f"Skipped: {refused or 'not started: a function raised NotImplementedError'}")
        # The test's OWN claims (its markers) label it, whatever a fault blames: expectations are keyed on
        # them (bpe_kata/verdict/expectations.py, excusing), so a child cannot choose what its failures are
        # charged to. The claims a fault blames go in its verdict only.
        level, claims = level_of(item), claims_of(item)
        outcome = outcomes.decide(item, rep, not_implemented)
        if refused and outcome is Outcome.NOT_STARTED:
            outcome = Outcome.FEATURE_NOT_STARTED
        if outcome is not None and (level or claims):
            outcomes.label(item, rep, outcome)
        if level:
            rep.user_properties.append(("bpe_level", level))
        if claims:
            rep.user_properties.append(("claims", " ".join(claims)))
        if (level or claims) and rep.when == "call":
            rep.user_properties.append(("bpe_calls", str(recording.count())))
            rep.user_properties.append(("bpe_answered", " ".join(recording.answered())))
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
        """Attach the verdict (bpe_kata/verdict/judging.py): which claims a failed assertion breaks, or the
        error's root cause."""
        if rep.failed and call.excinfo is not None and (level_of(item) or claims):
            verdict = failure_verdict.of_failure(call, claims, self.implementation, rep.longreprtext,
                                                 self.evidence.pop(item.nodeid, ((), ())))
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
            if "bpe_calls" in properties:
                self.results.calls[report.nodeid] = int(properties["bpe_calls"])
            self.results.answered.update(properties.get("bpe_answered", "").split())

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config: pytest.Config) -> None:
        if not self.results.any_level_results():
            return
        self._diagnose()
        info = report.run_info(self.impl_value, self.implementation)
        for line in summary.render_table(self.results, info, tracebacks.hint(config)):
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
        required = config.getoption("--require-data")
        status = run_status.exit_status(int(exitstatus), complete, judgement, tracker,
                                        config.getoption("--strict-expect"), required)
        self.verdict_lines = (run_status.verdict_lines(tracker, judgement, complete)
                              + missing_data.verdict_lines(tracker.missing_data, required))
        self._write_expectations()
        target, page = config.getoption("--bpe-report", None), config.getoption("--bpe-html", None)
        platforms = {option: config.getoption(option, None)
                     for option in (platform_outputs.POINTS_OPTION, *platform_outputs.OUTPUT_OPTIONS)}
        if target or page or platform_outputs.asked(platforms):
            if int(exitstatus) != run_status.INTERRUPTED:  # a wall limit interrupted it: write, call nothing
                self._diagnose()
            info = {**report.run_info(self.impl_value, self.implementation),
                    **report.run_record(self.config, tracker, results, self.implementation, judgement, complete,
                                         status, int(exitstatus))}
            if target:
                report.write_json(Path(target), results, info)
            if page:
                from bpe_kata.verdict import html_report

                html_report.write(Path(page), report.as_json(results, info))
            if platform_outputs.asked(platforms):  # Gradescope, Classroom, JUnit per level, Exercism
                platform_outputs.write_all(platforms, report.as_json(results, info), time.monotonic() - self.began)
        session.exitstatus = status

    def _diagnose(self) -> None:
        """Probe the implementation for the mistakes its broken claims point to (bpe_kata/verdict/teaching.py)."""
        if not self.diagnosed:
            self.diagnosed = True
            self.results.reproduced = crash_probes.probe(self.results, self.implementation)
            self.results.pattern_fixed = pattern_probe.probe(self.results, self.implementation)
            self.results.fixed_split = self._declared_split()
            self.results.diagnoses = teaching.diagnose(self.results.broken_claims(), self.implementation)

    def _declared_split(self) -> str | None:
        """The split the implementation declares, read here: under xdist the controller never runs a test's
        fixtures, so the split the workers put in force is not known to it (held out: fix first ignored it)."""
        if self.split is not None:
            return self.split.pattern
        try:
            return fixed_pattern.fixed_pattern(self.implementation) if self.implementation is not None else None
        except fixed_pattern.BadFixedPattern:
            return None

    def _write_expectations(self) -> None:
        target = self.config.getoption("--write-expect")
        if target:
            entries = run_status.starting_entries(self.results.by_test, self.results.failures)
            (Path(self.config.invocation_params.dir) / target).write_text(expectations.dumps(entries), encoding="utf-8")
