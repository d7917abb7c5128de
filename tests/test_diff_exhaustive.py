"""bpe-kata diff tries every small input before searching at random (bpe_kata/tools/diff_exhaustive.py, issue 37):
a divergence confined to one rare byte pair is found and shrunk in seconds, where a random search took minutes."""

from __future__ import annotations

import time

from bpe_kata.tools import diff, diff_report
from bpe_kata.tools.diff_sides import resolve

SWAPPED = '''from reference import *  # noqa: F401,F403
import reference


def encode(text, merges, **keywords):
    """The reference, but ESC then DEL comes out as DEL then ESC."""
    ids = list(reference.encode(text, merges, **keywords))
    for i in range(len(ids) - 1):
        if ids[i] == 0x1B and ids[i + 1] == 0x7F:
            ids[i], ids[i + 1] = ids[i + 1], ids[i]
    return ids
'''


def test_one_rare_byte_pair_swapped_in_encode_is_found_and_shrunk_in_seconds(tmp_path):
    side = tmp_path / "swapped_pair.py"
    side.write_text(SWAPPED, encoding="utf-8")
    started = time.monotonic()
    result = diff.run(resolve("reference"), resolve(str(side)), operations=("encode",), budget=20.0)
    (found,) = result.found
    assert found.divergence.given == {"text": "\x1b\x7f"}
    assert found.verdict.off == ["b"]
    assert time.monotonic() - started < 10 and found.seconds < 10


def test_a_divergence_found_among_token_pairs_is_shrunk_to_the_characters_that_part(tmp_path):
    side = tmp_path / "swapped_token.py"
    # the reference, but a text holding "th" and "e " comes out reversed: only texts of two tokens reach it
    side.write_text("from reference import *  # noqa: F401,F403\nimport reference\n\n\n"
                    "def encode(text, merges, **keywords):\n"
                    "    ids = list(reference.encode(text, merges, **keywords))\n"
                    "    return ids[::-1] if 'the ' in text else ids\n", encoding="utf-8")
    result = diff.run(resolve("reference"), resolve(str(side)), operations=("encode",), budget=20.0)
    (found,) = result.found
    assert found.divergence.given["text"] == "the "
    assert diff_report.input_bytes(found.divergence) == 4
