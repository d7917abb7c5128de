"""The library adapters on small inputs: each maps call shapes and nothing else.

Each test skips cleanly when its library is not installed (pip install 'bpe-kata[matrix]').
Expected tables come from the reference on texts where every documented tie rule learns the
same table, so the check holds whatever rule the library follows.
"""

from __future__ import annotations

import importlib

import pytest
import regex

import reference
from bpe_kata.adapters import ADAPTERS, _glue
from spec.tie_rules import TIE_RULES

TIE_FREE = "there and these a an then that thin there there that there there"  # one best pair at each of 6 steps
CHUNKED = "thin then a these then an there there and and and that these thin"  # the same, in PATTERN's chunks
PATTERN = r" ?\w+| +"
TRAINERS = ["with_tokenizers", "with_rustbpe", "with_bpeasy"]
ENCODERS = ["with_tiktoken", "with_tokenizers"]


def adapter(name: str):
    library = ADAPTERS[f"bpe_kata.adapters.{name}"]
    pytest.importorskip(library, reason=f"{library} is not installed (pip install -e '.[matrix]')")
    return importlib.import_module(f"bpe_kata.adapters.{name}")


def best_counts(text: str, steps: int, pattern: str | None) -> list[list[int]]:
    """The two highest pair counts before each merge (the reference's get_stats over chunks)."""
    chunks = [list(c.encode()) for c in (regex.findall(pattern, text) if pattern else [text])]
    tops = []
    for (pair, idx) in list(reference.train(text, 256 + steps, pattern=pattern).items()):
        counts: dict = {}
        for chunk in chunks:
            for key, n in reference.get_stats(chunk).items():
                counts[key] = counts.get(key, 0) + n
        tops.append(sorted(counts.values(), reverse=True)[:2])
        chunks = [reference.merge(chunk, pair, idx) for chunk in chunks]
    return tops


def test_the_probe_texts_are_tie_free():
    for text, pattern in ((TIE_FREE, None), (CHUNKED, PATTERN)):
        assert all(len(top) == 1 or top[0] > top[1] for top in best_counts(text, 6, pattern)), text
        tables = {tuple(reference.train(text, 262, pattern=pattern, tie_rule=r).items()) for r in TIE_RULES}
        assert len(tables) == 1, text


@pytest.mark.parametrize("name", TRAINERS)
def test_train_learns_the_tie_free_table(name):
    assert list(adapter(name).train(TIE_FREE, 262).items()) == list(reference.train(TIE_FREE, 262).items())


@pytest.mark.parametrize("name", TRAINERS)
def test_train_with_a_pattern_never_crosses_a_chunk(name):
    learned = adapter(name).train(CHUNKED, 262, pattern=PATTERN)
    assert list(learned.items()) == list(reference.train(CHUNKED, 262, pattern=PATTERN).items())
    assert all(b" " not in piece[1:] for piece in _glue.token_bytes(learned).values())


@pytest.mark.parametrize("name", ENCODERS)
def test_encode_replays_a_given_table_and_decode_gives_the_text_back(name):
    module = adapter(name)
    merges = reference.train(TIE_FREE, 262)
    text = "these themes, thin and three"
    ids = module.encode(text, merges)
    assert ids == reference.encode(text, merges)
    vocab = module.build_vocab(merges)
    assert vocab == reference.build_vocab(merges)
    assert module.decode(ids, vocab) == text


@pytest.mark.parametrize("name", ENCODERS)
def test_an_allowed_special_token_is_one_id(name):
    module = adapter(name)
    merges = reference.train(TIE_FREE, 262)
    specials = {"<|end|>": 400}
    ids = module.encode("the<|end|>the", merges, special_tokens=specials, allowed_special="all")
    assert ids == reference.encode("the<|end|>the", merges, special_tokens=specials, allowed_special="all")
    assert module.decode(ids, module.build_vocab(merges, special_tokens=specials)) == "the<|end|>the"


def test_merges_from_ranks_numbers_merges_in_rank_order():
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257, b"bc": 258}
    assert _glue.merges_from_ranks(ranks) == {(97, 98): 256, (256, 99): 257, (98, 99): 258}


def test_token_bytes_joins_parts_in_id_order():
    pieces = _glue.token_bytes({(256, 99): 257, (97, 98): 256})
    assert pieces[257] == b"abc" and pieces[97] == b"a" and len(pieces) == 258


def test_sentencepiece_offers_no_contract_function():
    module = adapter("with_sentencepiece")
    assert not any(callable(getattr(module, f, None)) for f in ("train", "encode", "decode", "build_vocab"))
    assert "not byte-level" in module.__doc__
