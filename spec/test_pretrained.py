"""Level pretrained: loaded with GPT-2's or cl100k_base's published table, an implementation
reproduces tiktoken exactly (same pieces, same ids); and the documents' facts about those
tokenizers, checked on tiktoken itself so that they run for every implementation.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec.blame import checking
from spec.shapes import ids_of, token_at

pytestmark = pytest.mark.level("pretrained")

#: The published tables, by tiktoken's names; the runner's ``published(name)`` fixture reads them
#: from the published files, and the suite checks that it knows exactly these.
TABLES = ("gpt2", "cl100k_base")
CORPORA = ("tinyshakespeare", "alice")

#: The documents' example strings, plus a few of the suite's own that exercise every branch
#: of the split patterns (contractions, case, CR LF, trailing space, scripts, emoji).
EXAMPLES = (
    "strawberry", " strawberry", "1234", "12345", "1000000", "3.14159", "2024",
    "    x = 1", "        x = 1", "\tx = 1", " SolidGoldMagikarp",
    "Alice was beginning to get very tired", "café — naïve — 日本語", "你好", "你好，世界",
    "分词是大模型许多怪现象的根源。", "the thin", "the other", "the tree ", "aaabdaaabac", "hii there",
    "A", "é", "世", "🌍", "ＡＢＣ ABC", "cafe\u0301", "\x80\x00\x7f",
    "I'm sure they'LL say it's 'quoted', we've DONE it'd",
    "def f(x):\n    return x  \r\n\r\n\n\tpass   \n  ", "a\u00a0b\u2003c  \t d\n\n\n",
    "$1,234.56 == 1e-9?!", "مرحبا بالعالم", "Привет, мир", "🌍🌍 👩‍👩‍👧", "   ", "\n",
)

#: Text made of the special tokens' pieces: whole specials of both tables, near misses, text.
SPECIAL_TEXTS = ("<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "<|endoftext", "<|", "|>")


# --- fixtures ------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def vocab_of(implementation, implementation_call):
    """``vocab_of(table)``: the implementation's build_vocab with the table's specials, built once."""
    cache: dict[tuple, dict] = {}

    def build(table) -> dict:
        key = (table.name, *implementation_call("build_vocab"))
        if key not in cache:
            cache[key] = implementation.build_vocab(table.merges, special_tokens=table.special_tokens)
        return cache[key]

    return build


@pytest.fixture(scope="session")
def corpus_ids(implementation, implementation_call):
    """``corpus_ids(table, name, text)``: the implementation's ids for a whole corpus, encoded once."""
    cache: dict[tuple, object] = {}

    def encode(table, name: str, text: str) -> list[int]:
        key = (table.name, name, *implementation_call("encode"))
        if key not in cache:
            try:
                cache[key] = ids_of(implementation.encode(text, table.merges, pattern=table.pattern,
                                                          special_tokens=table.special_tokens))
            except Exception as error:  # remember failures: a slow wrong encode runs once
                cache[key] = error
        if isinstance(cache[key], Exception):
            raise cache[key]
        return cache[key]

    return encode


# --- helpers -------------------------------------------------------------------------------

def implementation_tokens(bpe, vocab, table, text, **policy) -> tuple[list[int], list[bytes]]:
    """The implementation's ids (renumbered as published) and pieces for ``text``."""
    ids = ids_of(bpe.encode(text, table.merges, pattern=table.pattern, special_tokens=table.special_tokens,
                            **policy))
    return table.to_published(ids), [token_at(vocab, i) for i in ids]


def tiktoken_tokens(encoding, text, **policy) -> tuple[list[int], list[bytes]]:
    ids = encoding.encode(text, **policy)
    return ids, encoding.decode_tokens_bytes(ids)


def outcome(encode, *args, **policy):
    """What an encode call gives: its result, or the fact that it raised ValueError."""
    try:
        return encode(*args, **policy)
    except ValueError:
        return "ValueError"


def first_difference(got: list, want: list) -> str:
    """Where two long token lists part, shown briefly (a full diff of 300k tokens is useless)."""
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return (f"first difference at token {i} of {len(want)} (implementation has {len(got)}): "
            f"implementation {got[max(0, i - 2):i + 3]} vs tiktoken {want[max(0, i - 2):i + 3]}")


def assert_reproduces(bpe, vocab, table, encoding, text, **policy) -> None:
    assert implementation_tokens(bpe, vocab, table, text, **policy) == tiktoken_tokens(encoding, text, **policy)


