"""The one case runner: what each operation of the case files means, for any implementation.

``OPERATIONS`` maps each operation name of schema.json to the function that calls it on an
implementation module (the contract's functions, spec/CONTRACT.md) and compares the result
with the case's expected value, decoded from its language-neutral form (merge rows, hex
bytes, policies, pattern names). A mismatch raises AssertionError with the expected and
actual values side by side (``spec.compare``); a claim is blamed alone only where a case
needs it (``spec.blame.checking``). The spec runs its cases through ``run`` against the
implementation under test, the suite's self-test against the oracle (``ORACLE``).

What a case needs from its surroundings (a corpus, a table trained once per session, a
feature the implementation may not have, a folder to save into) comes from a ``Fixtures``:
``PytestFixtures`` in a spec test, ``PlainFixtures`` for a direct run.

A new operation is one function here, registered with ``@operation``, plus one branch of
schema.json; tests/test_cases.py fails while one has no counterpart.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import pytest

from spec import oracle
from spec.blame import checking
from spec.compare import CaseMismatch, describe, expect_equal, show_bytes
from spec.patterns import PATTERNS
from spec.shapes import bytes_of, ids_of, merges_of, pairs_of, symbols_of, word_merges_of
from spec.toy_words import BudgetRow, budget_row

Pair = tuple[int, int]
Case = dict[str, Any]


class Fixtures(Protocol):
    """What some cases need besides the implementation."""

    def corpus(self, name: str) -> str: ...
    def trained(self, key: str, text: str, vocab_size: int) -> Any: ...
    def corpus_table(self, name: str, vocab_size: int) -> dict[Pair, int]: ...
    def encoded(self, name: str, vocab_size: int, text: str | None) -> list[int]: ...
    def require_feature(self, feature: str) -> None: ...
    def folder(self) -> Path: ...


class PytestFixtures:
    """The spec's fixtures (bpe_kata/plugin.py), asked for only when a case needs one."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self._request = request

    def _fixture(self, name: str) -> Any:
        return self._request.getfixturevalue(name)

    def corpus(self, name: str) -> str:
        return self._fixture("corpus")(name)

    def trained(self, key: str, text: str, vocab_size: int) -> Any:
        return self._fixture("trained")(key, text, vocab_size)

    def corpus_table(self, name: str, vocab_size: int) -> dict[Pair, int]:
        return self._fixture("corpus_table")(name, vocab_size)

    def encoded(self, name: str, vocab_size: int, text: str | None) -> list[int]:
        return self._fixture("encoded")(name, vocab_size, text)

    def require_feature(self, feature: str) -> None:
        self._fixture("require_feature")(feature)

    def folder(self) -> Path:
        return self._fixture("tmp_path")


class PlainFixtures:
    """A direct run: every feature is there, training is not cached, corpora are not read."""

    def __init__(self, impl: object, folder: Path | None = None) -> None:
        self._impl, self._folder = impl, folder

    def corpus(self, name: str) -> str:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def trained(self, key: str, text: str, vocab_size: int) -> Any:
        return self._impl.train(text, vocab_size)

    def corpus_table(self, name: str, vocab_size: int) -> dict[Pair, int]:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def encoded(self, name: str, vocab_size: int, text: str | None) -> list[int]:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def require_feature(self, feature: str) -> None:
        return None

    def folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="bpe-kata-case-"))
        return self._folder


Check = Callable[[object, Case, Fixtures], None]

#: operation name (schema.json) -> how to call it on an implementation and compare its result.
OPERATIONS: dict[str, Check] = {}


