"""The value of a corpus a test compares an implementation with: as stated, or restated under the split in force.

The documents state values for corpora trained over the whole text: the Shakespeare-20 table, the ids of
"the thin" under it, the 882,737 tokens it leaves, Alice's first twelve merges and their counts, the
bytes-per-token curve. An implementation that always splits (CS336's GPT-2 split, a minbpe class with
GPT-4's, a port probed as pattern-fixed: spec/fixed_pattern.py, spec/split_probe.py) cannot produce them,
yet each statement has a meaning under its split: the same corpus, trained and encoded chunk by chunk.

One rule, for every such value (issue 38, item 1): a test asks ``value(what, stated, restated)``.

- With no split in force, it is ``stated``: the document's value, from the case files (the suite's own
  tests hold them to the statements and to the oracle).
- With a split in force, it is ``restated()``: the oracle's value computed with the split's pattern and
  tie rule on the same corpus. The pieces it is computed from are the oracle's and split-aware themselves:
  the corpus table (``spec_table``: bpe_kata/data/corpus_tables.py trains it with spec/fast_chunk_train.py,
  once, cached on disk and for the session, keyed by the pattern and the rule), the ids of a text
  (``spec.oracle.encode``, which encodes chunk by chunk under the split in force) and what training ends
  with on the corpus (spec/replay.py, inside the chunks).

The claim is then judged on the implementation against that value. A statement that cannot be restated
under a split (an observation that holds only for whole-text training, such as corpus.d1-space-left: a
space can only begin a chunk) still calls ``oracle.split.needs_whole_text`` with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from spec.oracle import split

T = TypeVar("T")


def value(what: str, stated: T, restated: Callable[[], T]) -> T:
    """``what`` as the running test must compare with it: ``stated`` (the document's, for the whole text) with
    no split in force, else ``restated()`` (the oracle's, with the split's pattern and tie rule)."""
    if restating() is None:
        return stated
    return restated()


def restating() -> str | None:
    """How values are restated in the running test (a failure shows it beside the document's value, so the
    two expected values never contradict each other), or None when they are taken as stated."""
    now = split.in_force()
    if now is None or (now.pattern is None and now.tie_rule == "first-counted"):
        return None
    return (f"the oracle's value for the same corpus under the split {now.name} with the tie rule {now.tie_rule} "
            "(spec/corpus_values.py)")
