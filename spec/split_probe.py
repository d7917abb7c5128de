"""Does an implementation split every text with a published pattern although it was given none? (issue 21)

Course code often pre-tokenizes every text with GPT-2's pattern and has no ``pattern=``; plugged in
as its author calls it, without its ``FIXED_PATTERN`` declaration (spec/fixed_pattern.py), the train
and encode levels then compare its results with training over the whole text, and what chunking
changes (a merge most frequent within chunks only, a pair left only across a chunk boundary) reads as
broken claims it does not break. This probe asks the implementation's behaviour: on small texts where
chunking changes the result, ``train(text, n)`` must learn exactly what training inside the chunks of
one published pattern learns (under some documented tie rule) and never what whole-text training
learns, and ``encode(text, merges)`` must give the chunked encoding. Only then is the implementation
said to look pattern-fixed. An implementation that splits but is wrong elsewhere (a merge from the
right, ties by no documented rule, an encode by frequency) fails the probe, so its defects stay blamed;
one that does not split never matches, since the texts are chosen so that the two results differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from spec import oracle, shapes
from spec.patterns import PATTERNS
from spec.tie_rules import TIE_RULES

Pair = tuple[int, int]

#: (text, vocab_size): chunking changes training under every published pattern and every documented tie
#: rule; the last two tell GPT-2's pattern from GPT-4's (a run of spaces, digits three at a time), and the
#: runs of one letter tell a merge from the right apart.
TRAIN_TEXTS: tuple[tuple[str, int], ...] = (
    ("a b a b a b", 262),
    ("xx yy xx yy  zz 999999", 262),
    ("aaaa  aaaa\n\n\nbb", 262),
    # pairs never run out on these, so a trainer that crashes once they do still answers (the last one tells
    # GPT-2's pattern from GPT-4's too)
    ("a b a b a b", 258),
    ("x   y   x   y", 258),
    ("x   y   x   y 1234 1234", 260),
)
#: At least this many training texts must be answered (the others may crash: issue 37, kind 5), and all agree.
MIN_ANSWERED = 2

#: (text, merges): the chunked encoding differs from the whole-text one; the second tells a right-to-left
#: or frequency-ordered encode apart.
ENCODE_PROBES: tuple[tuple[str, dict[Pair, int]], ...] = (
    ("a a a", {(97, 32): 256}),
    ("aaa aaa", {(97, 97): 256, (32, 97): 257}),
)


@dataclass(frozen=True)
class PatternFixed:
    """What the probe saw: the published pattern's name, the operations whose results it matched (train,
    encode, or both), and the inputs that showed it."""

    pattern: str
    seen: str
    operations: frozenset[str] = frozenset({"train", "encode"})


@cache
def _tables(text: str, vocab_size: int, pattern: str | None) -> frozenset[tuple]:
    return frozenset(tuple(oracle.train(text, vocab_size, pattern=pattern, tie_rule=rule).items())
                     for rule in TIE_RULES)


def looks_pattern_fixed(impl) -> PatternFixed | None:
    """The published pattern ``impl`` always splits with, when its behaviour shows exactly that; else None.

    ``train`` (three small texts) and ``encode`` (two tables) are asked apart: each matches a pattern when it
    gives exactly that pattern's chunked results and, on at least one input, not the whole-text ones. The
    answer names the operations that matched, so a trainer that is wrong elsewhere keeps its own failures
    blamed while a right chunked encode beside it is not. Anything the implementation raises means "cannot
    tell" (the caller treats a raising probe as None). A call that raises leaves its input out (``_answered``):
    at least ``MIN_ANSWERED`` training texts (and one encoding) must be answered, all in agreement."""
    with oracle.split.whole_text():  # "no pattern" means the whole text here, whoever asks
        return _looks_pattern_fixed(impl)


def _looks_pattern_fixed(impl) -> PatternFixed | None:
    learned = None
    train = getattr(impl, "train", None)
    if callable(train):
        learned = _answered(lambda text, size: tuple(shapes.merges_of(train(text, size))), TRAIN_TEXTS)
        if len(learned) < MIN_ANSWERED or any(merges in _tables(text, size, None) for text, size, merges in learned):
            learned = None  # trains over the whole text: its train results need no split to be judged
    encoded = None
    encode = getattr(impl, "encode", None)
    if callable(encode):
        encoded = _answered(lambda text, merges: shapes.ids_of(encode(text, dict(merges))), ENCODE_PROBES)
        if not encoded or all(ids == oracle.encode(text, merges) for text, merges, ids in encoded):
            encoded = None
    best = None
    for name, pattern in PATTERNS.items():
        operations = set()
        if learned is not None and all(merges in _tables(text, size, pattern) for text, size, merges in learned):
            operations.add("train")
        if encoded is not None and all(ids == oracle.encode(text, merges, pattern=pattern)
                                       for text, merges, ids in encoded):
            operations.add("encode")
        if operations and (best is None or len(operations) > len(best[1])):
            best = (name, operations)
    if best is None:
        return None
    name, operations = best
    seen = []
    if "train" in operations:
        text, size, _ = learned[0]
        seen.append(f"train({text!r}, {size}) learned what training inside {name}'s chunks learns")
    if "encode" in operations:
        text, merges, ids = encoded[0]
        seen.append(f"encode({text!r}, {merges}) gave {ids}")
    return PatternFixed(name, "; ".join(seen), frozenset(operations))


def _answered(ask, inputs: tuple) -> list[tuple]:
    """``(*input, answer)`` for each input the implementation answered. One it crashes on (a trainer that
    raises once no pair is left, an encode that cannot take one character) is left out, not the whole probe:
    a defect elsewhere never hides the split; the answers given must still all agree with one pattern."""
    answered = []
    for first, second in inputs:
        try:
            answered.append((first, second, ask(first, second)))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001  the protocol client's faults (a crashed child) are BaseException
            continue
    return answered
