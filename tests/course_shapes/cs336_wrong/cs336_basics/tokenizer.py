"""Known-wrong, CS336-shaped: the right solution's tokenizer, but decode uses strict UTF-8.

A classic of the assignment (its handout asks for errors="replace"): ids whose joined bytes are not
valid UTF-8 raise UnicodeDecodeError instead of giving U+FFFD [decode.replace-128].
"""

from __future__ import annotations

from tests.course_shapes.cs336_right.cs336_basics.tokenizer import Tokenizer as RightTokenizer

MISTAKE_CLAIMS = ("decode.replace-128",)


class Tokenizer(RightTokenizer):
    def decode(self, ids: list[int]) -> str:
        return b"".join(self.vocab[i] for i in ids).decode("utf-8")
