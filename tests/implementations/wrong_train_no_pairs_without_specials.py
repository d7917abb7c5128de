"""Known-wrong (probe): a CS336-style trainer that cuts its text on ``"|".join(special_tokens)`` and has no guard once
no pair is left. With no special token given every character is its own chunk, so on most texts no pair is counted
and ``max()`` of nothing raises, at the very line where training with special tokens raises once it runs out of pairs
(ninth round, development: two such solutions were told to fix exhaustion first; fixing it mends none of the
trainings their cut without specials crashed)."""

from __future__ import annotations

from spec.oracle import chunks, core, special, split, ties
from tests.implementations._rehome import oracle_with

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-implicit-specials", "train.exhausted")

Pair = tuple[int, int]

def train_pieces(pieces: list[list[int]], vocab_size: int, tie_rule: str) -> dict[Pair, int]:
    """The oracle's training loop without ``if not stats: break``."""
    merges: dict[Pair, int] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    for idx in range(256, vocab_size):
        stats: dict[Pair, int] = {}
        for ids in pieces:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        top = max(stats.values())  # max() of nothing raises once no pair is left
        best = ties.choose_tie(tie_rule, [pair for pair, count in stats.items() if count == top], vocab)
        pieces = [ties.merge(ids, best, idx) for ids in pieces]
        merges[best] = idx
        vocab[idx] = vocab[best[0]] + vocab[best[1]]
    return merges


globals().update(oracle_with(globals()))


def _pieces(start: int, document: str, pattern: str | None) -> list[list[int]]:
    """The oracle's pieces of one document between specials (its whole bytes without a pattern)."""
    if pattern is None:
        return [list(core.utf8(document))]
    try:
        return chunks.chunk_bytes(document, pattern)
    except chunks.UncoveredCharacter as uncovered:  # named where it is in the caller's text
        raise chunks.UncoveredCharacter(start + uncovered.position) from None


def train(text: str, vocab_size: int, *, pattern: str | None = None, tie_rule: str | None = None,
          special_tokens: list[str] | None = None) -> dict[Pair, int]:
    """The oracle's train, each chunk cut into its characters when no special token is given; one loop for both."""
    pattern, tie_rule = split.resolve(pattern), split.tie_rule(tie_rule)
    ties.check_tie_rule(tie_rule)
    core.check_vocab_size(vocab_size)
    if special_tokens:
        pieces = [piece for start, document in special.documents_at(text, special_tokens)
                  for piece in _pieces(start, document, pattern)]
    else:
        chunked = chunks.covering_chunks(text, pattern) if pattern is not None else [chunks.scalar_text(text)]
        pieces = [list(core.utf8(character)) for chunk in chunked for character in chunk]
    return train_pieces(pieces, vocab_size, tie_rule)
