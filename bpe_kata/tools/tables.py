"""Where a merge table comes from for the tools: trained on the fly, a saved file, or a published one.

Spellings: ``train:CORPUS:VOCAB`` (or ``CORPUS:VOCAB``) trains the implementation on a corpus
(``tinyshakespeare``, ``alice`` or a text file); ``gpt2`` and ``cl100k_base`` are the published
tables in the contract's numbering (bpe_kata/data/pretrained.py); any other value is a ``bpe-kata v1`` file
read with the implementation's ``load``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bpe_kata.data import corpora
from bpe_kata.data.pretrained import TABLE_NAMES

Pair = tuple[int, int]


class TableError(Exception):
    """The table could not be had; the message says why and how to fix it."""


@dataclass
class Table:
    """What encode needs, with a name to show."""

    name: str
    merges: dict[Pair, int]
    pattern: str | None = None
    special_tokens: dict[str, int] = field(default_factory=dict)


def corpus_text(name: str) -> str:
    """A corpus by name (verified copy, see bpe_kata/data/corpora.py) or any UTF-8 text file."""
    if name in corpora.CORPORA:
        try:
            return corpora.CorpusFinder().text(name)
        except corpora.CorpusUnavailable as error:
            raise TableError(str(error)) from None
    path = Path(name).expanduser()
    if not path.is_file():
        raise TableError(f"corpus {name!r}: neither {', '.join(corpora.CORPORA)} nor a file")
    return path.read_text(encoding="utf-8", errors="replace")


def parse_train_spec(value: str) -> tuple[str, int]:
    """``CORPUS:VOCAB`` -> (corpus, vocab_size)."""
    corpus, _, vocab = value.removeprefix("train:").rpartition(":")
    if not corpus or not vocab.isdigit():
        raise TableError(f"{value!r}: expected CORPUS:VOCAB, e.g. tinyshakespeare:512 or notes.txt:300")
    return corpus, int(vocab)


def trained(impl, corpus: str, vocab_size: int) -> Table:
    merges = impl.train(corpus_text(corpus), vocab_size)
    return Table(f"{Path(corpus).name}:{vocab_size}", dict(merges))


def resolve(impl, value: str) -> Table:
    """The table ``value`` names, built or read with ``impl`` where that is its job."""
    if value in TABLE_NAMES:
        from bpe_kata.data import pretrained

        try:
            table = pretrained.load(value)
        except pretrained.TableUnavailable as error:
            raise TableError(str(error)) from None
        return Table(value, table.merges, table.pattern, dict(table.special_tokens))
    if value.startswith("train:") or (":" in value and not Path(value).exists()):
        return trained(impl, *parse_train_spec(value))
    if not Path(value).is_file():
        raise TableError(f"table {value!r}: not {' or '.join(TABLE_NAMES)}, not CORPUS:VOCAB and no such file")
    merges, pattern, specials = impl.load(value)
    return Table(Path(value).name, dict(merges), pattern, dict(specials or {}))
