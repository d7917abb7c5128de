"""Published tables (GPT-2, cl100k_base) in the contract's terms.

A published table ranks byte strings, and its ids are those ranks: GPT-2's and cl100k's
first 256 ids are the single bytes in a printable-first order, so id 0 is ``!``, not byte
0. The contract numbers differently: ids 0..255 are the byte values and merges follow from
256 in rank order. Loading therefore gives the merge table in contract ids plus the map
from each contract id to the published one, so that ids can be compared with tiktoken.

GPT-2 publishes its merges (vocab.bpe); cl100k_base only ranks, so its merges are
recovered: a token's two parts are what BPE makes of its bytes with only lower ranks
allowed. That takes a couple of seconds for 100k tokens, so the split points are cached
on disk, keyed by the rank file's SHA-256, and checked when read back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from bpe_kata.data import value_cache
from bpe_kata.data.corpora import user_cache_dir, write_cache_file
from bpe_kata.data.published import TOKENIZERS, TableUnavailable, read_verified

__all__ = ["TABLE_NAMES", "PublishedTable", "TableUnavailable", "load", "recover_splits", "split_pattern"]

Pair = tuple[int, int]
TABLE_NAMES = tuple(TOKENIZERS)


@dataclass(frozen=True)
class PublishedTable:
    """One published tokenizer, ready for the contract's ``encode``/``build_vocab``."""

    name: str
    merges: dict[Pair, int]  # contract ids, in rank order (do not mutate: shared per session)
    special_tokens: dict[str, int]  # text -> id; the same id in both numberings
    published_ids: tuple[int, ...]  # contract id -> published id, for every non-special id
    token_bytes: tuple[bytes, ...]  # contract id -> the token's bytes

    @property
    def pattern(self) -> str:
        """The published split pattern the implementation is given (spec/patterns.py)."""
        return split_pattern(self.name)

    def to_published(self, ids: Iterable[int]) -> list[int]:
        """Contract ids as the published tokenizer numbers them (special ids are unchanged)."""
        table, n = self.published_ids, len(self.published_ids)
        return [table[i] if 0 <= i < n else i for i in ids]

    def pieces(self, ids: Iterable[int]) -> list[bytes]:
        """The bytes of each contract id (special tokens give their UTF-8 text)."""
        specials = {idx: text.encode("utf-8") for text, idx in self.special_tokens.items()}
        table, n = self.token_bytes, len(self.token_bytes)
        return [table[i] if 0 <= i < n else specials[i] for i in ids]


def split_pattern(name: str) -> str:
    """The split pattern of a published table, from the regex level's spec/patterns.py."""
    return TOKENIZERS[name].pattern


@cache
def load(name: str) -> PublishedTable:
    """The named published table, verified and converted once per process.

    The files are read and their SHA-256 checked on every load; the conversion (half a second for
    both tables) is kept on disk (bpe_kata/data/value_cache.py), keyed by the files' hashes and
    this converter's source, and its shape checked when read back."""
    if name not in TOKENIZERS:
        raise ValueError(f"unknown published table {name!r}; known: {', '.join(TABLE_NAMES)}")
    tokenizer = TOKENIZERS[name]
    files = [read_verified(file.filename) for file in tokenizer.files]  # each is checked to have its sha256
    key = value_cache.key_of(name, *(file.sha256 for file in tokenizer.files), _converter_digest())
    merges, specials, published, token_bytes = value_cache.cached(
        "published", key, lambda: _as_data(_convert(name, files)), _is_table_data)
    table = PublishedTable(name, {(a, b): idx for idx, (a, b) in enumerate(merges, start=256)}, dict(specials),
                           tuple(published), tuple(token_bytes))
    if len(table.merges) != len(merges):
        raise TableUnavailable(f"{name}: a merge appears twice")
    return table


def _convert(name: str, files: list[bytes]) -> PublishedTable:
    tokenizer = TOKENIZERS[name]
    parsed = tokenizer.parse(*files)
    # A table that only ranks its tokens (cl100k_base) has its merges recovered, keyed by its rank file.
    splits = parsed.splits if parsed.splits is not None else cached_splits(parsed.ranks, tokenizer.files[0].sha256)
    return to_contract(name, parsed.ranks, splits, {**parsed.special_tokens, **tokenizer.special_tokens})


