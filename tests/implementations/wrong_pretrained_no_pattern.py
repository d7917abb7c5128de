"""Known-wrong: encode accepts a split pattern but ignores it, so merges cross chunk boundaries."""

from __future__ import annotations

from tests.implementations import textbook_pretrained
from tests.implementations._rehome import rehome
from tests.implementations.textbook_pretrained import *  # noqa: F403
from tests.implementations.textbook_pretrained import encode_chunk, regex  # noqa: F401  (used by the rehomed encode)

# The claim naming the mistake first; then claims whose documented values this breaks too.
MISTAKE_CLAIMS: tuple[str, ...] = (
    "pretrained.reproduce",
    "pretrained.cl100k-indent",
    "pretrained.cl100k-numbers",
)
# Claims that fail or pass depending on the example a test picks.
ALSO_MAY_FAIL: tuple[str, ...] = ()


def split(text: str, pattern: str | None) -> list[str]:
    """The whole text as one chunk, whatever the pattern says."""
    return [text] if text else []


encode = rehome(textbook_pretrained.encode, globals())
