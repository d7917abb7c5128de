"""The pipes of one child process as the protocol's lines: a request written without blocking, an answer read
line by line under a deadline (never a line past ``MAX_LINE``), and the child's stderr kept in a log a fault quotes.

Apart from starting, restarting and limiting the child (bpe_kata/child/process.py, whose ``Child`` builds on
``LinePipes``) because this is how bytes cross the pipes, whatever the call: one request at a time there,
many in flight in bpe_kata/child/pipeline.py. What goes wrong on them (an exit, junk, a line with no end,
no answer in time) is raised as the fault it is (bpe_kata/child/faults.py).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections import deque
from typing import Any

from bpe_kata.child import fd_wait, protocol
from bpe_kata.child.faults import CallTimedOut, ChildExited, ProtocolError

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


class LinePipes:
    """A child process's stdin and stdout as protocol lines, its stderr as a log kept across restarts."""

    def __init__(self, call_timeout: float) -> None:
        self.call_timeout = call_timeout
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # the child's stderr, across restarts
        self.buffer = b""
        self.lines: deque[bytes] = deque()  # whole lines read ahead of their turn (bpe_kata/child/pipeline.py)
        self.started_at = 0  # where this child's part of the log begins

    # --- lines ---------------------------------------------------------------------------

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
            fd_wait.wait([], [fd], remaining)

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
                readable, _ = fd_wait.wait([fd], [], remaining)
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
