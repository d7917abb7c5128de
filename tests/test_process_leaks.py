"""The suite's own check that no test leaves a process behind (tests/conftest.py, pytest_sessionfinish)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import LEAK_MARK, processes_marked
from tests.support import REPO_ROOT

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="the check reads Linux's /proc")

CONFTEST = textwrap.dedent(f'''
    import sys
    sys.path.insert(0, {str(REPO_ROOT)!r})
    from tests.conftest import pytest_configure, pytest_sessionfinish  # the suite's own check, alone
''')


def nested(tmp_path: Path, test_body: str) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_it.py").write_text(textwrap.dedent(test_body), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != LEAK_MARK}  # a run of its own
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-p", "no:randomly", str(tmp_path / "test_it.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.heavy
def test_a_run_whose_test_leaves_a_detached_process_fails_and_names_it(tmp_path):
    done = nested(tmp_path, '''
        import subprocess, sys
        def test_starts_and_forgets():
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)  # left-behind"],
                             start_new_session=True)
    ''')
    assert done.returncode == 1, done.stdout + done.stderr
    assert "were still running at its end" in done.stdout and "left-behind" in done.stdout
    time.sleep(0.5)
    assert not [command for command in _all_commands() if "left-behind" in command]  # and it was killed


@pytest.mark.heavy
def test_a_run_that_stops_what_it_starts_passes(tmp_path):
    done = nested(tmp_path, '''
        import subprocess, sys
        def test_starts_and_stops():
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
            child.kill()
            child.wait()
    ''')
    assert done.returncode == 0, done.stdout + done.stderr


def test_this_run_is_marked_so_its_leaks_are_found():
    """The mark is set by the run's own process (or inherited by an xdist worker) and found in a child."""
    assert os.environ.get(LEAK_MARK)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        deadline = time.monotonic() + 10
        while child.pid not in processes_marked(os.environ[LEAK_MARK]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert child.pid in processes_marked(os.environ[LEAK_MARK])
    finally:
        child.kill()
        child.wait()


def _all_commands() -> list[str]:
    commands = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            commands.append(cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue
    return commands