# --- the implementation reproduces tiktoken -------------------------------------------------

# Short examples first: with --one-failure-per-claim a wrong encode stops there, cheaply.
@pytest.mark.claim("pretrained.reproduce")
@pytest.mark.parametrize("text", EXAMPLES)
@pytest.mark.parametrize("name", TABLES)
def test_document_examples_reproduce_tiktoken(bpe, published, vocab_of, name, text):
    table, encoding = published(name)
    vocab = vocab_of(table)
    ids = ids_of(bpe.encode(text, table.merges, pattern=table.pattern, special_tokens=table.special_tokens))
    want_ids, want_pieces = tiktoken_tokens(encoding, text)
    assert [token_at(vocab, i) for i in ids] == want_pieces
    assert table.to_published(ids) == want_ids
    assert bpe.decode(ids, vocab) == text


@pytest.mark.claim("pretrained.reproduce")
@pytest.mark.parametrize("name", TABLES)
def test_vocabulary_matches_the_published_tokens(bpe, published, vocab_of, name):
    table, encoding = published(name)
    vocab = vocab_of(table)
    ids = range(len(table.published_ids))
    assert [token_at(vocab, i) for i in ids] == [encoding.decode_single_token_bytes(p) for p in table.to_published(ids)]
    assert {text: token_at(vocab, idx) for text, idx in table.special_tokens.items()} == {
        text: text.encode("utf-8") for text in encoding.special_tokens_set}


@pytest.mark.corpus(*CORPORA)
@pytest.mark.claim("pretrained.reproduce")
@pytest.mark.parametrize("corpus_name", CORPORA)
@pytest.mark.parametrize("name", TABLES)
def test_whole_corpus_reproduces_tiktoken(bpe, published, vocab_of, corpus, corpus_ids, name, corpus_name):
    """Ids are compared; pieces (which the vocabulary test already pins) only to explain a miss."""
    table, encoding = published(name)
    text = corpus(corpus_name)
    ids = corpus_ids(table, corpus_name, text)
    want_ids = encoding.encode(text)
    vocab = vocab_of(table)
    if table.to_published(ids) != want_ids:
        pieces, want_pieces = [token_at(vocab, i) for i in ids], encoding.decode_tokens_bytes(want_ids)
        pytest.fail(first_difference(pieces, want_pieces) if pieces != want_pieces else
                    first_difference(table.to_published(ids), want_ids), pytrace=False)
    assert bpe.decode(ids, vocab) == text


# Hypothesis text: any Unicode, indented code, numbers.
_INDENTS = st.sampled_from(["", " ", "  ", "    ", "        ", "\t", "\t\t", "   \t", "\u3000"])
_CODE_WORDS = st.sampled_from(["def", "f(x):", "return", "x", "=", "==", "1", "+", "self.y", "#", "if", "else:",
                               "'s'", '"""doc"""', "[1, 2]", "{}", "x_1", "print", "None", "->", "", "é"])
code_texts = st.lists(
    st.tuples(_INDENTS, st.lists(_CODE_WORDS, max_size=6).map(" ".join), st.sampled_from(["", " ", "  "])),
    max_size=6,
).flatmap(lambda lines: st.sampled_from(["\n", "\r\n", "\n\n"]).map(
    lambda end: end.join(indent + line + tail for indent, line, tail in lines)))
number_texts = st.one_of(
    st.integers().map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(alphabet="0123456789.,-+e x\n", max_size=40),
    st.lists(st.integers(min_value=0, max_value=10**12), max_size=6).map(lambda ns: " ".join(map(str, ns))),
)
#: Characters Python's Unicode database assigns. A code point assigned only in a newer Unicode
#: version is a letter to one regex engine and unassigned to another (the ``regex`` module
#: and tiktoken's Rust engine disagree on such code points), which says nothing about BPE.
#: Python's database (Unicode 14 to 16 for Python 3.10 to 3.14) is not newer than tiktoken's.
assigned_characters = st.characters(exclude_categories=("Cs", "Cn"))
unicode_texts = st.text(assigned_characters, max_size=80)


def holds_no_special_text(text: str) -> bool:
    """No published special token's text (every one starts with ``<|``; Hypothesis draws such strings from the
    suite's own source). Under encode's default policy both the implementation and tiktoken refuse them, and
    that policy is a claim of its own, checked by test_special_tokens_follow_tiktoken_policy: here a right
    implementation whose special tokens are not started would not run, and a wrong one be blamed twice."""
    return "<|" not in text


