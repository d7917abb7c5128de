"""The textbook byte-level trainer with a choice of tie rule: the definition the ties level checks.

A full recount per merge, like ``spec.oracle.train``; only the choice among the pairs
sharing the highest count depends on the rule. Independent of the reference.
"""

from __future__ import annotations

from spec import oracle

Pair = tuple[int, int]


def choose(rule: str, tied: list[Pair], vocab: dict[int, bytes]) -> Pair:
    """Pick among ``tied`` (the top-count pairs, in first-counted order)."""
    if rule == "first-counted":
        return tied[0]
    if rule == "lowest-pair":
        return min(tied)
    if rule == "bytes-greatest":
        # max keeps the first maximal pair: equal byte strings fall back to first-counted
        return max(tied, key=lambda pair: (vocab[pair[0]], vocab[pair[1]]))
    raise ValueError(f"unknown tie rule {rule!r}")


def train(text: str, vocab_size: int, tie_rule: str = "first-counted") -> dict[Pair, int]:
    ids, merges = list(oracle.utf8(text)), {}
    vocab = {i: bytes([i]) for i in range(256)}
    for idx in range(256, vocab_size):
        stats = oracle.get_stats(ids)
        if not stats:
            break
        top = max(stats.values())
        pair = choose(tie_rule, [p for p, n in stats.items() if n == top], vocab)
        ids = oracle.merge(ids, pair, idx)
        merges[pair] = idx
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    return merges
