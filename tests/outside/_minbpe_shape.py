"""The contract over a minbpe-shaped upstream (karpathy/minbpe and its reimplementations): names and types only.

Both Python adapters of that shape (minbpe_py, kelhass_py) bind their upstream's classes here, so
the translation is written once. This module is an adapter too: its frames are skipped when a root
cause is placed (bpe_kata/impl/frames.py), so the upstream's own line is shown.
"""

from __future__ import annotations

__bpe_kata_adapter__ = True


def bind(tokenizer, basic, regex, owner: str) -> dict:
    """get_stats/merge aside, the contract's functions over these classes (``owner`` names them in errors)."""
    Tokenizer, BasicTokenizer, RegexTokenizer = tokenizer, basic, regex

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
            raise NotImplementedError(f"{owner} special tokens live on RegexTokenizer, which needs a pattern")
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

    return {"train": train, "build_vocab": build_vocab, "decode": decode, "encode": encode}
