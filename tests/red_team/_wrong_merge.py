"""The red team's common mistake, written here (not imported from the suite, which a sandboxed child
cannot read): ``merge`` replaces a pair scanning from the right, so "aaa" gives [97, 256]."""

from __future__ import annotations


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], len(ids) - 1
    while i >= 0:
        if i > 0 and (ids[i - 1], ids[i]) == tuple(pair):
            out.append(idx)
            i -= 2
        else:
            out.append(ids[i])
            i -= 1
    return out[::-1]


def right_merge(ids, pair, idx):
    """The left-to-right merge, for attacks that act only where their answer is wrong."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