@cache
def _converter_digest() -> str:
    """The code a stored table comes from: this converter, the parsers and the patterns."""
    from bpe_kata.data import published as published_module

    return value_cache.source_digest(__file__, published_module.__file__)


def _as_data(table: PublishedTable) -> tuple:
    """A table as plain data for the cache: merges as pairs in id order (ids 256, 257, ...)."""
    merges = sorted(table.merges.items(), key=lambda item: item[1])
    return ([pair for pair, _ in merges], table.special_tokens, list(table.published_ids), list(table.token_bytes))


def _is_table_data(value: object) -> bool:
    """A stored table's shape (its bytes are checked against their SHA-256 before this): pairs of
    ids, one published id and one token per id."""
    if not (isinstance(value, tuple) and len(value) == 4):
        return False
    merges, specials, published, token_bytes = value
    if not (type(merges) is list and type(specials) is dict and type(published) is list and type(token_bytes) is list):
        return False
    return (len(published) == len(token_bytes) == 256 + len(merges)
            and all(type(pair) is tuple and len(pair) == 2 for pair in merges)
            and value_cache.all_of(published, int) and value_cache.all_of(token_bytes, bytes)
            and value_cache.all_of(specials, str) and value_cache.all_of(specials.values(), int))


def to_contract(name: str, ranks: Mapping[bytes, int], splits: list[tuple[bytes, bytes]],
                special_tokens: Mapping[str, int]) -> PublishedTable:
    """Number a ranked table the contract's way: bytes first, then merges in rank order."""
    if sorted(ranks.values()) != list(range(len(ranks))) or len(splits) != len(ranks) - 256:
        raise TableUnavailable(f"{name}: the ranks are not 256 bytes plus one merge per rank")
    contract_id = {bytes([b]): b for b in range(256)}
    merges: dict[Pair, int] = {}
    last_rank = -1
    for idx, (left, right) in enumerate(splits, start=256):
        token = left + right
        if ranks[token] <= last_rank:
            raise TableUnavailable(f"{name}: merge {idx} ({token!r}) is out of rank order")
        last_rank = ranks[token]
        merges[contract_id[left], contract_id[right]] = idx
        contract_id[token] = idx
    token_bytes = sorted(contract_id, key=contract_id.get)
    published = tuple(ranks[token] for token in token_bytes)
    if any(idx < len(published) for idx in special_tokens.values()):
        raise TableUnavailable(f"{name}: a special token's id is also a mergeable token's id")
    return PublishedTable(name, merges, dict(special_tokens), published, tuple(token_bytes))


def recover_splits(ranks: Mapping[bytes, int]) -> list[tuple[bytes, bytes]]:
    """Each multi-byte token's two parts, in rank order: BPE on its bytes with lower ranks only."""
    rank_of = ranks.get
    splits = []
    for token, rank in sorted(((t, r) for t, r in ranks.items() if len(t) > 1), key=lambda item: item[1]):
        parts = [token[i:i + 1] for i in range(len(token))]
        while len(parts) > 2:
            best, where = rank, -1
            for i in range(len(parts) - 1):
                merged = rank_of(parts[i] + parts[i + 1])
                if merged is not None and merged < best:
                    best, where = merged, i
            if where < 0:
                break
            parts[where:where + 2] = [parts[where] + parts[where + 1]]
        if len(parts) != 2 or any(rank_of(p, rank) >= rank for p in parts):
            raise TableUnavailable(f"token {token!r} (rank {rank}) is not a merge of two lower-ranked tokens")
        splits.append((parts[0], parts[1]))
    return splits


def cached_splits(ranks: Mapping[bytes, int], key: str) -> list[tuple[bytes, bytes]]:
    """``recover_splits``, remembered on disk as split points (checked when read back)."""
    path = user_cache_dir() / f"splits-{key[:24]}.json"
    tokens = sorted((t for t in ranks if len(t) > 1), key=ranks.get)
    try:
        cuts = json.loads(path.read_text(encoding="utf-8"))
        splits = [(t[:cut], t[cut:]) for t, cut in zip(tokens, cuts, strict=True)]
        if all(0 < cut < len(t) and ranks[left] < ranks[t] > ranks[right]
               for t, cut, (left, right) in zip(tokens, cuts, splits)):
            return splits
    except (OSError, ValueError, KeyError, TypeError):
        pass
    splits = recover_splits(ranks)
    write_cache_file(path, json.dumps([len(left) for left, _ in splits]))
    return splits

