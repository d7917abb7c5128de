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


SIGTERM_DURING_THE_FORK = textwrap.dedent('''
    import os, signal
    # registered first, so run after the run's own hook that holds SIGTERM back: a SIGTERM arriving during the fork
    os.register_at_fork(before=lambda: os.kill(os.getpid(), signal.SIGTERM))
    from bpe_kata.run import stop_signal

    stop_signal.stop_as_ctrl_c()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    for _ in range(100000):  # where the handler's exception, raised inside the at-fork hook, used to be lost
        pass
    try:
        stop_signal.stop_if_asked_during_a_fork()
        print("lost")
    except KeyboardInterrupt:
        print("stopped", signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, []))
''')

ANOTHER_SIGNAL_CUTS_THE_HOOK_SHORT = textwrap.dedent('''
    import functools, os, signal

    class Out(BaseException):
        pass

    def give_up(number, frame):
        raise Out

    signal.signal(signal.SIGALRM, give_up)
    os.register_at_fork(before=functools.partial(signal.setitimer, signal.ITIMER_REAL, 0.00001))
    from bpe_kata.run import stop_signal

    stop_signal.stop_as_ctrl_c()
    try:  # the alarm lands in a hook (the case) or, on a machine that forks faster, somewhere after it
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    except Out:
        pass
    stop_signal.stop_if_asked_during_a_fork()
    print(signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, []))
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


def test_a_sigterm_during_a_fork_stops_the_run_after_the_call_and_is_never_lost():
    """Raised inside the at-fork hook, its KeyboardInterrupt was swallowed and the run carried on (a reviewer: lost in
    10 of 15 tries on a process that forks in a loop)."""
    assert _python(SIGTERM_DURING_THE_FORK, 60) == "stopped False"


def test_sigterm_is_never_left_blocked_past_a_call_when_another_signal_cuts_the_fork_hook_short():
    assert _python(ANOTHER_SIGNAL_CUTS_THE_HOOK_SHORT, 60) == "False"
