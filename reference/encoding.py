"""Encoding by replaying merges in rank order, without rescanning the text per merge.

The textbook loop finds the present pair with the lowest rank (its id in the table),
replaces all of its occurrences left to right, and starts over. Here the sequence is a
doubly linked list, and every adjacent pair found in the table has its left position filed
in a bucket under its rank; a min-heap holds the ranks that have a bucket. Entries are
never removed when a merge makes them stale: they are checked against the current list
when their bucket is emptied.

One bucket drain is one textbook iteration: all current occurrences of the chosen pair are
collected before any of them is replaced, so the pairs a drain creates wait for a later
drain even when their rank is lower, just as the textbook's ``merge`` never looks at the
ids it has just produced.

With special tokens the text is first cut around them (``special``); with a split
pattern each piece is cut into chunks (``splitting``) and each chunk encoded on its own.
Each piece is repaired first as tiktoken repairs text (``scalar_text``: lone surrogates
become U+FFFD), after the specials are found, so positions in errors are the caller's.
Chunks repeat a lot (words), so each call caches the ids of the chunks it has seen.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from heapq import heappop, heappush
from itertools import chain, repeat

from .core import merge
from .scalar_text import original_position, scalar_text, utf8_bytes
from .special import split_special
from .splitting import UncoveredText, compile_pattern, whole_matches
from .tables import check_special_tokens, merge_ids

__all__ = ["encode"]

_NONE = -1  # "no neighbour" in the prev/next arrays; also marks a removed node's next.

Pair = tuple[int, int]


def encode(text: str, merges: Mapping[Pair, int], *, pattern: str | None = None,
           special_tokens: Mapping[str, int] | None = None,
           allowed_special: Collection[str] | str = frozenset(),
           disallowed_special: Collection[str] | str = "all") -> list[int]:
    """Turn `text` into token ids by applying the merge table's pairs, lowest rank first.

    With a ``pattern``, merges apply inside each chunk only; a character no match covers
    is a ValueError naming its position. Specials found in the text become their ids if
    allowed, raise ValueError if disallowed (the default), and are plain text otherwise.
    Lone surrogates in the text become U+FFFD first, as in tiktoken (``scalar_text``).
    The table and the specials are checked whatever the text (``tables``).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if not isinstance(merges, Mapping):
        raise TypeError(
            "merges must be a mapping from (int, int) pairs to ids,"
            f" not {type(merges).__name__}"
        )
    specials = check_special_tokens(special_tokens, merge_ids(merges))
    if pattern is not None:
        compile_pattern(pattern)  # a bad pattern fails even for a text too short to need it
    if pattern is None and not specials:
        return encode_ids(list(utf8_bytes(text)), merges)
    pieces = split_special(text, specials, allowed_special, disallowed_special) if specials else [text]
    length_of = {idx: len(special) for special, idx in specials.items()}
    cache: dict[str, tuple[int, ...]] = {}
    out: list[int] = []
    start = 0  # where the piece begins in ``text``, for error messages
    for piece in pieces:
        if isinstance(piece, int):
            out.append(piece)
            start += length_of[piece]
            continue
        if pattern is None:
            out += encode_ids(list(utf8_bytes(piece)), merges)
        else:
            try:
                chunks = whole_matches(pattern, scalar_text(piece))
            except UncoveredText as gap:
                raise gap.shifted(start + original_position(piece, gap.position) - gap.position) from None
            out += _encode_chunks(chunks, merges, cache)
        start += len(piece)
    return out


def _encode_chunks(chunks: list[str], merges: Mapping[Pair, int],
                   cache: dict[str, tuple[int, ...]]) -> Iterator[int]:
    """The ids of ``chunks`` joined, encoding each distinct chunk once into ``cache``.

    A large text has a few distinct chunks for hundreds of thousands of occurrences, so
    the occurrences are looked up and joined by ``map`` and ``chain``, with no Python-level
    step per chunk; the cache is keyed by the string, so a seen chunk is never encoded to
    bytes again.
    """
    for chunk in set(chunks).difference(cache):
        cache[chunk] = tuple(encode_ids(list(chunk.encode("utf-8")), merges))
    return chain.from_iterable(map(cache.__getitem__, chunks))


def encode_ids(ids: list[int], merges: Mapping[Pair, int]) -> list[int]:
    """Apply the merge table to a list of ids (consumed: it becomes the working list).

    Split out from ``encode`` so that callers that already hold bytes (chunks of a split
    text, for instance) can skip the text round trip.
    """
    if len(ids) < 2 or not merges:
        return ids
    if len(ids) <= SHORT:
        return _replay_short(ids, merges)
    return _Replay(ids, merges).run()


#: Below this length (most chunks of a split text are words of a few bytes) the plain
#: textbook loop beats building a linked list and buckets; its rescans cost at most SHORT².
SHORT = 24


