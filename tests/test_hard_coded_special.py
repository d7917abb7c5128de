"""A special token hard-coded in a trainer (a CS336 habit): with no special asked it is train.no-implicit-specials'
defect; with other specials asked, a cut at one not asked is train.special-tokens' (the text is cut where an asked
special occurs, and only there), never an early stop (fifth round, open kind 7; the sixth round's classifier read
the ledger's statements so, against the fifth's)."""

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
    assert failed == {"train.no-implicit-specials", "train.special-tokens"}, failed
    blamed = run.report["claims"]["train.special-tokens"]["tests"]["failed"]
    assert blamed == ["spec/test_train_specials.py::test_worked_cuts[unasked-endoftext-is-text]"], blamed
    assert "unasked-endoftext-is-text" not in str(run.report["claims"]["train.no-implicit-specials"]["tests"])
