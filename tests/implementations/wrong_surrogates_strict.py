"""Known-wrong: text is encoded to UTF-8 strictly, so a lone surrogate raises UnicodeEncodeError instead of
becoming U+FFFD as in tiktoken (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("surrogates.repaired",)


def utf8(text: str) -> bytes:
    return text.encode("utf-8")


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
