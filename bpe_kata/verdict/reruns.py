"""A failed test run again, to find evidence of what failed: with a prerequisite's operation swapped for the oracle's
(bpe_kata/verdict/substitution.py, in process only), and with its calls without special tokens in their equivalent
form (bpe_kata/verdict/equivalent_forms.py, in process or through the protocol)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

from bpe_kata.child import client as isolated_client
from bpe_kata.child.faults import IsolationFault
from bpe_kata.verdict import judging, recording, substitution
from bpe_kata.verdict.equivalent_forms import (
    ABSENT,
    FAILED,
    PASSED,
    WITHOUT_SPECIALS_CLAIM,
    behind_the_crash,
    only_without_specials,
)
from spec import blame

#: (the swaps tried, those under which the test passed)
Evidence = tuple[tuple[str, ...], tuple[str, ...]]


def after_failure(implementation: object, as_tested: Callable[[object], object], claims: tuple[str, ...],
                  error: BaseException, rerun: Callable[[], None], property: bool = False,
                  replay_of: Callable[[BaseException], Callable[[], None] | None] = lambda leaf: None,
                  ) -> tuple[Evidence | None, BaseException | None]:
    """(the swaps' evidence, None through the protocol; the failed check to raise instead of ``error``, or None).
    ``as_tested``: the implementation as tests see it (behind its fixed split); ``property``: a Hypothesis test,
    whose rerun draws its examples again (``RERUNS_PER_CLAIM``); ``replay_of``: a failure's own example run again
    alone (bpe_kata/run/example_replay.py), None when the failure names none."""
    found = None
    if not isinstance(implementation, isolated_client.IsolatedImplementation):
        found = substitution.after_failure(as_tested(implementation), claims, error, rerun)

    def is_check(leaf: BaseException) -> bool:
        return judging.judge(leaf, claims, implementation, "").kind == judging.BROKEN

    if os.environ.get("MUTANT_UNDER_TEST"):  # mutmut asks only whether a test fails: a rerun never clears one
        return found, None
    behind = in_equivalent_form(error, rerun, is_check, claims if property else (), replay_of)
    # the swaps were tried on the crash, not on the check found behind it: they say nothing of that check
    return (None, behind) if behind is not None else (found, None)


#: A crashed property is run again behind for at most this many tests of each claim (per process): code that crashes
#: in every training would otherwise have every property run twice (a course solution took eight times as long). A
#: worked case (one call, cheap) is always run again: each states its own case (held out, sixth round: the one
#: case of overlapping specials went unrun once three other cases of its claim had used the reruns).
RERUNS_PER_CLAIM = 3
_reruns: Counter[str] = Counter()


def _worth_a_rerun(claims: tuple[str, ...]) -> bool:
    """Some claim of the test has not had its ``RERUNS_PER_CLAIM`` reruns behind a crash yet (counted here)."""
    if claims and all(_reruns[claim] >= RERUNS_PER_CLAIM for claim in claims):
        return False
    _reruns.update(claims)
    return True


def in_equivalent_form(error: BaseException, rerun: Callable[[], None],
                       is_check: Callable[[BaseException], bool], claims: tuple[str, ...] = (),
                       replay_of: Callable[[BaseException], Callable[[], None] | None] = lambda leaf: None,
                       ) -> BaseException | None:
    """What a failed test's rerun in the equivalent form says: the failed check behind its crash (to raise instead),
    or None; a failed check that passes in that form is charged to ``WITHOUT_SPECIALS_CLAIM`` on ``error`` itself.
    The test's own record of calls is left as the failure made it. A time limit or a child's fault is not run again:
    the time is spent, and the child may be gone."""
    if any(isinstance(leaf, IsolationFault) or judging.safety_net_seconds(leaf) is not None
           for leaf in judging.leaves(error)):
        return None
    record = recording.saved()
    try:
        checks = only_without_specials(error, rerun, is_check, recording.returned(), replay_of)
        for check, form, failed_again, path_claim in checks:
            if form == FAILED and set(blame.blamed_claims(check) or ("",)) <= failed_again:
                blame.attest(check, blame.FAILED_IN_EQUIVALENT_FORM)  # the path with specials fails it too
            if form == PASSED:
                blame.charge(check, (path_claim,), blame.PASSED_IN_EQUIVALENT_FORM)
                path = "training" if path_claim == WITHOUT_SPECIALS_CLAIM else "encoding"
                check.add_note(f"this check passes once every call of {'train' if path == 'training' else 'encode'} "
                               f"without special tokens is given {ABSENT!r}, which never occurs in the text: {path} "
                               f"without special tokens is what fails ({path_claim})")
        if any(form == PASSED for _, form, _, _ in checks):
            return None
        return behind_the_crash(error, rerun, is_check, recording.raised_form(), recording.raised(),
                                lambda: _worth_a_rerun(claims))
    finally:
        recording.restore(record)

