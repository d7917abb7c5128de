"""Known-wrong: encode_iterable joins its texts into batches of at least 5,000 characters and encodes each batch on
its own, so a word or a special cut at a batch's end is encoded as two (right on every short input)."""

from __future__ import annotations

from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.iterable",)

BATCH = 5_000


def encode_iterable(texts, merges, **keywords):
    """Lazy in batches, blind to the cut at each batch's end."""
    batch = ""
    for text in texts:
        batch += text
        if len(batch) >= BATCH:
            yield from encode(batch, merges, **keywords)
            batch = ""
    yield from encode(batch, merges, **keywords)
