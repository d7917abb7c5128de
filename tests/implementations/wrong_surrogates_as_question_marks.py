"""Known-wrong: text is encoded with ``errors="replace"``, so a lone surrogate becomes ``?``, not U+FFFD.

The quick fix for ``UnicodeEncodeError``; it also breaks a surrogate pair into two ``?``
where tiktoken reads one character.
"""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

from tests.implementations import textbook
from tests.implementations._rehome import rehome
from tests.implementations.textbook import *  # noqa: F403
from tests.implementations.textbook import get_stats, merge  # noqa: F401  (used by the rehomed functions)

MISTAKE_CLAIMS: tuple[str, ...] = ("surrogates.repaired",)


def utf8(text: str) -> bytes:
    return text.encode("utf-8", errors="replace")


train = rehome(textbook.train, globals())
encode = rehome(textbook.encode, globals())
