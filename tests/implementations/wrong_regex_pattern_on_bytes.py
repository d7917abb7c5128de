"""Known-wrong (probe): the published split pattern matched against the text's UTF-8 bytes, as code that compiles
it as ``rb"..."`` (or runs ``findall`` on ``text.encode()``) has it: on bytes ``\\p{L}`` matches ASCII letters only,
so "héllo" cuts as "h", "é"'s two bytes, "llo". In train and encode. Its tables are right training under that
split (spec/split_variants.py lists it), so they are the asked pattern's chunk claim, not encoding's or the
chunk counts'."""

from __future__ import annotations

from spec.oracle.chunks import ON_BYTES
from spec.patterns import PATTERNS
from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("regex.gpt2-chunks", "regex.gpt4-chunks")

_ORACLE = oracle_with(globals())
globals().update(_ORACLE)


def _on_bytes(pattern: str | None) -> str | None:
    """A published pattern matched against bytes; any other pattern (the caller's own) as asked."""
    return ON_BYTES + pattern if pattern in PATTERNS.values() else pattern


def train(text, vocab_size, *, pattern=None, **options):
    return _ORACLE["train"](text, vocab_size, pattern=_on_bytes(pattern), **options)


def encode(text, merges, *, pattern=None, **options):
    return _ORACLE["encode"](text, merges, pattern=_on_bytes(pattern), **options)
