"""The operations of the core levels (pairs, merge, train, encode, decode): the textbook functions.

Each is registered with ``@operation`` (registry.py) under its schema.json name; spec/cases/runner.py
imports this module so they are registered before the first case runs.
"""

from __future__ import annotations

from spec import corpus_values, oracle, replay
from spec.blame import checking
from spec.cases.expect import expect_each, expect_ids, expect_merges, merge_list, merges_from, tie_rule_feature
from spec.cases.registry import Case, Fixtures, Pair, operation
from spec.compare import expect_equal
from spec.patterns import PATTERNS
from spec.refusals import refused
from spec.shapes import ids_of, merges_of, pairs_of, token_at
from spec.trained_vocab import ids_ambiguous

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
    """The claim a wrong merge result breaks: merge.end-guard when the result is the right one without its final
    element, which no pair took (copied unchanged, says the claim), or when only the pair at the very end was
    left unmerged and the same ids with one more symbol after them merge right (the bound was the trouble); else
    merge.left-to-right. On aaaa, [Z, a, a] is what both a wrong bound and a wrong rule for runs give: the
    longer input tells them apart."""
    if expected and result == expected[:-1] and expected[-1] == ids[-1] != idx:
        return "merge.end-guard"  # the final element, in no pair, lost: the bound, whatever the merging order
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
    if "error" in expected:  # refused, where a vocab_size that asks merges is not (a crash is no refusal)
        refused(lambda: impl.train(given["text"], given["vocab_size"]), lambda: impl.train(given["text"], 260))
        return
    options: dict[str, str] = {}
    if "tie_rule" in given:
        fixtures.require_feature(tie_rule_feature(given["tie_rule"]))
        options["tie_rule"] = given["tie_rule"]
    if "pattern" in given:
        options["pattern"] = PATTERNS[given["pattern"]]
    if options:
        if "tie_rule" not in options:  # the implementation's own rule in force: the case holds if it learns the same
            oracle.split.holds_as_stated(f"the worked case {case['id']}", lambda: oracle.train(
                given["text"], given["vocab_size"], **options))
        result = impl.train(given["text"], given["vocab_size"], **options)
    else:
        text = fixtures.corpus(given["corpus"]) if "corpus" in given else given["text"]
        result = fixtures.trained(given.get("corpus") or given["text"], text, given["vocab_size"])
    stated = merge_list(expected["merges"])
    if "corpus" in given:  # the table a document states for the whole corpus, or the oracle's under the split
        stated = corpus_values.value(f"the worked case {case['id']}", stated, lambda: list(
            fixtures.spec_table(given["corpus"], given["vocab_size"]).items()))
    table = merges_of(result)
    ambiguous = ids_ambiguous(table)
    with checking("train.ids-from-256"):  # no pair can be read back from ids that repeat or name bytes
        assert ambiguous is None, f"the trained table cannot be compared with the case's: {ambiguous}"
    # the implementation's own tie rule decided this table unless the case named the rule to use
    expect_merges(case, table, stated, own_training="tie_rule" not in given)


@operation("encode")
def _encode(impl, case: Case, fixtures: Fixtures) -> None:
    merges, text = merges_from(case["input"]["merges"]), case["input"]["text"]
    oracle.split.holds_as_stated(f"the worked case {case['id']}", lambda: oracle.encode(text, merges))
    result = ids_of(impl.encode(text, merges))
    expected = case["expected"].get("ids")
    if expected is not None and merges_from_the_right(impl, text, merges, result, expected):
        with checking("merge.left-to-right"):  # the rank was right, the order of the occurrences was not
            expect_ids(result, case["expected"], merges)
    expect_ids(result, case["expected"], merges)


def merges_from_the_right(impl, text: str, merges: dict[Pair, int], result: list[int], expected: list[int]) -> bool:
    """A wrong encode result is exactly what merging each pair's occurrences from the right gives, confirmed on
    the plainest runs (an encode applying the first merge in table order can match the replay on some texts
    while taking aaa from the left; one picking the fewest tokens takes aaa as [97, 256] but merges nothing):
    the claim it breaks is merge.left-to-right, not encode's rank (the order of the merges was right)."""
    from spec.wrong_variants import encode_merging_from_the_right

    five = {(97, 97): 256, (256, 97): 257}
    return (result != expected and result == encode_merging_from_the_right(text, merges)
            and ids_of(impl.encode("aaa", {(97, 97): 256})) == [97, 256]
            and ids_of(impl.encode("aaaaa", five)) == encode_merging_from_the_right("aaaaa", five))


@operation("train_encode")
def _train_encode(impl, case: Case, fixtures: Fixtures) -> None:
    """A corpus's table at a size (the implementation's own training, or beyond it the spec's), then encode; the
    ids a document states for the whole-text table, or under a split the oracle's (spec/corpus_values.py)."""
    given = case["input"]
    result = fixtures.encoded(given["corpus"], given["vocab_size"], given.get("text"))
    merges = fixtures.corpus_table(given["corpus"], given["vocab_size"])
    text = given.get("text", fixtures.corpus(given["corpus"]))

    def restated() -> dict:
        """The oracle's ids (or their number, for the whole corpus) under its own table, split alike."""
        table = fixtures.spec_table(given["corpus"], given["vocab_size"])
        if "text" in given:
            return {"ids": oracle.encode(text, table)}
        return {"length": len(replay.replay(text, table.items())[0])}

    expected = corpus_values.value(f"the worked case {case['id']}", case["expected"], restated)
    expect_ids(result, expected, merges, text_bytes=len(text.encode("utf-8")))


@operation("build_vocab")
def _build_vocab(impl, case: Case, fixtures: Fixtures) -> None:
    vocab = impl.build_vocab(merges_from(case["input"]["merges"]))
    entries = case["expected"]["entries"]
    actual = {key: token_at(vocab, int(key)) for key in entries}
    expect_equal(actual, {key: bytes.fromhex(value) for key, value in entries.items()}, "vocab")


@operation("decode")
def _decode(impl, case: Case, fixtures: Fixtures) -> None:
    """Through the implementation's own vocabulary (with the case's special tokens, when it has some)."""
    given = case["input"]
    specials = {"special_tokens": given["special_tokens"]} if "special_tokens" in given else {}
    vocab = impl.build_vocab(merges_from(given["merges"]), **specials)
    expect_equal(impl.decode(list(given["ids"]), vocab), case["expected"]["text"], "decoded text")

