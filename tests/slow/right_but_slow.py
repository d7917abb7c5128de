"""A right implementation that is slow: the reference, whose ``encode`` spins on the CPU before
answering a long text (issue 37, kind 7: a right but slow learner must still get a verdict).

Every answer is the reference's, so every claim holds; only the time differs. The spin is
``BPE_KATA_SLOW_SECONDS`` seconds (default 3600: longer than any budget) of busy work, not a sleep,
so a child process left behind shows as a process eating a CPU, as a learner's O(n^3) loop would.
Texts shorter than ``LONG`` characters are answered at once, so the run has fast tests too.
"""

from __future__ import annotations

import os
import time

from reference import StreamDecoder, build_vocab, decode, get_stats, load, merge, save, segment_word, train, train_words
from reference import encode as _encode

__all__ = ["StreamDecoder", "build_vocab", "decode", "encode", "get_stats", "load", "merge", "save", "segment_word",
           "train", "train_words"]

#: A text at least this long is "long": the spin starts.
LONG = 200


def encode(text, merges, **options):  # noqa: ANN001, ANN003, ANN201 - the contract's signature
    """The reference's encode; first, on a long text, busy work for BPE_KATA_SLOW_SECONDS seconds."""
    if isinstance(text, str) and len(text) >= LONG:
        end = time.monotonic() + float(os.environ.get("BPE_KATA_SLOW_SECONDS", "3600"))
        spins = 0
        while time.monotonic() < end:
            spins += sum(range(1000)) & 1
    return _encode(text, merges, **options)
