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


NOTHING_WITHOUT_SPECIALS_AND_CUTS_ENDOFTEXT = '''
"""Learns nothing with no special asked (re.split("") of each chunk); with specials asked, cuts <|endoftext|> too."""
import reference
from reference import build_vocab, decode, encode, encode_iterable, get_stats, merge  # noqa: F401


def train(text, vocab_size, *, special_tokens=None, pattern=None, tie_rule=None):
    if vocab_size < 256:
        raise ValueError("vocab_size below 256")
    asked = list(special_tokens or [])
    if not asked:
        return {}
    return reference.train(text, vocab_size, special_tokens=asked + ["<|endoftext|>"] * ("<|endoftext|>" not in asked),
                           pattern=pattern)
'''


def test_a_control_that_meets_another_defect_is_no_evidence(tmp_path, capsys):
    """The rule, not the case (eighth round, development): a specials check is charged to plain training only when
    training without specials makes the same wrong merges. Here the no-specials path learns nothing (a defect of its
    own), so the cut at the unasked <|endoftext|> stays train.special-tokens' and is not charged to the other."""
    impl = tmp_path / "two_defects.py"
    impl.write_text(NOTHING_WITHOUT_SPECIALS_AND_CUTS_ENDOFTEXT, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "-k", "worked_cuts",
                          files=["spec/test_train_specials.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    failed = run.report["claims"]["train.special-tokens"]["tests"].get("failed", [])
    assert "spec/test_train_specials.py::test_worked_cuts[unasked-endoftext-is-text]" in failed, run.report["claims"]
