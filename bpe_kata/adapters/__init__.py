"""Thin adapters from the contract (spec/CONTRACT.md) to BPE libraries a user would otherwise pick.

Each module maps call shapes only, never behaviour: where a library has no equivalent of a
function, the function is left out (its levels are "not started") and the module docstring
says why. ``bpe-kata matrix`` runs each one through ``bpe-kata gate``.
"""

#: Adapter module -> the distribution it wraps (its version goes in the matrix).
ADAPTERS = {
    "bpe_kata.adapters.with_tiktoken": "tiktoken",
    "bpe_kata.adapters.with_tiktoken_reference_trained": "tiktoken",
    "bpe_kata.adapters.with_tokenizers": "tokenizers",
    "bpe_kata.adapters.with_rustbpe": "rustbpe",
    "bpe_kata.adapters.with_bpeasy": "bpeasy",
    "bpe_kata.adapters.with_sentencepiece": "sentencepiece",
}

#: Adapters that measure a library with help: the row's name says which.
VARIANTS = {"bpe_kata.adapters.with_tiktoken_reference_trained": "reference-trained tables"}
