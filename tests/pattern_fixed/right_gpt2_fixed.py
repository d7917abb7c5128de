"""Right, with a fixed split pattern: train and encode always split text with GPT-2's pattern, as much
course code does (CS336's pre-tokenizer), and take no ``pattern=``. The oracle otherwise."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from spec import oracle
from spec.oracle import StreamDecoder, build_vocab, decode, get_stats, merge, segment_word, train_words  # noqa: F401
from spec.patterns import GPT2_SPLIT_PATTERN

FIXED_PATTERN = "gpt2"

Pair = tuple[int, int]


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    return oracle.train(text, vocab_size, pattern=GPT2_SPLIT_PATTERN)


def encode(
    text: str,
    merges: dict[Pair, int],
    *,
    special_tokens: Mapping[str, int] | None = None,
    allowed_special: Collection[str] | str = frozenset(),
    disallowed_special: Collection[str] | str = "all",
) -> list[int]:
    return oracle.encode(text, merges, pattern=GPT2_SPLIT_PATTERN, special_tokens=special_tokens,
                         allowed_special=allowed_special, disallowed_special=disallowed_special)
