"""Level merge: replace a pair left to right, without overlap, in a new list."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.cases import ops_core
from spec.compare import expect_equal
from spec.shapes import ids_of

pytestmark = pytest.mark.level("merge")

pairs = st.tuples(st.integers(0, 4), st.integers(0, 4))


# The worked cases of spec/cases/merge.json run here too, one test each, as
# test_merge_case[<case id>] (made by spec/cases/collect.py).


@pytest.mark.claim("merge.left-to-right", "merge.end-guard")
@given(strategies.small_id_lists, pairs)
def test_merge_equals_oracle(bpe, ids, pair):
    result, expected = ids_of(bpe.merge(list(ids), pair, 300)), oracle.merge(ids, pair, 300)
    if result != expected:  # only the pair at the very end wrong, and right with a symbol after it: the bound
        with checking(ops_core.merge_claim(bpe, list(ids), pair, 300, result, expected)):
            expect_equal(result, expected, f"merge of {pair} in {ids}")


@pytest.mark.claim("merge.left-to-right", "merge.end-guard")
@given(strategies.merge_inputs)
def test_merge_takes_overlapping_runs_from_the_left(bpe, ids_and_pair):
    """Runs of one symbol, odd lengths often: [x, x, x] with (x, x) gives [Z, x], never [x, Z]."""
    ids, pair = ids_and_pair
    result, expected = ids_of(bpe.merge(list(ids), pair, 300)), oracle.merge(ids, pair, 300)
    if result != expected:  # only the pair at the very end wrong, and right with a symbol after it: the bound
        with checking(ops_core.merge_claim(bpe, list(ids), pair, 300, result, expected)):
            expect_equal(result, expected, f"merge of {pair} in {ids}")


@pytest.mark.claim("merge.pure")
@given(strategies.small_id_lists, pairs)
def test_merge_never_mutates_its_input(bpe, ids, pair):
    given_ids = list(ids)
    result = bpe.merge(given_ids, pair, 300)
    assert given_ids == ids
    assert result is not given_ids


@pytest.mark.claim("merge.left-to-right", "merge.end-guard")
@given(strategies.small_id_lists, pairs)
def test_merge_shortens_by_the_number_of_replacements(bpe, ids, pair):
    result = ids_of(bpe.merge(list(ids), pair, 300))
    with checking(ops_core.merge_claim(bpe, list(ids), pair, 300, result, oracle.merge(ids, pair, 300))):
        assert len(ids) - len(result) == result.count(300)
