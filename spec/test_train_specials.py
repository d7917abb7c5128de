"""Level special, optional part: ``train(text, vocab_size, special_tokens=[...])``, training cut at the specials.

CS336's ``run_train_bpe(input_path, vocab_size, special_tokens)`` trains this way: the text is cut wherever a
special token occurs (the longest where several start at one place, as encode finds them), the special is
dropped, and each piece between is a document of its own. No pair is counted across a cut or inside a special;
with a pattern, each piece is then cut into chunks as usual. The table holds merges only: the specials take no
id in it. An implementation without the keyword has this part "not started".

Every check replays the table on the pieces with the property checker (spec/oracle/valid_training.py, a list of
texts being separate documents), so any documented tie rule passes.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.cases import expect
from spec.patterns import PATTERNS
from spec.shapes import merges_of
from spec.table_ids import ids_claim

pytestmark = [pytest.mark.level("special"), pytest.mark.claim("train.special-tokens")]

CLAIM = "train.special-tokens"


@pytest.fixture
def specials_in_training(require_feature) -> None:
    require_feature("train(special_tokens=)")


def _check(bpe, text: str, vocab_size: int, specials: list[str], pieces: list[str], pattern: str | None = None):
    """The table trained with ``specials`` is greedy training on ``pieces`` as separate documents."""
    keywords = {} if pattern is None else {"pattern": pattern}  # the level needs no train(pattern=)
    merges = merges_of(bpe.train(text, vocab_size, special_tokens=list(specials), **keywords))
    problem = oracle.valid_training.violation(pieces, merges, vocab_size, pattern)
    # ids not 256, 257, ... are their own claim's, whichever test drew the table (a pair learned twice, issue 37)
    claim = ids_claim(pieces, merges, vocab_size, pattern) if problem is not None \
        and oracle.valid_training.ids_wrong(merges, vocab_size) else CLAIM

    def plain(other: str, size: int) -> object:
        return bpe.train(other, size, special_tokens=[], **keywords)

    note = ""
    if problem is not None and not specials:  # no special asked: plain training, its claim the classifier's
        claim = expect.training_claim(text, merges, vocab_size, pattern, plain)
    elif problem is not None and claim == CLAIM:  # the specials are to blame only if plain training is right
        claim, note = _wrong_without_specials(text, merges, pieces, vocab_size, pattern, plain) or (claim, note)
    with checking(claim):
        assert problem is None, (f"train({text!r}, {vocab_size}, special_tokens={specials!r}"
                                 f"{'' if pattern is None else ', pattern=...'}) must learn from {pieces!r} as "
                                 f"separate documents, the specials left out: {problem}{note}")
    return merges


def _wrong_without_specials(text: str, merges: list, pieces: list[str], vocab_size: int, pattern: str | None,
                            plain: Callable[[str, int], object]) -> tuple[str, str] | None:
    """Blame needs evidence: when no asked special occurs in the text (one piece, the text itself), training it with
    no special asked must give the same table; if it gives the same wrong table (the same merges up to and including
    the first wrong one), the specials changed nothing and the defect is plain training's, charged by the one
    classifier of invalid tables (held out, seventh round: a text-mode read, met through a special that never
    occurs, was charged here). None otherwise, or when the control could not run: the specials' claim stands (with
    specials occurring, a second defect of the no-specials path would take the blame: eighth round, development)."""
    if pieces != [text]:
        return None
    try:
        alone = merges_of(plain(text, vocab_size))
    except Exception:  # noqa: BLE001  no answer is no evidence
        return None
    problem = oracle.valid_training.violation(text, alone, vocab_size, pattern)
    step = oracle.valid_training.first_bad_step(text, merges, pattern)
    same = alone == merges or (step is not None and alone[:step + 1] == merges[:step + 1])
    if problem is None or not same:
        return None
    claim = expect.training_claim(text, alone, vocab_size, pattern, plain)
    folded = claim == "bytes.no-normalization"
    how = expect.normalisation_note(text, alone, vocab_size, pattern, plain) if folded else ""
    return claim, (f"; with no special token asked, train({text!r}, {vocab_size}) makes the same wrong merges: not "
                   f"the specials' doing{how}")


#: Worked cases: (text, specials, the pieces training must see). Each is built so that a trainer that does not
#: cut learns another table: the pair across a cut, or a pair inside a special, would be the most frequent.
WORKED = {
    # "a" alone between the specials: no pair at all; joined, "aaaa" gives (a, a), kept, the special's bytes
    "cut-between-halves": ("a<|s|>a<|s|>a<|s|>a", ["<|s|>"], ["a", "a", "a", "a"]),
    # the halves "xy" | "yx": across the cuts, (y, y) and (x, x) would be counted too
    "pair-across-the-cut": ("xy<|s|>yx<|s|>xy<|s|>yx", ["<|s|>"], ["xy", "yx", "xy", "yx"]),
    # the special's own bytes are the most frequent run of the text: never learned from
    "special-never-learned": ("hi<|endoftext|>" * 5 + "hi", ["<|endoftext|>"], ["hi"] * 6),
    # the longest special at a place wins: "<|im|>start" whole, never "<|im|>" and then "start" as text
    "overlapping-longest-wins": ("ab<|im|>startab<|im|>ab<|im|>start", ["<|im|>", "<|im|>start"], ["ab", "ab", "ab"]),
    # two specials overlapping without being a prefix: the one starting first wins, the rest is text
    "overlapping-first-start": ("x<|a|>y<|a|>y", ["<|a", "a|>"], ["x", "|>y", "|>y"]),
    # back to back, at both ends: no empty document, nothing learned across
    "back-to-back": ("<|s|><|s|>ab<|s|><|s|>ab<|s|>", ["<|s|>"], ["ab", "ab"]),
    # specials that are spaces, newlines and regex metacharacters are strings like any other
    "awkward-strings": ("ab\n\nab.*+?ab", ["\n\n", ".*+?"], ["ab", "ab", "ab"]),
    # line ends kept as given, a special asked that never occurs: a trainer that reads its file in text mode folds
    # them, with or without the special (its fault is bytes.no-normalization's: ``_wrong_without_specials``)
    "line-ends-kept": ("a\r\nb\r\n\r\r", ["<|s|>"], ["a\r\nb\r\n\r\r"]),
    # a well-known special's string not asked, in a text longer than 64 bytes, after its middle: a trainer that cuts
    # its file at a hard-coded <|endoftext|> where its chunk-boundary search lands loses the pair before it (eighth
    # round, development: 64 boundaries asked of a short text never cut it); one text for each way a tie may break
    **{f"unasked-endoftext-cut-{way}": (text, ["<|s|>"], [text])
       for way, text in zip(("tie-below", "tie-above"), strategies.CUT_BEFORE_A_SPECIAL)},
    # no specials asked: the whole text, as train without the keyword
    "none-asked": ("ab<|s|>ab", [], ["ab<|s|>ab"]),
    # a well-known special's string not asked is text, with other specials asked too: a trainer that has it
    # hard-coded never learns (b, <) nor a pair inside it (train.no-implicit-specials)
    "unasked-endoftext-is-text": ("ab<|endoftext|>ab<|s|>ab<|endoftext|>", ["<|s|>"],
                                  ["ab<|endoftext|>ab", "ab<|endoftext|>"]),
}


@pytest.mark.parametrize("name", list(WORKED))
def test_worked_cuts(bpe, specials_in_training, name):
    text, specials, pieces = WORKED[name]
    _check(bpe, text, 300, specials, pieces)


def test_the_special_takes_no_id_in_the_table(bpe, specials_in_training):
    """The table holds merges only: ids 256, 257, ... for pairs of the text's pieces, none for the special."""
    merges = _check(bpe, "hi<|endoftext|>hi", 300, ["<|endoftext|>"], ["hi", "hi"])
    with checking(CLAIM):
        assert [idx for _, idx in merges] == list(range(256, 256 + len(merges))), merges


