"""Known-wrong: save pickles the tokenizer. It loads back fine, but the file is not the documented text format."""

from __future__ import annotations

import pickle

from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.format",)


def save(path, merges, *, pattern=None, special_tokens=None):
    with open(path, "wb") as handle:
        pickle.dump((dict(merges), pattern, dict(special_tokens or {})), handle)


def load(path):
    with open(path, "rb") as handle:
        return pickle.load(handle)  # the mistake this module exists to show
