"""Children a spec test starts itself, whatever the run's mode: a fresh process for the tests that need one
(the hash-seed test), and the memory test's child under an address-space limit."""

from __future__ import annotations

import os
import subprocess
import tempfile

import pytest

from bpe_kata.child.client import IsolatedImplementation, python_path_env, server_command
from bpe_kata.child.faults import TooSlow
from bpe_kata.child.launch import python_value, start


def is_isolated(config: pytest.Config, value: str) -> bool:
    return value.startswith("cmd:") or bool(config.getoption("--isolated"))


def spawn(config: pytest.Config, value: str, *, env_changes: dict[str, str] | None = None,
          file_size_limit: int | None = None) -> IsolatedImplementation:
    """A fresh child for the implementation, whatever the run's mode (for tests that need a process)."""
    try:
        return start(value, cwd=config.invocation_params.dir, isolated=True, env_changes=env_changes,
                     call_timeout=config.getoption("--call-timeout"), file_size_limit=file_size_limit)
    except ValueError as error:
        raise pytest.UsageError(f"--impl {value}: {error}") from None


def encode_iterable_memory(config: pytest.Config, value: str, request: dict, timeout: float) -> dict | None:
    """The measurement of bpe_kata/child/iterable_memory.py ``encode_iterable_memory`` for the implementation
    ``value``, in a child of its own (the shipped server, its environment and sandbox as ``start`` gives them): its
    answer, or what it reported before it died with ``"error"`` saying how; ``TooSlow`` past ``timeout`` or the
    test's budget, whichever ends first. None for a ``cmd:`` value: the protocol carries an iterable whole, so a
    lazy input cannot reach a program of another language."""
    from bpe_kata.child import protocol
    from bpe_kata.child.deadlines import TEST_DEADLINE
    from bpe_kata.child.iterable_memory import MEMORY_FLAG

    if value.startswith("cmd:"):
        return None
    cwd = config.invocation_params.dir
    from bpe_kata.child import sandbox

    box = sandbox.Sandbox.from_env()
    if box is None:
        env = python_path_env()
    else:
        env = box.environment({"PYTHONPATH": python_path_env({})["PYTHONPATH"]})
    command = server_command(python_value(cwd, value))
    command[-1:-1] = [MEMORY_FLAG]
    left = TEST_DEADLINE.remaining()
    timeout = max(min(timeout, left), 0.1) if left is not None else timeout
    with tempfile.TemporaryFile() as log:
        try:
            done = subprocess.run(command, input=protocol.encode_line(request), stdout=subprocess.PIPE, stderr=log,
                                  cwd=cwd, env=env, timeout=timeout, start_new_session=True,
                                  preexec_fn=(lambda: box.preexec()) if box is not None else None)
        except subprocess.TimeoutExpired:  # slowness is no claim's value: a root cause, like any child's call
            raise TooSlow(f"encode_iterable({request.get('characters', 0):,} characters of short lines, the memory "
                          f"test) was still running after {timeout:g} s; the child was stopped") from None
        log.seek(max(log.seek(0, os.SEEK_END) - 2000, 0))
        tail = log.read().decode("utf-8", "replace").strip()
    answer: dict = {}
    for line in done.stdout.splitlines():  # what it measured as it went, then its answer
        try:
            answer.update(protocol.decode_line(line))
        except ValueError:
            break
    if not answer.get("done"):
        status = f"killed by signal {-done.returncode}" if done.returncode < 0 else f"exit status {done.returncode}"
        answer["error"] = (f"the child died without answering ({status})"
                           + (f"; its stderr ends with:\n{tail}" if tail else ""))
    return answer
