"""Known-wrong: chunks are the pattern's matches and nothing else, so text no match covers vanishes.

``regex.findall`` alone, as tiktoken does it: with ``\\w+``, "hi there!" encodes as "hithere".
"""

# mypy: disable-error-code="no-redef"
from __future__ import annotations

import regex

from tests.implementations import textbook_production
from tests.implementations._rehome import rehome
from tests.implementations.textbook_production import *  # noqa: F403
from tests.implementations.textbook_production import get_stats, merge, split_special, textbook  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.covers-text",)


def chunks_of(text: str, pattern: str) -> list[str]:
    text = textbook.utf8(text).decode("utf-8")
    return [chunk for chunk in regex.findall(pattern, text) if chunk]


train = rehome(textbook_production.train, globals())
encode_piece = rehome(textbook_production.encode_piece, globals())
encode = rehome(textbook_production.encode, globals())
