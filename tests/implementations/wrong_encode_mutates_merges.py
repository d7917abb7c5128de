"""Known-wrong: encode looks ranks up with setdefault, so each unknown pair it meets is added.

Its own results stay right (the added pairs rank at infinity), but the caller's table now
holds pairs that were never learned, with a rank that is not an id.
"""

from __future__ import annotations

from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.frozen",)

_NEVER = float("inf")


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Textbook encode with ``merges.setdefault`` where ``merges.get`` was meant."""
    ids = list(utf8(text))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.setdefault(p, _NEVER))  # type: ignore[arg-type]
        if merges[pair] == _NEVER:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
