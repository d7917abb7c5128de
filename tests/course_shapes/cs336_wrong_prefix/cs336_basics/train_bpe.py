"""WRONG: the trainer reads only the training file's first 64 Ki characters; the rest is the right solution's
trainer, run on that prefix. Right on every short text, wrong on a corpus (the restated corpus values catch it)."""

from __future__ import annotations

import os
import tempfile

from tests.course_shapes.cs336_right.cs336_basics.train_bpe import train_bpe as _right_train_bpe


def train_bpe(input_path: str | os.PathLike, vocab_size: int, special_tokens: list[str]):
    with open(input_path, encoding="utf-8", newline="") as file:
        text = file.read(65536)  # WRONG: the first 64 Ki characters only, not the whole file
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "prefix.txt")
        with open(prefix, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        return _right_train_bpe(prefix, vocab_size, special_tokens)
