"""Serve a Python implementation over the stdio protocol: ``python -m bpe_kata.child.server IMPL``.

The implementation is loaded here, in a process of its own, so nothing it does (pytest
hooks, ``os._exit``, prints, a loop that never ends) can touch the process that decides
the verdict. Its prints go to stderr: the protocol keeps stdout for itself.

This module is the entry point and its main loop: what one request does is bpe_kata/child/handlers.py,
the second mode (``--encode-iterable-memory``) bpe_kata/child/iterable_memory.py.
"""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

from bpe_kata.child import gc_policy, protocol
from bpe_kata.child.handlers import Server
from bpe_kata.child.iterable_memory import MEMORY_FLAG, memory_main


def _protocol_stdout() -> BinaryIO:
    """Keep the real stdout for protocol lines; send everything else printed to stderr."""
    sys.stdout.flush()
    private = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return private


def serve(value: str, requests: BinaryIO, responses: BinaryIO) -> int:
    """Load the implementation, then answer requests until stdin closes."""
    from bpe_kata.impl.loader import ImplementationNotFound, load_implementation

    try:
        impl = load_implementation(value)
    except ImplementationNotFound as error:
        impl, failure = None, str(error)
    server = Server(impl, value) if impl is not None else None
    gc_policy.settle()  # the implementation's modules, and the tables defined later, stay out of collections
    for line in requests:
        if not line.strip():
            continue
        try:
            message = protocol.decode_line(line)
        except ValueError as error:
            responses.write(
                protocol.encode_line(protocol.error_response(None, protocol.OTHER_ERROR, f"bad request: {error}"))
            )
            continue
        if server is None:
            responses.write(
                protocol.encode_line(protocol.error_response(message.get("id"), protocol.OTHER_ERROR, failure))
            )
            return 1
        responses.write(server.answer(message))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    memory = len(argv) == 2 and argv[0] == MEMORY_FLAG
    if memory:
        argv = argv[1:]
    if len(argv) != 1:
        print("usage: python -m bpe_kata.child.server [--encode-iterable-memory] IMPL   (a dotted module name, "
              "package folder or .py file)", file=sys.stderr)
        return 2
    responses = _protocol_stdout()

    if sys.flags.safe_path and os.getcwd() not in sys.path:  # started with -P (client.server_command)
        sys.path.insert(0, os.getcwd())  # the implementation's dotted names are relative to it, as with -m
    if memory:
        return memory_main(argv[0], responses)
    return serve(argv[0], sys.stdin.buffer, responses)


if __name__ == "__main__":
    sys.exit(main())
