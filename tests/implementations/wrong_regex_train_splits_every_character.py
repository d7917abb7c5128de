"""Known-wrong (probe): given a split pattern, train cuts every character into a chunk of its own, as
``re.split("|".join(special_tokens), text)`` does when the list is empty (a CS336 habit): pairs inside a
multi-byte character are counted and nothing else. Its tables are right training under that split, so the one
classifier of invalid tables (spec/split_variants.py) charges them to the asked pattern's chunk claim."""

from __future__ import annotations

from spec.oracle import chunks
from tests.implementations._rehome import oracle_with

#: A pattern of the caller's own has no chunk claim: counting inside its chunks is regex.chunk-frequency's.
MISTAKE_CLAIMS: tuple[str, ...] = ("regex.gpt2-chunks", "regex.gpt4-chunks", "regex.chunk-frequency")


def train_covering_chunks(text: str, pattern: str) -> list[str]:
    chunks.covering_chunks(text, pattern)  # a character the pattern leaves out is still named
    return list(chunks.scalar_text(text))


globals().update(oracle_with(globals()))
