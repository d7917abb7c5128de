"""The one route to an implementation, for the plugin and the tools alike: a Python value imported
in process, or a child process (``--isolated``, ``--impl cmd:...``) behind the stdio protocol.

In-process runs import the implementation into pytest itself: fast, and fine for a learner,
but the implementation could then change the verdict. Isolated runs keep it in a child
(bpe_kata.child.client) and turn whatever the child does wrong into a failed test.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from bpe_kata.child import sandbox
from bpe_kata.child.client import (
    DEFAULT_CALL_TIMEOUT,
    ChangedInput,
    ChildExited,
    IsolatedImplementation,
    IsolationFault,
    parse_command,
    python_path_env,
    server_command,
)
from bpe_kata.child.faults import TooSlow
from bpe_kata.run import judging
from bpe_kata.run.loader import load_implementation
from spec.faults import changed_input_claims


def python_value(cwd: str | os.PathLike, value: str) -> str:
    """A Python ``--impl`` value as a child can load it: paths made absolute."""
    if value.startswith(("cs336:", "minbpe:")):
        from bpe_kata.adapters import course_shapes

        return course_shapes.absolute(value, cwd)
    candidate = Path(cwd) / value
    return str(candidate.resolve()) if ("/" in value or value.endswith(".py")) and candidate.exists() else value


def command_of(cwd: str | os.PathLike, value: str) -> list[str]:
    """The command that serves the implementation: ``cmd:`` as given, else the shipped Python server.
    Raises ValueError for a ``cmd:`` value that is not a command."""
    command = parse_command(value)
    return command if command is not None else server_command(python_value(cwd, value))


def start(value: str, *, cwd: str | os.PathLike, isolated: bool = False, call_timeout: float = DEFAULT_CALL_TIMEOUT,
          env_changes: dict[str, str] | None = None, file_size_limit: int | None = None):
    """The implementation ``value`` names: imported here, or for ``cmd:`` values and ``isolated`` a child
    (started on first use; ``connect()`` it to start it now). Raises ImplementationNotFound or ValueError."""
    if not (isolated or value.startswith("cmd:")):
        return load_implementation(value)
    box = sandbox.Sandbox.from_env()  # set by the supervisor (bpe_kata.child.supervisor) for its verdict process
    if box is None:
        env = {**python_path_env(), **(env_changes or {})}
    else:  # the allow-list, never this process's environment (no tokens, no secrets)
        env = box.environment({"PYTHONPATH": python_path_env({})["PYTHONPATH"], **(env_changes or {})})
    return IsolatedImplementation(command_of(cwd, value), name=value, cwd=cwd, env=env, call_timeout=call_timeout,
                                  file_size_limit=file_size_limit, sandbox=box)


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
    """The measurement of bpe_kata/child/server.py ``encode_iterable_memory`` for the implementation ``value``, in
    a child of its own (the shipped server, its environment and sandbox as ``start`` gives them): its answer, or
    what it reported before it died with ``"error"`` saying how; ``TooSlow`` past ``timeout`` or the test's
    budget, whichever ends first. None for a ``cmd:`` value: the protocol carries an iterable whole, so a lazy
    input cannot reach a program of another language."""
    from bpe_kata.child import protocol
    from bpe_kata.child.process import TEST_DEADLINE
    from bpe_kata.child.server import MEMORY_FLAG

    if value.startswith("cmd:"):
        return None
    cwd = config.invocation_params.dir
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


def blamed_claims(fault: BaseException, claims: tuple[str, ...]) -> tuple[str, ...]:
    """A changed argument is the implementation breaking a claim of its own, whatever the test checked."""
    if isinstance(fault, ChangedInput):
        return changed_input_claims(fault.op, tuple(fault.names or ()))
    return claims


def fault_verdict(fault: IsolationFault, claims: tuple[str, ...], call: str = "", input: str = "") -> judging.Verdict:
    """A fault breaks the claims of the test under way (or the claim a changed input breaks): never
    "could not run", since the child, not the spec, failed to do what the protocol asks.

    A child killed by a signal is the exception (issue 37): a crash in the call under way, like an error the
    implementation raised, so a root cause with the call that crashed (``input``) and the signal, blamed on
    the behaviour that crashed (bpe_kata/run/crash_probes.py), not a failure of every claim of the test. A test
    over its budget (``TooSlow``) is a root cause too, naming the call still running, and blamed on no claim:
    slowness says nothing about a value (the claims the slow test named were failed, merge claims of ports
    with no merge among them)."""
    lines = str(fault).strip().splitlines() or [type(fault).__name__]
    if isinstance(fault, ChildExited) and "killed by signal" in lines[0]:
        what, _, message = lines[0].partition(": ")
        cause = f"crashed: {message or what}"
        call = call or (what if what in judging.OPERATIONS else "")
        return judging.Verdict(judging.ERROR, (), cause, "? (the child died: no frame)",
                               f"{cause}\n  in {input or call or 'a call'}\n" + "\n".join(lines[1:12]),
                               call=call, input=input)
    if isinstance(fault, TooSlow):  # slowness is no claim's value: a root cause naming the call, blamed on none
        what = lines[0].split(" was ", 1)[0]
        call = call or (what.partition("(")[0] if "(" in what else "")
        return judging.Verdict(judging.ERROR, (), f"too slow: {lines[0]}", "? (over the test's budget: no frame)",
                               "too slow: " + "\n".join(lines[:12]), call=call, input=input or what)
    return judging.Verdict(judging.BROKEN, claims, "", "", f"{fault.outcome}: " + "\n".join(lines[:12]))


def fault_of(call: pytest.CallInfo) -> IsolationFault | None:
    excinfo = call.excinfo
    return excinfo.value if excinfo is not None and isinstance(excinfo.value, IsolationFault) else None
