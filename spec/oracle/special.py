"""Level special: special tokens are cut out first, then the text between them is encoded.

Slow and obvious: every looked-for special is tried at every position. This module's
``encode`` and ``build_vocab`` take every keyword of the contract (pattern and specials).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from spec.oracle import core, split
from spec.oracle.chunks import UncoveredCharacter, encode_chunks

Pair = tuple[int, int]


class DisallowedSpecial(ValueError):
    """A disallowed special found in the text: which one, and at which character position."""

    def __init__(self, special: str, position: int) -> None:
        super().__init__(f"disallowed special token {special!r} at position {position}")
        self.special, self.position = special, position


def split_special(text: str, special_tokens: Mapping[str, int],
                  allowed: Collection[str] | str = (), disallowed: Collection[str] | str = "all") -> list[str | int]:
    """Text pieces and special ids, in order; raises DisallowedSpecial for a disallowed special.

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


def documents_at(text: str, special_tokens: list[str]) -> list[tuple[int, str]]:
    """The text between the specials found in it, as train cuts it, each piece with the position where it
    starts: every special found (the longest where several start, as encode finds them) is a cut, and is left
    out; no empty piece. ValueError for an empty special."""
    if isinstance(special_tokens, str):
        raise TypeError(f"special_tokens must be a list of strings, not the str {special_tokens!r}")
    if any(not isinstance(s, str) or not s for s in special_tokens):
        raise ValueError(f"special tokens must be non-empty strings, got {special_tokens!r}")
    out: list[tuple[int, str]] = []
    start, i = 0, 0
    while i < len(text):
        here = [s for s in special_tokens if text.startswith(s, i)]
        if not here:
            i += 1
            continue
        if i > start:
            out.append((start, text[start:i]))
        i += len(max(here, key=len))
        start = i
    if start < len(text):
        out.append((start, text[start:]))
    return out


def documents(text: str, special_tokens: list[str]) -> list[str]:
    """The pieces ``documents_at`` cuts, without their positions: what the validity checker replays on."""
    return [piece for _, piece in documents_at(text, special_tokens)]


def encode(text: str, merges: dict[Pair, int], *, pattern: str | None = None,
           special_tokens: Mapping[str, int] | None = None,
           allowed_special: Collection[str] | str = frozenset(),
           disallowed_special: Collection[str] | str = "all") -> list[int]:
    """Specials become their ids; each text piece between them is encoded (by chunks, with a pattern).

    A character the pattern leaves uncovered is named by its position in ``text``, so the
    pieces' places in ``text`` are followed: a special's place ends at its longest text there.
    """
    pattern = split.resolve(pattern)  # none given: the split in force (spec/oracle/split.py)
    specials = special_tokens or {}
    out: list[int] = []
    start = 0
    for piece in split_special(text, specials, allowed_special, disallowed_special):
        if isinstance(piece, int):
            out.append(piece)
            start += max(len(s) for s, i in specials.items() if i == piece and text.startswith(s, start))
            continue
        if pattern is None:
            out += core.encode(piece, merges)
        else:
            try:
                out += encode_chunks(piece, merges, pattern)
            except UncoveredCharacter as uncovered:
                raise UncoveredCharacter(start + uncovered.position) from None
        start += len(piece)
    return out


def build_vocab(merges: dict[Pair, int], special_tokens: Mapping[str, int] | None = None) -> dict[int, bytes]:
    """The core's vocabulary, plus each special id mapped to its string's UTF-8 bytes."""
    vocab = core.build_vocab(merges)
    vocab.update({idx: special.encode("utf-8") for special, idx in (special_tokens or {}).items()})
    return vocab
