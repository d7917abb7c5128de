"""The right solution's trainer: this wrong solution's defect is in its tokenizer (tokenizer.py) alone."""

from tests.course_shapes.cs336_right.cs336_basics.train_bpe import PAT, merged, train_bpe  # noqa: F401
