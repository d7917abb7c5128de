"""Starters in a course's shape, for ``bpe-kata new NAME --shape cs336|minbpe|map``.

The plain starter (solutions/starter) is the contract's module of functions. A learner following
Stanford's CS336 or Karpathy's minbpe writes another shape, which the suite loads through
``--impl cs336:PATH`` or ``--impl minbpe:PATH`` (bpe_kata/impl/course_shapes.py). These starters are
that shape with every method a stub: each level reads "not started" until its methods are written.
Kept as text here so that an installed copy can write them too.
"""

from __future__ import annotations

CS336_ADAPTERS = '''"""The course's wiring (tests/adapters.py): the two functions its tokenizer tests call.

Check it with: bpe-kata check cs336:solutions/{name}
"""

from __future__ import annotations

import os

from cs336_basics.tokenizer import Tokenizer
from cs336_basics.train_bpe import train_bpe


def get_tokenizer(vocab: dict[int, bytes], merges: list[tuple[bytes, bytes]], special_tokens: list[str] | None = None):
    return Tokenizer(vocab, merges, special_tokens)


def run_train_bpe(input_path: str | os.PathLike, vocab_size: int, special_tokens: list[str], **kwargs):
    return train_bpe(input_path, vocab_size, special_tokens)
'''

CS336_INIT = '''"""A CS336 assignment-1 tokenizer (the course's package name): train_bpe.py and tokenizer.py."""
'''

CS336_TRAIN = '''"""Train byte-level BPE from a file (the course's shape).

The suite writes the text's UTF-8 bytes to a file and calls train_bpe(path, vocab_size, []): read it as
bytes (no newline translation). Pre-tokenize every text with GPT-2's pattern (PAT below; the suite knows
the pattern is fixed and judges only what holds whatever the split), count the pairs inside pre-tokens,
and merge the most frequent pair, ties to the greatest pair of byte strings, until the vocabulary has
vocab_size entries or no pair is left (then stop, without error). vocab_size below 256 plus the special
tokens is a ValueError.
"""

from __future__ import annotations

import os

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\\p{{L}}+| ?\\p{{N}}+| ?[^\\s\\p{{L}}\\p{{N}}]+|\\s+(?!\\S)|\\s+"""


def train_bpe(input_path: str | os.PathLike, vocab_size: int,
              special_tokens: list[str]) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """Return (vocab: id -> bytes, merges: the pairs of byte strings, in the order they were learned)."""
    raise NotImplementedError
'''

CS336_TOKENIZER = '''"""The course's Tokenizer(vocab, merges, special_tokens).

encode: split out the special tokens (each one id; where two start at the same place, the longer),
pre-tokenize the rest with GPT-2's pattern, and in each pre-token merge the pair learned earliest until
none of its pairs is a merge. decode: join every id's bytes, then decode as UTF-8 with errors="replace"
(an unknown id raises, naming it). The suite builds this class from its own tables to judge decode and
GPT-2's published table (level pretrained).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


class Tokenizer:
    def __init__(self, vocab: dict[int, bytes], merges: list[tuple[bytes, bytes]],
                 special_tokens: list[str] | None = None):
        self.vocab = vocab
        self.merges = merges
        self.special_tokens = special_tokens or []

    def encode(self, text: str) -> list[int]:
        raise NotImplementedError

    def encode_iterable(self, iterable: Iterable[str]) -> Iterator[int]:
        """The ids of the texts joined, yielded as they are read (a file line by line): never encode each
        text on its own (a word or a special token may be cut between two), never join them all first
        (memory); hold back only what the next text could change."""
        raise NotImplementedError

    def decode(self, ids: list[int]) -> str:
        raise NotImplementedError
'''

