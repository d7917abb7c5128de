"""A special token hard-coded in a trainer (a CS336 habit) is train.no-implicit-specials' defect, whether the text
reaches the check whole (no special asked) or already cut at other specials asked (fifth round, open kind 7)."""

from __future__ import annotations

from tests.support import run_spec_inline

ALWAYS_CUTS_ENDOFTEXT = '''
"""Cuts <|endoftext|> out of every text, asked or not, beside the specials asked."""
import reference
from reference import build_vocab, decode, encode, encode_iterable, get_stats, merge  # noqa: F401


def train(text, vocab_size, *, special_tokens=None, pattern=None, tie_rule=None):
    asked = list(special_tokens or [])
    return reference.train(text, vocab_size, special_tokens=asked + ["<|endoftext|>"] * ("<|endoftext|>" not in asked),
                           pattern=pattern)
'''


def test_a_hard_coded_cut_met_with_other_specials_asked_is_its_own_claims(tmp_path, capsys):
    impl = tmp_path / "always_cuts.py"
    impl.write_text(ALWAYS_CUTS_ENDOFTEXT, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "--level", "special",
                          "-k", "worked_cuts or no_implicit or endoftext",
                          files=["spec/test_train_specials.py", "spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    failed = {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"}
    assert failed == {"train.no-implicit-specials"}, failed
    blamed = run.report["claims"]["train.no-implicit-specials"]["tests"]["failed"]
    assert any("unasked-endoftext-is-text" in test for test in blamed), blamed  # met with another special asked
