"""Classic word-level BPE: words spelled as characters plus an end-of-word marker.

Training works on the distinct words with their counts, so a pair's count is weighted by
word frequency. Corpora of this kind are small (a word list, not a byte stream), so each
step recounts the pairs of the words that still have any; ties go to the pair whose first
occurrence comes earliest, words taken in order of first appearance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["train_words", "segment_word"]

Pair = tuple[str, str]
Merge = tuple[Pair, int]


def train_words(corpus: str | Mapping[str, int], num_merges: int,
                end_of_word: str | None = "_") -> list[Merge]:
    """Learn up to ``num_merges`` merges; each item is ``((left, right), count when merged)``.

    ``corpus`` is a text (split on whitespace) or a mapping word -> count, whose order
    then decides ties. Stops early, without error, when no word has two symbols left.
    """
    if isinstance(num_merges, bool) or not isinstance(num_merges, int):
        raise TypeError(f"num_merges must be an int, not {type(num_merges).__name__}")
    if num_merges < 0:
        raise ValueError(f"num_merges must be at least 0, got {num_merges}")
    words = [(_spell(word, end_of_word), count) for word, count in _counts(corpus).items()]
    merges: list[Merge] = []
    while len(merges) < num_merges:
        words = [(symbols, count) for symbols, count in words if len(symbols) > 1]
        stats: dict[Pair, int] = {}
        for symbols, count in words:
            for pair in zip(symbols, symbols[1:]):
                stats[pair] = stats.get(pair, 0) + count
        if not stats:
            break
        pair = max(stats, key=stats.get)  # first maximal key: the earliest first occurrence
        merges.append((pair, stats[pair]))
        words = [(_merge(symbols, pair), count) for symbols, count in words]
    return merges


def segment_word(word: str, merges: Sequence[Merge] | Sequence[Pair],
                 end_of_word: str | None = "_") -> list[str]:
    """Spell ``word`` (plus the marker) and apply each merge once, in the order given."""
    symbols = _spell(word, end_of_word)
    for pair in _pairs(merges):
        if len(symbols) < 2:
            break
        symbols = _merge(symbols, pair)
    return symbols


def _counts(corpus: str | Mapping[str, int]) -> dict[str, int]:
    """Word -> count in order of first appearance; a mapping keeps its own order."""
    if isinstance(corpus, str):
        counts: dict[str, int] = {}
        for word in corpus.split():
            counts[word] = counts.get(word, 0) + 1
        return counts
    if not isinstance(corpus, Mapping):
        raise TypeError(f"corpus must be a str or a mapping word -> count, not {type(corpus).__name__}")
    for word, count in corpus.items():
        if not isinstance(word, str) or isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"corpus entries must be str -> positive int, got {word!r}: {count!r}")
    return dict(corpus)


def _spell(word: str, end_of_word: str | None) -> list[str]:
    return [*word, end_of_word] if end_of_word else list(word)


def _pairs(merges: Iterable) -> list[Pair]:
    """Plain (left, right) pairs from train_words' items or from pairs."""
    return [(item[0], item[1]) if isinstance(item[0], str) else (item[0][0], item[0][1]) for item in merges]


def _merge(symbols: list[str], pair: Pair) -> list[str]:
    """Join each occurrence of ``pair``, left to right, without overlap."""
    left, right = pair
    out: list[str] = []
    i, n = 0, len(symbols)
    while i < n:
        if i + 1 < n and symbols[i] == left and symbols[i + 1] == right:
            out.append(left + right)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out
