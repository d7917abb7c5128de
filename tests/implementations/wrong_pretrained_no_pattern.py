"""Known-wrong: encode accepts a split pattern but ignores it, so merges cross chunk boundaries."""

from __future__ import annotations

from spec.oracle import chunks, special
from spec.oracle.core import decode, get_stats, merge, train  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from tests.implementations._rehome import rehome

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = (
    "pretrained.reproduce",
    "pretrained.cl100k-indent",
    "pretrained.cl100k-numbers",
)


def covering_chunks(text: str, pattern: str) -> list[str]:
    """The whole text as one chunk, whatever the pattern says."""
    return [text] if text else []


encode_chunks = rehome(chunks.encode_chunks, globals())
encode = rehome(special.encode, globals())
