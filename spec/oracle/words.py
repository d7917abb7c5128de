"""Level words: the textbook word-level BPE, the definition the words level is compared against.

Deliberately slow and obvious (a full recount per merge), and independent of the
reference. Symbols are strings; a word is its characters plus the end-of-word marker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Pair = tuple[str, str]
Words = list[tuple[list[str], int]]  # (symbols, count), in order of first appearance


def word_counts(corpus: str | Mapping[str, int]) -> dict[str, int]:
    """Word -> count, in order of first appearance (a mapping keeps its own order)."""
    if not isinstance(corpus, str):
        return dict(corpus)
    counts: dict[str, int] = {}
    for word in corpus.split():
        counts[word] = counts.get(word, 0) + 1
    return counts


def spell(word: str, end_of_word: str | None = "_") -> list[str]:
    """The word's characters, then the marker if there is one."""
    return list(word) + ([end_of_word] if end_of_word else [])


def count_pairs(words: Words) -> dict[Pair, int]:
    """Pair counts weighted by word count; keys in order of first occurrence."""
    stats: dict[Pair, int] = {}
    for symbols, count in words:
        for pair in zip(symbols, symbols[1:]):
            stats[pair] = stats.get(pair, 0) + count
    return stats


def merge_symbols(symbols: list[str], pair: Pair) -> list[str]:
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def spelled(corpus: str | Mapping[str, int], end_of_word: str | None = "_") -> Words:
    """Each distinct word spelled, with its count, in order of first appearance."""
    return [(spell(word, end_of_word), count) for word, count in word_counts(corpus).items()]


def ranked(words: Words) -> list[tuple[Pair, int]]:
    """Every pair by count, highest first; equal counts keep first-occurrence order."""
    return sorted(count_pairs(words).items(), key=lambda item: -item[1])


def train_words(corpus: str | Mapping[str, int], num_merges: int,
                end_of_word: str | None = "_") -> list[tuple[Pair, int]]:
    words, merges = spelled(corpus, end_of_word), []
    for _ in range(num_merges):
        stats = count_pairs(words)
        if not stats:
            break
        pair = max(stats, key=stats.get)  # first maximal key: the earliest first occurrence
        merges.append((pair, stats[pair]))
        words = [(merge_symbols(symbols, pair), count) for symbols, count in words]
    return merges


def pairs_of(merges: Sequence) -> list[Pair]:
    """Accept train_words' ((left, right), count) items or plain (left, right) pairs."""
    return [tuple(item) if isinstance(item[0], str) else tuple(item[0]) for item in merges]


def segment_word(word: str, merges: Sequence, end_of_word: str | None = "_") -> list[str]:
    symbols = spell(word, end_of_word)
    for pair in pairs_of(merges):
        symbols = merge_symbols(symbols, pair)
    return symbols
