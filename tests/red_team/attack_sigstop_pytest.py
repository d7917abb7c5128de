"""Red team: at import, SIGSTOP the verdict process and every process of the user it can see, so
the run hangs; its merge is wrong."""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

stopped = 0
for pid in [os.getppid()] + [int(p) for p in os.listdir("/proc") if p.isdigit()]:
    if pid in (os.getpid(), 1):
        continue
    try:
        cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        cmdline = b""
    if pid == os.getppid() or b"pytest" in cmdline or b"bpe_kata" in cmdline:
        try:
            os.kill(pid, signal.SIGSTOP)
            stopped += 1
        except OSError:
            pass
print(f"red team: stopped {stopped} processes", file=sys.stderr)
