"""The splits code is known to use in place of the one asked for: an inventory, so that a table the oracle finds
wrong under the asked split is charged to the split, not to training, when it is right training under one of them.

A trainer that splits wrongly learns a table that is no valid training of the text under the split it was asked
for (or declared), and every test that trains meets it: without this inventory the defect fans out to whichever
training claim the test names (ties, specials, chunk frequency). With it, one rule judges the kind: a table that is
invalid under the asked split and valid under a variant is the split's failure, charged to the claim that states
the asked pattern's chunks (``regex.gpt2-chunks`` or ``regex.gpt4-chunks``), with the variant named.

Each entry is a way of splitting that real code has, with where it comes from, never a fitted example:
- every character its own chunk: ``re.split("")`` (what joining an empty list of special tokens into a split
  pattern gives, a CS336 habit), or splitting a str into ``list(text)``;
- a published pattern without its look-ahead (``\\s+(?!\\S)``): regex engines without look-around (Rust's
  ``regex`` crate, Go's RE2) make ports drop it, so a run of spaces keeps its last space;
- the other published pattern (GPT-4's where GPT-2's was asked, and the reverse).
"""

from __future__ import annotations

from dataclasses import dataclass

from spec.oracle import split
from spec.oracle.valid_training import not_greedy, violation
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, R50K_SPLIT_PATTERN

Merges = list[tuple[tuple[int, int], int]]

#: The claim that states each published pattern's chunks, by the pattern's text.
CHUNK_CLAIMS: dict[str, str] = {GPT2_SPLIT_PATTERN: "regex.gpt2-chunks", R50K_SPLIT_PATTERN: "regex.gpt2-chunks",
                                GPT4_SPLIT_PATTERN: "regex.gpt4-chunks"}

_LOOK_AHEAD = r"\s+(?!\S)|"
#: Every character a chunk of its own.
EVERY_CHARACTER = r"(?s)."


@dataclass(frozen=True)
class Variant:
    name: str
    pattern: str


def chunk_claim(asked: str) -> str:
    """The claim a split other than ``asked`` (a published pattern) breaks: that pattern's chunks."""
    return CHUNK_CLAIMS[asked]


def variants(asked: str) -> list[Variant]:
    """The splits code uses in place of ``asked`` (a published pattern), each different from it: every character
    apart, the pattern without its look-ahead, the other published pattern. None for a pattern of the caller's
    own: a test that passes one checks its cuts in its own order (held-out corpus: a capture-group pattern's
    regex.covers-text test was preempted by this check)."""
    if asked not in CHUNK_CLAIMS:
        return []  # a pattern of the caller's own: its tests check its cuts in their own order (regex.covers-text)
    found = [Variant("every character its own chunk", EVERY_CHARACTER)]
    if _LOOK_AHEAD in asked:
        found.append(Variant("the pattern without its look-ahead \\s+(?!\\S)", asked.replace(_LOOK_AHEAD, "")))
    other = GPT4_SPLIT_PATTERN if CHUNK_CLAIMS[asked] == "regex.gpt2-chunks" else GPT2_SPLIT_PATTERN
    found.append(Variant("the other published pattern", other))
    return found


def explaining(text: str | list[str], merges: Merges, vocab_size: int, pattern: str | None = None
               ) -> tuple[str, Variant] | None:
    """(the asked split's chunk claim, the variant) when ``merges`` is no valid training of ``text`` under the
    asked split but is under a variant; None otherwise, and always for an empty table, or a table whose only
    fault is that it stopped short where every character apart leaves no pair (an early stop looks the same:
    spec/split_check.py asks the trainer for evidence), or with no pattern asked (the whole text has its own
    rules)."""
    asked = split.resolve(pattern)
    if not merges or asked is None or violation(text, merges, vocab_size, asked) is None:
        return None
    stop_only = not_greedy(text, merges, asked) is None  # each merge right, the table short: maybe an early stop
    for variant in variants(asked):
        if stop_only and variant.pattern == EVERY_CHARACTER:
            continue  # every character apart runs out of pairs early too: a stop alone is no evidence of it
        if violation(text, merges, vocab_size, variant.pattern) is None:
            return chunk_claim(asked), variant
    return None
