"""A pytest plugin that says where the suite's CPU time goes: per test, the CPU seconds of its process and of
the child processes it waited for, and how many nested spec runs (``pytest.main``) it made.

Wall-clock durations (``--durations``) mislead on a shared machine: a test waiting for a busy core looks
slow. CPU seconds do not. ``benchmarks/bench_suite.py --where`` loads this plugin and prints the totals per
file; on its own::

    pytest -p benchmarks.cpu_per_test --cpu-report cpu.json [-m heavy]

Under pytest-xdist each worker writes its own ``cpu.json.<worker>``; ``totals()`` reads them all.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections import Counter
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-report", default=None, metavar="FILE",
                     help="write each test's CPU seconds (its process and reaped children) and nested runs to FILE")


def _cpu() -> float:
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


class CpuPerTest:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[str, dict[str, float]] = {}
        self.nested = 0
        original = pytest.main

        def counted_main(*args, **kwargs):
            self.nested += 1
            return original(*args, **kwargs)

        pytest.main = counted_main

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        before, nested = _cpu(), self.nested
        try:
            return (yield)
        finally:
            self.rows[item.nodeid] = {"cpu": _cpu() - before, "nested_runs": self.nested - nested}

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        target = self.path.with_name(f"{self.path.name}.{worker}") if worker else self.path
        target.write_text(json.dumps(self.rows), encoding="utf-8")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--cpu-report")
    if path and _runs_tests(config) and config.pluginmanager.get_plugin("cpu-per-test") is None:
        config.pluginmanager.register(CpuPerTest(Path(path).resolve()), "cpu-per-test")


def _runs_tests(config: pytest.Config) -> bool:
    """The process that runs the tests: an xdist worker, or the only process of a run without workers."""
    return hasattr(config, "workerinput") or not config.getoption("numprocesses", None)


def totals(path: Path) -> tuple[dict[str, float], dict[str, int]]:
    """CPU seconds and nested runs per test file, from every worker's file."""
    cpu: Counter[str] = Counter()
    nested: Counter[str] = Counter()
    for part in sorted(path.parent.glob(path.name + "*")):
        for nodeid, row in json.loads(part.read_text(encoding="utf-8")).items():
            file = nodeid.split("::")[0]
            cpu[file] += row["cpu"]
            nested[file] += row["nested_runs"]
    return dict(cpu), dict(nested)
