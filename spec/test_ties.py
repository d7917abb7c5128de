"""Level ties: train(..., tie_rule=NAME) selects one of the documented ways to break equal counts."""

from __future__ import annotations

import pytest
from hypothesis import given

from spec import cases, oracle_ties, strategies
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
    assert merges_of(result) == [((a, b), idx) for a, b, idx in case["expected"]["merges"]]


@pytest.mark.parametrize("rule", [pytest.param(rule, marks=pytest.mark.claim(claim, "train.tie-recorded"), id=rule)
                                  for rule, claim in RULE_CLAIMS.items()])
@given(text=strategies.tie_heavy_texts, vocab_size=strategies.vocab_sizes)
def test_each_rule_equals_its_textbook_version_on_tie_heavy_texts(bpe, rule, text, vocab_size):
    result = merges_of(bpe.train(text, vocab_size, tie_rule=rule))
    assert result == merges_of(oracle_ties.train(text, vocab_size, rule))


@pytest.mark.claim("ties.unknown-rule", "train.tie-first-counted")
@given(text=strategies.tie_heavy_texts, vocab_size=strategies.vocab_sizes)
def test_the_default_rule_is_first_counted(bpe, text, vocab_size):
    assert merges_of(bpe.train(text, vocab_size)) == merges_of(bpe.train(text, vocab_size, tie_rule="first-counted"))


@pytest.mark.claim("ties.unknown-rule")
@pytest.mark.parametrize("rule", ["", "first_counted", "Lowest-Pair", "bytes-lowest", "random"])
def test_an_unknown_rule_is_a_value_error_naming_the_known_ones(bpe, rule):
    with pytest.raises(ValueError) as raised:
        bpe.train("aaabdaaabac", 259, tie_rule=rule)
    message = str(raised.value)
    assert all(name in message for name in RULE_CLAIMS), message
