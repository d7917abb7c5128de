"""The cyclic garbage collector's settings in a run's long-lived processes: the pytest processes
that run the spec, and the child that serves an implementation.

Both keep large tables for the whole run (corpora and their ids, published tables of 100,000
merges and their vocabularies, trained tables) while Hypothesis and the implementation make
millions of short-lived objects. Under CPython's default thresholds (700, 10, 10) the collector
runs after every 700 new objects, and each full collection walks every table again: about a
second of a check's twelve CPU-seconds (benchmarks/README.md). Freezing what is loaded once the
tests are collected, and collecting the young generation after 10,000 new objects instead of 700,
halves that. The collector still runs (no cycle made during the tests lives longer than a few
collections), and a process whose collector was switched off is left as it is.

A process about to end (a pytest-xdist worker whose results are sent, the ``bpe-kata`` command
whose verdict is printed: bpe_kata/run/quick_exit.py) freezes everything before pytest's own last
collection, which would walk every table once more only to find what the exit frees anyway.
"""

from __future__ import annotations

import gc

#: New objects between two collections of the young generation (CPython's default: 700).
YOUNG_THRESHOLD = 10_000


def settle() -> None:
    """Keep every object alive now out of later collections, collect the young less often. No collection
    first: it would walk everything once more (50 ms per process), for the few cycles imports leave."""
    if not gc.isenabled():
        return
    freeze()
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_THRESHOLD), middle, old)


def freeze() -> None:
    """Keep every object alive now (a table just loaded) out of later collections; costs no walk."""
    if gc.isenabled():
        gc.freeze()
