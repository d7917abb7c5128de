"""A9 (sunadase/minbpe_rust): encode merges the most frequent pair present (ties to the greatest pair) and
stops when that pair is not in the table. Not a longest-match encoder."""
from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401


def encode(text, merges):
    ids = list(utf8(text))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = max(stats, key=lambda p: (stats[p], p))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
