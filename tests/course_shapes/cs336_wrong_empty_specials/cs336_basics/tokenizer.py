"""The right solution's Tokenizer, but its encode cuts at the specials whenever a list of them is given."""

from __future__ import annotations

import regex

from tests.course_shapes.cs336_right.cs336_basics.tokenizer import Tokenizer as RightTokenizer


class Tokenizer(RightTokenizer):
    def __init__(self, vocab, merges, special_tokens=None):
        super().__init__(vocab, merges, special_tokens)
        self.given = special_tokens

    def encode(self, text: str) -> list[int]:
        if self.given is None:
            return super().encode(text)
        ids: list[int] = []
        # WRONG: with an empty list the alternation is empty, "()" matches everywhere, every character is a part
        for part in regex.split("(" + "|".join(regex.escape(s) for s in self.special_tokens) + ")", text):
            if part in self.special_tokens:
                ids.append(self.ids[part.encode("utf-8")])
            elif part:
                ids.extend(super().encode(part))
        return ids
