"""The split an implementation declares it always uses (spec/fixed_pattern.py), read for the run, and the
refusal of a call the running test cannot be judged on (a call with another split than the fixed one).

``KataRun`` keeps the split in force and the running test (bpe_kata/run/kata_run.py); the oracle then splits
with that pattern in every test (spec/oracle/split.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import hypothesis
import pytest

from bpe_kata.verdict import outcomes
from bpe_kata.verdict.outcomes import Outcome
from spec import fixed_pattern
from spec.oracle import split
from spec.tie_rules import DEFAULT_TIE_RULE, TIE_RULES

#: The first reason a property's example was dropped for (a call with another split than the fixed one).
REFUSED = pytest.StashKey[str]()


def declared(implementation, refuse: Callable[[str], NoReturn]) -> split.Split | None:
    """The implementation's fixed split, with the tie rule it trains with by default; None when it declares
    none. A bad declaration is a usage error."""
    try:
        pattern = fixed_pattern.fixed_pattern(implementation)
    except fixed_pattern.BadFixedPattern as error:
        raise pytest.UsageError(str(error)) from None
    if pattern is None:
        return None
    rule = getattr(fixed_pattern.unwrap(implementation), "DEFAULT_TIE_RULE", DEFAULT_TIE_RULE)
    if rule not in TIE_RULES:
        raise pytest.UsageError(f"DEFAULT_TIE_RULE must be one of {', '.join(TIE_RULES)}, got {rule!r}: "
                                "name the documented rule your train uses")
    return split.Split(pattern, fixed_pattern.label(pattern), refuse, rule)


def refuse(item: pytest.Item | None, reason: str) -> NoReturn:
    """A call the running test (``item``; None: no test is running) cannot be judged on: the test is "not
    started"; inside a property, only that example is dropped (a test whose every example is dropped is "not
    started", KataRun.pytest_runtest_call)."""
    if item is None:
        raise NotImplementedError(reason)
    if hypothesis.currently_in_test_context():
        item.stash.setdefault(REFUSED, reason)
        hypothesis.reject()
    outcomes.skip(item, Outcome.FEATURE_NOT_STARTED, reason)
