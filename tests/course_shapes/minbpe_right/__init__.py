"""A minbpe-shaped solution written for the suite's tests: Karpathy's course's shape, right."""

from .tokenizer import RegexTokenizer, get_stats, merge  # noqa: F401
