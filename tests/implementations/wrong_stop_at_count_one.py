"""Known-wrong: training stops as soon as the best pair occurs only once."""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401

#: train("ab", 1000) learns nothing here, but that is the early stop (the pair occurs once), not a failure once no
#: pair is left: train.exhausted is not broken (issue 37: the fan-out of one stop over its neighbours' claims).
MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-early-stop",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Textbook training with a 'nothing repeats, nothing to learn' break."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    merges: dict[tuple[int, int], int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        best = max(stats, key=lambda pair: stats[pair])
        if stats[best] < 2:
            break
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges
