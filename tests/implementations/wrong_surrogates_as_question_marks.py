"""Known-wrong: text is encoded with ``errors="replace"``, so a lone surrogate becomes ``?``, not U+FFFD.

The quick fix for ``UnicodeEncodeError``; it also breaks a surrogate pair into two ``?``
where tiktoken reads one character.
"""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("surrogates.repaired",)


def utf8(text: str) -> bytes:
    return text.encode("utf-8", errors="replace")


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
