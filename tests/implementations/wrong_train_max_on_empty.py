"""Known-wrong, written the way minbpe's basic trainer is: ``max(stats, key=stats.get)`` with no empty check.

Once training has merged everything into one id, the next step takes the max of no pairs
and raises ValueError. That single mistake makes tests of many levels error (any test that
trains a short text to a large vocabulary), which is what the report's root-cause grouping
is for: one line for the error, naming ``train.exhausted`` as the claim it breaks.

Like the documents' code, it takes a text's bytes with ``text.encode("utf-8")`` (so a str
holding a lone surrogate raises: the surrogates level's rule, not this file's mistake);
the rest is the oracle's core.
"""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome

Pair = tuple[int, int]

MISTAKE_CLAIMS: tuple[str, ...] = ("train.exhausted",)


def utf8(text: str) -> bytes:
    """The documents' way: no surrogate repair."""
    return text.encode("utf-8")


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[Pair, int] = {}
    for i in range(vocab_size - 256):
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)  # the mistake: nothing left to merge raises here
        idx = 256 + i
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges


encode = rehome(core.encode, globals())
