"""The operations of the production levels (regex, special, persist, stream, words): beyond the textbook.

Each is registered with ``@operation`` (registry.py) under its schema.json name; spec/cases/runner.py
imports this module so they are registered before the first case runs. The ties level's cases are
train cases with a tie rule (ops_core.py).
"""

from __future__ import annotations

import pytest

from spec import oracle
from spec.blame import checking
from spec.cases.expect import (
    assert_load_fails_at,
    assert_names_position,
    assert_names_special,
    expect_each,
    merge_list,
    merges_from,
    policy,
    training_claim,
)
from spec.cases.registry import Case, Fixtures, operation
from spec.compare import expect_equal
from spec.patterns import PATTERNS
from spec.shapes import ids_of, merges_of, symbols_of, word_merges_of
from spec.toy_words import BudgetRow, budget_row
from spec.trained_vocab import vocab_of_trained

# --- The operations, level by level (continued from ops_core.py) ---

@operation("split")
def _split(impl, case: Case, fixtures: Fixtures) -> None:
    """With merges to spare, every chunk ends as one token, and no token joins two chunks."""
    text, pattern = case["input"]["text"], PATTERNS[case["input"]["pattern"]]
    merges = impl.train(text, 256 + len(text.encode("utf-8")), pattern=pattern)
    vocab = vocab_of_trained(merges, text, 256 + len(text.encode("utf-8")), pattern)
    # a token that is not whole characters is shown, escaped, and differs: an assertion, not the suite's error
    tokens = [vocab[i].decode("utf-8", "backslashreplace") for i in ids_of(impl.encode(text, merges, pattern=pattern))]
    chunks = case["expected"]["chunks"]
    if tokens != chunks and _cut_at_every_chunk(tokens, chunks):
        # the cut is the pattern's: a chunk left in pieces is the training's (its classifier says which claim) or,
        # a valid table encoded short of it, the encoding's (eighth round: corrupted counts and an encode that
        # skipped a merge were charged to regex.gpt2-chunks here)
        size = 256 + len(text.encode("utf-8"))
        table = merges_of(merges)
        invalid = oracle.valid_training.violation(text, table, size, pattern) is not None
        with checking(training_claim(text, table, size, pattern) if invalid else "encode.replays-training"):
            expect_equal(tokens, chunks, "tokens (no token spans two chunks: the cut is right, a chunk is in pieces)")
    expect_equal(tokens, chunks, "tokens")


def _cut_at_every_chunk(tokens: list[str], chunks: list[str]) -> bool:
    """The tokens spell the chunks, and every place one chunk ends, a token ends: no token spans a cut."""
    if "".join(tokens) != "".join(chunks):
        return False
    ends = {sum(map(len, tokens[:count])) for count in range(1, len(tokens) + 1)}
    return all(sum(map(len, chunks[:count])) in ends for count in range(1, len(chunks) + 1))


@operation("uncovered")
def _uncovered(impl, case: Case, fixtures: Fixtures) -> None:
    """train and encode both refuse the text, naming the first position no match covers."""
    text, pattern, position = case["input"]["text"], case["input"]["pattern"], case["expected"]["position"]
    with pytest.raises(ValueError) as raised:
        impl.train(text, 300, pattern=pattern)
    assert_names_position(raised.value, position)
    with pytest.raises(ValueError) as raised:
        impl.encode(text, {}, pattern=pattern)
    assert_names_position(raised.value, position)


@operation("encode_special")
def _encode_special(impl, case: Case, fixtures: Fixtures) -> None:
    """encode with special tokens and a policy: the ids, or ValueError naming the special and its position."""
    given, expected = case["input"], case["expected"]
    merges = merges_from(given["merges"])
    keywords = {"special_tokens": given["special_tokens"], "allowed_special": policy(given["allowed_special"]),
                "disallowed_special": policy(given["disallowed_special"])}
    if "pattern" in given:
        keywords["pattern"] = PATTERNS[given["pattern"]]
    elif "error" not in expected:
        oracle.split.holds_as_stated(f"the worked case {case['id']}", lambda: oracle.encode(given["text"], merges,
                                                                                          **keywords))
    if "error" in expected:
        with pytest.raises(ValueError) as raised:
            impl.encode(given["text"], merges, **keywords)
        assert_names_special(raised.value, expected["token"], expected["position"])
    else:
        expect_equal(ids_of(impl.encode(given["text"], merges, **keywords)), expected["ids"], "ids", merges=merges)


