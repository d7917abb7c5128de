"""WRONG: the right solution's trainer, except that its pair counts outlive their pairs (zeroed, never dropped)
and nothing stops it when no pair is left: ``max`` then picks a pair of count 0, one it merged already.

Self-contained (its helpers copied, not imported from cs336_right): the spec trains it in a child process too
(under other hash seeds), where the suite's own ``tests`` package is not the one this repository's code sees."""

from __future__ import annotations

import os
from collections import Counter

import regex

PAT = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def word_counts(text: str, special_tokens: list[str]) -> Counter[bytes]:
    alternation = "|".join(regex.escape(s) for s in sorted(special_tokens, key=len, reverse=True))
    parts = regex.split(alternation, text) if special_tokens else [text]
    return Counter(match.group().encode("utf-8") for part in parts for match in PAT.finditer(part))


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


def train_bpe(input_path: str | os.PathLike, vocab_size: int, special_tokens: list[str]):
    if vocab_size < 256 + len(special_tokens):
        raise ValueError(f"vocab_size {vocab_size} is below the 256 bytes and {len(special_tokens)} special tokens")
    with open(input_path, "rb") as file:
        text = file.read().decode("utf-8")
    counts = word_counts(text, special_tokens)
    words = {word: [bytes([b]) for b in word] for word in counts}
    vocab = {i: bytes([i]) for i in range(256)}
    for token in special_tokens:
        vocab[len(vocab)] = token.encode("utf-8")
    merges: list[tuple[bytes, bytes]] = []
    pairs: Counter[tuple[bytes, bytes]] = Counter()
    while len(vocab) < vocab_size:
        for pair in pairs:
            pairs[pair] = 0  # WRONG: a pair that is gone stays, at count 0
        for word, pieces in words.items():
            for pair in zip(pieces, pieces[1:]):
                pairs[pair] += counts[word]
        if not pairs:  # only an empty text stops it
            break
        best = max(pairs, key=lambda pair: (pairs[pair], pair))
        merges.append(best)
        vocab[len(vocab)] = best[0] + best[1]
        for word, pieces in words.items():
            words[word] = merged(pieces, best)
    return vocab, merges
