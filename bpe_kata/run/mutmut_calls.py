"""Session caches that stay visible to mutmut's test selection (``bpe-kata mutate``).

mutmut runs, for each mutant, only the tests that called the mutated function during its
first, recording run. A session cache (the corpus tables of ``trained``, the encodings of
``encoded``) calls the implementation once, in whichever test asks first: the tests that
reuse the cached value would not be recorded, so a mutant that spoils the table would be
tried against one test only. :class:`SharedCalls` remembers which implementation functions
each cached value needed and records them again for every test that reuses it.

Outside mutmut's recording run (``MUTANT_UNDER_TEST=stats`` with mutmut imported) it does
nothing at all.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Hashable, Iterator
from contextlib import contextmanager


def _recording_state():
    """mutmut's state object while it records which tests call which function; else None."""
    module = sys.modules.get("mutmut.state")
    if module is None or os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return None
    return module.state()


class SharedCalls:
    """The functions each cached value called, by cache key, replayed into every reusing test."""

    def __init__(self) -> None:
        self.calls: dict[Hashable, set[str]] = {}

    @contextmanager
    def computing(self, key: Hashable) -> Iterator[None]:
        """Around the computation of a cached value: note exactly the functions it calls."""
        state = _recording_state()
        if state is None:
            yield
            return
        earlier, state._stats = state._stats, set()
        try:
            yield
        finally:
            self.calls[key] = set(state._stats)
            earlier |= state._stats
            state._stats = earlier

    def reused(self, key: Hashable) -> None:
        """A test uses the cached value: it depends on what computing it called."""
        state = _recording_state()
        if state is not None:
            state._stats |= self.calls.get(key, set())
