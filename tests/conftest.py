"""The suite's own fixtures and hooks; the helpers its tests import are in tests/support.py."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.support import BESIDE_FILES, assert_valid, beside_root, nested_pytest, written_kind


def _missing_beside(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("beside")
    if marker is None:
        return None
    return None if (beside_root() / marker.args[0]).exists() else marker.args[0]


HEAVY_MARKER = ("heavy: the suite's exhaustive sweeps and long-budget runs (every implementation on every level, "
                "builds, browsers, time limits): left out of a plain `pytest`, run by `pytest -m heavy` and by CI")


def pytest_addoption(parser: pytest.Parser) -> None:
    """The suite's own option (not `bpe-kata check`'s: this file is loaded only for the suite's tests)."""
    parser.addoption("--heavy", action="store_true", default=False,
                     help="also run the suite's heavy group (tests marked heavy); `-m heavy` runs only that group")


def heavy_left_out(config: pytest.Config) -> bool:
    """A plain run leaves the heavy group out; ``--heavy`` or a ``-m`` expression naming it decides otherwise."""
    return not config.getoption("heavy", False) and "heavy" not in (config.getoption("markexpr", "") or "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Checks of files that travel beside the repository (the claims inventory, the source documents)
    are left out where those files are absent: a fresh clone has nothing to skip. The heavy group is left
    out of a plain run, and counted, so the summary can say what did not run and how to run it."""
    leave_heavy_out = heavy_left_out(config)
    kept, dropped, heavy = [], [], []
    for item in items:
        if _missing_beside(item):
            dropped.append(item)
        elif leave_heavy_out and item.get_closest_marker("heavy") is not None:
            heavy.append(item)
        else:
            kept.append(item)
    if dropped or heavy:
        config.hook.pytest_deselected(items=dropped + heavy)
        items[:] = kept
    config.stash[HEAVY_LEFT_OUT] = len(heavy)
    if hasattr(config, "workeroutput"):  # an xdist worker: the controller prints the summary
        config.workeroutput["heavy_left_out"] = len(heavy)


HEAVY_LEFT_OUT = pytest.StashKey[int]()

#: Measured on the 2-core machine (benchmarks/README.md, "The suite's own tests"); said where the group is left out.
HEAVY_GROUP_TIME = "about 15 minutes on 2 shared cores"


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """The controller of an xdist run: its workers collected and counted; keep their counts."""
    counts = node.config.stash.setdefault(WORKER_HEAVY_COUNTS, {})
    counts[id(node)] = getattr(node, "workeroutput", {}).get("heavy_left_out", 0)


WORKER_HEAVY_COUNTS = pytest.StashKey[dict]()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Never silently skipped: a plain run says how many heavy tests it left out and how to run them."""
    if not heavy_left_out(config):
        return
    left_out = config.stash.get(HEAVY_LEFT_OUT, None)
    if left_out is None:  # under xdist the workers collected; each reports the same count back
        left_out = max(config.stash.get(WORKER_HEAVY_COUNTS, {}).values(), default=None)
    if not left_out:
        return
    terminalreporter.write_line(
        f"heavy group: {left_out} tests not run here ({HEAVY_GROUP_TIME}): `pytest -m heavy` runs them, "
        "`pytest --heavy` runs everything; CI always runs them", yellow=True)


def pytest_report_header(config: pytest.Config) -> list[str]:
    missing = [path for path in BESIDE_FILES if not (beside_root() / path).exists()]
    if not missing:
        return []
    return [f"note: {', '.join('../' + p for p in missing)} absent beside the repository: "
            "the checks against them are not collected (they run where the files travel with the clone, as in CI)"]


@pytest.fixture(scope="session")
def spec_tests(tmp_path_factory) -> dict[str, dict]:
    """Every collected spec test with its level and claims (collected once per session)."""
    listing = tmp_path_factory.mktemp("listing") / "tests.json"
    assert nested_pytest(["spec"], "--collect-only", "--bpe-list-tests", str(listing)) == 0
    return json.loads(listing.read_text(encoding="utf-8"))



#: Tests of the built release share one build per worker (tests/packaging.py); they run on one worker.
RELEASE_GROUP = "release"


@pytest.fixture(scope="session")
def release(tmp_path_factory):
    """The wheel and sdist built from the clone, and a fresh environment outside it with the wheel installed."""
    from tests.packaging import build_release

    if not (Path(__file__).resolve().parent.parent / ".git").exists():
        pytest.skip("needs the clone's git metadata to list what a release is built from")
    return build_release(tmp_path_factory.mktemp("release"))


# --- every report and grade table a test writes fits its schema ---------------------------------

#: Larger JSON files are left alone (none of the suite's reports is near it; a corpus table may be).
SCHEMA_SCAN_LIMIT = 20_000_000


@pytest.fixture(autouse=True)
def _written_json_fits_its_schema(request: pytest.FixtureRequest):
    """After a test that has a ``tmp_path``, the bpe-kata reports and grade tables it left there (written by
    ``check``, ``gate`` or ``grade`` in a child process too) are validated against bpe_kata/schemas."""
    folder = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    yield
    if folder is None:
        return
    for path in sorted(folder.rglob("*.json")):
        try:
            if not path.is_file() or path.stat().st_size > SCHEMA_SCAN_LIMIT:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # not ours, or a test's deliberately broken file
        kind = written_kind(data)
        if kind is not None and not path.name.startswith(("bad", "broken", "forged")):
            assert_valid(kind, data, str(path.relative_to(folder)))


# --- no test may leave a process behind ---------------------------------------------------------

#: Set once per suite run and inherited by every process its tests start, however they detach
#: (a new session, a dead parent): what still carries it when the run ends was left behind.
LEAK_MARK = "BPE_KATA_SUITE_RUN"


def processes_marked(mark: str) -> dict[int, str]:
    """Live processes (other than this one) whose environment carries ``LEAK_MARK=mark``: pid -> command."""
    needle = f"{LEAK_MARK}={mark}".encode()
    found = {}
    for environ in Path("/proc").glob("[0-9]*/environ"):
        pid = int(environ.parent.name)
        if pid == os.getpid():
            continue
        try:
            if needle in environ.read_bytes().split(b"\0"):
                found[pid] = (environ.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
    return found


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", HEAVY_MARKER)
    # Only the run's own process sets the mark: an xdist worker or a nested pytest.main inherits
    # it, and under mutmut (its forked children share one process tree) the check stays off.
    if hasattr(config, "workerinput") or LEAK_MARK in os.environ or "mutmut" in sys.modules \
            or not Path("/proc/self/environ").exists():
        return
    os.environ[LEAK_MARK] = uuid.uuid4().hex
    config.stash[LEAK_KEY] = os.environ[LEAK_MARK]


LEAK_KEY = pytest.StashKey[str]()


@pytest.hookimpl(trylast=True)  # after xdist has stopped its workers
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when its tests left processes running (they are killed, and named)."""
    mark = session.config.stash.get(LEAK_KEY, None)
    if mark is None:
        return
    deadline = time.monotonic() + 10  # xdist workers and children being reaped take a moment
    leaked = processes_marked(mark)
    while leaked and time.monotonic() < deadline:
        time.sleep(0.2)
        leaked = processes_marked(mark)
    # An xdist (execnet) worker still shutting down is not a leak.
    leaked = {pid: command for pid, command in leaked.items() if "exec(eval(sys.stdin.readline()))" not in command}
    if not leaked:
        return
    for pid in leaked:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"  pid {pid}: {command[:160]}" for pid, command in sorted(leaked.items())]
    message = (f"{len(leaked)} process(es) started by this run's tests were still running at its end "
               "(now killed); a test must stop what it starts:\n" + "\n".join(lines))
    if reporter is not None:
        reporter.write_line(message, red=True)
    else:
        print(message, file=sys.stderr)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
