"""Known-wrong: the stream decoder turns each token's bytes into text as they come, flashing U+FFFD early."""

from __future__ import annotations

from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("stream.hold-partial",)


class StreamDecoder:
    def __init__(self, vocab):
        self.vocab = vocab

    def feed(self, token_id):
        return self.vocab[token_id].decode("utf-8", errors="replace")

    def flush(self):
        return ""
