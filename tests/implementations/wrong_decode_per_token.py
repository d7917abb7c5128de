"""Known-wrong: decode turns each token into text on its own, breaking split characters."""

from __future__ import annotations

from spec.oracle.core import build_vocab, encode, get_stats, merge, train  # noqa: F401  (the oracle's)

MISTAKE_CLAIMS: tuple[str, ...] = ("decode.join-then-decode",)


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Decode every token with replacement, then join the strings."""
    return "".join(vocab[i].decode("utf-8", errors="replace") for i in ids)
