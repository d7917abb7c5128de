"""A child of the stdio protocol that records both directions: ``python tests/protocol_tee.py DIR IMPL``.

It starts the shipped server (``python -m bpe_kata.child.server IMPL``), passes every line through
unchanged, and appends each to DIR/PID.log (one file per child: ids restart with each) as ``>``
(the suite's request) or ``<`` (the child's response).
tests/test_schemas.py runs the spec through it and checks every line against the protocol's schema.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading


def main(folder: str, impl: str) -> int:
    log_path = os.path.join(folder, f"{os.getpid()}.log")
    server = subprocess.Popen([sys.executable, "-m", "bpe_kata.child.server", impl],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    with open(log_path, "ab") as log:
        def record(mark: bytes, line: bytes) -> None:
            with lock:
                log.write(mark + line if line.endswith(b"\n") else mark + line + b"\n")
                log.flush()

        def responses() -> None:
            for line in iter(server.stdout.readline, b""):
                record(b"< ", line)
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()

        relay = threading.Thread(target=responses, daemon=True)
        relay.start()
        for line in iter(sys.stdin.buffer.readline, b""):
            record(b"> ", line)
            server.stdin.write(line)
            server.stdin.flush()
        server.stdin.close()
        relay.join()
        return server.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
