"""A SIGTERM ends an in-process run as Ctrl-C does, but never as the suite's handler in a process the
implementation forks (bpe_kata/run/stop_signal.py): there a SIGTERM sent early was dropped, and a pool terminated
just after it was made waited forever for its worker (CI hung inside a pool's finalizer)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

FORKED_CHILD_SEES = textwrap.dedent('''
    import os, signal
    from bpe_kata.run import stop_signal

    stop_signal.stop_as_ctrl_c()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        default = signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        held = signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        os.write(write, f"{default} {held}".encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 100).decode()
    ours = signal.getsignal(signal.SIGTERM) is signal.default_int_handler
    held = signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    print(child, ours, held)
''')

POOLS_MADE_AND_FREED = textwrap.dedent('''
    import multiprocessing
    from bpe_kata.run import stop_signal

    stop_signal.stop_as_ctrl_c()
    for _ in range(300):
        multiprocessing.get_context("fork").Pool(1)  # freed at once: its finalizer terminates and joins its worker
    print("done")
''')


def _python(code: str, timeout: float) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_a_forked_child_starts_with_the_default_sigterm_and_the_run_keeps_its_own():
    child_default, child_held, ours, held = _python(FORKED_CHILD_SEES, 60).split()
    assert (child_default, child_held) == ("True", "False"), "the child inherited the run's SIGTERM handling"
    assert (ours, held) == ("True", "False"), "the run lost its SIGTERM handler or left SIGTERM blocked"


def test_pools_made_and_terminated_at_once_never_wait_for_a_worker_that_missed_its_sigterm():
    assert _python(POOLS_MADE_AND_FREED, 120) == "done"
