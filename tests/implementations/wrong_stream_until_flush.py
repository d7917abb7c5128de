"""Known-wrong: the stream decoder keeps every byte until flush; right in the end, useless while streaming."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("stream.eager",)


class StreamDecoder:
    def __init__(self, vocab):
        self.vocab, self.pending = vocab, b""

    def feed(self, token_id):
        self.pending += self.vocab[token_id]
        return ""

    def flush(self):
        text, self.pending = self.pending.decode("utf-8", errors="replace"), b""
        return text
