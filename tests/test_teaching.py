"""The likely-mistake lines: read off the broken claims (bpe_kata/teaching.toml), checked on known-wrong files."""

from __future__ import annotations

import pytest

from spec.ledger import load_claims
from bpe_kata.teaching import load_mistakes, render
from tests.support import files_of_claims, files_of_levels, run_spec_inline

#: known-wrong file -> the mistake the report must name first
EXPECTED = {
    "wrong_pairs_no_overlap": "overlapping pairs not counted",
    "wrong_merge_right_to_left": "right-to-left merge",
    "wrong_encode_by_frequency": "encode by frequency",
    "wrong_decode_per_token": "decode per token",
    "wrong_tie_last_counted": "ties to another pair",
    "wrong_tie_lowest_pair": "ties to another pair",
}


def message(name: str) -> str:
    return next(m.message for m in load_mistakes() if m.name == name)


def test_every_rule_names_claims_of_the_ledger_and_says_one_sentence():
    ledger = load_claims()
    for mistake in load_mistakes():
        assert mistake.when and set(mistake.when + mistake.unless) <= set(ledger), mistake.name
        assert mistake.message.endswith(".") and mistake.message.count(". ") == 0, mistake.name
    assert len({m.name for m in load_mistakes()}) == len(load_mistakes())


def test_an_earlier_mistake_keeps_the_later_ones_quiet():
    lines = render({"merge.left-to-right", "train.no-early-stop", "encode.lowest-rank"})
    assert lines == ["likely mistake:", f"  - {message('right-to-left merge')}"]
    assert render(set()) == [] and render({"persist.format"}) == []


@pytest.mark.parametrize("stem", [*EXPECTED, "oracle"])
def test_known_wrong_implementations_get_their_mistake_named_first(tmp_path, spec_tests, stem):
    """Only the tests of the claims the table reads run: the rules see nothing else. The oracle has no mistake."""
    claims = sorted({c for m in load_mistakes() for c in m.when + m.unless})
    impl = "spec.oracle" if stem == "oracle" else f"tests/implementations/{stem}.py"
    run = run_spec_inline(tmp_path, "--impl", impl, "--level", "roundtrip",
                          "-m", "not corpus", "--one-failure-per-claim", *(a for c in claims for a in ("--claim", c)),
                          files=files_of_claims(spec_tests, claims))
    assert run.report is not None
    mistakes = run.report["likely_mistakes"]
    if stem == "oracle":
        assert mistakes == []
    else:
        assert mistakes and mistakes[0] == message(EXPECTED[stem]), (mistakes, run.report["claims"].keys())


def test_the_table_prints_them_before_the_level_table(tmp_path, spec_tests, capsys):
    run = run_spec_inline(tmp_path, "--impl", "tests/implementations/wrong_decode_per_token.py", "--level", "decode",
                          "-m", "not corpus", "--one-failure-per-claim", files=files_of_levels(spec_tests, ("decode",)),
                          capsys=capsys)
    lines = run.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("bpe-kata ") and "implementation" in line)
    assert lines[start + 1:start + 3] == ["likely mistake:", f"  - {message('decode per token')}"]
    assert lines[start + 3].startswith("level ")
