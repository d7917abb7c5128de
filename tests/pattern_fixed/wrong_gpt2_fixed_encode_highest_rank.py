"""Wrong, with a fixed split pattern: encode applies, in each GPT-2 chunk, the present merge learned LAST
(highest id) first, not the earliest. Its training is right. Before issue 38 a pattern-fixed encode was
"not started" in the encode level, so this mistake passed unseen; now it fails encode.lowest-rank."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from spec import oracle
from spec.oracle import StreamDecoder, build_vocab, decode, get_stats, merge, segment_word, train_words  # noqa: F401
from spec.oracle.chunks import chunks
from spec.patterns import GPT2_SPLIT_PATTERN

FIXED_PATTERN = "gpt2"

Pair = tuple[int, int]


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    return oracle.train(text, vocab_size, pattern=GPT2_SPLIT_PATTERN)


def _chunk(text: str, merges: dict[Pair, int]) -> list[int]:
    ids = list(text.encode("utf-8", errors="surrogatepass").decode("utf-8", errors="replace").encode("utf-8"))
    while True:
        present = [pair for pair in zip(ids, ids[1:]) if pair in merges]
        if not present:
            return ids
        pair = max(present, key=merges.__getitem__)
        ids = merge(ids, pair, merges[pair])


def encode(text: str, merges: dict[Pair, int], *, special_tokens: Mapping[str, int] | None = None,
           allowed_special: Collection[str] | str = frozenset(), disallowed_special: Collection[str] | str = "all"
           ) -> list[int]:
    out: list[int] = []
    for piece in oracle.special.split_special(text, special_tokens or {}, allowed_special, disallowed_special):
        out += [piece] if isinstance(piece, int) else [i for c in chunks(piece, GPT2_SPLIT_PATTERN)
                                                         for i in _chunk(c, merges)]
    return out
