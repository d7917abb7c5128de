"""One child process speaking the stdio protocol: started on first use and again after a fault,
every request under a time limit and the run's time budget, its stderr kept in a log.

What goes wrong in the child (a hang, an exit, a crash, junk on stdout, a changed argument)
becomes an ``IsolationFault`` (bpe_kata/child/faults.py); bpe_kata/child/client.py makes the
child look like an implementation module.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bpe_kata.child import call_text, protocol
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

#: Generous for the reference: its slowest call (a whole corpus under a 100k table) takes seconds.
DEFAULT_CALL_TIMEOUT = 60.0
#: Starting a child (an interpreter, an import) may take longer than a call on a loaded machine.
MIN_START_TIMEOUT = 60.0
LOG_TAIL = 4000
#: The most of the child's stderr log read at once: its tail. The child writes that file (it can seek
#: gigabytes ahead and leave a sparse hole), so no read of it may grow with its size.
LOG_READ = 64 << 10
#: The longest line a child may send (the largest real answer, a published table's ``load``, is a
#: few MB); past it the child is cut off with a protocol error instead of filling the memory.
MAX_LINE = 64 << 20
#: Bytes asked of the child's stdout per read. Under the C library's threshold for mapping memory of its
#: own (128 KiB): a larger buffer is mapped and unmapped on every read, three more system calls per call.
READ_SIZE = 64 << 10


class Budget:
    """The total time this process may wait on children (``--time-budget``), across every call.

    Per verdict process: under pytest-xdist, each worker has the whole budget; the supervisor's
    wall limit bounds the run as a whole."""

    def __init__(self) -> None:
        self.total: float | None = None
        self.used = 0.0

    def remaining(self) -> float | None:
        return None if self.total is None else self.total - self.used


BUDGET = Budget()


class TestDeadline:
    """The running spec test's own budget (bpe_kata/run/budgets.py), as wall time spent here waiting on children.

    Armed at each test's setup, disarmed at its teardown; a call still running when it ends fails the test
    "too slow", and its child is killed so that nothing keeps computing behind the run."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.seconds = 0.0
        self.how = ""

    def arm(self, seconds: float, how: str) -> None:
        self.deadline, self.seconds, self.how = time.monotonic() + seconds, seconds, how

    def disarm(self) -> None:
        self.deadline = None

    def remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def spent(self, what: str) -> TooSlow:
        return TooSlow(f"{what} was still running when the test's budget ran out: {self.seconds:g} s "
                       f"({self.how}); the child was stopped, a new one serves the next call")


TEST_DEADLINE = TestDeadline()


