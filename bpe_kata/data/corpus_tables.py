"""Corpus tables the spec trains itself, once, and keeps in the user cache.

The bytes-per-token curve reads the Alice text under 512 to 4,096 ids. Making an
implementation train that table costs minutes for a correct textbook version, and what
the curve checks is the encoding, so the spec trains the table with its own fast trainer
(spec/fast_train.py, equal to the oracle) and the implementation's ``encode`` is checked
against it. The implementation's training is held to the exact merges the train level
reads (the first 20 of tiny Shakespeare, the first 12 of the Alice text).

A table is cached on disk, keyed by the corpus's SHA-256 and the trainer's own source, so
a changed trainer never reads an old table; a file that does not parse as a table is
trained again.

With a split in force (spec/oracle/split.py: the implementation always splits with a pattern), the
table is the oracle's under that split, the corpus trained inside the pattern's chunks with the split's
tie rule (spec/fast_chunk_train.py), keyed by the pattern and the rule too: the corpus values a document
states for the whole text are restated with it (spec/corpus_values.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from bpe_kata.data import value_cache
from bpe_kata.data.corpora import user_cache_dir, write_cache_file
from spec import fast_chunk_train, fast_train, replay
from spec.oracle import split

Pair = tuple[int, int]

#: The largest table the spec trains per corpus; smaller tables are its prefixes (train.prefix).
SPEC_TABLE_SIZES = {"alice": 4096}


def trainer_fingerprint() -> str:
    return hashlib.sha256(Path(fast_train.__file__).read_bytes()).hexdigest()[:12]


def _split_in_force() -> tuple[str, str] | None:
    """The split the table is trained under: (pattern, tie rule), or None for the whole text."""
    now = split.in_force()
    if now is None or (now.pattern is None and now.tie_rule == "first-counted"):
        return None
    if now.pattern is None:  # the spec's whole-text trainer has only the first-counted rule
        split.needs_whole_text("a corpus table trained over the whole text with another tie rule")
    return now.pattern, now.tie_rule


def cache_path(name: str, text: str, vocab_size: int) -> Path:
    corpus = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    under = _split_in_force()
    if under is None:
        return user_cache_dir() / f"table-{name}-{corpus}-{trainer_fingerprint()}-{vocab_size}.json"
    how = hashlib.sha256(repr(under).encode("utf-8") + Path(fast_chunk_train.__file__).read_bytes()).hexdigest()
    return user_cache_dir() / f"table-{name}-{corpus}-split-{how[:12]}-{vocab_size}.json"


def table(name: str, text: str, vocab_size: int) -> list[tuple[Pair, int]]:
    """``spec.fast_train.train(text, vocab_size)`` as (pair, id) in order, from the cache when there; with a
    split in force, the oracle's training under it (``spec.fast_chunk_train.train``)."""
    path = cache_path(name, text, vocab_size)
    cached = _read(path, vocab_size)
    if cached is not None:
        return cached
    under = _split_in_force()
    trained = fast_train.train(text, vocab_size) if under is None else fast_chunk_train.train(text, vocab_size, *under)
    merges = list(trained.items())
    write_cache_file(path, json.dumps([list(pair) for pair, _ in merges]))
    return merges


def _read(path: Path, vocab_size: int) -> list[tuple[Pair, int]] | None:
    """The cached table, or None when it is missing or is not a table of merges in id order."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(rows, list) or len(rows) > vocab_size - 256:
        return None
    merges = []
    for idx, row in enumerate(rows, start=256):
        if not (isinstance(row, list) and len(row) == 2
                and all(type(part) is int and 0 <= part < idx for part in row)):
            return None
        merges.append(((row[0], row[1]), idx))
    return merges



def replayed(name: str, text: str, merges: list[tuple[Pair, int]], compute: Callable[[], list[int]]) -> list[int]:
    """``compute()``, the spec's replay of ``merges`` over a corpus (spec/replay.py, inside the chunks of the
    split in force), kept on disk keyed by the corpus's SHA-256, the table, the split and the replay's source;
    a stored sequence is used only when its tokens spell the corpus under that table."""
    data = text.encode("utf-8")
    key = value_cache.key_of(name, hashlib.sha256(data).hexdigest(), repr(merges), repr(split.resolve(None)),
                             value_cache.source_digest(replay.__file__, fast_chunk_train.__file__))
    token = {idx: bytes([idx]) for idx in range(256)}
    for (left, right), idx in merges:
        token[idx] = token[left] + token[right]

    def spells_the_corpus(ids: object) -> bool:
        return (type(ids) is list and value_cache.all_of(ids, int) and all(idx in token for idx in ids)
                and b"".join(token[idx] for idx in ids) == data)

    return value_cache.cached("replay", key, compute, spells_the_corpus)
