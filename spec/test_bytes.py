"""Level bytes: the 256 byte values are the whole base alphabet (and UTF-8 facts behind it)."""

from __future__ import annotations

import pytest
from hypothesis import given

from spec import strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.shapes import ids_of

pytestmark = pytest.mark.level("bytes")


# The worked cases of spec/cases/bytes.json run here too, one test each, as
# test_encode_with_no_merges_case[<case id>] (made by spec/cases/collect.py).


@pytest.mark.claim("bytes.base-256", "roundtrip.no-unk")
@given(strategies.any_texts)
def test_empty_table_encodes_to_utf8_bytes(bpe, text):
    ids = ids_of(bpe.encode(text, {}))
    with checking("roundtrip.no-unk"):
        assert [i for i in ids if not 0 <= i < 256] == [], "ids that are not bytes, with no merges"
    with checking("bytes.base-256"):
        expect_equal(ids, list(text.encode("utf-8")), "ids")
