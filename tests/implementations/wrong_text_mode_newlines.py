"""Known-wrong: the text is read as a text-mode file reads it: CRLF and CR become LF before the bytes are taken,
in train and encode alike, so ``encode("a\\rb", {})`` is ``[97, 10, 98]`` (issue 37, kind 6)."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.no-normalization", "bytes.base-256")


def utf8(text: str) -> bytes:
    return core.scalar_text(text.replace("\r\n", "\n").replace("\r", "\n")).encode("utf-8")


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
