"""Level ties: train(..., tie_rule=NAME) selects one of the documented ways to break equal counts.

Each rule is credited on its own: a rule the implementation refuses (NotImplementedError, or
ValueError for that name) makes that rule's tests "not started", and the others still run.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import cases, oracle, strategies
from spec.blame import checking
from spec.cases import expect
from spec.cases.expect import tie_rule_feature as rule_feature
from spec.compare import expect_equal
from spec.levels import feature_not_started
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from spec.shapes import merges_of
from spec.tie_rules import TIE_RULES

pytestmark = pytest.mark.level("ties")

#: Each rule with the claim that defines it.
RULE_CLAIMS = {name: rule.claim for name, rule in TIE_RULES.items()}


# The worked cases of spec/cases/ties.json run here too, one test each, as
# test_ties_case[<case id>] (made by spec/cases/collect.py).


@pytest.fixture
def rule(request, require_feature) -> str:
    """The rule a parametrized test is about, once the implementation has it."""
    require_feature(rule_feature(request.param))
    return request.param


@pytest.mark.parametrize("rule", [pytest.param(rule, marks=pytest.mark.claim(claim, "train.tie-recorded"), id=rule)
                                  for rule, claim in RULE_CLAIMS.items()], indirect=True)
@given(text=strategies.tie_heavy_texts, vocab_size=strategies.vocab_sizes)
def test_each_rule_equals_its_textbook_version_on_tie_heavy_texts(bpe, rule, text, vocab_size):
    result = merges_of(bpe.train(text, vocab_size, tie_rule=rule))
    expect.fail_invalid_training(text, result, vocab_size, oracle.valid_training.ids_wrong(result, vocab_size)
                                 or oracle.valid_training.not_greedy(text, result))
    with checking(RULE_CLAIMS[rule]):
        expect_equal(result, merges_of(oracle.train(text, vocab_size, tie_rule=rule)), "merges")


#: Words of two letters between spaces: a split pattern makes chunks of them, and ties stay everywhere.
tie_heavy_words = st.lists(st.text(alphabet="ab", min_size=1, max_size=6), max_size=10).map(" ".join)


@pytest.mark.parametrize("rule", [pytest.param(rule, marks=pytest.mark.claim(claim, "regex.chunk-frequency"), id=rule)
                                  for rule, claim in RULE_CLAIMS.items()], indirect=True)
@given(text=tie_heavy_words, vocab_size=strategies.vocab_sizes,
       pattern=st.sampled_from((GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN)))
def test_each_rule_combines_with_a_split_pattern(bpe, require_feature, rule, text, vocab_size, pattern):
    """With both keywords, the rule breaks the ties among pairs counted inside chunks."""
    require_feature("train(pattern=)")
    result = merges_of(bpe.train(text, vocab_size, pattern=pattern, tie_rule=rule))
    with checking(RULE_CLAIMS[rule]):  # the counts inside chunks are regex's, checked there
        expect_equal(result, merges_of(oracle.train(text, vocab_size, pattern=pattern, tie_rule=rule)), "merges")


@pytest.fixture
def first_counted(require_feature) -> None:
    require_feature(rule_feature("first-counted"))


@pytest.mark.claim("train.tie-first-counted")
@given(text=strategies.tie_heavy_texts, vocab_size=strategies.vocab_sizes)
def test_the_default_rule_is_first_counted(bpe, first_counted, text, vocab_size):
    """Leaving tie_rule out is naming first-counted: a trainer with another default fails this claim only."""
    default = merges_of(bpe.train(text, vocab_size))
    with checking("train.tie-first-counted", own_training=True):
        named = merges_of(bpe.train(text, vocab_size, tie_rule="first-counted"))
        expect_equal(default, named, "merges without tie_rule against tie_rule='first-counted'")
        expect_equal(default, merges_of(oracle.train(text, vocab_size)), "merges")


@pytest.fixture
def known_rules(bpe) -> list[str]:
    """The rules the implementation has (the level is started, so at least one)."""
    return [rule for rule in TIE_RULES if not feature_not_started(bpe, rule_feature(rule))]


@pytest.mark.claim("ties.unknown-rule")
@pytest.mark.parametrize("name", ["", "first_counted", "Lowest-Pair", "bytes-lowest", "random"])
def test_an_unknown_rule_is_a_value_error_naming_the_known_ones(bpe, known_rules, name):
    with pytest.raises(ValueError) as raised:
        bpe.train("aaabdaaabac", 259, tie_rule=name)
    message = str(raised.value)
    assert known_rules and all(rule in message for rule in known_rules), message


def _tables_by_text() -> dict[str, dict[str, tuple[int, list]]]:
    """The worked tie cases, by text: rule -> (vocab_size, expected table as [left, right, id] rows)."""
    found: dict[str, dict[str, tuple[int, list]]] = {}
    for case in cases.cases_of("ties", "train"):
        given = case["input"]
        found.setdefault(given["text"], {})[given["tie_rule"]] = (given["vocab_size"], case["expected"]["merges"])
    return found


@pytest.mark.claim("ties.disagree")
@pytest.mark.parametrize("text", sorted(_tables_by_text()))
def test_the_rules_disagree_where_the_worked_cases_say(bpe, known_rules, text):
    """Its own observable: which rules give the same table on the text, and which do not (each rule's table
    itself is its own claim's, in the worked cases). Only the rules the implementation has are compared."""
    expected = _tables_by_text()[text]
    rules = [rule for rule in known_rules if rule in expected]
    tables = {rule: merges_of(bpe.train(text, expected[rule][0], tie_rule=rule)) for rule in rules}
    pairs = [(a, b) for i, a in enumerate(rules) for b in rules[i + 1:]]
    agree = {f"{a} = {b}": tables[a] == tables[b] for a, b in pairs}
    want = {f"{a} = {b}": expected[a][1] == expected[b][1] for a, b in pairs}
    expect_equal(agree, want, "which rules give the same table")
