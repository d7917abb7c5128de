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
ValueError naming the file and the line, including a pattern that is not a valid regex and
a string holding a lone surrogate (a JSON escape can spell one). Saving writes a temporary
file beside the target and renames it into place, so a failed save leaves no half-written
file behind. The checks cannot see a change that leaves a valid tokenizer (one digit of an
id): ``load(path, expected_sha256=...)`` refuses any change, as tiktoken's loader does.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from .splitting import compile_pattern
from .tables import BASE_VOCAB_SIZE, check_special_tokens, checked_merges

__all__ = ["FORMAT_VERSION", "save", "load"]

FORMAT_VERSION = "bpe-kata v1"
_NUMBER = re.compile(r"0|[1-9][0-9]*")
#: Longer numbers are refused: Python's int() stops at 4300 digits by default, and no id needs more.
MAX_DIGITS = 4000
_SURROGATE = re.compile("[\ud800-\udfff]")

Pair = tuple[int, int]
Tokenizer = tuple[dict[Pair, int], str | None, dict[str, int]]


def save(path: str | os.PathLike, merges: Mapping[Pair, int], *, pattern: str | None = None,
         special_tokens: Mapping[str, int] | None = None) -> None:
    """Write the tokenizer to ``path`` atomically: a temporary file beside it, then a rename.

    - The temporary name is short (``.bpe-XXXXXXXX.tmp``), so any legal target name works.
    - An existing target keeps its permission bits; a new one gets the usual ``0o666``
      less the umask.
    - A symlink is written through: the file it points to is replaced, the link stays.
    - The file, then its folder (after the rename), are flushed to disk.
    """
    text = dumps(merges, pattern=pattern, special_tokens=special_tokens)  # all checks happen here
    target = Path(os.path.realpath(path))  # through any symlink, to the file it names
    temporary = _create_temporary(target.parent)
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            _keep_mode(target, handle.fileno())
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)


def _create_temporary(folder: Path) -> Path:
    """A new empty file with a short random name in ``folder``, never an existing one."""
    for _ in range(100):
        temporary = folder / f".bpe-{secrets.token_hex(4)}.tmp"
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return temporary
    raise FileExistsError(f"no free temporary name in {folder}")


def _keep_mode(target: Path, descriptor: int) -> None:
    """Give the new file the permission bits of the file it replaces, if there is one."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return
    if hasattr(os, "fchmod"):
        os.fchmod(descriptor, mode)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; platforms that cannot open a folder skip this."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def dumps(merges: Mapping[Pair, int], *, pattern: str | None = None,
          special_tokens: Mapping[str, int] | None = None) -> str:
    """The file's text; raises for a table that ``build_vocab`` or ``load`` would reject."""
    if pattern is not None and not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str or None, not {type(pattern).__name__}")
    rows = checked_merges(merges)  # in id order: training order, even for a table stored out of order
    specials = check_special_tokens(special_tokens, {idx for _, idx in rows})
    lines = [FORMAT_VERSION, f"pattern {_json(pattern)}", f"specials {len(specials)}"]
    lines += [f"{idx} {_json(special)}" for special, idx in sorted(specials.items(), key=lambda kv: kv[1])]
    lines.append(f"merges {len(rows)}")
    lines += [f"{a} {b} {idx}" for (a, b), idx in rows]
    text = "\n".join(lines) + "\n"
    loads(text, "<the table to save>")  # never write what could not be read back
    return text


def _json(value: str | None) -> str:
    return json.dumps(value, ensure_ascii=False)


def load(path: str | os.PathLike, *, expected_sha256: str | None = None) -> Tokenizer:
    """Read a tokenizer saved by ``save``: (merges in training order, pattern, special tokens).

    The format's checks catch files that are not tokenizers; they cannot catch a changed
    digit that still makes a valid table. With ``expected_sha256`` (hex, as tiktoken's
    loader takes it) a file whose SHA-256 differs is refused before it is read.
    """
    if expected_sha256 is not None and not isinstance(expected_sha256, str):
        raise TypeError(f"expected_sha256 must be a hex str, not {type(expected_sha256).__name__}")
    data = Path(path).read_bytes()
    if expected_sha256 is not None:
        actual = hashlib.sha256(data).hexdigest()
        if actual != expected_sha256.strip().lower():
            raise ValueError(f"{path}: the file's SHA-256 is {actual}, not the expected"
                             f" {expected_sha256}: it has changed since the hash was taken")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        # The error names the first problem: a line before the undecodable one may already
        # break the format (a file starting with an empty line fails at line 1), so the
        # lines before it, which decode, are read first and the bad line stops the reader.
        line = data.count(b"\n", 0, error.start) + 1
        problem = f"not UTF-8 text ({error.reason}); is this a {FORMAT_VERSION} file?"
        reader = _Reader(data[:error.start].decode("utf-8"), str(path), undecodable=(line, problem))
        reader.read()  # raises at the first problem, the undecodable line at the latest
        raise reader.fail(problem, line) from None  # a complete tokenizer before it: content after the end
    return loads(text, str(path))


def loads(text: str, name: str) -> Tokenizer:
    """Parse the format; ``name`` (the file) goes into every error message with the line."""
    return _Reader(text, name).read()


class _Reader:
    """Reads the format line by line, checking each line as it goes."""

    def __init__(self, text: str, name: str, undecodable: tuple[int, str] | None = None) -> None:
        self.lines = text.split("\n")
        self.name = name
        # (line, problem) when ``text`` is the decodable start of a file: reading stops there.
        self.undecodable = undecodable
        self.number = 0  # the line being read, from 1
        # A complete file ends with "\n", so splitting leaves one empty string at the end.
        self.complete = self.lines[-1] == ""
        if self.complete:
            self.lines.pop()

    def fail(self, problem: str, number: int | None = None) -> ValueError:
        return ValueError(f"{self.name}, line {number or self.number}: {problem}")

    def next_line(self, expecting: str) -> str:
        self.number += 1
        self.stop_if_undecodable()
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
            self.stop_if_undecodable()
            raise self.fail("unexpected content after the last merge")
        return merges, pattern, specials

    def stop_if_undecodable(self) -> None:
        if self.undecodable is not None and self.number >= self.undecodable[0]:
            raise self.fail(self.undecodable[1])

    def keyword(self, key: str, expecting: str) -> str:
        line = self.next_line(expecting)
        if not line.startswith(key + " "):
            raise self.fail(f"expected {expecting}, found {line[:60]!r}")
        return line[len(key) + 1:]

    def pattern_line(self) -> str | None:
        value = self.json(self.keyword("pattern", "'pattern <JSON string or null>'"))
        if value is not None and not isinstance(value, str):
            raise self.fail("the pattern must be a JSON string or null")
        if value is not None:
            self.no_surrogate(value, "the pattern")
            try:
                compile_pattern(value)
            except ValueError as error:
                raise self.fail(str(error)) from None
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
            self.no_surrogate(special, "a special token")
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
        if len(field) > MAX_DIGITS:  # int() would refuse it too, without the line
            raise self.fail(f"a number of {len(field)} digits is too long to be an id (at most {MAX_DIGITS})")
        return int(field)

    def no_surrogate(self, value: str, what: str) -> None:
        """A JSON escape can spell a lone surrogate, which has no UTF-8 form: refuse it here."""
        found = _SURROGATE.search(value)
        if found:
            raise self.fail(f"{what} holds the lone surrogate U+{ord(found.group()):04X}, which has no UTF-8 form")

    def json(self, field: str) -> object:
        try:
            return json.loads(field)
        except ValueError:
            raise self.fail(f"{field[:60]!r} is not a JSON value") from None