@operation("load")
def _load(impl, case: Case, fixtures: Fixtures) -> None:
    """The file saved as it is (UTF-8, no newline translation), then load: the tokenizer, or ValueError naming
    the file and the first wrong line."""
    path = fixtures.folder() / "case.bpe"
    path.write_bytes(case["input"]["file"].encode("utf-8"))
    expected = case["expected"]
    if "error" in expected:
        assert_load_fails_at(impl, path, expected["line"])
        return
    merges, pattern, specials = impl.load(path)
    loaded, wanted = merges_of(merges), merge_list(expected["merges"])
    checks = [(claim, (dict(loaded), pattern, dict(specials)),
               (dict(wanted), expected["pattern"], expected["special_tokens"]), "(merges, pattern, special tokens)")
              for claim in case["claims"] if claim != "persist.frozen"]
    if "persist.frozen" in case["claims"]:  # the order of the merges, as the file gives it
        checks.append(("persist.frozen", loaded, wanted, "merges in the file's order"))
    expect_each(checks)




@operation("stream")
def _stream(impl, case: Case, fixtures: Fixtures) -> None:
    """A StreamDecoder fed the ids one at a time: the text after each id, then what flush gives."""
    decoder = impl.StreamDecoder(impl.build_vocab(merges_from(case["input"]["merges"])))
    outputs = [decoder.feed(i) for i in case["input"]["ids"]]
    flushed = decoder.flush()
    expected = case["expected"]
    # stream.matches-decode is about the whole text; the others about when each piece is shown: text shown
    # before it is due breaks stream.hold-partial, text shown after it is due breaks stream.eager
    got, want = outputs + [flushed], expected["outputs"] + [expected["flush"]]
    shown = [len("".join(got[:k + 1])) for k in range(len(got))]
    due = [len("".join(want[:k + 1])) for k in range(len(want))]
    early, late = any(s > d for s, d in zip(shown, due)), any(s < d for s, d in zip(shown, due))
    timing = [c for c in case["claims"] if c != "stream.matches-decode"]
    if early and "stream.hold-partial" not in timing or late and "stream.eager" not in timing:
        timing = [c for c in ("stream.hold-partial", "stream.eager") if (early, late)[c == "stream.eager"]]
    checks = [(claim, got, want, "feed outputs, then flush") for claim in timing]
    if "stream.matches-decode" in case["claims"]:
        checks.append(("stream.matches-decode", "".join(outputs) + flushed,
                       "".join(expected["outputs"]) + expected["flush"], "the whole text streamed"))
    expect_each(checks)


def _word_corpus(given: dict) -> str | dict[str, int]:
    return given["text"] if "text" in given else dict(given["words"])


def _marker(given: dict) -> dict[str, str | None]:
    """The end-of-word marker, passed only when the case names one."""
    return {"end_of_word": given["end_of_word"]} if "end_of_word" in given else {}


@operation("train_words")
def _train_words(impl, case: Case, fixtures: Fixtures) -> None:
    """The merges with the count each had when chosen (then the runners-up, counted by the oracle); or one row
    of the merge-budget table, from the implementation's own train_words and segment_word."""
    given, expected = case["input"], case["expected"]
    if "tokens" in expected:
        row = budget_row(impl, given["num_merges"], given["text"])
        assert row == budget_row_expected(case)
        return
    merges = word_merges_of(impl.train_words(_word_corpus(given), given["num_merges"], **_marker(given)))
    expect_equal(merges, [((a, b), n) for a, b, n in expected["merges"]], "((left, right), count) merges")
    if "runners_up" in expected:
        words = oracle.words.spelled(_word_corpus(given), given.get("end_of_word", "_"))
        for (pair, count), runners in zip(merges, expected["runners_up"]):
            ranked = oracle.words.ranked(words)
            assert ranked[0] == (pair, count)
            assert ranked[1:3] == [((a, b), n) for a, b, n in runners]
            words = [(oracle.words.merge_symbols(symbols, pair), n) for symbols, n in words]


def budget_row_expected(case: Case) -> BudgetRow:
    """The row of the merge-budget table a train_words case with "tokens" expects."""
    expected = case["expected"]
    return BudgetRow(case["input"]["num_merges"], expected["learned"], expected["vocab_size"], expected["tokens"],
                     len(case["input"]["text"].split()))


@operation("segment_word")
def _segment_word(impl, case: Case, fixtures: Fixtures) -> None:
    """The symbols of one word; or, as a trace, its segmentation after each merge that changes it."""
    given, expected = case["input"], case["expected"]
    merges = [tuple(pair) for pair in given["merges"]]

    def segment(table: list) -> list[str]:
        return symbols_of(impl.segment_word(given["word"], table, **_marker(given)))

    if "symbols" in expected:
        expect_equal(segment(merges), expected["symbols"], "symbols")
        return
    steps = [segment(merges[:k]) for k in range(len(merges) + 1)]
    trace = [step for k, step in enumerate(steps) if k == 0 or step != steps[k - 1]]
    expect_equal(trace, expected["trace"], "segmentation after each merge")