def _replay_short(ids: list[int], merges: Mapping[Pair, int]) -> list[int]:
    """The textbook loop: merge the present pair of lowest rank (the first-seen on a tie), repeat.

    ``ranks[i]`` is the rank of the pair at ``i`` (``_ABSENT`` if not in the table). A pair
    that occurs once and shares its rank with no other present pair (the usual case) is
    merged in place and only its two neighbours' ranks are looked up again; otherwise the
    whole list goes through ``merge`` and every rank is recomputed.
    """
    rank_of = merges.get
    ranks = _ranks(ids, rank_of)
    while ranks:
        best = min(ranks)
        if best == _ABSENT:
            break
        at = ranks.index(best)
        if ranks.count(best) > 1:  # several occurrences, perhaps overlapping
            ids = merge(ids, (ids[at], ids[at + 1]), best)
            ranks = _ranks(ids, rank_of)
            continue
        ids[at] = best
        del ids[at + 1]
        del ranks[at]
        if at > 0:
            ranks[at - 1] = rank_of((ids[at - 1], best), _ABSENT)
        if at < len(ranks):
            ranks[at] = rank_of((best, ids[at + 1]), _ABSENT)
    return ids


#: The rank of a pair the table lacks: above every int, so ``min`` only picks it when no
#: pair is present.
_ABSENT = float("inf")


def _ranks(ids: list[int], rank_of: Callable[[Pair, float], int | float]) -> list[int | float]:
    """The rank of each adjacent pair of ``ids``, computed by ``map`` without a Python loop."""
    return list(map(rank_of, zip(ids, ids[1:]), repeat(_ABSENT)))


class _Replay:
    """One encoding in progress: the linked list, the merge table and the pending pairs.

    ``buckets[rank]`` lists left positions where a pair of that rank started when it was
    filed; ``ranks`` is a min-heap holding exactly the keys of ``buckets``.
    """

    def __init__(self, ids: list[int], merges: Mapping[Pair, int]) -> None:
        n = len(ids)
        self.vals = ids
        self.prev = list(range(-1, n - 1))
        self.next = list(range(1, n + 1))
        self.next[-1] = _NONE
        self.merges = merges
        buckets: dict[int, list[int]] = {}
        rank_of = merges.get
        for pos, pair in enumerate(zip(ids, ids[1:])):
            rank = rank_of(pair)
            if rank is not None:
                bucket = buckets.get(rank)
                if bucket is None:
                    buckets[rank] = [pos]
                else:
                    bucket.append(pos)
        self.buckets = buckets
        self.ranks = sorted(buckets)  # a sorted list is already a heap

    def run(self) -> list[int]:
        """Merge drain after drain until no pair in the list is in the table."""
        while self.ranks:
            batch = self._next_batch()
            if batch is not None:
                self._apply(*batch)
        return self._tokens()

    def _next_batch(self) -> tuple[Pair, list[int]] | None:
        """Drain the lowest-rank bucket: the pair the textbook merges next and its places.

        None when the bucket held only stale entries. A checked table (``tables``) gives
        each rank to one pair, so every entry that still shows a pair of this rank shows it.
        """
        rank = heappop(self.ranks)
        rank_of = self.merges.get
        vals, nxt = self.vals, self.next
        pair = None
        positions = []
        for pos in sorted(set(self.buckets.pop(rank))):
            after = nxt[pos]
            if after == _NONE:
                continue
            current = (vals[pos], vals[after])
            if current == pair:
                positions.append(pos)
            elif rank_of(current) == rank:  # otherwise stale
                pair = current
                positions.append(pos)
        return None if pair is None else (pair, positions)

    def _apply(self, pair: Pair, positions: list[int]) -> None:
        """Replace the drained pair left to right, skipping nodes an overlap consumed."""
        idx = self.merges[pair]
        vals, prv, nxt = self.vals, self.prev, self.next
        rank_of = self.merges.get
        buckets, ranks = self.buckets, self.ranks
        for pos in positions:
            after = nxt[pos]
            # Consumed by the previous, overlapping replacement (`a a a` with pair `a a`).
            # A node that is still there still starts `pair`: only nodes to its left or the
            # one it absorbed have changed.
            if after == _NONE:
                continue
            before = prv[pos]
            beyond = nxt[after]
            vals[pos] = idx
            nxt[pos] = beyond
            nxt[after] = _NONE
            if beyond != _NONE:
                prv[beyond] = pos
                rank = rank_of((idx, vals[beyond]))
                if rank is not None:
                    bucket = buckets.get(rank)
                    if bucket is None:
                        buckets[rank] = [pos]
                        heappush(ranks, rank)
                    else:
                        bucket.append(pos)
            if before != _NONE:
                rank = rank_of((vals[before], idx))
                if rank is not None:
                    bucket = buckets.get(rank)
                    if bucket is None:
                        buckets[rank] = [before]
                        heappush(ranks, rank)
                    else:
                        bucket.append(before)

    def _tokens(self) -> list[int]:
        """Read the surviving nodes in order (node 0 always survives: merges keep the left)."""
        vals, nxt = self.vals, self.next
        out = []
        pos = 0
        while pos != _NONE:
            out.append(vals[pos])
            pos = nxt[pos]
        return out
