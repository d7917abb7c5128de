"""Format conversions the adapters share: merge tables <-> a library's own table shapes.

These convert data, not behaviour: a merge's bytes are its parts' bytes joined (what every
library's table stores), and a ranked table's merges are recovered the way the suite recovers
cl100k_base's (bpe_kata/data/pretrained.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from bpe_kata.data.pretrained import recover_splits

#: Frames of this module are the adapter's, not the wrapped library's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

Pair = tuple[int, int]


def token_bytes(merges: Mapping[Pair, int]) -> dict[int, bytes]:
    """Every id's bytes: 0..255 themselves, each merge its parts joined, in id order."""
    table = {b: bytes([b]) for b in range(256)}
    for (left, right), idx in sorted(merges.items(), key=lambda item: item[1]):
        table[idx] = table[left] + table[right]
    return table


def merges_from_ranks(ranks: Mapping[bytes, int]) -> dict[Pair, int]:
    """A tiktoken-style table (bytes -> rank) as contract merges, ids 256, 257, ... in rank order.

    A library that records only ranks loses which two parts each merge joined; the parts are
    recovered as BPE on the token's bytes with lower ranks only (so where training joined
    ``a`` + ``bc`` but ``ab`` ranks lower, the table says ``ab`` + ``c``)."""
    contract_id = {bytes([b]): b for b in range(256)}
    merges: dict[Pair, int] = {}
    for idx, (left, right) in enumerate(recover_splits(ranks), start=256):
        merges[contract_id[left], contract_id[right]] = idx
        contract_id[left + right] = idx
    return merges


class PerTable:
    """Remembers one built object per table object (the suite passes a defined table many times)."""

    def __init__(self, build) -> None:
        self.build, self.entries = build, []

    def __call__(self, *tables):
        key = tuple(map(id, tables)), tuple(len(t) if t is not None else -1 for t in tables)
        for held, held_key, built in self.entries:
            if held_key == key and all(a is b for a, b in zip(held, tables)):
                return built
        built = self.build(*tables)
        self.entries = [(tables, key, built), *self.entries[:3]]
        return built
