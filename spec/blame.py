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

import pytest

from spec.oracle import split
from spec.tie_rules import DEFAULT_TIE_RULE, TIE_RULES

_BLAMED = "_bpe_kata_claims"
_OWN_TRAINING = "_bpe_kata_own_training"


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
    try:
        yield
    except (AssertionError, pytest.fail.Exception) as failure:
        if getattr(failure, _BLAMED, None) is None:
            setattr(failure, _BLAMED, tuple(claims))
            setattr(failure, _OWN_TRAINING, own_training)
        raise


def as_checked(claims: tuple[str, ...]) -> tuple[str, ...]:
    """The claims a check is about when the implementation declares another default tie rule (spec/oracle/split.py):
    every claim whose values hold only under the first-counted rule (the ledger's ``depends_on_tie_rule``) is then
    a check of the declared rule's claim, since the oracle ties by that rule; credited and blamed as such."""
    rule = split.tie_rule(None)
    if rule == DEFAULT_TIE_RULE:
        return claims
    from spec.ledger import load_claims  # the ledger, read once

    ledger = load_claims()
    return tuple(dict.fromkeys(
        TIE_RULES[rule].claim if claim in ledger and ledger[claim].depends_on_tie_rule == DEFAULT_TIE_RULE else claim
        for claim in claims))


def blamed_claims(failure: BaseException) -> tuple[str, ...] | None:
    """The claims the failing check was about (``checking``), or None for an unmarked failure."""
    return getattr(failure, _BLAMED, None)


def checked_own_training(failure: BaseException) -> bool:
    """The failing check was on a table the implementation trained with its default tie rule."""
    return bool(getattr(failure, _OWN_TRAINING, False))
