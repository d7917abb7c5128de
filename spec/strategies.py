"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

#: Tiny alphabets make ties everywhere, so only the right tie rule survives.
ALPHABETS = ("ab", "abc", "abcd", "aé", "a你", "xy z")

tie_heavy_texts = st.sampled_from(ALPHABETS).flatmap(lambda alphabet: st.text(alphabet=alphabet, max_size=48))

#: Any string of Unicode scalar values (no surrogates: ``surrogate_texts`` has those).
any_texts = st.text(max_size=80)

#: Python strs holding surrogate code points, which have no UTF-8 form: lone high and low
#: ones, pairs in UTF-16 order (tiktoken reads such a pair as one character), pairs the wrong
#: way round, among ordinary characters. Every level repairs them first (``oracle.scalar_text``).
surrogate_texts = st.lists(
    st.one_of(st.sampled_from(("\ud800", "\udbff", "\udc00", "\udfff", "\ud83c\udf0d", "\udf0d\ud83c", "\ufffd",
                               "a", "ab", " ", "\n", "é", "你", "🌍", "'s")),
              st.characters(categories=("Cs",)), st.characters(codec="utf-8")),
    max_size=24).map("".join)

#: Text that mixes scripts, widths and invalid-looking byte neighbours.
mixed_texts = st.text(
    alphabet=st.one_of(st.sampled_from("ab \n\tçé你好🌍\u0301ＡＢ—"), st.characters(codec="utf-8")),
    max_size=60,
)

vocab_sizes = st.integers(min_value=256, max_value=300)

id_lists = st.lists(st.integers(min_value=0, max_value=270), max_size=60)
small_id_lists = st.lists(st.integers(min_value=0, max_value=4), max_size=40)

#: Word-level corpora: few letters, so pairs tie often; a text, or a mapping whose order decides ties.
word_texts = st.lists(st.text(alphabet="abc", min_size=1, max_size=6), max_size=12).map(" ".join)
word_mappings = st.dictionaries(st.text(alphabet="abcd", min_size=1, max_size=6), st.integers(1, 5), max_size=8)
word_corpora = st.one_of(word_texts, word_mappings)
end_of_word_markers = st.sampled_from(["_", None, "", "</w>"])
word_budgets = st.integers(min_value=0, max_value=25)

#: Text for split patterns: letters, digits, spaces, newlines, apostrophes and symbols, few of each,
#: so pairs tie; contractions ('s, 'll) and runs of spaces come up often. Half are strings of short
#: words, so that some chunks repeat many times and how often a chunk occurs decides the merges.
chunky_texts = st.one_of(
    st.sampled_from(("ab '", "a b\n1", "xy  z.", "aé 9'", "a你 \n", "s'l a", "ab12 ")).flatmap(
        lambda alphabet: st.text(alphabet=alphabet, max_size=60)),
    st.lists(st.sampled_from(("ab", " ab", " ba", "a", " a", "b", "'s", "  ", "\n", "7", " 12", " é")),
             max_size=20).map("".join))

#: Special-token strings as they occur in practice and at their most awkward: markers, spaces,
#: newlines, non-ASCII, regex metacharacters, JSON quotes and backslashes, Unicode line breaks.
special_strings = st.sampled_from(
    ("<|endoftext|>", "<|im_start|>", "[END OF TURN]", "\n\n", "終わり", ".*+?", "a b", "\"\\", "x\u2028y", "\x85\r"))
