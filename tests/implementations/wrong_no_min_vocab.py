"""Known-wrong: train never checks vocab_size, so a size below 256 quietly gives no merges."""

from __future__ import annotations

from spec.oracle import core
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge, utf8  # noqa: F401
from tests.implementations._rehome import rehome

MISTAKE_CLAIMS: tuple[str, ...] = ("train.min-vocab",)


def check_vocab_size(vocab_size: int) -> None:
    """The mistake: no check, and ``range(256, 255)`` is simply empty."""


train = rehome(core.train, globals())
