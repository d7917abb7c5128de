"""Known-wrong: save pickles the tokenizer. It loads back fine, but the file is not the documented text format."""

from __future__ import annotations

import pickle

from tests.implementations.textbook_production import *  # noqa: F403

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.format",)


def save(path, merges, *, pattern=None, special_tokens=None):
    with open(path, "wb") as handle:
        pickle.dump((dict(merges), pattern, dict(special_tokens or {})), handle)


def load(path):
    with open(path, "rb") as handle:
        return pickle.load(handle)  # noqa: S301  (the mistake this module exists to show)
