"""Known-wrong: with no special token asked, train still cuts the text in two at the first "<|endoftext|>" in
its second half (CS336's chunk boundaries for parallel pre-tokenization, found with the course's special
written in), so the one pair across that cut is never counted; the special's text stays text."""

from __future__ import annotations

from spec.oracle import chunks, core, special, split, ties
from spec.oracle import train as oracle_train
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from spec.oracle.special import encode  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-implicit-specials",)

ENDOFTEXT = "<|endoftext|>"


def train(text, vocab_size, *, pattern=None, tie_rule=None, special_tokens=None):
    """The oracle's, but two documents around the first <|endoftext|> at or after the middle, none asked."""
    cut = text.find(ENDOFTEXT, len(text) // 2) if isinstance(text, str) else -1
    if special_tokens or cut <= 0:
        return oracle_train(text, vocab_size, pattern=pattern, tie_rule=tie_rule, special_tokens=special_tokens)
    pattern, tie_rule = split.resolve(pattern), split.tie_rule(tie_rule)
    ties.check_tie_rule(tie_rule)
    core.check_vocab_size(vocab_size)
    pieces: list[list[int]] = []
    for document in (text[:cut], text[cut:]):
        pieces += [list(core.utf8(document))] if pattern is None else chunks.chunk_bytes(document, pattern)
    return ties.train_pieces(pieces, vocab_size, tie_rule)


del special
