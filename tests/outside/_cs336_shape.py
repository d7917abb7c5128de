"""What the CS336 assignment-1 adapters share: the course package registered by path, training through
a file, and the byte-string tables <-> the contract's ids. Names and types only, as the adapters are."""

from __future__ import annotations

__bpe_kata_adapter__ = True  # its frames are the adapters', not the solution's (bpe_kata/impl/frames.py)

import os
import sys
import tempfile
import types
from pathlib import Path


def register_package(root: Path) -> None:
    """``cs336_basics`` by path alone: its ``__init__`` imports the whole course project (torch, its
    installed version), which the tokenizer modules need none of."""
    package = types.ModuleType("cs336_basics")
    package.__path__ = [str(root / "cs336_basics")]
    sys.modules.setdefault("cs336_basics", package)


def train_through_file(train_bpe, text: str, vocab_size: int, **options) -> dict[tuple[int, int], int]:
    """``train_bpe(path, vocab_size, [])`` on the text written as UTF-8 (bytes as given), its byte-string
    merges as contract ids: each merge is 256 + its index, its parts looked up by bytes."""
    fd, path = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
        _, merges = train_bpe(path, vocab_size, [], **options)
    finally:
        os.unlink(path)
    ids = {bytes([b]): b for b in range(256)}
    table = {}
    for idx, (left, right) in enumerate(merges, start=256):
        table[ids[left], ids[right]] = idx
        ids[left + right] = idx
    return table


def byte_tables(merges) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """The contract's merges as the course's ``(vocab, merges)``: id -> bytes, and byte-string pairs in order."""
    vocab = {b: bytes([b]) for b in range(256)}
    pairs = []
    for (left, right), idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = vocab[left] + vocab[right]
        pairs.append((vocab[left], vocab[right]))
    return vocab, pairs