@pytest.mark.claim("pretrained.reproduce")
@pytest.mark.parametrize("name", TABLES)
@given(text=st.one_of(unicode_texts, code_texts, number_texts).filter(holds_no_special_text))
def test_generated_text_reproduces_tiktoken(bpe, published, vocab_of, name, text):
    table, encoding = published(name)
    assert_reproduces(bpe, vocab_of(table), table, encoding, text)


#: Assigned characters among surrogates that pair, when adjacent in UTF-16 order, only into
#: long-assigned characters (U+10000, U+1030D, U+1F000, U+1F30D).
surrogate_texts = st.lists(st.one_of(st.sampled_from(("\ud800", "\ud83c", "\udc00", "\udf0d")), assigned_characters),
                           max_size=24).map("".join)


@pytest.mark.claim("pretrained.reproduce", "surrogates.repaired")
@pytest.mark.parametrize("name", TABLES)
@given(text=surrogate_texts)
def test_surrogates_are_repaired_as_tiktoken_repairs_them(bpe, published, vocab_of, name, text):
    table, encoding = published(name)
    with checking("surrogates.repaired", "pretrained.reproduce"):
        assert_reproduces(bpe, vocab_of(table), table, encoding, text)


# Special tokens under tiktoken's policy: allowed, disallowed, or neither.
special_texts = st.lists(
    st.one_of(st.sampled_from(SPECIAL_TEXTS), st.text(assigned_characters, max_size=8), code_texts), max_size=6
).map("".join)
POLICIES = {
    "all allowed": dict(allowed_special="all"),
    "one allowed, the rest disallowed": dict(allowed_special={"<|endoftext|>"}, disallowed_special="all"),
    "none allowed, all disallowed": dict(),
    "neither: plain text": dict(allowed_special=frozenset(), disallowed_special=frozenset()),
}


def refused_or_not(got: object, want: object, text: str, table) -> str:
    """The claim a difference breaks: on a text holding a special, a refusal where tiktoken encodes, or ids where it
    refuses, is the policy's on any table (special.policy, judged at its own level too); any other difference, the
    published table's reproduction (a minbpe class whose own default allows every special was charged
    pretrained.reproduce)."""
    policy = (got == "ValueError") != (want == "ValueError") and any(s in text for s in table.special_tokens)
    return "special.policy" if policy else "pretrained.reproduce"


@pytest.mark.claim("pretrained.reproduce", "special.policy")
@pytest.mark.parametrize("name", TABLES)
@given(texts=st.lists(special_texts, min_size=1, max_size=3))
def test_special_tokens_follow_tiktoken_policy(bpe, published, vocab_of, name, texts):
    """Every policy on each text: drawing a text costs more than encoding it four times."""
    table, encoding = published(name)
    vocab = vocab_of(table)
    for text in texts:
        for policy, options in POLICIES.items():
            got = outcome(implementation_tokens, bpe, vocab, table, text, **options)
            want = outcome(tiktoken_tokens, encoding, text, **options)
            with checking(refused_or_not(got, want, text, table)):
                assert got == want, f"policy {policy!r}, text {text!r}"


@pytest.mark.claim("pretrained.reproduce", "special.policy")
@pytest.mark.parametrize("name", TABLES)
def test_special_token_examples(bpe, published, vocab_of, name):
    table, encoding = published(name)
    vocab = vocab_of(table)
    text = "one<|endoftext|>two <|endofprompt|><|endoftext|>"
    for policy in POLICIES.values():
        got = outcome(implementation_tokens, bpe, vocab, table, text, **policy)
        want = outcome(tiktoken_tokens, encoding, text, **policy)
        with checking(refused_or_not(got, want, text, table)):
            assert got == want, policy


# --- the facts, through the implementation (fact + contract) -------------------------------

NUMBER_SPLITS = {"1234": ["123", "4"], "12345": ["123", "45"], "1000000": ["100", "000", "0"],
                 "3.14159": ["3", ".", "141", "59"], "2024": ["202", "4"]}
INDENT_SPLITS = {"    x = 1": ["   ", " x", " =", " ", "1"], "        x = 1": ["       ", " x", " =", " ", "1"],
                 "\tx = 1": ["\tx", " =", " ", "1"]}


def pieces_as_text(table, ids) -> list[str]:
    return [piece.decode("utf-8") for piece in table.pieces(ids)]


