"""The textbook definitions of the production levels: chunks, special tokens, streaming.

Slow and obvious on purpose, like ``spec.oracle``: training recounts every pair of every
chunk occurrence after each merge, special tokens are found by trying every position, and
the stream is decoded from scratch after each byte.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import regex

from spec import oracle, oracle_ties

Pair = tuple[int, int]


def chunks(text: str, pattern: str) -> list[str]:
    """The chunks of ``text``: the pattern's whole matches in order, empty ones dropped."""
    return [match.group() for match in regex.finditer(pattern, text) if match.group()]


def first_uncovered(text: str, pattern: str) -> int | None:
    """The position of the first character of ``text`` in no match of ``pattern``, or None."""
    covered = [False] * len(text)
    for match in regex.finditer(pattern, text):
        covered[match.start():match.end()] = [True] * (match.end() - match.start())
    return next((position for position, inside in enumerate(covered) if not inside), None)


def covering_chunks(text: str, pattern: str) -> list[str]:
    """The chunks of the repaired text (``oracle.scalar_text``); ValueError if they leave a character out."""
    text = oracle.scalar_text(text)
    position = first_uncovered(text, pattern)
    if position is not None:
        raise ValueError(f"the pattern does not cover the character at position {position}")
    return chunks(text, pattern)


def train(text: str, vocab_size: int, pattern: str, tie_rule: str = "first-counted") -> dict[Pair, int]:
    """Merges learned inside chunks: counts over the full chunk list, ties broken by ``tie_rule``.

    The default rule takes the pair counted first; the others are ``spec.oracle_ties.choose``.
    """
    pieces = [list(chunk.encode("utf-8")) for chunk in covering_chunks(text, pattern)]
    merges: dict[Pair, int] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    for idx in range(256, vocab_size):
        stats: dict[Pair, int] = {}
        for ids in pieces:  # chunks in text order, so the first key is the first occurrence
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        top = max(stats.values())
        pair = oracle_ties.choose(tie_rule, [p for p, n in stats.items() if n == top], vocab)
        pieces = [oracle.merge(ids, pair, idx) for ids in pieces]
        merges[pair] = idx
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    return merges


def encode(text: str, merges: dict[Pair, int], pattern: str) -> list[int]:
    """Each chunk encoded on its own, the ids joined."""
    return [i for chunk in covering_chunks(text, pattern) for i in oracle.encode(chunk, merges)]


class DisallowedSpecial(ValueError):
    """A disallowed special found in the text: which one, and at which character position."""

    def __init__(self, special: str, position: int) -> None:
        super().__init__(f"disallowed special token {special!r} at position {position}")
        self.special, self.position = special, position


def split_special(text: str, special_tokens: Mapping[str, int],
                  allowed: Collection[str] | str = (), disallowed: Collection[str] | str = "all") -> list[str | int]:
    """Text pieces and special ids, in order; raises ValueError for a disallowed special.

    Only specials that are allowed or disallowed are looked for; the others are plain text.
    At each position, from the left, the longest such special starting there is taken.
    """
    allowed = set(special_tokens) if allowed == "all" else set(allowed)
    disallowed = set(special_tokens) - allowed if disallowed == "all" else set(disallowed) - allowed
    looked_for = [s for s in special_tokens if s in allowed | disallowed]
    out: list[str | int] = []
    plain, i = "", 0
    while i < len(text):
        here = [s for s in looked_for if text.startswith(s, i)]
        if not here:
            plain += text[i]
            i += 1
            continue
        special = max(here, key=len)
        if special in disallowed:
            raise DisallowedSpecial(special, i)
        if plain:
            out.append(plain)
            plain = ""
        out.append(special_tokens[special])
        i += len(special)
    if plain:
        out.append(plain)
    return out


def encode_special(text: str, merges: dict[Pair, int], special_tokens: Mapping[str, int],
                   allowed: Collection[str] | str = (), disallowed: Collection[str] | str = "all",
                   pattern: str | None = None) -> list[int]:
    """Specials become their ids; each text piece between them is encoded (by chunks, with a pattern)."""
    out: list[int] = []
    for piece in split_special(text, special_tokens, allowed, disallowed):
        if isinstance(piece, int):
            out.append(piece)
        else:
            out += encode(piece, merges, pattern) if pattern is not None else oracle.encode(piece, merges)
    return out


def build_vocab(merges: dict[Pair, int], special_tokens: Mapping[str, int]) -> dict[int, bytes]:
    vocab = oracle.build_vocab(merges)
    vocab.update({idx: special.encode("utf-8") for special, idx in special_tokens.items()})
    return vocab


def _unfinished(data: bytes) -> int:
    """Length of the trailing bytes that begin a character and could still be finished (0 to 3)."""
    for size in (3, 2, 1):
        if len(data) >= size:
            try:
                data[-size:].decode("utf-8")
            except UnicodeDecodeError as error:
                if error.start == 0 and error.reason == "unexpected end of data":
                    return size
    return 0


def _looks_unfinished(data: bytes) -> int:
    """Length of a trailing lead byte followed by fewer continuation bytes than it announces.

    Unlike ``_unfinished`` this ignores the finer rules on the second byte (E0 A0..BF,
    ED 80..9F, F0 90..BF, F4 80..8F), so it also counts, e.g., ED A0: CPython's incremental
    decoder holds those two bytes until the next one shows them invalid.
    """
    for size in (1, 2, 3):
        if len(data) < size:
            return 0
        byte = data[-size]
        if 0x80 <= byte <= 0xBF:
            continue  # a continuation byte: look further back for the lead
        need = 2 if 0xC2 <= byte <= 0xDF else 3 if 0xE0 <= byte <= 0xEF else 4 if 0xF0 <= byte <= 0xF4 else 0
        return size if size < need else 0
    return 0


def stream_text(data: bytes) -> str:
    """What a stream decoder has emitted, before flushing, once it has seen ``data``.

    Everything, decoded with replacement, except a character that could still be finished.
    """
    return data[: len(data) - _unfinished(data)].decode("utf-8", errors="replace")


def stream_texts_allowed(data: bytes) -> set[str]:
    """``stream_text``, or the same text also holding back a tail that only looks unfinished."""
    return {data[: len(data) - held].decode("utf-8", errors="replace")
            for held in (_unfinished(data), _looks_unfinished(data))}
