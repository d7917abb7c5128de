"""The published split patterns, character for character, for the ``regex`` module.

The spec owns these strings; implementations receive them through ``pattern=``. Each is
one alternation, tried left to right at every position, so the first alternative that
matches decides where a chunk ends.
"""

from __future__ import annotations

#: GPT-2's pattern as released with GPT-2 (openai/gpt-2, src/encoder.py): contractions,
#: then an optional space and a run of letters, of digits or of other symbols, then
#: whitespace (a run that is not followed by a non-space, then any run).
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

#: tiktoken's rewrite of GPT-2's pattern (``r50k_pat_str`` in tiktoken_ext/openai_public.py):
#: possessive quantifiers, faster, and cutting every text exactly as GPT2_SPLIT_PATTERN does.
R50K_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

#: GPT-4's cl100k_base pattern as published in tiktoken (tiktoken_ext/openai_public.py):
#: contractions in any case, a letter run that may take one leading non-letter, digits in
#: runs of at most three, symbols with the newlines after them, and newlines kept apart.
GPT4_SPLIT_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""  # noqa: E501  (verbatim)
)

PATTERNS: dict[str, str] = {"gpt2": GPT2_SPLIT_PATTERN, "gpt4": GPT4_SPLIT_PATTERN}
