"""Known-wrong, minbpe-shaped: the course's own `max(stats, key=stats.get)` with no check, so a text
with no adjacent pair left before vocab_size is reached raises ValueError [train.exhausted]."""

from __future__ import annotations

from tests.course_shapes.minbpe_right.tokenizer import RegexTokenizer as RightTokenizer

MISTAKE_CLAIMS = ("train.exhausted",)


class RegexTokenizer(RightTokenizer):
    def _best_pair(self, stats):
        return max(stats, key=stats.get)
