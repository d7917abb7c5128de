"""Level train: merge by merge, on texts that train for a hundred merges or more, each merge is a recount's best.

The other training properties draw short texts and stop after at most 44 merges; an
incremental counter or an indexed heap that loses its order only errs after many updates
among near-tied counts (issue 37, kind 6: a heap whose delete only sifted down merged a pair
of count 4 while one of 5 remained, and passed every level). Here each text trains until no
pair is left, and the oracle recounts the sequence before each merge of the table: the report
names the first merge that was not a most frequent pair, so the bug shows where it happens.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings

from spec import oracle, strategies
from spec.blame import checking
from spec.cases import expect
from spec.shapes import merges_of
from spec.table_ids import ids_claim

pytestmark = pytest.mark.level("train")

#: Enough for every near-tied text to train until no pair is left (the longest have about 400 bytes).
UNTIL_EXHAUSTED = 256 + 500


@pytest.mark.claim("train.most-frequent", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop")
@given(strategies.near_tied_batches)
# No shrinking: the failing text is printed and its first wrong merge named, which is the localisation that
# matters; shrinking a batch of long trainings took minutes (every other setting is the profile's).
@settings(phases=[Phase.explicit, Phase.reuse, Phase.generate])
def test_every_merge_of_a_long_training_is_a_most_frequent_pair_when_recounted(bpe, texts):
    for text in texts:
        merges = merges_of(bpe.train(text, UNTIL_EXHAUSTED))
        with checking(ids_claim(text, merges, UNTIL_EXHAUSTED)):
            problem = oracle.valid_training.ids_wrong(merges, UNTIL_EXHAUSTED)
            assert problem is None, problem
        problem = oracle.valid_training.not_greedy(text, merges)
        expect.fail_invalid_training(text, merges, UNTIL_EXHAUSTED, problem and f"training {text!r} until no "
                                     f"pair is left: {problem}")
        with checking("train.no-early-stop"):
            problem = oracle.valid_training.stopped_early(text, merges, UNTIL_EXHAUSTED)
            assert problem is None, f"training {text!r} until no pair is left: {problem}"


@pytest.mark.claim("train.exhausted")
@given(strategies.tie_heavy_texts)
def test_asking_for_more_merges_than_pairs_allow_changes_nothing(bpe, text):
    """Trained past the point where no pair is left, the table is the one trained to exactly that many merges:
    no merge of a pair of count 0, under a new id or a reused one."""
    big = merges_of(bpe.train(text, UNTIL_EXHAUSTED))
    small = merges_of(bpe.train(text, 256 + len(big)))
    if oracle.valid_training.ids_wrong(small, 256 + len(big)) is not None or len(small) != len(big):
        return  # ids wrong, or fewer merges than asked, where no pair ran out: other claims' failures
    with checking("train.exhausted"):
        assert big == small, (
            f"train({text!r}, {UNTIL_EXHAUSTED}) gave {big}, but train({text!r}, {256 + len(big)}) gave {small}: "
            "once no pair is left, training must stop"
        )


SPECIAL_STRINGS = ("<|endoftext|>", "<|im_start|>")


@pytest.mark.claim("train.no-implicit-specials", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop")
@given(strategies.special_in_text, strategies.vocab_sizes)
def test_a_special_tokens_text_is_trained_on_like_any_other_when_no_specials_are_asked(bpe, text, vocab_size):
    """train(text, vocab_size) has no special tokens: <|endoftext|> in the text is 13 bytes to learn from."""
    vocab_size = oracle.valid_training.merges_that_cannot_exhaust(text, vocab_size)
    merges = merges_of(bpe.train(text, vocab_size))
    problem = oracle.valid_training.violation(text, merges, vocab_size)
    # a hard-coded special cut out, made a boundary or kept whole: the classifier (spec/cases/expect.py) says so
    expect.fail_invalid_training(text, merges, vocab_size, problem, note=(
        " (with no special tokens asked, their strings are text like any other)"
        if expect.specials_explain(text, merges, vocab_size) else ""))
