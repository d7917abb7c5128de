"""The two sides of ``bpe-kata diff``: anything ``--impl`` names, a published tokenizer, or a saved file.

A side answers three questions on an input: ``train(text, vocab_size)``, ``encode(text, table)``
and ``decode(ids, table)``. An implementation of the contract is started by the one route
(bpe_kata/child/launch.py: a module, a path, ``cmd:``, or any other value the loader resolves,
course shapes included), so ``diff`` never needs to know what it is. A published tokenizer
(``tiktoken:NAME``) is tiktoken's own encoding built offline from the verified files
(bpe_kata/data/tiktoken_tables.py); a saved ``bpe-kata v1`` file (``file:PATH``) is its table
encoded the contract's way by the oracle. Those two are tokenizers with a fixed table: they
cannot train, and they encode with their own table only, so a diff against one compares the
other side on that table.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bpe_kata.tools.tables import Table

Pair = tuple[int, int]
OPERATIONS = ("train", "encode", "decode")


class SideError(Exception):
    """A side could not be had; the message says why and how to fix it (a usage error: exit 2)."""


@dataclass
class Side:
    """One side of the diff; ``table`` is set for a tokenizer whose table is fixed."""

    name: str
    impl: Any = None
    table: Table | None = None
    encoding: Any = None  # tiktoken's Encoding for ``tiktoken:NAME``
    published: Any = None  # its PublishedTable (contract <-> published ids)
    missing: dict[str, str] = field(default_factory=dict)  # operation -> why this side cannot do it
    _held: dict = field(default_factory=dict, repr=False)  # built once: the inverse ranks, each table's vocab

    @property
    def fixed(self) -> bool:
        return self.table is not None

    def train(self, text: str, vocab_size: int) -> list[tuple[Pair, int]]:
        from spec.shapes import merges_of

        return merges_of(self.impl.train(text, vocab_size))

    def encode(self, text: str, table: Table) -> list[int]:
        if self.encoding is not None:
            if "ranks" not in self._held:
                self._held["ranks"] = {published: idx for idx, published in enumerate(self.published.published_ids)}
            ranks = self._held["ranks"]
            # the specials the table keeps are allowed, as the other side is told; any other is plain text
            found = self.encoding.encode(text, allowed_special=set(self.table.special_tokens), disallowed_special=())
            return [ranks.get(i, i) for i in found]
        key = ("merges", id(table))
        if key not in self._held:  # the side's own copy, passed every time (an implementation caches by object)
            self._held[key] = dict(table.merges)
        return [int(i) for i in self.impl.encode(text, self._held[key], **keywords(table))]

    def decode(self, ids: list[int], table: Table) -> str:
        if self.encoding is not None:
            return self.encoding.decode(self.published.to_published(ids))
        key = ("vocab", id(table))
        if key not in self._held:  # the vocabulary of one table, built once by the side itself
            self._held[key] = (self.impl.build_vocab(dict(table.merges), dict(table.special_tokens))
                               if table.special_tokens else self.impl.build_vocab(dict(table.merges)))
        return self.impl.decode(list(ids), self._held[key])


def keywords(table: Table) -> dict[str, Any]:
    """The contract's keywords a table needs (none for a plain merge table: every level-1 encode works)."""
    extra: dict[str, Any] = {}
    if table.pattern is not None:
        extra["pattern"] = table.pattern
    if table.special_tokens:
        extra["special_tokens"] = dict(table.special_tokens)
        extra["allowed_special"] = "all"
    return extra


def resolve(value: str) -> Side:
    """The side ``value`` names; SideError when it cannot be had."""
    if value.startswith("tiktoken:"):
        return _published(value)
    if value.startswith("file:"):
        return _saved(value, Path(value.removeprefix("file:")))
    return _implementation(value)


def _published(value: str) -> Side:
    from bpe_kata.data import pretrained, published_more, tiktoken_tables

    name = value.removeprefix("tiktoken:")
    known = (*pretrained.TABLE_NAMES, *published_more.NAMES)
    if name not in known:
        raise SideError(f"{value}: unknown published tokenizer; known: " + ", ".join(f"tiktoken:{n}" for n in known))
    try:
        if name in pretrained.TABLE_NAMES:
            table, encoding = pretrained.load(name), tiktoken_tables.encoding(name)
            pattern = table.pattern
        else:
            loaded, encoding = published_more.load(name), published_more.encoding(name)
            table, pattern = loaded.table, loaded.pattern
    except pretrained.TableUnavailable as error:
        raise SideError(f"{value}: {error}") from None
    return Side(value, table=Table(name, table.merges, pattern, dict(table.special_tokens)),
                encoding=encoding, published=table, missing={"train": "a published tokenizer has no trainer"})


def _saved(value: str, path: Path) -> Side:
    from spec import oracle

    if not path.is_file():
        raise SideError(f"{value}: no such file (a saved bpe-kata v1 file, as `save` writes it)")
    try:
        merges, pattern, specials = oracle.load(path)
    except (ValueError, OSError) as error:
        raise SideError(f"{value}: not a bpe-kata v1 file: {error}") from None
    return Side(value, impl=oracle, table=Table(path.name, dict(merges), pattern, dict(specials or {})),
                missing={"train": "a saved file has no trainer"})


def _implementation(value: str) -> Side:
    from bpe_kata.child import launch
    from bpe_kata.child.client import IsolatedImplementation, IsolationFault
    from bpe_kata.impl.loader import ImplementationNotFound

    if os.getcwd() not in sys.path:  # as `bpe-kata check` does: solutions.mine from a clone
        sys.path.insert(0, os.getcwd())
    try:
        impl = launch.start(value, cwd=os.getcwd())
        if isinstance(impl, IsolatedImplementation):
            impl.connect()
    except ImplementationNotFound as error:
        raise SideError(str(error)) from None
    except (ValueError, IsolationFault) as error:
        raise SideError(f"{value}: {error}") from None
    side = Side(value, impl=impl)
    side.missing = _not_started(impl)
    return side


def _not_started(impl: Any) -> dict[str, str]:
    """The operations an implementation cannot do yet: a missing function, or a stub raising NotImplementedError.
    Any other exception is an answer like any other, and ``diff`` compares it."""
    probes = {"train": (("train",), lambda: impl.train("ab", 257)),
              "encode": (("encode",), lambda: impl.encode("ab", {})),
              "decode": (("build_vocab", "decode"), lambda: impl.decode([97], impl.build_vocab({})))}
    missing = {}
    for operation, (functions, probe) in probes.items():
        absent = [f for f in functions if not callable(getattr(impl, f, None))]
        if absent:
            missing[operation] = f"it has no {' or '.join(absent)}"
            continue
        try:
            probe()
        except NotImplementedError:
            missing[operation] = f"its {operation} raises NotImplementedError (not started)"
        except Exception:  # noqa: BLE001  (a bug is for the diff to show, not a reason to skip)
            pass
    return missing


def close(side: Side) -> None:
    """Stop a side's child process, if it has one."""
    closer = getattr(side.impl, "close", None)
    if callable(closer) and type(side.impl).__name__ == "IsolatedImplementation":
        closer()
