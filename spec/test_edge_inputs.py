"""Level bytes: text from the regions other generators never reached encodes to its own bytes, id for id.

``any_texts`` draws from all of Unicode, so NUL followed by digits, a lone CR, CRLF, a BOM
or one of the rarer whitespace characters comes up once in thousands of draws. Real
implementations went wrong exactly there and passed every level (issue 37, kind 6): a port
that read "NUL then digits" as an id, a text-mode read that folded CR and CRLF, a codec that
dropped a BOM. These draws are made of such units, and of every byte pair, so each shows.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from spec import strategies
from spec.blame import checking
from spec.compare import expect_equal
from spec.shapes import ids_of

pytestmark = pytest.mark.level("bytes")


@pytest.mark.claim("bytes.base-256")
def test_every_edge_unit_alone_and_every_two_of_them_encode_to_their_bytes(bpe):
    """Tried exhaustively first: each unit, whitespace character and control alone, and every two units."""
    alone = (*strategies.EDGE_UNITS, *strategies.WHITESPACE, *strategies.CONTROLS)
    texts = (*alone, *(first + second for first in strategies.EDGE_UNITS for second in strategies.EDGE_UNITS))
    with checking("bytes.base-256"):
        for text in texts:
            expect_equal(ids_of(bpe.encode(text, {})), list(text.encode("utf-8")), f"ids of {text!r}")


@pytest.mark.claim("bytes.base-256")
@given(strategies.edge_texts)
def test_controls_whitespace_line_ends_and_nul_digits_encode_to_their_bytes(bpe, text):
    with checking("bytes.base-256"):
        expect_equal(ids_of(bpe.encode(text, {})), list(text.encode("utf-8")), "ids")


@pytest.mark.claim("bytes.base-256")
@given(strategies.byte_pair_texts)
def test_every_byte_pair_encodes_to_its_bytes(bpe, text):
    """Any two bytes, read as UTF-8 with replacement: control pairs, NUL and a digit, a lead and a continuation."""
    with checking("bytes.base-256"):
        expect_equal(ids_of(bpe.encode(text, {})), list(text.encode("utf-8")), "ids")