class Child:
    """One child process speaking the protocol; started on first use and again after a fault."""

    def __init__(self, command: Sequence[str], *, cwd: str | os.PathLike | None = None,
                 env: Mapping[str, str] | None = None, call_timeout: float = DEFAULT_CALL_TIMEOUT,
                 file_size_limit: int | None = None, sandbox=None) -> None:
        self.command, self.cwd, self.env = list(command), cwd, dict(env) if env is not None else None
        self.call_timeout, self.file_size_limit = call_timeout, file_size_limit
        self.sandbox = sandbox  # a bpe_kata.child.sandbox.Sandbox applied between fork and exec, or None
        self.process: subprocess.Popen | None = None
        self.hello: dict | None = None
        self.definitions: dict[str, bytes] = {}  # name -> the define request's line, sent again after a restart
        self.log = tempfile.TemporaryFile()  # the child's stderr, across restarts
        self.next_id = 0
        self.buffer = b""
        self.lines: deque[bytes] = deque()  # whole lines read ahead of their turn (bpe_kata/child/pipeline.py)
        self.starts = 0
        self.started_at = 0  # where this child's part of the log begins
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
        line = protocol.encode_plain_line(
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

    def request(self, op: str, args: dict, keep: str | None = None) -> Any:
        """Send one request (with ``keep``, the name the child is to hold its result under: bpe_kata/child/kept.py);
        its result, or the mapped exception."""
        self.ready()
        return self._exchange(op, args, self.call_timeout, keep)

    def define(self, name: str, kind: str, value: Any) -> None:
        line_id = self._new_id()
        line = protocol.encode_plain_line(
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

    def _exchange(self, op: str, args: dict, timeout: float, keep: str | None = None) -> Any:
        request_id = self._new_id()
        message = {"id": request_id, "op": op, "args": args}
        if keep is not None:
            message["keep"] = keep
        line = protocol.encode_plain_line(message)
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
        test_left = TEST_DEADLINE.remaining()
        if test_left is not None and test_left <= 0:
            raise TooSlow(f"{what} was not started: the test's budget ({TEST_DEADLINE.seconds:g} s, "
                          f"{TEST_DEADLINE.how}) was spent before it")
        limits = {"call": timeout, "run": remaining, "test": test_left}
        cause = min((name for name, value in limits.items() if value is not None), key=lambda name: limits[name])
        start = time.monotonic()
        try:
            yield start + limits[cause]
        except CallTimedOut:
            self.kill()
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

    def _write(self, data: bytes, deadline: float, what: str) -> None:
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        while view:
            try:  # the pipe has room for most requests: waiting first would cost a system call each
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                raise ChildExited(f"{what}: the child exited before reading the request ({self._exit_status()})"
                                  + self.log_tail()) from None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CallTimedOut(f"{what}: the child read no more of the request within {self.call_timeout:g} s")
            select.select([], [fd], [], remaining)

    def _read_response(self, request_id: int, deadline: float, what: str) -> dict:
        fd = self.process.stdout.fileno()
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
                if line.strip():
                    return self._response_of(line, request_id, what)
                continue
            self.buffer = self._read_to_line_end(fd, deadline, what)

    def _read_to_line_end(self, fd: int, deadline: float, what: str) -> bytes:
        """The buffer and what the child writes next, up to a chunk that ends a line: a long answer (a
        published vocabulary: megabytes, a pipe's 64 KiB at a time) is joined once, never copied per chunk."""
        parts, held = [self.buffer], len(self.buffer)
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise CallTimedOut(f"{what}: no answer within {self.call_timeout:g} s (--call-timeout); "
                                       "the child was stopped and a new one started for the next test")
                readable, _, _ = select.select([fd], [], [], remaining)
                if not readable:
                    continue
                chunk = os.read(fd, READ_SIZE)
                parts.append(chunk)
                held += len(chunk)
                if not chunk or held > MAX_LINE or b"\n" in chunk:
                    break
        finally:
            self.buffer = b"".join(parts)  # what was read stays read, whatever is raised
        if not chunk or held > MAX_LINE:
            self._check_chunk(chunk, len(self.buffer) - len(chunk), what)
        return self.buffer

    def _read_chunk(self, fd: int, what: str) -> bytes:
        """What the child wrote on stdout since the last read (after ``select`` saw it readable): never an
        end of output (the child's exit is the call's fault) nor a line past ``MAX_LINE``."""
        chunk = os.read(fd, READ_SIZE)
        self._check_chunk(chunk, len(self.buffer), what)
        return chunk

    def _check_chunk(self, chunk: bytes, held: int, what: str) -> None:
        """Raise for a chunk that ends the child's output, or takes the line past ``MAX_LINE``
        (``held``: the bytes before it; the buffer shows them)."""
        if held + len(chunk) > MAX_LINE:
            raise ProtocolError(f"{what}: the child sent a line longer than {MAX_LINE >> 20} MiB: "
                                f"{_shown(self.buffer)}")
        if not chunk:
            if self.buffer.strip():
                raise ProtocolError(f"{what}: the child's last line has no line end: {_shown(self.buffer)}")
            raise ChildExited(
                f"{what}: the child exited without answering ({self._exit_status()})" + self.log_tail()
            )

    def _response_of(self, line: bytes, request_id: int, what: str) -> dict:
        try:
            response = protocol.decode_line(line)
        except RecursionError:
            raise ProtocolError(f"{what}: a line on the child's stdout is nested too deeply: {_shown(line)}") from None
        except ValueError:
            raise ProtocolError(f"{what}: a line on the child's stdout is not a protocol message "
                                f"(print to stderr instead): {_shown(line)}") from None
        if response.get("id") != request_id:
            raise ProtocolError(f"{what}: expected the answer to request {request_id}, got {_shown(line)}")
        return response

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

    def _exit_status(self) -> str:
        process = self.process
        if process is None:
            return "stopped"
        try:
            code = process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "still running"
        return f"killed by signal {-code}" if code < 0 else f"exit status {code}"

    # --- log -----------------------------------------------------------------------------

    def log_size(self) -> int:
        self.log.flush()
        return os.fstat(self.log.fileno()).st_size

    def log_since(self, offset: int) -> str:
        """What the child wrote to stderr from ``offset`` on: at most its last ``LOG_READ`` bytes (the size
        is taken with ``fstat`` first, so a sparse hole of gigabytes costs nothing to skip)."""
        self.log.flush()
        size = os.fstat(self.log.fileno()).st_size
        start = max(offset, size - LOG_READ)
        self.log.seek(start)
        data = self.log.read(max(size - start, 0))
        self.log.seek(0, os.SEEK_END)
        skipped = f"[... {start - offset} bytes of the child's stderr not shown]\n" if start > offset else ""
        return skipped + data.replace(b"\0", b"").decode("utf-8", "replace")

    def log_tail(self) -> str:
        text = self.log_since(max(self.started_at, self.log_size() - LOG_TAIL)).strip()
        return f"\nthe child's stderr ends with:\n{text}" if text else ""


def _shown(line: bytes | None = None, response: Any = None) -> str:
    text = repr(line[:300].decode("utf-8", "replace")) if line is not None else repr(response)[:300]
    return text
