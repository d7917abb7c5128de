"""Adapter: another CS336 (Stanford, spring 2025) assignment-1 solution, dilawarm/assignment1-basics.

Upstream: CS336_DILAWARM_SRC = a checkout of that repository (README.md here). Names and types only,
plugged as its author calls it: ``train(text, vocab_size)`` writes the text to a file (UTF-8, bytes as
given) and calls ``train_bpe(path, vocab_size, [])``; the byte-string merges become contract ids (each
merge is 256 + its index, as its vocabulary numbers them when there are no special tokens).
``encode``/``decode`` go through its ``Tokenizer(vocab, merges)``. It always pre-tokenizes with
GPT-2's pattern and declares nothing: this adapter is the probe's test (docs/OUTSIDE.md, round 3).
There is no get_stats, merge or build_vocab in the upstream's interface.
"""

from __future__ import annotations

__bpe_kata_adapter__ = True  # its frames are the adapter's, not the solution's (bpe_kata/run/frames.py)

import os
import sys
import tempfile
import types

from _upstream import upstream

_root = upstream("CS336_DILAWARM_SRC", "cs336_basics/tokenization/bpe.py")
# The package's __init__ imports the whole course project (torch, jaxtyping); the tokenizer needs none of it,
# so the package is registered by path alone.
_package = types.ModuleType("cs336_basics")
_package.__path__ = [str(_root / "cs336_basics")]
sys.modules.setdefault("cs336_basics", _package)

from cs336_basics.tokenization.bpe import train_bpe  # noqa: E402  (upstream, unchanged)
from cs336_basics.tokenization.tokenizer import Tokenizer  # noqa: E402

__all__ = ["train", "encode", "decode"]


def _vocab(merges) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    vocab = {b: bytes([b]) for b in range(256)}
    pairs = []
    for (left, right), idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = vocab[left] + vocab[right]
        pairs.append((vocab[left], vocab[right]))
    return vocab, pairs


def train(text, vocab_size):
    fd, path = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
        _, merges = train_bpe(path, vocab_size, [])
    finally:
        os.unlink(path)
    ids = {bytes([b]): b for b in range(256)}
    table = {}
    for idx, (left, right) in enumerate(merges, start=256):
        table[ids[left], ids[right]] = idx
        ids[left + right] = idx
    return table


def encode(text, merges):
    vocab, pairs = _vocab(merges)
    return Tokenizer(vocab, pairs).encode(text)


def decode(ids, vocab):
    return Tokenizer(dict(vocab), []).decode(list(ids))
