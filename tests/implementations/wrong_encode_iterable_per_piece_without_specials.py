"""Known-wrong: encode_iterable holds back the text after the last special token it has seen, but with no
special token given it has nothing to cut at and encodes each text on its own (right only with specials)."""

from __future__ import annotations

from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("encode.iterable",)


def encode_iterable(texts, merges, **keywords):
    """Buffered up to the last special when specials are given; blind to the cuts when none is."""
    specials = keywords.get("special_tokens") or {}
    if not specials:
        for text in texts:
            yield from encode(text, merges, **keywords)
        return
    buffer = ""
    for text in texts:
        buffer += text
        ends = [buffer.rfind(special) + len(special) for special in specials if special in buffer]
        cut = max(ends, default=0)
        if cut:
            yield from encode(buffer[:cut], merges, **keywords)
            buffer = buffer[cut:]
    yield from encode(buffer, merges, **keywords)
