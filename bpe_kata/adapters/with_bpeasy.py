"""bpeasy behind the contract: ``train``, with or without a split pattern.

``bpeasy.train_bpe(iterator, python_regex, max_token_length, vocab_size)`` returns a
tiktoken-style table (bytes -> rank), so the merges' pairs are recovered from the ranks
(``_glue.merges_from_ranks``). It always splits with a regex and caps a token's length: with
no ``pattern`` the adapter passes one that matches the whole text, and the cap is set to the
text's length in bytes so that it never binds. Encoding and decoding in bpeasy go through
tiktoken (``bpeasy.tokenizer``), which has its own row; no ``get_stats``/``merge``,
save/load in this format, stream decoder or tie-rule choice: left out.
"""

from __future__ import annotations

import bpeasy

from bpe_kata.adapters._glue import merges_from_ranks

#: Frames of this module are the adapter's, not the wrapped library's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

WHOLE_TEXT = r"[\s\S]+"


def train(text, vocab_size, *, pattern=None):
    cap = max(2, len(text.encode("utf-8", "surrogatepass")))
    ranks = bpeasy.train_bpe(iter([text]), pattern or WHOLE_TEXT, cap, vocab_size)
    return merges_from_ranks(ranks)
