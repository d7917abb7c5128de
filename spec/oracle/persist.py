"""Level persist: the ``bpe-kata v1`` file format, written and read the obvious way.

``dumps`` is what a correct ``save`` writes (up to how JSON escapes a string); ``loads``
accepts exactly the files a correct ``load`` accepts and, for any other, names the first
line that is wrong (spec/CONTRACT.md states the format and its rules). ``save`` writes a
temporary file beside the target and renames it over the target; ``load`` reads a file
with ``loads`` and names the file in its errors.
"""

from __future__ import annotations

import json
import os
import re

import regex

Pair = tuple[int, int]
VERSION = "bpe-kata v1"
MAX_DIGITS = 4000  # a longer number is an error: no id needs it, and Python's int() stops at 4300


def dumps(merges: dict[Pair, int], pattern: str | None = None, special_tokens: dict[str, int] | None = None) -> str:
    specials = special_tokens or {}
    lines = [VERSION, "pattern " + json.dumps(pattern, ensure_ascii=False), f"specials {len(specials)}"]
    lines += [f"{idx} {json.dumps(s, ensure_ascii=False)}" for s, idx in specials.items()]
    lines += [f"merges {len(merges)}"] + [f"{a} {b} {idx}" for (a, b), idx in merges.items()]
    return "".join(line + "\n" for line in lines)


class FormatError(ValueError):
    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


def _number(text: str, line: int) -> int:
    if not re.fullmatch(r"0|[1-9][0-9]*", text):
        raise FormatError(line, f"{text!r} is not a number")
    if len(text) > MAX_DIGITS:
        raise FormatError(line, "a number too long to be an id")
    return int(text)


def _json(text: str, line: int) -> object:
    try:
        value = json.loads(text)
    except ValueError:
        raise FormatError(line, f"{text!r} is not JSON") from None
    if isinstance(value, str) and re.search("[\ud800-\udfff]", value):
        raise FormatError(line, "a lone surrogate (a JSON escape can spell one) has no UTF-8 form")
    return value


def _usable_pattern(pattern: str, line: int) -> None:
    try:
        regex.compile(pattern)
    except regex.error:
        raise FormatError(line, f"{pattern!r} is not a valid regex") from None


def loads(text: str) -> tuple[dict[Pair, int], str | None, dict[str, int]]:
    """(merges, pattern, special tokens), or FormatError naming the first wrong line."""
    lines = text.split("\n")
    truncated_at = len(lines) if lines[-1] else None  # a last line without its "\n"
    lines = lines[:-1] if lines[-1] == "" else lines

    def line(n: int, prefix: str = "") -> str:
        if n > len(lines):
            raise FormatError(n, "the file ends too early")
        if n == truncated_at:
            raise FormatError(n, "the last line has no newline")
        if not lines[n - 1].startswith(prefix):
            raise FormatError(n, f"expected {prefix!r}")
        return lines[n - 1][len(prefix):]

    if line(1) != VERSION:
        raise FormatError(1, "wrong version line")
    pattern = _json(line(2, "pattern "), 2)
    if not (pattern is None or isinstance(pattern, str)):
        raise FormatError(2, "pattern is neither a string nor null")
    if pattern is not None:
        _usable_pattern(pattern, 2)
    n = 3
    specials: dict[str, int] = {}
    for _ in range(_number(line(n, "specials "), n)):
        n += 1
        idx_text, _, string = line(n).partition(" ")
        idx, special = _number(idx_text, n), _json(string, n)
        if not isinstance(special, str) or not special or idx < 256 or special in specials or idx in specials.values():
            raise FormatError(n, "bad special token")
        specials[special] = idx
    n += 1
    merges: dict[Pair, int] = {}
    for _ in range(_number(line(n, "merges "), n)):
        n += 1
        fields = line(n).split(" ")
        if len(fields) != 3:
            raise FormatError(n, "a merge has three numbers")
        left, right, idx = (_number(field, n) for field in fields)
        earlier = max(merges.values(), default=255)
        if any(part > 255 and part not in merges.values() for part in (left, right)):
            raise FormatError(n, "a merge uses an id not defined yet")
        if idx <= earlier or idx in specials.values() or (left, right) in merges:
            raise FormatError(n, "merge out of order, or a duplicate")
        merges[left, right] = idx
    if n < len(lines):
        raise FormatError(n + 1, "content after the last merge")
    return merges, pattern, specials


def save(path, merges: dict[Pair, int], *, pattern: str | None = None,
         special_tokens: dict[str, int] | None = None) -> None:
    """Write to a temporary file beside the target, then rename it over the target."""
    temporary = f"{path}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(dumps(merges, pattern, special_tokens))
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def read_text(data: bytes) -> str:
    """The file's text, or FormatError naming the first problem: the line of the first byte that is
    not UTF-8, or an earlier line that already breaks the format (the lines before it decode)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        try:
            loads(data[: data.rfind(b"\n", 0, error.start) + 1].decode("utf-8"))
        except FormatError as earlier:
            if earlier.line < line:
                raise earlier from None
        raise FormatError(line, "not UTF-8") from None


def load(path) -> tuple[dict[Pair, int], str | None, dict[str, int]]:
    """(merges, pattern, special tokens) of a saved file; ValueError naming the file and the line."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return loads(read_text(data))
    except FormatError as error:
        raise ValueError(f"{path}, {error}") from None
