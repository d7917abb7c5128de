"""Known-wrong: load hands back the merges sorted by pair, losing the training order the file kept."""

from __future__ import annotations

from spec.oracle import persist
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.frozen",)


def load(path):
    merges, pattern, specials = persist.load(path)
    return dict(sorted(merges.items())), pattern, specials
