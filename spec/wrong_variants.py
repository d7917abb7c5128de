"""Known mistakes replayed: each a one-change variant of an oracle function (merge, train, encode).

The probes (spec/mistakes.py) and a few spec tests compare an implementation's output with these:
a result equal to a replayed mistake, and not to the right one, names the mistake exactly. Kept
apart from the probes so the wrong code (what the mistake is) reads apart from the questions put
to an implementation (how it is recognised). Not a definition of anything: the claims
(spec/claims.toml) define right behaviour.
"""

from __future__ import annotations

from spec import oracle

Pair = tuple[int, int]


def merge_from_the_right(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """Replace ``pair`` scanning from the end: [a, a, a] with (a, a) gives [a, Z]."""
    out, i = [], len(ids) - 1
    while i >= 0:
        if i >= 1 and (ids[i - 1], ids[i]) == pair:
            out.append(idx)
            i -= 2
        else:
            out.append(ids[i])
            i -= 1
    return out[::-1]


def encode_merging_from_the_right(text: str, merges: dict[Pair, int]) -> list[int]:
    """The textbook encode with each merge applied from the right."""
    ids = list(oracle.core.utf8(text))
    while len(ids) >= 2:
        stats = oracle.get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge_from_the_right(ids, pair, merges[pair])
    return ids


def merge_stopping_early(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """A merge whose loop never looks at the last two positions."""
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 2 and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_counting_once(text: str, vocab_size: int) -> dict[Pair, int]:
    """Count the pairs once and take the most frequent as the merges (no recount)."""
    stats = oracle.get_stats(list(oracle.core.utf8(text)))
    ranked = sorted(stats, key=lambda pair: stats[pair], reverse=True)
    return {pair: idx for idx, pair in zip(range(256, vocab_size), ranked)}


def encode_by_frequency(text: str, merges: dict[Pair, int]) -> list[int]:
    """Encode merging the known pair most frequent in the text, not the lowest rank."""
    ids = list(oracle.core.utf8(text))
    while len(ids) >= 2:
        stats = oracle.get_stats(ids)
        known = {pair: count for pair, count in stats.items() if pair in merges}
        if not known:
            break
        pair = max(known, key=lambda p: known[p])
        ids = oracle.merge(ids, pair, merges[pair])
    return ids


def encode_longest_match(text: str, merges: dict[Pair, int]) -> list[int]:
    """Greedy longest known token at each position (maximal munch)."""
    data = oracle.core.utf8(text)
    by_bytes = {token: idx for idx, token in oracle.core.build_vocab(merges).items()}
    longest, ids, i = max(map(len, by_bytes)), [], 0
    while i < len(data):
        size = next(s for s in range(min(longest, len(data) - i), 0, -1) if data[i:i + s] in by_bytes)
        ids.append(by_bytes[data[i:i + size]])
        i += size
    return ids


def encode_first_fit_by_position(text: str, merges: dict[Pair, int]) -> list[int]:
    """Encode in passes over the positions, left to right: at each, the first merge in table order
    that fits there is made; passes repeat until nothing changes."""
    ids, changed = list(oracle.core.utf8(text)), True
    while changed:
        out, i, changed = [], 0, False
        while i < len(ids):
            idx = next((idx for pair, idx in merges.items() if tuple(ids[i:i + 2]) == pair), None)
            out.append(ids[i] if idx is None else idx)
            i, changed = (i + 1, changed) if idx is None else (i + 2, True)
        ids = out
    return ids
