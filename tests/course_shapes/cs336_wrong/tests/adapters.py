"""The course's wiring, with the rest of the assignment's imports as the course's template has them
(torch, jaxtyping: not needed by the tokenizer, and skipped by the suite when not installed)."""

from __future__ import annotations

import os

import torch  # noqa: F401
from cs336_basics.tokenizer import Tokenizer
from jaxtyping import Float  # noqa: F401

from tests.course_shapes.cs336_right.cs336_basics.train_bpe import train_bpe


def get_tokenizer(vocab: dict[int, bytes], merges: list[tuple[bytes, bytes]], special_tokens: list[str] | None = None):
    return Tokenizer(vocab, merges, special_tokens)


def run_train_bpe(input_path: str | os.PathLike, vocab_size: int, special_tokens: list[str], **kwargs):
    return train_bpe(input_path, vocab_size, special_tokens)
