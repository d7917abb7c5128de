"""Data a run needs and does not have is the run's set-up problem, never the implementation's failure.

The rule, for every test however it reached the data (a fixture, a helper, a cached error): a
test stopped by ``DataUnavailable`` (bpe_kata/data/unavailable.py: a corpus or a published table
missing, not downloadable, or not the published bytes) is "not run", with the error's one line as
its reason; the line is shown once in the run's summary, however many tests it stopped. A run
that requires its data (``--require-data``; the gate sets it) then has no verdict: after the level
table each distinct line is printed once more and the run exits 2, a set-up error, not 1.

The line travels on the test's report as the user property ``bpe_missing_data``, so the
pytest-xdist controller, which decides the exit status, learns it from its workers.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from bpe_kata.data.unavailable import DataUnavailable

#: The user property carrying a not-run test's missing-data line.
PROPERTY = "bpe_missing_data"

#: The exit status of a run that requires data it does not have: a set-up error.
SETUP_ERROR = 2


@pytest.hookimpl(wrapper=True, trylast=True)  # innermost: the plugin's labelling sees a skip, never a failure
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    rep = yield
    error = call.excinfo.value if call.excinfo is not None else None
    if rep.failed and isinstance(error, DataUnavailable):
        line = error.line()
        rep.outcome = "skipped"
        rep.longrepr = (str(item.path), 0, f"Skipped: not run: {line}")
        rep.user_properties.append((PROPERTY, line))
    return rep


def line_of(report: pytest.TestReport) -> str | None:
    """The missing-data line a report carries, if it is a test not run for missing data."""
    return dict(report.user_properties).get(PROPERTY) if report.skipped else None


def verdict_lines(lines: Iterable[str], required: bool) -> list[str]:
    """What a run that requires its data prints last when some is missing (nothing otherwise)."""
    if not required:
        return []
    return [f"bpe-kata: no verdict, the run requires data it does not have (exit status {SETUP_ERROR}): {line}"
            for line in sorted(set(lines))]
