"""Encoding a stream of texts lazily: the ids of the joined text, with only a short tail held back.

``encode_iterable(texts, merges, ...)`` must give exactly ``encode("".join(texts), merges, ...)``
whatever the cuts between the pieces: a cut may fall inside a word, a run of spaces, ``"\\r\\n"``, a
special token or a surrogate pair. So the texts are never encoded one by one; they are read into a
buffer, and a prefix of the buffer is encoded only once nothing that comes later can change its ids.
Where that is depends on what ties the text together:

- **Special tokens** cut the text into pieces encoded apart. A special found at position ``s`` is
  final once every special that could start at ``s`` fits in the buffer (``s`` is at most the buffer's
  length less the longest special's, plus one): leftmost-then-longest can no longer change there.
- **A split pattern** cuts a piece into chunks encoded apart. A chunk ``[p, e)`` is final once the
  regex engine, deciding it, read nothing past the buffer: for the published patterns (GPT-2's, its
  possessive rewrite, GPT-4's), every alternative reads at most one character past its match, or the
  three characters from its start (the contractions ``'ll``, ``'ve``, ``'re``), and a run of spaces
  that reaches the end is matched to the end. So a chunk is final when it ends before the known text
  does and starts at least three characters before that end. For any other pattern the reference
  cannot bound what the engine reads, and keeps the whole piece (correct, not bounded).
- **No pattern**: a piece is one sequence in which a merge may join any two neighbours; it is held
  until its special or the end of the input.
- A high surrogate at the end of the buffer may pair with the next text's first character: held.

Buffered text is processed when it has grown by at least ``BATCH`` characters and by as much as was
held, so each character is scanned a bounded number of times, and memory holds a batch, the held
tail and one input text. Errors are ``encode``'s, raised when their text is reached (ids before it may
already have been yielded), with positions counted in the joined text.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping

from .encoding import _encode_chunks, encode
from .scalar_text import original_position, scalar_text
from .special import _finder, _policy
from .splitting import UncoveredText, compile_pattern
from .tables import check_special_tokens, merge_ids

__all__ = ["encode_iterable"]

Pair = tuple[int, int]

#: Characters read before a batch is processed: large enough that a batch's chunk cache pays off.
BATCH = 1 << 16

#: The split patterns whose reads the module docstring bounds, by the characters a chunk must start
#: before the end of the known text: GPT-2's as released, tiktoken's possessive rewrite, GPT-4's.
BOUNDED_PATTERNS: dict[str, int] = {
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""": 3,
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""": 3,
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""": 3,  # noqa: E501
}


def encode_iterable(texts: Iterable[str], merges: Mapping[Pair, int], *, pattern: str | None = None,
                    special_tokens: Mapping[str, int] | None = None,
                    allowed_special: Collection[str] | str = frozenset(),
                    disallowed_special: Collection[str] | str = "all") -> Iterator[int]:
    """The ids of ``encode("".join(texts), merges, ...)``, one at a time, reading ``texts`` as they come.

    Same keywords as ``encode``. The table, the specials and the pattern are checked before the first text
    is read; a text that is not a str is a TypeError.
    """
    specials = check_special_tokens(special_tokens, merge_ids(merges))
    if pattern is not None:
        compile_pattern(pattern)
    allowed, disallowed = _policy(specials, allowed_special, disallowed_special) if specials else ((), ())
    looked_for = frozenset(allowed) | frozenset(disallowed)
    options = {"pattern": pattern, "special_tokens": specials, "allowed_special": allowed_special,
               "disallowed_special": disallowed_special}
    return _Stream(merges, options, looked_for, frozenset(disallowed)).ids(texts)


class _Stream:
    """One lazy encoding: the texts read but not yet encoded, and where they start in the joined text."""

    def __init__(self, merges: Mapping[Pair, int], options: dict, looked_for: frozenset[str],
                 disallowed: frozenset[str]) -> None:
        self.merges, self.options = merges, options
        self.looked_for, self.disallowed = looked_for, disallowed
        self.longest = max(map(len, looked_for), default=0)
        self.lookahead = BOUNDED_PATTERNS.get(options["pattern"]) if options["pattern"] is not None else None
        self.offset = 0  # characters of the joined text before the buffer

    def ids(self, texts: Iterable[str]) -> Iterator[int]:
        parts: list[str] = []
        pending = held = 0
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"encode_iterable: each text must be a str, not {type(text).__name__}")
            parts.append(text)
            pending += len(text)
            if pending >= max(BATCH, held):
                buffer = "".join(parts)
                ids, cut = self._final_prefix(buffer)
                yield from ids
                parts, held = [buffer[cut:]], len(buffer) - cut
                pending = 0
        yield from self._encoded("".join(parts), last=True)

    def _final_prefix(self, buffer: str) -> tuple[list[int], int]:
        """The ids of the prefix of ``buffer`` that nothing following can change, and its length.

        The prefix is whole pieces up to the last final special, encoded as ``encode`` does, then the final
        chunks of the open piece after it, encoded chunk by chunk: encoding them as a text of their own would
        let the pattern see an end of text (GPT-4's ``\\s++$``) that the joined text does not have.
        """
        limit = len(buffer) - max(self.longest - 1, 0)  # a special starting here or later may not be whole yet
        piece_start = 0
        if self.looked_for:
            for match in _finder(self.looked_for).finditer(buffer):
                if match.start() >= limit:  # not final; a longer special may also start between limit and it
                    break
                self._refuse_disallowed(match)
                piece_start = match.end()
        piece_end = max(limit, piece_start)
        ids = self._encoded(buffer[:piece_start])
        if self.lookahead is None:
            return ids, piece_start
        chunks, length = self._final_chunks(buffer[piece_start:piece_end])
        ids += _encode_chunks(chunks, self.merges, {})
        self.offset += length
        return ids, piece_start + length

    def _final_chunks(self, known: str) -> tuple[list[str], int]:
        """The final chunks at the start of ``known`` (a piece's beginning, its end unknown), and their length
        in ``known``'s characters."""
        if known and "\ud800" <= known[-1] <= "\udbff":
            known = known[:-1]  # a high surrogate that the next text may complete
        text = scalar_text(known)
        chunks: list[str] = []
        covered = 0
        for match in compile_pattern(self.options["pattern"]).finditer(text):
            if match.start() != covered or match.end() >= len(text) or match.start() + self.lookahead > len(text):
                break
            chunks.append(match.group())
            covered = match.end()
        return chunks, covered if text is known else original_position(known, covered)

    def _refuse_disallowed(self, match) -> None:
        if match.group() in self.disallowed:
            raise ValueError(
                f"disallowed special token {match.group()!r} at position {self.offset + match.start()} of the text:"
                " pass it in allowed_special to encode it as its id, or leave it out of disallowed_special to"
                " encode it as plain text")

    def _encoded(self, text: str, last: bool = False) -> list[int]:
        """``encode`` of a final prefix (the rest of the input when ``last``), errors placed in the joined text."""
        if last and self.looked_for:
            for match in _finder(self.looked_for).finditer(text):
                self._refuse_disallowed(match)
        try:
            ids = encode(text, self.merges, **self.options) if text else []
        except UncoveredText as gap:
            raise gap.shifted(self.offset) from None
        self.offset += len(text)
        return ids
