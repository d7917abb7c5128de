"""A plain implementation of the words and ties levels, for the suite's own tests.

The textbook core, a textbook train with a named tie rule, and word-level BPE by full
recount. Slow and obvious on purpose: the known-wrong words and ties modules start from it
and replace one helper each (``choose_tie``, ``spell``, ``word_counts``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tests.implementations.textbook import *  # noqa: F403
from tests.implementations.textbook import get_stats, merge, utf8

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode", "train_words", "segment_word",
           # helpers, so that a known-wrong module replacing one of them can re-home the rest
           "TIE_RULES", "choose_tie", "word_counts", "spell", "merge_symbols", "utf8"]

Pair = tuple[int, int]
TIE_RULES = ("first-counted", "lowest-pair", "bytes-greatest")


def choose_tie(rule: str, tied: list[Pair], vocab: dict[int, bytes]) -> Pair:
    """Among the top-count pairs (in first-counted order), the one ``rule`` picks."""
    if rule == "lowest-pair":
        return min(tied)
    if rule == "bytes-greatest":
        return max(tied, key=lambda pair: (vocab[pair[0]], vocab[pair[1]]))
    return tied[0]


def train(text: str, vocab_size: int, *, tie_rule: str = "first-counted") -> dict[Pair, int]:
    """Textbook training; equal counts are broken by ``tie_rule``."""
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie_rule {tie_rule!r}; known: {', '.join(TIE_RULES)}")
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids = list(utf8(text))
    vocab = {i: bytes([i]) for i in range(256)}
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        top = max(stats.values())
        best = choose_tie(tie_rule, [pair for pair, count in stats.items() if count == top], vocab)
        ids = merge(ids, best, idx)
        merges[best] = idx
        vocab[idx] = vocab[best[0]] + vocab[best[1]]
    return merges


def word_counts(corpus: str | Mapping[str, int]) -> dict[str, int]:
    """Word -> count, in order of first appearance."""
    if not isinstance(corpus, str):
        return dict(corpus)
    counts: dict[str, int] = {}
    for word in corpus.split():
        counts[word] = counts.get(word, 0) + 1
    return counts


def spell(word: str, end_of_word: str | None) -> list[str]:
    """The word's characters, then the marker if there is one."""
    return list(word) + ([end_of_word] if end_of_word else [])


def merge_symbols(symbols: list[str], pair: tuple[str, str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def train_words(corpus: str | Mapping[str, int], num_merges: int,
                end_of_word: str | None = "_") -> list[tuple[tuple[str, str], int]]:
    """Recount the weighted pairs of every word per merge; ``max`` keeps the first-seen pair."""
    words = [(spell(word, end_of_word), count) for word, count in word_counts(corpus).items()]
    merges: list[tuple[tuple[str, str], int]] = []
    for _ in range(num_merges):
        stats: dict[tuple[str, str], int] = {}
        for symbols, count in words:
            for pair in zip(symbols, symbols[1:]):
                stats[pair] = stats.get(pair, 0) + count
        if not stats:
            break
        best = max(stats, key=stats.get)
        merges.append((best, stats[best]))
        words = [(merge_symbols(symbols, best), count) for symbols, count in words]
    return merges


def segment_word(word: str, merges: Sequence, end_of_word: str | None = "_") -> list[str]:
    """Spell the word and apply every merge once, in order."""
    symbols = spell(word, end_of_word)
    for item in merges:
        pair = item if isinstance(item[0], str) else item[0]
        symbols = merge_symbols(symbols, tuple(pair))
    return symbols
