"""Under ``gate`` (and ``--isolated``), each pytest-xdist worker and the child serving it share one CPU.

A worker and its child take turns: the worker writes a request and waits, the child answers
and waits. When the two run on different CPUs, every turn wakes a process on the other CPU,
which on a virtual machine costs more than the small call itself: a round trip took about
160 µs across two CPUs and about 80 µs on one (benchmarks/README.md). So a worker that runs
an isolated implementation keeps itself, and thereby the children it starts, on a CPU of its
own: worker ``gwK`` on the K-th CPU it may use. The extra children a test starts side by side
(``spawn_implementation.each``) are given every CPU back (``release``), as they would have under ``check``.

Only where that cannot crowd anything: on Linux, in an xdist worker, with no more workers than
CPUs (``-n auto``, the default, has one per CPU), and not when ``BPE_KATA_NO_PIN`` is set. An
in-process run (``check``) and a run without workers are left alone; so is any failure to set
the affinity (a container may forbid it): the run goes on unpinned.
"""

from __future__ import annotations

import os

#: Set (to anything) to leave every process where the operating system puts it.
OPT_OUT = "BPE_KATA_NO_PIN"


def cpu_for(workerinput: dict | None, allowed: set[int]) -> int | None:
    """The CPU worker ``gwK`` keeps, or None when pinning could crowd: not a worker, more workers than CPUs."""
    if not workerinput or not allowed:
        return None
    try:
        index, count = int(str(workerinput["workerid"]).removeprefix("gw")), int(workerinput["workercount"])
    except (KeyError, ValueError):
        return None
    if not 0 <= index < count <= len(allowed):
        return None
    return sorted(allowed)[index]


#: The CPUs this process could use before ``pin_worker`` kept it to one (None: never pinned).
_unpinned: set[int] | None = None


def pin_worker(workerinput: dict | None) -> int | None:
    """Keep this process (and the children it starts later) on its worker's CPU; the CPU, or None if not pinned."""
    global _unpinned
    if os.environ.get(OPT_OUT) or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        allowed = os.sched_getaffinity(0)
        cpu = cpu_for(workerinput, allowed)
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
            _unpinned = allowed
        return cpu
    except OSError:
        return None


def release(pid: int) -> None:
    """Let a process this worker started (a test's extra child) use every CPU the worker could before it was
    pinned: children a test starts side by side load their interpreters at once, as they would in ``check``."""
    if _unpinned is None:
        return
    try:
        os.sched_setaffinity(pid, _unpinned)
    except OSError:
        pass  # it may have exited already, or the container forbids it: it stays on the worker's CPU
