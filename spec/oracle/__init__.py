"""The oracle: a complete, plain implementation of the whole contract (spec/CONTRACT.md).

Written for clarity, not speed, and independent of the reference, so mutating the
reference can never change what the spec expects. It has three jobs:

- what the spec compares implementations against (``oracle.train(...)``, and the helpers of
  each level's module: ``oracle.chunks.chunks``, ``oracle.persist.loads``, ...);
- an implementation like any other: this package's namespace is the contract, so
  ``bpe-kata check spec.oracle`` runs the spec against it, and the suite's control test
  (tests/test_implementations.py) requires every level green;
- the base of every known-wrong implementation in tests/implementations/, each of which
  imports the functions of the levels it implements and replaces the one carrying its mistake.

One module per level, each building on the ones before:

==================  =====================================================================
``core``            bytes, pairs, merge, train, decode, encode; the surrogate repair
``ties``            a tie rule by name; the trainer that counts over several pieces
``chunks``          regex: split patterns, training and encoding inside chunks
``special``         special tokens; ``encode`` and ``build_vocab`` with every keyword
``iterable``        ``encode_iterable``: ``encode`` of texts joined, read lazily
``persist``         the ``bpe-kata v1`` file format, ``save`` and ``load``
``stream``          ``StreamDecoder``, and what the spec accepts from one
``words``           classic word-level BPE
``valid_training``  the property checker: is a table *a* greedy training, whatever its tie rule?
==================  =====================================================================

The pretrained level needs nothing new: published tables go through ``special.encode``.
"""

from __future__ import annotations

from spec.oracle import chunks, core, persist, special, split, stream, ties, valid_training, words  # noqa: F401  (the namespace)
from spec.oracle.core import decode, get_stats, merge
from spec.oracle.iterable import encode_iterable
from spec.oracle.persist import load, save
from spec.oracle.special import build_vocab, encode
from spec.oracle.stream import StreamDecoder
from spec.oracle.words import segment_word, train_words

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode", "encode_iterable", "save", "load",
           "StreamDecoder", "train_words", "segment_word"]

Pair = tuple[int, int]


def train(text: str, vocab_size: int, *, pattern: str | None = None,
          tie_rule: str | None = None, special_tokens: list[str] | None = None) -> dict[Pair, int]:
    """The contract's train: over the text's bytes, or inside each chunk of ``pattern`` (none given: the split
    in force, spec/oracle/split.py); ties by ``tie_rule`` (none given: first-counted, or the implementation's
    declared default in force). With ``special_tokens``, the text is first cut at each special found in it
    (``special.documents_at``): each piece between two is trained on as a document of its own, the specials
    themselves not at all."""
    pattern, tie_rule = split.resolve(pattern), split.tie_rule(tie_rule)  # none given: the implementation's
    ties.check_tie_rule(tie_rule)
    core.check_vocab_size(vocab_size)
    pieces: list[list[int]] = []
    for start, document in special.documents_at(text, special_tokens or []):
        if pattern is None:
            pieces.append(list(core.utf8(document)))
            continue
        try:
            pieces += chunks.chunk_bytes(document, pattern)
        except chunks.UncoveredCharacter as uncovered:  # named where it is in the caller's text
            raise chunks.UncoveredCharacter(start + uncovered.position) from None
    return ties.train_pieces(pieces, vocab_size, tie_rule)
