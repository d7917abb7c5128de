"""The right solution's Tokenizer: this wrong solution's defect is in its trainer (train_bpe.py) alone."""

from tests.course_shapes.cs336_right.cs336_basics.tokenizer import Tokenizer  # noqa: F401
