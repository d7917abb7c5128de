"""Red team: a protocol server for the reference that writes junk on stdout when asked to merge.

Run as ``cmd:"python tests/red_team/junk_server.py"``: a program speaking the protocol
itself, so its stdout is the protocol channel.
"""

from __future__ import annotations

import sys

import reference
from bpe_kata.child import protocol
from bpe_kata.child.handlers import Server

JUNK = b"merging now, please wait\n"


def main() -> int:
    server = Server(reference, "junk-server")
    for line in sys.stdin.buffer:
        message = protocol.decode_line(line)
        if message.get("op") == "merge":
            sys.stdout.buffer.write(JUNK)
        sys.stdout.buffer.write(protocol.encode_line(server.handle(message)))
        sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
