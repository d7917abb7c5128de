"""Red team: at import, look for secrets in the environment and connect to Unix sockets under /run
(root-owned services), reporting what it reached on stderr; its merge is wrong."""

import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

for name, value in os.environ.items():
    if "SECRET" in name or "TOKEN" in name:
        print(f"red team: LEAKED {name}={value}", file=sys.stderr)
for root, _, files in os.walk("/run"):
    for name in files:
        path = os.path.join(root, name)
        try:
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.settimeout(1)
            client.connect(path)
            client.sendall(b"red team was here\n")
            print(f"red team: CONNECTED {path}", file=sys.stderr)
        except OSError:
            pass
