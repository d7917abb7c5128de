"""The corpus claims through the spec's own tables: a wrong encode still fails the curve, and says where."""

from __future__ import annotations

import pytest

from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable
from tests.support import REPO_ROOT, run_spec_inline

IMPLEMENTATIONS = REPO_ROOT / "tests" / "implementations"


@pytest.fixture(scope="module", autouse=True)
def alice_text():
    try:
        CorpusFinder().path("alice")
    except CorpusUnavailable as error:
        pytest.skip(f"corpus unavailable: {error}")


@pytest.mark.parametrize("stem", ["wrong_encode_by_frequency", "wrong_encode_longest_match"])
def test_a_wrong_encode_fails_the_bytes_per_token_curve_naming_a_piece(tmp_path, capsys, stem):
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / f"{stem}.py"), "--claim", "corpus.d1-curve",
                          "-k", "curve-512", files=["spec/test_encode.py"], capsys=capsys)
    assert run.returncode == 1
    assert run.claim_status("corpus.d1-curve") == "failed"
    assert "a piece of alice, at vocab_size 512" in run.output
