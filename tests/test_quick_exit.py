"""The quick end of a pytest-xdist worker (bpe_kata/run/quick_exit.py): only where nothing needs the
normal shutdown, and never losing what the worker printed or the exit handlers registered after it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from bpe_kata.run import quick_exit

WORKER = {"PYTEST_XDIST_WORKER": "gw0"}


@pytest.mark.parametrize("environ, expected", [
    (WORKER, True),
    ({}, False),  # the controller, or a run without xdist: it prints the verdict after the workers end
    ({**WORKER, quick_exit.KEEP_ENV: "1"}, False),
])
def test_only_a_worker_ends_quickly(environ, expected, monkeypatch):
    monkeypatch.delitem(sys.modules, "coverage", raising=False)
    monkeypatch.setattr(sys, "gettrace", lambda: None)
    assert quick_exit.wanted(environ) is expected


def test_a_worker_under_coverage_or_a_tracer_shuts_down_normally(monkeypatch):
    monkeypatch.setattr(sys, "gettrace", lambda: None)
    monkeypatch.setitem(sys.modules, "coverage", object())
    assert not quick_exit.wanted(WORKER)
    monkeypatch.delitem(sys.modules, "coverage")
    monkeypatch.setattr(sys, "gettrace", lambda: print)
    assert not quick_exit.wanted(WORKER)


PROGRAM = textwrap.dedent("""
    import atexit, sys
    from bpe_kata.run import quick_exit
    atexit.register(lambda: print("registered before: runs only in a normal shutdown", flush=True))
    print("armed:", quick_exit.arm())
    atexit.register(lambda: print("registered after: runs first"))
    sys.stdout.write("buffered, no newline")
""")


@pytest.mark.parametrize("worker", [True, False])
def test_the_quick_exit_flushes_output_and_runs_the_handlers_after_it(worker):
    env = {key: value for key, value in os.environ.items() if key not in (*WORKER, quick_exit.KEEP_ENV)}
    env.update(WORKER if worker else {})
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env,
                          cwd=quick_exit.__file__.rsplit("/bpe_kata/", 1)[0], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"armed: {worker}\n")
    assert "buffered, no newline" in done.stdout and "registered after: runs first" in done.stdout
    assert ("registered before: runs only in a normal shutdown" in done.stdout) is not worker