@pytest.fixture
def with_a_pattern(require_feature) -> None:
    require_feature("train(pattern=)")


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4"])
def test_specials_with_a_pattern(bpe, specials_in_training, with_a_pattern, pattern):
    """Cut at the specials first, then each piece into chunks: a chunk never spans a special, so the pattern's
    chunks of the joined text (" world!" at a cut, "!<|" ...) are never counted."""
    text = "hello world<|endoftext|>!hello world<|endoftext|> world!<|endoftext|>"
    _check(bpe, text, 300, ["<|endoftext|>"], ["hello world", "!hello world", " world!"], PATTERNS[pattern])


#: Texts of short pieces around specials, with specials that overlap, prefix one another or are awkward strings.
texts_and_specials = st.one_of(
    st.tuples(strategies.special_texts, strategies.special_sets),
    st.tuples(st.lists(st.one_of(strategies.special_strings,
                                 st.sampled_from(("ab", " ab", "a", " ", "\n", "é", "你好", "end", "of", "!"))),
                       max_size=20).map("".join),
              st.lists(strategies.special_strings, max_size=3, unique=True)),
)


@given(texts_and_specials, strategies.vocab_sizes)
def test_training_sees_the_pieces_between_specials(bpe, specials_in_training, text_and_specials, vocab_size):
    """Whatever the tie rule: the table is greedy training on the pieces the specials leave, each on its own."""
    text, specials = text_and_specials
    _check(bpe, text, vocab_size, specials, oracle.special.documents(text, specials))


@given(texts_and_specials, strategies.vocab_sizes, st.sampled_from(["gpt2", "gpt4"]))
def test_training_sees_the_chunks_of_the_pieces(bpe, specials_in_training, with_a_pattern, text_and_specials,
                                                 vocab_size, pattern):
    """With a pattern: each piece the specials leave is cut into chunks on its own, none spans a cut."""
    text, specials = text_and_specials
    _check(bpe, text, vocab_size, specials, oracle.special.documents(text, specials), PATTERNS[pattern])
