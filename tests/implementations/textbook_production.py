"""The textbook production levels: split patterns, special tokens, save/load and streaming, the plain way.

Built on ``textbook``: a full recount per merge over every chunk, specials found by trying
each one at each position, a file read line by line, and the standard incremental UTF-8
decoder. The known-wrong production modules start from here and change one thing.
"""

from __future__ import annotations

import codecs
import json
import os

import regex

from tests.implementations import textbook
from tests.implementations.textbook import decode, get_stats, merge  # noqa: F401  (part of the contract)

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode", "save", "load", "StreamDecoder"]

Pair = tuple[int, int]
VERSION = "bpe-kata v1"


def chunks_of(text: str, pattern: str) -> list[str]:
    """The matches of the repaired text; a character in none of them is an error, never dropped."""
    text = textbook.utf8(text).decode("utf-8")
    found, covered = [], 0
    for match in regex.finditer(pattern, text):
        if match.start() > covered:
            break
        covered = max(covered, match.end())
        found.append(match.group())
    if covered < len(text):
        raise ValueError(f"the pattern leaves the character at position {covered} out")
    return [chunk for chunk in found if chunk]


def train(text: str, vocab_size: int, *, pattern: str | None = None) -> dict[Pair, int]:
    """Without a pattern, the textbook; with one, counts over every chunk, never across two."""
    if pattern is None:
        return textbook.train(text, vocab_size)
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    pieces = [list(chunk.encode("utf-8")) for chunk in chunks_of(text, pattern)]
    merges: dict[Pair, int] = {}
    for idx in range(256, vocab_size):
        stats: dict[Pair, int] = {}
        for ids in pieces:
            for pair, n in get_stats(ids).items():
                stats[pair] = stats.get(pair, 0) + n
        if not stats:
            break
        best = max(stats, key=stats.get)
        pieces = [merge(ids, best, idx) for ids in pieces]
        merges[best] = idx
    return merges


def build_vocab(merges: dict[Pair, int], special_tokens: dict[str, int] | None = None) -> dict[int, bytes]:
    vocab = textbook.build_vocab(merges)
    for special, idx in (special_tokens or {}).items():
        vocab[idx] = special.encode("utf-8")
    return vocab


def split_special(text: str, special_tokens: dict[str, int], allowed, disallowed) -> list:
    """Plain pieces and special ids; at each position the longest looked-for special wins."""
    allowed = set(special_tokens) if allowed == "all" else set(allowed) & set(special_tokens)
    disallowed = (set(special_tokens) if disallowed == "all" else set(disallowed)) - allowed
    looked_for = sorted(allowed | disallowed, key=len, reverse=True)
    pieces: list = []
    start = i = 0
    while i < len(text):
        special = next((s for s in looked_for if text.startswith(s, i)), None)
        if special is None:
            i += 1
            continue
        if special in disallowed:
            raise ValueError(f"disallowed special token {special!r} at position {i}")
        pieces += [text[start:i], special_tokens[special]]
        i = start = i + len(special)
    return [piece for piece in pieces + [text[start:]] if piece != ""]


def encode_piece(text: str, merges: dict[Pair, int], pattern: str | None) -> list[int]:
    if pattern is None:
        return textbook.encode(text, merges)
    return [i for chunk in chunks_of(text, pattern) for i in textbook.encode(chunk, merges)]


def encode(text: str, merges: dict[Pair, int], *, pattern: str | None = None, special_tokens=None,
           allowed_special=frozenset(), disallowed_special="all") -> list[int]:
    pieces = split_special(text, special_tokens, allowed_special, disallowed_special) if special_tokens else [text]
    out: list[int] = []
    for piece in pieces:
        out += [piece] if isinstance(piece, int) else encode_piece(piece, merges, pattern)
    return out


