"""Known-wrong: the stream decoder keeps every byte until flush; right in the end, useless while streaming."""

from __future__ import annotations

from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401

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
