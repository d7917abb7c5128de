"""One child process speaking the stdio protocol: started on first use and again after a fault,
every request under a time limit and the run's time budget, its stderr kept in a log.

What goes wrong in the child (a hang, an exit, a crash, junk on stdout, a changed argument)
becomes an ``IsolationFault`` (bpe_kata/child/faults.py); bpe_kata/child/client.py makes the
child look like an implementation module.

This module starts, restarts and stops the child and holds each call to its limits; how the lines cross its
pipes, and its stderr log, are bpe_kata/child/line_pipes.py; the run's and the test's time budgets the limits
apply are bpe_kata/child/deadlines.py.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bpe_kata.child import call_text, protocol
from bpe_kata.child.deadlines import BUDGET, HUNG_CALLS, TEST_DEADLINE
from bpe_kata.child.faults import (
    CONTRACT_EXCEPTIONS,
    CallTimedOut,
    ChangedInput,
    ChildExited,
    ImplementationError,
    OverBudget,
    ProtocolError,
    TooSlow,
)
from bpe_kata.child.line_pipes import LinePipes, _shown

#: Generous for the reference: its slowest call (a whole corpus under a 100k table) takes seconds.
DEFAULT_CALL_TIMEOUT = 60.0
#: Starting a child (an interpreter, an import) may take longer than a call on a loaded machine.
MIN_START_TIMEOUT = 60.0


class Child(LinePipes):
    """One child process speaking the protocol; started on first use and again after a fault."""

    def __init__(self, command: Sequence[str], *, cwd: str | os.PathLike | None = None,
                 env: Mapping[str, str] | None = None, call_timeout: float = DEFAULT_CALL_TIMEOUT,
                 file_size_limit: int | None = None, sandbox=None) -> None:
        super().__init__(call_timeout)
        self.command, self.cwd, self.env = list(command), cwd, dict(env) if env is not None else None
        self.file_size_limit = file_size_limit
        self.sandbox = sandbox  # a bpe_kata.child.sandbox.Sandbox applied between fork and exec, or None
        self.hello: dict | None = None
        self.definitions: dict[str, bytes] = {}  # name -> the define request's line, sent again after a restart
        self.next_id = 0
        self.starts = 0
        self.pending_hello: int | None = None  # the id of a hello sent by ``launch`` that ``start`` has not read

    # --- process -------------------------------------------------------------------------

    def start(self) -> dict:
        """Start the child (unless ``launch`` already did) and shake hands; the hello's result."""
        if self.pending_hello is None:
            self.launch()
        hello_id, self.pending_hello = self.pending_hello, None
        timeout = max(self.call_timeout, MIN_START_TIMEOUT)
        with self.limited("hello", timeout) as deadline:
            hello = self._result_of(self._read_response(hello_id, deadline, "hello"), "hello")
        if not isinstance(hello, dict) or hello.get("protocol") != protocol.PROTOCOL_VERSION:
            self.kill()
            raise ProtocolError(f"the hello answer is not protocol {protocol.PROTOCOL_VERSION}: {hello!r}")
        for name, line in self.definitions.items():
            self._send_and_wait(line, self._id_of(line), f"define {name}", timeout)
        self.hello = self.hello or hello
        return hello

    def launch(self) -> None:
        """Start the process and send the hello without waiting for the answer, which ``start`` reads:
        children launched one after another start their interpreters and load their code side by side."""
        self.started_at = self.log_size()
        self.log.seek(0, os.SEEK_END)
        self.log.write(f"--- bpe-kata: starting {shlex.join(self.command)}\n".encode())
        self.log.flush()
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=self.log, cwd=self.cwd, env=self.env, start_new_session=True,
                                            preexec_fn=self._preexec())
        except OSError as error:
            raise ChildExited(f"could not start {shlex.join(self.command)}: {error}") from None
        os.set_blocking(self.process.stdin.fileno(), False)
        self.buffer, self.starts = b"", self.starts + 1
        self.lines.clear()
        hello_id = self._new_id()
        line = protocol.encode_line(
            {"id": hello_id, "op": "hello", "args": {"protocol": protocol.PROTOCOL_VERSION}})
        with self.limited("hello", max(self.call_timeout, MIN_START_TIMEOUT)) as deadline:
            self._write(line, deadline, "hello")
        self.pending_hello = hello_id

    def _preexec(self):
        if self.sandbox is not None:
            sandbox, size = self.sandbox, self.file_size_limit
            return lambda: sandbox.preexec(size)
        return self._limits if self.file_size_limit is not None else None

    def _limits(self) -> None:  # in the child, before exec
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.file_size_limit, self.file_size_limit))

    def kill(self) -> None:
        process, self.process = self.process, None
        self.pending_hello = None
        if process is None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def close(self) -> None:
        """Close stdin (the child exits), kill it if it lingers."""
        process = self.process
        if process is not None:
            try:
                process.stdin.close()
                process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        self.log.close()

    # --- requests ------------------------------------------------------------------------

    def ready(self) -> None:
        """Start the child, or finish a ``launch``, unless it is running and has answered its hello."""
        if self.process is None or self.pending_hello is not None:
            self.start()

    def request(self, op: str, args: dict) -> Any:
        """Send one request; its result, or the mapped exception."""
        self.ready()
        return self._exchange(op, args, self.call_timeout)

    def define(self, name: str, kind: str, value: Any) -> None:
        line_id = self._new_id()
        line = protocol.encode_line(
            {"id": line_id, "op": "define", "args": {"name": name, "kind": kind, "value": value}}
        )
        self.ready()
        self._send_and_wait(line, line_id, f"define {name}", max(self.call_timeout, MIN_START_TIMEOUT))
        self.definitions[name] = line

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    @staticmethod
    def _id_of(line: bytes) -> int:
        return protocol.decode_line(line)["id"]

    def _exchange(self, op: str, args: dict, timeout: float) -> Any:
        request_id = self._new_id()
        line = protocol.encode_line({"id": request_id, "op": op, "args": args})
        try:
            return self._send_and_wait(line, request_id, op, timeout)
        except TooSlow as slow:  # the same failure, naming the call's input
            raise TooSlow(str(slow).replace(op, call_text.shown_call(op, args), 1)) from None

    @contextlib.contextmanager
    def limited(self, what: str, timeout: float) -> Iterator[float]:
        """One call's deadline: ``timeout`` from now, or sooner where the run's budget or the test's ends first.

        A spent budget fails the call before it starts; a fault, or anything else that stops the wait, kills the
        child (the next call starts a new one); a time limit that was the run's budget is "over budget", one that was
        the test's is "too slow"; the time spent counts against the run's budget.
        Single calls and pipelined ones (bpe_kata/child/pipeline.py) share these rules."""
        remaining = BUDGET.remaining()
        if remaining is not None and remaining <= 0:
            self.kill()
            raise OverBudget(f"{what}: the run's time budget ({BUDGET.total:g} s of child time, --time-budget) "
                             "is spent; this call and every later one fail")
        gave_up = HUNG_CALLS.given_up(what)
        if gave_up is not None:
            raise CallTimedOut(f"{what}: not called: it hung in its last {gave_up} calls (--give-up-after-hangs); "
                               "every later call to it fails at once")
        test_left = TEST_DEADLINE.remaining()
        if test_left is not None and test_left <= 0:
            raise TooSlow(f"{what} was not started: the test's budget ({TEST_DEADLINE.seconds:g} s, "
                          f"{TEST_DEADLINE.how}) was spent before it")
        limits = {"call": timeout, "run": remaining, "test": test_left}
        cause = min((name for name, value in limits.items() if value is not None), key=lambda name: limits[name])
        start = time.monotonic()
        try:
            yield start + limits[cause]
            HUNG_CALLS.answered(what)
        except CallTimedOut:
            self.kill()
            if cause != "run":
                HUNG_CALLS.hung(what)
            if cause == "test":
                raise TEST_DEADLINE.spent(what) from None
            if cause == "run":
                raise OverBudget(f"{what}: the run's time budget ({BUDGET.total:g} s of child time, --time-budget) "
                                 "ran out during this call") from None
            raise
        except BaseException:
            # a fault, or anything else that stops the wait (pytest-timeout, Ctrl-C): the child's state is unknown,
            # and a child left computing would outlive the run
            self.kill()
            raise
        finally:
            BUDGET.used += time.monotonic() - start

    def _send_and_wait(self, line: bytes, request_id: int, what: str, timeout: float) -> Any:
        with self.limited(what, timeout) as deadline:
            self._write(line, deadline, what)
            response = self._read_response(request_id, deadline, what)
        return self._result_of(response, what)

    def _result_of(self, response: dict, what: str) -> Any:
        """A response's result, or the mapped exception."""
        if response.get("ok") is True and "result" in response:
            return response["result"]
        if response.get("ok") is False and isinstance(response.get("error"), dict):
            raise self._error(what, response["error"])
        self.kill()
        raise ProtocolError(
            f"{what}: the answer is neither a result nor an error: {_shown(line=None, response=response)}"
        )

    def _error(self, what: str, error: dict) -> BaseException:
        raised = self._mapped_error(what, error)
        # optional (docs/PROTOCOL.md): the child's exception type and innermost own frame, for root causes
        raised.bpe_kata_call = what
        raised.bpe_kata_type = error.get("type") if isinstance(raised, ImplementationError) else None
        raised.bpe_kata_frame = error.get("frame")
        return raised

    def _mapped_error(self, what: str, error: dict) -> BaseException:
        kind, message = error.get("kind"), str(error.get("message", ""))
        if kind in CONTRACT_EXCEPTIONS:
            return CONTRACT_EXCEPTIONS[kind](message)
        if kind == protocol.NOT_IMPLEMENTED:
            return NotImplementedError(f"{what}: {message}")
        if kind == protocol.CHANGED_INPUT:
            return ChangedInput(f"{what}: {message}", what, error.get("args") or ())
        if kind == protocol.OTHER_ERROR:
            return ImplementationError(f"{what}: {message}")
        self.kill()
        return ProtocolError(f"{what}: unknown error kind {kind!r}: {message}")

