"""Checking merge tables and special tokens: one rule, used by build_vocab, encode and save.

A merge table maps pairs of ids to new ids; special tokens map strings to ids. Both must
define tokens that mean one thing each, whichever function receives them:

- every id is an int (anything with ``__index__`` counts; ``bool`` does not), else TypeError;
- a merge's id is not a byte (at least 256) and no other merge's id; its two parts are
  bytes or ids of merges with a lower id (so building in id order always works);
- a special token is a non-empty string of Unicode scalar values (no lone surrogate: it
  must have a UTF-8 form), its id is not a byte, not a merge's id, not another special's.

Anything else is a ValueError that names the offending entry. ``encode`` receives the same
large table many times (a published table has 100,000 merges), so ``merge_ids`` remembers
the verdict for the last few table objects it has seen, for as long as their size holds.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Collection, Mapping
from operator import itemgetter

__all__ = ["as_id", "checked_merges", "check_special_tokens", "check_special_strings", "merge_ids"]

BASE_VOCAB_SIZE = 256
Pair = tuple[int, int]
_SURROGATE = re.compile("[\ud800-\udfff]")


def as_id(value: object, what: str) -> int:
    """``value`` as a plain int, or TypeError saying that ``what`` must be an int."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{what} must be an int, not {type(value).__name__} ({value!r})")


def _require_mapping(value: object, name: str, shape: str) -> None:
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a mapping from {shape}, not {type(value).__name__}")


def checked_merges(merges: Mapping[Pair, int]) -> list[tuple[Pair, int]]:
    """The table's entries as plain ints, in id order, after checking every rule above."""
    _require_mapping(merges, "merges", "(int, int) pairs to ids")
    rows = sorted(_plain_rows(merges), key=itemgetter(1))
    if rows and rows[0][1] < BASE_VOCAB_SIZE:
        (left, right), idx = rows[0]
        raise ValueError(f"merge {(left, right)!r} -> {idx!r} has an id below {BASE_VOCAB_SIZE}:"
                         " ids 0..255 are the bytes, merges start at 256")
    ids = {idx for _, idx in rows}
    previous = None
    for (left, right), idx in rows:
        if idx == previous:
            raise ValueError(f"merge {(left, right)!r} -> {idx!r} reuses the id of another merge")
        previous = idx
        # A part is defined if it is a byte or the id of a merge built before this one.
        if not (0 <= left < BASE_VOCAB_SIZE or (left < idx and left in ids)):
            raise _undefined_part(left, right, idx, left)
        if not (0 <= right < BASE_VOCAB_SIZE or (right < idx and right in ids)):
            raise _undefined_part(left, right, idx, right)
    return rows


def _plain_rows(merges: Mapping[Pair, int]) -> list[tuple[Pair, int]]:
    """``merges.items()`` with every id a plain int; a table of plain ints is taken as it is."""
    if all(type(idx) is int for idx in merges.values()) and all(
            type(pair) is tuple and len(pair) == 2 and type(pair[0]) is int and type(pair[1]) is int
            for pair in merges):
        return list(merges.items())
    rows = []
    for pair, idx in merges.items():
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"a merge table's key must be a pair (left, right) of ids, not {pair!r}")
        rows.append(((as_id(pair[0], "a merge's part"), as_id(pair[1], "a merge's part")),
                     as_id(idx, f"the id of merge {pair!r}")))
    return rows


def _undefined_part(left: int, right: int, idx: int, part: int) -> ValueError:
    return ValueError(f"merge {(left, right)!r} -> {idx!r} uses id {part!r}, which is neither"
                      " a byte (0..255) nor produced by an earlier merge")


def check_special_tokens(special_tokens: Mapping[str, int] | None,
                         taken: Collection[int] = ()) -> dict[str, int]:
    """The specials with plain int ids, after checking them against each other and ``taken``.

    ``taken`` holds the merge ids; bytes are always taken.
    """
    if special_tokens is None:
        return {}
    _require_mapping(special_tokens, "special_tokens", "special strings to ids")
    seen: dict[int, str] = {}
    checked: dict[str, int] = {}
    for special, idx in special_tokens.items():
        if not isinstance(special, str) or not special:
            raise ValueError(f"a special token must be a non-empty str, got {special!r}")
        if _SURROGATE.search(special):
            raise ValueError(f"special token {special!r} holds a lone surrogate, which has no UTF-8 form")
        idx = as_id(idx, f"the id of special token {special!r}")
        if idx < BASE_VOCAB_SIZE or idx in taken:
            raise ValueError(f"special token {special!r} has id {idx!r}, which a byte or a merge already uses")
        if idx in seen:
            raise ValueError(f"special tokens {seen[idx]!r} and {special!r} share the id {idx}")
        seen[idx] = special
        checked[special] = idx
    return checked


def check_special_strings(special_tokens: object) -> frozenset[str]:
    """train's specials: a list (any iterable but a lone str) of non-empty str, as a set."""
    if isinstance(special_tokens, str | bytes):
        raise TypeError(f"special_tokens must be a list of strings, not the single {type(special_tokens).__name__} "
                        f"{special_tokens!r}")
    try:
        specials = list(special_tokens)
    except TypeError:
        raise TypeError(f"special_tokens must be a list of strings, not {type(special_tokens).__name__}") from None
    for special in specials:
        if not isinstance(special, str) or not special:
            raise ValueError(f"a special token must be a non-empty str, got {special!r}")
    return frozenset(specials)


#: id(table) -> (the table itself, its size when checked, its merge ids). Holding the table
#: keeps its id from being reused by another object while the entry lives.
_CHECKED: dict[int, tuple[Mapping, int, frozenset[int]]] = {}
_REMEMBERED = 8


def merge_ids(merges: Mapping[Pair, int]) -> frozenset[int]:
    """The ids of a table that passes ``checked_merges``; checked once per table object."""
    hit = _CHECKED.get(id(merges))
    if hit is not None and hit[0] is merges and hit[1] == len(merges):
        return hit[2]
    ids = frozenset(idx for _, idx in checked_merges(merges))
    if len(_CHECKED) >= _REMEMBERED:
        _CHECKED.pop(next(iter(_CHECKED)), None)
    _CHECKED[id(merges)] = (merges, len(merges), ids)
    return ids
