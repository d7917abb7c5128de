"""A tokenizer with names of its own (checked through bpe-kata.toml, ``map:``): right.

Its own names and types for minbpe's parts: ``fit(text, num_merges)`` counts merges, not the vocabulary's
size; the table is ``rules``, an ordered list of pairs (the k-th gets id 256 + k); ``pieces`` is the vocab;
``to_ids``/``to_text``/``add_specials``/``_make_pieces``; the helpers are ``pair_counts`` and ``apply_rule``.
Self-contained on purpose (the code is minbpe_right's, renamed): under the gate the sandboxed child sees this folder
only, so it cannot import its sibling.
"""

from __future__ import annotations

import regex

GPT4_SPLIT_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*"""
                      r"""|\s*[\r\n]|\s+(?!\S)|\s+""")


def pair_counts(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def apply_rule(ids, pair, idx):
    ids, out, i = list(ids), [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def repaired(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def caller_position(text: str, at: int) -> int:
    """Position ``at`` of ``repaired(text)`` counted in ``text``'s characters (a surrogate pair is two)."""
    i = 0
    for _ in range(at):
        pair = "\ud800" <= text[i] <= "\udbff" and i + 1 < len(text) and "\udc00" <= text[i + 1] <= "\udfff"
        i += 2 if pair else 1
    return i


class PairCoder:
    def __init__(self, pattern=None):
        self.pattern = GPT4_SPLIT_PATTERN if pattern is None else pattern
        self.compiled_pattern = regex.compile(self.pattern)
        self.rules = []
        self.special_tokens = {}
        self.inverse_special_tokens = {}
        self.pieces = self._make_pieces()

    def chunks(self, text, offset=0):
        """The pattern's matches in the repaired text; an uncovered character is an error at its caller's position."""
        original, text = text, repaired(text)
        found, at = [], 0
        for match in self.compiled_pattern.finditer(text):
            if match.start() != at:
                break
            if match.end() > at:
                found.append(match.group())
                at = match.end()
        if at != len(text):
            raise ValueError(f"no match of the pattern covers position {offset + caller_position(original, at)}")
        return found

    def _best_pair(self, stats):
        """The most frequent pair, ties to the one counted first; None when no pair is left."""
        return max(stats, key=stats.get) if stats else None

    def fit(self, text, num_merges):
        if num_merges < 0:
            raise ValueError(f"num_merges must be at least 0, got {num_merges}")
        vocab_size = 256 + num_merges
        weights = {}
        for chunk in self.chunks(text):
            weights[chunk] = weights.get(chunk, 0) + 1
        words = [(list(chunk.encode("utf-8")), n) for chunk, n in weights.items()]
        merges, vocab = {}, {idx: bytes([idx]) for idx in range(256)}
        for idx in range(256, vocab_size):
            stats = {}
            for ids, n in words:
                for pair in zip(ids, ids[1:]):
                    stats[pair] = stats.get(pair, 0) + n
            pair = self._best_pair(stats)
            if pair is None:
                break
            words = [(apply_rule(ids, pair, idx), n) for ids, n in words]
            merges[pair] = idx
            vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        self.rules, self.pieces = list(merges), vocab

    def add_specials(self, special_tokens):
        self.special_tokens = dict(special_tokens)
        self.inverse_special_tokens = {v: k for k, v in special_tokens.items()}

    def _make_pieces(self):
        vocab = {idx: bytes([idx]) for idx in range(256)}
        for idx, (p0, p1) in enumerate(self.rules, start=256):
            vocab[idx] = vocab[p0] + vocab[p1]
        for special, idx in self.special_tokens.items():
            vocab[idx] = special.encode("utf-8")
        return vocab

    def to_text(self, ids):
        return b"".join(self.pieces[idx] for idx in ids).decode("utf-8", errors="replace")

    def _encode_chunk(self, data, ranks):
        ids = list(data)
        while len(ids) >= 2:
            stats = pair_counts(ids)
            pair = min(stats, key=lambda p: ranks.get(p, float("inf")))
            if pair not in ranks:
                break
            ids = apply_rule(ids, pair, ranks[pair])
        return ids

    def encode_ordinary(self, text, offset=0):
        ranks = {pair: idx for idx, pair in enumerate(self.rules, start=256)}
        ids = []
        for chunk in self.chunks(text, offset):
            ids.extend(self._encode_chunk(chunk.encode("utf-8"), ranks))
        return ids

    def to_ids(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            special = self.special_tokens
        elif allowed_special in ("none", "none_raise"):
            special = {}
        else:
            special = {k: v for k, v in self.special_tokens.items() if k in allowed_special}
        if allowed_special == "none_raise":
            found = [(text.find(token), token) for token in self.special_tokens if token in text]
            if found:
                at, token = min(found, key=lambda f: (f[0], -len(f[1])))
                raise ValueError(f"disallowed special token {token!r} at position {at}")
        if not special:
            return self.encode_ordinary(text)
        alternation = "|".join(regex.escape(k) for k in sorted(special, key=len, reverse=True))
        ids, at = [], 0
        for part in regex.split(f"({alternation})", text):
            ids.extend([special[part]] if part in special else self.encode_ordinary(part, at))
            at += len(part)
        return ids
