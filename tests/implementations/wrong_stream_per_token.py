"""Known-wrong: the stream decoder turns each token's bytes into text as they come, flashing U+FFFD early."""

from __future__ import annotations

from tests.implementations.textbook_production import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("stream.hold-partial", "stream.matches-decode")


class StreamDecoder:
    def __init__(self, vocab):
        self.vocab = vocab

    def feed(self, token_id):
        return self.vocab[token_id].decode("utf-8", errors="replace")

    def flush(self):
        return ""
