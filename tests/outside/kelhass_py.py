"""Adapter: kelhass/minbpe-reimplementation (Python, package bpe_tokenizer) to the bpe-kata contract. Names and types only.

Upstream: KELHASS_PY_SRC = a checkout of github.com/kelhass/minbpe-reimplementation (README.md here).
``train`` is ``BasicTokenizer.train`` (``RegexTokenizer`` with a pattern) and returns its
``merges``; ``encode``/``decode`` set the tokenizer's tables and call its methods;
``allowed_special`` is translated to minbpe's names ("all", a set, or "none_raise").
"""

from __future__ import annotations

__bpe_kata_adapter__ = True  # its frames are the adapter's, not the upstream's (bpe_kata/frames.py)

import os
import sys

from _upstream import upstream

upstream("KELHASS_PY_SRC", "src/bpe_tokenizer/base.py")
sys.path.insert(0, os.path.join(os.environ["KELHASS_PY_SRC"], "src"))

from bpe_tokenizer.base import Tokenizer, get_stats, merge  # noqa: E402  (upstream, unchanged)
from bpe_tokenizer.basic import BasicTokenizer  # noqa: E402
from bpe_tokenizer.regex import RegexTokenizer  # noqa: E402

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode"]


def train(text, vocab_size, *, pattern=None):
    tok = BasicTokenizer() if pattern is None else RegexTokenizer(pattern)
    tok.train(text, vocab_size)
    return tok.merges


def build_vocab(merges, special_tokens=None):
    tok = Tokenizer()
    tok.merges = dict(merges)
    tok.special_tokens = dict(special_tokens or {})
    return tok._build_vocab()


def decode(ids, vocab):
    tok = BasicTokenizer()
    tok.vocab = vocab
    return tok.decode(list(ids))


def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(),
           disallowed_special="all"):
    if pattern is None and not special_tokens:
        tok = BasicTokenizer()
        tok.merges = dict(merges)
        return tok.encode(text)
    if pattern is None:
        raise NotImplementedError("its special tokens live on RegexTokenizer, which needs a pattern")
    tok = RegexTokenizer(pattern)
    tok.merges = dict(merges)
    if not special_tokens:
        return tok.encode_ordinary(text)
    tok.register_special_tokens(dict(special_tokens))
    if allowed_special == "all":
        policy = "all"
    elif allowed_special:
        policy = set(allowed_special)
    elif disallowed_special == "all" or disallowed_special:
        policy = "none_raise"
    else:
        policy = "none"
    return tok.encode(text, allowed_special=policy)
