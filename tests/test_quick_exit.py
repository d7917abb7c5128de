"""The quick end of a pytest-xdist worker and of the ``bpe-kata`` command (bpe_kata/run/quick_exit.py): only
where nothing needs the normal shutdown, and never losing what was printed or an exit handler."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from bpe_kata.run import quick_exit

WORKER = {"PYTEST_XDIST_WORKER": "gw0"}


class Config:
    """A pytest config as xdist leaves it: a worker's has ``workerinput``."""

    def __init__(self, worker: bool) -> None:
        if worker:
            self.workerinput = {"workerid": "gw0"}


@pytest.fixture
def untraced(monkeypatch):
    monkeypatch.delitem(sys.modules, "coverage", raising=False)
    monkeypatch.setattr(sys, "gettrace", lambda: None)
    monkeypatch.setattr(sys, "getprofile", lambda: None)


@pytest.mark.parametrize("worker, environ, expected", [
    (True, {}, True),
    (False, {}, False),  # the controller, or a run without xdist: it prints the verdict after the workers end
    (False, WORKER, False),  # a run started from inside a worker inherits its variable, not its role
    (True, {quick_exit.KEEP_ENV: "1"}, False),
])
def test_only_a_worker_ends_quickly(untraced, worker, environ, expected):
    assert quick_exit.wanted(Config(worker), environ) is expected


def test_only_a_process_that_ends_with_the_run_freezes_its_heap_before_the_last_collection(untraced, monkeypatch):
    """A quick-ending worker, or the run of the ``bpe-kata`` command itself; never a run whose caller goes on
    (a test calling cli.main), whose heap must still be collected afterwards."""
    monkeypatch.delenv(quick_exit.KEEP_ENV, raising=False)
    assert quick_exit.ending(Config(True))
    assert not quick_exit.ending(Config(False))
    monkeypatch.setattr(quick_exit, "command_ends_process", True)
    assert quick_exit.ending(Config(False))


def test_a_worker_under_coverage_a_tracer_or_a_profiler_shuts_down_normally(monkeypatch, untraced):
    monkeypatch.setitem(sys.modules, "coverage", object())
    assert not quick_exit.wanted(Config(True), {})
    monkeypatch.delitem(sys.modules, "coverage")
    monkeypatch.setattr(sys, "gettrace", lambda: print)
    assert not quick_exit.wanted(Config(True), {})
    monkeypatch.setattr(sys, "gettrace", lambda: None)
    monkeypatch.setattr(sys, "getprofile", lambda: print)  # cProfile: its file is written at a normal exit
    assert not quick_exit.wanted(Config(True), {})


PROGRAM = textwrap.dedent("""
    import atexit, sys
    from bpe_kata.run import quick_exit

    class Held:
        \"\"\"Freed by the module teardown of a normal shutdown only.\"\"\"
        def __del__(self):
            print("freed at teardown", flush=True)

    held = Held()
    atexit.register(lambda: print("handler registered before", flush=True))
    class Config:
        pass
    config = Config()
    if len(sys.argv) > 1:
        config.workerinput = {}
    print("armed:", quick_exit.arm(config))
    atexit.register(lambda: print("handler registered after"))
    sys.stdout.write("buffered, no newline")
""")


@pytest.mark.parametrize("worker", [True, False])
def test_the_quick_exit_runs_every_exit_handler_and_flushes_output_but_skips_the_teardown(worker):
    env = {key: value for key, value in os.environ.items() if key != quick_exit.KEEP_ENV}
    done = subprocess.run([sys.executable, "-c", PROGRAM, *(["worker"] if worker else [])], capture_output=True,
                          text=True, env=env, cwd=quick_exit.__file__.rsplit("/bpe_kata/", 1)[0], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"armed: {worker}\n")
    for line in ("buffered, no newline", "handler registered before", "handler registered after"):
        assert line in done.stdout
    assert ("freed at teardown" in done.stdout) is not worker


@pytest.mark.parametrize("workers", ["0", pytest.param("2", marks=pytest.mark.heavy)])
def test_a_run_started_inside_a_worker_keeps_its_exit_status(workers):
    """``bpe-kata check`` of a known-wrong implementation fails with status 1, also where the environment
    says it runs in a pytest-xdist worker (a test of this suite shelling out) and with its own workers."""
    from tests.support import REPO_ROOT

    env = {**os.environ, **WORKER}
    env.pop(quick_exit.KEEP_ENV, None)
    wrong = "tests/implementations/wrong_merge_mutates.py"
    done = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", wrong, "--level", "merge", "-q",
                           "-p", "no:cacheprovider", "-n", workers], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "FAILED" in done.stdout


COMMAND = textwrap.dedent("""
    import atexit, sys, threading, time
    from bpe_kata.run import quick_exit

    class Held:
        def __del__(self):
            print("freed at teardown", flush=True)

    held = Held()
    atexit.register(lambda: print("handler ran"))
    if "thread" in sys.argv:
        threading.Thread(target=time.sleep, args=(0.3,)).start()

    sys.stdout.write("buffered, no newline")
    quick_exit.end_command(3)
""")


@pytest.mark.parametrize("case, quick", [("plain", True), ("thread", False), ("keep", False)])
def test_the_console_script_ends_with_its_status_after_its_handlers(case, quick):
    """``bpe-kata`` (cli.run) ends with the command's status, its exit handlers run and its output flushed;
    the teardown is skipped unless another thread still runs (a normal exit waits for it) or it is asked for."""
    env = {key: value for key, value in os.environ.items() if key != quick_exit.KEEP_ENV}
    if case == "keep":
        env[quick_exit.KEEP_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", COMMAND, case], capture_output=True, text=True, env=env,
                          cwd=quick_exit.__file__.rsplit("/bpe_kata/", 1)[0], timeout=60)
    assert done.returncode == 3, done.stderr
    assert "buffered, no newline" in done.stdout and "handler ran" in done.stdout
    assert ("freed at teardown" in done.stdout) is not quick


def test_the_console_script_is_cli_run():
    """The installed ``bpe-kata`` goes through the quick end; ``cli.main`` returns, for callers that go on."""
    import tomllib

    from tests.support import REPO_ROOT

    scripts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"bpe-kata": "bpe_kata.cli:run"}


def test_under_cprofile_the_console_script_exits_normally_and_the_profile_is_written(tmp_path):
    """``python -m cProfile -o FILE -m bpe_kata.cli ...`` writes FILE at a normal exit only."""
    script, profile = tmp_path / "command.py", tmp_path / "out.prof"
    script.write_text(COMMAND, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != quick_exit.KEEP_ENV}
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), str(script)], capture_output=True,
                          text=True, env=env, cwd=quick_exit.__file__.rsplit("/bpe_kata/", 1)[0], timeout=60)
    assert "handler ran" in done.stdout, done.stderr
    assert profile.is_file() and profile.stat().st_size > 0


@pytest.mark.parametrize("status, code", [("None", 0), ("'a message'", 1), ("5", 5)])
def test_a_status_that_is_not_an_int_is_read_as_sys_exit_reads_it(status, code):
    program = f"from bpe_kata.run import quick_exit\nquick_exit.end_command({status})"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                          cwd=quick_exit.__file__.rsplit("/bpe_kata/", 1)[0])
    assert done.returncode == code, done.stderr