MINBPE = '''"""A tokenizer in minbpe's shape (Karpathy's course). Check it with: bpe-kata check minbpe:solutions/{name}

The suite calls get_stats and merge as they are, builds Tokenizer(pattern) (with pattern "[\\\\s\\\\S]+",
the whole text as one chunk, where it checks BPE with no split), trains it, and sets ``merges`` and
``vocab`` to its own tables to check encode and decode. Levels, in order: pairs (get_stats), merge,
train, decode (_build_vocab, decode), encode, then surrogates, regex (the pattern), special
(register_special_tokens, encode's allowed_special). Each raises NotImplementedError until written:
its level is "not started".
"""

from __future__ import annotations


def get_stats(ids: list[int], counts: dict | None = None) -> dict[tuple[int, int], int]:
    """Count every adjacent pair (overlapping ones too), keys in order of first occurrence."""
    raise NotImplementedError


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """A new list with each occurrence of pair, left to right without overlap, replaced by idx."""
    raise NotImplementedError


class Tokenizer:
    def __init__(self, pattern: str | None = None):
        self.pattern = pattern
        self.merges: dict[tuple[int, int], int] = {{}}
        self.special_tokens: dict[str, int] = {{}}
        self.vocab: dict[int, bytes] = {{idx: bytes([idx]) for idx in range(256)}}

    def train(self, text: str, vocab_size: int, verbose: bool = False) -> None:
        """Learn vocab_size - 256 merges into self.merges (ids 256, 257, ...), ties to the pair counted
        first; stop early when no pair is left; vocab_size below 256 is a ValueError."""
        raise NotImplementedError

    def register_special_tokens(self, special_tokens: dict[str, int]) -> None:
        self.special_tokens = dict(special_tokens)

    def _build_vocab(self) -> dict[int, bytes]:
        raise NotImplementedError

    def encode(self, text: str, allowed_special="none_raise") -> list[int]:
        """allowed_special: "all", "none" (specials are plain text), "none_raise" (a special in the text
        is a ValueError naming it and its position) or a set of the allowed ones."""
        raise NotImplementedError

    def decode(self, ids: list[int]) -> str:
        raise NotImplementedError
'''

MAP_TOML = '''# Which of your code's names is which part of bpe-kata's contract (spec/CONTRACT.md), so the spec checks
# your code as it is, with no Python glue. Check it with: bpe-kata check map:solutions/{name}
# Every key is optional but `module` and the names of the parts you have written (docs/COURSES.md, "Any other shape").

module = "tokenizer.py"          # your .py file or package folder, inside this folder

# Either free functions, the contract's parts under your names (train, encode, decode, build_vocab, get_stats, merge):
# [functions]
# train = "learn_bpe"            # (text, vocab_size) -> merges
# encode = "tokenize"            # (text, merges) -> ids

# ... or a class that keeps its tables as attributes (minbpe's way):
[class]
name = "Tokenizer"
train = "fit"                    # method(text, vocab_size): learns the table
encode = "tokenize"              # method(text) -> ids
decode = "detokenize"            # method(ids) -> str
merges = "merge_table"           # attribute: {{(a, b): id}} after training
vocab = "id_to_bytes"            # attribute: {{id: bytes}}, what decode reads

# [split]
# pattern = "gpt2"               # only if your code always splits with one pattern: "gpt2", "gpt4" or the regex
# tie_rule = "bytes-greatest"    # with a fixed pattern: the tie rule your training always uses

# [types]
# merges = "pairs"               # your table is an ordered list of (a, b) pairs (ids 256, 257, ...), not a dict
# train_size = "merges"          # train's second argument counts merges, not the vocabulary's size
# train_returns = "merges-and-vocab"   # train returns (merges, vocab)
'''

MAP_CODE = '''"""A tokenizer with names of its own, checked through bpe-kata.toml: bpe-kata check map:solutions/{name}
"""


class Tokenizer:
    def __init__(self):
        self.merge_table: dict[tuple[int, int], int] = {{}}
        self.id_to_bytes: dict[int, bytes] = {{i: bytes([i]) for i in range(256)}}

    def fit(self, text: str, vocab_size: int) -> None:
        raise NotImplementedError

    def tokenize(self, text: str) -> list[int]:
        raise NotImplementedError

    def detokenize(self, ids: list[int]) -> str:
        raise NotImplementedError
'''

#: shape -> {path inside solutions/NAME: text (``{name}`` is the solution's name)}
STARTERS: dict[str, dict[str, str]] = {
    "cs336": {"tests/__init__.py": "", "tests/adapters.py": CS336_ADAPTERS, "cs336_basics/__init__.py": CS336_INIT,
              "cs336_basics/train_bpe.py": CS336_TRAIN, "cs336_basics/tokenizer.py": CS336_TOKENIZER},
    "minbpe": {"__init__.py": MINBPE},
    "map": {"bpe-kata.toml": MAP_TOML, "tokenizer.py": MAP_CODE},
}

#: The command that checks a starter of each shape, for ``new`` to print.
CHECK = {"cs336": "bpe-kata check cs336:solutions/{name}", "minbpe": "bpe-kata check minbpe:solutions/{name}",
         "map": "bpe-kata check map:solutions/{name}"}
