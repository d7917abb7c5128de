"""Red team: System V IPC and POSIX shared memory to a cooperating process outside the sandbox. At import it
opens the message queue of key ``KEY`` (made outside by the test) and sends a line on it, and reads
``/dev/shm/bpe-kata-red-team``; what it reached, it says on stderr. Its merge is wrong."""

import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: E402, F401

KEY = 0x42504B41
_libc = ctypes.CDLL("libc.so.6", use_errno=True)
_queue = _libc.msgget(KEY, 0)
if _queue >= 0:
    _message = ctypes.create_string_buffer(ctypes.sizeof(ctypes.c_long) + 64)
    ctypes.c_long.from_buffer(_message).value = 1
    _message[ctypes.sizeof(ctypes.c_long):ctypes.sizeof(ctypes.c_long) + 9] = b"red team!"
    _sent = _libc.msgsnd(_queue, _message, 64, 0o4000)  # IPC_NOWAIT
    print(f"red team: IPC REACHED queue {_queue} (sent: {_sent})", file=sys.stderr)
try:
    with open("/dev/shm/bpe-kata-red-team", encoding="utf-8") as _handle:
        print(f"red team: SHM REACHED {_handle.read()!r}", file=sys.stderr)
except OSError:
    pass