def format_lines(merges: dict[Pair, int], pattern: str | None, special_tokens: dict[str, int] | None) -> list[str]:
    specials = special_tokens or {}
    lines = [VERSION, "pattern " + json.dumps(pattern, ensure_ascii=False), f"specials {len(specials)}"]
    lines += [f"{idx} {json.dumps(s, ensure_ascii=False)}" for s, idx in specials.items()]
    lines.append(f"merges {len(merges)}")
    lines += [f"{a} {b} {idx}" for (a, b), idx in sorted(merges.items(), key=lambda item: item[1])]
    return lines


def save(path, merges: dict[Pair, int], *, pattern: str | None = None, special_tokens=None) -> None:
    """Write to a temporary file beside the target, then rename it over the target."""
    text = "".join(line + "\n" for line in format_lines(merges, pattern, special_tokens))
    temporary = f"{path}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


class _Lines:
    """The file's lines with their numbers, failing with the file name and the line."""

    def __init__(self, path) -> None:
        self.path = path
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise ValueError(f"{path}, line {line}: not UTF-8") from None
        self.lines = text.split("\n")
        self.cut = self.lines[-1] != ""  # the last line lost its newline
        if not self.cut:
            self.lines.pop()
        self.n = 0

    def error(self, problem: str) -> ValueError:
        return ValueError(f"{self.path}, line {self.n}: {problem}")

    def next(self, prefix: str = "") -> str:
        self.n += 1
        if self.n > len(self.lines):
            raise self.error("the file ends too early")
        if self.cut and self.n == len(self.lines):
            raise self.error("the last line has no newline: truncated")
        line = self.lines[self.n - 1]
        if not line.startswith(prefix):
            raise self.error(f"expected {prefix!r}")
        return line[len(prefix):]

    def number(self, text: str) -> int:
        if not text.isascii() or not text.isdigit() or (text.startswith("0") and text != "0") or len(text) > 4000:
            raise self.error(f"{text!r:.40} is not a number")
        return int(text)

    def json(self, text: str):
        try:
            value = json.loads(text)
        except ValueError:
            raise self.error(f"{text!r} is not JSON") from None
        if isinstance(value, str) and any("\ud800" <= char <= "\udfff" for char in value):
            raise self.error("a lone surrogate has no UTF-8 form")
        return value


def load(path):
    lines = _Lines(path)
    if lines.next() != VERSION:
        raise lines.error(f"not a {VERSION} file")
    pattern = lines.json(lines.next("pattern "))
    if pattern is not None and not isinstance(pattern, str):
        raise lines.error("the pattern is not a string")
    if pattern is not None:
        try:
            regex.compile(pattern)
        except regex.error:
            raise lines.error("the pattern is not a valid regex") from None
    specials: dict[str, int] = {}
    for _ in range(lines.number(lines.next("specials "))):
        idx, _, string = lines.next().partition(" ")
        idx, special = lines.number(idx), lines.json(string)
        if not isinstance(special, str) or not special or idx < 256 or special in specials or idx in specials.values():
            raise lines.error("bad special token")
        specials[special] = idx
    merges: dict[Pair, int] = {}
    for _ in range(lines.number(lines.next("merges "))):
        fields = lines.next().split(" ")
        if len(fields) != 3:
            raise lines.error("a merge is three numbers")
        left, right, idx = (lines.number(field) for field in fields)
        if any(part > 255 and part not in merges.values() for part in (left, right)):
            raise lines.error("a merge uses an undefined id")
        if idx <= max(merges.values(), default=255) or idx in specials.values() or (left, right) in merges:
            raise lines.error("merge out of order or duplicated")
        merges[left, right] = idx
    if lines.n < len(lines.lines):
        lines.n += 1
        raise lines.error("unexpected line after the merges")
    return merges, pattern, specials


class StreamDecoder:
    """The standard library's incremental UTF-8 decoder does the holding back."""

    def __init__(self, vocab: dict[int, bytes]) -> None:
        self.vocab = vocab
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, token_id: int) -> str:
        return self.decoder.decode(self.vocab[token_id])

    def flush(self) -> str:
        return self.decoder.decode(b"", final=True)
