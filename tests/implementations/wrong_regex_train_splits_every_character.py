"""Known-wrong (probe): given a published split pattern, train cuts every character into a chunk of its own, as
``re.split("|".join(special_tokens), text)`` does when the list is empty (a CS336 habit): pairs inside a
multi-byte character are counted and nothing else. Its tables are right training under that split, so the one
classifier of invalid tables (spec/split_variants.py) charges them to the asked pattern's chunk claim."""

from __future__ import annotations

from spec.oracle import chunks
from spec.patterns import PATTERNS
from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.gpt2-chunks", "regex.gpt4-chunks")


def train_covering_chunks(text: str, pattern: str) -> list[str]:
    """A published pattern's text cut into characters (CS336's case is always GPT-2's); any other pattern as asked."""
    found = chunks.covering_chunks(text, pattern)  # a character the pattern leaves out is still named
    return list(chunks.scalar_text(text)) if pattern in PATTERNS.values() else found


globals().update(oracle_with(globals()))
