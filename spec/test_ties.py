"""Level ties: train(..., tie_rule=NAME) selects one of the documented ways to break equal counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import cases, oracle, oracle_chunks, oracle_ties, strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from spec.shapes import merges_of

pytestmark = pytest.mark.level("ties")

#: Each rule with the claim that defines it.
RULE_CLAIMS = {
    "first-counted": "train.tie-first-counted",
    "lowest-pair": "ties.lowest-pair",
    "bytes-greatest": "ties.bytes-greatest",
}


@pytest.mark.parametrize("case", cases.params("ties", "train"))
def test_ties_case(bpe, case):
    given_input = case["input"]
    result = bpe.train(given_input["text"], given_input["vocab_size"], tie_rule=given_input["tie_rule"])
    expect_equal(merges_of(result), [((a, b), idx) for a, b, idx in case["expected"]["merges"]], "merges")


@pytest.mark.parametrize("rule", [pytest.param(rule, marks=pytest.mark.claim(claim, "train.tie-recorded"), id=rule)
                                  for rule, claim in RULE_CLAIMS.items()])
@given(text=strategies.tie_heavy_texts, vocab_size=strategies.vocab_sizes)
def test_each_rule_equals_its_textbook_version_on_tie_heavy_texts(bpe, rule, text, vocab_size):
    result = merges_of(bpe.train(text, vocab_size, tie_rule=rule))
    with checking("train.tie-recorded"):
        assert [idx for _, idx in result] == list(range(256, 256 + len(result))), "ids are not consecutive from 256"
        assert oracle.first_step_not_greedy(text, result) is None, "replayed in the table's order, a merge was not the most frequent pair"
    with checking(RULE_CLAIMS[rule]):
        expect_equal(result, merges_of(oracle_ties.train(text, vocab_size, rule)), "merges")


#: Words of two letters between spaces: a split pattern makes chunks of them, and ties stay everywhere.
tie_heavy_words = st.lists(st.text(alphabet="ab", min_size=1, max_size=6), max_size=10).map(" ".join)


@pytest.mark.parametrize("rule", [pytest.param(rule, marks=pytest.mark.claim(claim, "regex.chunk-frequency"), id=rule)
                                  for rule, claim in RULE_CLAIMS.items()])
@given(text=tie_heavy_words, vocab_size=strategies.vocab_sizes,
       pattern=st.sampled_from((GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN)))
def test_each_rule_combines_with_a_split_pattern(bpe, rule, text, vocab_size, pattern):
    """With both keywords, the rule breaks the ties among pairs counted inside chunks."""
    result = merges_of(bpe.train(text, vocab_size, pattern=pattern, tie_rule=rule))
    with checking(RULE_CLAIMS[rule]):  # the counts inside chunks are regex's, checked there
        expect_equal(result, merges_of(oracle_chunks.train(text, vocab_size, pattern, rule)), "merges")


@pytest.mark.claim("ties.unknown-rule", "train.tie-first-counted")
@given(text=strategies.tie_heavy_texts, vocab_size=strategies.vocab_sizes)
def test_the_default_rule_is_first_counted(bpe, text, vocab_size):
    default = merges_of(bpe.train(text, vocab_size))
    with checking("ties.unknown-rule"):  # the rule accepts first-counted as its default's name
        named = merges_of(bpe.train(text, vocab_size, tie_rule="first-counted"))
        expect_equal(default, named, "merges without tie_rule against tie_rule='first-counted'")
    with checking("train.tie-first-counted"):
        expect_equal(default, merges_of(oracle.train(text, vocab_size)), "merges")


@pytest.mark.claim("ties.unknown-rule")
@pytest.mark.parametrize("rule", ["", "first_counted", "Lowest-Pair", "bytes-lowest", "random"])
def test_an_unknown_rule_is_a_value_error_naming_the_known_ones(bpe, rule):
    with pytest.raises(ValueError) as raised:
        bpe.train("aaabdaaabac", 259, tie_rule=rule)
    message = str(raised.value)
    assert all(name in message for name in RULE_CLAIMS), message
