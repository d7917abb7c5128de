"""Known-wrong (probe): every text is read as a text-mode file reads it, CRLF and CR folded to LF before its
bytes are taken, in every operation at every level (a CS336 trainer that opens its file with ``open(path)``)."""

from __future__ import annotations

from spec.oracle import core
from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("bytes.no-normalization", "bytes.base-256")


def utf8(text: str) -> bytes:
    return core.scalar_text(text.replace("\r\n", "\n").replace("\r", "\n")).encode("utf-8")


globals().update(oracle_with(globals()))
