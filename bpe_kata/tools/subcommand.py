"""How a tool runs as a ``bpe-kata`` subcommand: ``Stop``, the ``@tool`` wrapper, the implementation it connects
and its console, shared by the subcommand modules (inspect_commands.py, batch_commands.py).

Each subcommand is ``(argv) -> exit status`` (bpe_kata/cli.py holds the one table of subcommands); ``@tool`` turns
a tool's ``Stop``, a missing extra or a closed pipe into its message and exit status.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable

from bpe_kata.impl.loader import DEFAULT_IMPL
from bpe_kata.tools.extras import MissingExtra, require
from bpe_kata.tools.tables import TableError

DEFAULT_TABLE = "tinyshakespeare:512"


class Stop(Exception):
    """End the command with this message and exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def tool(function: Callable[[list[str]], int]) -> Callable[[list[str]], int]:
    """A tool as the command line runs it: a ``Stop`` or a missing extra becomes its message and exit
    status; a closed pipe (``| head``: the reader has all it wanted) ends it quietly."""
    @functools.wraps(function)
    def command(argv: list[str]) -> int:
        try:
            return function(argv)
        finally:
            _close_children()
    return with_messages(command, function.__name__)


#: Children the running command connected (a ``cmd:`` implementation): closed when the command ends, so a
#: command called in-process (the suite's tests, another tool) leaves no child behind.
_CHILDREN: list = []


def _close_children() -> None:
    while _CHILDREN:
        _CHILDREN.pop().close()


def with_messages(command: Callable[[list[str]], int], name: str) -> Callable[[list[str]], int]:
    """``Stop``, a missing extra and a closed pipe as the command line shows them."""
    @functools.wraps(command)
    def messages(argv: list[str]) -> int:
        try:
            return command(argv)
        except Stop as stop:
            print(f"bpe-kata {name}: {stop}", file=sys.stderr)
            return stop.status
        except MissingExtra as error:
            print(str(error), file=sys.stderr)
            return 2
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0

    return messages


def open_impl(value: str | None):
    """The implementation by the plugin's route (bpe_kata/child/launch.py): a ``cmd:`` one connected, and
    closed when the command ends."""
    from bpe_kata.child import launch
    from bpe_kata.child.client import IsolatedImplementation, IsolationFault
    from bpe_kata.impl.loader import ImplementationNotFound

    if os.getcwd() not in sys.path:  # as `python -m` and `bpe-kata check` do: solutions.mine from a clone
        sys.path.insert(0, os.getcwd())
    value = value or DEFAULT_IMPL
    try:
        implementation = launch.start(value, cwd=os.getcwd())
        if isinstance(implementation, IsolatedImplementation):
            _CHILDREN.append(implementation)
            implementation.connect()
    except ImplementationNotFound as error:
        raise Stop(str(error), 2) from None
    except (ValueError, IsolationFault) as error:
        raise Stop(f"--impl {value}: {error}", 2) from None
    return implementation


def call_impl(what: str, impl_name: str, function, *args, **kwargs):
    """Call the implementation; a function still raising NotImplementedError means its level is not started."""
    try:
        return function(*args, **kwargs)
    except NotImplementedError:
        raise Stop(f"{impl_name}: {what} is not started yet (it raises NotImplementedError); "
                   f"write it, then `bpe-kata check {impl_name}` shows its level") from None
    except TableError as error:
        raise Stop(str(error), 2) from None


def rich_console(plain: bool, command: str):
    """A rich console for a terminal, or None for plain text (pipes, CI logs, --plain)."""
    if plain or not sys.stdout.isatty():
        return None
    return require("rich.console", command).Console()


def split_passthrough(argv: list[str]) -> tuple[list[str], list[str]]:
    """The command's own options, and those after ``--`` that go to every spec run."""
    if "--" not in argv:
        return argv, []
    at = argv.index("--")
    return argv[:at], argv[at + 1:]
