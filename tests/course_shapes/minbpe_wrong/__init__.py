"""Known-wrong, minbpe-shaped: the right solution, but training crashes once no pair is left."""

from tests.course_shapes.minbpe_right.tokenizer import get_stats, merge  # noqa: F401

from .tokenizer import RegexTokenizer  # noqa: F401