@pytest.mark.claim("pretrained.cl100k-numbers")
@pytest.mark.parametrize("text", NUMBER_SPLITS)
def test_cl100k_number_groups_through_the_implementation(bpe, published, text):
    table, _ = published("cl100k_base")
    assert pieces_as_text(table, ids_of(bpe.encode(text, table.merges, pattern=table.pattern))) == NUMBER_SPLITS[text]


@pytest.mark.claim("pretrained.cl100k-indent")
@pytest.mark.parametrize("text", INDENT_SPLITS)
def test_cl100k_indentation_through_the_implementation(bpe, published, text):
    table, _ = published("cl100k_base")
    assert pieces_as_text(table, ids_of(bpe.encode(text, table.merges, pattern=table.pattern))) == INDENT_SPLITS[text]


# --- the facts, on tiktoken itself (no implementation involved) ------------------------------

def tiktoken_pieces(encoding, text: str) -> list[str]:
    return [piece.decode("utf-8") for piece in encoding.decode_tokens_bytes(encoding.encode(text))]


@pytest.mark.claim("pretrained.gpt2-size", "special.gpt2-eot")
def test_gpt2_has_256_bytes_50000_merges_and_one_special_token(published):
    table, encoding = published("gpt2")
    single_bytes = sum(len(encoding.decode_single_token_bytes(i)) == 1 for i in range(256))
    with checking("pretrained.gpt2-size"):
        assert (encoding.n_vocab, single_bytes, len(table.merges)) == (50_257, 256, 50_000)
    with checking("special.gpt2-eot"):
        assert (encoding.special_tokens_set, encoding.eot_token) == ({"<|endoftext|>"}, 50_256)
        assert encoding.encode("<|endoftext|>", allowed_special="all") == [50_256]


@pytest.mark.claim("pretrained.cl100k-size")
def test_cl100k_has_100277_ids(published):
    table, encoding = published("cl100k_base")
    assert (encoding.n_vocab, encoding.max_token_value, len(table.published_ids)) == (100_277, 100_276, 100_256)
    assert encoding.encode("<|endofprompt|>", allowed_special="all") == [100_276]


@pytest.mark.claim("pretrained.cl100k-numbers")
def test_cl100k_number_groups(published):
    _, encoding = published("cl100k_base")
    assert {text: tiktoken_pieces(encoding, text) for text in NUMBER_SPLITS} == NUMBER_SPLITS


@pytest.mark.claim("pretrained.cl100k-indent")
def test_cl100k_indentation(published):
    _, encoding = published("cl100k_base")
    assert {text: tiktoken_pieces(encoding, text) for text in INDENT_SPLITS} == INDENT_SPLITS


@pytest.mark.claim("regex.space-runs")
def test_cl100k_keeps_space_runs_gpt2_splits_them(published):
    line = " " * 8 + "x = 1"
    assert tiktoken_pieces(published("cl100k_base")[1], line) == [" " * 7, " x", " =", " ", "1"]
    assert tiktoken_pieces(published("gpt2")[1], line) == [" "] * 7 + [" x", " =", " 1"]


@pytest.mark.claim("pretrained.strawberry")
def test_strawberry_is_a_few_opaque_pieces(published):
    cl100k, gpt2 = published("cl100k_base")[1], published("gpt2")[1]
    assert tiktoken_pieces(cl100k, "strawberry") == ["str", "aw", "berry"]
    assert tiktoken_pieces(gpt2, "strawberry") == ["st", "raw", "berry"]
    assert tiktoken_pieces(cl100k, " strawberry") == tiktoken_pieces(gpt2, " strawberry") == [" strawberry"]


@pytest.mark.claim("pretrained.glitch-token")
def test_solidgoldmagikarp_is_one_gpt2_token(published):
    _, encoding = published("gpt2")
    assert encoding.encode(" SolidGoldMagikarp") == [43_453]
    assert encoding.decode_single_token_bytes(43_453) == b" SolidGoldMagikarp"


@pytest.mark.corpus(*CORPORA)
@pytest.mark.claim("pretrained.bytes-per-token")
@pytest.mark.parametrize("corpus_name", CORPORA)
def test_english_is_about_four_bytes_per_token(published, corpus, corpus_name):
    """Informative: 'about 4' is asserted within the ledger's tolerance, 3.0 to 5.0."""
    _, encoding = published("cl100k_base")
    text = corpus(corpus_name)
    assert 3.0 <= len(text.encode("utf-8")) / len(encoding.encode(text)) <= 5.0
