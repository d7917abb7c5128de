"""A minbpe-style class as people write it: a fixed GPT-4 split, no _build_vocab, merge_pair. Right."""

from .tokenizer import RegexTokenizer, get_stats, merge_pair  # noqa: F401
