"""F6/A3 (karpathy/minbpe, kelhass): chunks by regex.findall, which returns the groups of a grouped pattern
(and drops uncovered text as tiktoken does). Everything else is the oracle. The capture-group test then blames
regex.no-cross-chunk, though no token crosses a chunk: bytes are lost."""
import regex

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from spec.oracle.ties import train_pieces


def _chunks(text, pattern):
    return [c for c in regex.findall(pattern, core.scalar_text(text)) if c]


def train(text, vocab_size, *, pattern=None):
    if pattern is None:
        return core.train(text, vocab_size)
    core.check_vocab_size(vocab_size)
    return train_pieces([list(c.encode("utf-8")) for c in _chunks(text, pattern)], vocab_size, "first-counted")


def encode(text, merges, *, pattern=None):
    if pattern is None:
        return core.encode(text, merges)
    return [i for c in _chunks(text, pattern) for i in core.encode(c, merges)]