def operation(name: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        OPERATIONS[name] = check
        return check
    return register


def run(case: Case, impl: object, fixtures: Fixtures | pytest.FixtureRequest | None = None) -> None:
    """Run one case against ``impl``: returns when it passes, raises AssertionError (or the
    implementation's own exception) when not. ``fixtures`` may be a test's ``request``."""
    if fixtures is None:
        fixtures = PlainFixtures(impl)
    elif isinstance(fixtures, pytest.FixtureRequest):
        fixtures = PytestFixtures(fixtures)
    OPERATIONS[case["operation"]](impl, case, fixtures)


# --- Decoding the case format ---

def merges_from(rows: list[list[int]]) -> dict[Pair, int]:
    """An ordered merge table from the case format's list of [left, right, id]."""
    return {(left, right): idx for left, right, idx in rows}


def merge_list(rows: list[list[int]]) -> list[tuple[Pair, int]]:
    """The same rows as the (pair, id) list ``spec.shapes.merges_of`` gives, for comparing tables in order."""
    return [((left, right), idx) for left, right, idx in rows]


def policy(value: str | list[str]) -> str | set[str]:
    """A special-token policy: "all", or the set of the listed specials."""
    return value if value == "all" else set(value)


def tie_rule_feature(rule: str) -> str:
    """The optional feature a tie rule is (spec.levels.feature_not_started knows how to probe it)."""
    return f"train(tie_rule={rule})"


def expect_ids(result: list[int], expected: dict, merges: dict[Pair, int] | None = None,
               text_bytes: int | None = None) -> None:
    """A case's ids, or their number, as expected; a mismatch shows both, with each id's bytes (and, given
    the text's length in bytes, bytes per token: the bytes-per-token curve's own figure)."""
    if "ids" in expected:
        expect_equal(result, expected["ids"], "ids", merges=merges)
    elif len(result) != expected["length"]:
        vocab = oracle.build_vocab(dict(merges or {}))
        pieces = ", ".join(f"{i} [{show_bytes(vocab[i])}]" if i in vocab else str(i) for i in result[:40])
        per_token = (f" ({text_bytes / expected['length']:.4f} against {text_bytes / max(len(result), 1):.4f} "
                     f"bytes per token for {text_bytes:,} bytes)") if text_bytes else ""
        raise CaseMismatch(f"number of ids: expected {expected['length']:,}, got {len(result):,}{per_token}\n"
                           f"  actual ids: {pieces}{', ...' if len(result) > 40 else ''}")


def expect_each(checks: list[tuple[str, object, object, str]], *, own_training: bool = False,
                merges: dict[Pair, int] | None = None) -> None:
    """``[(claim, actual, expected, what), ...]``: each claim judged on its own observable. Every comparison is
    made; one failure is raised, blaming only the claims whose own comparison differs (so a case that checks
    two claims never blames the one whose observable was right)."""
    vocab = oracle.build_vocab(dict(merges)) if merges is not None else None
    wrong = [(claim, describe(actual, expected, what, vocab)) for claim, actual, expected, what in checks
             if actual != expected]
    if wrong:
        with checking(*dict.fromkeys(claim for claim, _ in wrong), own_training=own_training):
            raise CaseMismatch("\n".join(line for _, lines in wrong for line in lines))


def expect_merges(case: Case, result: list, expected: list, own_training: bool = False) -> None:
    """A worked training case: one table, so one claim judged on it. train.merged-again has an observable of its
    own: whether some merge takes an earlier merge's token as a part, as in the expected table; regex.no-cross-chunk
    too (no merged token spans two chunks of the case's pattern). ``own_training``: the table is the
    implementation's, trained with its default tie rule (the ledger's tie-rule excuse may apply)."""
    table_claims = [c for c in case["claims"] if c not in ("train.merged-again", "regex.no-cross-chunk")]
    # the pairs learned, in order, are the table claims' observable (the ids renumbered 256, 257, ... in table
    # order, so a wrong numbering does not change them); the ids themselves are train.ids-from-256's
    learned = _renumbered(result)
    checks = [(claim, learned, expected, "merges" if learned == result else "merges (ids renumbered from 256)")
              for claim in table_claims]
    checks.append(("train.ids-from-256", [idx for _, idx in result], list(range(256, 256 + len(result))),
                   "ids of the merges, in order"))
    if "train.merged-again" in case["claims"]:
        checks.append(("train.merged-again", _merges_a_merge(result), _merges_a_merge(expected),
                       "some merge takes an earlier merge's token as a part"))
    if "regex.no-cross-chunk" in case["claims"]:
        pattern = PATTERNS[case["input"]["pattern"]]
        checks.append(("regex.no-cross-chunk", _crossing_tokens(case["input"]["text"], result, pattern), [],
                       "learned tokens whose bytes span two chunks"))
    expect_each(checks, own_training=own_training)


def _crossing_tokens(text: str, merges: list, pattern: str) -> list[bytes]:
    """The learned tokens that occur in no chunk of the text (so they can only have joined two chunks)."""
    vocab = {i: bytes([i]) for i in range(256)}
    for (left, right), idx in merges:
        vocab[idx] = vocab.get(left, b"?") + vocab.get(right, b"?")
    pieces = [chunk.encode("utf-8") for chunk in oracle.chunks.chunks(text, pattern)]
    return [vocab[idx] for _, idx in merges if not any(vocab[idx] in piece for piece in pieces)]


def normalisation_explains(text: str, merges: list, vocab_size: int, pattern: str | None = None) -> bool:
    """The table is not valid training on ``text`` as given, but is on the text normalised (NFC, CRLF and CR to
    LF): the trainer normalised, bytes.no-normalization's observable. Any other invalid table is another claim's."""
    import unicodedata

    if oracle.valid_training.violation(text, merges, vocab_size, pattern) is None:
        return False
    lines = {text.replace("\r\n", "\n"), text.replace("\r\n", "\n").replace("\r", "\n")}
    folded = {form for line in lines for form in (line, unicodedata.normalize("NFC", line))} - {text}
    return any(oracle.valid_training.violation(other, merges, vocab_size, pattern) is None for other in folded)


def training_claim(text: str, merges: list, vocab_size: int, pattern: str | None = None) -> str:
    """The claim an invalid table breaks, by its own observable: normalised text, then the ids, then an early
    stop, else a merge that was not a most frequent pair (the chunk counts' claim with a pattern)."""
    if normalisation_explains(text, merges, vocab_size, pattern):
        return "bytes.no-normalization"
    if oracle.valid_training.ids_wrong(merges, vocab_size):
        return "train.ids-from-256"
    if oracle.valid_training.not_greedy(text, merges, pattern) is None and \
            oracle.valid_training.stopped_early(text, merges, vocab_size, pattern):
        return "train.no-early-stop"
    return "regex.chunk-frequency" if pattern is not None else "train.tie-recorded"


def _renumbered(merges: list) -> list[tuple[Pair, int]]:
    """The table with each id it gave renumbered 256, 257, ... in table order (its pairs renamed to match)."""
    new = {idx: 256 + k for k, (_, idx) in enumerate(merges)}
    return [((new.get(left, left), new.get(right, right)), 256 + k) for k, ((left, right), _) in enumerate(merges)]


def _merges_a_merge(merges: list) -> bool:
    return any(left >= 256 or right >= 256 for (left, right), _ in merges)


def assert_names_position(error: BaseException, position: int) -> None:
    """The error message names the position (a number on its own, not part of a larger one)."""
    assert re.search(rf"(?<!\d){position}(?!\d)", str(error)), f"the message does not name position {position}: {error}"


def assert_names_special(error: BaseException, special: str, position: int) -> None:
    """The message names the special (as is, or as its repr) and its position in the text."""
    message = str(error)
    assert special in message or repr(special) in message, message
    assert re.search(rf"(?<!\d){position}(?!\d)", message), message


# --- The operations, level by level ---

@operation("get_stats")
def _get_stats(impl, case: Case, fixtures: Fixtures) -> None:
    """The counts (as a mapping: any order) for the counting claims; the order of the pairs for
    pairs.first-seen-order alone, so a port whose map has another order breaks only that claim."""
    expected = [((a, b), n) for a, b, n in case["expected"]["pairs"]]
    result = pairs_of(impl.get_stats(list(case["input"]["ids"])))
    checks = [(claim, dict(result), dict(expected), "pair counts") for claim in case["claims"]
              if claim != "pairs.first-seen-order"]
    if "pairs.first-seen-order" in case["claims"]:
        checks.append(("pairs.first-seen-order", [pair for pair, _ in result], [pair for pair, _ in expected],
                       "pairs in order"))
    expect_each(checks)


@operation("merge")
def _merge(impl, case: Case, fixtures: Fixtures) -> None:
    given = case["input"]
    result = ids_of(impl.merge(list(given["ids"]), tuple(given["pair"]), given["idx"]))
    claim = merge_claim(impl, list(given["ids"]), tuple(given["pair"]), given["idx"], result, case["expected"]["ids"])
    with checking(*((claim,) if claim == "merge.end-guard" else case["claims"])):
        expect_equal(result, case["expected"]["ids"], "ids")


def merge_claim(impl, ids: list[int], pair: Pair, idx: int, result: list[int], expected: list[int]) -> str:
    """The claim a wrong merge result breaks: merge.end-guard when only the pair at the very end was left
    unmerged and the same ids with one more symbol after them merge right (the bound was the trouble); else
    merge.left-to-right. On aaaa, [Z, a, a] is what both a wrong bound and a wrong rule for runs give: the
    longer input tells them apart."""
    looks_like_the_end = (list(ids[-2:]) == list(pair) and expected[-1:] == [idx]
                          and result == expected[:-1] + list(pair))
    if looks_like_the_end:
        spare = next(i for i in range(256) if i not in pair)
        try:
            longer = ids_of(impl.merge(ids + [spare], tuple(pair), idx))
        except Exception:  # no answer tells nothing apart
            return "merge.left-to-right"
        if longer == oracle.merge(ids + [spare], tuple(pair), idx):
            return "merge.end-guard"
    return "merge.left-to-right"


@operation("train")
def _train(impl, case: Case, fixtures: Fixtures) -> None:
    """Plain, on a text or a corpus (trained once per session); with a tie rule (a feature of its own) or a pattern;
    or a vocab_size that must be refused."""
    given, expected = case["input"], case["expected"]
    if "error" in expected:
        with pytest.raises(ValueError):
            impl.train(given["text"], given["vocab_size"])
        return
    options: dict[str, str] = {}
    if "tie_rule" in given:
        fixtures.require_feature(tie_rule_feature(given["tie_rule"]))
        options["tie_rule"] = given["tie_rule"]
    if "pattern" in given:
        options["pattern"] = PATTERNS[given["pattern"]]
    if options:
        result = impl.train(given["text"], given["vocab_size"], **options)
    else:
        text = fixtures.corpus(given["corpus"]) if "corpus" in given else given["text"]
        result = fixtures.trained(given.get("corpus") or given["text"], text, given["vocab_size"])
    # the implementation's own tie rule decided this table unless the case named the rule to use
    expect_merges(case, merges_of(result), merge_list(expected["merges"]), own_training="tie_rule" not in given)


@operation("encode")
def _encode(impl, case: Case, fixtures: Fixtures) -> None:
    merges = merges_from(case["input"]["merges"])
    expect_ids(ids_of(impl.encode(case["input"]["text"], merges)), case["expected"], merges)


@operation("train_encode")
def _train_encode(impl, case: Case, fixtures: Fixtures) -> None:
    """A corpus's table at a size (the implementation's own training, or beyond it the spec's), then encode."""
    given, expected = case["input"], case["expected"]
    result = fixtures.encoded(given["corpus"], given["vocab_size"], given.get("text"))
    merges = fixtures.corpus_table(given["corpus"], given["vocab_size"])
    text = given.get("text", fixtures.corpus(given["corpus"]))
    expect_ids(result, expected, merges, text_bytes=len(text.encode("utf-8")))


@operation("build_vocab")
def _build_vocab(impl, case: Case, fixtures: Fixtures) -> None:
    vocab = impl.build_vocab(merges_from(case["input"]["merges"]))
    entries = case["expected"]["entries"]
    actual = {key: bytes_of(vocab[int(key)]) for key in entries}
    expect_equal(actual, {key: bytes.fromhex(value) for key, value in entries.items()}, "vocab")


@operation("decode")
def _decode(impl, case: Case, fixtures: Fixtures) -> None:
    """Through the implementation's own vocabulary (with the case's special tokens, when it has some)."""
    given = case["input"]
    specials = {"special_tokens": given["special_tokens"]} if "special_tokens" in given else {}
    vocab = impl.build_vocab(merges_from(given["merges"]), **specials)
    expect_equal(impl.decode(list(given["ids"]), vocab), case["expected"]["text"], "decoded text")


@operation("split")
def _split(impl, case: Case, fixtures: Fixtures) -> None:
    """With merges to spare, every chunk ends as one token, and no token joins two chunks."""
    text, pattern = case["input"]["text"], PATTERNS[case["input"]["pattern"]]
    merges = impl.train(text, 256 + len(text.encode("utf-8")), pattern=pattern)
    vocab = oracle.build_vocab(dict(merges_of(merges)))
    tokens = [vocab[i].decode("utf-8") for i in ids_of(impl.encode(text, merges, pattern=pattern))]
    expect_equal(tokens, case["expected"]["chunks"], "tokens")


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


def assert_load_fails_at(impl, path: Path, line: int) -> None:
    """load raises ValueError whose message names the file and the line of the first problem."""
    with pytest.raises(ValueError) as raised:
        impl.load(path)
    assert path.name in str(raised.value), f"the message does not name the file: {raised.value}"
    assert line in lines_named(raised.value), f"the message does not name line {line}: {raised.value}"


def lines_named(error: BaseException) -> set[int]:
    """The line numbers an error message names ("line 3")."""
    return {int(n) for n in re.findall(r"\bline (\d+)", str(error), flags=re.IGNORECASE)}


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


#: The oracle (spec/oracle/), a complete implementation of the contract: the suite's self-test runs every case on it.
ORACLE = oracle
