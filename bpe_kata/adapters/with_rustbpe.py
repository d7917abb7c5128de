"""rustbpe (the nanochat trainer) behind the contract: ``train``, with or without a split pattern.

``rustbpe.Tokenizer.train_from_iterator`` learns a byte-level table and returns it as
tiktoken-style ranks (bytes -> rank), so the merges' pairs are recovered from the ranks
(``_glue.merges_from_ranks``). It always splits: with no ``pattern`` it applies its own
default (GPT-4's), so ``train`` without a pattern passes it one that matches the whole text.
Its ``encode`` takes no table but its own, and it has no ``get_stats``/``merge``, vocabulary
or decoder taking a table, save/load, stream decoder or tie-rule choice: left out.
"""

from __future__ import annotations

import rustbpe

from bpe_kata.adapters._glue import merges_from_ranks

#: Frames of this module are the adapter's, not the wrapped library's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

WHOLE_TEXT = r"[\s\S]+"


def train(text, vocab_size, *, pattern=None):
    tokenizer = rustbpe.Tokenizer()
    tokenizer.train_from_iterator(iter([text]), vocab_size, pattern=pattern or WHOLE_TEXT)
    return merges_from_ranks(dict(tokenizer.get_mergeable_ranks()))
