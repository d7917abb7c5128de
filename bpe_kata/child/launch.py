"""The one route to an implementation, for the plugin and the tools alike: a Python value imported
in process, or a child process (``--isolated``, ``--impl cmd:...``) behind the stdio protocol.
The sandbox is imported only when a child is started, so a learner's in-process run never loads it.

In-process runs import the implementation into pytest itself: fast, and fine for a learner,
but the implementation could then change the verdict. Isolated runs keep it in a child
(bpe_kata.child.client) and turn whatever the child does wrong into a failed test.
"""

from __future__ import annotations

import os
from pathlib import Path

from bpe_kata.child.client import (
    DEFAULT_CALL_TIMEOUT,
    IsolatedImplementation,
    parse_command,
    python_path_env,
    server_command,
)
from bpe_kata.impl import course_shapes
from bpe_kata.impl.loader import load_implementation


def python_value(cwd: str | os.PathLike, value: str) -> str:
    """A Python ``--impl`` value as a child can load it: paths made absolute."""
    if value.startswith(course_shapes.PREFIXES):
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
    from bpe_kata.child import sandbox

    box = sandbox.Sandbox.from_env()  # set by the supervisor (bpe_kata.gate.supervisor) for its verdict process
    if box is None:
        env = {**python_path_env(), **(env_changes or {})}
    else:  # the allow-list, never this process's environment (no tokens, no secrets)
        env = box.environment({"PYTHONPATH": python_path_env({})["PYTHONPATH"], **(env_changes or {})})
    return IsolatedImplementation(command_of(cwd, value), name=value, cwd=cwd, env=env, call_timeout=call_timeout,
                                  file_size_limit=file_size_limit, sandbox=box)
