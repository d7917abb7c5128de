"""Level bytes: the 256 byte values are the whole base alphabet (and UTF-8 facts behind it)."""

from __future__ import annotations

import pytest
from hypothesis import given

from spec import cases, strategies
from spec.shapes import ids_of

pytestmark = pytest.mark.level("bytes")


@pytest.mark.parametrize("case", cases.params("bytes", "encode"))
def test_encode_with_no_merges_case(bpe, case):
    result = ids_of(bpe.encode(case["input"]["text"], cases.merges_from(case["input"]["merges"])))
    expected = case["expected"]
    assert (result == expected["ids"]) if "ids" in expected else (len(result) == expected["length"])


@pytest.mark.claim("bytes.base-256", "roundtrip.no-unk")
@given(strategies.any_texts)
def test_empty_table_encodes_to_utf8_bytes(bpe, text):
    assert ids_of(bpe.encode(text, {})) == list(text.encode("utf-8"))
