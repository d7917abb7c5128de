"""Red team: at import, attach to the verdict process (the parent) with ptrace, which stops it; its
merge is wrong."""

import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

PTRACE_ATTACH = 16
libc = ctypes.CDLL(None, use_errno=True)
result = libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None)
print("red team: ptrace attach", "succeeded" if result == 0 else f"failed ({os.strerror(ctypes.get_errno())})",
      file=sys.stderr)
