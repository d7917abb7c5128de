"""Calls to one child written ahead of their answers: the thousands of short ``encode`` calls that
check a whole corpus piece by piece (bpe_kata/run/data_fixtures.py), without a round trip's wait
between them.

The protocol answers requests in their order (docs/PROTOCOL.md), so the next requests can be
on their way while the child works: the same requests, the same answers, and the same faults at
the same call as one call after another (bpe_kata/child/process.py, ``Child.request``).
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from bpe_kata.child import fd_wait, protocol
from bpe_kata.child.faults import CallTimedOut, ProtocolError
from bpe_kata.child.line_pipes import _shown
from bpe_kata.child.process import Child

#: ``pipelined``: at most this many requests written ahead of their answers. Enough to keep
#: a child busy while the previous answers travel back; few enough that a caller stopping at a
#: wrong answer leaves little work asked for in vain.
PIPELINE_WINDOW = 64


def pipelined(child: Child, op: str, requests: Iterable[dict]) -> Iterator[Any]:
    """``request(op, args)`` for each of ``requests``, the next ones written while earlier ones are
    answered (the protocol answers in the order of the requests; docs/PROTOCOL.md): the results in
    order. An error answer or a fault is raised at the call it belongs to, as ``request`` raises it.

    Each call keeps its time limit, counted from the answer before it (the child answers one at a
    time), and the time spent waiting counts against the run's budget. Stopping before the end,
    with calls still asked and unanswered (the caller found a wrong answer, or a call raised),
    kills the child: their answers are not wanted, and the next request starts a new child."""
    child.ready()
    source = iter(requests)
    in_flight: deque[tuple[int, int]] = deque()  # (request id, where its line ends in the written stream)
    pending = bytearray()  # request lines not yet written
    queued = written = 0  # bytes of requests queued and written so far
    exhausted = False
    try:
        while True:
            while not exhausted and len(in_flight) < PIPELINE_WINDOW:
                args = next(source, None)
                if args is None:
                    exhausted = True
                    break
                request_id = child._new_id()
                line = protocol.encode_line({"id": request_id, "op": op, "args": args})
                pending += line
                queued += len(line)
                in_flight.append((request_id, queued))
            if not in_flight:
                return
            request_id, line_end = in_flight[0]
            response, written = _await(child, op, request_id, line_end, pending, written)
            in_flight.popleft()
            if response.get("ok") is True and "result" in response:
                yield response["result"]
                continue
            if response.get("ok") is False and isinstance(response.get("error"), dict):
                raise child._error(op, response["error"])
            child.kill()
            raise ProtocolError(
                f"{op}: the answer is neither a result nor an error: {_shown(line=None, response=response)}")
    finally:
        if in_flight:
            child.kill()
        elif child.lines:  # more lines than answers: the next request sees them, as it would have
            child.buffer = b"\n".join([*child.lines, child.buffer])
        child.lines.clear()

def _await(child: Child, what: str, request_id: int, line_end: int, pending: bytearray,
           written: int) -> tuple[dict, int]:
    """Write what is pending while waiting for the answer to ``request_id`` (whose line ends at byte
    ``line_end`` of the requests); the answer and the bytes written so far (-1 once the child stopped
    reading: its answers so far are still read, then its exit is the fault of the call under way).
    Limits and faults as for one call (``Child.limited``)."""
    with child.limited(what, child.call_timeout) as deadline:
        out_fd, in_fd = child.process.stdin.fileno(), child.process.stdout.fileno()
        while True:
            while child.lines:  # whole lines already read, oldest first
                line = child.lines.popleft()
                if line.strip():
                    return child._response_of(line, request_id, what), written
            left = deadline - time.monotonic()
            if left <= 0:
                if 0 <= written < line_end:
                    raise CallTimedOut(f"{what}: the child read no more of the request within "
                                       f"{child.call_timeout:g} s")
                raise CallTimedOut(f"{what}: no answer within {child.call_timeout:g} s (--call-timeout); "
                                   "the child was stopped and a new one started for the next test")
            readable, writable = fd_wait.wait([in_fd], [out_fd] if pending and written >= 0 else [], left)
            if writable and not readable:  # the answers first: a child may answer, then exit
                try:
                    count = os.write(out_fd, pending)
                except BlockingIOError:
                    count = 0
                except OSError:  # it reads no more: what it answered is read, then its end is seen
                    count, written = 0, -1
                del pending[:count]
                written += count if written >= 0 else 0
            if readable:
                chunk = child._read_chunk(in_fd, what)
                *complete, child.buffer = (child.buffer + chunk).split(b"\n")
                child.lines.extend(complete)
