"""The course's wiring: the two functions the course's tests call for the tokenizer (the rest of the
assignment, which imports torch, is left out of this test solution; see cs336_wrong for that)."""

from __future__ import annotations

import os

from cs336_basics.tokenizer import Tokenizer
from cs336_basics.train_bpe import train_bpe


def get_tokenizer(vocab: dict[int, bytes], merges: list[tuple[bytes, bytes]], special_tokens: list[str] | None = None):
    return Tokenizer(vocab, merges, special_tokens)


def run_train_bpe(input_path: str | os.PathLike, vocab_size: int, special_tokens: list[str], **kwargs):
    return train_bpe(input_path, vocab_size, special_tokens)
