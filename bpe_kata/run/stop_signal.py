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
#: A SIGTERM arrived during a fork and is still to be raised (``stop_if_asked_during_a_fork``).
_asked = False
#: Whether the forking thread holds SIGTERM back for its fork (a thread may fork while another does).
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
    _before.held = _ours()
    if _before.held:
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        except BaseException:  # noqa: BLE001 - another signal's handler ran here; SIGTERM is blocked all the same
            pass


def _release() -> None:
    """SIGTERM unblocked again. One that arrived during the fork is handled as it is unblocked, here, inside an at-fork
    hook, where the exception of the run's handler would be swallowed and the run would carry on: in the main thread it
    is taken by a handler that only notes it, and raised once the test's call is over (``stop_if_asked_during_a_fork``,
    from the plugin, which also unblocks SIGTERM should another signal's exception have cut this hook short)."""
    global _asked
    if not getattr(_before, "held", False):
        return
    _before.held = False
    if threading.current_thread() is not threading.main_thread():  # handlers run in the main thread only
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
        return
    arrived: list[int] = []
    handler = None
    for _ in range(3):  # another signal's handler raising here (its exception is the hook's, swallowed): again
        try:
            handler = signal.signal(signal.SIGTERM, lambda number, frame: arrived.append(number))
            break
        except BaseException:  # noqa: BLE001, S112
            continue
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    finally:
        if handler is not None:
            signal.signal(signal.SIGTERM, handler)
        _asked = _asked or bool(arrived)


def stop_if_asked_during_a_fork() -> None:
    """Raise the ``KeyboardInterrupt`` a SIGTERM taken during a fork could not raise there; and never leave SIGTERM
    blocked past a call (a fork hook cut short by another signal's exception)."""
    global _asked
    if _guarded and threading.current_thread() is threading.main_thread():
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})  # a pending SIGTERM is raised here, as it should
    if _asked:
        _asked = False
        raise KeyboardInterrupt


def _default_in_child() -> None:
    """The child starts with SIGTERM's default action, unblocked (a SIGTERM sent to it early ends it)."""
    if getattr(_before, "held", False):
        _before.held = False
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
