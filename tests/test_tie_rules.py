"""The spec's and the reference's tie-rule tables name the same rules, and each rule is documented."""

from __future__ import annotations

from pathlib import Path

import pytest

import reference
from reference import tie_rules as reference_rules
from spec import tie_rules as spec_rules
from spec.ledger import load_claims
from spec.oracle import ties as oracle_ties

ROOT = Path(__file__).resolve().parents[1]


def test_the_spec_and_the_reference_know_the_same_rules_in_the_same_order():
    assert list(spec_rules.TIE_RULES) == list(reference_rules.TIE_RULES)
    assert spec_rules.DEFAULT_TIE_RULE == reference_rules.DEFAULT_TIE_RULE == next(iter(spec_rules.TIE_RULES))


def test_the_oracle_has_a_choice_for_every_rule_and_no_other():
    assert list(oracle_ties.CHOICES) == list(spec_rules.TIE_RULES)


def test_each_rule_is_defined_by_a_claim_and_a_row_of_the_contract():
    contract = (ROOT / "spec" / "CONTRACT.md").read_text(encoding="utf-8")
    ties_section = contract.split("### ties", 1)[1].split("\n### ", 1)[0]
    for name, rule in spec_rules.TIE_RULES.items():
        assert load_claims()[rule.claim].kind == "contract", name
        assert f'| `"{name}"`' in ties_section and f"[{rule.claim}]" in ties_section, name


@pytest.mark.parametrize("name", [None, 1, "", "First-Counted"])
def test_the_reference_refuses_an_unknown_rule_once_at_its_public_entry(name):
    for pattern in (None, r" ?\S+"):
        with pytest.raises(ValueError, match="first-counted, lowest-pair, bytes-greatest"):
            reference.train("ab ab", 258, pattern=pattern, tie_rule=name)
