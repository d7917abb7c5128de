"""Level train: merges learned in order from the bytes, ties to the pair counted first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import corpus_values, mistakes, oracle, replay, strategies
from spec.blame import checking
from spec.cases import expect
from spec.compare import expect_equal
from spec.refusals import refused
from spec.shapes import merges_of, outcome_of, pairs_of
from spec.table_ids import ids_claim
from spec.trained_vocab import vocab_of_trained

pytestmark = pytest.mark.level("train")


# The worked cases of spec/cases/train.json run here too, one test each, as
# test_train_case[<case id>] (made by spec/cases/collect.py).


@pytest.mark.claim("train.tie-first-counted", "train.tie-recorded", "train.ids-from-256")
@given(strategies.tie_heavy_texts, strategies.vocab_sizes)
def test_train_equals_oracle_on_tie_heavy_texts(bpe, text, vocab_size):
    merges = merges_of(bpe.train(text, vocab_size))
    with checking(ids_claim(text, merges, vocab_size)):
        assert [idx for _, idx in merges] == list(range(256, 256 + len(merges)))
    expect.fail_invalid_training(text, merges, vocab_size, oracle.valid_training.not_greedy(text, merges))
    with checking("train.tie-first-counted", own_training=True):
        expect_equal(merges, merges_of(oracle.train(text, vocab_size)), "merges")


@pytest.mark.claim("train.most-frequent", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop",
                    "bytes.no-normalization")
@given(st.one_of(strategies.tie_heavy_texts, strategies.unicode_texts), strategies.vocab_sizes)
def test_each_merge_is_a_most_frequent_pair_whatever_the_tie_rule(bpe, text, vocab_size):
    """Replayed in table order, each merge takes a pair of the highest count then, under the next id."""
    merges = merges_of(bpe.train(text, vocab_size))
    not_greedy = oracle.valid_training.not_greedy(text, merges)
    # an early stop is judged on a table replayed in a right order only: in a wrong one it means nothing
    early = oracle.valid_training.stopped_early(text, merges, vocab_size) if not_greedy is None else None
    for claim, problem in ((ids_claim(text, merges, vocab_size), oracle.valid_training.ids_wrong(merges, vocab_size)),
                           ("train.no-early-stop", early)):
        charged, how = expect.fold_or(claim, text, merges, vocab_size) if problem is not None else (claim, "")
        with checking(charged):
            assert problem is None, problem + how
    expect.fail_invalid_training(text, merges, vocab_size, not_greedy)


@pytest.mark.claim("bytes.no-normalization", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop")
@given(strategies.unnormalized_texts, strategies.vocab_sizes)
def test_training_learns_the_bytes_as_given_never_normalised(bpe, text, vocab_size):
    """CR, CRLF, decomposed letters and combining marks are bytes like any other: no NFC, no line-end folding."""
    vocab_size = oracle.valid_training.merges_that_cannot_exhaust(text, vocab_size)
    merges = merges_of(bpe.train(text, vocab_size))
    problem = oracle.valid_training.violation(text, merges, vocab_size)
    # valid on the normalised text: the trainer normalised; invalid on both: a training claim's failure
    expect.fail_invalid_training(text, merges, vocab_size, problem and f"{problem} (CR, CRLF, NFD and NFC forms are "
                                 "different bytes: never normalise)")


@pytest.mark.claim("merge.left-to-right", "train.tie-recorded")
@given(strategies.run_texts, strategies.vocab_sizes)
def test_training_merges_odd_runs_from_the_left(bpe, text, vocab_size):
    """In aaa, aa is merged at the left ([aa, a]); a merge from the right leaves other pairs to count."""
    vocab_size = oracle.valid_training.merges_that_cannot_exhaust(text, vocab_size)
    merges = merges_of(bpe.train(text, vocab_size))
    problem = oracle.valid_training.not_greedy(text, merges)
    # confirmed on the plainest run: a trainer that merges from the right learns (a, aa) from aaa, not (aa, a)
    from_the_right = (problem is not None
                      and oracle.valid_training.not_greedy(text, merges, merge=mistakes.merge_from_the_right) is None
                      and merges_of(bpe.train("aaa", 258)) == [((97, 97), 256), ((97, 256), 257)])
    if from_the_right:
        with checking("merge.left-to-right"):
            assert problem is None, problem + " (it is what merging runs from the right gives)"
    expect.fail_invalid_training(text, merges, vocab_size, problem)


@pytest.mark.claim("train.ids-from-256", "train.tie-recorded", "bytes.no-normalization")
@given(strategies.mixed_texts, strategies.vocab_sizes)
def test_ids_are_consecutive_from_256_in_training_order(bpe, text, vocab_size):
    merges = merges_of(bpe.train(text, vocab_size))
    ids = [idx for _, idx in merges]
    with checking(ids_claim(text, merges, vocab_size)):
        assert ids == list(range(256, 256 + len(ids)))
        assert len(ids) <= vocab_size - 256
    # valid only on the normalised text: bytes.no-normalization; the classifier says which claim otherwise
    expect.fail_invalid_training(text, merges, vocab_size, oracle.valid_training.not_greedy(text, merges))


@pytest.mark.claim("train.no-early-stop", "train.exhausted")
@given(strategies.mixed_texts, strategies.vocab_sizes)
def test_merges_stop_only_when_asked_or_when_no_pair_is_left(bpe, text, vocab_size):
    merges = merges_of(bpe.train(text, vocab_size))  # an exception here is train.exhausted's root cause
    if oracle.valid_training.not_greedy(text, merges) is not None:
        return  # replayed in a wrong order, the ids left mean nothing: train.tie-recorded's failure, checked elsewhere
    with checking("train.no-early-stop"):  # a pair left in some chunk (under a fixed split) or in the text
        assert (problem := oracle.valid_training.stopped_early(text, merges, vocab_size)) is None, problem


@pytest.mark.claim("train.no-implicit-specials", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop")
@pytest.mark.parametrize("special", ["<|endoftext|>", "<|im_start|>"])
def test_text_that_looks_like_a_special_token_is_plain_text_when_none_is_asked(bpe, special):
    """train(text, vocab_size) has no special tokens: a trainer that cuts a well-known one out of the text
    (hard-coded, issue 38) learns from other text than it was given."""
    text = f"{special}The cat sat.{special}The cat ran.\n{special}{special}" * 3
    merges = merges_of(bpe.train(text, 280))
    problem = oracle.valid_training.violation(text, merges, 280)
    # cut out, a boundary or kept whole: the classifier (spec/cases/expect.py) tells a hard-coded special
    expect.fail_invalid_training(text, merges, 280, problem,
                                 note=f" (no special tokens were asked: {special!r} is text like any other)")




@pytest.mark.claim("train.no-implicit-specials", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop")
@pytest.mark.parametrize("text", strategies.CUT_BEFORE_A_SPECIAL, ids=["tie-below", "tie-above"])
def test_no_pair_is_lost_at_a_special_tokens_string_when_none_is_asked(bpe, text):
    merges = merges_of(bpe.train(text, 257))
    expect.fail_invalid_training(text, merges, 257, oracle.valid_training.violation(text, merges, 257),
                                 note=" (no special tokens were asked: no cut at '<|endoftext|>', whatever the file's "
                                 "size or the number of processes)")


@pytest.mark.claim("train.prefix")
@given(strategies.tie_heavy_texts, strategies.vocab_sizes, st.integers(0, 20))
def test_smaller_vocab_is_a_prefix_of_larger(bpe, text, vocab_size, extra):
    small, large = merges_of(bpe.train(text, vocab_size)), merges_of(bpe.train(text, vocab_size + extra))
    assert large[: len(small)] == small


@pytest.mark.claim("train.min-vocab")
@pytest.mark.parametrize("vocab_size", [-1, 0, 1, 100, 255])
def test_vocab_below_256_is_an_error(bpe, vocab_size):
    refused(lambda: bpe.train("some text to train on", vocab_size), lambda: bpe.train("some text to train on", 260))


@pytest.mark.claim("train.cross-char-pairs")
def test_pairs_across_characters_merge_like_any_other(bpe):
    # 先合并 is E5 85 88 | E5 90 88 | E5 B9 B6: (0x88, 0xE5) spans 合 and 并
    merges = dict(merges_of(bpe.train("先合并" * 30, 256 + 12)))
    assert (0x88, 0xE5) in merges


@pytest.mark.claim("train.utf8-structure")
def test_typographic_punctuation_rediscovers_utf8_lead_bytes(bpe):
    text = "“Yes”—said one. ‘No’—said two… “Maybe”—said three’s friend… " * 8
    first = [pair for pair, _ in merges_of(bpe.train(text, 259))]
    assert (0xE2, 0x80) in first


@pytest.mark.claim("train.deterministic", "train.tie-recorded", "train.ids-from-256", "train.no-early-stop",
                   "bytes.no-normalization")
def test_same_merges_under_any_hash_seed(bpe, spawn_implementation):
    """Fresh processes under different hash seeds train the same table as each other, on a text with runs.

    The runs are compared with each other, not with the oracle: a trainer with another
    (deterministic) tie rule is still deterministic. Results travel on the protocol, so
    the implementation may print what it likes.
    """
    # runs of one symbol (some starting at an odd position) make overlapping occurrences, so an overlap rule
    # that follows a hash or object order shows here; the CJK characters give many equal counts
    text = ("".join(chr(c) for c in range(0x4E00, 0x4E40)) * 2 + " the cat sat on the mat " * 3
            + " baaaaaaa xcccccc ddddddddd  eeee " * 3)
    # an error here is the same root cause as elsewhere, with its place in this process; the table is this
    # process's, so a failed check of it is run again with an operation swapped (bpe_kata/verdict/substitution.py)
    own = merges_of(bpe.train(text, 320))
    seeds = ("0", "1", "42", "random")
    children = spawn_implementation.each(*({"env_changes": {"PYTHONHASHSEED": seed}} for seed in seeds))
    tables = {}
    for seed, child in zip(seeds, children):
        tables[seed] = merges_of(child.train(text, 320))
        child.close()
    first = tables["0"]
    differing = [seed for seed, table in tables.items() if table != first]
    with checking("train.deterministic"):
        assert not differing, f"PYTHONHASHSEED={differing[0]} trains another table than PYTHONHASHSEED=0"
    problem = oracle.valid_training.violation(text, own, 320)  # valid BPE under whatever tie rule it uses
    expect.fail_invalid_training(text, own, 320, problem)


@pytest.mark.corpus("alice")
@pytest.mark.claim("corpus.d1-merges")
def test_alice_merge_counts(bpe, corpus, trained, spec_table):
    """The counts each of the first twelve merges had when it was chosen (under a split: inside its chunks, as
    the oracle's own table under that split had them, spec/corpus_values.py)."""
    text = corpus("alice")
    _, counts = replay.replay(text, merges_of(trained("alice", text, 268)), counts=True)
    assert counts == corpus_values.value(
        "the counts of alice's first twelve merges", [4433, 3302, 3247, 2335, 2253, 2011, 1904, 1813, 1703, 1554,
                                                      1467, 1270],
        lambda: replay.replay(text, spec_table("alice", 268).items(), counts=True)[1])


@pytest.mark.corpus("alice")
@pytest.mark.claim("corpus.d1-space-left")
def test_alice_early_merges_mostly_involve_a_space_on_the_left(bpe, corpus, trained):
    text = corpus("alice")
    # an observation about whole-text training, which cannot be restated under a split: there a space only begins
    # a chunk, so no merge has one on its right, and the oracle's own first twelve (GPT-2's or GPT-4's split) hold
    # five spaces, not the most
    oracle.split.needs_whole_text("the observation that most of alice's first twelve merges hold a space")
    table = trained("alice", text, 268)
    with checking("train.no-early-stop"):  # alice has pairs left long after twelve merges
        assert len(table) == 12, f"training alice to vocab_size 268 gave {len(table)} merges, not 12"
    vocab = vocab_of_trained(table)
    tokens = [vocab[idx] for idx in range(256, 268)]
    with_space = [t for t in tokens if b" " in t]
    left = [t for t in with_space if t.startswith(b" ")]
    assert len(with_space) > len(tokens) / 2
    assert len(left) > len(with_space) - len(left)


#: (97, 97) occurs 4 times in 'aaaaa' counted overlapping, 2 times counted without overlaps; (120, 121) 3 times in
#: ' xyxyxy'. Under no split and under each published pattern ('aaaaa' | ' xyxyxy') the first merge is (97, 97) only
#: when overlapping occurrences are counted, whatever the tie rule (no tie is involved either way).
OVERLAPS_TEXT = "aaaaa xyxyxy"


@pytest.mark.claim("pairs.adjacent-overlapping", "train.most-frequent")
def test_training_counts_overlapping_pairs(bpe):
    """pairs.adjacent-overlapping through training, for code whose pairs are counted inside train (a course's
    run_train_bpe has no get_stats): blamed on it only when the merge learned is the one counting without overlaps
    picks; any other first merge is train.most-frequent's."""
    pairs = [pair for pair, _ in merges_of(bpe.train(OVERLAPS_TEXT, 257))]  # the ids are train.ids-from-256's
    without_overlaps = pairs == [(120, 121)] and not _own_get_stats_counts_overlaps(bpe)
    with checking("pairs.adjacent-overlapping" if without_overlaps else "train.most-frequent"):
        expect_equal(pairs, [(97, 97)], f"pairs merged by train({OVERLAPS_TEXT!r}, 257)"
                     + (" (what counting pairs without overlaps learns)" if without_overlaps else ""))


#: Trained first, then the text whose table is compared: a tokenizer that keeps what it learned first would hold the
#: merge (97, 97) too, or give (120, 121) another id.
FIRST_TEXT, SECOND_TEXT = "aaaa", "xyxyxy"


@pytest.mark.claim("train.starts-afresh")
@pytest.mark.parametrize("second_size", [257, 256], ids=["one-merge", "no-merge"])
def test_training_again_gives_what_a_first_training_gives(bpe, second_size):
    """Its own observable: the implementation's second training against its own first training of that text (not the
    oracle's), so only what a training carries over can fail it. A tokenizer class is trained twice on one object
    (the shape's ``train_again``; held out, sixth and seventh rounds: two minbpe-style classes set their merges only
    in ``__init__`` and added to them); code of plain functions is simply called twice. A second training that asks
    no merge forgets the first too (eighth round: a class reset its table only once it merged)."""
    fresh = merges_of(bpe.train(SECOND_TEXT, second_size))
    again = getattr(bpe, "train_again", None)
    if callable(again):
        table = again(FIRST_TEXT, SECOND_TEXT, 257, second_vocab_size=second_size)
    else:
        bpe.train(FIRST_TEXT, 257)
        table = bpe.train(SECOND_TEXT, second_size)
    expect_equal(merges_of(table), fresh, f"merges of train({SECOND_TEXT!r}, {second_size}) after "
                 f"train({FIRST_TEXT!r}, 257) (what a first training of it gives)")


@pytest.mark.claim("train.starts-afresh")
def test_decoding_after_training_again_is_decoding_after_a_first_training(bpe):
    """What a retrained tokenizer decodes: each id of the first training, alone, decodes (or is refused) as after a
    first training of the second text only, so no token of the first survives in the vocab a decode reads (tenth
    round, development: a class whose second training copied the first's vocab decoded 257 as 'aaaa'). A class is
    asked on one object with its own vocab (the shape's ``decode_after_training``); code of functions decodes with
    build_vocab of each training's table, so only state it keeps between calls can fail it."""
    first, second, ids = ("aaaaaaaa", 259), ("xyxyxy", 257), [97, 256, 257, 258]
    after = getattr(bpe, "decode_after_training", None)
    if not callable(after):
        def after(trainings, asked):
            for text, size in trainings:
                vocab = bpe.build_vocab(bpe.train(text, size))
            return [outcome_of(lambda idx=idx: bpe.decode([idx], vocab)) for idx in asked]
    fresh = after([second], ids)
    expect_equal(after([first, second], ids), fresh, f"decode of each of {ids} after train{first!r} then "
                 f"train{second!r} (what it gives after train{second!r} alone)")


def _own_get_stats_counts_overlaps(bpe) -> bool:
    """The implementation's own get_stats (where it has one) counts (97, 97) four times in five 'a's: its training
    then miscounts otherwise than through it, which is train.most-frequent's."""
    try:
        return dict(pairs_of(bpe.get_stats([97] * 5))) == {(97, 97): 4}
    except Exception:  # noqa: BLE001 - no get_stats of its own (a course shape), or one that fails: no evidence
        return False
