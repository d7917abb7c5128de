"""A byte-level BPE tokenizer, to be written by you.

Copy this package with ``bpe-kata new NAME`` and fill in one function at a time; run
``bpe-kata check solutions.NAME`` after each. A function that still raises
NotImplementedError makes its level "not started", never an error. The full contract,
with the reasons behind it, is spec/CONTRACT.md.

Ids are ints: 0..255 are the byte values, 256 and up are merges in training order.
A pair is a tuple (left_id, right_id). A merge table is a dict {pair: new_id} whose
insertion order is the order the merges were learned in.

"The UTF-8 bytes of text" means those of the text after surrogates are repaired as
tiktoken repairs them: a Python str may hold surrogate code points, which have no UTF-8
form (``"a\ud800b".encode("utf-8")`` raises). A high surrogate followed by a low one is the
character that pair spells; any other becomes U+FFFD. In one line:
``text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")``.
"""

from __future__ import annotations

Pair = tuple[int, int]


def get_stats(ids: list[int]) -> dict[Pair, int]:
    """Count every adjacent pair, overlapping ones too ([a, a, a] has (a, a) twice).

    Keys in order of first occurrence. [] and [x] have no pairs. Do not change ``ids``.
    Level: pairs.
    """
    raise NotImplementedError


def merge(ids: list[int], pair: Pair, idx: int) -> list[int]:
    """Return a new list with each occurrence of ``pair`` replaced by ``idx``.

    Scan left to right; occurrences do not overlap, so [a, a, a] with (a, a) becomes
    [idx, a]. A pair ending at the last position merges. Do not change ``ids``.
    Level: merge.
    """
    raise NotImplementedError


def train(text: str, vocab_size: int) -> dict[Pair, int]:
    """Learn ``vocab_size - 256`` merges from the UTF-8 bytes of ``text`` (surrogates repaired).

    Each step merges the most frequent pair; among equal counts the pair counted first
    (first occurrence in the current sequence) wins. New ids are 256, 257, ... and the
    returned dict is in training order. Stop early, without error, when no pair is left;
    do not stop just because the best count is 1. vocab_size < 256 raises ValueError.
    Level: train.
    """
    raise NotImplementedError


def build_vocab(merges: dict[Pair, int]) -> dict[int, bytes]:
    """Map every id to its bytes: 0..255 to themselves, then each merge to its parts joined.

    Build merges in id order, since a merge's parts may be earlier merges. Level: decode.
    """
    raise NotImplementedError


def decode(ids: list[int], vocab: dict[int, bytes]) -> str:
    """Join all the ids' bytes first, then decode UTF-8 with replacement ("\\ufffd").

    Decoding token by token would break characters split across tokens. An id missing
    from ``vocab`` raises KeyError or ValueError naming it. Level: decode.
    """
    raise NotImplementedError


def encode(text: str, merges: dict[Pair, int]) -> list[int]:
    """Turn text into ids: start from its UTF-8 bytes (surrogates repaired), then replay the merges.

    While some adjacent pair is in ``merges``, merge the one with the lowest id (the
    earliest learned) everywhere, left to right. Not the most frequent pair, not the
    longest token. Never change ``merges``. With ``merges == {}`` this is the bytes.
    Levels: bytes, encode.
    """
    raise NotImplementedError


# --- Beyond the core (see spec/CONTRACT.md, "Beyond the core") -------------------------
# The later levels add keyword arguments to the functions above and a few new names.
# A level whose keywords or names are missing is reported "not started".

# --- regex, special: keyword arguments on train, encode and build_vocab ------------------
# Levels regex and special are "not started" until these signatures are accepted:
#
#     def train(text, vocab_size, *, pattern=None): ...
#     def encode(text, merges, *, pattern=None, special_tokens=None,
#                allowed_special=frozenset(), disallowed_special="all"): ...
#     def build_vocab(merges, special_tokens=None): ...
#
# pattern (regex): a pattern for the `regex` module (spec/patterns.py has GPT-2's and GPT-4's).
#   Cut the text into chunks, the whole matches in order (regex.findall when the pattern has
#   no groups; with groups, m.group() of regex.finditer); train counts pairs inside chunks
#   only (ties: first occurrence scanning the chunks in text order); encode merges inside
#   each chunk only. Counting each distinct chunk once, times how often it occurs, is faster.
#   The matches must cover the text: a character in no match (r"\w+" on "hi there!") raises
#   ValueError naming its position (a str index), for train and for encode; never drop it.
# special_tokens (special): {string: id}, ids beyond the merges. Where a special's string
#   occurs in the text: allowed ("all" or a set) -> its id; else disallowed ("all", the
#   default, or a set) -> ValueError naming the token and its position; else plain text.
#   Scan from the left; among specials starting at one position the longest wins. Encode
#   the text between specials as usual (by chunks if there is a pattern).
#   build_vocab maps each special id to the UTF-8 bytes of its string.
# Optional (special; CS336's run_train_bpe has it): train(text, vocab_size, *, special_tokens=None),
#   a list of strings. Cut the text at each special found in it (the same rule as encode's),
#   drop the specials, and train on the pieces as separate texts: no pair counted across a
#   cut or inside a special; the specials take no id in the table.


