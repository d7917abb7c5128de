"""A special token hard-coded in a trainer (a CS336 habit) is train.no-implicit-specials' defect, with no special asked
and with others asked alike: with others asked, the piece that holds it, trained alone with no special asked, is
wrong the same way, and that evidence charges the defect to the plain form's claim (the control in
spec/test_train_specials.py; before it, the fifth and sixth rounds charged the cut beside asked specials to
train.special-tokens, so one defect failed two claims). Never an early stop (fifth round, open kind 7)."""

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


def test_a_hard_coded_cut_is_its_own_claim_with_no_special_asked_and_special_tokens_with_others(tmp_path, capsys):
    impl = tmp_path / "always_cuts.py"
    impl.write_text(ALWAYS_CUTS_ENDOFTEXT, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "--level", "special",
                          "-k", "worked_cuts or no_implicit or endoftext",
                          files=["spec/test_train_specials.py", "spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    failed = {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"}
    assert failed == {"train.no-implicit-specials"}, failed
    blamed = run.report["claims"]["train.no-implicit-specials"]["tests"]["failed"]
    assert "spec/test_train_specials.py::test_worked_cuts[unasked-endoftext-is-text]" in blamed, blamed
    assert "not the specials' doing" in run.output
