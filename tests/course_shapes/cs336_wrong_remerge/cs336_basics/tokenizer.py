"""The course's Tokenizer(vocab, merges, special_tokens): encode, decode, encode_iterable."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import regex

from .train_bpe import PAT, merged


class Tokenizer:
    def __init__(self, vocab: dict[int, bytes], merges: list[tuple[bytes, bytes]],
                 special_tokens: list[str] | None = None):
        self.vocab = dict(vocab)
        self.ranks = {pair: rank for rank, pair in enumerate(merges)}
        self.special_tokens = sorted(special_tokens or [], key=len, reverse=True)
        for token in self.special_tokens:
            if token.encode("utf-8") not in self.vocab.values():
                self.vocab[max(self.vocab, default=-1) + 1] = token.encode("utf-8")
        self.ids = {piece: idx for idx, piece in sorted(self.vocab.items(), reverse=True)}
        self.cache: dict[bytes, list[int]] = {}

    def _word(self, word: bytes) -> list[int]:
        if word not in self.cache:
            pieces = [bytes([b]) for b in word]
            while len(pieces) > 1:
                ranked = [self.ranks.get(pair) for pair in zip(pieces, pieces[1:])]
                best = min((r for r in ranked if r is not None), default=None)
                if best is None:
                    break
                pieces = merged(pieces, (pieces[ranked.index(best)], pieces[ranked.index(best) + 1]))
            self.cache[word] = [self.ids[piece] for piece in pieces]
        return self.cache[word]

    def encode(self, text: str) -> list[int]:
        ids: list[int] = []
        parts = (regex.split("(" + "|".join(regex.escape(s) for s in self.special_tokens) + ")", text)
                 if self.special_tokens else [text])
        for part in parts:
            if part in self.special_tokens:
                ids.append(self.ids[part.encode("utf-8")])
                continue
            part = part.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            for match in PAT.finditer(part):
                ids.extend(self._word(match.group().encode("utf-8")))
        return ids

    def encode_iterable(self, iterable: Iterable[str]) -> Iterator[int]:
        """The ids of the texts joined, yielded as they are read: only what later text could change waits."""
        buffer = ""
        for text in iterable:
            buffer += text
            if len(buffer) >= 1 << 14:
                ids, buffer = self._settled(buffer)
                yield from ids
        yield from self.encode(buffer)

    def _settled(self, buffer: str) -> tuple[list[int], str]:
        """The ids of the start of ``buffer`` that nothing later can change, and the rest. A special token
        waits until the longest one would fit after its start; after the last such special, a pre-token waits
        if it ends at the buffer's end or starts in its last three characters (GPT-2's contractions read
        three); text holding a surrogate waits whole (its repair may join it to the next text)."""
        limit = len(buffer) - max(map(len, self.special_tokens), default=1) + 1
        ids, start = [], 0
        if self.special_tokens:
            for match in regex.finditer("|".join(regex.escape(s) for s in self.special_tokens), buffer):
                if match.start() >= limit:
                    break
                ids += self.encode(buffer[start:match.end()])
                start = match.end()
        piece = buffer[start:max(limit, start)]
        if regex.search("[\ud800-\udfff]", piece):
            return ids, buffer[start:]
        for match in PAT.finditer(piece):
            if match.end() >= len(piece) or match.start() + 3 > len(piece):
                break
            ids.extend(self._word(match.group().encode("utf-8")))
            start = start + len(match.group())
        return ids, buffer[start:]

    def decode(self, ids: list[int]) -> str:
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
