"""The heavy group (issue 27): left out of a plain `pytest`, never silently: the run says so, CI runs it,
and the README names it with its time."""

from __future__ import annotations

import pytest

from tests import conftest as suite_conftest
from tests.support import REPO_ROOT


class Options:
    def __init__(self, **values) -> None:
        self.values = values
        self.stash = pytest.Stash()

    def getoption(self, name: str, default=None):
        return self.values.get(name, default)


class Reporter:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def write_line(self, line: str, **_markup) -> None:
        self.lines.append(line)


@pytest.mark.parametrize(("options", "left_out"), [
    ({}, True),
    ({"markexpr": ""}, True),
    ({"markexpr": "not corpus"}, True),
    ({"markexpr": "heavy"}, False),
    ({"markexpr": "heavy and not corpus"}, False),
    ({"heavy": True}, False),
])
def test_only_a_plain_run_leaves_the_heavy_group_out(options, left_out):
    assert suite_conftest.heavy_left_out(Options(**options)) is left_out


def test_a_run_that_left_heavy_tests_out_says_how_many_and_how_to_run_them():
    config, reporter = Options(), Reporter()
    config.stash[suite_conftest.HEAVY_LEFT_OUT] = 7
    suite_conftest.pytest_terminal_summary(reporter, 0, config)
    [line] = reporter.lines
    assert "7 tests not run" in line and "pytest -m heavy" in line and suite_conftest.HEAVY_GROUP_TIME in line


def test_under_xdist_the_workers_count_reaches_the_summary():
    config, reporter = Options(), Reporter()

    class Worker:
        def __init__(self, count: int) -> None:
            self.config, self.workeroutput = config, {"heavy_left_out": count}

    for count in (5, 5):
        suite_conftest.pytest_testnodedown(Worker(count), None)
    suite_conftest.pytest_terminal_summary(reporter, 0, config)
    assert len(reporter.lines) == 1 and "5 tests not run" in reporter.lines[0]


def test_nothing_is_said_when_nothing_was_left_out_or_the_group_was_asked_for():
    for config in (Options(), Options(heavy=True)):
        config.stash[suite_conftest.HEAVY_LEFT_OUT] = 0 if not config.values else 3
        reporter = Reporter()
        suite_conftest.pytest_terminal_summary(reporter, 0, config)
        assert reporter.lines == []


def test_ci_runs_the_heavy_group_and_the_readme_names_it_with_its_time():
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in ci.splitlines() if line.strip().startswith("pytest")]
    assert any(" -m heavy" in command for command in commands), commands
    assert any(" -m " not in command for command in commands), commands  # the README's plain run too
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "pytest -m heavy" in readme and suite_conftest.HEAVY_GROUP_TIME in readme
