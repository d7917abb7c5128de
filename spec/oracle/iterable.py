"""encode_iterable: ``encode`` of the texts joined, each prefix encoded once nothing later can change it.

Slow and obvious, like the rest of the oracle: after every text the buffer is scanned from its start.
A special starting at ``i`` is final when the longest looked-for special would fit from ``i`` (nothing
later can make a longer one start there); the text up to the last final special is whole pieces,
encoded as ``special.encode`` does. After it, the open piece's chunks are final when they end before the
known text does and start at least ``LOOKAHEAD`` characters before that end: what the published split
patterns read to decide a chunk (the contractions read three characters; every other alternative one
past its match, and a run of spaces that reaches the end is matched to the end). Such a chunk is encoded
on its own by the core, never as a text of its own (a pattern would see an end there). Without a
pattern, or with another one, the open piece waits for its special or the end of the input.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping

import regex

from spec.oracle import core, split
from spec.oracle.chunks import UncoveredCharacter, caller_position
from spec.oracle.special import DisallowedSpecial, encode
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, R50K_SPLIT_PATTERN

Pair = tuple[int, int]

LOOKAHEAD = 3
PUBLISHED = (GPT2_SPLIT_PATTERN, R50K_SPLIT_PATTERN, GPT4_SPLIT_PATTERN)


def encode_iterable(texts: Iterable[str], merges: dict[Pair, int], *, pattern: str | None = None,
                    special_tokens: Mapping[str, int] | None = None,
                    allowed_special: Collection[str] | str = frozenset(),
                    disallowed_special: Collection[str] | str = "all") -> Iterator[int]:
    """The ids of ``encode("".join(texts), merges, ...)``, yielded as the texts are read."""
    keywords = {"pattern": split.resolve(pattern), "special_tokens": dict(special_tokens or {}),
                "allowed_special": allowed_special, "disallowed_special": disallowed_special}
    return _ids(texts, merges, keywords)


def _looked_for(keywords: dict) -> tuple[set[str], set[str]]:
    specials = set(keywords["special_tokens"])
    allowed = specials if keywords["allowed_special"] == "all" else set(keywords["allowed_special"]) & specials
    disallowed = (specials if keywords["disallowed_special"] == "all"
                  else set(keywords["disallowed_special"]) & specials) - allowed
    return allowed | disallowed, disallowed


def _ids(texts: Iterable[str], merges: dict[Pair, int], keywords: dict) -> Iterator[int]:
    buffer, offset = "", 0
    for text in texts:
        buffer += text
        ids, cut = _final_prefix(buffer, offset, merges, keywords)
        yield from ids
        buffer, offset = buffer[cut:], offset + cut
    yield from _encoded(buffer, offset, merges, keywords)


def _encoded(text: str, offset: int, merges: dict[Pair, int], keywords: dict) -> list[int]:
    """``encode(text)``, its errors' positions counted in the joined text."""
    try:
        return encode(text, merges, **keywords)
    except DisallowedSpecial as error:
        raise DisallowedSpecial(error.special, offset + error.position) from None
    except UncoveredCharacter as error:
        raise UncoveredCharacter(offset + error.position) from None


def _final_prefix(buffer: str, offset: int, merges: dict[Pair, int], keywords: dict) -> tuple[list[int], int]:
    looked_for, disallowed = _looked_for(keywords)
    limit = len(buffer) - max((len(s) - 1 for s in looked_for), default=0)
    pieces_end = i = 0
    while i < limit:
        here = [s for s in looked_for if buffer.startswith(s, i)]
        if not here:
            i += 1
            continue
        special = max(here, key=len)
        if special in disallowed:
            raise DisallowedSpecial(special, offset + i)
        i = pieces_end = i + len(special)
    ids = _encoded(buffer[:pieces_end], offset, merges, keywords)
    pattern = keywords["pattern"]
    if pattern not in PUBLISHED:
        return ids, pieces_end
    known = buffer[pieces_end:max(limit, pieces_end)]
    if known and "\ud800" <= known[-1] <= "\udbff":
        known = known[:-1]  # the next text may complete this surrogate pair
    repaired = core.scalar_text(known)
    covered = 0
    for match in regex.finditer(pattern, repaired):
        if match.start() != covered or match.end() >= len(repaired) or match.start() + LOOKAHEAD > len(repaired):
            break
        ids += core.encode(match.group(), merges)
        covered = match.end()
    return ids, pieces_end + caller_position(known, covered)
