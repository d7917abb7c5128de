"""Incremental BPE training: the textbook merges, without recounting pairs per merge.

The textbook loop recounts every pair after each merge and takes
``max(stats, key=stats.get)``: the highest count, ties to the pair that occurs first in the
current sequence. Here the sequence is a doubly linked list over the original byte
positions, with a count and a first position kept for every pair. A merge touches only
its own occurrences and their two neighbouring pairs, so a step costs time in proportion
to how often the merged pair occurs, not to the length of the text.

Three facts keep the bookkeeping small:

- A merge keeps the left node and drops the right one, so surviving nodes keep their
  relative order and "first occurrence in the current sequence" is simply the smallest
  original position among a pair's occurrences.
- Every pair created by a merge contains the new id, so all occurrences a pair will ever
  have are born in one step (or were there from the start), left to right: a plain list
  of them is sorted. After that, occurrences only disappear.
- Once an occurrence disappears it never comes back (node values only ever change to a
  fresh id), so a stored position stays valid exactly as long as the linked list still
  shows the pair there, and can be checked at any later time.
"""

from __future__ import annotations

from collections import Counter
from heapq import heapify

from .chunk_training import train_chunks, train_documents
from .core import BASE_VOCAB_SIZE
from .pair_ranking import _NONE, LazyPairRanking, learn_merges
from .scalar_text import utf8_bytes
from .special import documents
from .tables import as_id, check_special_strings
from .tie_rules import DEFAULT_TIE_RULE, check_tie_rule

__all__ = ["train"]


Pair = tuple[int, int]


def train(text: str, vocab_size: int, *, pattern: str | None = None,
          tie_rule: str = DEFAULT_TIE_RULE, special_tokens: list[str] | None = None) -> dict[Pair, int]:
    """Learn ``vocab_size - 256`` merges from `text`, returned in training order.

    Stops early, without error, once the sequence has no adjacent pair left; a best count
    of 1 is not a reason to stop, since the textbook loop does not stop there either.
    ``tie_rule`` names how equal counts are broken (see ``tie_rules.TIE_RULES``).
    With a split ``pattern``, pairs are counted inside chunks only (``chunk_training``), and
    a character no match covers is a ValueError naming its position. Lone surrogates
    become U+FFFD first, as ``encode`` and tiktoken treat them (``scalar_text``).
    With ``special_tokens`` (a list of strings, as CS336's trainer takes them), the text is cut at each
    one found (the longest where several start) and the pieces between are trained on as separate texts,
    the specials left out; the specials take no id in the table.
    """
    vocab_size = _check_arguments(text, vocab_size)
    check_tie_rule(tie_rule)
    specials = check_special_strings(special_tokens) if special_tokens is not None else frozenset()
    if specials:
        return train_documents(documents(text, specials), vocab_size, pattern, tie_rule)
    if pattern is not None:
        return train_chunks(text, vocab_size, pattern, tie_rule)
    ids = list(utf8_bytes(text))
    return learn_merges(lambda key: _PairIndex(ids, key), vocab_size, tie_rule)


def _check_arguments(text: object, vocab_size: object) -> int:
    """Reject wrong types and sizes up front, with messages that say what was expected."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    # bool is a subclass of int, but train(text, True) is surely a mistake.
    vocab_size = as_id(vocab_size, "vocab_size")
    if vocab_size < BASE_VOCAB_SIZE:
        raise ValueError(
            f"vocab_size must be at least {BASE_VOCAB_SIZE} (the byte alphabet),"
            f" got {vocab_size}"
        )
    return vocab_size


class _PairIndex(LazyPairRanking):
    """The current token sequence plus what training needs to know about its pairs.

    - ``vals/prev/next``: a doubly linked list over original positions; a merge writes the
      new id into the left node and unlinks the right one (its ``next`` becomes _NONE).
    - ``count[pair]``: how many times the pair occurs now, overlaps included, as
      ``get_stats`` counts them.
    - ``first[pair]``: the position of its first occurrence now.
    - ``places[pair]``: the sorted positions where it has occurred, some perhaps gone
      since; an entry is trusted only after checking the linked list.
    - ``ranking``: a lazy heap of ``(key, count, first position, pair)``, the key given by
      the tie rule (lowest first). An entry is believed only if it still matches ``count``
      and ``first``; others are dropped when they reach the top.
    """

    def __init__(self, ids: list[int], key) -> None:
        self.key = key
        self.vals = ids
        # One int object per position, shared by prev, next and places (slices and zip
        # reuse the objects): this keeps memory per input byte well under 100 bytes.
        positions = list(range(len(ids)))
        self.prev = [_NONE] + positions[:-1]  # for no ids, one unused slot each
        self.next = positions[1:] + [_NONE]
        places: dict[Pair, list[int]] = {}
        add_place = places.setdefault
        for pos, pair in zip(positions, zip(ids, ids[1:])):
            add_place(pair, []).append(pos)
        self.places = places
        self.count = {pair: len(found) for pair, found in places.items()}
        self.first = {pair: found[0] for pair, found in places.items()}
        self.ranking = [(key(len(found), found[0], pair), len(found), found[0], pair)
                        for pair, found in places.items()]
        heapify(self.ranking)

    def apply(self, pair: Pair, idx: int) -> None:
        """Replace every occurrence of `pair` by `idx`, left to right, non-overlapping.

        Each replacement of ``x a b y`` by ``x z y`` retires one ``(x, a)`` and one
        ``(b, y)`` and gives birth to ``(x, z)`` and ``(z, y)``; nothing else changes.
        The loop is written out in one function because it runs once per occurrence.
        """
        left, right = pair
        vals, prv, nxt = self.vals, self.prev, self.next
        places, first = self.places, self.first
        positions = places.pop(pair)
        del self.count[pair], first[pair]
        # The x and y of each ``x a b y`` replaced: each retires one (x, a) and one (b, y).
        # Counted at the end in one go (``Counter``), not per occurrence in a dict.
        lefts: list[int] = []
        rights: list[int] = []
        born: list[Pair] = []
        for pos in positions:
            after = nxt[pos]
            # Stale, or consumed by the previous (overlapping) replacement in this step.
            if after == _NONE or vals[pos] != left or vals[after] != right:
                continue
            before = prv[pos]
            beyond = nxt[after]
            if before != _NONE:
                x = vals[before]
                lefts.append(x)
                new = (x, idx)
                found = places.get(new)
                if found is None:
                    places[new] = [before]
                    first[new] = before
                    born.append(new)
                else:
                    found.append(before)
            if beyond != _NONE:
                y = vals[beyond]
                rights.append(y)
                new = (idx, y)
                found = places.get(new)
                if found is None:
                    places[new] = [pos]
                    first[new] = pos
                    born.append(new)
                else:
                    found.append(pos)
                prv[beyond] = pos
            vals[pos] = idx
            nxt[pos] = beyond
            nxt[after] = _NONE
        lost = {(x, left): times for x, times in Counter(lefts).items()}
        for y, times in Counter(rights).items():
            gone = (right, y)
            lost[gone] = lost.get(gone, 0) + times
        for new in born:
            self._settle(new, len(places[new]) - lost.pop(new, 0))
        for gone, retired in lost.items():
            if gone != pair:
                self._settle(gone, self.count[gone] - retired)
