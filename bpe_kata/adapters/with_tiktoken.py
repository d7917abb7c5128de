"""tiktoken behind the contract: encode, build_vocab, decode and the stream level with given tables.

tiktoken encodes with a table it is given (``tiktoken.Encoding``: bytes -> rank, a split
pattern, special tokens); here the ranks are the contract's ids. It has no trainer (its
``_educational`` module is a teaching sketch, not the library), no ``get_stats`` or
``merge`` (its BPE is inside Rust), no save/load of this format, no stream decoder and
no word-level BPE: those functions are left out, so every level needing ``train`` is
"not started". With no pattern, the adapter gives tiktoken one that matches the whole text.
"""

from __future__ import annotations

import tiktoken

from bpe_kata.adapters._glue import PerTable, token_bytes

#: Frames of this module are the adapter's, not the wrapped library's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

WHOLE_TEXT = r"[\s\S]+"


def _encoding(merges, special_tokens, pattern):
    ranks = {piece: idx for idx, piece in token_bytes(merges).items()}
    return tiktoken.Encoding("bpe-kata", pat_str=pattern or WHOLE_TEXT, mergeable_ranks=ranks,
                             special_tokens=dict(special_tokens or {}))


_cached = PerTable(lambda merges: {})


def _encoding_for(merges, special_tokens, pattern):
    built = _cached(merges)  # specials and pattern arrive afresh with each call: keyed by value
    key = (pattern, tuple(sorted((special_tokens or {}).items())))
    if key not in built:
        built[key] = _encoding(merges, special_tokens, pattern)
    return built[key]


def encode(text, merges, *, special_tokens=None, allowed_special=frozenset(), disallowed_special="all",
           pattern=None):
    enc = _encoding_for(merges, special_tokens, pattern)
    return enc.encode(text, allowed_special=allowed_special, disallowed_special=disallowed_special)


def build_vocab(merges, special_tokens=None):
    enc = _encoding_for(merges, special_tokens, None)
    ids = [*range(256), *merges.values(), *(special_tokens or {}).values()]
    return {idx: enc.decode_single_token_bytes(idx) for idx in ids}


def decode(ids, vocab):
    ordinary = {piece: idx for idx, piece in vocab.items()}
    enc = _decoding(vocab) if len(ordinary) == len(vocab) else None
    if enc is None:  # two ids with the same bytes: tiktoken's table cannot hold that
        raise ValueError("tiktoken needs one id per token's bytes")
    return enc.decode(list(ids))


_decoding = PerTable(lambda vocab: tiktoken.Encoding(
    "bpe-kata-decode", pat_str=WHOLE_TEXT, mergeable_ranks={piece: idx for idx, piece in vocab.items()},
    special_tokens={}))
