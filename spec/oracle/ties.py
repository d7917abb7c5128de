"""Level ties: training whose choice among equal counts follows a named rule.

A full recount per merge, like ``core.train``; only the choice among the pairs sharing the
highest count depends on the rule. ``train_pieces`` is also the regex level's trainer: it
counts over several pieces (the chunks) and never across two.
"""

from __future__ import annotations

from collections.abc import Callable

from spec.oracle.core import check_vocab_size, merge, utf8
from spec.tie_rules import TIE_RULES  # the rules' names; CHOICES below says how each one chooses

Pair = tuple[int, int]


def check_tie_rule(tie_rule: str) -> None:
    """ValueError naming every known rule, for a name that is not one of them."""
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie_rule {tie_rule!r}; known: {', '.join(TIE_RULES)}")


#: Each rule's choice among the top-count pairs, given in first-counted order (tests/test_tie_rules.py
#: checks that every rule of spec/tie_rules.py has one).
CHOICES: dict[str, Callable[[list[Pair], dict[int, bytes]], Pair]] = {
    "first-counted": lambda tied, vocab: tied[0],
    "lowest-pair": lambda tied, vocab: min(tied),
    # max keeps the first maximal pair: equal byte strings fall back to first-counted
    "bytes-greatest": lambda tied, vocab: max(tied, key=lambda pair: (vocab[pair[0]], vocab[pair[1]])),
}


def choose_tie(rule: str, tied: list[Pair], vocab: dict[int, bytes]) -> Pair:
    """Among the top-count pairs (in first-counted order), the one ``rule`` picks."""
    return CHOICES[rule](tied, vocab)


def train_pieces(pieces: list[list[int]], vocab_size: int, tie_rule: str) -> dict[Pair, int]:
    """Merges learned over ``pieces`` (counted in order, never across two), ties broken by ``tie_rule``."""
    merges: dict[Pair, int] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    for idx in range(256, vocab_size):
        stats: dict[Pair, int] = {}
        for ids in pieces:  # pieces in text order, so the first key is the first occurrence
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        top = max(stats.values())
        best = choose_tie(tie_rule, [pair for pair, count in stats.items() if count == top], vocab)
        pieces = [merge(ids, best, idx) for ids in pieces]
        merges[best] = idx
        vocab[idx] = vocab[best[0]] + vocab[best[1]]
    return merges


def train(text: str, vocab_size: int, *, tie_rule: str = "first-counted") -> dict[Pair, int]:
    """The core's train with a choice of tie rule (no pattern: that is ``spec.oracle.train``)."""
    check_tie_rule(tie_rule)
    check_vocab_size(vocab_size)
    return train_pieces([list(utf8(text))], vocab_size, tie_rule)
