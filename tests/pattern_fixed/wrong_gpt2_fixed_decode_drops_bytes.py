"""Known-wrong, with a fixed split pattern: right_gpt2_fixed, but decode drops the bytes that are not
UTF-8 (errors="ignore") instead of turning each into U+FFFD."""

from __future__ import annotations

from tests.pattern_fixed.right_gpt2_fixed import (  # noqa: F401
    FIXED_PATTERN,
    StreamDecoder,
    build_vocab,
    encode,
    get_stats,
    merge,
    segment_word,
    train,
    train_words,
)

MISTAKE_CLAIMS: tuple[str, ...] = ("decode.replace-128",)


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="ignore")
