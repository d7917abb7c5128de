"""One classifier names the claim an invalid trained table breaks (spec/cases/expect.py ``training_claim``), and
an early stop is caught the moment train returns (spec/early_stop.py), whichever test drew the table (issue 37).

The rule is tested, not a case: for each way a trainer can be wrong in one behaviour, tables that behaviour makes
on generated texts are named by that behaviour's claim, never by the claims of the test that happened to train.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from spec import oracle
from spec.blame import blamed_claims
from spec.cases.expect import training_claim
from spec.early_stop import check_trained
from spec.patterns import PATTERNS
from spec.shapes import merges_of

texts = st.text(alphabet="ab c\r\n", min_size=4, max_size=40)
sizes = st.integers(258, 280)


def table(text: str, vocab_size: int) -> list:
    return merges_of(oracle.train(text, vocab_size))


def invalid(text: str, merges: list, vocab_size: int) -> bool:
    return oracle.valid_training.violation(text, merges, vocab_size) is not None


@settings(max_examples=60, deadline=None)
@given(texts, sizes, st.integers(1, 8))
def test_a_table_that_stops_short_is_an_early_stop(text, vocab_size, short):
    merges = table(text, vocab_size)
    cut = merges[: max(len(merges) - short, 0)]
    assume(invalid(text, cut, vocab_size))
    assert training_claim(text, cut, vocab_size) == "train.no-early-stop"


@settings(max_examples=60, deadline=None)
@given(texts, sizes)
def test_a_merge_of_count_zero_once_no_pair_is_left_is_train_exhausted(text, vocab_size):
    merges = table(text, 2000)
    assume(len(merges) < 2000 - 256 and merges)
    phantom = merges + [(merges[0][0], 256 + len(merges))]  # the first pair again, under the next id
    assert training_claim(text, phantom, 2000) == "train.exhausted"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["ab", "ba", " a", "<|endoftext|>", "bb"]), min_size=3, max_size=12), sizes)
def test_a_hard_coded_special_cut_out_made_a_boundary_or_kept_whole_is_train_no_implicit_specials(parts, vocab_size):
    text = "".join(parts)
    assume("<|endoftext|>" in text)
    documents = [part for part in text.split("<|endoftext|>") if part]
    for merges in (table(text.replace("<|endoftext|>", ""), vocab_size),
                   merges_of(oracle.ties.train_pieces([list(d.encode()) for d in documents], vocab_size,
                                                      "first-counted"))):
        if merges and invalid(text, merges, vocab_size):
            assert training_claim(text, merges, vocab_size) == "train.no-implicit-specials"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.sampled_from(["a\r\n", "ab", "\r\n\r\n", "b", "\n"]), min_size=3, max_size=12).map("".join),
       sizes)
def test_a_table_of_the_text_with_line_ends_folded_is_normalisation(text, vocab_size):
    folded = table(text.replace("\r\n", "\n"), vocab_size)
    assume(invalid(text, folded, vocab_size))
    assume(not oracle.valid_training.ids_wrong(folded, vocab_size))
    assert training_claim(text, folded, vocab_size) == "bytes.no-normalization"


def test_a_table_with_right_ids_in_another_order_is_train_tie_recorded():
    merges = table("aaabdaaabac", 259)
    assert training_claim("aaabdaaabac", sorted(merges), 259) == "train.tie-recorded"


def test_a_table_trained_over_the_whole_text_when_a_pattern_was_asked_is_the_chunk_counts_claim():
    whole = table("ab ab ab", 262)  # pairs across chunks: (98, 32), ...
    assert training_claim("ab ab ab", whole, 262, PATTERNS["gpt2"]) == "regex.chunk-frequency"


def test_an_empty_table_where_pairs_are_left_is_caught_when_train_returns():
    with pytest.raises(AssertionError) as failed:
        check_trained("abab<|endoftext|>abab", 270, {})
    assert blamed_claims(failed.value) == ("train.no-early-stop",)
    assert "stopped after 0 of 14 merges" in str(failed.value)


def test_a_right_table_and_an_exhausted_one_pass_when_train_returns():
    check_trained("abab", 270, dict(table("abab", 270)))  # exhausted after 3 merges: no pair left
    check_trained("abab", 257, dict(table("abab", 257)))


def test_a_trainer_that_never_merges_its_own_tokens_is_also_merged_again():
    """Only merged-token pairs left, no merge took one, and given room it still takes none: both claims."""
    never = lambda size: {(97, 97): 256}  # noqa: E731 - counts the bytes once, as wrong_stats_once does
    with pytest.raises(AssertionError) as failed:
        check_trained("aaaaaaaa", 259, never(259), retrain=never)
    assert blamed_claims(failed.value) == ("train.no-early-stop", "train.merged-again")
    one_short = lambda size: dict(table("aaaaaaaa", size - 1))  # noqa: E731 - learns the merge given room
    with pytest.raises(AssertionError) as failed:
        check_trained("aaaaaaaa", 258, one_short(258), retrain=one_short)
    assert blamed_claims(failed.value) == ("train.no-early-stop",)
