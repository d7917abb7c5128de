"""tiktoken's encoder and decoder on tables the reference trains: the row that measures tiktoken
on every level whose tests train a table first.

tiktoken has no trainer, so with_tiktoken leaves the levels that need ``train`` "not started".
Here ``train`` is the reference's (already green on the whole spec), and everything else is
with_tiktoken's, so a failure in this row is tiktoken's encode, build_vocab or decode.
"""

from bpe_kata.adapters.with_tiktoken import build_vocab, decode, encode  # noqa: F401
from reference import train  # noqa: F401
