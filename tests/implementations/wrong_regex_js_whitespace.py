"""Known-wrong: the split pattern runs on an engine whose ``\\s`` also matches U+FEFF (JavaScript's does), so a
BOM inside the text is cut as whitespace, not as a symbol as in Python's ``regex`` and tiktoken (issue 37, kind 6).

The pattern's ``\\s`` and ``\\S`` are rewritten to that engine's meaning before it is used, in train and encode.
"""

from __future__ import annotations

from spec.oracle import chunks, special
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.gpt2-chunks", "regex.gpt4-chunks")


def _as_javascript(pattern: str) -> str:
    return pattern.replace("[^\\s", "[^\\s\\ufeff").replace("\\S", "[^\\s\\ufeff]").replace(
        "\\s+", "[\\s\\ufeff]+").replace("\\s*", "[\\s\\ufeff]*")


def covering_chunks(text: str, pattern: str) -> list[str]:
    return chunks.covering_chunks(text, _as_javascript(pattern))


chunk_bytes = rehome(chunks.chunk_bytes, globals())
encode_chunks = rehome(chunks.encode_chunks, globals())
train = rehome(chunks.train, globals())
encode = rehome(special.encode, globals())
