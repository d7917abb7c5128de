"""The server's second mode, ``python -m bpe_kata.child.server --encode-iterable-memory IMPL``: no protocol, one
measurement of ``encode_iterable``'s memory under an address-space limit (claim encode.iterable,
spec/test_encode_iterable.py), a JSON request on stdin, JSON lines on stdout.

Apart from the protocol's operation handlers (bpe_kata/child/handlers.py) because it is no request of the protocol:
it limits the whole process it runs in, so it runs in a child of its own (bpe_kata/run/spawning.py starts it).
"""

from __future__ import annotations

import sys
from typing import BinaryIO

from bpe_kata.child import protocol

#: The flag of this mode on the server's command line (bpe_kata/child/server.py ``main``).
MEMORY_FLAG = "--encode-iterable-memory"
#: How often (characters fed) the memory measurement says how far it got.
PROGRESS = 1 << 18


def _address_space() -> int:
    """This process's address space in bytes (``VmSize``: what ``RLIMIT_AS`` limits)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmSize:"))


def encode_iterable_memory(impl, request: dict, report) -> dict:
    """``encode_iterable`` over ``request["characters"]`` characters of ``request["lines"]`` (cycled, made as they
    are read, never kept), its ids counted and dropped, under an address-space limit of this process's size
    once the table is built and one short call has run (imports, compiled patterns) plus ``request["margin"]``.
    What was measured is reported as it goes (``report(dict)``: the limit, then every ``PROGRESS`` characters
    the characters fed and ids yielded), so a child that dies has said how far it got; the answer ends it."""
    import itertools
    import resource
    import time

    merges = protocol.MERGES.load(request["merges"])
    keywords = {"pattern": request["pattern"]} if request.get("pattern") is not None else {}
    lines, total = request["lines"], request["characters"]
    for _ in impl.encode_iterable(iter(lines), merges, **keywords):
        pass
    fed = ids = 0

    def texts():
        nonlocal fed
        mark = PROGRESS
        for line in itertools.cycle(lines):
            if fed >= total:
                return
            if fed >= mark:
                report({"fed": fed, "ids": ids})
                mark += PROGRESS
            fed += len(line)
            yield line

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    base = _address_space()
    limit = base + request["margin"]
    if hard != resource.RLIM_INFINITY and hard < limit:
        limit = hard
    report({"base": base, "limit": limit})
    error, start = None, time.monotonic()
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        for _ in impl.encode_iterable(texts(), merges, **keywords):
            ids += 1
    except MemoryError:
        error = "MemoryError"
    except Exception as raised:  # noqa: BLE001  (said in the answer: the test fails with it)
        error = f"{type(raised).__name__}: {str(raised)[:300]}"
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    return {"base": base, "limit": limit, "fed": fed, "ids": ids, "error": error,
            "seconds": round(time.monotonic() - start, 3), "done": True}



def memory_main(value: str, responses: BinaryIO) -> int:
    """Load the implementation, read the request on stdin, measure; every report and the answer a line on
    ``responses``."""
    from bpe_kata.impl.loader import ImplementationNotFound, load_implementation

    request = protocol.decode_line(sys.stdin.buffer.read())

    def report(message: dict) -> None:
        responses.write(protocol.encode_line(message))

    try:
        answer = encode_iterable_memory(load_implementation(value), request, report)
    except ImplementationNotFound as error:
        answer = {"error": f"not loaded: {error}", "done": True}
    report(answer)
    return 0
