"""A line on the terminal while a corpus step runs long, so a slow run never stalls without a word.

An implementation's ``train`` on a whole corpus is one opaque call that can take minutes
for a correct textbook version. A timer thread therefore says what is running (which
corpus, which step) once it has run ``BPE_KATA_PROGRESS_AFTER`` seconds (default 2), then
again every ``PROGRESS_EVERY`` seconds, and how long it took at the end. Fast steps print
nothing. The line goes to the real standard error with pytest's output capture suspended:
under pytest-xdist a worker's standard error is the terminal's, so it shows there too.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable

AFTER_VAR = "BPE_KATA_PROGRESS_AFTER"
DEFAULT_AFTER = 2.0
PROGRESS_EVERY = 10.0

Write = Callable[[str], None]


def delay_from_environment() -> float | None:
    """Seconds before the first line; None (never) for ``off`` or a negative number."""
    value = os.environ.get(AFTER_VAR, "").strip().lower()
    if not value:
        return DEFAULT_AFTER
    if value in ("off", "no", "never"):
        return None
    try:
        seconds = float(value)
    except ValueError:
        return DEFAULT_AFTER
    return None if seconds < 0 else seconds


def stderr_writer(capture_manager=None) -> Write:
    """Write whole lines to the real standard error, around pytest's capture when given its manager."""
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            if capture_manager is not None:
                with capture_manager.global_and_fixture_disabled():
                    _emit(line)
            else:
                _emit(line)

    return write


def _emit(line: str) -> None:
    sys.stderr.write(f"\n{line}\n")  # a fresh line: pytest's dots may be half-way along one
    sys.stderr.flush()


class Progress:
    """``with Progress(write, "training alice ...") as step: ... step.update("3/10")``.

    Says nothing for a step done within ``after`` seconds; otherwise one line when it
    passes ``after``, one every ``every`` seconds with the latest ``update``, and one at the
    end with the time taken.
    """

    def __init__(self, write: Write, what: str, *, after: float | None = DEFAULT_AFTER,
                 every: float = PROGRESS_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.write, self.what, self.after, self.every, self.clock = write, what, after, every, clock
        self.detail = ""
        self.shown = False
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = 0.0

    def update(self, detail: str) -> None:
        """The latest status (e.g. "4,000 of 11,733 pieces"), shown with the next line."""
        self.detail = detail

    def __enter__(self) -> Progress:
        self._start = self.clock()
        if self.after is not None:
            self._thread = threading.Thread(target=self._report, name="bpe-kata progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            outcome = "failed" if exc_info[0] is not None else "done"
            self.write(f"bpe-kata: {self.what}: {outcome} after {self.clock() - self._start:.1f} s")

    def _report(self) -> None:
        wait = self.after
        while not self._done.wait(wait):
            self.shown = True
            detail = f", {self.detail}" if self.detail else ""
            self.write(f"bpe-kata: {self.what}: {self.clock() - self._start:.0f} s{detail}…")
            wait = self.every
