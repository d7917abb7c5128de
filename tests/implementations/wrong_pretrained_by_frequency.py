"""Known-wrong: with a published table, each chunk merges its most frequent known pair, not the lowest rank."""

from __future__ import annotations

from spec.oracle import special
from spec.oracle.chunks import covering_chunks
from spec.oracle.core import decode, get_stats, merge, train  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from tests.implementations._rehome import rehome

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = (
    "pretrained.reproduce",
    "pretrained.cl100k-indent",
    "pretrained.cl100k-numbers",
)


def encode_chunks(text: str, merges: dict[tuple[int, int], int], pattern: str) -> list[int]:
    """Each chunk replays training: the known pair counted most often in it wins."""
    out: list[int] = []
    for chunk in covering_chunks(text, pattern):
        ids = list(chunk.encode("utf-8"))
        while len(ids) >= 2:
            known = {pair: count for pair, count in get_stats(ids).items() if pair in merges}
            if not known:
                break
            pair = max(known, key=known.get)
            ids = merge(ids, pair, merges[pair])
        out += ids
    return out


encode = rehome(special.encode, globals())
