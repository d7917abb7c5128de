"""End a pytest-xdist worker of a spec run, and the ``bpe-kata`` command, without tearing the
interpreter down.

A worker ends holding everything the spec loaded (published tables of 100,000 merges, their
vocabularies, the corpora and their encodings); Python's shutdown frees it object by object,
about 0.3 s per worker that the run's controller waits for before it can print the verdict.
The worker's results have reached the controller by then (xdist sends them when the session
finishes) and every child process it started is closed (fixtures and ``pytest_unconfigure``),
so once every exit handler has run (pytest's removal of its temporary folders' locks among them),
the rest of shutdown has nothing to save: the streams are flushed and the process ends at once,
without the module teardown and garbage collection that follow the handlers.

Not armed where something may still need a normal shutdown: outside a worker, under coverage,
a profiler or any other tracer (its data is written at exit), or when ``BPE_KATA_FULL_EXIT`` is set. A worker
is known by its pytest config (xdist gives it ``workerinput``), never by the environment: a run
started from inside a worker (a test that runs ``bpe-kata check``) inherits ``PYTEST_XDIST_WORKER``
and must still end with its own exit status.

The ``bpe-kata`` command (``cli.run``) ends the same way once its subcommand has returned and written
its reports (``end_command``): the prompt no longer waits 0.1–0.2 s for the teardown of the run's
controller. Not under a tracer, a profiler or coverage, with ``BPE_KATA_FULL_EXIT``, or while another thread runs.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from collections.abc import Mapping
from typing import NoReturn

#: Set (to anything) to keep the normal shutdown, e.g. to debug what a worker does at exit.
KEEP_ENV = "BPE_KATA_FULL_EXIT"


def wanted(config: object, environ: Mapping[str, str] = os.environ) -> bool:
    """``config`` is a pytest-xdist worker's, with nothing that writes its data at exit watching."""
    return hasattr(config, "workerinput") and not environ.get(KEEP_ENV) and not _watched()


def _watched() -> bool:
    """A tracer, a profiler (cProfile) or coverage is on: each writes its data at a normal exit only."""
    return sys.gettrace() is not None or sys.getprofile() is not None or "coverage" in sys.modules


#: Set by the ``bpe-kata`` command (cli.run): this process ends when its command returns.
command_ends_process = False


def ending(config: object) -> bool:
    """This process ends with this run: a worker that will end quickly, or the ``bpe-kata`` command's run
    (not a run started by a caller that goes on, such as a test calling ``cli.main``)."""
    return wanted(config) or (command_ends_process and not hasattr(config, "workerinput"))


def arm(config: object) -> bool:
    """Register the quick exit as an exit handler: when it runs, the others run too, then the process
    ends. True if armed."""
    if not wanted(config):
        return False
    atexit.register(_exit_now)
    return True


def _exit_now() -> None:
    atexit.unregister(_exit_now)
    _end(0)


def end_command(status: int | None) -> NoReturn:
    """End the ``bpe-kata`` process with ``status`` once its command has returned: its exit handlers run
    and its streams are flushed as at any exit, but the interpreter's teardown (0.1–0.2 s of freeing
    what the run loaded, while the prompt waits) is skipped. A normal exit under a tracer, a profiler or coverage,
    with ``BPE_KATA_FULL_EXIT`` set, or while another thread runs (a normal exit would wait for it)."""
    if (type(status) is not int or os.environ.get(KEEP_ENV) or _watched()
            or threading.active_count() > 1):
        sys.exit(status)  # sys.exit's own reading of a status that is not an int (None: 0, text: 1)
    _end(status)


def _end(status: int) -> NoReturn:
    atexit._run_exitfuncs()  # every handler still registered (for a worker: those before _exit_now's)
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed, or a pipe nobody reads any more
            pass
    os._exit(status)
