"""Known-wrong: decode skips an id its vocabulary lacks instead of raising (as Hugging Face tokenizers does)."""

from __future__ import annotations

from spec.oracle.core import build_vocab, encode, get_stats, merge, train  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("decode.unknown-id",)


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Join the bytes of the ids the vocabulary knows, then decode UTF-8 with replacement."""
    return b"".join(vocab[i] for i in ids if i in vocab).decode("utf-8", errors="replace")
