"""The documented tie rules, the spec's one list of them: name -> the claim that defines it.

Adding a rule is one entry here (plus its claim in the ledger, its row in CONTRACT.md's ties
table and its choice in the oracle); the levels' probes, the ties tests and the tie probe
read this table. The reference keeps its own table (``reference/tie_rules.py``: it must not
import the spec); tests/test_tie_rules.py checks that the two name the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TieRule:
    name: str
    claim: str  #: the ledger claim that defines the rule
    summary: str  #: what it picks among the pairs sharing the highest count


DEFAULT_TIE_RULE = "first-counted"

TIE_RULES: dict[str, TieRule] = {
    rule.name: rule
    for rule in (
        TieRule("first-counted", "train.tie-first-counted", "the pair whose first occurrence comes earliest"),
        TieRule("lowest-pair", "ties.lowest-pair", "the smallest (left id, right id)"),
        TieRule(
            "bytes-greatest",
            "ties.bytes-greatest",
            "the greatest (left bytes, right bytes); equal bytes: first-counted",
        ),
    )
}
