"""The documented rules for choosing among pairs that share the highest count.

Every trainer of the reference ranks candidate pairs in a heap; the rule only changes the
key a pair is ranked by. ``TIE_RULES`` holds each rule's key, so the whole-text trainer and
the chunk trainer agree on one definition; ``check_tie_rule`` is called once, by ``train``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["TIE_RULES", "DEFAULT_TIE_RULE", "TieRule", "check_tie_rule", "heap_key"]

Pair = tuple[int, int]

DEFAULT_TIE_RULE = "first-counted"

#: A pair's ranking key, ``key(count, first_position, pair)``: lowest wins.
HeapKey = Callable[[int, int, Pair], object]


@dataclass(frozen=True)
class TieRule:
    description: str  #: what the rule picks among the pairs with the highest count
    key: Callable[[Mapping[int, bytes]], HeapKey]  #: the ranking key, given the trainer's vocab


def check_tie_rule(rule: object) -> str:
    """Return ``rule`` if it is a known rule name, else raise ValueError naming the known ones."""
    if not isinstance(rule, str) or rule not in TIE_RULES:
        raise ValueError(f"unknown tie_rule {rule!r}; the known rules are: {', '.join(TIE_RULES)}")
    return rule


class _Descending:
    """Wraps a value so that heap order (smallest first) puts the greatest value first."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __lt__(self, other: _Descending) -> bool:
        return self.value > other.value

    def __eq__(self, other: object) -> bool:  # tuples compare items with == before <
        return isinstance(other, _Descending) and self.value == other.value

    __hash__ = None  # heap keys are compared, never hashed


def heap_key(rule: str, vocab: Mapping[int, bytes]) -> HeapKey:
    """The ranking key of a pair under ``rule`` (already checked by the public entry point).

    ``vocab`` maps every id to its bytes and must already hold an id by the time a pair
    containing it is ranked (the trainer adds each merge as it makes it). Under
    bytes-greatest, two pairs spelling the same bytes fall back to first-counted.
    """
    return TIE_RULES[rule].key(vocab)


def _first_counted_key(vocab: Mapping[int, bytes]) -> HeapKey:
    return lambda count, first, pair: (-count, first)


def _lowest_pair_key(vocab: Mapping[int, bytes]) -> HeapKey:
    return lambda count, first, pair: (-count, pair)


def _bytes_greatest_key(vocab: Mapping[int, bytes]) -> HeapKey:
    return lambda count, first, pair: (-count, _Descending((vocab[pair[0]], vocab[pair[1]])), first)


#: Rule name -> what it picks and how it ranks; the one list the reference's trainers read.
TIE_RULES: dict[str, TieRule] = {
    "first-counted": TieRule("the pair whose first occurrence comes earliest (max over first-seen counts)",
                             _first_counted_key),
    "lowest-pair": TieRule("the smallest pair of ids, compared as a tuple", _lowest_pair_key),
    "bytes-greatest": TieRule("the greatest (bytes of left token, bytes of right token) tuple (CS336)",
                              _bytes_greatest_key),
}
