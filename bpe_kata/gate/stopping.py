"""How the supervisor is stopped and stops its verdict process (bpe_kata/gate/supervisor.py).

A stop signal (a CI job's timeout or cancel) becomes an exception, so the supervisor's cleanup still kills every
process of the run; the verdict process is interrupted as Ctrl-C would, so it writes its report, and killed only
if it lingers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading


class Stopped(Exception):
    """The supervisor was told to stop (SIGTERM, SIGINT, SIGHUP): a CI job's timeout or cancel."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def stop_on_signals() -> dict:
    """Turn a stop signal into :class:`Stopped`, so that ``run``'s cleanup kills the verdict process and every
    child (they are in sessions of their own: the signal to the job's process group never reaches them)."""
    def stop(number, _frame):
        raise Stopped(number)

    if threading.current_thread() is not threading.main_thread():
        return {}
    return {number: signal.signal(number, stop) for number in STOP_SIGNALS}


def restore_signals(previous: dict) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler)


#: Seconds an interrupted verdict process has to write its report before it is killed.
INTERRUPT_GRACE = 20.0


def interrupt(process: subprocess.Popen) -> int:
    """Stop the verdict process as Ctrl-C would (its session ends, its report is written), killed if it lingers."""
    try:
        os.kill(process.pid, signal.SIGINT)
        return process.wait(timeout=INTERRUPT_GRACE)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        killpg(process.pid)
        return process.wait()


def killpg(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
