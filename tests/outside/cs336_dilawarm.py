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

__bpe_kata_adapter__ = True  # its frames are the adapter's, not the solution's (bpe_kata/impl/frames.py)

from _cs336_shape import byte_tables, register_package, train_through_file
from _upstream import upstream

_root = upstream("CS336_DILAWARM_SRC", "cs336_basics/tokenization/bpe.py")
register_package(_root)

from cs336_basics.tokenization.bpe import train_bpe  # noqa: E402  (upstream, unchanged)
from cs336_basics.tokenization.tokenizer import Tokenizer  # noqa: E402

__all__ = ["train", "encode", "decode"]


def train(text, vocab_size):
    return train_through_file(train_bpe, text, vocab_size)


def encode(text, merges):
    vocab, pairs = byte_tables(merges)
    return Tokenizer(vocab, pairs).encode(text)


def decode(ids, vocab):
    return Tokenizer(dict(vocab), []).decode(list(ids))
