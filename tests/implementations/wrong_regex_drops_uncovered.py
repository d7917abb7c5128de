"""Known-wrong: chunks are the pattern's matches and nothing else, so text no match covers vanishes.

``regex.findall`` alone, as tiktoken does it: with ``\\w+``, "hi there!" encodes as "hithere".
"""

from __future__ import annotations

import regex

from spec.oracle import chunks, special
from spec.oracle.core import decode, get_stats, merge, scalar_text  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.covers-text",)


def covering_chunks(text: str, pattern: str) -> list[str]:
    text = scalar_text(text)
    return [chunk for chunk in regex.findall(pattern, text) if chunk]


chunk_bytes = rehome(chunks.chunk_bytes, globals())
encode_chunks = rehome(chunks.encode_chunks, globals())
train = rehome(chunks.train, globals())
encode = rehome(special.encode, globals())