# --- persist: save and load ------------------------------------------------------------


def save(path, merges: dict[Pair, int], *, pattern: str | None = None,
         special_tokens: dict[str, int] | None = None) -> None:
    """Write the tokenizer to ``path`` in the bpe-kata v1 text format (spec/CONTRACT.md).

    UTF-8, every line ending in "\\n": ``bpe-kata v1``; ``pattern <JSON string or null>``;
    ``specials <n>`` then n lines ``<id> <JSON string>``; ``merges <m>`` then m lines
    ``<left> <right> <id>`` in training order. Never pickle. Write a temporary file in
    the same folder, then rename it over ``path``, so a failed save leaves no half-written
    file. Level: persist.
    """
    raise NotImplementedError


def load(path) -> tuple[dict[Pair, int], str | None, dict[str, int]]:
    """Read a file written by save: return (merges in training order, pattern, special_tokens).

    A file that breaks any rule of the format (truncated, merges out of order or using an id
    not defined yet, wrong version, bad number or one of more than 4000 digits, duplicate id,
    a pattern that is not a valid regex, a JSON escape of a lone surrogate, ...) raises
    ValueError whose message names the file and the line of the first problem. Level: persist.
    """
    raise NotImplementedError


# --- stream: incremental decoding -------------------------------------------------------


class StreamDecoder:
    """Decode ids one at a time, for text that is being generated. Level: stream.

    ``feed(id)`` returns the text that id completes: hold back the bytes of a character
    that is not complete yet (at most three), but give U+FFFD at once for bytes that can
    never become a character. ``flush()`` returns the rest: U+FFFD for an unfinished
    character. Everything returned, joined, equals ``decode(all the ids, vocab)``.
    """

    def __init__(self, vocab: dict[int, bytes]) -> None:
        self.vocab = vocab

    def feed(self, token_id: int) -> str:
        raise NotImplementedError

    def flush(self) -> str:
        raise NotImplementedError

# --- words: classic word-level BPE (symbols are strings, not ids) ----------------------


def train_words(corpus, num_merges: int, end_of_word: str | None = "_") -> list[tuple[tuple[str, str], int]]:
    """Learn up to ``num_merges`` merges of word-level BPE; return ``[((left, right), count), ...]``.

    ``corpus`` is a text (split on whitespace) or a dict word -> count. Spell each word as
    its characters plus ``end_of_word`` (no marker when it is None or ""). Count adjacent
    pairs, each weighted by its word's count; merge the most frequent everywhere; record it
    with the count it had. Ties: the pair whose first occurrence comes earliest (words in
    order of first appearance, or the dict's order; each word left to right). Stop early,
    without error, when no pair is left. Level: words.
    """
    raise NotImplementedError


def segment_word(word: str, merges: list, end_of_word: str | None = "_") -> list[str]:
    """Spell ``word`` plus the marker, then apply each merge once, in the order given.

    ``merges`` is what train_words returned, or a list of (left, right) pairs. Return the
    symbols, e.g. ``["r", "at", "s", "_"]``. Level: words.
    """
    raise NotImplementedError


# --- ties: other tie rules --------------------------------------------------------------
# Level ties is "not started" until train accepts a keyword ``tie_rule``:
#     def train(text, vocab_size, *, tie_rule="first-counted"): ...
# "first-counted" (the default above), "lowest-pair" (the smallest pair of ids among the
# tied) or "bytes-greatest" (the greatest (bytes of left, bytes of right)); any other name
# raises ValueError listing these three. With pattern= too, the rule breaks ties among the
# pairs counted inside chunks. See spec/CONTRACT.md.
