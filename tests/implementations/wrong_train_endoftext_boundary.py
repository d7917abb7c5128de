"""Known-wrong (probe): train treats a hard-coded ``<|endoftext|>`` as a document boundary even when no special
tokens were asked for (CS336's pre-tokenizer with its special list written in): no pair is counted across it, and
it is learned from as a document of its own. Its tables are valid training of other documents than the text."""

from __future__ import annotations

import re

from tests.implementations._rehome import oracle_with

#: with other specials asked, a cut at one not asked is train.special-tokens' (cut where an asked special occurs only)
MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-implicit-specials", "train.special-tokens")

Pair = tuple[int, int]


def train_pieces(pieces: list[list[int]], vocab_size: int, tie_rule: str) -> dict[Pair, int]:
    """The oracle's loop over the pieces cut again at every ``<|endoftext|>``, which stays a piece of its own."""
    from spec.oracle.ties import train_pieces as oracle_train_pieces

    marker = list(b"<|endoftext|>")
    cut: list[list[int]] = []
    for ids in pieces:
        text = bytes(ids).decode("latin-1")
        cut += [list(part.encode("latin-1")) for part in re.split(r"(<\|endoftext\|>)", text) if part]
    assert all(part == marker or bytes(marker) not in bytes(part) for part in cut)
    return oracle_train_pieces(cut, vocab_size, tie_rule)


globals().update(oracle_with(globals()))
