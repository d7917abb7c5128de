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
- the other published pattern (GPT-4's where GPT-2's was asked, and the reverse);
- the asked pattern matched against the text's UTF-8 bytes (``rb"..."``, ``regex.findall(pattern, text.encode())``):
  ``\\p{L}`` then matches ASCII letters only, so a non-ASCII letter's bytes leave the word they are in;
- no split at all, the whole text one chunk: code that splits in one operation and not the other (a class whose
  ``train`` splits with its pattern and whose ``encode`` merges over ``text.encode()``, seventh round). Its failure is
  ``regex.no-cross-chunk``'s, which states exactly that no merge crosses a cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec.oracle import split
from spec.oracle.chunks import ON_BYTES
from spec.oracle.valid_training import not_greedy, violation
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, R50K_SPLIT_PATTERN

Merges = list[tuple[tuple[int, int], int]]

#: The claim that states each published pattern's chunks, by the pattern's text.
CHUNK_CLAIMS: dict[str, str] = {GPT2_SPLIT_PATTERN: "regex.gpt2-chunks", R50K_SPLIT_PATTERN: "regex.gpt2-chunks",
                                GPT4_SPLIT_PATTERN: "regex.gpt4-chunks"}

_LOOK_AHEAD = r"\s+(?!\S)|"
#: Every character a chunk of its own.
EVERY_CHARACTER = r"(?s)."


#: Short texts on whose first merge each variant and the published patterns disagree (each a pair counted at
#: least twice, with no tie): the trainer's own evidence that it splits as the variant does (spec/split_check.py).
EVERY_CHARACTER_PROBE = "aaaa é"  # apart: only (195, 169), inside "é"; whole runs: (97, 97), three times
#: GPT-2's split without the look-ahead keeps a run of two spaces whole, (32, 32), where it gives (32, 120); GPT-4's
#: (whose last branch is one \s) cuts a run of four into single spaces, (32, 120), where it gives (32, 32).
LOOK_AHEAD_PROBES = ("x  x  x  x", "x    x    x")
OTHER_PATTERN_PROBE = "SSs'SS'S"  # GPT-2's split: (83, 83); GPT-4's: (39, 83), its contractions ignore case
#: On characters, "x" and the first byte of the letter after it are one pair four times, (120, 195); on bytes the
#: letters' bytes are chunks of their own, and (32, 120), three times, is the most frequent pair.
ON_BYTES_PROBE = "x\u00e9 x\u00e8 x\u00ea x\u00eb"


#: The whole text one chunk: its first merge is (97, 32), 'a ', seen four times against three for (32, 97), a token
#: across GPT-2's and GPT-4's cut before ' a', whatever the tie rule; under either published pattern (32, 97).
NO_SPLIT = r"(?s).+"
NO_SPLIT_PROBE = "a a a a "
#: The same with letters after it: learned over it, the probe does not end as one token (an encoder that crashes on a
#: single token, a defect of its own, still answers this one: seventh round, development).
NO_SPLIT_PROBE_LONGER = "a a a a bcdefghij"


@dataclass(frozen=True)
class Variant:
    name: str
    pattern: str
    probes: tuple[str, ...] = ()
    #: the claim its failure breaks, when not the asked pattern's chunk claim
    claim: str = ""


def chunk_claim(asked: str, variant: Variant | None = None) -> str:
    """The claim a split other than ``asked`` (a published pattern) breaks: that pattern's chunks, or the variant's own
    claim (no split at all: regex.no-cross-chunk)."""
    return variant.claim if variant is not None and variant.claim else CHUNK_CLAIMS[asked]


def variants(asked: str) -> list[Variant]:
    """The splits code uses in place of ``asked`` (a published pattern), each different from it: every character
    apart, the pattern without its look-ahead, the other published pattern. None for a pattern of the caller's
    own: a test that passes one checks its cuts in its own order (held-out corpus: a capture-group pattern's
    regex.covers-text test was preempted by this check)."""
    no_split = Variant("no split at all: the whole text one chunk", NO_SPLIT, (NO_SPLIT_PROBE, NO_SPLIT_PROBE_LONGER),
                       "regex.no-cross-chunk")
    if asked not in CHUNK_CLAIMS:  # a pattern of the caller's own (or a class's fixed one): its tests check its cuts
        return [no_split]  # in their own order (regex.covers-text); no split at all is no cut whatever the pattern
    found = [Variant("every character its own chunk", EVERY_CHARACTER, (EVERY_CHARACTER_PROBE,))]
    if _LOOK_AHEAD in asked:
        found.append(Variant("the pattern without its look-ahead \\s+(?!\\S)", asked.replace(_LOOK_AHEAD, ""),
                             LOOK_AHEAD_PROBES))
    found.append(no_split)  # before the other pattern, which a whole-text table can match too
    other = GPT4_SPLIT_PATTERN if CHUNK_CLAIMS[asked] == "regex.gpt2-chunks" else GPT2_SPLIT_PATTERN
    found.append(Variant("the other published pattern", other, (OTHER_PATTERN_PROBE,)))
    found.append(Variant("the pattern matched against the UTF-8 bytes (rb\"...\"): \\p{L} matches ASCII letters only",
                         ON_BYTES + asked, (ON_BYTES_PROBE,)))
    return found


def explaining(text: str | list[str], merges: Merges, vocab_size: int, pattern: str | None = None
               ) -> tuple[str, Variant] | None:
    """(the asked split's chunk claim, the variant) when ``merges`` is no valid training of ``text`` under the
    asked split but is under a variant; None otherwise, and always for an empty table, or a table whose only
    fault is that it stopped short where every character apart leaves no pair (an early stop looks the same:
    spec/split_check.py asks the trainer for evidence), or with no pattern asked (the whole text has its own
    rules)."""
    found = all_explaining(text, merges, vocab_size, pattern)
    return found[0] if found else None


def all_explaining(text: str | list[str], merges: Merges, vocab_size: int, pattern: str | None = None
                   ) -> list[tuple[str, Variant]]:
    """Every variant under which ``merges`` is valid training (see :func:`explaining`), in the inventory's order:
    a short table can be right under several, and the trainer's evidence tells which it splits as."""
    asked = split.resolve(pattern)
    if not merges or asked is None or violation(text, merges, vocab_size, asked) is None:
        return []
    stop_only = not_greedy(text, merges, asked) is None  # each merge right, the table short: maybe an early stop
    return [(chunk_claim(asked, variant), variant) for variant in variants(asked)
            if not (stop_only and runs_out_sooner(variant))  # a stop alone is no evidence of it
            and violation(text, merges, vocab_size, variant.pattern) is None]


def runs_out_sooner(variant: Variant) -> bool:
    """The variant cuts finer than the published pattern (every character apart, a letter's bytes apart): its
    training runs out of pairs where the asked split's has some left, so a table that only stopped short fits it
    and an early stop alike, and is the split's only with the trainer's evidence (spec/split_check.py)."""
    return variant.pattern == EVERY_CHARACTER or variant.pattern.startswith(ON_BYTES)
