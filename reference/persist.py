"""Saving and loading a trained tokenizer in the plain-text ``bpe-kata v1`` format.

A tokenizer is its merges in order, its split pattern and its special tokens. The file
is UTF-8 text, one record a line, every line ending in "\\n" (spec/CONTRACT.md has the
format)::

    bpe-kata v1
    pattern "<JSON string>"      (or: pattern null)
    specials <n>
    <id> "<JSON string>"         n lines
    merges <m>
    <left> <right> <id>          m lines, in training order

Strings are JSON, so a pattern or special may hold spaces, newlines or any character and
still sit on one line. Loading checks everything and reports the first problem as a
ValueError naming the file and the line. Saving writes a temporary file beside the target
and renames it into place, so a failed save leaves no half-written file behind.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Mapping
from pathlib import Path

from .core import BASE_VOCAB_SIZE
from .special import check_special_tokens

__all__ = ["FORMAT_VERSION", "save", "load"]

FORMAT_VERSION = "bpe-kata v1"
_NUMBER = re.compile(r"0|[1-9][0-9]*")

Pair = tuple[int, int]
Tokenizer = tuple[dict[Pair, int], str | None, dict[str, int]]


def save(path: str | os.PathLike, merges: Mapping[Pair, int], *, pattern: str | None = None,
         special_tokens: Mapping[str, int] | None = None) -> None:
    """Write the tokenizer to ``path`` atomically (temporary file, then rename)."""
    text = dumps(merges, pattern=pattern, special_tokens=special_tokens)  # all checks happen here
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8", newline="") as handle:  # "x": never clobber
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def dumps(merges: Mapping[Pair, int], *, pattern: str | None = None,
          special_tokens: Mapping[str, int] | None = None) -> str:
    """The file's text; raises ValueError for a table that ``load`` would reject."""
    if pattern is not None and not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str or None, not {type(pattern).__name__}")
    specials = dict(special_tokens or {})
    check_special_tokens(specials)
    # Training order is id order; sorting by id also rescues a table stored out of order.
    rows = sorted((((int(a), int(b)), int(idx)) for (a, b), idx in merges.items()), key=lambda row: row[1])
    lines = [FORMAT_VERSION, f"pattern {_json(pattern)}", f"specials {len(specials)}"]
    lines += [f"{idx} {_json(special)}" for special, idx in sorted(specials.items(), key=lambda kv: kv[1])]
    lines.append(f"merges {len(rows)}")
    lines += [f"{a} {b} {idx}" for (a, b), idx in rows]
    text = "\n".join(lines) + "\n"
    loads(text, "<the table to save>")  # never write what could not be read back
    return text


def _json(value: str | None) -> str:
    return json.dumps(value, ensure_ascii=False)


def load(path: str | os.PathLike) -> Tokenizer:
    """Read a tokenizer saved by ``save``: (merges in training order, pattern, special tokens)."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ValueError(f"{path}, line {line}: not UTF-8 text ({error.reason}); "
                         f"is this a {FORMAT_VERSION} file?") from None
    return loads(text, str(path))


def loads(text: str, name: str) -> Tokenizer:
    """Parse the format; ``name`` (the file) goes into every error message with the line."""
    return _Reader(text, name).read()


class _Reader:
    """Reads the format line by line, checking each line as it goes."""

    def __init__(self, text: str, name: str) -> None:
        self.lines = text.split("\n")
        self.name = name
        self.number = 0  # the line being read, from 1
        # A complete file ends with "\n", so splitting leaves one empty string at the end.
        self.complete = self.lines[-1] == ""
        if self.complete:
            self.lines.pop()

    def fail(self, problem: str, number: int | None = None) -> ValueError:
        return ValueError(f"{self.name}, line {number or self.number}: {problem}")

    def next_line(self, expecting: str) -> str:
        self.number += 1
        if self.number > len(self.lines):
            raise self.fail(f"the file ends here, but {expecting} should follow: it is truncated")
        line = self.lines[self.number - 1]
        if self.number == len(self.lines) and not self.complete:
            raise self.fail("the last line has no newline at its end: the file is truncated")
        return line

    def read(self) -> Tokenizer:
        version = self.next_line(f"the version line {FORMAT_VERSION!r}")
        if version != FORMAT_VERSION:
            kind = "an unsupported version" if version.startswith("bpe-kata ") else "not a bpe-kata file"
            raise self.fail(f"{kind}: expected {FORMAT_VERSION!r}, found {version[:60]!r}")
        pattern = self.pattern_line()
        specials = self.specials()
        merges = self.merges(set(specials.values()))
        if self.number < len(self.lines):
            self.number += 1
            raise self.fail("unexpected content after the last merge")
        return merges, pattern, specials

    def keyword(self, key: str, expecting: str) -> str:
        line = self.next_line(expecting)
        if not line.startswith(key + " "):
            raise self.fail(f"expected {expecting}, found {line[:60]!r}")
        return line[len(key) + 1:]

    def pattern_line(self) -> str | None:
        value = self.json(self.keyword("pattern", "'pattern <JSON string or null>'"))
        if value is not None and not isinstance(value, str):
            raise self.fail("the pattern must be a JSON string or null")
        return value

    def specials(self) -> dict[str, int]:
        count = self.number_of(self.keyword("specials", "'specials <count>'"))
        specials: dict[str, int] = {}
        seen_ids: set[int] = set()
        for i in range(count):
            line = self.next_line(f"special token {i + 1} of {count}")
            idx_text, _, string = line.partition(" ")
            idx = self.number_of(idx_text)
            special = self.json(string)
            if not isinstance(special, str) or not special:
                raise self.fail("a special token must be a non-empty JSON string")
            if idx < BASE_VOCAB_SIZE:
                raise self.fail(f"special token id {idx} is a byte value; special ids start at {BASE_VOCAB_SIZE}")
            if idx in seen_ids or special in specials:
                raise self.fail(f"duplicate special token id or string: {idx} {special!r}")
            specials[special] = idx
            seen_ids.add(idx)
        return specials

    def merges(self, special_ids: set[int]) -> dict[Pair, int]:
        count = self.number_of(self.keyword("merges", "'merges <count>'"))
        merges: dict[Pair, int] = {}
        defined: set[int] = set()
        last = BASE_VOCAB_SIZE - 1
        for i in range(count):
            fields = self.next_line(f"merge {i + 1} of {count}").split(" ")
            if len(fields) != 3:
                raise self.fail("a merge line is '<left> <right> <id>'")
            left, right, idx = (self.number_of(field) for field in fields)
            for part in (left, right):
                if part >= BASE_VOCAB_SIZE and part not in defined:
                    raise self.fail(f"merge uses id {part}, which no earlier merge defines")
            if idx <= last:
                raise self.fail(f"merge id {idx} does not come after {last}: merges must be in training order")
            if idx in special_ids:
                raise self.fail(f"merge id {idx} is already a special token's id")
            if (left, right) in merges:
                raise self.fail(f"the pair ({left}, {right}) is merged twice")
            merges[left, right] = idx
            defined.add(idx)
            last = idx
        return merges

    def number_of(self, field: str) -> int:
        if not _NUMBER.fullmatch(field):
            raise self.fail(f"{field[:40]!r} is not a number (decimal digits, no sign)")
        return int(field)

    def json(self, field: str) -> object:
        try:
            return json.loads(field)
        except ValueError:
            raise self.fail(f"{field[:60]!r} is not a JSON value") from None
