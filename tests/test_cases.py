"""The worked-example files: valid against their schema, unique ids, known claims, agreeing with the oracle."""

from __future__ import annotations

import functools
import json

import jsonschema
import pytest

from spec import cases, oracle
from spec.patterns import PATTERNS
from spec.ledger import load_claims

FILES = [path for path in cases.case_files() if path.name != "schema.json"]


@functools.cache
def case_validator() -> jsonschema.Draft202012Validator:
    """Built once: checking the schema itself costs a tenth of a second, every file would pay it."""
    return jsonschema.Draft202012Validator(json.loads(cases.SCHEMA_PATH.read_text(encoding="utf-8")))


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(case_validator().schema)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_case_file_matches_schema(path):
    case_validator().validate(cases.load_file(path))


def test_schema_rejects_a_lossy_bytes_field():
    bad = {"level": "decode", "description": "x", "cases": [{"id": "x", "claims": ["decode.vocab-order"],
           "operation": "build_vocab", "input": {"merges": []}, "expected": {"entries": {"97": "a"}}}]}
    with pytest.raises(jsonschema.ValidationError):
        case_validator().validate(bad)


def test_case_ids_are_unique_and_claims_known():
    ids = [case["id"] for case in cases.all_cases()]
    assert len(ids) == len(set(ids))
    claims = load_claims()
    assert [c for case in cases.all_cases() for c in case["claims"] if c not in claims] == []


def test_case_file_level_matches_its_name():
    assert all(cases.load_file(path)["level"] == path.stem for path in FILES)


@pytest.mark.parametrize("case", [c for c in cases.all_cases() if "corpus" not in c["input"]], ids=lambda c: c["id"])
def test_case_agrees_with_the_oracle(case):
    """The data is checked against the textbook definition, so a typo in a case cannot hide."""
    given, expected, op = case["input"], case["expected"], case["operation"]
    merges = cases.merges_from(given.get("merges", [])) if op != "segment_word" else {}  # words: string pairs
    if op == "encode":
        result = oracle.encode(given["text"], merges)
        assert result == expected["ids"] if "ids" in expected else len(result) == expected["length"]
    elif op == "get_stats":
        assert [[a, b, n] for (a, b), n in oracle.get_stats(given["ids"]).items()] == expected["pairs"]
    elif op == "merge":
        assert oracle.merge(given["ids"], tuple(given["pair"]), given["idx"]) == expected["ids"]
    elif op == "train" and "error" in expected:
        assert given["vocab_size"] < 256
    elif op == "train" and "pattern" in given:
        table = oracle.train(given["text"], given["vocab_size"], pattern=PATTERNS[given["pattern"]])
        assert [[a, b, i] for (a, b), i in table.items()] == expected["merges"]
    elif op == "train" and "tie_rule" in given:
        table = oracle.train(given["text"], given["vocab_size"], tie_rule=given["tie_rule"])
        assert [[a, b, i] for (a, b), i in table.items()] == expected["merges"]
    elif op == "train":
        assert [[a, b, i] for (a, b), i in oracle.train(given["text"], given["vocab_size"]).items()] == expected["merges"]
    elif op == "decode":
        vocab = oracle.build_vocab(merges, given.get("special_tokens", {}))
        assert oracle.decode(given["ids"], vocab) == expected["text"]
    elif op == "build_vocab":
        vocab = oracle.build_vocab(merges)
        assert {k: vocab[int(k)].hex() for k in expected["entries"]} == expected["entries"]
    elif op == "train_words":
        _check_words_case(given, expected)
    elif op == "segment_word":
        merges, word = [tuple(pair) for pair in given["merges"]], given["word"]
        marker = given.get("end_of_word", "_")
        steps = [oracle.words.segment_word(word, merges[:k], marker) for k in range(len(merges) + 1)]
        trace = [s for k, s in enumerate(steps) if k == 0 or s != steps[k - 1]]
        assert expected == ({"trace": trace} if "trace" in expected else {"symbols": steps[-1]})
    elif op == "uncovered":
        assert oracle.chunks.first_uncovered(given["text"], given["pattern"]) == expected["position"]
    elif op in ("split", "encode_special", "load", "stream"):
        _check_production_case(op, given, expected, merges)
    else:
        pytest.fail(f"no oracle check for operation {op}")


def _check_production_case(op: str, given: dict, expected: dict, merges: dict) -> None:
    """A case of the regex, special, persist or stream level, against the oracle (spec/oracle/)."""
    if op == "split":
        assert oracle.chunks.chunks(given["text"], PATTERNS[given["pattern"]]) == expected["chunks"]
    elif op == "encode_special":
        pattern = PATTERNS[given["pattern"]] if "pattern" in given else None
        call = dict(special_tokens=given["special_tokens"], allowed_special=given["allowed_special"],
                    disallowed_special=given["disallowed_special"], pattern=pattern)
        if "error" in expected:
            with pytest.raises(ValueError, match=f"at position {expected['position']}$"):
                oracle.encode(given["text"], merges, **call)
            assert expected["token"] in given["text"]
        else:
            assert oracle.encode(given["text"], merges, **call) == expected["ids"]
    elif op == "load" and "error" in expected:
        with pytest.raises(oracle.persist.FormatError) as raised:
            oracle.persist.loads(given["file"])
        assert raised.value.line == expected["line"]
    elif op == "load":
        table, pattern, specials = oracle.persist.loads(given["file"])
        assert ([[a, b, i] for (a, b), i in table.items()], pattern, specials) == (
            expected["merges"], expected["pattern"], expected["special_tokens"])
    else:  # stream: the text emitted after each id, then at the end
        vocab, ids = oracle.build_vocab(merges), given["ids"]
        emitted = [oracle.stream.stream_text(b"".join(vocab[i] for i in ids[:k])) for k in range(len(ids) + 1)]
        assert [after[len(before):] for before, after in zip(emitted, emitted[1:])] == expected["outputs"]
        assert "".join(expected["outputs"]) + expected["flush"] == oracle.decode(ids, vocab)


def _check_words_case(given: dict, expected: dict) -> None:
    """A train_words case: its merges (and runners-up), or its row of the merge-budget table."""
    corpus, marker = given.get("text", given.get("words")), given.get("end_of_word", "_")
    merges = oracle.words.train_words(corpus, given["num_merges"], marker)
    if "merges" in expected:
        assert [[a, b, n] for (a, b), n in merges] == expected["merges"]
        words, runners = oracle.words.spelled(corpus, marker), []
        for pair, _ in merges:
            runners.append([[a, b, n] for (a, b), n in oracle.words.ranked(words)[1:3]])
            words = [(oracle.words.merge_symbols(symbols, pair), n) for symbols, n in words]
        assert expected.get("runners_up", runners) == runners
        return
    counts = oracle.words.word_counts(corpus)
    base = {s for word in counts for s in oracle.words.spell(word, marker)}
    tokens = sum(n * len(oracle.words.segment_word(word, merges, marker)) for word, n in counts.items())
    assert expected == {"learned": len(merges), "vocab_size": len(base) + len(merges), "tokens": tokens,
                        "tokens_per_word": round(tokens / sum(counts.values()), 2)}
