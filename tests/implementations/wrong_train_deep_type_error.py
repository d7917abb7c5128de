"""Known-wrong: train calls ``merge`` without the new id from its second merge on, a TypeError raised inside every
training that merges twice (one that merges once returns, so the crash is not every call's: crash_probes.py).

The error names a missing positional argument, as a call to an unwritten keyword would;
it must be reported as a failure of the train level, never as "not started".
"""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

# The error stops every test that trains: the report names it as the root cause, and the claim
# it most likely breaks (bpe_kata/verdict/causes.py) is the one its tests explain best.
MISTAKE_CLAIMS: tuple[str, ...] = ("train.wikipedia-walkthrough",)


def train(text: str, vocab_size: int) -> dict[tuple[int, int], int]:
    """Textbook training, but the merge call forgets its third argument after the first merge."""
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(text.encode("utf-8"))
    merges: dict[tuple[int, int], int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        best = max(stats, key=lambda pair: stats[pair])
        ids = merge(ids, best, idx) if idx == 256 else merge(ids, best)  # type: ignore[call-arg]  # the mistake
        merges[best] = idx
    return merges
