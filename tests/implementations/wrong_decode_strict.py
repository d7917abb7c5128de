"""Known-wrong: decode uses strict UTF-8, so invalid bytes raise instead of becoming U+FFFD."""

from __future__ import annotations

from spec.oracle.core import build_vocab, encode, get_stats, merge, train  # noqa: F401  (the oracle's)

MISTAKE_CLAIMS: tuple[str, ...] = ("decode.replace-128",)


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Join the bytes, then ``bytes.decode`` with its default error handler."""
    return b"".join(vocab[i] for i in ids).decode("utf-8")
