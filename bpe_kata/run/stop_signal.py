"""A SIGTERM ends an in-process run as Ctrl-C does, and never reaches a process the implementation forks as ours.

The run turns SIGTERM (``timeout``'s, a CI job's limit) into ``KeyboardInterrupt`` so the levels that finished are
printed and the report is written. A Python handler is inherited by every process the learner's code forks (a
``multiprocessing`` pool's workers), and there it is racy: a SIGTERM that reaches a child between its fork and its
interpreter's re-initialisation is dropped, so ``Pool.terminate()`` on a pool just made waits forever for a worker
that never saw it (a trainer making a pool per call: CI hung 80 minutes inside the pool's finalizer, where no test
timeout can interrupt). So around each fork SIGTERM is held back, and the child starts with the default action:
a SIGTERM sent to it early is delivered as soon as it can be, and ends it as it would without the suite.
"""

from __future__ import annotations

import os
import signal
import threading

_guarded = False
#: The mask each forking thread had before its fork, restored after it (a thread may fork while another does).
_before = threading.local()


def stop_as_ctrl_c() -> None:
    """From the main thread: SIGTERM raises ``KeyboardInterrupt`` here, and forked children keep the default."""
    global _guarded
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if not _guarded:
        os.register_at_fork(before=_hold, after_in_parent=_release, after_in_child=_default_in_child)
        _guarded = True


def _ours() -> bool:
    return signal.getsignal(signal.SIGTERM) is signal.default_int_handler


def _hold() -> None:
    _before.mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}) if _ours() else None


def _release() -> None:
    mask = getattr(_before, "mask", None)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _before.mask = None


def _default_in_child() -> None:
    mask = getattr(_before, "mask", None)
    if mask is not None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _before.mask = None
