"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

#: Tiny alphabets make ties everywhere, so only the right tie rule survives.
ALPHABETS = ("ab", "abc", "abcd", "aé", "a你", "xy z")

tie_heavy_texts = st.sampled_from(ALPHABETS).flatmap(lambda alphabet: st.text(alphabet=alphabet, max_size=48))

#: Any string of Unicode scalar values (no lone surrogates: they have no UTF-8 form).
any_texts = st.text(max_size=80)

#: Text that mixes scripts, widths and invalid-looking byte neighbours.
mixed_texts = st.text(
    alphabet=st.one_of(st.sampled_from("ab \n\tçé你好🌍\u0301ＡＢ—"), st.characters(codec="utf-8")),
    max_size=60,
)

vocab_sizes = st.integers(min_value=256, max_value=300)

id_lists = st.lists(st.integers(min_value=0, max_value=270), max_size=60)
small_id_lists = st.lists(st.integers(min_value=0, max_value=4), max_size=40)
