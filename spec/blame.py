"""Exact blame: which claim a failing assertion of the spec is about.

A test may check several claims. Wrapping each assertion in ``checking(claim)`` records on the
failure which claim that assertion is about, so the report credits the failure to that claim
alone; the test's other claims are "not checked" by it. What the runner makes of a failure
(broken claims, or an error's root cause) is the runner's business: it reads the mark with
``blamed_claims`` and ``checked_own_training``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import pytest

from spec import tie_battery
from spec.oracle import split
from spec.tie_rules import DEFAULT_TIE_RULE, TIE_RULES

_BLAMED = "_bpe_kata_claims"
_OWN_TRAINING = "_bpe_kata_own_training"

#: Set while a worked case runs: its stated value was found to hold under the split in force, or it was refused.
_AS_STATED: ContextVar[bool] = ContextVar("bpe_kata_as_stated", default=False)


@contextmanager
def as_stated() -> Iterator[None]:
    """A worked case's checks: each is of the claims the case names, whatever tie rule the implementation declares.

    Under a declared rule a case runs only when its stated value is the same under that rule and split
    (``oracle.split.holds_as_stated``; refused otherwise), so what it checks is the claim as stated, not the rule:
    the 259-entry walkthrough on aaabdaaabac learns the same three merges by bytes-greatest as by first-counted."""
    token = _AS_STATED.set(True)
    try:
        yield
    finally:
        _AS_STATED.reset(token)


@contextmanager
def checking(*claims: str, own_training: bool = False) -> Iterator[None]:
    """``with checking("train.ids-from-256"): assert ...``: a failure here breaks only these claims.

    Only the spec's own check failing (AssertionError, ``pytest.fail``) is labelled; any other
    exception passes through untouched and is reported as an error. Nested blocks: the
    innermost wins.

    ``own_training=True`` says the values checked here come from a table the implementation
    trained itself with its default tie rule: only such a failure may carry the ledger's
    ``depends_on_tie_rule`` excuse (a trainer with another documented rule may fail it). A check
    of the implementation's encode or decode on the spec's own tables never may.
    """
    claims = as_checked(claims)
    trained = own_training
    # the ledger's excuse is for a trainer whose rule the oracle does not know; a declared rule is the oracle's own
    own_training = own_training and split.tie_rule(None) == DEFAULT_TIE_RULE
    try:
        yield
    except (AssertionError, pytest.fail.Exception) as failure:
        if getattr(failure, _BLAMED, None) is None:
            behind = _split_behind_the_ties(claims) if trained else None
            if behind is not None:
                failure.add_note(behind[1])
                claims, own_training = (behind[0],), False
            elif trained and _counts_not_the_rule(claims):
                failure.add_note("the trainer learns its tie rule's whole table on texts full of ties between merged "
                                 "tokens (spec/tie_battery.py): a wrong pick among pairs of the same count here comes "
                                 f"from its counts ({tie_battery.COUNTS_CLAIM})")
                claims, own_training = (tie_battery.COUNTS_CLAIM,), False
            setattr(failure, _BLAMED, tuple(claims))
            setattr(failure, _OWN_TRAINING, own_training)
        raise


def _tie_choice_only(claims: tuple[str, ...]) -> bool:
    from spec.ledger import load_claims

    ledger = load_claims()
    tie_claims = {rule.claim for rule in TIE_RULES.values()}
    return bool(claims) and all(c in tie_claims or (c in ledger and ledger[c].depends_on_tie_rule) for c in claims)


def _split_behind_the_ties(claims: tuple[str, ...]) -> tuple[str, str] | None:
    """A failed check of a tie choice only, on the trainer's own table: the split's claim when the trainer's chunks
    explain it (spec/split_check.py ``split_behind_the_ties``), asked before the tie rule or the counts are."""
    if not _tie_choice_only(claims):
        return None
    from spec import split_check  # it checks with this module: imported when asked

    return split_check.split_behind_the_ties()


def _counts_not_the_rule(claims: tuple[str, ...]) -> bool:
    """A failed check of a tie choice only, on the trainer's own table, whose tie rule the battery shows right."""
    return _tie_choice_only(claims) and tie_battery.rule_is_right(split.tie_rule(None))


def as_checked(claims: tuple[str, ...], stated: bool = False) -> tuple[str, ...]:
    """The claims a check is about when the implementation declares another default tie rule (spec/oracle/split.py):
    every claim whose values hold only under the first-counted rule (the ledger's ``depends_on_tie_rule``) is then
    a check of the declared rule's claim, since the oracle ties by that rule; credited and blamed as such. A worked
    case's check (``stated``, or inside ``as_stated``) stays the claim's own: it runs only where its value holds."""
    rule = split.tie_rule(None)
    if rule == DEFAULT_TIE_RULE or stated or _AS_STATED.get():
        return claims
    from spec.ledger import load_claims  # the ledger, read once

    ledger = load_claims()
    return tuple(dict.fromkeys(
        TIE_RULES[rule].claim if claim in ledger and ledger[claim].depends_on_tie_rule == DEFAULT_TIE_RULE else claim
        for claim in claims))


def charge(failure: BaseException, claims: tuple[str, ...], evidence: str = "") -> None:
    """Blame ``failure`` on ``claims`` instead, with ``evidence`` the runner found (a rerun in another call form:
    ``PASSED_IN_EQUIVALENT_FORM``)."""
    setattr(failure, _BLAMED, tuple(claims))
    setattr(failure, _OWN_TRAINING, False)
    setattr(failure, _EVIDENCE, evidence)


#: The evidence of a check that passed once the calls without special tokens were given an absent one: the same
#: implementation, the same split, so the failure is training without specials', not the split's.
PASSED_IN_EQUIVALENT_FORM = "passed in the equivalent form"
#: The evidence of a check that failed again once the calls without special tokens were given an absent one: the
#: path with specials fails it too, so training without specials does not explain it (its claims stand).
FAILED_IN_EQUIVALENT_FORM = "failed in the equivalent form too"
_EVIDENCE = "_bpe_kata_evidence"


def attest(failure: BaseException, evidence: str) -> None:
    """Record ``evidence`` a rerun found for the failure's own claims, leaving them as the check named them."""
    setattr(failure, _EVIDENCE, evidence)


def evidence_of(failure: BaseException) -> str:
    """The evidence ``charge`` was given for the failure's claims ("" when the check named them itself)."""
    return getattr(failure, _EVIDENCE, "")


def blamed_claims(failure: BaseException) -> tuple[str, ...] | None:
    """The claims the failing check was about (``checking``), or None for an unmarked failure."""
    return getattr(failure, _BLAMED, None)


def checked_own_training(failure: BaseException) -> bool:
    """The failing check was on a table the implementation trained with its default tie rule."""
    return bool(getattr(failure, _OWN_TRAINING, False))
