"""Level regex: a split pattern cuts the text into chunks; merges are learned and applied inside each.

Slow and obvious, like ``core``: training recounts every pair of every chunk occurrence
after each merge (``ties.train_pieces``), and each chunk is encoded on its own by the core.
"""

from __future__ import annotations

import regex

from spec.oracle import core
from spec.oracle.core import check_vocab_size, scalar_text
from spec.oracle.ties import train_pieces

Pair = tuple[int, int]


class UncoveredCharacter(ValueError):
    """A character no match of the pattern covers, named by its position in the caller's text."""

    def __init__(self, position: int) -> None:
        super().__init__(f"the pattern does not cover the character at position {position}")
        self.position = position


def chunks(text: str, pattern: str) -> list[str]:
    """The chunks of ``text``: the pattern's whole matches in order, empty ones dropped."""
    return [match.group() for match in regex.finditer(pattern, text) if match.group()]


def first_uncovered(text: str, pattern: str) -> int | None:
    """The position of the first character of ``text`` in no match of ``pattern``, or None."""
    covered = [False] * len(text)
    for match in regex.finditer(pattern, text):
        covered[match.start():match.end()] = [True] * (match.end() - match.start())
    return next((position for position, inside in enumerate(covered) if not inside), None)


def caller_position(text: str, position: int) -> int:
    """Where character ``position`` of the repaired text starts in the caller's ``text``.

    The repair turns a surrogate pair (two characters of ``text``) into one character.
    """
    index = 0
    for _ in range(position):
        pair = "\ud800" <= text[index] <= "\udbff" and "\udc00" <= text[index + 1:index + 2] <= "\udfff"
        index += 2 if pair else 1
    return index


def covering_chunks(text: str, pattern: str) -> list[str]:
    """The chunks of the repaired text; ValueError naming the first character (of ``text``) they leave out."""
    repaired = scalar_text(text)
    position = first_uncovered(repaired, pattern)
    if position is not None:
        raise UncoveredCharacter(caller_position(text, position))
    return chunks(repaired, pattern)


#: A pattern that begins with this regex comment is matched against the text's UTF-8 bytes, not its characters: a
#: split code has in place of a published pattern (spec/split_variants.py) when it compiles the pattern as bytes
#: (``rb"..."``), where ``\p{L}`` and ``\p{N}`` match ASCII only and a letter's bytes leave the word before them.
ON_BYTES = "(?#on UTF-8 bytes)"


def byte_chunks(text: str, pattern: str) -> list[bytes]:
    """The chunks of the repaired text's UTF-8 bytes under ``pattern`` matched against bytes (``ON_BYTES``)."""
    data = core.utf8(text)
    found = [match.group() for match in regex.finditer(pattern.encode("utf-8"), data) if match.group()]
    if sum(map(len, found)) != len(data):
        raise UncoveredCharacter(0)  # the published patterns cover every byte; a pattern of one's own may not
    return found


def chunk_bytes(text: str, pattern: str) -> list[list[int]]:
    """What training with a pattern starts from: the UTF-8 bytes of each chunk, in text order."""
    if pattern.startswith(ON_BYTES):
        return [list(chunk) for chunk in byte_chunks(text, pattern)]
    return [list(chunk.encode("utf-8")) for chunk in covering_chunks(text, pattern)]


def encode_chunks(text: str, merges: dict[Pair, int], pattern: str) -> list[int]:
    """Each chunk encoded on its own by the core, the ids joined."""
    if pattern.startswith(ON_BYTES):
        return [i for chunk in byte_chunks(text, pattern) for i in core.encode_ids(list(chunk), merges)]
    return [i for chunk in covering_chunks(text, pattern) for i in core.encode(chunk, merges)]


def train(text: str, vocab_size: int, *, pattern: str | None = None) -> dict[Pair, int]:
    """The regex level's train: without a pattern the core's; with one, counts inside chunks only."""
    if pattern is None:
        return core.train(text, vocab_size)
    check_vocab_size(vocab_size)
    return train_pieces(chunk_bytes(text, pattern), vocab_size, "first-counted")
