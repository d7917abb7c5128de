"""Known-wrong: decode reads the joined bytes with the utf-8-sig codec, so a leading U+FEFF is taken for a
byte-order mark and dropped."""

from __future__ import annotations

from spec.oracle.core import build_vocab, encode, get_stats, merge, train  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("decode.bom-kept",)


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Join, then decode as utf-8-sig (with replacement)."""
    for i in ids:
        if i not in vocab:
            raise KeyError(f"unknown token id {i}")
    return b"".join(vocab[i] for i in ids).decode("utf-8-sig", errors="replace")
