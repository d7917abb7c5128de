"""Known-wrong (probe): the split pattern without its look-ahead ``\\s+(?!\\S)``, as a port to a regex engine
without look-around (Rust's ``regex`` crate, Go's RE2) has it: a run of spaces before a word keeps its last
space, so "a  b" cuts as "a", "  ", "b" where the published patterns cut "a", " ", " b". In train and encode."""

from __future__ import annotations

from spec.oracle import chunks
from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.gpt2-chunks", "regex.gpt4-chunks")


def covering_chunks(text: str, pattern: str) -> list[str]:
    return chunks.covering_chunks(text, pattern.replace(r"\s+(?!\S)|", ""))


globals().update(oracle_with(globals()))
